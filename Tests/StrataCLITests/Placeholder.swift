import XCTest
final class StrataCLITestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertEqual(1 + 1, 2) } }
