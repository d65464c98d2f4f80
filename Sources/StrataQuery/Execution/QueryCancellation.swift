import Foundation

/// A token that stops a running query from another thread (the browser's interactive filter
/// cancels with it when the user presses Esc or types on).
///
/// Give it to `QueryExecutor.cancellation`; the executor checks it before each cluster it scans
/// and every few hundred objects it evaluates or follows through links, and then throws a
/// `QueryError` of kind `.cancelled`. Cancelling is sticky: make a new token per query.
public final class QueryCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// A cancellation that has not been cancelled.
    public init() {}

    /// Asks the query using this token to stop (safe from any thread).
    public func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    /// True once `cancel()` was called.
    public var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }

    /// Throws `QueryError(kind: .cancelled)` when cancelled.
    public func check() throws {
        if isCancelled { throw QueryError.cancelled }
    }
}

extension QueryError {
    /// The error a cancelled query throws.
    public static let cancelled = QueryError(kind: .cancelled, message: "The query was cancelled before it finished; run it again to see its results")
}
