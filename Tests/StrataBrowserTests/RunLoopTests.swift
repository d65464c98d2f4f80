import XCTest
@testable import StrataBrowser

/// The run loop on the in-memory backend: drawing, quitting, waking for changes, and sleeping
/// with no timeout while nothing is pending.
final class RunLoopTests: XCTestCase {
    func testQuitEndsTheLoopAndRestoresTheTerminal() throws {
        let source = FakeDataSource(now: { FakeDataSource.referenceDate })
        let backend = MemoryTerminalBackend()
        backend.type([.character("j"), .character("q"), .character("j")])
        let result = try runBrowser(dataSource: source, backend: backend, environment: [:], clock: { FakeDataSource.referenceDate })
        XCTAssertEqual(result, 0)
        XCTAssertFalse(backend.isStarted)
        XCTAssertEqual(backend.pendingKeys, [.character("j")], "keys after q are not read")
        XCTAssertTrue(backend.frames.last!.textLines()[1].hasSuffix("2/24"))
    }

    func testAChangeWakesTheLoopAndMarksExpireWithATimeout() throws {
        let clock = TestClock()
        let source = FakeDataSource(now: { clock.now })
        let backend = MemoryTerminalBackend()
        backend.beforeWait = { waits in
            switch waits {
            case 0: source.simulateExternalCommit()  // the handler wakes the loop
            case 1: clock.advance(2); backend.type([.character("j")])
            default: break
            }
        }
        try runBrowser(dataSource: source, backend: backend, environment: [:], clock: { clock.now })
        XCTAssertEqual(backend.waits.first!, nil, "idle: no timeout, no CPU")
        XCTAssertEqual(backend.waits[1], 1500, "a mark is pending: wake when it expires")
        XCTAssertEqual(backend.waits[2], nil)
        let marked = backend.frames[1].textLines()[4]
        XCTAssertTrue(marked.contains("•") && marked.contains("26"), marked)
        XCTAssertFalse(backend.frames.last!.textLines()[4].contains("•"))
    }

    func testResizeKeyChangesTheFrameSize() throws {
        let source = FakeDataSource(now: { FakeDataSource.referenceDate })
        let backend = MemoryTerminalBackend()
        backend.type([.resize(columns: 100, rows: 30)])
        try runBrowser(dataSource: source, backend: backend, environment: [:])
        XCTAssertEqual(backend.frames.last!.width, 100)
        XCTAssertEqual(backend.frames.last!.height, 30)
    }
}
