import XCTest
final class StrataQueryTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertEqual(1 + 1, 2) } }
