import Foundation
import StrataQuery

/// Work the data source runs away from the browser's thread, so the screen keeps drawing and
/// Esc can stop it: a filter (``FilterJob``) or a wait for the write lock (``WriteLockWait``).
///
/// The data source creates the job and finishes it once (from any thread); the browser polls
/// ``isFinished`` and then hands the job back to the data source on its own thread. ``cancel()``
/// asks the running work to stop; it is safe from any thread.
package class BackgroundJob<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var outcome: Result<Value, Error>?
    /// Data-source-specific result (the matching keys; the write transaction taken).
    private var payload: Any?
    /// Gives back a payload nobody will take (a lock taken after the wait was cancelled).
    private var discard: (@Sendable (Any) -> Void)?
    private var onCancel: (@Sendable () -> Void)?

    package init() {}

    /// Records the result (first call wins) with data the data source wants back when the
    /// browser hands the job over. A payload that arrives after ``cancel()``, or is still there
    /// when it comes, goes to `discard`.
    package func finish(_ result: Result<Value, Error>, payload: Any? = nil, discard: (@Sendable (Any) -> Void)? = nil) {
        lock.lock()
        guard outcome == nil else { lock.unlock(); return }
        outcome = result
        let dropNow = cancelled
        if !dropNow {
            self.payload = payload
            self.discard = discard
        }
        lock.unlock()
        if dropNow, let payload { discard?(payload) }
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
        let dropped = payload
        payload = nil
        let discard = self.discard
        lock.unlock()
        action?()
        if let dropped { discard?(dropped) }
    }

    package var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
    package var isFinished: Bool { lock.lock(); defer { lock.unlock() }; return outcome != nil }

    /// The result and payload once finished (`nil` while running).
    package var result: (Result<Value, Error>, Any?)? {
        lock.lock(); defer { lock.unlock() }
        return outcome.map { ($0, payload) }
    }

    /// The result and the payload, which is handed over once (later calls: no payload).
    package func take() -> (Result<Value, Error>, Any?)? {
        lock.lock(); defer { lock.unlock() }
        guard let outcome else { return nil }
        let taken = payload
        payload = nil
        return (outcome, taken)
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

/// A filter being counted away from the browser's thread, so a slow query (key paths through
/// to-many links, a huge class) does not freeze the screen and Esc can stop it.
///
/// Created by ``BrowserDataSource/startFilter(className:filter:finished:)``, handed back to
/// ``BrowserDataSource/finishFilter(_:)``; ``cancel()`` makes ``finishFilter(_:)`` throw.
///
/// A sort (`s`) is the same kind of job with ``sort`` set, started by
/// ``BrowserDataSource/startSort(className:filter:sort:finished:)``: it orders the class
/// (filtered by ``filter`` when that is not empty) and counts it.
package final class FilterJob: BackgroundJob<RowCount>, @unchecked Sendable {
    package let className: String
    package let filter: String
    /// The order a sort job computes (nil for a filter).
    package let sort: SortSpec?

    package init(className: String, filter: String, sort: SortSpec? = nil) {
        self.className = className
        self.filter = filter
        self.sort = sort
    }

    /// The job's filter as `count`/`rows` take it (nil when empty).
    package var filterOrNil: String? {
        filter.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : filter
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

    /// Default for data sources without background work: sorts at once on the caller's thread
    /// (the sorted rows are kept by the data source's own cache, if it has one).
    package func startSort(className: String, filter: String?, sort: SortSpec, finished: @escaping @Sendable () -> Void) -> FilterJob {
        let job = FilterJob(className: className, filter: filter ?? "", sort: sort)
        job.finish(Result {
            _ = try rows(className: className, filter: job.filterOrNil, sort: sort, range: 0..<0)
            return try count(className: className, filter: job.filterOrNil)
        })
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

/// The threads a data source runs its background jobs on, and the filter jobs still running.
/// One per data source: ``stopAll()`` cancels every running filter and waits for every thread,
/// so nothing reads the file after the data source closes or reloads it.
package final class BackgroundJobThreads: @unchecked Sendable {
    private let threads = DispatchGroup()
    private var filters: [FilterJob] = []

    package init() {}

    /// Runs `work` on a thread of its own named `name`, then `finished`.
    package func run(_ name: String, finished: @escaping @Sendable () -> Void, _ work: @escaping @Sendable () -> Void) {
        let group = threads
        group.enter()
        let thread = Thread {
            work()
            finished()
            group.leave()
        }
        thread.name = name
        thread.start()
    }

    /// Runs a filter (or sort) job: `work` gets the cancellation Esc sets through the job.
    package func run(_ job: FilterJob, finished: @escaping @Sendable () -> Void,
                     _ work: @escaping @Sendable (QueryCancellation) -> Void) {
        let cancellation = QueryCancellation()
        job.whenCancelled { cancellation.cancel() }
        filters = filters.filter { !$0.isFinished } + [job]
        run(job.sort == nil ? "strata browser filter" : "strata browser sort", finished: finished) { work(cancellation) }
    }

    /// Cancels the running filter jobs (their threads end at their next check).
    package func cancelFilters() {
        for job in filters { job.cancel() }
        filters = []
    }

    /// Cancels the running filter jobs and waits for every thread started here.
    package func stopAll() {
        cancelFilters()
        threads.wait()
    }
}
