import XCTest
final class StrataBrowserTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertEqual(1 + 1, 2) } }
