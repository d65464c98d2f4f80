import Foundation
import StrataStorage

/// How `create` treats an existing object with the same primary key (RealmSwift's `UpdatePolicy`).
public enum UpdatePolicy: Sendable {
    /// Throw when an object with the primary key exists.
    case error
    /// Update only the properties whose values differ.
    case modified
    /// Update every given property.
    case all
}

/// One version of the object database, read or written through class and property names
/// (the dynamic API): the browser, import/export, migrations and the typed API all use it.
/// A transaction belongs to one thread.
public final class DBTransaction {
    let storage: Transaction
    /// The schema of the version this transaction reads.
    public let schema: Schema
    private var tables: [String: ClassTable] = [:]
    /// The class tables opened by this transaction (for the change record).
    var tablesByName: [String: ClassTable] { tables }
    /// Per class: objects inserted / modified / deleted by this write transaction.
    public var changes: [String: ChangeCounts] {
        var out: [String: ChangeCounts] = [:]
        for (n, t) in tables where t.changeCounts != ChangeCounts() { out[n] = t.changeCounts }
        return out
    }

    /// How many objects of one class a write transaction inserted, modified and deleted.
    public struct ChangeCounts: Sendable, Equatable {
        /// Objects inserted, modified and deleted, in that order.
        public var inserted = 0, modified = 0, deleted = 0
    }

    /// What each class's table derives from the schema, made once per schema (nil: made per
    /// transaction, for the schemas a migration reads and writes).
    private let layouts: SchemaLayout?

    init(storage: Transaction, schema: Schema, layouts: SchemaLayout? = nil) {
        self.storage = storage
        self.schema = schema
        self.layouts = layouts
    }

    /// A transaction over `storage` that reads by the schema and layouts of `other` (the read
    /// that continues at the version `other` committed: the schema `other` confirmed is the
    /// one that version holds).
    convenience init(storage: Transaction, schemaOf other: DBTransaction) {
        self.init(storage: storage, schema: other.schema, layouts: other.layouts)
    }

    /// The version this transaction reads; a write transaction: the version its commit will
    /// create (the one it started from + 1).
    public var version: UInt64 { storage.version }
    /// True for transactions from `Database.write()`.
    public var isWritable: Bool { storage is WriteTransaction }

    /// The most recently used table (a cheap check before the dictionary lookup).
    private var lastTable: ClassTable?

    func table(_ className: String) throws -> ClassTable {
        if let t = lastTable, t.schema.className == className { return t }
        if let t = tables[className] { lastTable = t; return t }
        let layout: ClassLayout
        if let l = layouts?.classes[className] { layout = l } else {
            guard let os = schema[className] else { throw SchemaError.noSuchClass(className) }
            layout = ClassLayout(os)
        }
        let t = ClassTable(txn: self, layout: layout)
        tables[className] = t
        lastTable = t
        return t
    }

    func metaTree(create: Bool) throws -> BTree? {
        if create, let w = storage as? WriteTransaction { return try w.tree("meta", create: true) }
        return try storage.tree("meta")
    }

    private func requireWrite() throws -> WriteTransaction {
        guard let w = storage as? WriteTransaction, w.isActive else { throw ObjectError.notInWriteTransaction }
        return w
    }

    private func property(_ className: String, _ name: String) throws -> PropertySchema {
        guard let os = schema[className] else { throw SchemaError.noSuchClass(className) }
        guard let p = os[name] else { throw ObjectError.unknownProperty(className: className, property: name) }
        return p
    }

    // MARK: reading

    /// Number of objects of a class (O(1)).
    public func count(_ className: String) throws -> Int { try table(className).count() }

    /// The key of the object at `index` in key order (O(log n)), for paging through a class.
    public func objectKey(_ className: String, at index: Int) throws -> ObjKey? {
        let t = try table(className)
        guard let (tk, row) = try t.locate(index: index) else { return nil }
        let c = try t.cluster(tk)
        return row < c.count ? c.key(row) : nil
    }

    /// Keys of `count` objects starting at position `start` (reads only those clusters).
    public func objectKeys(_ className: String, from start: Int, count: Int) throws -> [ObjKey] {
        let t = try table(className)
        guard count > 0, var (tk, row) = try t.locate(index: start) else { return [] }
        var out: [ObjKey] = []
        out.reserveCapacity(count)
        var c = try t.cluster(tk)
        while out.count < count {
            // The rest of the cluster (or of the page) in one loop.
            let n = Swift.min(c.count - row, count - out.count)
            if n > 0 {
                switch c {
                case .stored(let s): for r in row..<(row + n) { out.append(s.key(r)) }
                case .dirty(let m): out.append(contentsOf: m.keys[row..<(row + n)])
                }
                row += n
                continue
            }
            guard let next = try t.locate(index: start + out.count) else { break }
            (tk, row) = next
            c = try t.cluster(tk)
        }
        return out
    }

    /// Every object key of a class, in key order.
    public func objectKeys(_ className: String) throws -> [ObjKey] { try table(className).allKeys() }

    /// Whether an object of `className` with key `key` exists in this version.
    public func exists(_ className: String, _ key: ObjKey) throws -> Bool { try table(className).exists(key) }

    /// The value of a single-valued property. A link to a deleted object reads as null.
    public func value(_ className: String, _ key: ObjKey, _ propertyName: String) throws -> Value {
        let t = try table(className)
        let p = try property(className, propertyName)
        guard p.collection == .single, p.type != .linkingObjects else { throw ObjectError.notACollection("'\(className).\(propertyName)' is a collection; read it with list/map") }
        guard let (tk, row) = try t.locate(key: key) else { throw ObjectError.noSuchObject(className: className, key: key) }
        let v = try t.value(try t.cluster(tk), row: row, column: try t.columnIndex(propertyName))
        return try liveLink(v)
    }

    /// Links to deleted objects read as null.
    private func liveLink(_ v: Value) throws -> Value {
        if case .object(let l) = v, !(try schema[l.className] != nil && table(l.className).exists(l.key)) { return .null }
        return v
    }

    /// Every single-valued property of an object, by name.
    public func values(_ className: String, _ key: ObjKey) throws -> [String: Value] {
        let t = try table(className)
        guard let (tk, row) = try t.locate(key: key) else { throw ObjectError.noSuchObject(className: className, key: key) }
        let c = try t.cluster(tk)
        var out: [String: Value] = [:]
        for (i, p) in t.columns.enumerated() where p.collection == .single {
            out[p.name] = try liveLink(try t.value(c, row: row, column: i))
        }
        return out
    }

    /// The elements of a list or set property (links to deleted objects are left out).
    public func list(_ className: String, _ key: ObjKey, _ propertyName: String) throws -> [Value] {
        let p = try property(className, propertyName)
        guard p.collection == .list || p.collection == .set else { throw ObjectError.notACollection("'\(className).\(propertyName)'") }
        let cv = try collection(className, key, p)
        var out: [Value] = []
        for i in 0..<cv.elements.count {
            let v = ValueCodec.read(cv.elements, i, type: p.type, target: p.objectClassName)
            if case .object = v { let l = try liveLink(v); if l.isNull { continue } }
            out.append(v)
        }
        return out
    }

    /// The entries of a map property, sorted by key.
    public func map(_ className: String, _ key: ObjKey, _ propertyName: String) throws -> [(key: String, value: Value)] {
        let p = try property(className, propertyName)
        guard p.collection == .map else { throw ObjectError.notACollection("'\(className).\(propertyName)' is not a map") }
        let cv = try collection(className, key, p)
        let keys = cv.mapKeys ?? []
        return try keys.enumerated().map { (i, k) in (k, try liveLink(ValueCodec.read(cv.elements, i, type: p.type, target: p.objectClassName))) }
    }

    /// Number of elements of a collection property, without decoding them.
    public func collectionCount(_ className: String, _ key: ObjKey, _ propertyName: String) throws -> Int {
        let p = try property(className, propertyName)
        return try collection(className, key, p).elements.count
    }

    func collection(_ className: String, _ key: ObjKey, _ p: PropertySchema) throws -> CollectionValue {
        let t = try table(className)
        guard let (tk, row) = try t.locate(key: key) else { throw ObjectError.noSuchObject(className: className, key: key) }
        let slot = try t.collectionSlot(try t.cluster(tk), row: row, column: try t.columnIndex(p.name))
        return try decodeCollection(slot, p)
    }

    func decodeCollection(_ slot: CollectionSlot, _ p: PropertySchema) throws -> CollectionValue {
        let layout = ColumnLayout.of(p.type)
        switch slot {
        case .dirty(let cv): return cv
        case .stored(let ref):
            if ref == 0 {
                return CollectionValue(elements: .empty(layout, fixedWidth: ColumnLayout.fixedWidth(p.type)), mapKeys: p.collection == .map ? [] : nil)
            }
            let g = try storage.genericBlock(ref)
            do {
                if g.view.kindByte == ObjectBlockKind.map {
                    guard g.refCount == 2 else { throw ColumnView.Malformed() }
                    let keys = MutableColumn(try ColumnView(try storage.genericBlock(g.ref(0))))
                    let values = MutableColumn(try ColumnView(try storage.genericBlock(g.ref(1))))
                    guard keys.layout == .bytes, keys.count == values.count else { throw ColumnView.Malformed() }
                    return CollectionValue(elements: values, mapKeys: (0..<keys.count).map { i in keys.withBytes(i) { String(decoding: $0, as: UTF8.self) } })
                }
                return CollectionValue(elements: MutableColumn(try ColumnView(g)), mapKeys: nil)
            } catch let e as StorageError { throw e } catch {
                throw StorageError.corrupted(path: storage.path, detail: "collection block \(ref) is malformed")
            }
        }
    }

    /// The object whose primary key is `value`.
    public func find(_ className: String, primaryKey value: Value) throws -> ObjKey? {
        let t = try table(className)
        // An Int key of an Int primary key is the object key (no coercion, no schema search).
        if t.usesPrimaryKeyAsObjectKey, case .int(let k) = value { return try t.exists(k) ? k : nil }
        guard let pk = t.schema.primaryKeyProperty else { return nil }
        let v = try ValueCodec.coerce(value, to: pk.type, optional: pk.isOptional, target: nil, where: "primary key of '\(className)'")
        if t.usesPrimaryKeyAsObjectKey {
            let k: ObjKey = { if case .int(let i) = v { return i }; return Int64.min }()
            return try t.exists(k) ? k : nil
        }
        return try indexLookup(className, pk.name, v).first
    }

    /// Objects whose indexed property equals `value` (uses the index).
    public func indexLookup(_ className: String, _ propertyName: String, _ value: Value) throws -> [ObjKey] {
        guard let idx = try storage.tree(Self.indexTreeName(className, propertyName)) else { return [] }
        let prefix = IndexKey.valuePrefix(value)
        var out: [ObjKey] = []
        try idx.forEach(from: prefix) { e in
            guard e.key.count == prefix.count + 8, e.key.starts(with: prefix) else { return false }
            out.append(IndexKey.objKey(from: e.key))
            return true
        }
        if prefix.first == 2 { out = try out.filter { try self.value(className, $0, propertyName) == value } }
        return out
    }

    /// Whether equality lookups on the property use an index (an Int primary key is the object key itself and needs none).
    public func hasIndex(_ className: String, _ propertyName: String) -> Bool {
        guard let p = schema[className]?[propertyName] else { return false }
        return p.isIndexed && !(p.isPrimaryKey && p.type == .int)
    }

    static func indexTreeName(_ className: String, _ property: String) -> String { "i/\(className)/\(property)" }

    /// What is wrong with the secondary indexes of `className` in this version, one sentence
    /// per index (empty: sound). Each indexed property's tree must hold exactly one entry per
    /// object, for its current value; an index a writer did not keep current is stale — lookups
    /// miss objects or find ones whose value changed. Reads every entry and the object it names
    /// (`strata check`), in constant memory: entries are distinct, so when every entry is the one
    /// its object's value calls for and there are as many as objects, each object has its own.
    package func indexProblems(_ className: String) throws -> [String] {
        let t = try table(className)
        var out: [String] = []
        let objects = try t.count()
        for column in t.indexedColumns {
            let name = t.columns[column].name
            var entries = 0, current = 0
            try storage.tree(Self.indexTreeName(className, name))?.forEach { e in
                entries += 1
                let key = IndexKey.objKey(from: e.key)
                if e.key.count > 8, let (cl, row) = try t.locateCluster(key: key),
                   IndexKey.key(try t.value(cl, row: row, column: column), key) == e.key { current += 1 }
                return true
            }
            if current == objects && entries == objects { continue }
            let missing = objects - current, extra = entries - current
            out.append("index on '\(className).\(name)' is stale: \(missing) object\(missing == 1 ? "" : "s") missing from it, "
                       + "\(extra) entr\(extra == 1 ? "y" : "ies") for no object or an old value")
        }
        return out
    }

    /// Objects of `originClass` whose `originProperty` (a link or list of links) points to the object.
    public func backlinks(_ className: String, _ key: ObjKey, originClass: String, originProperty: String) throws -> [ObjKey] {
        let p = try property(originClass, originProperty)
        guard p.type == .object, p.objectClassName == className else { return [] }
        let t = try table(originClass)
        let col = try t.columnIndex(originProperty)
        var out: [ObjKey] = []
        try t.forEachCluster { c in
            for r in 0..<c.count {
                if p.collection == .single {
                    if case .object(let l) = try t.value(c, row: r, column: col), l.key == key { out.append(c.key(r)) }
                } else {
                    let cv = try decodeCollection(try t.collectionSlot(c, row: r, column: col), p)
                    for i in 0..<cv.elements.count where ValueCodec.read(cv.elements, i, type: .object, target: className) == .object(ObjectLink(className: className, key: key)) {
                        out.append(c.key(r)); break
                    }
                }
            }
            return true
        }
        return out
    }

    /// All (origin class, property) pairs that can link to `className`.
    public func incomingLinks(_ className: String) -> [(className: String, property: String)] {
        schema.objectSchemas.flatMap { os in
            os.allProperties.filter { $0.type == .object && $0.objectClassName == className }.map { (os.className, $0.name) }
        }
    }

    // MARK: writing

    /// Creates an object from property values by name. Missing properties take defaults.
    /// With a primary key and `update` other than `.error`, an existing object is updated with
    /// the given values only. Embedded objects are given as `[String: Value]` in `embedded`.
    @discardableResult
    public func create(_ className: String, values: [String: Value], update: UpdatePolicy = .error,
                       embedded: [String: [String: Value]] = [:], collections: [String: [Value]] = [:],
                       maps: [String: [(String, Value)]] = [:]) throws -> ObjKey {
        _ = try requireWrite()
        let t = try table(className)
        if t.schema.isEmbedded { throw ObjectError.embeddedObjectCreation(className) }
        for name in values.keys where t.columnByName[name] == nil && t.schema[name] == nil {
            throw ObjectError.unknownProperty(className: className, property: name)
        }
        var pkValue: Value? = nil
        if let pk = t.schema.primaryKeyProperty {
            guard let v = values[pk.name] else { throw ObjectError.missingPrimaryKey(className: className) }
            pkValue = try ValueCodec.coerce(v, to: pk.type, optional: pk.isOptional, target: nil, where: "'\(className).\(pk.name)'")
            let appending: Bool = { if t.usesPrimaryKeyAsObjectKey, case .int(let k)? = pkValue { return t.isBeyondLastKey(k) }; return false }()
            if !appending, let existing = try find(className, primaryKey: pkValue!) {
                if update == .error { throw ObjectError.duplicatePrimaryKey(className: className, value: pkValue!.description) }
                for (name, v) in values where name != pk.name {
                    if update == .modified, try value(className, existing, name) == (try coerce(className, name, v)) { continue }
                    try set(className, existing, name, v)
                }
                for (name, ev) in embedded { try setEmbedded(className, existing, name, ev) }
                for (name, l) in collections { try setList(className, existing, name, l) }
                for (name, m) in maps { try setMap(className, existing, name, m) }
                return existing
            }
        }
        var row: [Value] = []
        row.reserveCapacity(t.columns.count)
        for (i, p) in t.columns.enumerated() {
            if p.collection != .single { row.append(.null); continue }
            if let v = values[p.name] {
                row.append(i == t.pkColumn ? pkValue! : try coerceColumn(t, p, v))
            } else { row.append(t.defaultValue(p)) }
        }
        let key = try t.newKey(primaryKey: pkValue)
        try t.insert(key: key, values: row)
        for i in t.indexedColumns { try indexTree(className, t.columns[i].name).put(IndexKey.key(row[i], key), bytes: []) }
        t.changeCounts.inserted += 1
        for (name, ev) in embedded { try setEmbedded(className, key, name, ev) }
        for (name, l) in collections { try setList(className, key, name, l) }
        for (name, m) in maps { try setMap(className, key, name, m) }
        return key
    }

    /// Coerces a value for column `p` of table `t` (checks link targets exist).
    @inline(__always)
    private func coerceColumn(_ t: ClassTable, _ p: PropertySchema, _ v: Value) throws -> Value {
        let v2 = try ValueCodec.coerce(v, to: p.type, optional: p.isOptional || p.type == .object, target: p.objectClassName, where: "'\(t.schema.className).\(p.name)'")
        if case .object(let l) = v2, p.type == .object {
            guard try table(l.className).exists(l.key) else { throw ObjectError.noSuchObject(className: l.className, key: l.key) }
            if schema[l.className]?.isEmbedded == true { throw ObjectError.embeddedObjectCreation(l.className) }
        }
        return v2
    }

    private func indexTree(_ className: String, _ property: String) throws -> BTree {
        try requireWrite().tree(Self.indexTreeName(className, property), create: true)!
    }

    func coerce(_ className: String, _ name: String, _ v: Value) throws -> Value {
        try coerceColumn(try table(className), try property(className, name), v)
    }

    /// Sets a single-valued property.
    public func set(_ className: String, _ key: ObjKey, _ name: String, _ value: Value) throws {
        _ = try requireWrite()
        let t = try table(className)
        guard let c = t.columnByName[name] else {
            if t.schema[name] != nil { throw ObjectError.notACollection("'\(className).\(name)' is computed (linking objects) and cannot be set") }
            throw ObjectError.unknownProperty(className: className, property: name)
        }
        let p = t.columns[c]
        guard p.collection == .single else { throw ObjectError.notACollection("'\(className).\(name)' is a collection: use setList/setMap") }
        let v = try coerceColumn(t, p, value)
        if p.isPrimaryKey {
            if try self.value(className, key, name) != v { throw ObjectError.primaryKeyChange(className: className) }
            return
        }
        if p.type == .object, let target = p.objectClassName, schema[target]?.isEmbedded == true {
            // Replacing an embedded object deletes the old one.
            if case .object(let old) = try self.value(className, key, name) { try delete(target, old.key) }
        }
        if t.indexedColumns.contains(c) {
            let old = try self.value(className, key, name)
            let idx = try indexTree(className, name)
            try idx.delete(IndexKey.key(old, key))
            try idx.put(IndexKey.key(v, key), bytes: [])
        }
        try t.set(key: key, column: c, value: v)
        t.changeCounts.modified += 1
    }

    private func noteModified(_ className: String) { (try? table(className))?.changeCounts.modified += 1 }

    /// Creates an embedded object and links it from `name` of the parent (replacing, and
    /// deleting, any previous one).
    @discardableResult
    public func setEmbedded(_ className: String, _ key: ObjKey, _ name: String, _ values: [String: Value]?) throws -> ObjKey? {
        let w = try requireWrite(); _ = w
        let p = try property(className, name)
        guard p.type == .object, let target = p.objectClassName, schema[target]?.isEmbedded == true else {
            throw ObjectError.wrongType("'\(className).\(name)'", expected: "a link to an embedded class", got: "embedded values")
        }
        if p.collection == .list {
            guard let values else { try setList(className, key, name, []); return nil }
            var items = try list(className, key, name)
            let child = try createEmbedded(target, values)
            items.append(.object(ObjectLink(className: target, key: child)))
            try setList(className, key, name, items, deletingRemovedEmbedded: false)
            return child
        }
        if case .object(let old) = try self.value(className, key, name) { try delete(target, old.key) }
        guard let values else { try table(className).set(key: key, column: try table(className).columnIndex(name), value: .null); return nil }
        let child = try createEmbedded(target, values)
        try table(className).set(key: key, column: try table(className).columnIndex(name), value: .object(ObjectLink(className: target, key: child)))
        noteModified(className)
        return child
    }

    private func createEmbedded(_ className: String, _ values: [String: Value]) throws -> ObjKey {
        let t = try table(className)
        var row: [Value] = []
        for p in t.columns {
            if p.collection != .single { row.append(.null); continue }
            row.append(try values[p.name].map { try coerce(className, p.name, $0) } ?? t.defaultValue(p))
        }
        let k = try t.newKey(primaryKey: nil)
        try t.insert(key: k, values: row)
        t.changeCounts.inserted += 1
        return k
    }

    /// Replaces the elements of a list or set property. Sets keep unique elements in a
    /// canonical order. Removed embedded objects are deleted.
    public func setList(_ className: String, _ key: ObjKey, _ name: String, _ elements: [Value], deletingRemovedEmbedded: Bool = true) throws {
        _ = try requireWrite()
        let p = try property(className, name)
        guard p.collection == .list || p.collection == .set else { throw ObjectError.notACollection("'\(className).\(name)' is not a list or set") }
        var values = try elements.map { try ValueCodec.coerce($0, to: p.type, optional: p.isOptional, target: p.objectClassName, where: "an element of '\(className).\(name)'") }
        for v in values { if case .object(let l) = v, !(try table(l.className).exists(l.key)) { throw ObjectError.noSuchObject(className: l.className, key: l.key) } }
        if p.collection == .set {
            var seen = Set<Value>(); values = values.filter { seen.insert($0).inserted }
        }
        if deletingRemovedEmbedded, let target = p.objectClassName, schema[target]?.isEmbedded == true {
            let keep = Set(values)
            for old in try list(className, key, name) where !keep.contains(old) { if case .object(let l) = old { try delete(target, l.key) } }
        }
        let col = MutableColumn.empty(ColumnLayout.of(p.type), fixedWidth: ColumnLayout.fixedWidth(p.type))
        for v in values { ValueCodec.append(v, to: col, type: p.type) }
        let t = try table(className)
        try t.setCollection(key: key, column: try t.columnIndex(name), CollectionValue(elements: col, mapKeys: nil))
        noteModified(className)
    }

    /// Replaces the entries of a map property (keys are unique; sorted on write).
    public func setMap(_ className: String, _ key: ObjKey, _ name: String, _ entries: [(String, Value)]) throws {
        _ = try requireWrite()
        let p = try property(className, name)
        guard p.collection == .map else { throw ObjectError.notACollection("'\(className).\(name)' is not a map") }
        var dict: [String: Value] = [:]
        for (k, v) in entries {
            dict[k] = try ValueCodec.coerce(v, to: p.type, optional: p.isOptional, target: p.objectClassName, where: "value '\(k)' of '\(className).\(name)'")
        }
        let keys = dict.keys.sorted()
        let col = MutableColumn.empty(ColumnLayout.of(p.type), fixedWidth: ColumnLayout.fixedWidth(p.type))
        for k in keys { ValueCodec.append(dict[k]!, to: col, type: p.type) }
        let t = try table(className)
        try t.setCollection(key: key, column: try t.columnIndex(name), CollectionValue(elements: col, mapKeys: keys))
        noteModified(className)
    }

    /// Deletes an object: its embedded objects go with it, links to it become null and it
    /// disappears from lists and sets that held it.
    public func delete(_ className: String, _ key: ObjKey) throws {
        try delete(className, keys: [key])
    }

    /// Deletes several objects of one class (link clean-up is done once for all of them).
    public func delete(_ className: String, keys: [ObjKey]) throws {
        _ = try requireWrite()
        let t = try table(className)
        // Sorted and without repeats: the table then walks its clusters in order.
        var unique = ClassTable.isAscending(keys) ? keys : keys.sorted()
        if unique.count > 1 && !ClassTable.isAscending(unique) {
            var w = 1
            for r in 1..<unique.count where unique[r] != unique[w - 1] { unique[w] = unique[r]; w += 1 }
            unique.removeSubrange(w...)
        }
        var embeddedToDelete: [String: [ObjKey]] = [:]
        // Index entries to remove, per indexed column: removed at once (in index key order).
        var indexKeys = [[[UInt8]]](repeating: [], count: t.indexedColumns.count)
        if !t.embeddedLinkColumns.isEmpty || !t.indexedColumns.isEmpty {
            for key in unique {
                guard let (c, row) = try t.locateCluster(key: key) else { throw ObjectError.noSuchObject(className: className, key: key) }
                for ci in t.embeddedLinkColumns {
                    let p = t.columns[ci], target = p.objectClassName!
                    if p.collection == .single {
                        if case .object(let l) = try t.value(c, row: row, column: ci) { embeddedToDelete[target, default: []].append(l.key) }
                    } else if p.collection != .map {
                        for v in try list(className, key, p.name) { if case .object(let l) = v { embeddedToDelete[target, default: []].append(l.key) } }
                    }
                }
                for (i, ci) in t.indexedColumns.enumerated() { indexKeys[i].append(IndexKey.key(try t.value(c, row: row, column: ci), key)) }
            }
        }
        try t.delete(keys: unique)
        for (i, ci) in t.indexedColumns.enumerated() where !indexKeys[i].isEmpty {
            try indexTree(className, t.columns[ci].name).delete(keys: indexKeys[i])
        }
        t.changeCounts.deleted += unique.count
        if !incomingLinks(className).isEmpty { try removeLinks(to: className, keys: Set(unique)) }
        if schema.objectSchemas.contains(where: { $0.allProperties.contains { $0.type == .mixed } }) {
            try removeMixedLinks(to: className, keys: Set(unique))
        }
        for (target, ks) in embeddedToDelete { try delete(target, keys: ks.filter { (try? table(target).exists($0)) == true }) }
    }

    /// Nullifies to-one links and removes list/set/map entries that point to deleted objects.
    private func removeLinks(to className: String, keys gone: Set<ObjKey>) throws {
        guard !gone.isEmpty else { return }
        for (origin, propName) in incomingLinks(className) {
            let p = try property(origin, propName)
            let t = try table(origin)
            let col = try t.columnIndex(propName)
            var fixes: [(ObjKey, Value?)] = []
            var listFixes: [ObjKey] = []
            try t.forEachCluster { c in
                for r in 0..<c.count {
                    if p.collection == .single {
                        if case .object(let l) = try t.value(c, row: r, column: col), gone.contains(l.key) { fixes.append((c.key(r), nil)) }
                    } else {
                        let cv = try decodeCollection(try t.collectionSlot(c, row: r, column: col), p)
                        guard cv.elements.layout == .int else { continue }
                        let ks = cv.elements.ints
                        if ks.enumerated().contains(where: { gone.contains($0.element) && cv.elements.nulls?[$0.offset] != true }) { listFixes.append(c.key(r)) }
                    }
                }
                return true
            }
            for (k, _) in fixes { try t.set(key: k, column: col, value: .null) }
            for k in listFixes {
                let cv = try collection(origin, k, p)
                if p.collection == .map {
                    let entries = try map(origin, k, propName).map { e -> (String, Value) in
                        if case .object(let l) = e.value, gone.contains(l.key) { return (e.key, .null) }
                        return (e.key, e.value)
                    }
                    try setMap(origin, k, propName, entries)
                } else {
                    var kept: [Value] = []
                    for i in 0..<cv.elements.count {
                        let v = ValueCodec.read(cv.elements, i, type: .object, target: className)
                        if case .object(let l) = v, gone.contains(l.key) { continue }
                        kept.append(v)
                    }
                    try setList(origin, k, propName, kept, deletingRemovedEmbedded: false)
                }
            }
        }
    }

    /// Mixed (`AnyRealmValue`) values that link to deleted objects, as realm-core's `nullify`: a
    /// single value becomes null, a list or set loses the element, a map keeps the key with null.
    /// Otherwise the link would read as null while its key is free and as whatever object later
    /// takes that key (an object re-added with the same primary key). Mixed values keep no
    /// backlinks, so every mixed property is scanned: files without any pay nothing.
    private func removeMixedLinks(to className: String, keys gone: Set<ObjKey>) throws {
        guard !gone.isEmpty else { return }
        func isGone(_ v: Value) -> Bool {
            if case .object(let l) = v { return l.className == className && gone.contains(l.key) }
            return false
        }
        for os in schema.objectSchemas {
            for p in os.allProperties where p.type == .mixed {
                let t = try table(os.className)
                let col = try t.columnIndex(p.name)
                var holders: [ObjKey] = []
                try t.forEachCluster { c in
                    for r in 0..<c.count {
                        if p.collection == .single {
                            if isGone(try t.value(c, row: r, column: col)) { holders.append(c.key(r)) }
                        } else {
                            holders.append(c.key(r)) // collections are read below, per object
                        }
                    }
                    return true
                }
                for k in holders {
                    if p.collection == .single { try t.set(key: k, column: col, value: .null); continue }
                    // The stored elements (`list` and `map` read dangling links as absent or null).
                    let cv = try collection(os.className, k, p)
                    let values = (0..<cv.elements.count).map { ValueCodec.read(cv.elements, $0, type: p.type, target: p.objectClassName) }
                    guard values.contains(where: isGone) else { continue }
                    if p.collection == .map {
                        let keys = cv.mapKeys ?? []
                        try setMap(os.className, k, p.name, zip(keys, values).map { ($0, isGone($1) ? Value.null : $1) })
                    } else {
                        try setList(os.className, k, p.name, values.filter { !isGone($0) }, deletingRemovedEmbedded: false)
                    }
                }
            }
        }
    }

    /// Deletes every object of a class.
    public func deleteAll(_ className: String) throws {
        try delete(className, keys: try objectKeys(className))
    }

    // MARK: commit

    /// Writes the changed clusters into the storage transaction (before its commit).
    func flush() throws {
        for name in tables.keys.sorted() { try tables[name]!.flush() }
    }

    /// A short description of the changes (recorded in the commit history).
    public var changeSummary: String {
        var out = ""
        for name in tables.keys.sorted() {
            let x = tables[name]!.changeCounts
            guard x != ChangeCounts() else { continue }
            if !out.isEmpty { out += ", " }
            out += name
            if x.inserted > 0 { out += " +" + String(x.inserted) }
            if x.modified > 0 { out += " ~" + String(x.modified) }
            if x.deleted > 0 { out += " -" + String(x.deleted) }
        }
        return out
    }

    /// Commits the write transaction; returns the new version.
    @discardableResult
    public func commit() throws -> UInt64 {
        let w = try requireWrite()
        // Announce what the clusters will write, so the storage places the commit in one run.
        w.expectWrites(bytes: tables.values.reduce(0) { $0 + $1.estimatedFlushBytes() })
        do { try flush(); try recordChanges() } catch { w.abort(); throw error }
        w.note = Array(changeSummary.utf8)
        return try w.commit()
    }

    /// Discards the write transaction's changes.
    public func abort() { (storage as? WriteTransaction)?.abort() }

    /// Ends a read transaction (releases its pinned version).
    public func end() { (storage as? ReadTransaction)?.end() }
}
