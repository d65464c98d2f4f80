import XCTest
@testable import StrataBrowser
import StrataTooling

/// Compaction from the browser on the real file: full (alone), online (another handle has the
/// file open), cancelled.
final class CompactionTests: XCTestCase {
    func testFullCompactionFlow() {
        let harness = Harness()
        let before = harness.source.status().totalBytes
        let plan = harness.source.compactionPlan()
        harness.press("3", "c")
        let question = "Compact demo.strata? \(Formatting.bytes(plan.totalBytes)) → about \(Formatting.bytes(plan.expectedBytes))"
        XCTAssertTrue(harness.text.contains(question), harness.text)
        var frames: [String] = []
        harness.app.onIntermediateFrame = { frames.append($0.textLines().joined(separator: "\n")) }
        harness.press("y")
        XCTAssertTrue(frames.contains { $0.contains("Compacting") && $0.contains("%") }, frames.joined(separator: "\n\n"))
        XCTAssertTrue(harness.text.contains("Compaction done"), harness.text)
        let after = harness.source.status().totalBytes
        XCTAssertLessThan(after, before)
        let summary = "\(Formatting.bytes(before)) → \(Formatting.bytes(after))"
        XCTAssertTrue(harness.text.contains(summary), harness.text)
        XCTAssertTrue(harness.app.log.contains { $0.text.hasPrefix("compaction: \(summary)") }, harness.app.log.map(\.text).joined(separator: "\n"))
        XCTAssertTrue(harness.lines[23].contains("compacted"), harness.lines[23])
        harness.press("x")
        XCTAssertFalse(harness.text.contains("Compaction done"))
        XCTAssertTrue(harness.lines[22].contains("compaction: \(summary)"), harness.lines[22])
        // The browser keeps working on the compacted file.
        harness.press("1", "j")
        XCTAssertTrue(harness.lines[1].hasSuffix("2/24"), harness.lines[1])
    }

    func testOtherHandlesAreNamedAndOnlineCompactionOffered() {
        let harness = Harness()
        _ = harness.other  // another participant
        harness.press("c")
        let text = harness.text
        XCTAssertTrue(text.contains("another handle in this process"), text)
        XCTAssertTrue(text.contains("online compaction"), text)
        XCTAssertFalse(text.contains("y compact"))
        harness.press("y")  // not an answer here
        XCTAssertTrue(harness.text.contains("another handle"))
        harness.press("o")
        XCTAssertTrue(harness.text.contains("Online compaction done"), harness.text)
        XCTAssertTrue(harness.app.log.contains { $0.text.hasPrefix("online compaction") }, harness.app.log.map(\.text).joined(separator: "\n"))
    }

    /// In a 40×10 terminal the online offer was cut below its text: the keys line (o online
    /// compaction, n cancel) was not on screen. The last line is kept, the text cut with "…".
    func testTheDialogKeysStayVisibleInASmallTerminal() {
        let harness = Harness(columns: 40, rows: 10)
        _ = harness.other  // another participant
        harness.press("c")
        var text = harness.text
        XCTAssertTrue(text.contains("o online compaction"), text)
        XCTAssertTrue(text.contains("n cancel"), text)
        XCTAssertTrue(text.contains("…"), text)
        harness.press("o")
        text = harness.text
        XCTAssertTrue(text.contains("Online compaction done"), text)
        XCTAssertTrue(text.contains("Press any key"), text)
    }

    func testCompactionCanBeCancelled() {
        let harness = Harness()
        let before = harness.source.status()
        harness.press("c", "n")
        XCTAssertEqual(harness.source.status(), before)
        XCTAssertTrue(harness.lines[22].contains("compaction cancelled"))
    }
}
