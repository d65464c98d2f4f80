import Foundation
import StrataQuery
import StrataRealm

/// A ``BrowserDataSource`` over a `.realm` file written by realm-core, read through
/// `StrataRealm.RealmFile`: classes, counts, rows read lazily (one cluster leaf per visible
/// row), links, embedded objects, collections and backlinks.
///
/// The file is never written and nothing is created beside it: every edit, add, delete and
/// compaction is refused with ``readOnlyMessage``. Filter (`/`, RQL) and sort (`s`) run the
/// query layer over the reader (``RealmQueryRunner``).
package final class RealmFileDataSource: BrowserDataSource, SnapshotReloading {
    /// The snapshot shown; replaced by ``reloadSnapshot()``.
    package private(set) var realm: RealmFile
    package let fileInfo: FileInfo
    private var classByName: [String: RealmClass] = [:]
    /// The key the file was opened with (to reload it).
    private let encryptionKey: [UInt8]?

    /// Opens `path` read-only (`encryptionKey`: the 64-byte key of an encrypted file).
    package convenience init(path: String, encryptionKey: [UInt8]? = nil) throws {
        let realm: RealmFile
        do { realm = try RealmFile.open(path: path, encryptionKey: encryptionKey) } catch { throw Self.browserError(error) }
        self.init(realm: realm, path: path, encryptionKey: encryptionKey)
    }

    package init(realm: RealmFile, path: String, encryptionKey: [UInt8]? = nil) {
        self.realm = realm
        self.encryptionKey = encryptionKey
        self.fileInfo = FileInfo(path: path, isReadOnly: true, isEncrypted: realm.isEncrypted,
                                 modeDescription: "Realm file, format \(realm.formatVersion), read-only",
                                 readOnlyReason: Self.readOnlyMessage(path: path))
        indexClasses()
    }

    private func indexClasses() {
        classByName = [:]
        for c in realm.classes + realm.otherTables { classByName[c.name] = c }
    }

    /// The one line every refused write shows.
    package static func readOnlyMessage(path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.hasSuffix(".realm") ? String(name.dropLast(6)) : name
        return "\(name) is a Realm file opened read-only; convert it with 'strata convert \(name) \(stem).strata' to edit it"
    }

    private var refusal: BrowserError { BrowserError(fileInfo.readOnlyReason ?? "read-only") }

    // MARK: File

    package func status() -> FileStatus {
        // The free list alone (a structure walk of a large file would delay the first screen).
        let free = realm.freeListBytes
        return FileStatus(version: UInt64(max(0, realm.transactionVersion ?? 0)), totalBytes: Int64(realm.fileSize),
                          usedBytes: Int64(max(0, realm.fileSize - free)), freeBytes: Int64(free), lockedBytes: 0, participants: 1)
    }

    // MARK: Schema

    package func classes() -> [ClassSummary] {
        // Object-store classes, then tables written without the object store (realm-core's own
        // files); the internal tables (metadata, pk) are not listed.
        realm.browsableClasses.map { ClassSummary(name: $0.name, count: RowCount($0.objectCount), isEmbedded: $0.isEmbedded, primaryKey: $0.primaryKey) }
    }

    package func properties(className: String) throws -> [PropertyDescription] {
        let c = try realmClass(className)
        return c.properties.map(describe) + c.backlinks.map(describe)
    }

    private func realmClass(_ name: String) throws -> RealmClass {
        guard let c = classByName[name] else { throw BrowserError("no class named '\(name)' in this file") }
        return c
    }

    /// How the browser shows a Realm property (backlinks are named "Origin.property").
    func describe(_ p: RealmProperty) -> PropertyDescription {
        let type: ValueType
        switch p.type {
        case .int: type = .int
        case .bool: type = .bool
        case .string: type = .string
        case .binary: type = .data
        case .mixed: type = .mixed
        case .timestamp: type = .date
        case .float: type = .float
        case .double: type = .double
        case .decimal128: type = .decimal128
        case .link, .typedLink, .linkingObjects: type = .object
        case .objectId: type = .objectId
        case .uuid: type = .uuid
        }
        let kind: PropertyKind
        switch p.collection {
        case .list?: kind = p.type == .linkingObjects ? .backlinks : .list
        case .set?: kind = .set
        case .dictionary?: kind = .map
        case nil:
            if p.type == .link || p.type == .typedLink {
                kind = p.targetClass.flatMap { classByName[$0]?.isEmbedded } == true ? .embedded : .link
            } else {
                kind = .value
            }
        }
        return PropertyDescription(name: p.name, type: type, kind: kind, targetClass: p.targetClass,
                                   isOptional: p.isNullable, isIndexed: p.isIndexed, isPrimaryKey: p.isPrimaryKey)
    }

    // MARK: Reading

    private func isEmpty(_ filter: String?) -> Bool {
        filter?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true
    }

    /// The query runner (built on the first filter or sort; the snapshot never changes, so
    /// the columns it reads and the results below are kept for the session).
    private lazy var queries = RealmQueryRunner(realm: realm)
    private var resultCache: [String: [Int]] = [:]

    /// The rows (positions in key order) of a class after filter and sort, by the query layer:
    /// the filter is RQL, and `s` sorts a value column as `SORT(property ASC|DESC)` does (the
    /// query layer's value order), a list, set, map or backlinks by its number of items
    /// (`@count`), and a link by the target's primary key when it has one, else (as on a Strata
    /// file) by the target's object key.
    private func resultRows(_ className: String, filter: String?, sort: SortSpec?) throws -> [Int] {
        let cacheKey = filterCacheKey(className, filter, sort)
        if let cached = resultCache[cacheKey] { return cached }
        let c = try realmClass(className)
        var query = isEmpty(filter) ? "TRUEPREDICATE" : filter!
        if let sort, linksWithoutPrimaryKey(c, sort.property) {
            // By the target's object key, as on a Strata file (RQL has no key path to it).
            let rows = try queries.rows(try resultRows(className, filter: filter, sort: nil), sortedByLinkKey: sort.property,
                                        in: className, ascending: sort.ascending)
            remember(cacheKey, rows)
            return rows
        }
        if let sort {
            query += " SORT(\(try sortPath(c, sort.property)) \(sort.ascending ? "ASC" : "DESC"))"
        }
        let rows = try queries.rows(className: className, query: query)
        remember(cacheKey, rows)
        return rows
    }

    private func filterCacheKey(_ className: String, _ filter: String?, _ sort: SortSpec?) -> String {
        "\(className)\u{0}\(filter ?? "")\u{0}\(sort.map { "\($0.property)\($0.ascending)" } ?? "")"
    }

    private func remember(_ key: String, _ rows: [Int]) {
        if resultCache.count > 8 { resultCache = [:] }
        resultCache[key] = rows
    }

    /// The key path `s` sorts a column by.
    private func sortPath(_ c: RealmClass, _ property: String) throws -> String {
        if let b = c.backlinks.first(where: { $0.name == property }), let origin = b.targetClass, let via = b.originProperty {
            return "@links.\(origin).\(via).@count"
        }
        guard let p = c.properties.first(where: { $0.name == property }) else { throw BrowserError("no property '\(property)' to sort by") }
        if p.collection != nil { return "\(p.name).@count" }
        if p.type == .link, let pk = p.targetClass.flatMap({ classByName[$0] })?.primaryKey { return "\(p.name).\(pk)" }
        return p.name
    }

    /// Whether `property` of `c` is a to-one link to a class without a primary key (sorted by
    /// the target's object key).
    private func linksWithoutPrimaryKey(_ c: RealmClass, _ property: String) -> Bool {
        guard let p = c.properties.first(where: { $0.name == property }), p.collection == nil, p.type == .link else { return false }
        return p.targetClass.flatMap { classByName[$0] }?.primaryKey == nil
    }

    /// Runs the filter on a thread of its own (the query runner is shared, its reads are
    /// locked); Esc cancels it through the evaluator's `QueryCancellation`. The rows found are
    /// kept by ``finishFilter(_:)`` when the snapshot is still the one they were read from.
    package func startFilter(className: String, filter: String, finished: @escaping @Sendable () -> Void) -> FilterJob {
        let job = FilterJob(className: className, filter: filter)
        let query = isEmpty(filter) ? "TRUEPREDICATE" : filter
        return start(job, cacheKey: filterCacheKey(className, job.filterOrNil, nil), finished: finished) { runner, cancellation in
            try runner.rows(className: className, query: query, cancellation: cancellation)
        }
    }

    /// Sorts (after the filter, if any) on a thread of its own, as ``startFilter(className:filter:finished:)``.
    package func startSort(className: String, filter: String?, sort: SortSpec, finished: @escaping @Sendable () -> Void) -> FilterJob {
        let job = FilterJob(className: className, filter: filter ?? "", sort: sort)
        let filterQuery = isEmpty(filter) ? "TRUEPREDICATE" : filter!
        let work: @Sendable (RealmQueryRunner, QueryCancellation) throws -> [Int]
        do {
            let c = try realmClass(className)
            if linksWithoutPrimaryKey(c, sort.property) {
                work = { runner, cancellation in
                    try runner.rows(try runner.rows(className: className, query: filterQuery, cancellation: cancellation),
                                    sortedByLinkKey: sort.property, in: className, ascending: sort.ascending)
                }
            } else {
                let query = filterQuery + " SORT(\(try sortPath(c, sort.property)) \(sort.ascending ? "ASC" : "DESC"))"
                work = { runner, cancellation in try runner.rows(className: className, query: query, cancellation: cancellation) }
            }
        } catch {
            job.finish(.failure(error))
            finished()
            return job
        }
        return start(job, cacheKey: filterCacheKey(className, job.filterOrNil, sort), finished: finished, work)
    }

    /// Runs `work` for `job` on a thread of its own (answered at once from the cache).
    private func start(_ job: FilterJob, cacheKey: String, finished: @escaping @Sendable () -> Void,
                       _ work: @escaping @Sendable (RealmQueryRunner, QueryCancellation) throws -> [Int]) -> FilterJob {
        if let cached = resultCache[cacheKey] {
            job.finish(.success(RowCount(cached.count)))
            finished()
            return job
        }
        let runner = queries
        background.run(job, finished: finished) { cancellation in
            do {
                let rows = try work(runner, cancellation)
                job.finish(.success(RowCount(rows.count)), payload: RealmFilterRows(runner: runner, cacheKey: cacheKey, rows: rows))
            } catch {
                job.finish(.failure(error))
            }
        }
        return job
    }

    package func finishFilter(_ job: FilterJob) throws -> RowCount {
        if job.isCancelled { throw BrowserError(job.sort == nil ? "the filter was cancelled" : "the sort was cancelled") }
        guard let (result, payload) = job.result else { throw BrowserError("the filter has not finished yet") }
        let count = try result.get()
        guard let found = payload as? RealmFilterRows else { return count }
        // Read from a snapshot since reloaded: count (and sort) again on the one shown.
        guard found.runner === queries else {
            if let sort = job.sort { _ = try rows(className: job.className, filter: job.filterOrNil, sort: sort, range: 0..<0) }
            return try self.count(className: job.className, filter: job.filterOrNil)
        }
        remember(found.cacheKey, found.rows)
        return count
    }

    /// Filters and sorts still running (cancelled on reload and when the data source goes away).
    private let background = BackgroundJobThreads()

    deinit {
        background.cancelFilters()
    }

    package func count(className: String, filter: String?) throws -> RowCount {
        if isEmpty(filter) { return RowCount(try realmClass(className).objectCount) }
        return RowCount(try resultRows(className, filter: filter, sort: nil).count)
    }

    package func rows(className: String, filter: String?, sort: SortSpec?, range: Range<Int>) throws -> [ObjectRow] {
        let c = try realmClass(className)
        let positions: [Int]
        if isEmpty(filter) && sort == nil {
            positions = Array(range.clamped(to: 0..<c.objectCount))
        } else {
            let all = try resultRows(className, filter: filter, sort: sort)
            positions = Array(all[range.clamped(to: 0..<all.count)])
        }
        return try positions.map { index in
            let o = try wrap { try realm.object(at: index, in: className) }
            return ObjectRow(ref: ObjectRef(className: className, key: o.key), values: displayValues(c, o))
        }
    }

    package func position(of object: ObjectRef, filter: String?, sort: SortSpec?) throws -> Int? {
        guard let row = try wrap({ try realm.index(ofKey: object.key, in: object.className) }) else { return nil }
        if isEmpty(filter) && sort == nil { return row }
        return try resultRows(object.className, filter: filter, sort: sort).firstIndex(of: row)
    }

    package func object(_ ref: ObjectRef) throws -> ObjectDetail {
        let c = try realmClass(ref.className)
        let o = try fetch(ref)
        return ObjectDetail(ref: ref, label: label(ref), properties: try properties(className: ref.className),
                            values: displayValues(c, o))
    }

    private func fetch(_ ref: ObjectRef) throws -> RealmObject {
        guard let o = try wrap({ try realm.object(withKey: ref.key, in: ref.className) }) else {
            throw BrowserError("\(ref.className) #\(ref.key) does not exist")
        }
        return o
    }

    package func backlinks(of ref: ObjectRef) throws -> [Backlink] {
        let c = try realmClass(ref.className)
        let o = try fetch(ref)
        var out: [Backlink] = []
        for (p, v) in zip(c.backlinks, o.backlinks) {
            for case let .link(origin, key) in items(v) {
                let source = ObjectRef(className: origin, key: key)
                out.append(Backlink(source: LabeledObjectRef(ref: source, label: label(source)), property: p.originProperty ?? p.name))
            }
        }
        return out
    }

    // MARK: Collections

    /// The value of collection property `property` (a list/set/map or a backlink column).
    private func collection(_ owner: ObjectRef, _ property: String) throws -> (RealmProperty, RealmValue) {
        let c = try realmClass(owner.className)
        let o = try fetch(owner)
        if let i = c.properties.firstIndex(where: { $0.name == property }), c.properties[i].collection != nil || isCollection(o.values[i]) {
            return (c.properties[i], o.values[i])
        }
        if let i = c.backlinks.firstIndex(where: { $0.name == property }) { return (c.backlinks[i], o.backlinks[i]) }
        throw BrowserError("\(owner.className).\(property) is not a collection")
    }

    private func isCollection(_ v: RealmValue) -> Bool {
        switch v {
        case .list, .set, .dictionary: return true
        default: return false
        }
    }

    package func collectionCount(owner: ObjectRef, property: String) throws -> Int {
        let (_, v) = try collection(owner, property)
        return count(v)
    }

    package func collectionRows(owner: ObjectRef, property: String, range: Range<Int>) throws -> [ObjectRow] {
        let (p, v) = try collection(owner, property)
        var entries: [(key: String?, value: RealmValue)]
        if case let .dictionary(d) = v { entries = d.map { ($0.key, $0.value) } } else { entries = items(v).map { (nil, $0) } }
        let window = entries[range.clamped(to: 0..<entries.count)]
        if let target = p.targetClass, let tc = classByName[target], p.type == .link || p.type == .linkingObjects {
            return try window.map { entry in
                var values: [DisplayValue]
                var ref: ObjectRef?
                if case let .link(cls, key) = entry.value, let o = try wrap({ try realm.object(withKey: key, in: cls) }) {
                    ref = ObjectRef(className: cls, key: key)
                    values = displayValues(tc, o)
                } else {
                    values = (tc.properties + tc.backlinks).map { _ in .null }
                }
                if let key = entry.key { values.insert(.string(key), at: 0) }
                return ObjectRow(ref: ref, values: values)
            }
        }
        return window.map { entry in
            let value = display(entry.value)
            return ObjectRow(ref: nil, values: entry.key.map { [.string($0), value] } ?? [value])
        }
    }

    // MARK: Writing: always refused

    package func setValue(text: String, property: String, of object: ObjectRef) throws { throw refusal }
    @discardableResult
    package func createObject(className: String, values: [String: String]) throws -> ObjectRef { throw refusal }
    package func checkNewObjectField(className: String, property: String, text: String) throws { throw refusal }
    package func deleteObject(_ ref: ObjectRef) throws { throw refusal }
    package func addCollectionItem(text: String, owner: ObjectRef, property: String) throws { throw refusal }
    package func setCollectionItem(text: String, at index: Int, owner: ObjectRef, property: String) throws { throw refusal }
    package func removeCollectionItem(at index: Int, owner: ObjectRef, property: String) throws { throw refusal }

    // MARK: Reports

    package func versions() -> VersionsReport {
        VersionsReport(currentVersion: UInt64(max(0, realm.transactionVersion ?? 0)), commits: [], readers: [],
                       unlisted: "A Realm file: realm-core keeps no commit history Strata can list, and the apps reading it "
                           + "are recorded in realm-core's lock file, which this browser does not open; readers and "
                           + "commits are not shown (the status bar notices a newer commit).")
    }

    package func space() -> SpaceReport {
        guard let r = try? realm.spaceReport() else {
            return SpaceReport(totalBytes: Int64(realm.fileSize), usedBytes: 0, freeBytes: 0, lockedBytes: 0, classes: [],
                               freeBySize: [], freeByVersion: [], compactedBytes: Int64(realm.fileSize))
        }
        return Self.spaceReport(r)
    }

    /// The Realm space report in the tooling's shape (columns, indexes, free space by size and version).
    package static func spaceReport(_ r: RealmSpaceReport) -> SpaceReport {
        let classes = r.classes.filter { $0.kind != .internalTable }.map { c in
            ClassSpace(name: c.name,
                       columns: [NamedBytes(name: "(clusters and keys)", bytes: Int64(c.clusterBytes))]
                           + c.columns.map { NamedBytes(name: $0.name, bytes: Int64($0.bytes)) },
                       indexes: c.columns.filter { $0.indexBytes > 0 }.map { NamedBytes(name: $0.name, bytes: Int64($0.indexBytes)) })
        }
        let internals = r.classes.filter { $0.kind == .internalTable }
        let internalSpace = internals.isEmpty ? [] : [ClassSpace(name: "(internal tables)", columns: internals.map { NamedBytes(name: $0.name, bytes: Int64($0.totalBytes)) }, indexes: [])]
        let buckets = r.freeBySize.map { FreeSpaceBucket(minBytes: Int64($0.minSize), maxBytes: Int64($0.minSize * 2 - 1), extents: $0.extents, bytes: Int64($0.bytes)) }
        let byVersion = r.freeByVersion.map { FreedAtVersion(version: UInt64(max(0, $0.version ?? 0)), bytes: Int64($0.bytes), isLocked: false) }
        return SpaceReport(totalBytes: Int64(r.fileSize), usedBytes: Int64(max(0, r.fileSize - r.freeBytes)), freeBytes: Int64(r.freeBytes),
                           lockedBytes: 0, classes: classes + internalSpace, freeBySize: buckets, freeByVersion: byVersion,
                           compactedBytes: Int64(max(0, r.fileSize - r.reclaimableBytes)))
    }

    // MARK: Compaction: refused

    /// What a compaction (realm-core's `Realm.compact()`, a `writeCopy`) would give back, as the
    /// Space screen says it: the file's reclaimable bytes. This reader never compacts.
    package func compactionPlan() -> CompactionPlan {
        let total = Int64(realm.fileSize)
        let compacted = min(total, space().compactedBytes)
        return CompactionPlan(totalBytes: total, expectedBytes: compacted, onlineExpectedBytes: total, otherParticipants: [], onlineAvailable: false)
    }

    package func compact(online: Bool, progress: (CompactionProgressReport) -> Void) throws -> CompactionOutcome { throw refusal }

    // MARK: Live changes

    /// Watches the file's header (24 bytes read with `pread` once a second; nothing is written
    /// or created) and wakes the browser once when an app commits.
    private var watcher: DispatchSourceTimer?
    private let watchLock = NSLock()
    private var notified = false

    package func setChangeHandler(_ handler: (@Sendable () -> Void)?) {
        watcher?.cancel()
        watcher = nil
        guard let handler else { return }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        nonisolated(unsafe) let me = self
        timer.setEventHandler {
            guard me.takeNewCommitNotification() else { return }
            handler()
        }
        watcher = timer
        timer.resume()
    }

    /// True once per newer commit (until the next reload).
    private func takeNewCommitNotification() -> Bool {
        watchLock.lock(); defer { watchLock.unlock() }
        guard !notified, realm.hasNewerCommit() else { return false }
        notified = true
        return true
    }

    /// The reader holds one snapshot: moving to a newer commit is the user's choice
    /// (``reloadSnapshot()``), so there are never events to report here.
    package func pollChanges() -> [ChangeEvent] { [] }

    /// True when an app committed to the file after it was opened (reload to see it).
    package var hasNewerCommit: Bool { realm.hasNewerCommit() }

    package var newerCommitNotice: String? {
        hasNewerCommit ? "newer commit on disk · R reloads" : nil
    }

    package func reloadSnapshot() throws {
        let fresh = try wrap { try RealmFile.open(path: fileInfo.path, encryptionKey: encryptionKey) }
        watchLock.lock()
        realm = fresh
        notified = false
        watchLock.unlock()
        indexClasses()
        background.cancelFilters()
        queries = RealmQueryRunner(realm: fresh)
        resultCache = [:]
    }

    // MARK: Display

    private func items(_ v: RealmValue) -> [RealmValue] {
        switch v {
        case let .list(x), let .set(x): return x
        case let .dictionary(d): return d.map(\.value)
        default: return []
        }
    }

    private func count(_ v: RealmValue) -> Int {
        if case let .dictionary(d) = v { return d.count }
        return items(v).count
    }

    private func displayValues(_ c: RealmClass, _ o: RealmObject) -> [DisplayValue] {
        var out: [DisplayValue] = []
        for (p, v) in zip(c.properties, o.values) {
            if p.collection != nil {
                out.append(.collection(count: count(v), elementType: elementName(p)))
            } else {
                out.append(display(v))
            }
        }
        for (p, v) in zip(c.backlinks, o.backlinks) {
            out.append(.collection(count: count(v), elementType: p.targetClass ?? "Object"))
        }
        return out
    }

    private func elementName(_ p: RealmProperty) -> String {
        if let t = p.targetClass, p.type == .link || p.type == .linkingObjects { return t }
        return describe(p).type.displayName
    }

    /// One value as the browser shows it; links to embedded classes are `.embedded`.
    func display(_ v: RealmValue) -> DisplayValue {
        switch v {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .int(i): return .int(i)
        case let .float(f): return .decimal("\(f)")
        case let .double(d): return .double(d)
        case let .string(s): return .string(s)
        case let .binary(b): return .data(count: b.count, prefix: Array(b.prefix(16)))
        case let .timestamp(s, n):
            // Realm's seconds and nanoseconds share a sign: a whole second plus a positive fraction.
            return n < 0 ? .date(seconds: s &- 1, nanoseconds: Int64(n) + 1_000_000_000) : .date(seconds: s, nanoseconds: Int64(n))
        case let .objectId(o): return .objectId(o.description)
        case let .uuid(u): return UUID(uuidString: u.description).map(DisplayValue.uuid) ?? .string(u.description)
        case let .decimal128(d): return .decimal(d.description)
        case let .link(cls, key):
            let ref = ObjectRef(className: cls, key: key)
            let labeled = LabeledObjectRef(ref: ref, label: label(ref))
            return classByName[cls]?.isEmbedded == true ? .embedded(labeled) : .link(labeled)
        case let .list(x): return .collection(count: x.count, elementType: "AnyRealmValue")
        case let .set(x): return .collection(count: x.count, elementType: "AnyRealmValue")
        case let .dictionary(d): return .collection(count: d.count, elementType: "AnyRealmValue")
        }
    }

    /// A short label: the primary key (plus a `name`/`title` string), else a name-like string, else `#key`.
    func label(_ ref: ObjectRef) -> String {
        // Only the properties the label shows are read (a target may have thousands of backlinks).
        guard let c = classByName[ref.className],
              let row = try? realm.index(ofKey: ref.key, in: ref.className) else { return "#\(ref.key)" }
        func value(_ name: String) -> RealmValue? { try? realm.value(at: row, property: name, in: ref.className) }
        func string(_ names: [String]) -> String? {
            for n in names where c.properties.contains(where: { $0.name == n && $0.collection == nil }) {
                if case let .string(s)? = value(n), !s.isEmpty { return s }
            }
            return nil
        }
        let name = string(["name", "title", "street"])
        if let pk = c.primaryKey, let pkValue = value(pk) {
            let v = pkValue.description
            return name.map { "\(v) \($0)" } ?? v
        }
        if let name { return c.isEmbedded ? name : "#\(ref.key) \(name)" }
        return "#\(ref.key)"
    }

    // MARK: Errors

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw Self.browserError(error) }
    }

    static func browserError(_ error: Error) -> BrowserError {
        if let e = error as? BrowserError { return e }
        return BrowserError(String(describing: error))
    }
}

/// The rows a background filter found and the query runner (snapshot) it read them from.
private struct RealmFilterRows {
    let runner: RealmQueryRunner
    let cacheKey: String
    let rows: [Int]
}
