import XCTest
@testable import StrataBrowser

final class CompactionTests: XCTestCase {
    func testFullCompactionFlow() {
        let harness = Harness(otherProcesses: [])
        let before = harness.source.status().totalBytes
        harness.press("3", "c")
        XCTAssertTrue(harness.text.contains("Compact demo.strata? 969 MiB → about 897 MiB"), harness.text)
        var frames: [String] = []
        harness.app.onIntermediateFrame = { frames.append($0.textLines().joined(separator: "\n")) }
        harness.press("y")
        XCTAssertTrue(frames.contains { $0.contains("Compacting") && $0.contains("█") && $0.contains("%") })
        XCTAssertTrue(frames.contains { $0.contains("copying Person") })
        XCTAssertTrue(harness.text.contains("Compaction done"))
        XCTAssertTrue(harness.text.contains("969 MiB → 897 MiB: gave back 72.0 MiB in 1.2 s"), harness.text)
        XCTAssertLessThan(harness.source.status().totalBytes, before)
        XCTAssertTrue(harness.app.log.last?.text.hasPrefix("compaction: 969 MiB → 897 MiB") ?? false)
        XCTAssertTrue(harness.lines[23].contains("−72.0M compacted"), harness.lines[23])
        harness.press("x")
        XCTAssertFalse(harness.text.contains("Compaction done"))
        XCTAssertTrue(harness.lines[22].contains("compaction: 969 MiB → 897 MiB (−72.0 MiB) in 1.2 s"), harness.lines[22])
        XCTAssertTrue(harness.text.contains("free 0 B"), "the Space screen is refreshed")
        let wide = Harness(columns: 140, rows: 40, otherProcesses: [])
        wide.press("c", "y", "Esc")
        XCTAssertTrue(wide.lines[39].contains("compacted −72.0 MiB"), wide.lines[39])
    }

    func testOtherProcessesAreNamedAndOnlineCompactionOffered() {
        let harness = Harness()
        harness.press("c")
        let text = harness.text
        XCTAssertTrue(text.contains("pid 4242"))
        XCTAssertTrue(text.contains("pid 5120"))
        XCTAssertTrue(text.contains("online compaction"))
        XCTAssertFalse(text.contains("y compact"))
        harness.press("y")  // not an answer here
        XCTAssertTrue(harness.text.contains("pid 4242"))
        harness.press("o")
        XCTAssertTrue(harness.text.contains("Online compaction done"), harness.text)
        XCTAssertTrue(harness.app.log.last?.text.hasPrefix("online compaction") ?? false)
        XCTAssertGreaterThan(harness.source.status().lockedBytes, 0, "pinned space stays")
    }

    func testCompactionCanBeCancelled() {
        let harness = Harness(otherProcesses: [])
        let before = harness.source.status()
        harness.press("c", "n")
        XCTAssertEqual(harness.source.status(), before)
        XCTAssertTrue(harness.lines[22].contains("compaction cancelled"))
    }
}
