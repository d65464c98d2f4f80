import Foundation
import StrataStorage

/// The block run when the file's schema version is older than the configured one (RealmSwift's
/// `MigrationBlock`). It may throw: the migration is then abandoned and the file is unchanged.
/// A non-throwing closure (RealmSwift source) converts to this type.
public typealias MigrationBlock = (_ migration: Migration, _ oldSchemaVersion: UInt64) throws -> Void

/// Errors of schema versions and migrations. Messages say what to change.
public enum MigrationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The configuration's schema version is lower than the file's.
    case schemaVersionDecreased(path: String, fileVersion: UInt64, configuredVersion: UInt64)
    /// A migration is needed but the file is opened read-only.
    case readOnly(path: String, reason: String)
    /// A call of the migration block was invalid (a rename of an unknown property, …).
    case invalidOperation(String)

    public var description: String {
        switch self {
        case .schemaVersionDecreased(let p, let f, let c):
            return "\(p): the configured schemaVersion \(c) is lower than the file's schema version \(f); a schema version can only increase (set schemaVersion to \(f) or higher)"
        case .readOnly(let p, let r):
            return "\(p): the file needs a migration (\(r)) but is opened read-only; open it writable once to migrate it"
        case .invalidOperation(let s): return "migration: \(s)"
        }
    }
}

/// A migration in progress (RealmSwift's `Migration`), handed to the migration block.
///
/// Everything runs in one write transaction: the classes whose definition changed are already
/// rewritten in the new layout when the block starts (objects keep their keys; added properties
/// hold their defaults; a property whose type changed holds the converted old value when the
/// conversion is lossless — Int ↔ Double, anything → String, parsable String → number — else
/// its default). The block then adjusts the data: `enumerateObjects` pairs each old object (the
/// old schema, read-only) with its new one (the new schema, writable).
///
/// Classes in the file that the new schema does not list are kept (another configuration may use
/// them) unless the block calls `deleteData(forType:)`.
public final class Migration {
    /// The schema of the file before the migration.
    public let oldSchema: Schema
    /// The schema after the migration (the configuration's classes).
    public let newSchema: Schema
    let runner: MigrationRunner
    /// The first error of a call that cannot throw (subscript setters, renames); the migration
    /// fails with it once the block returns.
    var failure: Swift.Error?

    init(runner: MigrationRunner) {
        self.runner = runner
        oldSchema = runner.oldSchema
        newSchema = runner.wanted
    }

    func record(_ e: Swift.Error) { if failure == nil { failure = e } }

    /// Calls `block` for every object of `typeName` in the file before the migration, as
    /// RealmSwift does: the old object (read-only, old schema) with its new one (writable, new
    /// schema). Objects the block deleted (or `deleteData(forType:)` removed) are skipped, and
    /// nothing is called when either side has no objects. For a class that is not in the new
    /// schema the new object is nil; for a class added by this migration the old one is nil
    /// and the new schema's objects (those the block created) are enumerated.
    public func enumerateObjects(ofType typeName: String, _ block: (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) throws -> Void) rethrows {
        let inOld = runner.oldSchema[typeName] != nil, inNew = runner.wanted[typeName] != nil
        let oldKeys: [ObjKey], newKeys: [ObjKey]
        do {
            oldKeys = inOld ? try runner.oldTxn.objectKeys(typeName) : []
            newKeys = inNew ? try runner.newTxn.objectKeys(typeName) : []
        } catch { record(error); return }
        func new(_ k: ObjKey) -> MigrationObject {
            MigrationObject(migration: self, txn: runner.newTxn, className: typeName, key: k, writable: true)
        }
        if !inOld {
            for k in newKeys where (try? runner.newTxn.exists(typeName, k)) == true {
                try block(nil, new(k))
                if failure != nil { return }
            }
            return
        }
        if inNew && (oldKeys.isEmpty || newKeys.isEmpty) { return }
        for k in oldKeys {
            let old = MigrationObject(migration: self, txn: runner.oldTxn, className: typeName, key: k, writable: false)
            if inNew {
                guard (try? runner.newTxn.exists(typeName, k)) == true else { continue }
                try block(old, new(k))
            } else {
                try block(old, nil)
            }
            if failure != nil { return }
        }
    }

    /// Creates an object of the new schema from property values (name → value; links as
    /// `MigrationObject`s of the new schema; lists as arrays; maps as dictionaries).
    @discardableResult
    public func create(_ typeName: String, value: [String: Any] = [:]) -> MigrationObject {
        do { return try tryCreate(typeName, value: value) } catch {
            record(error)
            return MigrationObject(migration: self, txn: runner.newTxn, className: typeName, key: -1, writable: true)
        }
    }

    /// `create` that throws.
    @discardableResult
    public func tryCreate(_ typeName: String, value: [String: Any] = [:]) throws -> MigrationObject {
        let k = try runner.create(typeName, value)
        return MigrationObject(migration: self, txn: runner.newTxn, className: typeName, key: k, writable: true)
    }

    /// Deletes an object of the new schema.
    public func delete(_ object: MigrationObject) {
        guard object.writable else { record(MigrationError.invalidOperation("delete takes the new object; old objects are read-only")); return }
        do {
            if try runner.newTxn.exists(object.className, object.key) { try runner.newTxn.delete(object.className, object.key) }
        } catch { record(error) }
    }

    /// Deletes every object of `typeName`; a class that is not in the new schema is removed from
    /// the file. Returns false when neither the file nor the new schema has such a class.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        do { return try runner.deleteData(typeName) } catch { record(error); return false }
    }

    /// Moves the values of property `oldName` (old schema) into `newName` (new schema) for every
    /// object of `className`, converting them when the types differ.
    public func renameProperty(onType className: String, from oldName: String, to newName: String) {
        do { try runner.rename(className, from: oldName, to: newName) } catch { record(error) }
    }
}

/// An object inside a migration (RealmSwift's `MigrationObject`/`DynamicObject`): properties by
/// name. `object["name"]` reads Swift values (Int, Double, String, Data, Date, …; a link is a
/// `MigrationObject`; a list or set an array; a map a dictionary; null is nil) and, for new
/// objects, sets them. `value(_:)`/`set(_:_:)` are the `Value`-typed equivalents.
@dynamicMemberLookup
public final class MigrationObject: CustomStringConvertible {
    unowned let migration: Migration
    let txn: DBTransaction
    /// The class of the object.
    public let className: String
    /// The object key (stable for objects whose primary key is unchanged).
    public let key: ObjKey
    /// False for the old objects (read-only).
    public let writable: Bool

    init(migration: Migration, txn: DBTransaction, className: String, key: ObjKey, writable: Bool) {
        self.migration = migration; self.txn = txn; self.className = className; self.key = key; self.writable = writable
    }

    /// The class's schema (old or new).
    public var objectSchema: ObjectSchema { txn.schema[className] ?? ObjectSchema(className: className, properties: []) }

    /// True when the object was deleted in this migration.
    public var isInvalidated: Bool { (try? txn.exists(className, key)) != true }

    /// The value of a property as a `Value` (collections: use the subscript).
    public func value(_ name: String) throws -> Value { try txn.value(className, key, name) }

    /// Sets a property of a new object (`Value`s; lists and maps as `setList`/`setMap` take them).
    public func set(_ name: String, _ value: Value) throws {
        guard writable else { throw MigrationError.invalidOperation("'\(className).\(name)': old objects are read-only; set the new object") }
        try migration.runner.set(className, key, name, value)
    }

    /// A property of the object by name, as a Swift value (`Int`, `String`, `Date`, a `MigrationObject` for links, …); setting it works on new objects only.
    public subscript(name: String) -> Any? {
        get {
            do { return try get(name) } catch { migration.record(error); return nil }
        }
        set {
            do { try setAny(name, newValue) } catch { migration.record(error) }
        }
    }

    /// `old.name` / `new.name = x`: the subscript by name (RealmSwift's dynamic member lookup).
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    /// The file's name of property `name`: new objects also take the Swift property name of a
    /// class that maps names (`propertiesMapping()`), as RealmSwift's new objects do (old
    /// objects, of the file's schema, take the file's names).
    func persistedName(_ name: String) -> String {
        guard writable, txn.schema[className]?[name] == nil,
              let os = txn.schema[className],
              let type = ClassInfo.allKnown.first(where: { $0.className == className && $0.objectSchema == os })?.type,
              let mapped = type.propertiesMapping()[name] else { return name }
        return mapped
    }

    /// Reads a property as a Swift value; throws for an unknown property.
    public func get(_ propertyName: String) throws -> Any? {
        let name = persistedName(propertyName)
        guard let p = txn.schema[className]?[name] else { throw ObjectError.unknownProperty(className: className, property: name) }
        switch p.collection {
        case .single: return swiftValue(try txn.value(className, key, name))
        case .list, .set: return try txn.list(className, key, name).map { swiftValue($0) }
        case .map:
            var out: [String: Any?] = [:]
            for e in try txn.map(className, key, name) { out[e.key] = swiftValue(e.value) }
            return out
        }
    }

    /// Sets a property from a Swift value (see the subscript).
    public func setAny(_ propertyName: String, _ any: Any?) throws {
        let name = persistedName(propertyName)
        guard writable else { throw MigrationError.invalidOperation("'\(className).\(name)': old objects are read-only; set the new object") }
        guard let p = txn.schema[className]?[name] else { throw ObjectError.unknownProperty(className: className, property: name) }
        switch p.collection {
        case .single: try migration.runner.set(className, key, name, try MigrationObject.toValue(any, "'\(className).\(name)'", migration.runner))
        case .list, .set:
            guard let arr = any as? [Any?] ?? (any as? [Any]).map({ $0.map { Optional($0) } }) else {
                throw ObjectError.wrongType("'\(className).\(name)'", expected: "an array", got: "\(type(of: any))")
            }
            try migration.runner.setCollection(className, key, p, elements: try arr.map { try MigrationObject.toValue($0, "an element of '\(className).\(name)'", migration.runner) })
        case .map:
            guard let dict = any as? [String: Any?] ?? (any as? [String: Any]).map({ $0.mapValues { Optional($0) } }) else {
                throw ObjectError.wrongType("'\(className).\(name)'", expected: "a dictionary", got: "\(type(of: any))")
            }
            try migration.runner.setCollection(className, key, p, entries: try dict.map { ($0.key, try MigrationObject.toValue($0.value, "value '\($0.key)' of '\(className).\(name)'", migration.runner)) })
        }
    }

    func swiftValue(_ v: Value) -> Any? {
        v.swiftValue { MigrationObject(migration: migration, txn: txn, className: $0.className, key: $0.key, writable: writable) }
    }

    static func toValue(_ any: Any?, _ what: String, _ runner: MigrationRunner) throws -> Value {
        if let m = any as? MigrationObject {
            guard m.writable else { throw MigrationError.invalidOperation("\(what): link to the new object, not the old one") }
            return .object(ObjectLink(className: m.className, key: m.key))
        }
        if let o = any as? ObjectBase {
            // An object from outside the migration (unmanaged, or of a realm): created in the
            // realm being migrated with its values, as RealmSwift's migration objects do.
            // The same instance assigned again links to the object made the first time (RealmSwift
            // manages the instance then).
            if let (_, link) = runner.createdFrom[ObjectIdentifier(o)], (try? runner.newTxn.exists(link.className, link.key)) == true {
                return .object(link)
            }
            let c = ClassInfo.of(type(of: o)).className
            guard runner.stored[c]?.isEmbedded != true else {
                throw MigrationError.invalidOperation("\(what): an embedded \(c) cannot be created on its own; assign a dictionary of its values")
            }
            let link = ObjectLink(className: c, key: try runner.create(c, MigrationRunner.storedValues(of: o)))
            runner.createdFrom[ObjectIdentifier(o)] = (o, link)
            return .object(link)
        }
        guard let v = anyToValue(any) else { throw ObjectError.wrongType(what, expected: "a property value", got: "\(type(of: any))") }
        return v
    }

    public var description: String {
        let values = (try? txn.values(className, key)) ?? [:]
        return "\(className) {\n" + values.keys.sorted().map { "  \($0) = \(values[$0]!)" }.joined(separator: "\n") + "\n}"
    }
}

// MARK: - the engine

/// Runs one migration inside one write transaction. Old data is read through a read
/// transaction pinned at the version the write transaction starts from (its blocks cannot be
/// reused before this transaction commits), so old objects stay readable while the new layout
/// is written.
final class MigrationRunner {
    let oldSchema: Schema
    let wanted: Schema
    /// The schema stored at the end: the wanted classes plus the file's other classes.
    private(set) var stored: Schema
    let oldTxn: DBTransaction
    let newTxn: DBTransaction
    let write: WriteTransaction
    /// Classes rewritten in the new layout (their definition changed).
    private(set) var rewritten: Set<String> = []
    /// Classes whose indexes (and for an Int primary key, object keys) are rebuilt at the end.
    private(set) var reindex: Set<String> = []
    /// Classes not in the new schema that `deleteData` removed.
    private(set) var deletedClasses: Set<String> = []
    private var tempKey: Int64 = 1 << 62
    /// Objects from outside the migration assigned to new objects, by identity (kept alive so
    /// the identity is not reused), with the object each became.
    var createdFrom: [ObjectIdentifier: (ObjectBase, ObjectLink)] = [:]

    init(oldSchema: Schema, wanted: Schema, oldRead: ReadTransaction, write: WriteTransaction) {
        self.oldSchema = oldSchema
        self.wanted = wanted
        self.write = write
        var classes = wanted.objectSchemas
        for os in oldSchema.objectSchemas where wanted[os.className] == nil { classes.append(os) }
        stored = Schema(classes)
        oldTxn = DBTransaction(storage: oldRead, schema: oldSchema)
        newTxn = DBTransaction(storage: write, schema: stored)
    }

    // MARK: layout

    /// Rewrites every class whose definition changed into the new layout.
    func rewriteChangedClasses() throws {
        for os in wanted.objectSchemas {
            guard let old = oldSchema[os.className], old != os else { continue }
            rewritten.insert(os.className)
            reindex.insert(os.className)
        }
        // Drop the old trees first (their blocks stay readable through the old snapshot).
        let names = try write.treeNames()
        for c in rewritten {
            try write.dropTree("c/" + c)
            for n in names where n.hasPrefix("i/\(c)/") { try write.dropTree(n) }
        }
        // Rows first (every class), then collections (which may link to any rewritten class).
        var collections: [(String, ObjKey, PropertySchema, PropertySchema)] = []
        for c in rewritten.sorted() {
            let old = oldSchema[c]!, new = stored[c]!
            let t = try newTxn.table(c)
            for k in try oldTxn.objectKeys(c) {
                let values = try oldTxn.values(c, k)
                var row: [Value] = []
                row.reserveCapacity(t.columns.count)
                for p in t.columns {
                    if p.collection != .single { row.append(.null); continue }
                    if let op = old[p.name], op.isStored, let v = values[p.name] {
                        row.append(convert(v, from: op, to: p, in: t))
                    } else { row.append(t.defaultValue(p)) }
                }
                try t.insert(key: k, values: row)
                t.changeCounts.inserted += 1
                for p in new.storedProperties where p.collection != .single {
                    if let op = old[p.name], op.isStored, op.collection != .single { collections.append((c, k, op, p)) }
                }
            }
        }
        for (c, k, op, p) in collections { try copyCollection(c, k, from: op, to: p, oldName: op.name) }
    }

    /// Copies a collection of an old object into property `p` of the new one (converted).
    private func copyCollection(_ c: String, _ k: ObjKey, from op: PropertySchema, to p: PropertySchema, oldName: String) throws {
        let t = try newTxn.table(c)
        if op.collection == .map && p.collection == .map {
            let entries = try oldTxn.map(c, k, oldName).map { ($0.key, convert($0.value, from: op, to: p, in: t, element: true)) }
            try rawSetCollection(c, k, p, elements: entries.map(\.1), keys: entries.map(\.0))
        } else if op.collection != .map && p.collection != .map {
            let els = try oldTxn.list(c, k, oldName).map { convert($0, from: op, to: p, in: t, element: true) }
            try rawSetCollection(c, k, p, elements: els, keys: nil)
        }
    }

    /// Converts an old value for a property whose type may have changed.
    func convert(_ v: Value, from op: PropertySchema, to p: PropertySchema, in t: ClassTable, element: Bool = false) -> Value {
        let def: Value = (p.isOptional || p.type == .mixed || p.type == .object) ? .null : t.defaultValue(p)
        if !element && (op.collection != .single) != (p.collection != .single) { return def }
        if case .null = v { return def }
        if op.type == p.type && (p.type != .object || op.objectClassName == p.objectClassName) { return v }
        if p.type == .mixed { return v }
        if let c = try? ValueCodec.coerce(v, to: p.type, optional: true, target: p.objectClassName, where: "") { return c }
        switch (p.type, v) {
        case (.string, .object), (.string, .data): return def
        case (.string, _): return .string(v.description)
        case (.int, .string(let s)): return Int64(s.trimmingCharacters(in: .whitespaces)).map { .int($0) } ?? def
        case (.int, .double(let d)): return d.rounded() == d && abs(d) < 9e18 ? .int(Int64(d)) : def
        case (.int, .float(let f)): return f.rounded() == f && abs(f) < 9e18 ? .int(Int64(f)) : def
        case (.int, .bool(let b)): return .int(b ? 1 : 0)
        case (.double, .string(let s)): return Double(s).map { .double($0) } ?? def
        case (.float, .string(let s)): return Float(s).map { .float($0) } ?? def
        case (.bool, .int(let i)): return .bool(i != 0)
        case (.bool, .string(let s)): return s == "true" ? .bool(true) : s == "false" ? .bool(false) : def
        case (.objectId, .string(let s)): return (try? ObjectId(string: s)).map { .objectId($0) } ?? def
        case (.uuid, .string(let s)): return UUID(uuidString: s).map { .uuid($0) } ?? def
        case (.decimal128, .string(let s)): return (try? Decimal128(string: s)).map { .decimal($0) } ?? def
        default: return def
        }
    }

    // MARK: writing during the block

    /// Sets a single value (classes being rebuilt are written without index maintenance; the
    /// indexes are rebuilt at the end, so primary keys may be changed here).
    func set(_ c: String, _ k: ObjKey, _ name: String, _ value: Value) throws {
        guard let p = stored[c]?[name] else { throw ObjectError.unknownProperty(className: c, property: name) }
        if p.collection != .single {
            guard case .null = value else { throw ObjectError.notACollection("'\(c).\(name)' is a collection: set it with an array or dictionary") }
            try rawSetCollection(c, k, p, elements: [], keys: p.collection == .map ? [] : nil)
            return
        }
        if p.isPrimaryKey { reindex.insert(c) }
        if reindex.contains(c) {
            let v = try newTxn.coerce(c, name, value)
            let t = try newTxn.table(c)
            if p.type == .object, let target = p.objectClassName, stored[target]?.isEmbedded == true,
               case .object(let old) = try newTxn.value(c, k, name), v != .object(old) {
                try newTxn.delete(target, old.key)
            }
            try t.set(key: k, column: try t.columnIndex(name), value: v)
            t.changeCounts.modified += 1
        } else {
            try newTxn.set(c, k, name, value)
        }
    }

    func setCollection(_ c: String, _ k: ObjKey, _ p: PropertySchema, elements: [Value]) throws {
        if reindex.contains(c) {
            let vs = try elements.map { try ValueCodec.coerce($0, to: p.type, optional: p.isOptional, target: p.objectClassName, where: "an element of '\(c).\(p.name)'") }
            try rawSetCollection(c, k, p, elements: vs, keys: nil)
        } else { try newTxn.setList(c, k, p.name, elements) }
    }

    func setCollection(_ c: String, _ k: ObjKey, _ p: PropertySchema, entries: [(String, Value)]) throws {
        if reindex.contains(c) {
            var dict: [String: Value] = [:]
            for (key, v) in entries { dict[key] = try ValueCodec.coerce(v, to: p.type, optional: p.isOptional, target: p.objectClassName, where: "value '\(key)' of '\(c).\(p.name)'") }
            let keys = dict.keys.sorted()
            try rawSetCollection(c, k, p, elements: keys.map { dict[$0]! }, keys: keys)
        } else { try newTxn.setMap(c, k, p.name, entries) }
    }

    /// Stores a collection without validation (values already of the element type).
    private func rawSetCollection(_ c: String, _ k: ObjKey, _ p: PropertySchema, elements: [Value], keys: [String]?) throws {
        var values = elements
        if p.collection == .set { var seen = Set<Value>(); values = values.filter { seen.insert($0).inserted } }
        if !p.isOptional && p.type != .mixed && p.type != .object { values = values.filter { !$0.isNull } }
        let col = MutableColumn.empty(ColumnLayout.of(p.type), fixedWidth: ColumnLayout.fixedWidth(p.type))
        for v in values { ValueCodec.append(v, to: col, type: p.type) }
        let t = try newTxn.table(c)
        try t.setCollection(key: k, column: try t.columnIndex(p.name), CollectionValue(elements: col, mapKeys: keys))
    }

    /// Creates an object of the new schema.
    /// The stored values of an object from outside the migration, by persisted name (lists and
    /// sets as arrays, maps as dictionaries; values the object does not hold are left out).
    static func storedValues(of o: ObjectBase) -> [String: Any] {
        let type = Swift.type(of: o)
        let info = ClassInfo.of(type)
        var swiftNames: [String: String] = [:]
        for (swift, persisted) in type.propertiesMapping() { swiftNames[persisted] = swift }
        var d: [String: Any] = [:]
        for p in info.properties where p.schema.isStored {
            guard let v = o[swiftNames[p.name] ?? p.name] else { continue }
            switch p.schema.collection {
            case .single: d[p.name] = v
            case .list, .set: d[p.name] = anyElements(v)
            case .map:
                if let m = v as? _UnmanagedMap, m._owner == nil {
                    var entries: [String: Any] = [:]
                    for (k, e) in m._entriesForAdd { entries[k] = e }
                    d[p.name] = entries
                } else if let m = v as? [String: Any] { d[p.name] = m }
            }
        }
        return d
    }

    /// The default values of `c`'s Swift class (what an unmanaged instance holds), when the
    /// new schema's class is declared in Swift.
    func defaultValues(_ c: String) -> [String: Any] {
        guard let os = wanted[c], !os.isEmbedded,
              let type = ClassInfo.allKnown.first(where: { $0.className == c && $0.objectSchema == os })?.type else { return [:] }
        // Embedded defaults are left out: an embedded object is created with its parent.
        return MigrationRunner.storedValues(of: type.init()).filter { !($0.value is EmbeddedObject) }
    }

    func create(_ c: String, _ given: [String: Any]) throws -> ObjKey {
        guard let os = stored[c], !deletedClasses.contains(c) else { throw SchemaError.noSuchClass(c) }
        if os.isEmbedded { throw ObjectError.embeddedObjectCreation(c) }
        // Values not given take the Swift class's defaults, as in RealmSwift.
        var value = given
        for (name, v) in defaultValues(c) where value[name] == nil { value[name] = v }
        var singles: [String: Value] = [:]
        var lists: [(PropertySchema, [Value])] = []
        var maps: [(PropertySchema, [(String, Value)])] = []
        for (name, any) in value {
            guard let p = os[name], p.isStored else { throw ObjectError.unknownProperty(className: c, property: name) }
            switch p.collection {
            case .single: singles[name] = try MigrationObject.toValue(any, "'\(c).\(name)'", self)
            case .list, .set:
                guard any is [Any] || any is _AnyElements else { throw ObjectError.wrongType("'\(c).\(name)'", expected: "an array", got: "\(type(of: any))") }
                lists.append((p, try anyElements(any).map { try MigrationObject.toValue($0, "an element of '\(c).\(name)'", self) }))
            case .map:
                guard let dict = any as? [String: Any] else { throw ObjectError.wrongType("'\(c).\(name)'", expected: "a dictionary", got: "\(type(of: any))") }
                maps.append((p, try dict.map { ($0.key, try MigrationObject.toValue($0.value, "value '\($0.key)' of '\(c).\(name)'", self)) }))
            }
        }
        let key: ObjKey
        if reindex.contains(c) {
            // Rebuilt at the end: no uniqueness check yet; an Int primary key is re-keyed then.
            let t = try newTxn.table(c)
            var row: [Value] = []
            for p in t.columns {
                if p.collection != .single { row.append(.null); continue }
                if let v = singles[p.name] { row.append(try newTxn.coerce(c, p.name, v)) } else {
                    if p.isPrimaryKey { throw ObjectError.missingPrimaryKey(className: c) }
                    row.append(t.defaultValue(p))
                }
            }
            if t.usesPrimaryKeyAsObjectKey { key = tempKey; tempKey += 1 } else { key = try t.newKey(primaryKey: nil) }
            try t.insert(key: key, values: row)
            t.changeCounts.inserted += 1
        } else {
            key = try newTxn.create(c, values: singles)
        }
        for (p, vs) in lists { try setCollection(c, key, p, elements: vs) }
        for (p, es) in maps { try setCollection(c, key, p, entries: es) }
        return key
    }

    func deleteData(_ c: String) throws -> Bool {
        let existed = oldSchema[c] != nil
        if wanted[c] != nil {
            // The class is in the realm being migrated (added by this migration or not).
            try newTxn.deleteAll(c)
            return true
        }
        guard existed, !deletedClasses.contains(c) else { return false }
        deletedClasses.insert(c)
        let names = try write.treeNames()
        try write.dropTree("c/" + c)
        for n in names where n.hasPrefix("i/\(c)/") { try write.dropTree(n) }
        _ = try newTxn.metaTree(create: true)?.delete(Array(("next/" + c).utf8))
        return true
    }

    func rename(_ c: String, from oldName: String, to newName: String) throws {
        guard let old = oldSchema[c] else { throw MigrationError.invalidOperation("renameProperty: the file has no class '\(c)'") }
        guard let new = wanted[c] else { throw MigrationError.invalidOperation("renameProperty: class '\(c)' is not in the new schema") }
        guard let op = old[oldName] else { throw MigrationError.invalidOperation("renameProperty: class '\(c)' had no property '\(oldName)'") }
        guard let np = new[newName] else { throw MigrationError.invalidOperation("renameProperty: the new schema of '\(c)' has no property '\(newName)'") }
        guard new[oldName] == nil else { throw MigrationError.invalidOperation("renameProperty: '\(c).\(oldName)' still exists in the new schema") }
        guard old[newName] == nil else { throw MigrationError.invalidOperation("renameProperty: '\(c).\(newName)' already existed in the old schema") }
        guard op.isStored && np.isStored else { return }
        let t = try newTxn.table(c)
        for k in try oldTxn.objectKeys(c) where try newTxn.exists(c, k) {
            if np.collection == .single {
                guard op.collection == .single else { continue }
                let v = convert(try oldTxn.value(c, k, oldName), from: op, to: np, in: t)
                try t.set(key: k, column: try t.columnIndex(newName), value: v)
            } else {
                try copyCollection(c, k, from: op, to: np, oldName: oldName)
            }
        }
    }

    // MARK: finishing

    /// Re-keys Int-primary-key classes whose keys no longer equal their primary keys, rebuilds
    /// the indexes of rebuilt classes and checks primary keys are unique.
    func finish() throws {
        var remapped: [String: [ObjKey: ObjKey]] = [:]
        for c in reindex.sorted() where !deletedClasses.contains(c) {
            guard let os = stored[c] else { continue }
            let t = try newTxn.table(c)
            if let pk = os.primaryKeyProperty, pk.type == .int {
                let col = try t.columnIndex(pk.name)
                var moves: [(ObjKey, ObjKey)] = []
                var seen = Set<ObjKey>()
                for k in try newTxn.objectKeys(c) {
                    let v = try rawValue(t, k, col)
                    let target: ObjKey = { if case .int(let i) = v { return i }; return Int64.min }()
                    guard seen.insert(target).inserted else {
                        throw ObjectError.duplicatePrimaryKey(className: c, value: v.description)
                    }
                    if target != k { moves.append((k, target)) }
                }
                if !moves.isEmpty {
                    try move(t, moves)
                    remapped[c] = Dictionary(uniqueKeysWithValues: moves)
                }
            }
        }
        if !remapped.isEmpty { try remapLinks(remapped) }
        for c in reindex.sorted() where !deletedClasses.contains(c) {
            guard let os = stored[c] else { continue }
            try rebuildIndexes(os)
        }
    }

    private func rawValue(_ t: ClassTable, _ k: ObjKey, _ col: Int) throws -> Value {
        guard let (tk, row) = try t.locate(key: k) else { throw ObjectError.noSuchObject(className: t.schema.className, key: k) }
        return try t.value(try t.cluster(tk), row: row, column: col)
    }

    /// Moves objects to new keys (all removed first, then inserted: chains and swaps work).
    private func move(_ t: ClassTable, _ moves: [(ObjKey, ObjKey)]) throws {
        let c = t.schema.className
        var saved: [(ObjKey, [Value], [(PropertySchema, [Value], [String]?)])] = []
        for (from, to) in moves {
            var row: [Value] = []
            var colls: [(PropertySchema, [Value], [String]?)] = []
            for (i, p) in t.columns.enumerated() {
                if p.collection == .single { row.append(try rawValue(t, from, i)); continue }
                row.append(.null)
                let (tk, r) = try t.locate(key: from)!
                let cv = try newTxn.decodeCollection(try t.collectionSlot(try t.cluster(tk), row: r, column: i), p)
                colls.append((p, (0..<cv.elements.count).map { ValueCodec.read(cv.elements, $0, type: p.type, target: p.objectClassName) }, cv.mapKeys))
            }
            saved.append((to, row, colls))
        }
        for (from, _) in moves { try t.delete(key: from) }
        for (to, row, colls) in saved.sorted(by: { $0.0 < $1.0 }) {
            try t.insert(key: to, values: row)
            for (p, els, keys) in colls { try rawSetCollection(c, to, p, elements: els, keys: keys) }
        }
    }

    /// Points every link (to-one, collections, AnyRealmValue) at the moved objects' new keys.
    private func remapLinks(_ remapped: [String: [ObjKey: ObjKey]]) throws {
        func fix(_ v: Value) -> Value? {
            if case .object(let l) = v, let nk = remapped[l.className]?[l.key] { return .object(ObjectLink(className: l.className, key: nk)) }
            return nil
        }
        for os in stored.objectSchemas where !deletedClasses.contains(os.className) {
            let props = os.storedProperties.filter { ($0.type == .object && remapped[$0.objectClassName ?? ""] != nil) || $0.type == .mixed }
            if props.isEmpty { continue }
            let c = os.className
            let t = try newTxn.table(c)
            for k in try newTxn.objectKeys(c) {
                for p in props {
                    let col = try t.columnIndex(p.name)
                    if p.collection == .single {
                        if let nv = fix(try rawValue(t, k, col)) { try t.set(key: k, column: col, value: nv) }
                        continue
                    }
                    let (tk, r) = try t.locate(key: k)!
                    let cv = try newTxn.decodeCollection(try t.collectionSlot(try t.cluster(tk), row: r, column: col), p)
                    let els = (0..<cv.elements.count).map { ValueCodec.read(cv.elements, $0, type: p.type, target: p.objectClassName) }
                    let fixed = els.map { fix($0) ?? $0 }
                    if fixed != els { try rawSetCollection(c, k, p, elements: fixed, keys: cv.mapKeys) }
                }
            }
        }
    }

    private func rebuildIndexes(_ os: ObjectSchema) throws {
        let c = os.className
        for n in try write.treeNames() where n.hasPrefix("i/\(c)/") { try write.dropTree(n) }
        let t = try newTxn.table(c)
        try Database.buildIndexes(c, columns: t.indexedColumns, of: t, in: write)
    }

    /// The schema stored in the file after the migration.
    var finalSchema: Schema { Schema(stored.objectSchemas.filter { !deletedClasses.contains($0.className) }) }
}

extension Database {
    /// True when `wanted` differs from `file` only in which properties are indexed (applied
    /// without a schema-version bump, as RealmSwift does).
    static func onlyIndexesDiffer(file: Schema, wanted: Schema) -> Bool {
        differences(file: file, wanted: withIndexes(of: file, wanted)).isEmpty
    }

    /// `wanted` with the index flag of every property the file has taken from the file.
    static func withIndexes(of file: Schema, _ wanted: Schema) -> Schema {
        Schema(wanted.objectSchemas.map { w in
            guard let f = file[w.className] else { return w }
            var o = w
            o.allProperties = w.allProperties.map { p in
                guard let fp = f[p.name], !p.isPrimaryKey else { return p }
                var q = p; q.isIndexed = fp.isIndexed; return q
            }
            return o
        })
    }

    /// Builds the index trees of the properties `new` indexes and `old` does not, and drops
    /// those of the properties `old` indexes and `new` does not, in `w` (classes of both; the
    /// columns must be the same). The classes' clusters are only read. Returns whether any
    /// index changed.
    static func changeIndexes(from old: Schema, to new: Schema, in w: WriteTransaction) throws -> Bool {
        var changed = false
        let txn = DBTransaction(storage: w, schema: new)
        for n in new.objectSchemas {
            guard let o = old[n.className] else { continue }
            let before = ClassLayout(o), after = ClassLayout(n)
            let had = Set(before.indexedColumns.map { before.columns[$0].name })
            let has = Set(after.indexedColumns.map { after.columns[$0].name })
            for name in had.subtracting(has).sorted() {
                try w.dropTree(DBTransaction.indexTreeName(n.className, name))
                changed = true
            }
            let build = after.indexedColumns.filter { !had.contains(after.columns[$0].name) }
            if build.isEmpty { continue }
            changed = true
            let t = try txn.table(n.className)
            // None expected: a tree left by an older build would hold stale entries.
            for column in build { try w.dropTree(DBTransaction.indexTreeName(n.className, t.columns[column].name)) }
            try buildIndexes(n.className, columns: build, of: t, in: w)
        }
        return changed
    }

    /// Builds the index trees of `columns` of class `className` (table `t`) in `w`, in one pass
    /// over its objects (the trees must not exist yet). A value repeated in the primary-key
    /// column is `ObjectError.duplicatePrimaryKey`. Used by migrations and index changes.
    static func buildIndexes(_ className: String, columns: [Int], of t: ClassTable, in w: WriteTransaction) throws {
        guard !columns.isEmpty else { return }
        var trees: [Int: BTree] = [:]
        for i in columns { trees[i] = try w.tree(DBTransaction.indexTreeName(className, t.columns[i].name), create: true)! }
        var seenPK = Set<Value>()
        try t.forEachCluster { cl in
            for r in 0..<cl.count {
                let k = cl.key(r)
                for i in columns {
                    let v = try t.value(cl, row: r, column: i)
                    if i == t.pkColumn, !seenPK.insert(v).inserted { throw ObjectError.duplicatePrimaryKey(className: className, value: v.description) }
                    try trees[i]!.put(IndexKey.key(v, k), bytes: [])
                }
            }
            return true
        }
    }

    /// Whether opening `file` (at `fileVersion`) with `wanted` at `version` needs a migration
    /// (`deleteRealmIfMigrationNeeded` deletes the file then).
    public static func migrationNeeded(file: Schema?, fileVersion: UInt64, wanted: Schema, version: UInt64) -> Bool {
        guard let file else { return false }
        return fileVersion != version || !differences(file: file, wanted: wanted).isEmpty && !onlyIndexesDiffer(file: file, wanted: wanted)
    }

    /// Brings the file to `wanted` at `version`: writes the schema of a new file, adds new
    /// classes, builds or drops the indexes that were added or removed (the classes' data
    /// untouched), or migrates (see `Migration`).
    /// Everything happens in one write transaction, decided again under the writer lock
    /// (another process may have migrated meanwhile); any error aborts it and leaves the file
    /// unchanged. Returns the schema version and the schema the file holds afterwards.
    static func prepare(store: Store, wanted: Schema, version: UInt64, migrationBlock: MigrationBlock?) throws -> (version: UInt64, stored: Schema?) {
        let (fileSchema, fileVersion) = try readSchema(store)
        if let fileSchema {
            if version < fileVersion { throw MigrationError.schemaVersionDecreased(path: store.path, fileVersion: fileVersion, configuredVersion: version) }
            let diffs = differences(file: fileSchema, wanted: wanted)
            let added = wanted.objectSchemas.filter { fileSchema[$0.className] == nil }
            if version == fileVersion {
                if !diffs.isEmpty && !onlyIndexesDiffer(file: fileSchema, wanted: wanted) { throw SchemaError.migrationRequired(diffs) }
                // A read-only handle reads by the file's indexes (see `Database.init`); classes
                // the file lacks read as empty.
                if store.isReadOnly || (added.isEmpty && diffs.isEmpty) { return (fileVersion, fileSchema) }
            } else if store.isReadOnly {
                throw MigrationError.readOnly(path: store.path, reason: "schema version \(fileVersion) → \(version)" + (diffs.isEmpty ? "" : ": " + diffs.joined(separator: "; ")))
            }
        } else if store.isReadOnly { return (0, nil) }

        let w = try store.beginWrite(label: "migration")
        var oldRead: ReadTransaction?
        do {
            // Under the writer lock: the newest schema (maybe changed by another process).
            let (fileSchema, fileVersion) = try storedSchema(w)
            func putSchema(_ s: Schema, _ v: UInt64) throws { try Database.putSchema(s, version: v, in: w) }
            guard let old = fileSchema else {
                try putSchema(wanted, version)
                try w.commit()
                return (version, wanted)
            }
            if version < fileVersion { throw MigrationError.schemaVersionDecreased(path: store.path, fileVersion: fileVersion, configuredVersion: version) }
            let diffs = differences(file: old, wanted: wanted)
            if version == fileVersion {
                if !diffs.isEmpty && !onlyIndexesDiffer(file: old, wanted: wanted) { throw SchemaError.migrationRequired(diffs) }
                let added = wanted.objectSchemas.filter { old[$0.className] == nil }
                if added.isEmpty && diffs.isEmpty { w.abort(); return (fileVersion, old) }
                // Classes added, and indexes added or removed (RealmSwift needs no migration
                // and runs no block for that): only the changed indexes' trees are built or
                // dropped, the classes' clusters stay as they are, and the file's property
                // order is kept. Other handles adopt the new index flags (see `confirmSchema`).
                let stored = Schema(withIndexes(of: wanted, old).objectSchemas + added)
                let changed = try changeIndexes(from: old, to: stored, in: w)
                try putSchema(stored, fileVersion)
                if changed { w.note = Array("index change".utf8) }
                try w.commit()
                return (fileVersion, stored)
            }
            // A migration: the changed classes are rebuilt. The old version stays pinned by
            // `oldRead` until the commit.
            oldRead = try store.beginRead(label: "migration (old schema)")
            let runner = MigrationRunner(oldSchema: old, wanted: wanted, oldRead: oldRead!, write: w)
            try runner.rewriteChangedClasses()
            if let migrationBlock {
                let m = Migration(runner: runner)
                try migrationBlock(m, fileVersion)
                if let f = m.failure { throw f }
            }
            try runner.finish()
            try runner.newTxn.flush()
            let stored = runner.finalSchema
            try putSchema(stored, version)
            w.note = Array("migration \(fileVersion) → \(version)".utf8)
            try w.commit()
            oldRead?.end()
            return (version, stored)
        } catch {
            if w.isActive { w.abort() }
            oldRead?.end()
            throw error
        }
    }
}

extension Value {
    /// The stored value as the Swift value the dynamic and migration APIs hand out; `link` turns
    /// a link into the object type of the caller (`MigrationObject`, `DynamicObject`).
    func swiftValue(link: (ObjectLink) -> Any) -> Any? {
        switch self {
        case .null: return nil
        case .bool(let b): return b
        case .int(let i): return Int(i)
        case .float(let f): return f
        case .double(let d): return d
        case .string(let s): return s
        case .data(let d): return Data(d)
        case .date(let t): return t.date
        case .objectId(let o): return o
        case .uuid(let u): return u
        case .decimal(let d): return d
        case .object(let l): return link(l)
        }
    }
}
