import Foundation

/// The process holding the write lock, as it recorded itself in the lock file when it took the
/// lock (`Store.writeLockHolder`, and `StoreOptions.onWriteLockWait` while waiting for it).
public struct WriteLockHolder: Equatable, Sendable, CustomStringConvertible {
    /// The holding process.
    public var pid: Int32
    /// The holding handle's label: `StoreOptions.label`, or its process name when none was set.
    public var label: String
    /// When it took the lock (nanoseconds since 1970).
    public var since: UInt64
    /// False when that process no longer exists (the lock is then already free).
    public var isAlive: Bool

    /// A holder record; the store builds these from the lock file.
    public init(pid: Int32, label: String, since: UInt64, isAlive: Bool) {
        self.pid = pid; self.label = label; self.since = since; self.isAlive = isAlive
    }

    /// "pid 4242 (strata) since 2026-11-23 21:15:03 UTC".
    public var description: String {
        let when = utcDateTimeText(secondsSince1970: Int64(since / 1_000_000_000)) + " UTC"
        return "pid \(pid)" + (label.isEmpty ? "" : " (\(label))") + " since \(when)"
    }
}

/// Cancels a wait for the write lock (`Store.beginWrite(label:cancellation:)`): `cancel()` from
/// any thread makes the waiting `beginWrite` throw `StorageError.writeLockWaitCancelled` at once
/// (it sleeps on a futex that `cancel()` wakes; nothing polls).
public final class WriteLockWaitCancellation: @unchecked Sendable {
    private let mutex = NSLock()
    private var cancelled = false
    private var wake: (() -> Void)?

    /// A cancellation that has not been cancelled.
    public init() {}

    /// Cancels the wait: a waiting `beginWrite` throws `StorageError.writeLockWaitCancelled` at once, and a later one throws before it waits.
    public func cancel() {
        mutex.lock()
        cancelled = true
        let w = wake
        mutex.unlock()
        w?()
    }

    /// True once `cancel()` has been called.
    public var isCancelled: Bool {
        mutex.lock(); defer { mutex.unlock() }
        return cancelled
    }

    func setWake(_ w: (() -> Void)?) {
        mutex.lock(); wake = w; mutex.unlock()
    }
}
