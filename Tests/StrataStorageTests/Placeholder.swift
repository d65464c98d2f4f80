import XCTest
final class StrataStorageTestsPlaceholder: XCTestCase { func testBuilds() { XCTAssertEqual(1 + 1, 2) } }
