import Foundation
import StrataObjects
import StrataQuery
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// The browser's view of a real database file.
///
/// It holds one read transaction (a snapshot) and reads only from it; ``pollChanges()`` moves it
/// to the newest version. Class counts are O(1); unfiltered tables read only the visible keys
/// (`objectKeys(from:count:)`); a filter or a sort computes the matching keys once, then updates
/// them from each new version's change records (``advanceResults(from:)``). Every edit is one
/// write transaction: the text is parsed by the property's type first, and nothing is written
/// when it is invalid or the write fails. Commits by any process
/// wake the browser through `Store.addCommitObserver`.
package final class DatabaseDataSource: BrowserDataSource {
    package let fileInfo: FileInfo
    package private(set) var database: Database
    private var txn: DBTransaction
    private let path: String
    private let handler = ChangeHandlerBox()
    private var observer: UInt64 = 0
    /// Wakes the browser when a handle opens or closes the file (the status bar's count).
    private var participantsObserver: UInt64 = 0
    /// Versions committed through this data source, with the objects each changed.
    private var local: [UInt64: (changed: [ObjectRef], deleted: [ObjectRef])] = [:]
    private var cachedStatus: FileStatus?
    /// Filter and sort results of the current version; a newer version updates them from the
    /// change records (``advanceResults(from:)``).
    private var resultCache: [String: CachedResult] = [:]
    /// How many times a filter or sort ran over a whole class on the browser's thread (not
    /// answered from the cache or updated from the change records; background filters are not
    /// counted): tests check that following a commit does not.
    package private(set) var fullQueryRuns = 0
    private var backlinkCounts: [String: [ObjKey: Int]] = [:]
    private var cachedSpace: SpaceReport?
    private var cachedVersions: VersionsReport?
    /// The rows last shown, to find which of them another process changed.
    private var watched: [ObjectRef: [DisplayValue]] = [:]
    private var lastTotalBytes: UInt64 = 0
    /// True while a full compaction replaces the file: nothing may begin a transaction then.
    private var isCompacting = false
    private var lastPlan: CompactionPlan?
    /// Background filters still running: `close()` cancels them and waits, so no thread reads
    /// the file after it is closed.
    private let background = BackgroundJobThreads()
    /// Checks the file's size (one `stat`) every ``sizeCheckInterval`` while a change handler is
    /// set: an online compaction that only gives back the file's tail commits nothing, so the
    /// commit watcher never woke the browser, and its status bar showed the old size for good.
    private var sizeWatcher: DispatchSourceTimer?
    /// How often the size watcher looks.
    package static let sizeCheckInterval: TimeInterval = 0.1

    /// Opens `path` (which must exist). Throws the engine's error for a missing, foreign or
    /// damaged file.
    package convenience init(path: String, readOnly: Bool = false) throws {
        var options = StoreOptions()
        options.create = false
        options.readOnly = readOnly
        options.label = "strata browser"
        let database = try Database(path: path, options: options)
        try self.init(database: database, path: path, readOnly: readOnly)
    }

    package init(database: Database, path: String, readOnly: Bool) throws {
        self.database = database
        self.path = path
        fileInfo = FileInfo(path: path, isReadOnly: readOnly || database.store.isReadOnly, isEncrypted: false,
                            openWarnings: database.store.openWarnings.map(\.description))
        txn = try database.read(label: "strata browser")
        lastTotalBytes = (try? database.store.fileSize()) ?? 0
        startObserving()
    }

    deinit {
        sizeWatcher?.cancel()
        stopFilters()
        database.store.removeCommitObserver(observer)
        database.store.removeCommitObserver(participantsObserver)
        txn.end()
    }

    private func startObserving() {
        let box = handler
        observer = database.store.addCommitObserver { _ in box.fire() }
        participantsObserver = database.store.addParticipantsObserver { box.fire() }
    }

    /// Ends the snapshot and closes the file.
    package func close() {
        sizeWatcher?.cancel()
        sizeWatcher = nil
        stopFilters()
        database.store.removeCommitObserver(observer)
        database.store.removeCommitObserver(participantsObserver)
        txn.end()
        database.close()
    }

    // MARK: File

    package func status() -> FileStatus {
        if var cachedStatus {
            // Handles come and go without a commit: the count is read again (shared memory).
            if !isCompacting { cachedStatus.participants = max(1, database.store.participants().count) }
            self.cachedStatus = cachedStatus
            return cachedStatus
        }
        if isCompacting { return FileStatus(version: txn.version, totalBytes: 0, usedBytes: 0, freeBytes: 0, lockedBytes: 0, participants: 1) }
        let status: FileStatus
        // This process has the file open even when it is not in the lock file (read-only
        // without one: nothing is created, and no other process can be seen).
        let participants = max(1, database.store.participants().count)
        if let stats = try? database.store.spaceStatistics() {
            status = FileStatus(version: txn.version, totalBytes: Int64(stats.totalBytes), usedBytes: Int64(stats.usedBytes),
                                freeBytes: Int64(stats.freeBytes), lockedBytes: Int64(stats.lockedBytes),
                                participants: participants)
        } else {
            status = FileStatus(version: txn.version, totalBytes: Int64((try? database.store.fileSize()) ?? 0), usedBytes: 0,
                                freeBytes: 0, lockedBytes: 0, participants: participants)
        }
        cachedStatus = status
        return status
    }

    // MARK: Schema

    package func classes() -> [ClassSummary] {
        database.schema.objectSchemas.map { os in
            ClassSummary(name: os.className, count: RowCount((try? txn.count(os.className)) ?? 0), isEmbedded: os.isEmbedded,
                         primaryKey: os.primaryKeyProperty?.name)
        }
    }

    package func properties(className: String) throws -> [PropertyDescription] {
        try objectSchema(className).allProperties.map { ValueConversion.describe($0, in: database.schema) }
    }

    private func objectSchema(_ className: String) throws -> ObjectSchema {
        guard let os = database.schema[className] else { throw BrowserError("no class named '\(className)' in this file") }
        return os
    }

    // MARK: Reading

    package func count(className: String, filter: String?) throws -> RowCount {
        if isEmpty(filter) { return RowCount(try wrap { try txn.count(className) }) }
        return RowCount(try resultKeys(className, filter: filter, sort: nil).count)
    }

    package func rows(className: String, filter: String?, sort: SortSpec?, range: Range<Int>) throws -> [ObjectRow] {
        let os = try objectSchema(className)
        let keys: [ObjKey]
        if isEmpty(filter) && sort == nil {
            guard !range.isEmpty, range.lowerBound >= 0 else { return [] }
            keys = try wrap { try txn.objectKeys(className, from: range.lowerBound, count: range.count) }
        } else {
            let all = try resultKeys(className, filter: filter, sort: sort)
            keys = Array(all[range.clamped(to: 0..<all.count)])
        }
        let rows = try keys.map { key in
            ObjectRow(ref: ObjectRef(className: className, key: key), values: try wrap { try displayValues(os, key) })
        }
        watched = [:]
        for row in rows.prefix(300) { if let ref = row.ref { watched[ref] = row.values } }
        return rows
    }

    package func position(of object: ObjectRef, filter: String?, sort: SortSpec?) throws -> Int? {
        if isEmpty(filter) && sort == nil {
            // Keys are in ascending order: binary search on positions.
            var lo = 0, hi = try wrap { try txn.count(object.className) }
            while lo < hi {
                let mid = (lo + hi) / 2
                guard let key = try wrap({ try txn.objectKey(object.className, at: mid) }) else { return nil }
                if key == object.key { return mid }
                if key < object.key { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
        return try resultKeys(object.className, filter: filter, sort: sort).firstIndex(of: object.key)
    }

    package func object(_ ref: ObjectRef) throws -> ObjectDetail {
        let os = try objectSchema(ref.className)
        guard try wrap({ try txn.exists(ref.className, ref.key) }) else { throw BrowserError("\(ref.className) #\(ref.key) does not exist (deleted?)") }
        let values = try wrap { try displayValues(os, ref.key) }
        return ObjectDetail(ref: ref, label: label(ObjectLink(className: ref.className, key: ref.key)),
                            properties: try properties(className: ref.className), values: values)
    }

    package func backlinks(of ref: ObjectRef) throws -> [Backlink] {
        guard try wrap({ try txn.exists(ref.className, ref.key) }) else { throw BrowserError("\(ref.className) #\(ref.key) does not exist (deleted?)") }
        var out: [Backlink] = []
        for origin in txn.incomingLinks(ref.className) {
            let keys = try wrap { try txn.backlinks(ref.className, ref.key, originClass: origin.className, originProperty: origin.property) }
            for key in keys {
                let link = ObjectLink(className: origin.className, key: key)
                out.append(Backlink(source: LabeledObjectRef(ref: ObjectRef(className: origin.className, key: key), label: label(link)),
                                    property: origin.property))
            }
        }
        return out
    }

    // MARK: Collections

    package func collectionCount(owner: ObjectRef, property: String) throws -> Int {
        let p = try collectionProperty(owner.className, property)
        if p.type == .linkingObjects { return try backlinkKeys(owner, p).count }
        return try wrap { try txn.collectionCount(owner.className, owner.key, property) }
    }

    package func collectionRows(owner: ObjectRef, property: String, range: Range<Int>) throws -> [ObjectRow] {
        let p = try collectionProperty(owner.className, property)
        var items: [(key: String?, value: Value)]
        if p.type == .linkingObjects {
            items = try backlinkKeys(owner, p).map { (nil, .object(ObjectLink(className: p.objectClassName ?? "", key: $0))) }
        } else if p.collection == .map {
            items = try wrap { try txn.map(owner.className, owner.key, property) }.map { ($0.key, $0.value) }
        } else {
            items = try wrap { try txn.list(owner.className, owner.key, property) }.map { (nil, $0) }
        }
        let window = items[range.clamped(to: 0..<items.count)]
        if p.type == .object || p.type == .linkingObjects, let target = p.objectClassName, let targetSchema = database.schema[target] {
            return try window.map { item in
                var values: [DisplayValue]
                var ref: ObjectRef?
                if case .object(let l) = item.value {
                    ref = ObjectRef(className: target, key: l.key)
                    values = try wrap { try displayValues(targetSchema, l.key) }
                } else {
                    values = targetSchema.allProperties.map { _ in .null }
                }
                if let key = item.key { values.insert(.string(key), at: 0) }
                return ObjectRow(ref: ref, values: values)
            }
        }
        return window.map { item in
            let value = display(item.value, p, embedded: false)
            return ObjectRow(ref: nil, values: item.key.map { [.string($0), value] } ?? [value])
        }
    }

    private func collectionProperty(_ className: String, _ name: String) throws -> PropertySchema {
        guard let p = try objectSchema(className)[name], p.collection != .single || p.type == .linkingObjects else {
            throw BrowserError("\(className).\(name) is not a collection")
        }
        return p
    }

    private func backlinkKeys(_ owner: ObjectRef, _ p: PropertySchema) throws -> [ObjKey] {
        try wrap { try txn.backlinks(owner.className, owner.key, originClass: p.objectClassName ?? "", originProperty: p.linkOriginPropertyName ?? "") }
    }

    // MARK: Writing

    package func setValue(text: String, property: String, of object: ObjectRef) throws {
        try checkWritable()
        let p = try editableProperty(object.className, property)
        guard try wrap({ try txn.exists(object.className, object.key) }) else { throw BrowserError("\(object.className) #\(object.key) does not exist (deleted?)") }
        let current = try wrap { try txn.value(object.className, object.key, property) }
        var value = try parseEdit(text, p, elementOnly: false)
        // An AnyRealmValue keeps the type of the value it holds when the text reads as that
        // type: the prompt shows a date, UUID, ObjectId, Decimal128 or Float as text, which the
        // AnyRealmValue guess (number, bool, else string) would turn into a String or a Double.
        if p.type == .mixed, let type = Self.keptMixedType(current),
           let typed = try? ValueParser.scalar(text, type: type, what: p.name, data: .hex) {
            value = typed
        }
        // Unchanged (Enter on the pre-filled prompt): nothing to write, no commit.
        if value == current { return }
        if p.isPrimaryKey {
            throw BrowserError("the primary key of an existing \(object.className) cannot be changed; add a new object instead")
        }
        try write(changed: [object]) { w in try w.set(object.className, object.key, property, value) }
    }

    @discardableResult
    package func createObject(className: String, values: [String: String]) throws -> ObjectRef {
        try checkWritable()
        let os = try objectSchema(className)
        if os.isEmbedded { throw BrowserError("\(className) is embedded: its objects are created inside their parent") }
        var parsed: [String: Value] = [:]
        for (name, text) in values {
            parsed[name] = try newObjectField(os, name, text)
        }
        if let pk = os.primaryKeyProperty, parsed[pk.name] == nil {
            throw BrowserError("\(className) needs a value for its primary key '\(pk.name)'")
        }
        var key: ObjKey = 0
        try write(changed: []) { w in key = try w.create(className, values: parsed) }
        let ref = ObjectRef(className: className, key: key)
        local[txnVersionAfterWrite]?.changed = [ref]
        return ref
    }

    package func checkNewObjectField(className: String, property: String, text: String) throws {
        try checkWritable()
        _ = try newObjectField(try objectSchema(className), property, text)
    }

    /// The type an AnyRealmValue edit keeps when the text reads as it (the types the
    /// AnyRealmValue guess of `ValueParser.mixed` would not give back).
    static func keptMixedType(_ v: Value) -> PropertyType? {
        switch v {
        case .date: return .date
        case .uuid: return .uuid
        case .objectId: return .objectId
        case .decimal: return .decimal128
        case .float: return .float
        default: return nil
        }
    }

    /// The value of one field of a new object (nil: left out, the property's default or null).
    private func newObjectField(_ os: ObjectSchema, _ name: String, _ text: String) throws -> Value? {
        guard let p = os[name] else { throw BrowserError("\(os.className) has no property '\(name)'") }
        guard p.collection == .single, p.type != .linkingObjects else { return nil }
        if schemaIsEmbedded(p) { return nil }
        // Empty is null for every optional property, strings included (the form says so).
        if text.isEmpty && p.isOptional { return nil }
        let value = try parseEdit(text, p, elementOnly: false)
        // A primary key already taken is refused at its own field, not after the last one.
        if p.isPrimaryKey, try wrap({ try txn.find(os.className, primaryKey: value) }) != nil {
            throw BrowserError("\(os.className) already has an object with \(p.name) \(text.trimmingCharacters(in: .whitespaces)); type another value (or edit that object)")
        }
        return value
    }

    package func deleteObject(_ ref: ObjectRef) throws {
        try checkWritable()
        _ = try objectSchema(ref.className)
        try write(changed: [], deleted: [ref]) { w in try w.delete(ref.className, ref.key) }
    }

    package func addCollectionItem(text: String, owner: ObjectRef, property: String) throws {
        try checkWritable()
        let p = try editableCollection(owner.className, property)
        if p.collection == .map {
            guard let separator = text.firstIndex(of: "=") else { throw BrowserError("type a map entry as key=value") }
            let key = text[..<separator].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw BrowserError("a map key cannot be empty") }
            let value = try parseEdit(String(text[text.index(after: separator)...]), p, elementOnly: true)
            try write(changed: [owner]) { w in
                var entries = try w.map(owner.className, owner.key, property).map { ($0.key, $0.value) }
                entries.removeAll { $0.0 == key }
                entries.append((key, value))
                try w.setMap(owner.className, owner.key, property, entries)
            }
            return
        }
        if schemaIsEmbedded(p) {
            try write(changed: [owner]) { w in try w.setEmbedded(owner.className, owner.key, property, [:]) }
            return
        }
        let value = try parseEdit(text, p, elementOnly: true)
        try write(changed: [owner]) { w in
            var items = try w.list(owner.className, owner.key, property)
            if p.collection == .set, items.contains(value) { throw BrowserError("\(text) is already in the set") }
            items.append(value)
            try w.setList(owner.className, owner.key, property, items)
        }
    }

    package func setCollectionItem(text: String, at index: Int, owner: ObjectRef, property: String) throws {
        try checkWritable()
        let p = try editableCollection(owner.className, property)
        if schemaIsEmbedded(p) { throw BrowserError("open the embedded object with Enter to edit its fields") }
        let value = try parseEdit(text, p, elementOnly: true)
        try write(changed: [owner]) { w in
            if p.collection == .map {
                var entries = try w.map(owner.className, owner.key, property).map { ($0.key, $0.value) }
                guard entries.indices.contains(index) else { throw BrowserError("no item \(index + 1) in \(property)") }
                entries[index].1 = value
                try w.setMap(owner.className, owner.key, property, entries)
            } else {
                var items = try w.list(owner.className, owner.key, property)
                guard items.indices.contains(index) else { throw BrowserError("no item \(index + 1) in \(property)") }
                if p.collection == .set, items.enumerated().contains(where: { $0.offset != index && $0.element == value }) {
                    throw BrowserError("\(text) is already in the set")
                }
                items[index] = value
                try w.setList(owner.className, owner.key, property, items)
            }
        }
    }

    package func removeCollectionItem(at index: Int, owner: ObjectRef, property: String) throws {
        try checkWritable()
        let p = try editableCollection(owner.className, property)
        try write(changed: [owner]) { w in
            if p.collection == .map {
                var entries = try w.map(owner.className, owner.key, property).map { ($0.key, $0.value) }
                guard entries.indices.contains(index) else { throw BrowserError("no item \(index + 1) in \(property)") }
                entries.remove(at: index)
                try w.setMap(owner.className, owner.key, property, entries)
            } else {
                var items = try w.list(owner.className, owner.key, property)
                guard items.indices.contains(index) else { throw BrowserError("no item \(index + 1) in \(property)") }
                items.remove(at: index)
                try w.setList(owner.className, owner.key, property, items)
            }
        }
    }

    private var txnVersionAfterWrite: UInt64 = 0
    /// The write transaction taken by `reserveWriteLock` / `finishWriteLockWait` for the next edit.
    private var reservedWrite: DBTransaction?
    /// Waits for the write lock still running: `close()` cancels them.
    private var lockWaits: [WriteLockWait] = []

    package func reserveWriteLock(finished: @escaping @Sendable () -> Void) -> WriteLockWait? {
        if reservedWrite != nil || fileInfo.isReadOnly || isCompacting { return nil }
        // Free now (the common case): taken at once, no thread. An error here (a damaged lock
        // file) is left for the edit's own write to report.
        switch Result(catching: { try self.database.tryWrite(label: "strata browser") }) {
        case .success(let w?): reservedWrite = w; return nil
        case .failure: return nil
        case .success(nil): break
        }
        nonisolated(unsafe) let database = self.database
        let store = self.database.store
        let wait = WriteLockWait(holder: { store.writeLockHolder })
        let cancellation = WriteLockWaitCancellation()
        wait.whenCancelled { cancellation.cancel() }
        lockWaits = lockWaits.filter { !$0.isFinished } + [wait]
        background.run("strata browser write lock", finished: finished) {
            do {
                let w = try database.write(label: "strata browser", cancellation: cancellation)
                nonisolated(unsafe) let taken = w
                wait.finish(.success(()), payload: taken, discard: { ($0 as? DBTransaction)?.abort() })
            } catch {
                wait.finish(.failure(error))
            }
        }
        return wait
    }

    package func finishWriteLockWait(_ wait: WriteLockWait) throws {
        if wait.isCancelled { throw BrowserError("the wait for the write lock was cancelled; nothing was written") }
        guard let (result, payload) = wait.take() else { throw BrowserError("the wait for the write lock has not finished yet") }
        do { try result.get() } catch { throw Self.browserError(error) }
        reservedWrite?.abort()
        reservedWrite = payload as? DBTransaction
    }

    package func releaseWriteLock() {
        reservedWrite?.abort()
        reservedWrite = nil
    }

    /// A holder recorded by a process that has died is not shown: the kernel released its lock
    /// with it (only the record stays behind until the next writer).
    package func writeLockHolderNow() -> WriteLockHolder? {
        isCompacting ? nil : database.store.writeLockHolder.flatMap { $0.isAlive ? $0 : nil }
    }

    /// One write transaction: runs `body`, commits; on any error aborts (nothing written). Uses
    /// the reserved write transaction when there is one.
    private func write(changed: [ObjectRef], deleted: [ObjectRef] = [], _ body: (DBTransaction) throws -> Void) throws {
        let reserved = reservedWrite
        reservedWrite = nil
        let w = try reserved ?? wrap { try database.write(label: "strata browser") }
        do {
            try body(w)
            let version = try w.commit()
            txnVersionAfterWrite = version
            local[version] = (changed, deleted)
        } catch {
            w.abort()
            throw Self.browserError(error)
        }
    }

    private func checkWritable() throws {
        if fileInfo.isReadOnly { throw BrowserError("the file is open read-only (restart without --read-only to edit)") }
    }

    private func editableProperty(_ className: String, _ name: String) throws -> PropertySchema {
        guard let p = try objectSchema(className)[name] else { throw BrowserError("\(className) has no property '\(name)'") }
        guard p.collection == .single, p.type != .linkingObjects, !schemaIsEmbedded(p) else {
            throw BrowserError("\(name) is \(ValueConversion.describe(p, in: database.schema).typeDescription): open it with Enter to edit its items")
        }
        return p
    }

    private func editableCollection(_ className: String, _ name: String) throws -> PropertySchema {
        let p = try collectionProperty(className, name)
        if p.type == .linkingObjects { throw BrowserError("\(name) is computed from links and cannot be edited") }
        return p
    }

    private func schemaIsEmbedded(_ p: PropertySchema) -> Bool {
        p.type == .object && database.schema[p.objectClassName ?? ""]?.isEmbedded == true
    }

    /// Text typed in the edit prompt, parsed by the property's type. `null` (or nothing, for
    /// non-strings) is null; links are `#key` or the target's primary key; Data is hex.
    func parseEdit(_ text: String, _ p: PropertySchema, elementOnly: Bool) throws -> Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let optional = p.isOptional || (p.type == .object && !elementOnly) || p.type == .mixed
        let description = ValueConversion.describe(p, in: database.schema).typeDescription
        if trimmed == "null" || (trimmed.isEmpty && p.type != .string) {
            if optional { return .null }
            throw BrowserError("\(p.name) is required (\(description)): type a value")
        }
        if p.type == .object {
            guard let target = p.objectClassName else { throw BrowserError("\(p.name) has no target class") }
            guard let key = try resolveLink(trimmed, in: target) else {
                throw BrowserError("no \(target) with \(trimmed.hasPrefix("#") ? "key" : "primary key") \(trimmed)")
            }
            return .object(ObjectLink(className: target, key: key))
        }
        do {
            return try ValueParser.scalar(text, type: p.type, what: p.name, data: .hex)
        } catch let error as InputError {
            throw BrowserError(error.message)
        }
    }

    private func resolveLink(_ typed: String, in className: String) throws -> ObjKey? {
        if typed.hasPrefix("#") {
            // An object key; a number out of range is said as such, not as a primary key.
            guard let key = Int64(typed.dropFirst()) else {
                throw BrowserError("'\(typed)' is not an object key: type # and a whole number (within ±9.2e18)")
            }
            return try wrap { try txn.exists(className, key) } ? key : nil
        }
        guard let pk = database.schema[className]?.primaryKeyProperty else {
            throw BrowserError("\(className) has no primary key: type the object key as #key")
        }
        guard let value = try? ValueParser.scalar(typed, type: pk.type, what: pk.name, data: .hex) else { return nil }
        return try wrap { try txn.find(className, primaryKey: value) }
    }

    // MARK: Reports

    package func versions() -> VersionsReport {
        // The holder changes without a commit (a writer takes the lock, or stops while holding
        // it): read afresh on every call, not kept with the report cached per version.
        if var cachedVersions { cachedVersions.writeLockHolder = writeLockHolderNow(); return cachedVersions }
        if isCompacting { return VersionsReport(currentVersion: txn.version, commits: [], readers: []) }
        let report = (try? DatabaseReports.versions(store: database.store)) ?? VersionsReport(currentVersion: txn.version, commits: [], readers: [])
        cachedVersions = report
        return report
    }

    package func space() -> SpaceReport {
        if let cachedSpace { return cachedSpace }
        if isCompacting { return SpaceReport(totalBytes: 0, usedBytes: 0, freeBytes: 0, lockedBytes: 0, classes: [], freeBySize: [], freeByVersion: [], compactedBytes: 0) }
        let report = (try? DatabaseReports.space(database: database))
            ?? SpaceReport(totalBytes: 0, usedBytes: 0, freeBytes: 0, lockedBytes: 0, classes: [], freeBySize: [], freeByVersion: [], compactedBytes: 0)
        cachedSpace = report
        return report
    }

    // MARK: Compaction

    package func compactionPlan() -> CompactionPlan {
        if isCompacting, let lastPlan { return lastPlan }
        let stats = try? database.store.spaceStatistics()
        let total = Int64(stats?.totalBytes ?? 0)
        let me = getpid()
        let all = database.store.participants()
        var seen = Set<Int32>()
        var participants = all.filter { $0.pid != me }.compactMap { p -> Participant? in
            guard seen.insert(p.pid).inserted else { return nil }
            return Participant(pid: p.pid, label: p.label)
        }
        if all.filter({ $0.pid == me }).count > 1 {
            participants.append(Participant(pid: me, label: "another handle in this process"))
        }
        let expected = stats.map(DatabaseReports.compactedEstimate) ?? total
        let reusable = Int64(stats.map { s in s.freeBytes - s.lockedBytes } ?? 0)
        let plan = CompactionPlan(totalBytes: total, expectedBytes: expected, onlineExpectedBytes: max(expected, total - reusable),
                                  otherParticipants: participants, onlineAvailable: DatabaseCompaction.isAvailable)
        lastPlan = plan
        return plan
    }

    package func compact(online: Bool, progress: (CompactionProgressReport) -> Void) throws -> CompactionOutcome {
        try checkWritable()
        // A full compaction replaces the file: this handle's snapshot must not pin a version.
        _ = status()
        _ = compactionPlan()
        txn.end()
        isCompacting = !online
        defer {
            isCompacting = false
            if let fresh = try? database.read(label: "strata browser") { txn = fresh }
            invalidateCaches()
            // This handle's own compaction is reported by the browser, not as another process's.
            lastTotalBytes = (try? database.store.fileSize()) ?? lastTotalBytes
        }
        do {
            return try DatabaseCompaction.compact(database.store, online: online, progress: progress)
        } catch {
            throw Self.browserError(error)
        }
    }

    // MARK: Live changes

    package func setChangeHandler(_ handler: (@Sendable () -> Void)?) {
        self.handler.set(handler)
        sizeWatcher?.cancel()
        sizeWatcher = nil
        guard handler != nil else { return }
        let box = self.handler, path = self.path
        let seen = LockedSize(Self.fileSize(path))
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        let interval = Int(Self.sizeCheckInterval * 1000)
        timer.schedule(deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval), leeway: .milliseconds(interval / 2))
        timer.setEventHandler {
            if seen.exchange(Self.fileSize(path)) { box.fire() }
        }
        timer.resume()
        sizeWatcher = timer
    }

    /// The size of the file now at `path` (it may have been replaced since), nil when it cannot
    /// be opened. From `lseek` on a descriptor of its own, not `stat`: asking for the file's
    /// timestamps would make a writer's next commit write the inode too (see `FileIO.size()`),
    /// and this runs every ``sizeCheckInterval`` beside other processes' commits.
    private static func fileSize(_ path: String) -> Int64? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        let end = lseek(fd, 0, SEEK_END)
        return end >= 0 ? Int64(end) : nil
    }

    package func pollChanges() -> [ChangeEvent] {
        let store = database.store
        guard let newest = try? store.newestMeta().version else { return [] }
        let totalBytes = (try? store.fileSize()) ?? lastTotalBytes
        var events: [ChangeEvent] = []
        if totalBytes < lastTotalBytes {
            events.append(ChangeEvent(kind: .compaction, version: newest, pid: 0, isExternal: true,
                                      summary: "file shrank from \(Formatting.bytes(Int64(lastTotalBytes))) to \(Formatting.bytes(Int64(totalBytes)))"))
        }
        let sizeChanged = totalBytes != lastTotalBytes
        lastTotalBytes = totalBytes
        guard newest != txn.version else {
            // The size changed without a commit (a compaction gave back the tail, a writer grew
            // the file): the status bar and reports are read again.
            if sizeChanged { invalidateCaches() }
            return events
        }
        let oldVersion = txn.version
        do {
            if let (fileSchema, _) = try? Database.readSchema(store), let fileSchema, fileSchema != database.schema {
                try reopen()
            }
            let fresh = try database.read(label: "strata browser")
            txn.end()
            txn = fresh
        } catch {
            return events + [ChangeEvent(kind: .error, version: txn.version, pid: 0, isExternal: false,
                                         summary: "could not read version \(newest): \(Self.browserError(error).message)")]
        }
        // Filters and sorts follow the commits from their change records (a reopened file, for
        // a new schema, emptied them).
        invalidateCaches(keepingResults: true)
        advanceResults(from: oldVersion)
        let me = getpid()
        // `database.store`, not `store`: a schema change reopened the file and closed the old
        // store, whose commit list then came back empty ("by pid 0: new version").
        let records = ((try? database.store.recentCommits(limit: 256)) ?? []).filter { $0.version > oldVersion && $0.version <= txn.version }.reversed()
        if let first = records.first, first.version > oldVersion + 1 {
            events.append(ChangeEvent(version: first.version - 1, pid: 0, isExternal: true,
                                      summary: "\(first.version - 1 - oldVersion) earlier commits"))
        }
        var external: [Int] = []
        var unrecorded = records.isEmpty
        for record in records {
            let mine = local.removeValue(forKey: record.version)
            let pid = Int32(bitPattern: record.pid)
            let isExternal = mine == nil || pid != me
            if isExternal { external.append(events.count) }
            // The commit's change record (the one notifications read) names the objects it
            // touched; without one (too old, a bulk rewrite) the shown rows are compared below.
            let changes = try? txn.changeRecord(of: record.version)
            var event = ChangeEvent(version: record.version, pid: pid, isExternal: isExternal,
                                    summary: DatabaseReports.summary(of: record, record: changes),
                                    changedObjects: mine?.changed ?? [], deletedObjects: mine?.deleted ?? [])
            if let changes, let marks = Self.marks(from: changes) {
                event.changedObjects = marks.changed
                event.deletedObjects = marks.deleted
            } else if isExternal {
                unrecorded = true
            }
            events.append(event)
        }
        if records.isEmpty {
            events.append(ChangeEvent(version: txn.version, pid: 0, isExternal: true, summary: "new version"))
            external.append(events.count - 1)
        }
        if unrecorded, let last = external.last {
            let (changed, deleted) = diffWatched()
            events[last].changedObjects += changed
            events[last].deletedObjects += deleted
        }
        local = local.filter { $0.key > txn.version }
        return events
    }

    /// Most objects one commit's marks name; a larger commit marks the rows shown by comparing
    /// them instead (the record then still gives its summary).
    static let markLimit = 10_000

    /// The objects a change record says were inserted or modified, and deleted; nil when the
    /// record has a rewritten class or names more than `markLimit` objects.
    static func marks(from record: [String: ClassChangeSet]) -> (changed: [ObjectRef], deleted: [ObjectRef])? {
        var changed: [ObjectRef] = [], deleted: [ObjectRef] = []
        for (name, c) in record {
            if c.rewritten { return nil }
            let touched = c.inserted.union(c.modifiedKeys(properties: nil)).subtracting(c.deleted)
            guard changed.count + touched.keyCount + deleted.count + c.deleted.keyCount <= markLimit else { return nil }
            changed += touched.keys.map { ObjectRef(className: name, key: $0) }
            deleted += c.deleted.keys.map { ObjectRef(className: name, key: $0) }
        }
        return (changed, deleted)
    }

    /// Which of the rows last shown changed or disappeared in the new snapshot.
    private func diffWatched() -> ([ObjectRef], [ObjectRef]) {
        var changed: [ObjectRef] = [], deleted: [ObjectRef] = []
        for (ref, old) in watched {
            guard let os = database.schema[ref.className], (try? txn.exists(ref.className, ref.key)) == true else {
                deleted.append(ref)
                continue
            }
            if let new = try? displayValues(os, ref.key), new != old { changed.append(ref) }
        }
        watched = [:]
        return (changed, deleted)
    }

    private func reopen() throws {
        var options = database.store.options
        options.create = false
        let fresh = try Database(path: path, options: options)
        database.store.removeCommitObserver(observer)
        database.store.removeCommitObserver(participantsObserver)
        txn.end()
        database.close()
        database = fresh
        resultCache = [:]
        txn = try fresh.read(label: "strata browser")
        startObserving()
    }

    private func invalidateCaches(keepingResults: Bool = false) {
        cachedStatus = nil
        if !keepingResults { resultCache = [:] }
        backlinkCounts = [:]
        cachedSpace = nil
        cachedVersions = nil
    }

    // MARK: Filter and sort

    private func isEmpty(_ filter: String?) -> Bool {
        filter?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true
    }

    /// The keys of a class after filter and sort: computed once, then kept up to date from the
    /// change records as the snapshot moves (``advanceResults(from:)``).
    private func resultKeys(_ className: String, filter: String?, sort: SortSpec?) throws -> [ObjKey] {
        let cacheKey = "\(className)\u{0}\(filter ?? "")\u{0}\(sort.map { "\($0.property)\($0.ascending)" } ?? "")"
        if let cached = resultCache[cacheKey] { return cached.keys }
        let os = try objectSchema(className)
        var result: CachedResult
        if !isEmpty(filter) {
            let filterCacheKey = "\(className)\u{0}\(filter ?? "")\u{0}"
            if let cached = resultCache[filterCacheKey] {
                result = cached
            } else {
                result = try queryResult(className, filter!)
                resultCache[filterCacheKey] = result
            }
        } else {
            result = CachedResult(className: className, keys: try wrap { try txn.objectKeys(className) }, stage: nil)
        }
        if let sort {
            guard let p = os[sort.property] else { throw BrowserError("no property '\(sort.property)' to sort by") }
            if p.collection == .single && p.type != .linkingObjects && p.type != .object {
                // Values sort with the query layer's order (RQL SORT: nulls first, numbers by
                // value across Int/Double, NaN below numbers, strings by code point), so `s` in
                // the browser and `SORT(...)` in a query order a column the same way.
                result = try queryResult(className, (isEmpty(filter) ? "TRUEPREDICATE" : filter!) + " SORT(\(p.name) \(sort.ascending ? "ASC" : "DESC"))")
            } else {
                // Not a query: dropped at the next version (see `advanceResults`).
                fullQueryRuns += 1
                result = CachedResult(className: className, keys: try wrap { try sortKeysByCount(result.keys, os, p, ascending: sort.ascending) }, stage: nil)
            }
        }
        if resultCache.count > 8 { resultCache = [:] }
        resultCache[cacheKey] = result
        return result.keys
    }

    /// Runs `query` over the whole class, keeping the query stage to update the keys later.
    private func queryResult(_ className: String, _ query: String) throws -> CachedResult {
        let bound = try Self.compileQuery(query, schema: database.schema, className: className)
        fullQueryRuns += 1
        let keys = try wrap { try QueryExecutor(txn).run(bound) }
        return CachedResult(className: className, keys: keys, stage: QueryStage(bound, description: query))
    }

    /// Brings the cached filter and sort results from version `from` to the snapshot's version
    /// with the change records between them, as `Results` notifications do
    /// (`LocalResultsUpdate`): deleted objects leave, and only the inserted and modified objects
    /// of the class are run through the query and placed among the unchanged ones by binary
    /// search. A result is dropped (and runs again in full when next shown) when the records do
    /// not reach back to `from`, a class was rewritten (a migration, a bulk load, a compaction
    /// batch), the query follows links, another class lost objects, the records name more than
    /// `LocalResultsUpdate.changeLimit` objects of the class, or it is not a query (sorting by a
    /// link or a collection's size).
    ///
    /// Measured in a debug build (`LiveFilterMeasurements`): 135,000 events, one
    /// `DemoDatabase.Churner` commit from another handle; following it (poll, count, first 40
    /// rows) took a median of 89 ms for `kind == 'purchase'` (indexed), 240 ms for it sorted by
    /// `value`, 111 ms for `value < 250 AND payload != nil` sorted by `at` (scanned) when every
    /// commit ran the query again, and takes 3.5, 2.8 and 3.3 ms (at most 13 ms) updated from
    /// the records.
    private func advanceResults(from version: UInt64) {
        guard !resultCache.isEmpty else { return }
        guard let changes = try? txn.changes(since: version) else { resultCache = [:]; return }
        resultCache = resultCache.compactMapValues { advanced($0, changes) }
    }

    /// `result` after `changes` (read in the snapshot), or nil when it must run again.
    private func advanced(_ result: CachedResult, _ changes: [String: ClassChangeSet]) -> CachedResult? {
        let touched = changes.values.contains { $0.rewritten || !$0.inserted.isEmpty || !$0.deleted.isEmpty || !$0.modified.isEmpty }
        if !touched { return result }
        guard let stage = result.stage, LocalResultsUpdate.applies(to: [stage], className: result.className, changes: changes) else { return nil }
        guard let set = changes[result.className] else { return result }
        guard let placed = LocalResultsUpdate.place(result.keys, className: result.className, stages: [stage], changes: set, in: txn) else { return nil }
        return CachedResult(className: result.className, keys: placed.keys, stage: stage)
    }

    /// Runs an RQL query over a class with the query executor (column scans, index lookups;
    /// its SORT/DISTINCT/LIMIT clauses applied). Errors carry the 0-based position; a
    /// cancelled query throws the executor's `cancelled` error.
    package static func filterKeys(_ txn: DBTransaction, schema: Schema, className: String, query: String,
                                  cancellation: QueryCancellation? = nil) throws -> [ObjKey] {
        let bound = try compileQuery(query, schema: schema, className: className)
        do {
            return try QueryExecutor(txn, cancellation: cancellation).run(bound)
        } catch {
            throw browserError(error)
        }
    }

    /// Runs the filter on a background thread in its own read transaction. When that
    /// transaction sees the browser's version, the keys are kept for `count`/`rows`; when a
    /// commit came in between, ``finishFilter(_:)`` counts again at the browser's version.
    package func startFilter(className: String, filter: String, finished: @escaping @Sendable () -> Void) -> FilterJob {
        let job = FilterJob(className: className, filter: filter)
        let filterCacheKey = "\(className)\u{0}\(filter)\u{0}"
        if let cached = resultCache[filterCacheKey] {
            job.finish(.success(RowCount(cached.keys.count)))
            finished()
            return job
        }
        // The engine's Database is safe to use from several threads, each with its own transaction.
        nonisolated(unsafe) let database = self.database
        nonisolated(unsafe) let schema = database.schema
        background.run(job, finished: finished) { cancellation in
            do {
                let reader = try database.read(label: "strata browser filter")
                defer { reader.end() }
                let bound = try Self.compileQuery(filter, schema: schema, className: className)
                let keys: [ObjKey]
                do { keys = try QueryExecutor(reader, cancellation: cancellation).run(bound) } catch { throw Self.browserError(error) }
                job.finish(.success(RowCount(keys.count)), payload: FilterKeys(version: reader.version, keys: keys, stage: QueryStage(bound, description: filter)))
            } catch {
                job.finish(.failure(error))
            }
        }
        return job
    }

    /// Cancels the running filters and waits for their threads.
    private func stopFilters() {
        background.cancelFilters()
        for wait in lockWaits { wait.cancel() }
        lockWaits = []
        releaseWriteLock()
        background.stopAll()
    }

    package func finishFilter(_ job: FilterJob) throws -> RowCount {
        if job.isCancelled { throw BrowserError("the filter was cancelled") }
        guard let (result, payload) = job.result else { throw BrowserError("the filter has not finished yet") }
        let count = try result.get()
        guard let found = payload as? FilterKeys else { return count }
        var cached = CachedResult(className: job.className, keys: found.keys, stage: found.stage)
        if found.version != txn.version {
            // Commits came in between: from the records when they reach back, else in full.
            guard found.version < txn.version, let changes = try? txn.changes(since: found.version),
                  let moved = advanced(cached, changes) else { return try self.count(className: job.className, filter: job.filter) }
            cached = moved
        }
        resultCache["\(job.className)\u{0}\(job.filter)\u{0}"] = cached
        return RowCount(cached.keys.count)
    }

    /// Binds an RQL query to the schema; a bad query is a ``BrowserError`` with its 0-based position.
    package static func compileQuery(_ query: String, schema: Schema, className: String) throws -> BoundQuery {
        try QueryText.compile(query, schema: ValueConversion.querySchema(schema), className: className)
    }

    /// Links sort by the target's key, collections and backlinks by their number of items: integers
    /// only (null links first), ties in key order.
    private func sortKeysByCount(_ keys: [ObjKey], _ os: ObjectSchema, _ p: PropertySchema, ascending: Bool) throws -> [ObjKey] {
        var pairs: [(Int64?, ObjKey)] = []
        pairs.reserveCapacity(keys.count)
        for key in keys {
            switch try sortValue(os, key, p) {
            case .int(let n): pairs.append((n, key))
            case .object(let link): pairs.append((link.key, key))
            default: pairs.append((nil, key))
            }
        }
        pairs.sort { a, b in
            if a.0 == b.0 { return a.1 < b.1 }
            guard let x = a.0 else { return ascending }
            guard let y = b.0 else { return !ascending }
            return (x < y) == ascending
        }
        return pairs.map(\.1)
    }

    private func sortValue(_ os: ObjectSchema, _ key: ObjKey, _ p: PropertySchema) throws -> Value {
        if p.type == .linkingObjects {
            return .int(Int64(try txn.backlinks(os.className, key, originClass: p.objectClassName ?? "", originProperty: p.linkOriginPropertyName ?? "").count))
        }
        if p.collection != .single { return .int(Int64(try txn.collectionCount(os.className, key, p.name))) }
        return try txn.value(os.className, key, p.name)
    }

    // MARK: Display

    private func displayValues(_ os: ObjectSchema, _ key: ObjKey) throws -> [DisplayValue] {
        guard let (cluster, row) = try txn.clusterOf(os.className, key) else {
            throw BrowserError("\(os.className) #\(key) does not exist (deleted?)")
        }
        return try os.allProperties.map { p in
            if p.type == .linkingObjects {
                return .collection(count: backlinkCount(os.className, key, p), elementType: p.objectClassName ?? "Object")
            }
            if p.collection != .single {
                let count = try txn.collectionCount(os.className, key, p.name)
                return .collection(count: count, elementType: p.objectClassName ?? ValueConversion.describe(p, in: database.schema).type.displayName)
            }
            var value = try cluster.column(p.name).value(row)
            if case .object(let l) = value, !((try? txn.exists(l.className, l.key)) ?? false) { value = .null }
            return display(value, p, embedded: schemaIsEmbedded(p))
        }
    }

    /// Backlink counts of a whole origin property, computed once per version.
    private func backlinkCount(_ className: String, _ key: ObjKey, _ p: PropertySchema) -> Int {
        guard let origin = p.objectClassName, let property = p.linkOriginPropertyName,
              let originProperty = database.schema[origin]?[property] else { return 0 }
        let cacheKey = origin + "." + property
        if let counts = backlinkCounts[cacheKey] { return counts[key] ?? 0 }
        var counts: [ObjKey: Int] = [:]
        try? txn.forEachCluster(origin) { cluster in
            if originProperty.collection == .single {
                let column = try cluster.column(property)
                for row in 0..<cluster.count where !column.isNull(row) { counts[column.int(row), default: 0] += 1 }
            } else {
                for row in 0..<cluster.count {
                    for case .object(let l) in try cluster.collection(property, row: row) where l.className == className {
                        counts[l.key, default: 0] += 1
                    }
                }
            }
            return true
        }
        backlinkCounts[cacheKey] = counts
        return counts[key] ?? 0
    }

    func display(_ value: Value, _ p: PropertySchema, embedded: Bool) -> DisplayValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let f): return .decimal(ValueConversion.numberText(.float(f)))
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let d): return .data(count: d.count, prefix: Array(d.prefix(16)))
        case .date(let t): return .date(seconds: t.seconds, nanoseconds: t.nanoseconds)
        case .objectId(let o): return .objectId(o.stringValue)
        case .uuid(let u): return .uuid(u)
        case .decimal(let d): return .decimal(d.description)
        case .object(let l):
            let link = LabeledObjectRef(ref: ObjectRef(className: l.className, key: l.key), label: label(l))
            return embedded ? .embedded(link) : .link(link)
        }
    }

    /// A short label: the primary key, else a name-like string property, else `#key`.
    func label(_ l: ObjectLink) -> String {
        guard let os = database.schema[l.className] else { return "#\(l.key)" }
        if let pk = os.primaryKeyProperty, let v = try? txn.value(l.className, l.key, pk.name) {
            if let name = os.properties.first(where: { ["name", "title"].contains($0.name) && $0.type == .string && $0.collection == .single }),
               case .string(let s)? = try? txn.value(l.className, l.key, name.name) {
                return "\(v.description) \(s)"
            }
            return v.description
        }
        let strings = os.properties.filter { $0.type == .string && $0.collection == .single }
        let named = strings.first { ["name", "title", "street"].contains($0.name) } ?? strings.first
        if let named, case .string(let s)? = try? txn.value(l.className, l.key, named.name), !s.isEmpty {
            if os.isEmbedded {
                if let city = strings.first(where: { $0.name == "city" }), case .string(let c)? = try? txn.value(l.className, l.key, city.name) {
                    return "\(s), \(c)"
                }
                return s
            }
            // `#key name`: the first word is what the edit prompt resolves.
            return "#\(l.key) \(s)"
        }
        return "#\(l.key)"
    }

    // MARK: Errors

    private func wrap<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw Self.browserError(error) }
    }

    /// Any engine error as a message for the status line.
    static func browserError(_ error: Error) -> BrowserError {
        if let e = error as? BrowserError { return e }
        if let e = error as? InputError { return BrowserError(e.message) }
        if let e = error as? QueryError { return BrowserError(e.message, position: e.position.map { max(0, $0 - 1) }) }
        return BrowserError(String(describing: error))
    }
}

/// The change handler, set from the browser thread and called from the commit watcher thread.
/// The keys a background filter found and the version it read.
private struct FilterKeys {
    var version: UInt64
    var keys: [ObjKey]
    var stage: QueryStage
}

/// Filter and sort results of one version, with the query that gives them (nil for a sort by a
/// link or a collection's size, which is not a query).
private struct CachedResult {
    var className: String
    var keys: [ObjKey]
    var stage: QueryStage?
}

/// The file size the size watcher saw last.
private final class LockedSize: @unchecked Sendable {
    private let lock = NSLock()
    private var size: Int64?

    init(_ size: Int64?) { self.size = size }

    /// Stores `new`; returns whether it differs from the size stored before.
    func exchange(_ new: Int64?) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let changed = new != size
        size = new
        return changed
    }
}

final class ChangeHandlerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?

    func set(_ handler: (@Sendable () -> Void)?) {
        lock.lock(); self.handler = handler; lock.unlock()
    }

    func fire() {
        lock.lock(); let handler = self.handler; lock.unlock()
        handler?()
    }
}
