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
package final class WriteLockWait: BackgroundJob<Void>, @unchecked Sendable {
    private let holderProvider: @Sendable () -> WriteLockHolder?

    /// - Parameter holder: who holds the lock now (read when asked).
    package init(holder: @escaping @Sendable () -> WriteLockHolder?) {
        holderProvider = holder
    }

    /// Who holds the write lock now (pid, label, since when), or nil when nobody records
    /// holding it (it is being released).
    package var holder: WriteLockHolder? { holderProvider() }
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
