import Foundation

/// The family of live collections (RealmSwift's `RealmCollection`): `Results`, `List`,
/// `MutableSet`, `LinkingObjects` and `AnyRealmCollection`. Generic code over it compiles for
/// each of them:
///
/// ```swift
/// func names<C: RealmCollection>(_ c: C) -> [String] where C.Element == Dog { c.map(\.name) }
/// ```
/// Filtering and sorting (`filter`, `where`, `sorted`, `distinct`) come with `import Strata`
/// for collections of objects and return `Results`.
public protocol RealmCollection<Element>: RandomAccessCollection, CustomStringConvertible, ThreadConfined
where Element: RealmCollectionValue, Index == Int {
    /// The realm of the collection (nil when unmanaged).
    var realm: Realm? { get }
    /// True when the collection can no longer be read (its owner was deleted, its realm invalidated).
    var isInvalidated: Bool { get }
    /// True for a collection of a frozen realm.
    var isFrozen: Bool { get }
    /// The position of `object`, or nil.
    func index(of object: Element) -> Int?
    /// A frozen snapshot of the collection (readable from any thread).
    func freeze() -> Self
    /// The live collection on the current thread's realm (nil when its owner was deleted).
    func thaw() -> Self?
    /// Registers `block` for the collection's changes; `observe(keyPaths:on:_:)` calls this.
    func _strataObserve(keyPaths: [String]?, queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken
}

extension RealmCollection {
    /// Calls `block` with `.initial` and after each commit that changes the collection, with
    /// the deleted, inserted and modified indexes.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        _strataObserve(keyPaths: keyPaths, queue: queue, block)
    }

    /// The elements at `indexes`, in order.
    public func objects(at indexes: IndexSet) -> [Element] {
        indexes.map { i -> Element in
            guard i >= 0 && i < count else { strataProgrammerError("Index \(i) is out of bounds (must be less than \(count))") }
            return self[i]
        }
    }

    /// The index of the first element satisfying `predicate`.
    public func index(where predicate: (Element) throws -> Bool) rethrows -> Int? { try firstIndex(where: predicate) }

    /// The index of the first element for which `isIncluded` returns true, or nil
    /// (RealmSwift's `index(matching:)` with a closure; one pass over the elements).
    public func index(matching isIncluded: (Element) throws -> Bool) rethrows -> Int? {
        var i = 0
        for e in self {
            if try isIncluded(e) { return i }
            i += 1
        }
        return nil
    }
}

extension RealmCollection where Element: ObjectBase {
    /// The collection's objects as `Results` (for filtering, sorting and aggregates).
    public var _strataResults: Results<Element> {
        if let r = self as? Results<Element> { return r }
        if let l = self as? List<Element> { return l.asResults() }
        if let s = self as? MutableSet<Element> { return s.asResults() }
        if let a = self as? AnyRealmCollection<Element> { return a._baseResults }
        if let lo = self as? LinkingObjects<Element> { return lo.results }
        strataProgrammerError("\(Self.self) cannot be viewed as Results")
    }

    /// The smallest value of `property` among the objects (nil when there is none).
    public func min<T: _StrataValue & Comparable>(ofProperty property: String) -> T? { _strataResults.min(ofProperty: property) }
    /// The largest value of `property` among the objects.
    public func max<T: _StrataValue & Comparable>(ofProperty property: String) -> T? { _strataResults.max(ofProperty: property) }
    /// The sum of a numeric property (0 when empty).
    public func sum<T: _StrataValue & AdditiveArithmetic>(ofProperty property: String) -> T { _strataResults.sum(ofProperty: property) }
    /// The average of a numeric property (nil when empty).
    public func average<T: _StrataValue & BinaryFloatingPoint>(ofProperty property: String) -> T? { _strataResults.average(ofProperty: property) }
    /// The average of a numeric property in decimal arithmetic (nil when empty).
    public func average(ofProperty property: String) -> Decimal128? { _strataResults.average(ofProperty: property) }
}

// MARK: - aggregates of primitive collections

extension Sequence where Element: AdditiveArithmetic & RealmCollectionValue {
    /// The sum of the values (0 when empty), like RealmSwift's `sum()` on lists, sets and maps
    /// of numbers.
    public func sum() -> Element { reduce(.zero, +) }
}

extension Sequence where Element: BinaryInteger & RealmCollectionValue {
    /// The average of the values (nil when empty).
    public func average<T: BinaryFloatingPoint>() -> T? {
        var n = 0, s = 0.0
        for v in self { s += Double(v); n += 1 }
        return n == 0 ? nil : T(s / Double(n))
    }
}
extension Sequence where Element: BinaryFloatingPoint & RealmCollectionValue {
    /// The average of the values (nil when empty).
    public func average<T: BinaryFloatingPoint>() -> T? {
        var n = 0, s = 0.0
        for v in self { s += Double(v); n += 1 }
        return n == 0 ? nil : T(s / Double(n))
    }
}
extension Sequence where Element == Decimal128 {
    /// The average of the values (nil when empty).
    public func average() -> Decimal128? {
        var n = 0, s: Decimal128 = 0
        for v in self { s += v; n += 1 }
        return n == 0 ? nil : s / Decimal128(number: n)
    }
}

/// An optional element of a collection of values, as the aggregates of `List<Int?>` and the
/// like see it (they skip nil, as RealmSwift's do).
public protocol _StrataOptionalElement {
    /// The type of the non-nil values.
    associatedtype Wrapped
    /// The value, nil for nil.
    var _strataWrapped: Wrapped? { get }
}
extension Optional: _StrataOptionalElement {
    /// The value itself.
    public var _strataWrapped: Wrapped? { self }
}

extension Sequence where Element: _StrataOptionalElement & RealmCollectionValue, Element.Wrapped: Comparable {
    /// The smallest non-nil value (nil when there is none).
    public func min() -> Element.Wrapped? { lazy.compactMap(\._strataWrapped).min() }
    /// The largest non-nil value (nil when there is none).
    public func max() -> Element.Wrapped? { lazy.compactMap(\._strataWrapped).max() }
}
extension Sequence where Element: _StrataOptionalElement & RealmCollectionValue, Element.Wrapped: AdditiveArithmetic {
    /// The sum of the non-nil values (0 when there is none).
    public func sum() -> Element.Wrapped { lazy.compactMap(\._strataWrapped).reduce(.zero, +) }
}
extension Sequence where Element: _StrataOptionalElement & RealmCollectionValue, Element.Wrapped: BinaryInteger {
    /// The average of the non-nil values (nil when there is none).
    public func average<T: BinaryFloatingPoint>() -> T? {
        var n = 0, s = 0.0
        for case let v? in lazy.map(\._strataWrapped) { s += Double(v); n += 1 }
        return n == 0 ? nil : T(s / Double(n))
    }
}
extension Sequence where Element: _StrataOptionalElement & RealmCollectionValue, Element.Wrapped: BinaryFloatingPoint {
    /// The average of the non-nil values (nil when there is none).
    public func average<T: BinaryFloatingPoint>() -> T? {
        var n = 0, s = 0.0
        for case let v? in lazy.map(\._strataWrapped) { s += Double(v); n += 1 }
        return n == 0 ? nil : T(s / Double(n))
    }
}

// MARK: - Results

extension Results: RealmCollection {
    public func _strataObserve(keyPaths: [String]?, queue: DispatchQueue?,
                               _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths, on: queue, block)
    }
}

// MARK: - List

/// The owner of a collection rebuilt on `core`.
private func rebound(_ o: CollectionOwner, to core: RealmCore) -> CollectionOwner {
    o.requireValid()
    return CollectionOwner(core: core, className: o.className, key: o.key, property: o.property, isEmbeddedTarget: o.isEmbeddedTarget)
}

/// True when the collection's object exists and the realm was not invalidated since the
/// collection was obtained.
func ownerExists(_ o: CollectionOwner) -> Bool { o.isCurrent && o.core.read { (try? $0.exists(o.className, o.key)) ?? false } }

/// The owner of a collection handed over to another realm (nil when the object was deleted).
private func handedOverOwner<E: _StrataValue>(_ h: _Handover, _ ctx: _StrataContext, _ element: E.Type) -> CollectionOwner? {
    guard let core = ctx.core, let p = h.property else { return nil }
    let o = CollectionOwner(core: core, className: h.className, key: h.key, property: p,
                            isEmbeddedTarget: E._strataObjectType is EmbeddedObject.Type)
    return ownerExists(o) ? o : nil
}

private func handover(_ o: CollectionOwner?) -> (_Handover, UInt64) {
    guard let o else { strataProgrammerError("Cannot construct a ThreadSafeReference to an unmanaged collection") }
    o.requireValid()
    return (_Handover(className: o.className, key: o.key, base: nil, stages: [], property: o.property), o.core.read { $0.version })
}

extension List: RealmCollection, ThreadConfined {
    public func _strataHandover() -> (_Handover, UInt64) { handover(owner) }
    public static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> Self? {
        handedOverOwner(h, ctx, Element.self).map { Self.makeManaged($0) }
    }
    /// A frozen snapshot of the list at its realm's current version (an unmanaged list is
    /// returned as is).
    public func freeze() -> List<Element> {
        guard let o = owner else { return self }
        return List(owner: rebound(o, to: o.core.frozenCore()))
    }
    /// The live list on the current thread's realm (nil when its object was deleted).
    public func thaw() -> List<Element>? {
        guard let o = owner else { return self }
        let live = rebound(o, to: o.core.coordinator.core(for: .currentThread()))
        return ownerExists(live) ? List(owner: live) : nil
    }
    public func _strataObserve(keyPaths: [String]?, queue: DispatchQueue?,
                               _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths, on: queue, block)
    }
}

// MARK: - MutableSet

extension MutableSet: RealmCollection, ThreadConfined {
    public func _strataHandover() -> (_Handover, UInt64) { handover(owner) }
    public static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> Self? {
        handedOverOwner(h, ctx, Element.self).map { unsafeDowncast(MutableSet<Element>(owner: $0), to: Self.self) }
    }
    /// True when the owning object was deleted, or the realm invalidated since this was obtained.
    public var isInvalidated: Bool { guard let o = owner else { return false }; return !ownerExists(o) }
    /// The position of `object` in the set's stored order.
    public func index(of object: Element) -> Int? { firstIndex(of: object) }
    /// A frozen snapshot of the set.
    public func freeze() -> MutableSet<Element> {
        guard let o = owner else { return self }
        return MutableSet(owner: rebound(o, to: o.core.frozenCore()))
    }
    /// The live set on the current thread's realm (nil when its object was deleted).
    public func thaw() -> MutableSet<Element>? {
        guard let o = owner else { return self }
        let live = rebound(o, to: o.core.coordinator.core(for: .currentThread()))
        return ownerExists(live) ? MutableSet(owner: live) : nil
    }
    public func _strataObserve(keyPaths: [String]?, queue: DispatchQueue?,
                               _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths, on: queue, block)
    }
}

// MARK: - Map

extension Map: ThreadConfined {
    public func _strataHandover() -> (_Handover, UInt64) { handover(owner) }
    public static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> Self? {
        handedOverOwner(h, ctx, Value.self).map { unsafeDowncast(Map<Key, Value>(owner: $0), to: Self.self) }
    }
    /// True when the owning object was deleted, or the realm invalidated since this was obtained.
    public var isInvalidated: Bool { guard let o = owner else { return false }; return !ownerExists(o) }
    /// A frozen snapshot of the map.
    public func freeze() -> Map<Key, Value> {
        guard let o = owner else { return self }
        return Map(owner: rebound(o, to: o.core.frozenCore()))
    }
    /// The live map on the current thread's realm (nil when its object was deleted).
    public func thaw() -> Map<Key, Value>? {
        guard let o = owner else { return self }
        let live = rebound(o, to: o.core.coordinator.core(for: .currentThread()))
        return ownerExists(live) ? Map(owner: live) : nil
    }
}

// MARK: - LinkingObjects

extension LinkingObjects: RealmCollection, ThreadConfined {
    public func _strataHandover() -> (_Handover, UInt64) {
        guard let t = target else { strataProgrammerError("Cannot construct a ThreadSafeReference to the linking objects of an unmanaged object") }
        requireValid()
        return (_Handover(className: t.className, key: t.key, base: nil, stages: [], property: propertyName), t.core.read { $0.version })
    }
    public static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> LinkingObjects<Element>? {
        guard let core = ctx.core, let p = h.property, core.read({ (try? $0.exists(h.className, h.key)) ?? false }) else { return nil }
        return LinkingObjects(propertyName: p, target: (core, h.className, h.key))
    }
    /// True when the owning object was deleted, or the realm invalidated since this was obtained.
    public var isInvalidated: Bool {
        guard let t = target else { return false }
        if epoch != t.core.readEpoch { return true }
        return !t.core.read { (try? $0.exists(t.className, t.key)) ?? false }
    }
    /// True for linking objects of a frozen object.
    public var isFrozen: Bool { target?.core.isFrozen ?? false }
    /// The position of `object`, or nil.
    public func index(of object: Element) -> Int? {
        guard let t = target, object._rlmCore?.coordinator === t.core.coordinator else { return nil }
        return keys.firstIndex(of: object._rlmKey)
    }
    /// A frozen snapshot.
    public func freeze() -> LinkingObjects<Element> {
        guard let t = target else { return self }
        requireValid()
        return LinkingObjects(propertyName: propertyName, target: (t.core.frozenCore(), t.className, t.key))
    }
    /// The live linking objects on the current thread's realm (nil when the owner was deleted).
    public func thaw() -> LinkingObjects<Element>? {
        guard let t = target else { return self }
        let live = t.core.coordinator.core(for: .currentThread())
        guard live.read({ (try? $0.exists(t.className, t.key)) ?? false }) else { return nil }
        return LinkingObjects(propertyName: propertyName, target: (live, t.className, t.key))
    }
    public func _strataObserve(keyPaths: [String]?, queue: DispatchQueue?,
                               _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        let me = self
        return results.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial: block(.initial(me.current))
            case .update(_, let d, let i, let m): block(.update(me.current, deletions: d, insertions: i, modifications: m))
            case .error(let e): block(.error(e))
            }
        }
    }
    /// Calls `block` with `.initial` and after each commit that changes the linking objects.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        _strataObserve(keyPaths: keyPaths, queue: queue, block)
    }
}

// MARK: - objects

extension EmbeddedObject {
    /// True when both are the same stored embedded object (same realm file, class and key); an
    /// unmanaged object is only the same as itself (RealmSwift's `isSameObject(as:)`).
    public func isSameObject(as object: EmbeddedObject?) -> Bool {
        guard let object else { return false }
        return self == object
    }
}

extension Object {
    /// True when both are the same stored object (same realm file, class and key); an
    /// unmanaged object is only the same as itself (RealmSwift's `isSameObject(as:)`).
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        if object === self { return true }
        guard let a = _rlmCore, let b = object._rlmCore else { return false }
        return a.coordinator === b.coordinator && _rlmKey == object._rlmKey
            && _rlmClassInfo.className == object._rlmClassInfo.className
    }

    /// Observes the object with changes typed `ObjectChange<ObjectBase>` (what an observer
    /// closure without a type annotation receives).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<ObjectBase>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths, on: queue) { (change: ObjectChange<Object>) in
            switch change {
            case .change(let o, let props): block(.change(o, props))
            case .deleted: block(.deleted)
            case .error(let e): block(.error(e))
            }
        }
    }
}
