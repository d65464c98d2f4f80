import Foundation
import StrataObjects
import StrataStorage
import StrataTooling
import XCTest
@testable import StrataBrowser
#if canImport(Glibc)
import Glibc
#endif

/// The Versions screen names the process holding the write lock (issue 18 item 13): a writer
/// that stopped while holding it blocks every other writer, and this is where the user sees who.
final class VersionsWriteLockTests: XCTestCase {
    /// Another handle (here: in this process) takes the lock while the Versions screen is shown
    /// and was drawn before: the holder appears without a commit, and goes when it lets go.
    func testVersionsScreenShowsTheWriteLockHolderOnlyWhileItIsHeld() throws {
        let harness = Harness(columns: 120)
        harness.press("2")
        XCTAssertFalse(harness.text.contains("Write lock"), harness.text)

        let w = try harness.other.write(label: "hold")
        let expected = "Write lock held by pid \(getpid()) (strata demo --churn) since "
        XCTAssertTrue(harness.text.contains(expected), harness.text)
        harness.press("1", "2")
        XCTAssertTrue(harness.text.contains(expected), harness.text)
        w.abort()
        XCTAssertFalse(harness.text.contains("Write lock"), harness.text)
    }

    /// A child process holds the lock: the screen names it (pid and label).
    func testVersionsScreenShowsAnotherProcessHoldingTheWriteLock() throws {
        let harness = Harness(columns: 120)
        harness.press("2")
        let child = try TestWriter.hold(harness.url.path, label: "stuck writer")
        defer { child.stop() }
        XCTAssertTrue(harness.text.contains("Write lock held by pid \(child.pid) (stuck writer) since "), harness.text)
        XCTAssertEqual(harness.app.millisecondsUntilNextTimedEvent(), 1000, "the Versions screen is redrawn each second")
        child.stop()
        XCTAssertFalse(harness.text.contains("Write lock"), harness.text)
    }

    /// A copy of the demo whose newest meta slot has one damaged byte: the browser opens it at the
    /// older version and says so in its Log, as `strata info` does.
    func testDamagedMetaSlotWarningIsInTheLogAtOpen() throws {
        let url = TestDatabase.copy()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var bytes = [UInt8](try Data(contentsOf: url))
        func version(_ slot: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[slot * Int(MetaSlot.slotStride) + 16 + $1]) << (8 * UInt64($1)) }
        }
        let newest = version(0) > version(1) ? 0 : 1
        let claimed = version(newest), opened = version(1 - newest)
        bytes[newest * Int(MetaSlot.slotStride) + 48] ^= 0x40   // its commit time
        try Data(bytes).write(to: url)

        let source = try DatabaseDataSource(path: url.path, readOnly: true)
        defer { source.close() }
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 80, rows: 24), environment: [:], clock: { Date() })
        let expected = "warning: meta slot \(newest) claims version \(claimed) and fails its checksum; opened at version \(opened)"
        XCTAssertTrue(app.log.contains { $0.kind == .error && $0.text.hasPrefix(expected) }, "\(app.log)")
    }
}
