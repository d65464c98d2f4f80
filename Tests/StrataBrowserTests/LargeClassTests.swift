import XCTest
@testable import StrataBrowser

/// A class of 10 million objects opens and scrolls by reading only the visible rows.
final class LargeClassTests: XCTestCase {
    func testOnlyVisibleRowsAreRequested() {
        let harness = Harness()
        harness.press("h", "j", "j", "l")
        _ = harness.frame
        let visible = 19  // 24 rows − tab bar, breadcrumb, header, message, status
        harness.press("G"); _ = harness.frame
        XCTAssertTrue(harness.lines[1].hasSuffix("10,000,000/10,000,000"), harness.lines[1])
        XCTAssertTrue(harness.lines[21].contains("10,000,000") || harness.lines[21].contains("10000000"), harness.lines[21])
        harness.press("C-u"); _ = harness.frame
        harness.press("PgUp"); _ = harness.frame
        for _ in 0..<30 { harness.press("k"); _ = harness.frame }
        harness.press("g"); _ = harness.frame
        let requests = harness.source.rowRequests.filter { $0.className == "Event" }
        XCTAssertFalse(requests.isEmpty)
        for request in requests { XCTAssertLessThanOrEqual(request.range.count, visible, "\(request.range)") }
        XCTAssertLessThan(requests.reduce(0) { $0 + $1.range.count }, 1000)
        XCTAssertTrue(requests.contains { $0.range == 9_999_981..<10_000_000 })
        XCTAssertLessThanOrEqual(harness.source.countRequests.filter { $0 == "Event" }.count, 2, "no recount while scrolling")
    }

    func testRedrawingWithoutMovingReadsNothing() {
        let harness = Harness()
        _ = harness.frame
        let before = harness.source.rowRequests.count
        for _ in 0..<5 { _ = harness.frame }
        XCTAssertEqual(harness.source.rowRequests.count, before)
    }
}
