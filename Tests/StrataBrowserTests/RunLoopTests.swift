import XCTest
@testable import StrataBrowser

/// The run loop on the in-memory backend: drawing, quitting, waking for changes, and sleeping
/// with no timeout while nothing is pending.
final class RunLoopTests: XCTestCase {
    /// The browser opens on the first class (Address, Company, Dog, Event, Person, Product): keys to Person.
    static let openPerson: [Key] = [.character("h"), .character("g")] + Array(repeating: .character("j"), count: 4) + [.character("l")]

    func testQuitEndsTheLoopAndRestoresTheTerminal() throws {
        let harness = Harness()
        let backend = MemoryTerminalBackend()
        backend.type(Self.openPerson + [.character("j"), .character("q"), .character("j")])
        let result = try runBrowser(dataSource: harness.source, backend: backend, environment: [:], clock: { RecordingDataSource.referenceDate })
        XCTAssertEqual(result, 0)
        XCTAssertFalse(backend.isStarted)
        XCTAssertEqual(backend.pendingKeys, [.character("j")], "keys after q are not read")
        XCTAssertTrue(backend.frames.last!.textLines()[1].hasSuffix("2/24"))
    }

    func testAChangeWakesTheLoopAndMarksExpireWithATimeout() throws {
        let harness = Harness()
        let clock = harness.clock
        let backend = MemoryTerminalBackend()
        backend.type(Self.openPerson)
        backend.beforeWait = { waits in
            switch waits {
            case 1:
                // The commit observer wakes the loop (from the engine's thread): wait until it has.
                let signals = harness.source.changeSignals
                harness.externalAgeChange(person: 2, age: 26)
                let deadline = Date().addingTimeInterval(60)
                while harness.source.changeSignals == signals, Date() < deadline { usleep(1000) }
            case 2: clock.advance(2); backend.type([.character("j")])
            default: break
            }
        }
        try runBrowser(dataSource: harness.source, backend: backend, environment: [:], clock: { clock.now })
        // Wait 0 reads the keys that open Person; wait 1 is idle; the commit wakes it.
        XCTAssertEqual(backend.waits[1], nil, "idle: no timeout, no CPU")
        XCTAssertEqual(backend.waits[2], 1500, "a mark is pending: wake when it expires")
        XCTAssertEqual(backend.waits[3], nil)
        let marked = backend.frames[2].textLines()[4]
        XCTAssertTrue(marked.contains("•") && marked.contains("26"), marked)
        XCTAssertFalse(backend.frames.last!.textLines()[4].contains("•"))
    }

    func testResizeKeyChangesTheFrameSize() throws {
        let harness = Harness()
        let backend = MemoryTerminalBackend()
        backend.type([.resize(columns: 100, rows: 30)])
        try runBrowser(dataSource: harness.source, backend: backend, environment: [:])
        XCTAssertEqual(backend.frames.last!.width, 100)
        XCTAssertEqual(backend.frames.last!.height, 30)
    }
}
