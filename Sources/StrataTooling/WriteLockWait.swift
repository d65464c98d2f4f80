import Foundation
import StrataStorage

/// A wait for the write lock away from the browser's thread, started when an edit finds the lock
/// held by another process or handle: the screen keeps drawing, says whom it waits for, and Esc
/// can give up (nothing is written then).
///
/// The data source creates it in ``BrowserDataSource/reserveWriteLock(finished:)`` and finishes
/// it once, from the waiting thread; the browser polls ``isFinished`` and then hands the wait
/// back to ``BrowserDataSource/finishWriteLockWait(_:)`` on its own thread, which makes the lock
/// the one the next edit uses. ``cancel()`` is safe from any thread; a lock taken after it is
/// released at once.
package final class WriteLockWait: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var outcome: Result<Void, Error>?
    /// The lock taken (data-source specific), and how to give it back unused.
    private var payload: Any?
    private var release: (@Sendable (Any) -> Void)?
    private var onCancel: (@Sendable () -> Void)?
    private let holderProvider: @Sendable () -> String?

    /// - Parameter holder: who holds the lock now, as "pid N (label) since T" (read when asked).
    package init(holder: @escaping @Sendable () -> String?) {
        holderProvider = holder
    }

    /// Who holds the write lock now ("pid 4242 (strata demo --churn) since 2026-11-24 17:02:11
    /// UTC"), or nil when nobody records holding it (it is being released).
    package var holder: String? { holderProvider() }

    /// Records the outcome (first call wins). A lock taken after the wait was cancelled is
    /// released here, through `release`.
    package func finish(_ result: Result<Void, Error>, payload: Any? = nil, release: (@Sendable (Any) -> Void)? = nil) {
        lock.lock()
        if outcome != nil || cancelled {
            lock.unlock()
            if let payload { release?(payload) }
            return
        }
        outcome = result
        self.payload = payload
        self.release = release
        lock.unlock()
    }

    /// Registers what stops the wait (called once by the data source that runs it).
    package func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        let already = cancelled
        if !already { onCancel = action }
        lock.unlock()
        if already { action() }
    }

    /// Stops waiting; a lock already taken is released unused.
    package func cancel() {
        lock.lock()
        cancelled = true
        let action = onCancel
        onCancel = nil
        let taken = payload
        payload = nil
        let release = self.release
        lock.unlock()
        action?()
        if let taken { release?(taken) }
    }

    package var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
    package var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return outcome != nil }

    /// The outcome and the lock taken once finished, handed over once (later calls: nil).
    package func take() -> (Result<Void, Error>, Any?)? {
        lock.lock(); defer { lock.unlock() }
        guard let outcome, !cancelled else { return nil }
        let taken = payload
        payload = nil
        return (outcome, taken)
    }

    /// Waits up to `seconds` for the outcome; returns whether it is there.
    package func wait(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !isFinished {
            if Date() >= deadline { return false }
            usleep(1000)
        }
        return true
    }
}

extension BrowserDataSource {
    /// Default for data sources that take no write lock of their own: nothing to wait for.
    package func reserveWriteLock(finished: @escaping @Sendable () -> Void) -> WriteLockWait? { nil }
    /// Default: nothing was waited for.
    package func finishWriteLockWait(_ wait: WriteLockWait) throws {
        if wait.isCancelled { throw BrowserError("the wait for the write lock was cancelled; nothing was written") }
    }
    /// Default: nothing reserved.
    package func releaseWriteLock() {}
    /// Default: no lock file, so nobody is known to hold the write lock.
    package func writeLockHolderNow() -> WriteLockHolder? { nil }
}
