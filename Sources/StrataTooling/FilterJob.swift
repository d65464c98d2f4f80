import Foundation

/// A filter being counted away from the browser's thread, so a slow query (key paths through
/// to-many links, a huge class) does not freeze the screen and Esc can stop it.
///
/// The data source creates it in ``BrowserDataSource/startFilter(className:filter:finished:)``
/// and finishes it once (from any thread); the browser polls ``isFinished`` and then hands the
/// job back to ``BrowserDataSource/finishFilter(_:)`` on its own thread. ``cancel()`` asks the
/// running query to stop and makes ``finishFilter(_:)`` throw; it is safe from any thread.
package final class FilterJob: @unchecked Sendable {
    package let className: String
    package let filter: String
    private let lock = NSLock()
    private var cancelled = false
    private var outcome: Result<RowCount, Error>?
    /// Data-source-specific result (for the database: the matching keys and their version).
    private var payload: Any?
    private var onCancel: (@Sendable () -> Void)?

    package init(className: String, filter: String) {
        self.className = className
        self.filter = filter
    }

    /// Records the result (first call wins) with data the data source wants back in `finishFilter`.
    package func finish(_ result: Result<RowCount, Error>, payload: Any? = nil) {
        lock.lock(); defer { lock.unlock() }
        guard outcome == nil else { return }
        outcome = result
        self.payload = payload
    }

    /// Registers what stops the running work (called once by the data source that runs it).
    package func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        let already = cancelled
        if !already { onCancel = action }
        lock.unlock()
        if already { action() }
    }

    /// Stops the work; the result, if any arrives, is dropped.
    package func cancel() {
        lock.lock()
        cancelled = true
        let action = onCancel
        onCancel = nil
        lock.unlock()
        action?()
    }

    package var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
    package var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return outcome != nil }

    /// The result and payload once finished (`nil` while running).
    package var result: (Result<RowCount, Error>, Any?)? {
        lock.lock(); defer { lock.unlock() }
        return outcome.map { ($0, payload) }
    }

    /// Waits up to `seconds` for the result; returns whether it is there.
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
    /// Default for data sources without background work: counts at once on the caller's thread.
    package func startFilter(className: String, filter: String, finished: @escaping @Sendable () -> Void) -> FilterJob {
        let job = FilterJob(className: className, filter: filter)
        job.finish(Result { try count(className: className, filter: filter) })
        finished()
        return job
    }

    /// Default: the job's count (or its error).
    package func finishFilter(_ job: FilterJob) throws -> RowCount {
        if job.isCancelled { throw BrowserError("the filter was cancelled") }
        guard let (result, _) = job.result else { throw BrowserError("the filter has not finished yet") }
        return try result.get()
    }
}
