import Foundation

/// An object read by class and property *names* instead of a Swift model class (RealmSwift's
/// `DynamicObject`): what `realm.dynamicObjects(_:)`, `dynamicObject(ofType:forPrimaryKey:)` and
/// `dynamicCreate(_:value:update:)` return. It works on any class of the file's schema, whether
/// or not the app declares a model for it, through the dynamic `DBTransaction` API (the same
/// one the browser and migrations use).
///
/// `object["name"]` and `object.name` read Swift values (Int, Double, String, Data, Date,
/// ObjectId, …; a link is a `DynamicObject`; a list or set an array; a map a `[String: Any?]`;
/// null is nil) and, inside a write transaction, set them. Reading a property the class does not
/// have, or writing outside a write transaction, is a programmer error as in RealmSwift.
///
/// `dynamicList(_:)`, `dynamicMutableSet(_:)` and `dynamicMap(_:)` return live
/// `List`/`MutableSet`/`Map` of `DynamicObject`s, as in RealmSwift.
@dynamicMemberLookup
public final class DynamicObject: Object {
    /// The class in the file (set when the object is made by the realm).
    final var _dynamicClassName = ""

    public required init() { super.init() }

    /// Makes this object one of class `className` (its class info names the file's class).
    final func bind(className: String, schema: ObjectSchema?) {
        _dynamicClassName = className
        _rlmInfoCache = ClassInfo(dynamicClass: className, objectSchema: schema ?? ObjectSchema(className: className, properties: []))
    }

    /// The name of the object's class in the file.
    public var dynamicClassName: String { _dynamicClassName }

    private var core: RealmCore {
        guard let c = _rlmCore else { strataProgrammerError("a DynamicObject is only obtained from a realm (dynamicObjects, dynamicCreate)") }
        if c.readEpoch != _rlmEpoch { c.invalidatedAccess("object of type \(_dynamicClassName) which has been invalidated or deleted") }
        return c
    }

    private func property(_ name: String) -> PropertySchema {
        guard let p = core.coordinator.db.schema[_dynamicClassName]?[name] else {
            strataProgrammerError("Invalid property name '\(name)' for class '\(_dynamicClassName)'")
        }
        return p
    }

    /// The schema of the object's class in the file.
    public override var objectSchema: ObjectSchema {
        core.coordinator.db.schema[_dynamicClassName] ?? ObjectSchema(className: _dynamicClassName, properties: [])
    }

    /// True when the object was deleted, or its realm invalidated.
    public override var isInvalidated: Bool {
        guard let c = _rlmCore else { return false }
        if c.readEpoch != _rlmEpoch { return true }
        return !c.read { txn in (try? txn.exists(_dynamicClassName, _rlmKey)) ?? false }
    }

    /// The stored values by property name.
    public override var description: String {
        guard let c = _rlmCore else { return "DynamicObject (unmanaged)" }
        if isInvalidated { return "[invalid object]" }
        let cls = _dynamicClassName, key = _rlmKey
        let values = c.read { txn in (try? txn.values(cls, key)) ?? [:] }
        return "\(cls) {\n" + values.keys.sorted().map { "\t\($0) = \(values[$0]!);" }.joined(separator: "\n") + "\n}"
    }

    /// Reads or (inside a write transaction) writes a property by name.
    public override subscript(key: String) -> Any? {
        get { strataTry { try dynamicValue(key) } }
        set {
            do { try setDynamicValue(newValue, forKey: key) } catch {
                // A storage error discarded the write (now or before): `commitWrite` throws it.
                if _rlmCore?.failedWrite != nil { return }
                strataTry { throw error }
            }
        }
    }

    /// `object.name` / `object.name = x`: the subscript by name.
    public subscript(dynamicMember member: String) -> Any? {
        get { self[member] }
        set { self[member] = newValue }
    }

    /// The list of links `propertyName` as a live `List` (RealmSwift's `dynamicList(_:)`):
    /// reading it reflects the current version; inside a write transaction `append`, `insert`,
    /// `remove` and `removeAll` change the file. Its elements are `DynamicObject`s of the
    /// property's target class.
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        List(owner: linkCollectionOwner(propertyName, expecting: .list))
    }

    /// The set of links `propertyName` as a live `MutableSet` (RealmSwift's
    /// `dynamicMutableSet(_:)`); `insert` and `remove` change the file inside a write transaction.
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        MutableSet(owner: linkCollectionOwner(propertyName, expecting: .set))
    }

    /// The map of links `propertyName` as a live `Map` (RealmSwift's `dynamicMap(_:)`; a null
    /// entry is nil); assigning `map[key]` changes the file inside a write transaction.
    public func dynamicMap(_ propertyName: String) -> Map<String, DynamicObject?> {
        Map(owner: linkCollectionOwner(propertyName, expecting: .map))
    }

    /// The owner of a collection of links, checked against the file's schema.
    private func linkCollectionOwner(_ name: String, expecting kind: CollectionKind) -> CollectionOwner {
        let p = property(name)
        let kindName = kind == .list ? "list" : kind == .set ? "set" : "map"
        guard p.collection == kind, p.type == .object, let target = p.objectClassName else {
            strataProgrammerError("Property '\(_dynamicClassName).\(name)' is not a \(kindName) of objects")
        }
        let c = core
        return CollectionOwner(core: c, className: _dynamicClassName, key: _rlmKey, property: name,
                               isEmbeddedTarget: c.coordinator.db.schema[target]?.isEmbedded == true)
    }

    func dynamicValue(_ name: String) throws -> Any? {
        let p = property(name)
        let c = core, cls = _dynamicClassName, key = _rlmKey
        return try c.readThrowing { txn -> Any? in
            switch p.collection {
            case .single: return c.dynamicSwiftValue(try txn.value(cls, key, name))
            case .list, .set: return try txn.list(cls, key, name).map { c.dynamicSwiftValue($0) }
            case .map:
                var out: [String: Any?] = [:]
                for e in try txn.map(cls, key, name) { out[e.key] = c.dynamicSwiftValue(e.value) }
                return out
            }
        }
    }

    func setDynamicValue(_ any: Any?, forKey name: String) throws {
        let p = property(name)
        if p.isPrimaryKey { throw ObjectError.primaryKeyChange(className: _dynamicClassName) }
        let cls = _dynamicClassName, key = _rlmKey
        let what = "'\(cls).\(name)'"
        let c = core
        // A value checked against the Swift type the app declares for the property, if any.
        func checked(_ v: Value) throws -> Value { try c.checkDeclaredRange(cls, name, v); return v }
        try c.writeThrowing { txn, adder in
            switch p.collection {
            case .single:
                if p.type == .object, let target = p.objectClassName, txn.schema[target]?.isEmbedded == true,
                   let dict = unwrapAny(any as Any) as? [String: Any] {
                    _ = try txn.setEmbedded(cls, key, name, try DynamicObject.values(dict, adder: adder, what: what))
                } else {
                    try txn.set(cls, key, name, try checked(DynamicObject.value(any, adder: adder, what: what)))
                }
            case .list, .set:
                guard let arr = DynamicObject.array(any) else { throw ObjectError.wrongType(what, expected: "an array", got: "\(type(of: any))") }
                try txn.setList(cls, key, name, try arr.map { try checked(DynamicObject.value($0, adder: adder, what: "an element of \(what)")) })
            case .map:
                guard let dict = DynamicObject.dictionary(any) else { throw ObjectError.wrongType(what, expected: "a dictionary", got: "\(type(of: any))") }
                try txn.setMap(cls, key, name, try dict.map { ($0.key, try checked(DynamicObject.value($0.value, adder: adder, what: "value '\($0.key)' of \(what)"))) })
            }
        }
    }

    // MARK: conversions

    static func array(_ any: Any?) -> [Any?]? {
        guard let any, let a = unwrapAny(any) else { return [] }
        if let arr = a as? [Any?] { return arr }
        if let arr = a as? [Any] { return arr.map { Optional($0) } }
        return nil
    }

    static func dictionary(_ any: Any?) -> [String: Any?]? {
        guard let any, let a = unwrapAny(any) else { return [:] }
        if let d = a as? [String: Any?] { return d }
        if let d = a as? [String: Any] { return d.mapValues { Optional($0) } }
        return nil
    }

    /// A Swift value as a stored `Value`; objects become links (unmanaged typed objects are added).
    static func value(_ any: Any?, adder: ObjectAdder, what: String) throws -> Value {
        if let any, let o = unwrapAny(any) as? ObjectBase {
            if let d = o as? DynamicObject {
                guard d._rlmCore?.coordinator === adder.core.coordinator else {
                    throw ObjectError.wrongType(what, expected: "objects of this realm", got: "an object of another realm")
                }
                return .object(ObjectLink(className: d._dynamicClassName, key: d._rlmKey))
            }
            return try o._strataEncode(_StrataContext(core: adder.core, adder: adder))
        }
        guard let v = anyToValue(any) else { throw ObjectError.wrongType(what, expected: "a property value", got: "\(type(of: any))") }
        return v
    }

    static func values(_ dict: [String: Any], adder: ObjectAdder, what: String) throws -> [String: Value] {
        var out: [String: Value] = [:]
        for (k, v) in dict { out[k] = try value(v, adder: adder, what: "'\(k)' of \(what)") }
        return out
    }
}

extension RealmCore {
    /// A `DynamicObject` for the object `key` of `className`.
    func makeDynamicObject(className: String, key: ObjKey) -> DynamicObject {
        let o = makeObject(DynamicObject.self, key: key)
        o.bind(className: className, schema: coordinator.db.schema[className])
        return o
    }

    /// `makeObject` for results of a named class (a `DynamicObject` learns its class name).
    func makeObject<T: ObjectBase>(_ type: T.Type, key: ObjKey, className: String) -> T {
        let o = makeObject(type, key: key)
        (o as? DynamicObject)?.bind(className: className, schema: coordinator.db.schema[className])
        return o
    }

    /// A stored value as the Swift value the dynamic API hands out (links as `DynamicObject`s).
    func dynamicSwiftValue(_ v: Value) -> Any? {
        v.swiftValue { makeDynamicObject(className: $0.className, key: $0.key) }
    }
}

extension Realm {
    private func requireDynamicClass(_ typeName: String) -> ObjectSchema {
        guard let os = schema[typeName] else {
            strataProgrammerError("Object type '\(typeName)' is not managed by the Realm: the file's schema has no such class")
        }
        return os
    }

    /// Every object of the class named `typeName`, as `DynamicObject`s (RealmSwift's
    /// `dynamicObjects(_:)`). Filter and sort them with query strings like typed `Results`.
    public func dynamicObjects(_ typeName: String) -> Results<DynamicObject> {
        _ = requireDynamicClass(typeName)
        return Results(core: core, className: typeName, base: .all, stages: [])
    }

    /// The object of class `typeName` with primary key `key`, or nil (RealmSwift's
    /// `dynamicObject(ofType:forPrimaryKey:)`).
    public func dynamicObject(ofType typeName: String, forPrimaryKey key: Any) -> DynamicObject? {
        let os = requireDynamicClass(typeName)
        guard os.primaryKeyProperty != nil else {
            strataProgrammerError("'\(typeName)' does not have a primary key")
        }
        guard let v = anyToValue(key) else { strataProgrammerError("\(type(of: key)) cannot be a primary key") }
        let k: ObjKey? = core.read { txn in strataTry { try txn.find(typeName, primaryKey: v) } }
        return k.map { core.makeDynamicObject(className: typeName, key: $0) }
    }

    /// Creates (or with `update` other than `.error`, updates) an object of class `typeName`
    /// from a dictionary of property values by name, or an array in the class's property order
    /// (RealmSwift's `dynamicCreate(_:value:update:)`). Links are `DynamicObject`s, typed objects
    /// or dictionaries; lists and sets arrays; maps dictionaries. Must run in a write transaction.
    /// A storage error while creating discards the write as for any failed change (`commitWrite`
    /// and `write` throw it); the object returned is then invalidated (`isInvalidated`), like
    /// the objects added in that write (a `DynamicObject` has no unmanaged form).
    @discardableResult
    public func dynamicCreate(_ typeName: String, value: Any = [String: Any](), update: UpdatePolicy = .error) -> DynamicObject {
        let os = requireDynamicClass(typeName)
        if os.isEmbedded { strataProgrammerError("Embedded objects cannot be created directly: assign them to a property of their parent") }
        let k: ObjKey = core.write2(ifWriteFailed: Int64.min) { txn, adder in
            var given: [String: Any?] = [:]
            if let d = DynamicObject.dictionary(value), !(unwrapAny(value) is [Any]) {
                given = d
            } else if let arr = DynamicObject.array(value) {
                let props = os.properties.filter { $0.type != .linkingObjects }
                guard arr.count <= props.count else {
                    throw ObjectError.wrongType("the value of '\(typeName)'", expected: "at most \(props.count) values", got: "\(arr.count)")
                }
                for (p, v) in zip(props, arr) { given[p.name] = v }
            } else {
                throw ObjectError.wrongType("the value of '\(typeName)'", expected: "a dictionary or an array", got: "\(type(of: value))")
            }
            var singles: [String: Value] = [:], embedded: [String: [String: Value]] = [:]
            var collections: [String: [Value]] = [:], maps: [String: [(String, Value)]] = [:]
            for (name, any) in given {
                guard let p = os[name] else { throw ObjectError.unknownProperty(className: typeName, property: name) }
                let what = "'\(typeName).\(name)'"
                // A value checked against the Swift type the app declares for the property, if any.
                func checked(_ v: Value) throws -> Value { try core.checkDeclaredRange(typeName, name, v); return v }
                switch p.collection {
                case .single:
                    if p.type == .object, let t = p.objectClassName, txn.schema[t]?.isEmbedded == true,
                       let any, let dict = unwrapAny(any) as? [String: Any] {
                        embedded[name] = try DynamicObject.values(dict, adder: adder, what: what)
                    } else if p.type == .object, let t = p.objectClassName, let any, let dict = unwrapAny(any) as? [String: Any] {
                        // A nested dictionary creates the linked object too.
                        let linked = Realm(core: core).dynamicCreate(t, value: dict, update: update)
                        singles[name] = .object(ObjectLink(className: t, key: linked._rlmKey))
                    } else {
                        singles[name] = try checked(DynamicObject.value(any, adder: adder, what: what))
                    }
                case .list, .set:
                    guard let arr = DynamicObject.array(any) else { throw ObjectError.wrongType(what, expected: "an array", got: "\(type(of: any))") }
                    collections[name] = try arr.map { try checked(DynamicObject.value($0, adder: adder, what: "an element of \(what)")) }
                case .map:
                    guard let dict = DynamicObject.dictionary(any) else { throw ObjectError.wrongType(what, expected: "a dictionary", got: "\(type(of: any))") }
                    maps[name] = try dict.map { ($0.key, try checked(DynamicObject.value($0.value, adder: adder, what: "value '\($0.key)' of \(what)"))) }
                }
            }
            return try txn.create(typeName, values: singles, update: update, embedded: embedded, collections: collections, maps: maps)
        }
        return core.makeDynamicObject(className: typeName, key: k)
    }
}

extension RealmCore {
    /// `writeThrowing` whose errors are programmer errors (RealmSwift's non-throwing writes),
    /// except a failed write (discarded, thrown by `commitWrite`): then `failed` is returned.
    func write2<R>(ifWriteFailed failed: R, _ body: (DBTransaction, ObjectAdder) throws -> R) -> R {
        do { return try writeThrowing(body) } catch {
            trapUnlessWriteFailed(error)
            return failed
        }
    }
}
