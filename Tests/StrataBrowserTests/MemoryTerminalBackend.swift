import Foundation
@testable import StrataBrowser

/// An in-memory terminal for tests and scripted runs: keys come from a queue, frames are kept.
final class MemoryTerminalBackend: TerminalBackend {
    private(set) var size: TerminalSize
    var supportsColor: Bool
    /// Every frame drawn, oldest first.
    private(set) var frames: [CellBuffer] = []
    /// Keys not read yet.
    var pendingKeys: [Key] = []
    private(set) var isStarted = false
    /// How many times the run loop waited, and with which timeouts.
    private(set) var waits: [Int?] = []
    /// Called before each wait with the number of earlier waits (tests feed changes here).
    var beforeWait: ((Int) -> Void)?
    private let wakeCount = WakeCounter()

    init(size: TerminalSize = TerminalSize(columns: 80, rows: 24), supportsColor: Bool = true) {
        self.size = size
        self.supportsColor = supportsColor
    }

    func start() throws { isStarted = true }
    func stop() { isStarted = false }

    func draw(_ buffer: CellBuffer) {
        var frame = buffer
        if !supportsColor { frame.stripColors() }
        frames.append(frame)
    }

    /// Queues keys; a `.resize` key also changes ``size`` when it is read.
    func type(_ keys: [Key]) { pendingKeys += keys }

    /// Returns `.changes` after a wake-up, `.input` while keys are queued, and
    /// `.terminate(signal: 0)` once the script is exhausted (so a scripted run always ends).
    func waitForEvent(timeoutMilliseconds: Int?) -> BackendWake {
        beforeWait?(waits.count)
        waits.append(timeoutMilliseconds)
        if wakeCount.take() { return .changes }
        return pendingKeys.isEmpty ? .terminate(signal: 0) : .input
    }

    func readKey() -> Key? {
        guard !pendingKeys.isEmpty else { return nil }
        let key = pendingKeys.removeFirst()
        if case .resize(let columns, let rows) = key { size = TerminalSize(columns: columns, rows: rows) }
        return key
    }

    func makeWaker() -> @Sendable () -> Void {
        let counter = wakeCount
        return { counter.add() }
    }
}

/// Counts wake-ups delivered from any thread.
private final class WakeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0  // guarded by `lock`

    func add() { lock.lock(); count += 1; lock.unlock() }

    func take() -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard count > 0 else { return false }
        count = 0
        return true
    }
}
