import XCTest
final class StrataObjectsTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertEqual(1 + 1, 2) } }
