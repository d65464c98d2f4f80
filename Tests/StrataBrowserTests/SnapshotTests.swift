import XCTest
@testable import StrataBrowser
import StrataTooling

/// Every screen at 80×24 and at 140×40 against golden files (STRATA_RECORD=1 re-records).
final class SnapshotTests: XCTestCase {
    static let sizes = [(80, 24), (140, 40)]

    /// `otherHandle`: a second handle has the file open (another participant, as another process).
    private func snapshot(_ name: String, otherHandle: Bool = false,
                          file: StaticString = #filePath, line: UInt = #line, _ keys: String...) {
        for (columns, rows) in Self.sizes {
            let harness = Harness(columns: columns, rows: rows)
            if otherHandle { _ = harness.other }
            for key in keys { harness.press(key) }
            Golden.assertMatches(harness.frame, named: "\(name)-\(columns)x\(rows)", file: file, line: line)
        }
    }

    func testDataTable() { snapshot("data-table") }
    func testDataTableScrolledRight() { snapshot("data-table-right", "j", "j", "End") }
    func testObjectDetail() { snapshot("data-detail", "j", "j", "Enter") }
    func testListView() { snapshot("data-list", "j", "j", "l", "l", "l", "l", "l", "l", "l", "Enter") }
    func testBacklinks() { snapshot("data-backlinks", "h", "j", "l", "b") }
    func testTenMillionObjectClass() { snapshot("data-event", "h", "j", "j", "l", "G") }
    func testSidebarFocused() { snapshot("data-sidebar", "h", "j") }
    func testVersions() { snapshot("versions", "2") }
    func testSpace() { snapshot("space", "3") }
    func testCompactionScreen() { snapshot("compaction-screen", "5") }
    func testHelpOverlay() { snapshot("help", "?") }
    func testCompactionConfirm() { snapshot("compaction-confirm", "c") }
    func testCompactionOnlineOffer() { snapshot("compaction-online-offer", otherHandle: true, "c") }
    func testCompactionDone() { snapshot("compaction-done", "c", "y") }
    func testFilterPrompt() { snapshot("filter-prompt", "/", "a", "g", "e", " ", ">", " ", "5", "0") }

    func testLogAfterLiveCommit() {
        for (columns, rows) in Self.sizes {
            let harness = Harness(columns: columns, rows: rows)
            harness.externalAgeChange()
            harness.app.processChanges()
            harness.press("4")
            Golden.assertMatches(harness.frame, named: "log-\(columns)x\(rows)")
        }
    }

    func testLiveCommitMarksRow() {
        for (columns, rows) in Self.sizes {
            let harness = Harness(columns: columns, rows: rows)
            harness.externalAgeChange()
            harness.app.processChanges()
            Golden.assertMatches(harness.frame, named: "data-live-mark-\(columns)x\(rows)")
        }
    }

    func testCompactionProgress() {
        let harness = Harness()
        var frames: [CellBuffer] = []
        harness.app.onIntermediateFrame = { frames.append($0) }
        harness.press("c", "y")
        XCTAssertGreaterThan(frames.count, 3)
        Golden.assertMatches(frames[frames.count / 2], named: "compaction-progress-80x24")
    }

    func testSmallTerminal() {
        let harness = Harness(columns: 20, rows: 5)
        Golden.assertMatches(harness.frame, named: "small-20x5")
    }
}
