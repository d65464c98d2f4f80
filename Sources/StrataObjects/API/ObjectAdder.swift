import Foundation

/// Adds unmanaged objects (and what they link to) inside one write transaction, and applies
/// loosely typed values (`create(_:value:)`, `init(value:)`).
final class ObjectAdder {
    /// The core owns its adder (dropped at commit or cancel): no reference counting.
    unowned(unsafe) let core: RealmCore
    let txn: DBTransaction
    // Plain loads and stores, never accessed overlapping (no exclusivity bookkeeping per add).
    @exclusivity(unchecked) var policy: UpdatePolicy = .error
    /// Objects being added in this call chain (cycles: A → B → A).
    @exclusivity(unchecked) private var inProgress: [ObjectIdentifier: ObjKey] = [:]

    init(core: RealmCore, txn: DBTransaction) { self.core = core; self.txn = txn }

    /// True while `create(_:value:update:)` runs: objects managed by another Realm (or frozen)
    /// that it meets are copied (`foreignCopy`) instead of refused, as in RealmSwift.
    @exclusivity(unchecked) private var copiesForeign = false
    /// The unmanaged copy made of each foreign object in this `create` (one per row: a cycle of
    /// links is copied once).
    @exclusivity(unchecked) private var foreignCopies: [ForeignRow: ObjectBase] = [:]
    private struct ForeignRow: Hashable {
        let core: ObjectIdentifier
        let className: String
        let key: ObjKey
    }

    /// In `create`: for an object managed by another Realm (or frozen), an unmanaged copy of
    /// its values (its links, lists, embedded objects still the originals, copied in turn when
    /// the copy is added). Nil for any other object.
    private func foreignCopy(_ o: ObjectBase) throws -> ObjectBase? {
        guard copiesForeign, !(o is DynamicObject), let c = o._rlmCore, c !== core,
              c.coordinator !== core.coordinator || c.isFrozen else { return nil }
        let row = ForeignRow(core: ObjectIdentifier(c), className: o._rlmClassInfo.className, key: o._rlmKey)
        if let copy = foreignCopies[row] { return copy }
        let copy = type(of: o).init()
        foreignCopies[row] = copy
        try Self.apply(o, to: copy)
        return copy
    }

    /// An unmanaged copy of a managed embedded object of this realm (its values, recursively
    /// copied when added).
    private func embeddedCopy(_ o: ObjectBase) throws -> ObjectBase {
        let copy = type(of: o).init()
        try Self.apply(o, to: copy)
        return copy
    }

    private var ctx: _StrataContext { _StrataContext(core: core, adder: self) }

    private func isMine(_ o: ObjectBase) -> Bool {
        guard let c = o._rlmCore else { return false }
        if c === core { o._rlmRequireValid(); return true }
        if c.coordinator === core.coordinator && !c.isFrozen {
            strataProgrammerError("Object is already managed by the Realm of another thread; pass it with ThreadSafeReference")
        }
        strataProgrammerError("Object is already managed by another Realm; use create(_:value:update:) to copy it into this one")
    }

    /// Gives every property of an unmanaged object without a value its declared default (kept,
    /// so that a generated default such as a new ObjectId is stable) and returns the slots.
    private func completedStorage(_ o: ObjectBase) -> _UnmanagedStorage {
        let info = o._rlmClassInfo
        let s = o._rlmUnmanagedStorage()
        guard !s.isComplete else { return s }
        if let readers = info.allInitialReaders {
            for p in info.properties where !s.isSet(p.index) {
                s.setAny(p.index, readers[p.index](o) ?? p.valueType._strataDefault())
            }
            return s
        }
        var initial: [_AnyPersisted] = []
        func collect(_ m: Mirror) {
            if let sup = m.superclassMirror { collect(sup) }
            for c in m.children { if let l = c.label, l.hasPrefix("_"), let p = c.value as? _AnyPersisted { initial.append(p) } }
        }
        collect(Mirror(reflecting: o))
        for p in info.properties where !s.isSet(p.index) {
            s.setAny(p.index, (p.index < initial.count ? initial[p.index]._initialAny : nil) ?? p.valueType._strataDefault())
        }
        return s
    }

    /// The values of an unmanaged object by property index (declared defaults filled in).
    private func unmanagedValues(_ o: ObjectBase) -> [Any] {
        let s = completedStorage(o)
        return o._rlmClassInfo.properties.map { s.getAny($0.index)! }
    }

    /// Stored single values other than links and mixed (set in a second pass, which may add
    /// other objects).
    private func primitives(_ info: ClassInfo, _ values: [Any]) throws -> [String: Value] {
        var out: [String: Value] = [:]
        out.reserveCapacity(info.properties.count)
        let ctx = self.ctx
        for p in info.properties where p.schema.collection == .single && p.schema.type != .object
            && p.schema.type != .linkingObjects && p.schema.type != .mixed {
            out[p.name] = try p.encode!(values[p.index], ctx)
        }
        return out
    }

    /// What `add` checked about the class it last added.
    private final class CheckedClass {
        let info: ClassInfo
        /// For a class of plain values (`ClassInfo.isPlain`): the property index of each
        /// column in the file's column order.
        let plainColumns: [Int]?
        /// The table, when its new objects can wait in `PendingRows` (`appendableTable`).
        let batch: ClassTable?
        /// Per column of `batch`: true when it takes nil.
        let optional: [Bool]
        init(info: ClassInfo, plainColumns: [Int]?, batch: ClassTable?) {
            self.info = info; self.plainColumns = plainColumns; self.batch = batch
            optional = batch?.columns.map(\.isOptional) ?? []
        }
    }
    @exclusivity(unchecked) private var checkedClass: CheckedClass?
    /// True once this transaction inserted a plain object row by row (see `add`).
    @exclusivity(unchecked) private var addedPlain = false
    /// The row of the last plain insert (its storage is reused).
    @exclusivity(unchecked) private var rowBuffer: [Value] = []

    /// Plain objects added (managed, keys assigned) whose rows are not in the table yet: they
    /// are appended together, filling clusters as `appendObjects` does. Written to the table
    /// before anything else touches the transaction (`flushPending`): any read, any other
    /// change, the commit. Int, Double, Bool and String properties stored in columns of their
    /// own type go into typed arrays (no `Value` per value); other columns keep `Value`s.
    private final class PendingRows {
        let table: ClassTable
        /// Per column: how its values are kept.
        enum Kind { case int, double, bool, string, value }
        let kinds: [Kind]
        @exclusivity(unchecked) var keys: [ObjKey] = []
        /// Per column (empty unless the column is of that kind).
        @exclusivity(unchecked) var ints: [[Int64]]
        @exclusivity(unchecked) var doubles: [[Double]]
        @exclusivity(unchecked) var bools: [[Bool]]
        @exclusivity(unchecked) var strings: [[String]]
        @exclusivity(unchecked) var values: [[Value]]
        init(_ table: ClassTable, _ storage: _UnmanagedLayout, _ plainColumns: [Int]) {
            self.table = table
            kinds = plainColumns.enumerated().map { (c, i) -> Kind in
                switch (table.columnTypes[c], storage.direct[i], table.columns[c].isOptional) {
                case (.int, .int, false): return .int
                case (.double, .double, false): return .double
                case (.bool, .bool, false): return .bool
                case (.string, .string, false): return .string
                default: return .value
                }
            }
            let w = kinds.count
            ints = Array(repeating: [], count: w); doubles = Array(repeating: [], count: w)
            bools = Array(repeating: [], count: w); strings = Array(repeating: [], count: w)
            values = Array(repeating: [], count: w)
            // No capacity reserved: a write adding a few objects stays small; the buffers of a
            // long run of adds grow once and are reused (`spare`).
        }
        /// Rows kept before they are appended (bounds the memory of a long run of adds).
        static let limit = 8192

        /// Appends the rows to the table and empties the buffers (keeping their capacity).
        func write(_ txn: DBTransaction) throws {
            do {
                var given: [Int: BulkColumn] = [:]
                for (c, k) in kinds.enumerated() {
                    switch k {
                    case .int: given[c] = .ints(ints[c])
                    case .double: given[c] = .doubles(doubles[c])
                    case .bool: given[c] = .bools(bools[c])
                    case .string: given[c] = .strings(strings[c])
                    case .value: given[c] = .values(values[c])
                    }
                }
                try txn.appendCheckedRows(table, keys: keys, columns: given)
            }
            keys.removeAll(keepingCapacity: true)
            for (c, k) in kinds.enumerated() {
                switch k {
                case .int: ints[c].removeAll(keepingCapacity: true)
                case .double: doubles[c].removeAll(keepingCapacity: true)
                case .bool: bools[c].removeAll(keepingCapacity: true)
                case .string: strings[c].removeAll(keepingCapacity: true)
                case .value: values[c].removeAll(keepingCapacity: true)
                }
            }
        }
    }
    @exclusivity(unchecked) private var pending: PendingRows?
    /// The last rows written, emptied: their buffers serve the next batch of the same table.
    @exclusivity(unchecked) private var spare: PendingRows?
    /// True while `Realm.add` runs: only its own objects may wait in `pending` (an object
    /// added on the way — a link being set, a list element — is inserted at once, as the
    /// caller writes a link to it next).
    @exclusivity(unchecked) var isRealmAdd = false
    /// True while added objects wait to be written to their table.
    var hasPending: Bool { pending != nil }

    /// Writes the pending rows to their table (see `PendingRows`). When that fails the table
    /// may hold part of them: the write transaction is discarded (`RealmCore.writeFailed`) and
    /// the error it keeps for `commitWrite` is thrown.
    func flushPending() throws {
        guard let p = pending else { return }
        pending = nil
        do { try p.write(txn) } catch { throw core.writeFailed(error) }
        spare = p
    }

    /// The checks of `info` (made once per class and transaction).
    private func checked(_ info: ClassInfo) throws -> CheckedClass {
        if let c = checkedClass, c.info === info { return c }
        if info.isEmbedded { throw ObjectError.embeddedObjectCreation(info.className) }
        guard txn.schema[info.className] != nil, core.coordinator.typesByName[info.className] != nil else {
            throw SchemaError.noSuchClass(info.className)
        }
        var columns: [Int]? = nil
        if info.isPlain {
            let order = try txn.columnOrder(info.className).map { info.nameToIndex[$0] ?? -1 }
            if !order.contains(-1) { columns = order }
        }
        let c = CheckedClass(info: info, plainColumns: columns, batch: columns == nil ? nil : try txn.appendableTable(info.className))
        checkedClass = c
        return c
    }

    /// Adds `o` (unless already managed here) and returns its key.
    func add(_ o: ObjectBase) throws -> ObjKey {
        if copiesForeign, let copy = try foreignCopy(o) { return try add(copy) }
        if isMine(o) { return o._rlmKey }
        if !inProgress.isEmpty, let k = inProgress[ObjectIdentifier(o)] { return k }
        let info = o._rlmClassInfo
        let checked = try checked(info)
        if policy == .error, let plainColumns = checked.plainColumns {
            let s = completedStorage(o)
            // Top-level adds of rows that need no coercion, with increasing keys above every
            // existing key, wait in `pending`: no primary-key search, no row-by-row insert.
            // Not the first plain add of the transaction: a write adding one object inserts it
            // at once (cheaper than a batch of one), a run of adds batches from its second.
            if let t = checked.batch, isRealmAdd, inProgress.isEmpty, addedPlain,
               let key = try addPending(t, checked.optional, s, plainColumns) {
                o._rlmCore = core; o._rlmKey = key; o._rlmEpoch = core.readEpoch
                o._rlmStorage = nil
                if pending!.keys.count >= PendingRows.limit { try flushPending() }
                return key
            }
            // Only plain values: one row in column order, inserted as the dynamic API's
            // `insertRow` does (same checks: types, limits, primary-key uniqueness).
            try flushPending()
            var row = rowBuffer
            rowBuffer = []
            row.removeAll(keepingCapacity: true)
            defer { rowBuffer = row }
            for i in plainColumns { row.append(try s.encode(i, { self.ctx })) }
            let key = try txn.insertRow(info.className, row)
            addedPlain = true
            o._rlmCore = core; o._rlmKey = key; o._rlmEpoch = core.readEpoch
            o._rlmStorage = nil
            return key
        }
        try flushPending()
        let values = unmanagedValues(o)
        let key = try txn.create(info.className, values: try primitives(info, values), update: policy)
        inProgress[ObjectIdentifier(o)] = key
        defer { inProgress[ObjectIdentifier(o)] = nil }
        o._rlmCore = core; o._rlmKey = key; o._rlmEpoch = core.readEpoch
        try fill(o, info, key, values)
        o._rlmStorage = nil
        return key
    }

    /// Appends the row of `s` to the pending rows of `t` and returns its key, when it can wait
    /// there: every value of its column's exact type (no coercion, within the limits) or nil in
    /// an optional column, and a key above every key so far. Otherwise nil, with nothing
    /// appended (pending rows of another class are written first).
    private func addPending(_ t: ClassTable, _ optional: [Bool], _ s: _UnmanagedStorage, _ plainColumns: [Int]) throws -> ObjKey? {
        if let p = pending, p.table !== t { try flushPending() }
        let p: PendingRows
        if let existing = pending { p = existing } else if let sp = spare, sp.table === t { p = sp } else {
            p = PendingRows(t, s.layout, plainColumns)
        }
        // First check the whole row (encoding the values kept as `Value`), then append it.
        let types = t.columnTypes
        var encoded = rowBuffer
        rowBuffer = []
        encoded.removeAll(keepingCapacity: true)
        defer { rowBuffer = encoded }
        for (c, i) in plainColumns.enumerated() {
            switch p.kinds[c] {
            case .string:
                if s.string(i).utf8.count > ObjectLimits.maxValueBytes { return nil }
            case .value:
                let v = try s.encode(i, { self.ctx })
                if !DBTransaction.isExact(types[c], v) && !(optional[c] && v.isNull) { return nil }
                encoded.append(v)
            case .int, .double, .bool: continue
            }
        }
        let key: ObjKey
        if let pkc = t.pkColumn {
            switch p.kinds[pkc] {
            case .int: key = Int64(s.int(plainColumns[pkc]))
            case .value:
                var j = 0
                for c in 0..<pkc where p.kinds[c] == .value { j += 1 }
                guard case .int(let k) = encoded[j] else { return nil }
                key = k
            default: return nil
            }
        } else {
            key = try t.newKey(primaryKey: nil)
        }
        if let last = p.keys.last { guard key > last else { return nil } } else { guard try t.isBeyondAll(key) else { return nil } }
        var j = 0
        for (c, i) in plainColumns.enumerated() {
            switch p.kinds[c] {
            case .int: p.ints[c].append(Int64(s.int(i)))
            case .double: p.doubles[c].append(s.double(i))
            case .bool: p.bools[c].append(s.bool(i))
            case .string: p.strings[c].append(s.string(i))
            case .value: p.values[c].append(encoded[j]); j += 1
            }
        }
        p.keys.append(key)
        if pending == nil { pending = p }
        return key
    }

    /// Second pass: links, mixed values and collections.
    private func fill(_ o: ObjectBase, _ info: ClassInfo, _ key: ObjKey, _ values: [Any]) throws {
        for p in info.properties {
            let s = p.schema
            switch (s.collection, s.type) {
            case (_, .linkingObjects): continue
            case (.single, .object):
                let target = unwrapAny(values[p.index]) as? ObjectBase
                if p.targetType is EmbeddedObject.Type {
                    try assignEmbedded(parentClass: info.className, parentKey: key, property: p.name, child: target)
                } else {
                    let v: Value = try target.map { .object(ObjectLink(className: $0._rlmClassInfo.className, key: try add($0))) } ?? .null
                    if policy == .modified, (try? txn.value(info.className, key, p.name)) == v { continue }
                    try txn.set(info.className, key, p.name, v)
                }
            case (.single, .mixed):
                let v = try (values[p.index] as! any _StrataValue)._strataEncode(ctx)
                if policy == .modified, (try? txn.value(info.className, key, p.name)) == v { continue }
                try txn.set(info.className, key, p.name, v)
            case (.single, _): continue
            case (.list, _), (.set, _):
                let c = values[p.index] as! _UnmanagedCollection
                let owner = CollectionOwner(core: core, className: info.className, key: key, property: p.name, isEmbeddedTarget: p.targetType is EmbeddedObject.Type)
                if let co = c._owner, co.core.coordinator === core.coordinator, co.className == info.className, co.key == key, co.property == p.name { continue }
                try replaceElements(owner, c._elementsForAdd)
                if c._owner == nil { c._becomeManaged(owner); o._rlmCacheAccessor(p.index, c) }
            case (.map, _):
                let m = values[p.index] as! _UnmanagedMap
                let owner = CollectionOwner(core: core, className: info.className, key: key, property: p.name, isEmbeddedTarget: p.targetType is EmbeddedObject.Type)
                try replaceEntries(owner, m._entriesForAdd)
                if m._owner == nil { m._becomeManaged(owner); o._rlmCacheAccessor(p.index, m) }
            }
        }
    }

    /// Sets (or clears) the embedded object of a to-one property, creating it from `child`.
    func assignEmbedded(parentClass: String, parentKey: ObjKey, property: String, child: ObjectBase?) throws {
        guard var child else { try txn.setEmbedded(parentClass, parentKey, property, nil); return }
        if let copy = try foreignCopy(child) { child = copy }
        if child._rlmCore != nil {
            if isMine(child), case .object(let l) = try txn.value(parentClass, parentKey, property), l.key == child._rlmKey { return }
            // `create(_:value:)` copies the embedded objects of the value (as RealmSwift does).
            guard copiesForeign else {
                strataProgrammerError("Cannot set a link to an existing managed embedded object: assign an unmanaged copy")
            }
            child = try embeddedCopy(child)
        }
        // `.modified` updates the embedded object already there in place (as RealmSwift does):
        // accessors of it stay valid and read the new values.
        if policy == .modified, case .object(let l) = try txn.value(parentClass, parentKey, property) {
            try updateEmbeddedInPlace(child, key: l.key)
            return
        }
        let info = child._rlmClassInfo
        let values = unmanagedValues(child)
        guard let k = try txn.setEmbedded(parentClass, parentKey, property, try primitives(info, values)) else { return }
        child._rlmCore = core; child._rlmKey = k; child._rlmEpoch = core.readEpoch
        try fill(child, info, k, values)
        child._rlmStorage = nil
    }

    /// Writes the values of the unmanaged embedded object `child` into the embedded object
    /// `key` (of the same class) and makes `child` its accessor (`add(_:update: .modified)`).
    private func updateEmbeddedInPlace(_ child: ObjectBase, key: ObjKey) throws {
        let info = child._rlmClassInfo
        let values = unmanagedValues(child)
        for (name, v) in try primitives(info, values) where (try? txn.value(info.className, key, name)) != v {
            try txn.set(info.className, key, name, v)
        }
        child._rlmCore = core; child._rlmKey = key; child._rlmEpoch = core.readEpoch
        try fill(child, info, key, values)
        child._rlmStorage = nil
    }

    /// Replaces the elements of a list or set property (adding unmanaged objects, creating
    /// embedded ones).
    func replaceElements(_ owner: CollectionOwner, _ elements: [any _StrataValue]) throws {
        if owner.isEmbeddedTarget {
            var final: [Value] = []
            var created: [(ObjectBase, ClassInfo, ObjKey, [Any])] = []
            let currentList = try txn.list(owner.className, owner.key, owner.property)
            let current = Set(currentList)
            // `.modified`: an unmanaged element updates the embedded object at its position in
            // place (as RealmSwift does) when that one is not kept otherwise.
            var inPlace: [(ObjectBase, ObjKey)] = []
            var kept = Set<Value>()
            if policy == .modified {
                for e in elements {
                    if let o = unwrapAny(e) as? ObjectBase, o._rlmCore != nil {
                        kept.insert(.object(ObjectLink(className: o._rlmClassInfo.className, key: o._rlmKey)))
                    }
                }
            }
            for (position, e) in elements.enumerated() {
                if policy == .modified, let o = unwrapAny(e) as? ObjectBase, o._rlmCore == nil,
                   position < currentList.count, case .object(let l) = currentList[position], !kept.contains(currentList[position]) {
                    kept.insert(currentList[position])
                    inPlace.append((o, l.key))
                    final.append(currentList[position])
                    continue
                }
                guard var o = unwrapAny(e) as? ObjectBase else { continue }
                if let copy = try foreignCopy(o) { o = copy }
                if o._rlmCore != nil, copiesForeign, isMine(o),
                   !current.contains(Value.object(ObjectLink(className: o._rlmClassInfo.className, key: o._rlmKey))) {
                    // `create(_:value:)` copies the embedded objects of the value (as RealmSwift does).
                    o = try embeddedCopy(o)
                }
                if o._rlmCore != nil {
                    let link = Value.object(ObjectLink(className: o._rlmClassInfo.className, key: o._rlmKey))
                    guard isMine(o), current.contains(link) else {
                        strataProgrammerError("Cannot add an existing managed embedded object to a list: append an unmanaged copy")
                    }
                    final.append(link)
                } else {
                    let info = o._rlmClassInfo
                    let values = unmanagedValues(o)
                    guard let k = try txn.setEmbedded(owner.className, owner.key, owner.property, try primitives(info, values)) else { continue }
                    o._rlmCore = core; o._rlmKey = k; o._rlmEpoch = core.readEpoch
                    created.append((o, info, k, values))
                    final.append(.object(ObjectLink(className: info.className, key: k)))
                }
            }
            try txn.setList(owner.className, owner.key, owner.property, final, deletingRemovedEmbedded: true)
            for (o, k) in inPlace { try updateEmbeddedInPlace(o, key: k) }
            for (o, info, k, values) in created { try fill(o, info, k, values); o._rlmStorage = nil }
            return
        }
        let values = try elements.map { try $0._strataEncode(ctx) }
        if policy == .modified, (try? txn.list(owner.className, owner.key, owner.property)) == values { return }
        try txn.setList(owner.className, owner.key, owner.property, values)
    }

    /// Replaces the entries of a map property.
    func replaceEntries(_ owner: CollectionOwner, _ entries: [(String, any _StrataValue)]) throws {
        if owner.isEmbeddedTarget { throw Realm.Error.unsupported("maps of embedded objects") }
        let values = try entries.map { ($0.0, try $0.1._strataEncode(ctx)) }
        try txn.setMap(owner.className, owner.key, owner.property, values)
    }

    // MARK: create(_:value:update:)

    /// Property name → value from a dictionary, an array (property order) or an object.
    static func normalize(_ value: Any, _ info: ClassInfo) throws -> [(Int, Any?)] {
        let settable = info.properties.filter { $0.schema.type != .linkingObjects }
        if let d = value as? [String: Any?] {
            return try d.map { (k, v) in
                guard let i = info.nameToIndex[k] else { throw ObjectError.unknownProperty(className: info.className, property: k) }
                return (i, v)
            }
        }
        if let d = value as? [String: Any] {
            return try d.map { (k, v) in
                guard let i = info.nameToIndex[k] else { throw ObjectError.unknownProperty(className: info.className, property: k) }
                return (i, v)
            }
        }
        if let a = value as? [Any?] {
            guard a.count <= settable.count else {
                throw ObjectError.wrongType("an array value for '\(info.className)'", expected: "at most \(settable.count) values", got: "\(a.count)")
            }
            return zip(settable, a).map { ($0.index, $1) }
        }
        if let o = value as? ObjectBase {
            let oi = o._rlmClassInfo
            return try settable.compactMap { p in
                guard let j = oi.nameToIndex[p.name] else { return nil }
                return (p.index, o._rlmValue(at: j))
            }
        }
        throw ObjectError.wrongType("the value for '\(info.className)'", expected: "a dictionary, an array or an object", got: "\(type(of: value))")
    }

    /// Sets the given values on an unmanaged object.
    static func apply(_ value: Any, to o: ObjectBase) throws {
        for (i, v) in try normalize(value, o._rlmClassInfo) { try o._rlmSetValue(v, at: i) }
    }

    func create<T: Object>(_ type: T.Type, value: Any, update: UpdatePolicy) throws -> T {
        // Objects of other Realms among the values are copied (recursively); the copies made
        // are forgotten when the outermost `create` returns.
        let outermost = !copiesForeign
        copiesForeign = true
        defer { if outermost { copiesForeign = false; foreignCopies = [:] } }
        let info = ClassInfo.of(type)
        let given = try Self.normalize(value, info)
        // The object made from an object of another Realm is its copy (links back to it lead here).
        func copying(_ o: T) -> T {
            if let source = value as? ObjectBase, let c = source._rlmCore, source._rlmClassInfo === info,
               c.coordinator !== core.coordinator || c.isFrozen {
                foreignCopies[ForeignRow(core: ObjectIdentifier(c), className: info.className, key: source._rlmKey)] = o
            }
            return o
        }
        if update != .error, let pk = info.properties.first(where: { $0.schema.isPrimaryKey }),
           let pkAny = given.first(where: { $0.0 == pk.index })?.1, let pkValue = anyToValue(pkAny),
           let existing = try txn.find(info.className, primaryKey: pkValue) {
            let obj = copying(core.makeObject(type, key: existing))
            policy = update; defer { policy = .error }
            for (i, v) in given where i != pk.index {
                let p = info.properties[i]
                if update == .modified, p.schema.collection == .single, p.schema.type != .object, p.schema.type != .mixed,
                   let nv = anyToValue(v), let cur = try? txn.value(info.className, existing, p.name),
                   let coerced = try? ValueCodec.coerce(nv, to: p.schema.type, optional: p.schema.isOptional, target: nil, where: ""),
                   coerced == cur { continue }
                try obj._rlmSetValue(v, at: i)
            }
            return obj
        }
        let obj = copying(T())
        for (i, v) in given { try obj._rlmSetValue(v, at: i) }
        policy = update; defer { policy = .error }
        _ = try add(obj)
        return obj
    }
}
