import XCTest
@testable import StrataBrowser
import StrataTooling

/// A large class opens and scrolls by reading only the visible rows (the recorder counts the
/// row requests the browser makes to the real data source).
final class LargeClassTests: XCTestCase {
    /// Opens the Event class from the sidebar.
    private func openEvents(_ harness: Harness) {
        harness.open("Event")
    }

    func testOnlyVisibleRowsAreRequested() {
        let harness = Harness()
        openEvents(harness)
        _ = harness.frame
        let visible = 19  // 24 rows − tab bar, breadcrumb, header, message, status
        let total = Formatting.number(TestDatabase.events - TestDatabase.events / 10)
        harness.press("G"); _ = harness.frame
        XCTAssertTrue(harness.lines[1].hasSuffix("\(total)/\(total)"), harness.lines[1])
        harness.press("C-u"); _ = harness.frame
        harness.press("PgUp"); _ = harness.frame
        for _ in 0..<30 { harness.press("k"); _ = harness.frame }
        harness.press("g"); _ = harness.frame
        let requests = harness.source.rowRequests.filter { $0.className == "Event" }
        XCTAssertFalse(requests.isEmpty)
        for request in requests { XCTAssertLessThanOrEqual(request.range.count, visible, "\(request.range)") }
        XCTAssertLessThan(requests.reduce(0) { $0 + $1.range.count }, 1000)
        let count = TestDatabase.events - TestDatabase.events / 10
        XCTAssertTrue(requests.contains { $0.range == (count - visible)..<count }, "\(requests)")
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
