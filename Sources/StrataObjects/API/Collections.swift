import Foundation

/// The managed side of a collection property: which object and property it belongs to.
struct CollectionOwner {
    let core: RealmCore
    let className: String
    let key: ObjKey
    let property: String
    let isEmbeddedTarget: Bool
    /// The core's `readEpoch` when the collection was obtained (see `requireValid`).
    let epoch: Int

    /// `epoch` nil: the core's current one (a collection obtained now).
    init(core: RealmCore, className: String, key: ObjKey, property: String, isEmbeddedTarget: Bool, epoch: Int? = nil) {
        self.core = core; self.className = className; self.key = key; self.property = property
        self.isEmbeddedTarget = isEmbeddedTarget
        self.epoch = epoch ?? core.readEpoch
    }

    /// False once the realm was invalidated after the collection was obtained.
    var isCurrent: Bool { epoch == core.readEpoch }
    /// The same collection as obtained now (for observers, which outlive `invalidate()`).
    var current: CollectionOwner {
        isCurrent ? self : CollectionOwner(core: core, className: className, key: key, property: property, isEmbeddedTarget: isEmbeddedTarget)
    }
    /// Traps when the realm was invalidated after the collection was obtained (RealmSwift's
    /// invalidated collections).
    @inline(__always) func requireValid() {
        if epoch != core.readEpoch { core.invalidatedAccess("the collection '\(className).\(property)' which has been invalidated") }
    }

    /// The elements (list, set) as stored.
    func elements() -> [Value] {
        requireValid()
        return core.read { txn in strataTry { try txn.list(className, key, property) } }
    }
    func entries() -> [(key: String, value: Value)] {
        requireValid()
        return core.read { txn in strataTry { try txn.map(className, key, property) } }
    }
    /// The class of the collection's objects: `t.className()`, or for `DynamicObject` elements
    /// (`dynamicList(_:)` and its kin) the property's target class in the file.
    func objectClassName<T: ObjectBase>(_ t: T.Type) -> String {
        guard t is DynamicObject.Type else { return t.className() }
        return core.coordinator.db.schema[className]?[property]?.objectClassName ?? t.className()
    }
    func count() -> Int {
        requireValid()
        return core.read { txn in strataTry { isEmbeddedTarget ? try txn.list(className, key, property).count : try txn.collectionCount(className, key, property) } }
    }
}

/// Collections `ObjectAdder` can read while adding an unmanaged object.
protocol _UnmanagedCollection: AnyObject {
    var _elementsForAdd: [any _StrataValue] { get }
    var _owner: CollectionOwner? { get }
    /// Makes this unmanaged collection (of an object just added) the accessor of `owner`, so
    /// references the app kept from before the add read and write the realm, as in RealmSwift.
    func _becomeManaged(_ owner: CollectionOwner)
}
protocol _UnmanagedMap: AnyObject {
    var _entriesForAdd: [(String, any _StrataValue)] { get }
    var _owner: CollectionOwner? { get }
    /// See `_UnmanagedCollection._becomeManaged`.
    func _becomeManaged(_ owner: CollectionOwner)
}

private func ownerOf(_ object: ObjectBase, _ index: Int) -> CollectionOwner {
    object._rlmRequireValid()
    let info = object._rlmClassInfo
    let p = info.properties[index]
    return CollectionOwner(core: object._rlmCore!, className: info.className, key: object._rlmKey, property: p.name,
                           isEmbeddedTarget: p.targetType is EmbeddedObject.Type, epoch: object._rlmEpoch)
}

// MARK: - accessor cache

/// The managed collections a managed object caches (RealmSwift keeps one accessor per
/// `List`, `MutableSet` and `Map` property in the property's storage).
protocol _CachedCollection: AnyObject {
    init(owner: CollectionOwner)
    /// The key of the owning object (-1 while unmanaged).
    var _ownerKey: ObjKey { get }
}

/// The managed collection accessors of one managed object, by property index (see
/// `ObjectBase._rlmAccessors`). Its slots are set once each (a Results iterator that re-points
/// a reusable accessor at another row makes the object replace them on their next read).
final class _AccessorCache {
    let slots: UnsafeMutablePointer<AnyObject?>
    let count: Int
    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(1, count))
        slots.initialize(repeating: nil, count: count)
    }
    deinit { slots.deinitialize(count: count); slots.deallocate() }
    /// Serialises the first reads of collection properties of frozen objects (which any
    /// thread may read at once); other objects are confined to their thread.
    static let frozenLock = NSLock()
}

extension ObjectBase {
    /// The accessor of the collection property `index` of this managed object: the one made by
    /// the first read (or the unmanaged collection the object had when it was added), so every
    /// read of the property returns the same instance, as in RealmSwift. Traps when the object
    /// was invalidated.
    @inline(__always)
    final func _rlmCollectionAccessor<C: _CachedCollection>(_ index: Int, _ type: C.Type) -> C {
        _rlmRequireValid()
        if let cache = _rlmAccessors, let c = cache.slots[index] {
            let accessor = unsafeDowncast(c, to: C.self)
            if accessor._ownerKey == _rlmKey { return accessor }
        }
        return _rlmMakeCollectionAccessor(index, type)
    }

    @inline(never)
    private final func _rlmMakeCollectionAccessor<C: _CachedCollection>(_ index: Int, _: C.Type) -> C {
        let frozen = _rlmCore?.isFrozen ?? false
        if frozen { _AccessorCache.frozenLock.lock() }
        defer { if frozen { _AccessorCache.frozenLock.unlock() } }
        let cache = _rlmAccessorCache
        guard index < cache.count else { return C(owner: ownerOf(self, index)) }
        // Another thread read the property of this frozen object first.
        if let c = cache.slots[index], let accessor = c as? C, accessor._ownerKey == _rlmKey { return accessor }
        let accessor = C(owner: ownerOf(self, index))
        cache.slots[index] = accessor
        return accessor
    }

    /// This object's accessor cache, made on first use.
    private final var _rlmAccessorCache: _AccessorCache {
        if let c = _rlmAccessors { return c }
        let c = _AccessorCache(count: _rlmClassInfo.propertyCount)
        _rlmAccessors = c
        return c
    }

    /// Makes `collection` (an unmanaged collection of this object, just made the accessor of
    /// its property by `realm.add`) the accessor later reads of property `index` return.
    final func _rlmCacheAccessor(_ index: Int, _ collection: AnyObject) {
        guard index < _rlmClassInfo.propertyCount else { return }
        let cache = _rlmAccessorCache
        cache.slots[index] = collection
    }
}

/// Collections whose elements can be read as `Any` (to copy them into another collection).
protocol _AnyElements { var _anyElements: [Any] { get } }

/// RealmSwift's name of an element type in a collection's description (`RLMTypeToString`, or
/// the class name of objects).
private func collectionTypeName(_ t: any _StrataValue.Type) -> String {
    if let o = t._strataObjectType { return o.className() }
    return t._strataType == .objectId ? "object id" : t._strataType.description
}

/// An element's text in a collection's description: its own description, `<null>` for nil.
private func collectionElementDescription(_ v: Any) -> String {
    guard let u = unwrapAny(v) else { return "<null>" }
    if let c = u as? CustomStringConvertible { return c.description }
    return "\(u)"
}

/// RealmSwift's description of a list or set (`RLMDescriptionWithMaxDepth`): the type, the
/// address, then each element indented under its index; past 100 elements, how many were left out.
func collectionDescription(_ name: String, _ c: AnyObject, _ t: any _StrataValue.Type, elements: [Any]) -> String {
    var s = "\(name)<\(collectionTypeName(t))> <\(Unmanaged.passUnretained(c).toOpaque())> (\n"
    let maxObjects = 100
    for (i, e) in elements.prefix(maxObjects).enumerated() {
        s += "\t[\(i)] " + collectionElementDescription(e).replacingOccurrences(of: "\n", with: "\n\t") + ",\n"
    }
    if !elements.isEmpty { s.removeLast(2) }
    if elements.count > maxObjects { s += "\n\t... \(elements.count - maxObjects) objects skipped." }
    return s + "\n)"
}

/// RealmSwift's description of a map (`RLMDictionaryDescriptionWithMaxDepth`): the key and value
/// types, the address, then `[key]: value` per entry, nested lines indented.
func mapDescription<S: Sequence>(_ m: AnyObject, _ t: any _StrataValue.Type, entries: S) -> String where S.Element == (String, Any) {
    var s = "Map<string, \(collectionTypeName(t))> <\(Unmanaged.passUnretained(m).toOpaque())> (\n"
    var any = false
    for (k, v) in entries {
        s += "[\(k)]: \(collectionElementDescription(v))".replacingOccurrences(of: "\n", with: "\n\t") + ",\n"
        any = true
    }
    if any { s.removeLast(2) }
    return s + "\n)"
}

/// The elements of an array, list, set or results given as `Any`.
func anyElements(_ any: Any) -> [Any] {
    guard let u = unwrapAny(any) else { return [] }
    if let a = u as? [Any] { return a }
    if let c = u as? _AnyElements { return c._anyElements }
    return []
}

// MARK: - List

/// An ordered collection property (RealmSwift's `List`). Unmanaged, it is an in-memory array;
/// managed, it reads and writes the database (writes inside a write transaction).
public final class List<Element: RealmCollectionValue>: RandomAccessCollection, _AnyElements,
                                                      _Persistable, _UnmanagedCollection, _CachedCollection, CustomStringConvertible {
    var storage: [Element] = []
    private(set) var owner: CollectionOwner?
    var _owner: CollectionOwner? { owner }
    var _ownerKey: ObjKey { owner?.key ?? -1 }
    func _becomeManaged(_ owner: CollectionOwner) { self.owner = owner; storage = [] }

    /// An empty unmanaged list.
    public required init() { owner = nil }
    init(owner: CollectionOwner) { self.owner = owner }

    private var values: [Element] {
        guard let o = owner else { return storage }
        let ctx = _StrataContext(core: o.core)
        return o.elements().map { Element._strataDecode($0, ctx) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { owner?.count() ?? storage.count }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }

    /// The element at `position` (traps when out of bounds); setting replaces it.
    public subscript(position: Int) -> Element {
        get {
            guard let o = owner else { return storage[position] }
            let vs = o.elements()
            guard position >= 0 && position < vs.count else { strataProgrammerError("Index \(position) is out of bounds (must be less than \(vs.count))") }
            return Element._strataDecode(vs[position], _StrataContext(core: o.core))
        }
        set { replaceSubrange(position..<position + 1, with: [newValue]) }
    }

    /// Iterates over a snapshot of the elements.
    public func makeIterator() -> IndexingIterator<[Element]> { values.makeIterator() }

    /// Replaces a range of elements (every mutating method of the list goes through here).
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Element {
        guard let o = owner else { storage.replaceSubrange(subrange, with: newElements); return }
        var current = values
        guard subrange.lowerBound >= 0 && subrange.upperBound <= current.count else {
            strataProgrammerError("Index range \(subrange) is out of bounds (count \(current.count))")
        }
        current.replaceSubrange(subrange, with: newElements)
        o.requireValid()
        o.core.write { _, adder in try adder.replaceElements(o, current.map { $0 as any _StrataValue }) }
    }

    /// Appends an element (objects are added to the realm when the list is managed).
    public func append(_ object: Element) { replaceSubrange(endIndex..<endIndex, with: [object]) }
    /// Appends several elements.
    public func append<S: Sequence>(objectsIn objects: S) where S.Element == Element {
        let n = endIndex; replaceSubrange(n..<n, with: Array(objects))
    }
    /// Inserts an element at `index`.
    public func insert(_ object: Element, at index: Int) { replaceSubrange(index..<index, with: [object]) }
    /// Removes the element at `index`.
    public func remove(at index: Int) { replaceSubrange(index..<index + 1, with: []) }
    /// Removes every element.
    public func removeAll() { replaceSubrange(0..<endIndex, with: []) }
    /// Removes the first `number` elements (1 by default; traps when the list has fewer, as
    /// RealmSwift throws).
    public func removeFirst(_ number: Int = 1) {
        let n = endIndex
        guard number >= 0 else { strataProgrammerError("Cannot pass a negative value (\(number)).") }
        guard number <= n else { strataProgrammerError("It is not possible to remove more objects (\(number)) from a list than it already contains (\(n)).") }
        replaceSubrange(0..<number, with: [])
    }
    /// Removes the last `number` elements (1 by default; traps when the list has fewer, as
    /// RealmSwift throws).
    public func removeLast(_ number: Int = 1) {
        let n = endIndex
        guard number >= 0 else { strataProgrammerError("Cannot pass a negative value (\(number)).") }
        guard number <= n else { strataProgrammerError("It is not possible to remove more objects (\(number)) from a list than it already contains (\(n)).") }
        replaceSubrange(n - number..<n, with: [])
    }
    /// Moves the element at `from` to `to`.
    public func move(from: Int, to: Int) {
        var v = Array(values)
        let e = v.remove(at: from)
        v.insert(e, at: to)
        replaceSubrange(0..<count, with: v)
    }
    /// Replaces the element at `index` (RealmSwift's `replace(index:object:)`).
    public func replace(index: Int, object: Element) { self[index] = object }
    /// Swaps two elements.
    public func swapAt(_ i: Int, _ j: Int) {
        var v = Array(values); v.swapAt(i, j); replaceSubrange(0..<count, with: v)
    }
    /// The index of the first element equal to `object`.
    public func index(of object: Element) -> Int? { values.firstIndex(of: object) }

    /// The realm of the owning object.
    /// The realm of the owning object (nil when unmanaged).
    public var realm: Realm? { owner.map { Realm(core: $0.core) } }
    /// True when the owning object was deleted, or the realm invalidated since the list was obtained.
    public var isInvalidated: Bool { guard let o = owner else { return false }; return !ownerExists(o) }
    /// True when the owning object is frozen.
    public var isFrozen: Bool { owner?.core.isFrozen ?? false }
    /// RealmSwift's text: `List<Dog> <0x…> (\n\t[0] Dog {…},\n…\n)` (the first 100 elements).
    public var description: String { collectionDescription("List", self, Element.self, elements: values) }

    /// Calls `block` with `.initial` and then after each commit that changes the list, with
    /// the deleted, inserted and modified indexes.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        guard let o = owner else { strataProgrammerError("only managed lists can be observed") }
        o.requireValid()
        return o.core.addCollectionObserver(ListSource<Element>(owner: o), keyPaths: keyPaths, queue: queue, block)
    }

    // _Persistable
    public static var _strataShape: _PropertyShape {
        _PropertyShape(type: Element._strataType, collection: .list, optional: Element._strataOptional, objectType: Element._strataObjectType)
    }
    public static func _strataDefault() -> Self { Self() }
    /// The list's accessor (the same instance for every read of the property of `object`).
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> Self { object._rlmCollectionAccessor(index, Self.self) }
    static func makeManaged(_ o: CollectionOwner) -> Self { unsafeDowncast(List<Element>(owner: o), to: Self.self) }
    public static func _strataSet(_ object: ObjectBase, _ index: Int, _ value: List<Element>) {
        let o = ownerOf(object, index)
        if let vo = value.owner, vo.core === o.core, vo.key == o.key, vo.property == o.property, vo.className == o.className { return }
        let elements = Array(value)
        o.core.write { _, adder in try adder.replaceElements(o, elements.map { $0 as any _StrataValue }) }
    }
    /// Copies `value`'s elements into the list the unmanaged object has (assigning a list never
    /// makes the property that list, as in RealmSwift).
    public static func _strataSetUnmanaged(_ object: ObjectBase, _ index: Int, _ value: List<Element>) {
        let s = object._rlmUnmanagedStorage()
        if let existing = s.get(index, as: List<Element>.self) {
            if existing !== value { existing.storage = Array(value) }
        } else {
            let l = List<Element>(); l.storage = Array(value); s.set(index, l)
        }
    }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        let l = Self()
        for e in anyElements(any) { l.storage.append(try Element._strataFromAny(e)) }
        return l
    }
    var _elementsForAdd: [any _StrataValue] { values.map { $0 as any _StrataValue } }
    var _anyElements: [Any] { values.map { $0 as Any } }
}

extension List where Element: ObjectBase {
    /// The list's objects as live `Results` (so the query module's `filter`/`sorted` apply).
    public func asResults() -> Results<Element> {
        guard let o = owner else { strataProgrammerError("only managed lists can become Results") }
        o.requireValid()
        return Results(core: o.core, className: o.objectClassName(Element.self), base: .list(o.className, o.key, o.property), stages: [])
    }
}

extension MutableSet where Element: ObjectBase {
    /// The set's objects as live `Results`.
    public func asResults() -> Results<Element> {
        guard let o = owner else { strataProgrammerError("only managed sets can become Results") }
        o.requireValid()
        return Results(core: o.core, className: o.objectClassName(Element.self), base: .list(o.className, o.key, o.property), stages: [])
    }
}

// MARK: - MutableSet

/// A set of unique values or objects (RealmSwift's `MutableSet`).
public final class MutableSet<Element: RealmCollectionValue>: RandomAccessCollection, _AnyElements, _Persistable, _UnmanagedCollection, _CachedCollection, CustomStringConvertible {
    var storage: [Element] = []
    private(set) var owner: CollectionOwner?
    var _owner: CollectionOwner? { owner }
    var _ownerKey: ObjKey { owner?.key ?? -1 }
    func _becomeManaged(_ owner: CollectionOwner) { self.owner = owner; storage = [] }

    /// An empty unmanaged set.
    public required init() { owner = nil }
    init(owner: CollectionOwner) { self.owner = owner }

    private var values: [Element] {
        guard let o = owner else { return storage }
        let ctx = _StrataContext(core: o.core)
        return o.elements().map { Element._strataDecode($0, ctx) }
    }
    private func store(_ v: [Element]) {
        var seen = Set<Element>()
        let unique = v.filter { seen.insert($0).inserted }
        guard let o = owner else { storage = unique; return }
        o.requireValid()
        o.core.write { _, adder in try adder.replaceElements(o, unique.map { $0 as any _StrataValue }) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { owner?.count() ?? storage.count }
    /// The element at `position` in the set's stored order.
    public subscript(position: Int) -> Element { values[position] }
    public func makeIterator() -> IndexingIterator<[Element]> { values.makeIterator() }

    /// True when the set holds `object`.
    public func contains(_ object: Element) -> Bool { values.contains(object) }
    /// Adds `object` unless it is already present.
    public func insert(_ object: Element) { insert(objectsIn: [object]) }
    /// Adds each element unless present.
    public func insert<S: Sequence>(objectsIn objects: S) where S.Element == Element { store(values + Array(objects)) }
    /// Removes `object` when present.
    public func remove(_ object: Element) { store(values.filter { $0 != object }) }
    /// Removes every element.
    public func removeAll() { store([]) }
    /// Keeps only elements also in `other`.
    public func formIntersection(_ other: MutableSet<Element>) { let o = Set(other.values); store(values.filter { o.contains($0) }) }
    /// Adds the elements of `other`.
    public func formUnion(_ other: MutableSet<Element>) { store(values + other.values) }
    /// Removes the elements of `other`.
    public func subtract(_ other: MutableSet<Element>) { let o = Set(other.values); store(values.filter { !o.contains($0) }) }
    /// True when every element is also in `other`.
    public func isSubset(of other: MutableSet<Element>) -> Bool { Set(values).isSubset(of: Set(other.values)) }
    /// True when the sets share an element.
    public func intersects(_ other: MutableSet<Element>) -> Bool { !Set(values).isDisjoint(with: Set(other.values)) }

    public var realm: Realm? { owner.map { Realm(core: $0.core) } }
    public var isFrozen: Bool { owner?.core.isFrozen ?? false }
    /// RealmSwift's text: `MutableSet<Dog> <0x…> (\n\t[0] Dog {…},\n…\n)` (the first 100 elements).
    public var description: String { collectionDescription("MutableSet", self, Element.self, elements: values) }

    /// Like `List.observe`; indexes refer to the set's stored order.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        guard let o = owner else { strataProgrammerError("only managed sets can be observed") }
        o.requireValid()
        return o.core.addCollectionObserver(SetSource<Element>(owner: o), keyPaths: keyPaths, queue: queue, block)
    }

    public static var _strataShape: _PropertyShape {
        _PropertyShape(type: Element._strataType, collection: .set, optional: Element._strataOptional, objectType: Element._strataObjectType)
    }
    public static func _strataDefault() -> Self { Self() }
    /// The set's accessor (the same instance for every read of the property of `object`).
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> Self { object._rlmCollectionAccessor(index, Self.self) }
    public static func _strataSet(_ object: ObjectBase, _ index: Int, _ value: MutableSet<Element>) {
        let elements = Array(value)
        let target = MutableSet<Element>(owner: ownerOf(object, index))
        target.store(elements)
    }
    /// Copies `value`'s elements into the set the unmanaged object has (as RealmSwift does).
    public static func _strataSetUnmanaged(_ object: ObjectBase, _ index: Int, _ value: MutableSet<Element>) {
        let s = object._rlmUnmanagedStorage()
        if let existing = s.get(index, as: MutableSet<Element>.self) {
            if existing !== value { existing.storage = Array(value) }
        } else {
            let m = MutableSet<Element>(); m.storage = Array(value); s.set(index, m)
        }
    }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        let s = Self()
        s.storage = try anyElements(any).map { try Element._strataFromAny($0) }
        var seen = Set<Element>(); s.storage = s.storage.filter { seen.insert($0).inserted }
        return s
    }
    var _elementsForAdd: [any _StrataValue] { values.map { $0 as any _StrataValue } }
    var _anyElements: [Any] { values.map { $0 as Any } }
}

// MARK: - Map

/// Keys a `Map` accepts (String, like RealmSwift).
public protocol _MapKey: Hashable, Comparable { var _mapKeyString: String { get }; init(_mapKeyString: String) }
extension String: _MapKey {
    public var _mapKeyString: String { self }
    public init(_mapKeyString s: String) { self = s }
}

/// A dictionary property with String keys (RealmSwift's `Map`).
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Sequence, _Persistable, _UnmanagedMap, _CachedCollection, CustomStringConvertible {
    var storage: [Key: Value] = [:]
    private(set) var owner: CollectionOwner?
    var _owner: CollectionOwner? { owner }
    var _ownerKey: ObjKey { owner?.key ?? -1 }
    func _becomeManaged(_ owner: CollectionOwner) { self.owner = owner; storage = [:] }

    /// An empty unmanaged map.
    public required init() { owner = nil }
    init(owner: CollectionOwner) { self.owner = owner }

    private var entries: [(key: Key, value: Value)] {
        guard let o = owner else { return storage.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        let ctx = _StrataContext(core: o.core)
        return o.entries().map { (Key(_mapKeyString: $0.key), Value._strataDecode($0.value, ctx)) }
    }
    private func store(_ e: [(key: Key, value: Value)]) {
        guard let o = owner else { storage = Dictionary(e.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }); return }
        o.requireValid()
        o.core.write { _, adder in try adder.replaceEntries(o, e.map { ($0.key._mapKeyString, $0.value as any _StrataValue) }) }
    }

    /// Number of entries.
    public var count: Int { owner?.count() ?? storage.count }
    /// True when the map has no entries.
    public var isEmpty: Bool { count == 0 }
    /// The keys, sorted.
    public var keys: [Key] { entries.map(\.key) }
    /// The values, in key order.
    public var values: [Value] { entries.map(\.value) }
    /// The value for `key`; assigning nil removes the entry.
    public subscript(key: Key) -> Value? {
        get { owner == nil ? storage[key] : entries.first { $0.key == key }?.value }
        set {
            var e = entries.filter { $0.key != key }
            if let newValue { e.append((key, newValue)) }
            store(e)
        }
    }
    /// Sets the value for `key`.
    public func updateValue(_ value: Value, forKey key: Key) { self[key] = value }
    /// Removes the entry for `key`.
    public func removeObject(for key: Key) { self[key] = nil }
    /// Removes every entry.
    public func removeAll() { store([]) }
    /// Entries in key order.
    public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> { entries.makeIterator() }

    public var realm: Realm? { owner.map { Realm(core: $0.core) } }
    public var isFrozen: Bool { owner?.core.isFrozen ?? false }
    /// RealmSwift's text: `Map<string, Dog> <0x…> (\n[key]: Dog {…},\n…\n)`.
    public var description: String { mapDescription(self, Value.self, entries: entries.lazy.map { ($0.key._mapKeyString, $0.value as Any) }) }

    /// Calls `block` with `.initial` and after each commit that changes the map, with the
    /// deleted, inserted and modified keys. For a map of objects, `keyPaths` names properties
    /// of the values' class (dotted through links: `"toys.brand"`) and only changes of those
    /// count as modifications; insertions and deletions of keys always do. Without key paths,
    /// any change of a value's object counts, and of the objects it links to up to four links
    /// away. A key path component that is not a property of its class traps, naming it.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) -> NotificationToken {
        guard let o = owner else { strataProgrammerError("only managed maps can be observed") }
        o.requireValid()
        return o.core.addMapObserver(self, owner: o, keyPaths: keyPaths, queue: queue, block)
    }

    public static var _strataShape: _PropertyShape {
        _PropertyShape(type: Value._strataType, collection: .map, optional: Value._strataOptional, objectType: Value._strataObjectType)
    }
    public static func _strataDefault() -> Self { Self() }
    /// The map's accessor (the same instance for every read of the property of `object`).
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> Self { object._rlmCollectionAccessor(index, Self.self) }
    public static func _strataSet(_ object: ObjectBase, _ index: Int, _ value: Map<Key, Value>) {
        let e = value.entries
        Map<Key, Value>(owner: ownerOf(object, index)).store(e)
    }
    /// Copies `value`'s entries into the map the unmanaged object has (as RealmSwift does).
    public static func _strataSetUnmanaged(_ object: ObjectBase, _ index: Int, _ value: Map<Key, Value>) {
        let s = object._rlmUnmanagedStorage()
        var entries: [Key: Value] = [:]
        for (k, v) in value.entries { entries[k] = v }
        if let existing = s.get(index, as: Map<Key, Value>.self) {
            if existing !== value { existing.storage = entries }
        } else {
            let m = Map<Key, Value>(); m.storage = entries; s.set(index, m)
        }
    }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        let m = Self()
        let u = unwrapAny(any)
        if let d = u as? [String: Any] { for (k, v) in d { m.storage[Key(_mapKeyString: k)] = try Value._strataFromAny(v) } }
        // Another map (the property of an object given to `create(_:value:)`): its entries.
        else if let other = u as? _UnmanagedMap {
            for (k, v) in other._entriesForAdd { m.storage[Key(_mapKeyString: k)] = try Value._strataFromAny(v) }
        }
        return m
    }
    var _entriesForAdd: [(String, any _StrataValue)] { entries.map { ($0.key._mapKeyString, $0.value as any _StrataValue) } }
}

// MARK: - LinkingObjects

protocol _AnyLinkingObjects { var _originPropertyName: String { get } }

/// Marker for `@Persisted(originProperty:)`.
public protocol LinkingObjectsProtocol: _Persistable { init(_originProperty: String) }

/// The objects whose `propertyName` links to the owning object (RealmSwift's `LinkingObjects`),
/// computed from the links, never stored.
public struct LinkingObjects<Element: ObjectBase>: RandomAccessCollection, LinkingObjectsProtocol, _AnyLinkingObjects, CustomStringConvertible {
    /// The property of `Element` that links here.
    public let propertyName: String
    let target: (core: RealmCore, className: String, key: ObjKey)?
    /// The target core's `readEpoch` when these were obtained (0 while unmanaged).
    let epoch: Int

    /// Linking objects of `fromType` through `property` (RealmSwift's older spelling).
    public init(fromType: Element.Type, property: String) { propertyName = property; target = nil; epoch = 0 }
    /// Used by `@Persisted(originProperty:)`.
    public init(_originProperty: String) { propertyName = _originProperty; target = nil; epoch = 0 }
    /// `epoch` nil: the core's current one (obtained now).
    init(propertyName: String, target: (RealmCore, String, ObjKey), epoch: Int? = nil) {
        self.propertyName = propertyName; self.target = target; self.epoch = epoch ?? target.0.readEpoch
    }
    var _originPropertyName: String { propertyName }

    /// Traps when the realm was invalidated after these were obtained.
    func requireValid() {
        if let t = target, t.core.readEpoch != epoch { t.core.invalidatedAccess("the linking objects '\(Element.className()).\(propertyName)' of an object of type \(t.className), which have been invalidated") }
    }
    /// The same linking objects as obtained now (observers outlive `invalidate()`).
    var current: LinkingObjects {
        guard let t = target, t.core.readEpoch != epoch else { return self }
        return LinkingObjects(propertyName: propertyName, target: t)
    }

    /// The linking objects' keys (empty while the owner is unmanaged).
    var keys: [ObjKey] {
        guard let t = target else { return [] }
        requireValid()
        return t.core.read { txn in strataTry { try txn.backlinks(t.className, t.key, originClass: Element.className(), originProperty: propertyName) } }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }
    /// The linking object at `position`.
    public subscript(position: Int) -> Element { target!.core.makeObject(Element.self, key: keys[position]) }

    /// The linking objects as `Results` (filter and sort them like any results).
    public var results: Results<Element> {
        guard let t = target else { strataProgrammerError("linking objects of an unmanaged object have no results") }
        requireValid()
        return Results(core: t.core, className: Element.className(), base: .backlinks(t.className, t.key, propertyName), stages: [])
    }
    /// The realm of the owning object (nil when unmanaged).
    public var realm: Realm? { target.map { Realm(core: $0.core) } }
    public var description: String { "LinkingObjects<\(Element.className())>(\(count) objects)" }

    public static var _strataShape: _PropertyShape {
        _PropertyShape(type: .linkingObjects, collection: .single, optional: false, objectType: Element.self)
    }
    public static func _strataDefault() -> LinkingObjects { LinkingObjects(_originProperty: "") }
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> LinkingObjects {
        object._rlmRequireValid()
        let info = object._rlmClassInfo
        return LinkingObjects(propertyName: info.properties[index].schema.linkOriginPropertyName ?? "",
                              target: (object._rlmCore!, info.className, object._rlmKey), epoch: object._rlmEpoch)
    }
    public static func _strataSet(_ object: ObjectBase, _ index: Int, _ value: LinkingObjects) {
        strataProgrammerError("LinkingObjects properties are read-only")
    }
    public static func _strataFromAny(_ any: Any) throws -> LinkingObjects {
        throw ObjectError.wrongType("linking objects", expected: "nothing (they are read-only)", got: "\(type(of: any))")
    }
}
