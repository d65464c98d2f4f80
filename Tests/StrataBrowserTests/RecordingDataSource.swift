import Foundation
import StrataStorage
import StrataTooling
@testable import StrataBrowser

/// The real ``DatabaseDataSource`` seen through a recorder: every call is delegated unchanged,
/// except the three things that differ from run to run and would make frames unrepeatable —
/// this process's pid (shown as ``stablePid``), commit and reader times (shown as
/// ``referenceDate``) and compaction durations (shown as ``compactionSeconds``) — and the
/// temporary path (shown as `/data/demo.strata`). It also records the row and count requests
/// the browser makes, so tests can check that only the visible window is read.
final class RecordingDataSource: BrowserDataSource {
    struct RowRequest: Hashable {
        var className: String
        var range: Range<Int>
    }

    static let referenceDate = Date(timeIntervalSince1970: 1_714_566_605)  // 2024-05-01 12:30:05 UTC
    static let stablePid: Int32 = 4242
    static let compactionSeconds = 1.25

    let base: DatabaseDataSource
    let fileInfo: FileInfo
    private(set) var rowRequests: [RowRequest] = []
    private(set) var countRequests: [String] = []
    /// When set, filters started by the browser wait (as a slow query would) until
    /// ``releaseHeldFilters()`` counts them with the real data source.
    var holdFilters = false
    private(set) var heldFilters: [FilterJob] = []

    init(_ base: DatabaseDataSource) {
        self.base = base
        fileInfo = FileInfo(path: "/data/demo.strata", isReadOnly: base.fileInfo.isReadOnly, isEncrypted: base.fileInfo.isEncrypted,
                            openWarnings: base.fileInfo.openWarnings)
    }

    private func stable(_ pid: Int32) -> Int32 { pid == getpid() ? Self.stablePid : pid }

    func status() -> FileStatus { base.status() }
    func classes() -> [ClassSummary] { base.classes() }
    func properties(className: String) throws -> [PropertyDescription] { try base.properties(className: className) }

    func count(className: String, filter: String?) throws -> RowCount {
        countRequests.append(className)
        return try base.count(className: className, filter: filter)
    }

    func rows(className: String, filter: String?, sort: SortSpec?, range: Range<Int>) throws -> [ObjectRow] {
        rowRequests.append(RowRequest(className: className, range: range))
        return try base.rows(className: className, filter: filter, sort: sort, range: range)
    }

    func startFilter(className: String, filter: String, finished: @escaping @Sendable () -> Void) -> FilterJob {
        guard holdFilters else { return base.startFilter(className: className, filter: filter, finished: finished) }
        let job = FilterJob(className: className, filter: filter)
        heldFilters.append(job)
        return job
    }

    func startSort(className: String, filter: String?, sort: SortSpec, finished: @escaping @Sendable () -> Void) -> FilterJob {
        guard holdFilters else { return base.startSort(className: className, filter: filter, sort: sort, finished: finished) }
        let job = FilterJob(className: className, filter: filter ?? "", sort: sort)
        heldFilters.append(job)
        return job
    }

    func finishFilter(_ job: FilterJob) throws -> RowCount {
        if heldFilters.contains(where: { $0 === job }) {
            if job.isCancelled { throw BrowserError("the filter was cancelled") }
            return try job.result!.0.get()
        }
        return try base.finishFilter(job)
    }

    /// Finishes the held filters with the real count.
    func releaseHeldFilters() {
        for job in heldFilters where !job.isCancelled {
            job.finish(Result { try base.count(className: job.className, filter: job.filterOrNil) })
        }
    }

    func position(of object: ObjectRef, filter: String?, sort: SortSpec?) throws -> Int? {
        try base.position(of: object, filter: filter, sort: sort)
    }
    func object(_ ref: ObjectRef) throws -> ObjectDetail { try base.object(ref) }
    func backlinks(of ref: ObjectRef) throws -> [Backlink] { try base.backlinks(of: ref) }
    func collectionCount(owner: ObjectRef, property: String) throws -> Int { try base.collectionCount(owner: owner, property: property) }
    func collectionRows(owner: ObjectRef, property: String, range: Range<Int>) throws -> [ObjectRow] {
        try base.collectionRows(owner: owner, property: property, range: range)
    }
    func setValue(text: String, property: String, of object: ObjectRef) throws { try base.setValue(text: text, property: property, of: object) }
    func checkNewObjectField(className: String, property: String, text: String) throws {
        try base.checkNewObjectField(className: className, property: property, text: text)
    }
    func createObject(className: String, values: [String: String]) throws -> ObjectRef {
        try base.createObject(className: className, values: values)
    }
    func deleteObject(_ ref: ObjectRef) throws { try base.deleteObject(ref) }
    func addCollectionItem(text: String, owner: ObjectRef, property: String) throws {
        try base.addCollectionItem(text: text, owner: owner, property: property)
    }
    func setCollectionItem(text: String, at index: Int, owner: ObjectRef, property: String) throws {
        try base.setCollectionItem(text: text, at: index, owner: owner, property: property)
    }
    func removeCollectionItem(at index: Int, owner: ObjectRef, property: String) throws {
        try base.removeCollectionItem(at: index, owner: owner, property: property)
    }

    func reserveWriteLock(finished: @escaping @Sendable () -> Void) -> WriteLockWait? { base.reserveWriteLock(finished: finished) }
    func finishWriteLockWait(_ wait: WriteLockWait) throws { try base.finishWriteLockWait(wait) }
    func releaseWriteLock() { base.releaseWriteLock() }
    func writeLockHolderNow() -> WriteLockHolder? { base.writeLockHolderNow() }

    func versions() -> VersionsReport {
        var report = base.versions()
        report.commits = report.commits.map { var c = $0; c.time = Self.referenceDate; c.pid = stable(c.pid); return c }
        report.readers = report.readers.map { var r = $0; r.since = Self.referenceDate; r.pid = stable(r.pid); return r }
        return report
    }
    func space() -> SpaceReport { base.space() }

    func compactionPlan() -> CompactionPlan {
        var plan = base.compactionPlan()
        plan.otherParticipants = plan.otherParticipants.map { Participant(pid: stable($0.pid), label: $0.label) }
        return plan
    }
    func compact(online: Bool, progress: (CompactionProgressReport) -> Void) throws -> CompactionOutcome {
        var outcome = try base.compact(online: online, progress: progress)
        outcome.seconds = Self.compactionSeconds
        return outcome
    }

    /// How many times the data source has called the change handler (from any thread).
    var changeSignals: Int { signals.value }
    private let signals = SignalCounter()

    func setChangeHandler(_ handler: (@Sendable () -> Void)?) {
        let signals = self.signals
        guard let handler else { base.setChangeHandler(nil); return }
        let counting: @Sendable () -> Void = {
            signals.add()
            handler()
        }
        base.setChangeHandler(counting)
    }
    func pollChanges() -> [ChangeEvent] {
        base.pollChanges().map { var e = $0; e.pid = stable(e.pid); return e }
    }
}

/// A counter bumped from any thread.
final class SignalCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0  // guarded by `lock`
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
