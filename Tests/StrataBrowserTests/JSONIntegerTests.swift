import XCTest
@testable import StrataTooling

/// Integers read from a file reach the JSON output exactly, whatever their type (a `UInt64`
/// above `Int64.max` trapped in the conversion).
final class JSONIntegerTests: XCTestCase {
    func testEveryIntegerTypeRendersExactly() {
        XCTAssertEqual(JSON.int(UInt64.max).render(pretty: false), "18446744073709551615")
        XCTAssertEqual(JSON.int(UInt64(Int64.max) + 1).render(pretty: false), "9223372036854775808")
        XCTAssertEqual(JSON.int(Int64.min).render(pretty: false), "-9223372036854775808")
        XCTAssertEqual(JSON.int(UInt32.max).render(pretty: false), "4294967295")
        XCTAssertEqual(JSON.object([("version", .int(UInt64.max))]).render(pretty: false), "{\"version\":18446744073709551615}")
    }
}
