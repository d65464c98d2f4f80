import Foundation
import StrataTooling

/// A complete in-memory ``BrowserDataSource`` for the demo and the tests: people, dogs,
/// embedded addresses, Unicode text, links, lists, maps, backlinks, an `Event` class of
/// millions of objects generated on demand, a version history with readers (one dead), a space
/// report, compaction, and commits simulated from "another process".
///
/// Like a real snapshot reader, it shows new commits from other processes only after
/// ``pollChanges()``; ``simulateExternalCommit()`` (thread-safe) queues one and wakes the browser.
public final class FakeDataSource: BrowserDataSource {
    /// One call of ``rows(className:filter:sort:range:)`` (tests check only visible rows are read).
    public struct RowRequest: Hashable, Sendable {
        public var className: String
        public var range: Range<Int>
    }

    /// The pid the fake reports for the browser itself.
    public static let ownPid: Int32 = 31337
    /// The fixed time tests use as "now": 2024-05-01 12:30:05 UTC.
    public static let referenceDate = Date(timeIntervalSince1970: 1_714_566_605)
    /// The processes that have the file open by default besides the browser.
    public static let defaultOtherProcesses = [Participant(pid: 4242, label: "strata demo --churn"),
                                               Participant(pid: 5120, label: "sync-worker")]

    public let fileInfo: FileInfo
    /// Other processes with the file open; empty allows a full compaction.
    public var otherProcesses: [Participant]
    /// Every rows request, oldest first.
    public private(set) var rowRequests: [RowRequest] = []
    /// Every count request (class names), oldest first.
    public private(set) var countRequests: [String] = []
    /// Makes the next write fail with this message (tests of error paths).
    public var failNextWrite: String?

    private let clock: () -> Date
    private var classesByName: [String: FakeClass] = [:]
    private var classOrder: [String] = []
    /// The generated class: its count, and values written over generated ones.
    private let eventClass = "Event"
    private var eventCount: Int
    private var eventOverrides: [Int64: [String: FakeStoredValue]] = [:]
    private let eventBase: Date
    private var version: UInt64 = 1042
    private var commits: [CommitInfo] = []
    private var freeByVersion: [FreedAtVersion] = []
    /// The version the long-lived sync-worker reader pins.
    private let oldReaderVersion: UInt64 = 1030
    private var totalBytes: Int64 = 0
    private var pendingEvents: [ChangeEvent] = []
    private var externalScenario = 0
    private let externalQueue = ExternalCommitQueue()

    /// - Parameters:
    ///   - path: the file name shown.
    ///   - eventCount: objects in the generated `Event` class (10 million by default).
    ///   - otherProcesses: who else has the file open.
    ///   - now: the clock (tests pass a fixed one).
    public init(path: String = "demo.strata", isReadOnly: Bool = false, isEncrypted: Bool = false,
                eventCount: Int = 10_000_000, otherProcesses: [Participant] = FakeDataSource.defaultOtherProcesses,
                now: @escaping () -> Date = { Date() }) {
        fileInfo = FileInfo(path: path, isReadOnly: isReadOnly, isEncrypted: isEncrypted)
        self.eventCount = eventCount
        self.otherProcesses = otherProcesses
        clock = now
        let start = now()
        eventBase = start.addingTimeInterval(-Double(eventCount) * 3.7)
        for fakeClass in FakeDemoData.makeClasses(now: start) {
            classesByName[fakeClass.name] = fakeClass
            classOrder.append(fakeClass.name)
        }
        classOrder.insert(eventClass, at: 2)
        let summaries = ["Person: 1 modified", "Dog: 2 inserted", "Event: 1,000 inserted", "Person: 3 modified; Dog: 1 deleted",
                         "Event: 250 modified", "Person: 1 inserted"]
        for offset in 0..<20 {
            let commitVersion = version - UInt64(offset)
            commits.append(CommitInfo(version: commitVersion, time: start.addingTimeInterval(-Double(offset) * 97 - 3),
                                      pid: offset % 3 == 2 ? 5120 : 4242, summary: summaries[offset % summaries.count]))
            freeByVersion.insert(FreedAtVersion(version: commitVersion, bytes: Int64(1 + offset % 5) * 1_245_184 + 4096 * Int64(offset),
                                                isLocked: false), at: 0)
        }
        updateLocks()
        totalBytes = usedBytes + freeByVersion.reduce(0) { $0 + $1.bytes }
    }

    // MARK: Simulated other process

    /// Queues a commit "by another process" (thread-safe) and calls the change handler; the
    /// commit becomes visible at the next ``pollChanges()``.
    public func simulateExternalCommit() {
        externalQueue.enqueue()
    }

    /// Starts a background thread that simulates a commit every `seconds` (the live demo).
    public func startSimulatedWriter(every seconds: Double) {
        externalQueue.startWriter(every: seconds)
    }

    /// Stops the simulated writer.
    public func stopSimulatedWriter() {
        externalQueue.stopWriter()
    }

    // MARK: File

    public func status() -> FileStatus {
        let free = freeByVersion.reduce(0) { $0 + $1.bytes }
        return FileStatus(version: version, totalBytes: totalBytes, usedBytes: usedBytes, freeBytes: free,
                          lockedBytes: lockedBytes, participants: 1 + otherProcesses.count)
    }

    // MARK: Schema

    public func classes() -> [ClassSummary] {
        classOrder.map { name in
            if name == eventClass { return ClassSummary(name: name, count: RowCount(eventCount), primaryKey: "id") }
            let fakeClass = classesByName[name]!
            return ClassSummary(name: name, count: RowCount(fakeClass.order.count), isEmbedded: fakeClass.isEmbedded,
                                primaryKey: fakeClass.primaryKey)
        }
    }

    public func properties(className: String) throws -> [PropertyDescription] {
        if className == eventClass { return FakeDemoData.eventProperties }
        return try fakeClass(className).properties
    }

    // MARK: Reading

    public func count(className: String, filter: String?) throws -> RowCount {
        countRequests.append(className)
        if className == eventClass {
            if filter != nil { throw BrowserError("the demo data source cannot filter the generated Event class; try Person or Dog") }
            return RowCount(eventCount)
        }
        return RowCount(try resultKeys(className, filter: filter, sort: nil).count)
    }

    public func rows(className: String, filter: String?, sort: SortSpec?, range: Range<Int>) throws -> [ObjectRow] {
        rowRequests.append(RowRequest(className: className, range: range))
        let properties = try self.properties(className: className)
        if className == eventClass {
            let descending = try eventSortIsDescending(filter: filter, sort: sort)
            let clamped = range.clamped(to: 0..<eventCount)
            return clamped.map { position in
                let key = Int64(descending ? eventCount - 1 - position : position)
                return ObjectRow(ref: ObjectRef(className: className, key: key), values: displayValues(className, key, properties))
            }
        }
        let keys = try resultKeys(className, filter: filter, sort: sort)
        return keys[range.clamped(to: 0..<keys.count)].map {
            ObjectRow(ref: ObjectRef(className: className, key: $0), values: displayValues(className, $0, properties))
        }
    }

    public func position(of object: ObjectRef, filter: String?, sort: SortSpec?) throws -> Int? {
        if object.className == eventClass {
            guard object.key >= 0, object.key < eventCount else { return nil }
            return try eventSortIsDescending(filter: filter, sort: sort) ? eventCount - 1 - Int(object.key) : Int(object.key)
        }
        return try resultKeys(object.className, filter: filter, sort: sort).firstIndex(of: object.key)
    }

    public func object(_ ref: ObjectRef) throws -> ObjectDetail {
        guard exists(ref) else { throw BrowserError("\(ref.className) #\(ref.key) does not exist (deleted?)") }
        let properties = try self.properties(className: ref.className)
        return ObjectDetail(ref: ref, label: label(ref), properties: properties, values: displayValues(ref.className, ref.key, properties))
    }

    public func backlinks(of ref: ObjectRef) throws -> [Backlink] {
        guard exists(ref) else { throw BrowserError("\(ref.className) #\(ref.key) does not exist (deleted?)") }
        var result: [Backlink] = []
        for name in classOrder where name != eventClass {
            let source = classesByName[name]!
            for property in source.properties where property.targetClass == ref.className && property.kind != .backlinks {
                for key in source.order {
                    let stored = source.objects[key]?[property.name] ?? .null
                    let links: Bool
                    switch stored {
                    case .object(let target): links = property.kind != .embedded && target == ref.key
                    case .list(let items): links = items.contains(.object(ref.key))
                    default: links = false
                    }
                    if links {
                        let sourceRef = ObjectRef(className: name, key: key)
                        result.append(Backlink(source: LabeledObjectRef(ref: sourceRef, label: label(sourceRef)), property: property.name))
                    }
                }
            }
        }
        if ref.className == "Person" {
            // Events link to people too; report the first few generated ones (scanning 10M is not a demo's job).
            let sample = (0..<Int64(min(eventCount, 2000))).filter {
                if case .object(let target) = eventValue(Int64($0), "user") { return target == ref.key }
                return false
            }.prefix(5)
            for key in sample {
                let sourceRef = ObjectRef(className: eventClass, key: key)
                result.append(Backlink(source: LabeledObjectRef(ref: sourceRef, label: label(sourceRef)), property: "user"))
            }
        }
        return result
    }

    // MARK: Collections

    public func collectionCount(owner: ObjectRef, property: String) throws -> Int {
        let (description, items) = try collection(owner: owner, property: property)
        _ = description
        return items.count
    }

    public func collectionRows(owner: ObjectRef, property: String, range: Range<Int>) throws -> [ObjectRow] {
        let (description, items) = try collection(owner: owner, property: property)
        let window = items[range.clamped(to: 0..<items.count)]
        if let target = description.targetClass {
            let targetProperties = try properties(className: target)
            return window.map { item in
                let key: Int64
                if case .object(let k) = item.value { key = k } else { key = -1 }
                let ref = ObjectRef(className: target, key: key)
                var values = displayValues(target, key, targetProperties)
                if description.kind == .map { values.insert(.string(item.mapKey ?? ""), at: 0) }
                return ObjectRow(ref: ref, values: values)
            }
        }
        return window.map { item in
            let value = display(item.value, description, elementOnly: true)
            return ObjectRow(ref: nil, values: description.kind == .map ? [.string(item.mapKey ?? ""), value] : [value])
        }
    }

    // MARK: Writing

    public func setValue(text: String, property: String, of object: ObjectRef) throws {
        try checkWritable()
        let description = try editableProperty(object.className, property)
        guard exists(object) else { throw BrowserError("\(object.className) #\(object.key) does not exist (deleted?)") }
        let value = try parse(text, description)
        if description.isPrimaryKey, try primaryKeyTaken(object.className, value, except: object.key) {
            throw BrowserError("primary key \(text) already exists in \(object.className)")
        }
        store(value, property: property, of: object)
        commitLocal("\(object.className): 1 modified (\(property))", changed: [object])
    }

    @discardableResult
    public func createObject(className: String, values: [String: String]) throws -> ObjectRef {
        try checkWritable()
        let properties = try self.properties(className: className)
        if className != eventClass, try fakeClass(className).isEmbedded {
            throw BrowserError("\(className) is embedded: its objects are created inside their parent")
        }
        var stored: [String: FakeStoredValue] = [:]
        for property in properties {
            switch property.kind {
            case .value, .link:
                let value = try parse(values[property.name] ?? "", property)
                if property.isPrimaryKey, try primaryKeyTaken(className, value, except: nil) {
                    throw BrowserError("primary key \(values[property.name] ?? "") already exists in \(className)")
                }
                stored[property.name] = value
            case .list, .set: stored[property.name] = .list([])
            case .map: stored[property.name] = .map([:])
            case .embedded, .backlinks: stored[property.name] = .null
            }
        }
        let ref: ObjectRef
        if className == eventClass {
            ref = ObjectRef(className: className, key: Int64(eventCount))
            eventOverrides[ref.key] = stored
            eventCount += 1
        } else {
            ref = ObjectRef(className: className, key: classesByName[className]!.insert(stored))
        }
        commitLocal("\(className): 1 inserted", changed: [ref])
        return ref
    }

    public func deleteObject(_ ref: ObjectRef) throws {
        try checkWritable()
        if ref.className == eventClass { throw BrowserError("the demo's generated Event objects cannot be deleted") }
        guard exists(ref) else { throw BrowserError("\(ref.className) #\(ref.key) does not exist (deleted?)") }
        var owned: [ObjectRef] = []
        for property in classesByName[ref.className]!.properties where property.kind == .embedded {
            if case .object(let key) = classesByName[ref.className]!.objects[ref.key]?[property.name] {
                owned.append(ObjectRef(className: property.targetClass!, key: key))
            }
        }
        for victim in [ref] + owned {
            classesByName[victim.className]!.objects[victim.key] = nil
            classesByName[victim.className]!.order.removeAll { $0 == victim.key }
        }
        // Links to the deleted object become null; list entries go away.
        for name in classOrder where name != eventClass {
            for property in classesByName[name]!.properties where property.targetClass == ref.className {
                for key in classesByName[name]!.order {
                    switch classesByName[name]!.objects[key]?[property.name] {
                    case .object(ref.key) where property.kind == .link:
                        classesByName[name]!.objects[key]![property.name] = .null
                    case .list(let items):
                        classesByName[name]!.objects[key]![property.name] = .list(items.filter { $0 != .object(ref.key) })
                    default: break
                    }
                }
            }
        }
        commitLocal("\(ref.className): 1 deleted", changed: [], deleted: [ref])
    }

    public func addCollectionItem(text: String, owner: ObjectRef, property: String) throws {
        try checkWritable()
        let (description, _) = try collection(owner: owner, property: property)
        guard description.kind != .backlinks else { throw BrowserError("\(property) is computed from links and cannot be edited") }
        var stored = ownerValue(owner, property)
        if description.kind == .map {
            guard let separator = text.firstIndex(of: "=") else { throw BrowserError("type a map entry as key=value") }
            let key = text[..<separator].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw BrowserError("a map key cannot be empty") }
            let value = try parse(String(text[text.index(after: separator)...]), description, elementOnly: true)
            guard case .map(var entries) = stored else { return }
            entries[key] = value
            stored = .map(entries)
        } else {
            let value = try parse(text, description, elementOnly: true)
            guard case .list(var items) = stored else { return }
            if description.kind == .set, items.contains(value) { throw BrowserError("\(text) is already in the set") }
            items.append(value)
            stored = .list(items)
        }
        store(stored, property: property, of: owner)
        commitLocal("\(owner.className): 1 modified (\(property) +1)", changed: [owner])
    }

    public func setCollectionItem(text: String, at index: Int, owner: ObjectRef, property: String) throws {
        try checkWritable()
        let (description, items) = try collection(owner: owner, property: property)
        guard description.kind == .list || description.kind == .set || description.kind == .map else {
            throw BrowserError("\(property) is computed from links and cannot be edited")
        }
        guard items.indices.contains(index) else { throw BrowserError("no item \(index + 1) in \(property)") }
        let value = try parse(text, description, elementOnly: true)
        switch ownerValue(owner, property) {
        case .list(var list):
            if description.kind == .set, list.contains(value) { throw BrowserError("\(text) is already in the set") }
            list[index] = value
            store(.list(list), property: property, of: owner)
        case .map(var entries):
            entries[items[index].mapKey!] = value
            store(.map(entries), property: property, of: owner)
        default: return
        }
        commitLocal("\(owner.className): 1 modified (\(property)[\(index)])", changed: [owner])
    }

    public func removeCollectionItem(at index: Int, owner: ObjectRef, property: String) throws {
        try checkWritable()
        let (description, items) = try collection(owner: owner, property: property)
        guard description.kind != .backlinks else { throw BrowserError("\(property) is computed from links and cannot be edited") }
        guard items.indices.contains(index) else { throw BrowserError("no item \(index + 1) in \(property)") }
        switch ownerValue(owner, property) {
        case .list(var list):
            list.remove(at: index)
            store(.list(list), property: property, of: owner)
        case .map(var entries):
            entries[items[index].mapKey!] = nil
            store(.map(entries), property: property, of: owner)
        default: return
        }
        commitLocal("\(owner.className): 1 modified (\(property) −1)", changed: [owner])
    }

    // MARK: Reports

    public func versions() -> VersionsReport {
        let now = clock()
        var readers = [ReaderSummary(pid: Self.ownPid, threadLabel: "strata (this browser)", pinnedVersion: version,
                                  since: now, bytesPinned: 0, isAlive: true)]
        for participant in otherProcesses {
            let pinned = participant.pid == 5120 ? oldReaderVersion : version
            readers.append(ReaderSummary(pid: participant.pid, threadLabel: participant.pid == 5120 ? "sync-worker/upload" : participant.label,
                                      pinnedVersion: pinned, since: participant.pid == 5120 ? now.addingTimeInterval(-8054) : now.addingTimeInterval(-2),
                                      bytesPinned: bytesFreed(after: pinned), isAlive: true))
        }
        readers.append(ReaderSummary(pid: 3999, threadLabel: "importer", pinnedVersion: 1012, since: now.addingTimeInterval(-93_600),
                                  bytesPinned: 0, isAlive: false))
        return VersionsReport(currentVersion: version, commits: Array(commits.prefix(50)), readers: readers)
    }

    public func space() -> SpaceReport {
        let free = freeByVersion.reduce(0) { $0 + $1.bytes }
        let shares: [(Int64, Int64?, Int64, Int64)] = [(4096, 16384, 10, 8192), (16384, 65536, 15, 32768),
                                                       (65536, 262_144, 25, 131_072), (262_144, 1 << 20, 20, 524_288), (1 << 20, nil, 30, 2 << 20)]
        var remaining = free
        let buckets = shares.enumerated().map { index, share -> FreeSpaceBucket in
            let bytes = index == shares.count - 1 ? remaining : free * share.2 / 100 / 4096 * 4096
            remaining -= bytes
            return FreeSpaceBucket(minBytes: share.0, maxBytes: share.1, extents: Int(max(bytes > 0 ? 1 : 0, bytes / share.3)), bytes: bytes)
        }
        return SpaceReport(totalBytes: totalBytes, usedBytes: usedBytes, freeBytes: free, lockedBytes: lockedBytes,
                           classes: classSpaces(), freeBySize: buckets, freeByVersion: freeByVersion, compactedBytes: compactedBytes)
    }

    // MARK: Compaction

    public func compactionPlan() -> CompactionPlan {
        CompactionPlan(totalBytes: totalBytes, expectedBytes: compactedBytes, onlineExpectedBytes: totalBytes - reusableBytes,
                       otherParticipants: otherProcesses, onlineAvailable: true)
    }

    public func compact(online: Bool, progress: (CompactionProgressReport) -> Void) throws -> CompactionOutcome {
        try checkWritable()
        if !online, !otherProcesses.isEmpty {
            throw BrowserError("compaction refused: pid \(otherProcesses.map { String($0.pid) }.joined(separator: ", ")) has the file open")
        }
        let before = totalBytes
        let phases = online ? ["relocating pages above the limit", "truncating"] : classOrder.map { "copying \($0)" } + ["syncing", "renaming"]
        for (index, phase) in phases.enumerated() {
            progress(CompactionProgressReport(fraction: Double(index) / Double(phases.count), phase: phase))
        }
        progress(CompactionProgressReport(fraction: 1, phase: "done"))
        if online {
            totalBytes -= reusableBytes
            freeByVersion.removeAll { !$0.isLocked }
        } else {
            totalBytes = compactedBytes
            freeByVersion.removeAll()
        }
        // A deterministic "time": the demo pretends to copy at 800 MiB/s.
        return CompactionOutcome(beforeBytes: before, afterBytes: totalBytes, seconds: Double(before) / Double(800 << 20), online: online)
    }

    // MARK: Live changes

    public func setChangeHandler(_ handler: (@Sendable () -> Void)?) {
        externalQueue.setHandler(handler)
    }

    public func pollChanges() -> [ChangeEvent] {
        for _ in 0..<externalQueue.takeAll() { applyExternalCommit() }
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    // MARK: Internals

    private func fakeClass(_ name: String) throws -> FakeClass {
        guard let fakeClass = classesByName[name] else { throw BrowserError("no class named '\(name)'") }
        return fakeClass
    }

    private func exists(_ ref: ObjectRef) -> Bool {
        if ref.className == eventClass { return ref.key >= 0 && ref.key < eventCount }
        return classesByName[ref.className]?.objects[ref.key] != nil
    }

    private func checkWritable() throws {
        if fileInfo.isReadOnly { throw BrowserError("the file is open read-only") }
        if let message = failNextWrite {
            failNextWrite = nil
            throw BrowserError(message)
        }
    }

    private func editableProperty(_ className: String, _ name: String) throws -> PropertyDescription {
        guard let property = try properties(className: className).first(where: { $0.name == name }) else {
            throw BrowserError("\(className) has no property '\(name)'")
        }
        guard property.isEditableInPlace else { throw BrowserError("\(name) is \(property.typeDescription): open it with Enter to edit its items") }
        return property
    }

    private func eventValue(_ key: Int64, _ property: String) -> FakeStoredValue {
        if let value = eventOverrides[key]?[property] { return value }
        guard key < eventCount else { return .null }
        return FakeDemoData.event(key, personCount: FakeDemoData.personNames.count, base: eventBase)[property] ?? .null
    }

    private func ownerValue(_ ref: ObjectRef, _ property: String) -> FakeStoredValue {
        if ref.className == eventClass { return eventValue(ref.key, property) }
        return classesByName[ref.className]?.objects[ref.key]?[property] ?? .null
    }

    private func store(_ value: FakeStoredValue, property: String, of ref: ObjectRef) {
        if ref.className == eventClass {
            eventOverrides[ref.key, default: [:]][property] = value
        } else {
            classesByName[ref.className]!.objects[ref.key]![property] = value
        }
    }

    private func eventSortIsDescending(filter: String?, sort: SortSpec?) throws -> Bool {
        if filter != nil { throw BrowserError("the demo data source cannot filter the generated Event class; try Person or Dog") }
        guard let sort else { return false }
        guard sort.property == "id" else { throw BrowserError("the demo data source sorts the generated Event class by id only") }
        return !sort.ascending
    }

    /// Keys of a (small) class after filter and sort.
    private func resultKeys(_ className: String, filter: String?, sort: SortSpec?) throws -> [Int64] {
        let fakeClass = try self.fakeClass(className)
        var keys = fakeClass.order
        if let filter, !filter.trimmingCharacters(in: .whitespaces).isEmpty {
            let query = try FakeQuery(filter, properties: fakeClass.properties)
            keys = keys.filter { key in query.matches { self.queryValue(className, key, $0) } }
        }
        if let sort {
            guard fakeClass.property(sort.property) != nil else { throw BrowserError("no property '\(sort.property)' to sort by") }
            let values = Dictionary(uniqueKeysWithValues: keys.map { ($0, sortValue(className, $0, sort.property)) })
            keys.sort { a, b in
                let order = FakeStoredValue.compare(values[a]!, values[b]!)
                if order == .orderedSame { return a < b }
                return (order == .orderedAscending) == sort.ascending
            }
        }
        return keys
    }

    /// Backlinks count as collections in queries.
    private func queryValue(_ className: String, _ key: Int64, _ property: String) -> FakeStoredValue {
        if let description = classesByName[className]?.property(property), description.kind == .backlinks {
            return .list(backlinkKeys(ObjectRef(className: className, key: key), description).map { .object($0) })
        }
        return ownerValue(ObjectRef(className: className, key: key), property)
    }

    /// Links sort by the target's label; collections by size.
    private func sortValue(_ className: String, _ key: Int64, _ property: String) -> FakeStoredValue {
        let value = queryValue(className, key, property)
        if case .object(let target) = value, let targetClass = classesByName[className]?.property(property)?.targetClass {
            return .string(label(ObjectRef(className: targetClass, key: target)))
        }
        return value
    }

    private func backlinkKeys(_ ref: ObjectRef, _ property: PropertyDescription) -> [Int64] {
        guard let sourceName = property.targetClass, let source = classesByName[sourceName] else { return [] }
        let origins = source.properties.filter { $0.targetClass == ref.className && ($0.kind == .list || $0.kind == .link) }
        return source.order.filter { key in
            origins.contains { origin in
                switch source.objects[key]?[origin.name] {
                case .object(let target): return target == ref.key
                case .list(let items): return items.contains(.object(ref.key))
                default: return false
                }
            }
        }
    }

    private struct CollectionItem {
        var mapKey: String?
        var value: FakeStoredValue
    }

    private func collection(owner: ObjectRef, property: String) throws -> (PropertyDescription, [CollectionItem]) {
        guard exists(owner) else { throw BrowserError("\(owner.className) #\(owner.key) does not exist (deleted?)") }
        guard let description = try properties(className: owner.className).first(where: { $0.name == property }),
              description.kind.isCollection else {
            throw BrowserError("\(owner.className).\(property) is not a collection")
        }
        if description.kind == .backlinks {
            return (description, backlinkKeys(owner, description).map { CollectionItem(value: .object($0)) })
        }
        switch ownerValue(owner, property) {
        case .list(let items): return (description, items.map { CollectionItem(value: $0) })
        case .map(let entries): return (description, entries.keys.sorted().map { CollectionItem(mapKey: $0, value: entries[$0]!) })
        default: return (description, [])
        }
    }

    private func parse(_ text: String, _ property: PropertyDescription, elementOnly: Bool = false) throws -> FakeStoredValue {
        try FakeStoredValue.parse(text, for: property, elementOnly: elementOnly) { typed in
            guard let target = property.targetClass else { return nil }
            return resolve(typed, in: target)
        }
    }

    /// A typed link target: `#key`, or the primary key's text.
    private func resolve(_ typed: String, in className: String) -> Int64? {
        if typed.hasPrefix("#"), let key = Int64(typed.dropFirst()) {
            return exists(ObjectRef(className: className, key: key)) ? key : nil
        }
        if className == eventClass { return Int64(typed).flatMap { $0 >= 0 && $0 < eventCount ? $0 : nil } }
        guard let fakeClass = classesByName[className], let primaryKey = fakeClass.primaryKey else { return nil }
        return fakeClass.order.first { key in
            switch fakeClass.objects[key]?[primaryKey] {
            case .int(let value): return String(value) == typed
            case .string(let value), .objectId(let value): return value == typed.lowercased() || value == typed
            default: return false
            }
        }
    }

    private func primaryKeyTaken(_ className: String, _ value: FakeStoredValue, except: Int64?) throws -> Bool {
        if className == eventClass {
            if case .int(let id) = value { return id >= 0 && id < eventCount && id != except }
            return false
        }
        let fakeClass = try self.fakeClass(className)
        guard let primaryKey = fakeClass.primaryKey else { return false }
        return fakeClass.order.contains { $0 != except && fakeClass.objects[$0]?[primaryKey] == value }
    }

    /// Primary key and name: `12 Alice Martin`, `Rex`, `#3 click`, `3 Rue Mercière, Lyon`.
    private func label(_ ref: ObjectRef) -> String {
        func text(_ property: String) -> String? {
            switch ownerValue(ref, property) {
            case .int(let value): return String(value)
            case .string(let value): return value
            default: return nil
            }
        }
        switch ref.className {
        case "Address": return [text("street"), text("city")].compactMap { $0 }.joined(separator: ", ")
        case "Dog": return text("name") ?? "#\(ref.key)"
        case eventClass: return "#\(ref.key) \(text("kind") ?? "")"
        default: return [text("id"), text("name")].compactMap { $0 }.joined(separator: " ")
        }
    }

    private func displayValues(_ className: String, _ key: Int64, _ properties: [PropertyDescription]) -> [DisplayValue] {
        let ref = ObjectRef(className: className, key: key)
        return properties.map { property in
            if property.kind == .backlinks {
                return .collection(count: backlinkKeys(ref, property).count, elementType: property.targetClass ?? "Object")
            }
            return display(ownerValue(ref, property.name), property, elementOnly: false)
        }
    }

    private func display(_ value: FakeStoredValue, _ property: PropertyDescription, elementOnly: Bool) -> DisplayValue {
        switch value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .date(let value): return .date(value)
        case .objectId(let value): return .objectId(value)
        case .uuid(let value): return .uuid(value)
        case .data(let bytes): return .data(count: bytes.count, prefix: Array(bytes.prefix(16)))
        case .object(let key):
            let ref = ObjectRef(className: property.targetClass ?? "", key: key)
            let link = LabeledObjectRef(ref: ref, label: label(ref))
            return property.kind == .embedded ? .embedded(link) : .link(link)
        case .list(let items):
            return .collection(count: items.count, elementType: property.targetClass ?? property.type.displayName)
        case .map(let entries):
            return .collection(count: entries.count, elementType: property.targetClass ?? property.type.displayName)
        }
    }

    private func commitLocal(_ summary: String, changed: [ObjectRef], deleted: [ObjectRef] = []) {
        commit(pid: Self.ownPid, summary: summary, changed: changed, deleted: deleted, external: false)
    }

    private func commit(pid: Int32, summary: String, changed: [ObjectRef], deleted: [ObjectRef], external: Bool) {
        version += 1
        commits.insert(CommitInfo(version: version, time: clock(), pid: pid, summary: summary), at: 0)
        // Copy-on-write: every commit frees the pages it replaced.
        freeByVersion.append(FreedAtVersion(version: version, bytes: 49_152, isLocked: false))
        totalBytes += 49_152
        updateLocks()
        pendingEvents.append(ChangeEvent(version: version, pid: pid, isExternal: external, summary: summary,
                                         changedObjects: changed, deletedObjects: deleted))
        if !external { externalQueue.notify() }
    }

    /// One of a few realistic commits another process would make.
    private func applyExternalCommit() {
        defer { externalScenario += 1 }
        let writer = otherProcesses.first?.pid ?? 4242
        switch externalScenario % 3 {
        case 0:
            let people = classesByName["Person"]!
            let key = people.order[(externalScenario * 5 + 1) % people.order.count]
            let ref = ObjectRef(className: "Person", key: key)
            if case .int(let age) = ownerValue(ref, "age") { store(.int(age + 1), property: "age", of: ref) } else { store(.int(30), property: "age", of: ref) }
            commit(pid: writer, summary: "Person: 1 modified (age)", changed: [ref], deleted: [], external: true)
        case 1:
            var dogs = classesByName["Dog"]!
            let number = dogs.nextKey
            let key = dogs.insert([
                "_id": .objectId(String(format: "65b2a1d3%08x%08x", Int(number) * 7, Int(number) * 131)),
                "name": .string("Fido \(number)"), "breed": .string("Mixed"), "weight": .double(12.5), "vaccinated": .bool(true),
            ])
            classesByName["Dog"] = dogs
            commit(pid: writer, summary: "Dog: 1 inserted", changed: [ObjectRef(className: "Dog", key: key)], deleted: [], external: true)
        default:
            let ref = ObjectRef(className: eventClass, key: 2)
            if case .double(let value) = eventValue(2, "value") { store(.double(value + 1.5), property: "value", of: ref) }
            eventCount += 1000
            commit(pid: writer, summary: "Event: 1,000 inserted, 1 modified", changed: [ref], deleted: [], external: true)
        }
    }

    private func updateLocks() {
        let pinned = otherProcesses.contains { $0.pid == 5120 } ? oldReaderVersion : version
        for index in freeByVersion.indices {
            // Pages freed by the commit of V were visible at V-1: a reader at P < V still needs them.
            freeByVersion[index].isLocked = freeByVersion[index].version > pinned
        }
    }

    private func bytesFreed(after version: UInt64) -> Int64 {
        freeByVersion.filter { $0.version > version }.reduce(0) { $0 + $1.bytes }
    }

    private var lockedBytes: Int64 { freeByVersion.filter(\.isLocked).reduce(0) { $0 + $1.bytes } }
    private var reusableBytes: Int64 { freeByVersion.filter { !$0.isLocked }.reduce(0) { $0 + $1.bytes } }
    private var usedBytes: Int64 { classSpaces().reduce(0) { $0 + $1.totalBytes } + 65_536 }
    private var compactedBytes: Int64 { (usedBytes + 8192 + 4095) / 4096 * 4096 }

    private func classSpaces() -> [ClassSpace] {
        classOrder.map { name in
            let properties = (try? self.properties(className: name)) ?? []
            let count = Int64(name == eventClass ? eventCount : classesByName[name]!.order.count)
            let columns = properties.filter { $0.kind != .backlinks }.map { property -> NamedBytes in
                let width: Int64
                switch (property.kind, property.type) {
                case (.list, _), (.set, _), (.map, _): width = 40
                case (_, .string): width = 14
                case (_, .data): width = 20
                case (_, .objectId): width = 12
                case (_, .uuid): width = 16
                case (_, .bool): width = 1
                default: width = 8
                }
                return NamedBytes(name: property.name, bytes: count * width + 64)
            }
            let indexes = properties.filter(\.isIndexed).map { NamedBytes(name: $0.name, bytes: count * 12 + 128) }
            return ClassSpace(name: name, columns: columns, indexes: indexes)
        }
    }
}

/// Commits "made by another process" waiting for ``FakeDataSource/pollChanges()``, and the
/// change handler to call; shared with the simulated writer thread.
private final class ExternalCommitQueue: @unchecked Sendable {
    private let lock = NSLock()
    // All guarded by `lock`.
    private var pending = 0
    private var handler: (@Sendable () -> Void)?
    private var writerRunning = false

    func setHandler(_ handler: (@Sendable () -> Void)?) {
        lock.lock(); self.handler = handler; lock.unlock()
    }

    func enqueue() {
        lock.lock()
        pending += 1
        let handler = self.handler
        lock.unlock()
        handler?()
    }

    func notify() {
        lock.lock()
        let handler = self.handler
        lock.unlock()
        handler?()
    }

    func takeAll() -> Int {
        lock.lock(); defer { lock.unlock() }
        let count = pending
        pending = 0
        return count
    }

    func startWriter(every seconds: Double) {
        lock.lock()
        guard !writerRunning else { lock.unlock(); return }
        writerRunning = true
        lock.unlock()
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: seconds)
                lock.lock()
                let running = writerRunning
                lock.unlock()
                guard running else { return }
                enqueue()
            }
        }
        thread.name = "simulated writer"
        thread.start()
    }

    func stopWriter() {
        lock.lock(); writerRunning = false; lock.unlock()
    }
}
