import Foundation

/// A type-erased `RealmCollection` (RealmSwift's `AnyRealmCollection`): holds `Results`, a
/// `List`, a `MutableSet`, `LinkingObjects` or another `AnyRealmCollection` of the same
/// element type, and forwards to it. View models keep one without naming the concrete kind:
///
/// ```swift
/// let dogs = AnyRealmCollection(realm.objects(Dog.self))   // or AnyRealmCollection(person.dogs)
/// ```
public struct AnyRealmCollection<Element: RealmCollectionValue>: RealmCollection {
    /// The wrapped collection.
    let base: any RealmCollection<Element>

    /// Wraps `base`.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        if let a = base as? AnyRealmCollection<Element> { self.base = a.base } else { self.base = base }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { base.count }
    public var count: Int { base.count }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }
    /// The element at `position`.
    public subscript(position: Int) -> Element { base[position] }

    public var realm: Realm? { base.realm }
    public var isInvalidated: Bool { base.isInvalidated }
    public var isFrozen: Bool { base.isFrozen }
    public var description: String { "AnyRealmCollection(\(base.description))" }
    public func index(of object: Element) -> Int? { base.index(of: object) }

    /// A frozen snapshot of the wrapped collection.
    public func freeze() -> AnyRealmCollection<Element> {
        func open<C: RealmCollection>(_ c: C) -> AnyRealmCollection<Element> where C.Element == Element { AnyRealmCollection(c.freeze()) }
        return open(base)
    }
    /// The live collection on the current thread's realm.
    public func thaw() -> AnyRealmCollection<Element>? {
        func open<C: RealmCollection>(_ c: C) -> AnyRealmCollection<Element>? where C.Element == Element { c.thaw().map { AnyRealmCollection($0) } }
        return open(base)
    }

    public func _strataObserve(keyPaths: [String]?, queue: DispatchQueue?,
                               _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) -> NotificationToken {
        func open<C: RealmCollection>(_ c: C) -> NotificationToken where C.Element == Element {
            c._strataObserve(keyPaths: keyPaths, queue: queue) { change in
                switch change {
                case .initial(let n): block(.initial(AnyRealmCollection(n)))
                case .update(let n, let d, let i, let m): block(.update(AnyRealmCollection(n), deletions: d, insertions: i, modifications: m))
                case .error(let e): block(.error(e))
                }
            }
        }
        return open(base)
    }

    public func _strataHandover() -> (_Handover, UInt64) {
        func open<C: RealmCollection>(_ c: C) -> (_Handover, UInt64) where C.Element == Element {
            var (h, v) = c._strataHandover()
            let inner = h
            h.anyResolver = { ctx in C._strataResolve(inner, in: ctx).map { AnyRealmCollection<Element>($0) } }
            return (h, v)
        }
        return open(base)
    }
    public static func _strataResolve(_ h: _Handover, in ctx: _StrataContext) -> AnyRealmCollection<Element>? {
        h.anyResolver?(ctx) as? AnyRealmCollection<Element>
    }
}

extension AnyRealmCollection where Element: ObjectBase {
    /// The wrapped collection as `Results`.
    var _baseResults: Results<Element> {
        func open<C: RealmCollection>(_ c: C) -> Results<Element> where C.Element == Element { c._strataResults }
        return open(base)
    }
}
