import Foundation

// RealmSwift's (and SwiftUI's) editing helpers on List and Map.

extension List {
    /// Removes the elements in `range`.
    public func removeSubrange(_ range: Range<Int>) { replaceSubrange(range, with: []) }
    /// Removes the elements in a range expression (`1...3`, `2...`).
    public func removeSubrange<R: RangeExpression>(_ bounds: R) where R.Bound == Int {
        replaceSubrange(bounds.relative(to: self), with: [])
    }
    /// Replaces the elements in a range expression (`2...5`) with `newElements`.
    public func replaceSubrange<C: Collection, R: RangeExpression>(_ subrange: R, with newElements: C)
    where C.Element == Element, R.Bound == Int {
        replaceSubrange(subrange.relative(to: self), with: newElements)
    }
    /// Inserts `newElements` at `i`, in their order.
    public func insert<C: Collection>(contentsOf newElements: C, at i: Int) where C.Element == Element {
        replaceSubrange(i..<i, with: newElements)
    }
    /// Removes the elements at `offsets` (SwiftUI's `onDelete`).
    public func remove(atOffsets offsets: IndexSet) {
        var v = Array(self)
        for i in offsets.reversed() {
            guard i >= 0 && i < v.count else { strataProgrammerError("Index \(i) is out of bounds (must be less than \(v.count))") }
            v.remove(at: i)
        }
        replaceSubrange(0..<count, with: v)
    }
    /// Moves the elements at `source` to `destination` (SwiftUI's `onMove` semantics:
    /// `destination` is an index in the list before the move).
    public func move(fromOffsets source: IndexSet, toOffset destination: Int) {
        var v = Array(self)
        let moving = source.map { v[$0] }
        let before = source.filter { $0 < destination }.count
        for i in source.reversed() { v.remove(at: i) }
        v.insert(contentsOf: moving, at: destination - before)
        replaceSubrange(0..<count, with: v)
    }
}

extension List: MutableCollection {
    /// The elements in `bounds` (get), or replaces them with another sequence's elements (set;
    /// the counts may differ, as in RealmSwift).
    public subscript(bounds: Range<Int>) -> Slice<List> {
        get { Slice(base: self, bounds: bounds) }
        set { replaceSubrange(bounds, with: Array(newValue)) }
    }
}

extension Map {
    /// Adds the entries of `other`; for a key present in both, `combine` picks the value.
    public func merge<S: Sequence>(_ other: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (key: Key, value: Value) {
        for (k, v) in other {
            if let old = self[k] { self[k] = try combine(old, v) } else { self[k] = v }
        }
    }
    /// Adds the entries of a dictionary; for a key present in both, `combine` picks the value.
    public func merge(_ other: [Key: Value], uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.map { (key: $0.key, value: $0.value) }, uniquingKeysWith: combine)
    }
    /// The values with their stored form, in key order (the query module sorts them by its
    /// ordering: `sorted(ascending:)`).
    public var _strataStoredValues: [(value: Value, stored: StrataObjects.Value)] {
        guard let o = owner else {
            return storage.sorted { $0.key < $1.key }.map { ($0.value, (try? $0.value._strataEncode(_StrataContext(core: nil))) ?? .null) }
        }
        let ctx = _StrataContext(core: o.core)
        return o.entries().map { (Value._strataDecode($0.value, ctx), $0.value) }
    }
    /// The smallest value, or nil when empty.
    public func min() -> Value? where Value: Comparable { values.min() }
    /// The largest value, or nil when empty.
    public func max() -> Value? where Value: Comparable { values.max() }
    /// The sum of the values (0 when empty).
    public func sum() -> Value where Value: AdditiveArithmetic { values.reduce(.zero, +) }
}

extension Map {
    /// The objects of a managed map of links as `Results` (in key order; null values left out):
    /// the query module sorts and filters them (`sorted(byKeyPath:ascending:)`).
    public func _strataObjectResults<T: ObjectBase>(_ type: T.Type) -> Results<T> {
        guard let o = owner else { strataProgrammerError("only managed maps can become Results") }
        o.requireValid()
        return Results(core: o.core, className: o.objectClassName(T.self), base: .list(o.className, o.key, o.property), stages: [])
    }
}

// MARK: - Equality (RealmSwift's `==` / `isEqual(_:)` of collections)

extension CollectionOwner {
    /// Whether two managed collections are the same property of the same object of the same file.
    func isSameCollection(as other: CollectionOwner) -> Bool {
        core.coordinator === other.core.coordinator && key == other.key && className == other.className && property == other.property
    }
}

extension List: Equatable {
    /// RealmSwift's list equality: two unmanaged lists are equal when they hold equal elements
    /// in the same order; a managed list equals only a list of the same property of the same
    /// object (another accessor of it); a managed and an unmanaged list are never equal.
    public static func == (lhs: List, rhs: List) -> Bool { lhs.isEqual(rhs) }
    /// `==` for any value: false unless `object` is a `List` of the same element type equal to
    /// this one.
    public func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? List<Element> else { return false }
        if self === other { return true }
        switch (owner, other.owner) {
        case (nil, nil): return storage == other.storage
        case let (a?, b?): return a.isSameCollection(as: b)
        default: return false
        }
    }
}

extension MutableSet: Equatable {
    /// RealmSwift's set equality: two unmanaged sets are equal when they hold the same elements
    /// (in any order); a managed set equals only a set of the same property of the same object;
    /// a managed and an unmanaged set are never equal.
    public static func == (lhs: MutableSet, rhs: MutableSet) -> Bool { lhs.isEqual(rhs) }
    /// `==` for any value: false unless `object` is a `MutableSet` of the same element type
    /// equal to this one.
    public func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? MutableSet<Element> else { return false }
        if self === other { return true }
        switch (owner, other.owner) {
        case (nil, nil): return storage.count == other.storage.count && Set(storage) == Set(other.storage)
        case let (a?, b?): return a.isSameCollection(as: b)
        default: return false
        }
    }
}

extension Map: Equatable {
    /// RealmSwift's map equality: two unmanaged maps are equal when they hold the same keys with
    /// equal values; a managed map equals only a map of the same property of the same object;
    /// a managed and an unmanaged map are never equal.
    public static func == (lhs: Map, rhs: Map) -> Bool { lhs.isEqual(rhs) }
    /// `==` for any value: false unless `object` is a `Map` of the same key and value types
    /// equal to this one.
    public func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Map<Key, Value> else { return false }
        if self === other { return true }
        switch (owner, other.owner) {
        case (nil, nil): return storage == other.storage
        case let (a?, b?): return a.isSameCollection(as: b)
        default: return false
        }
    }
}

// MARK: - Map entries, aggregates

extension Map {
    /// True when the map holds `entry.key` with the value `entry.value` (RealmSwift's
    /// `contains(_:)` of a map entry: `map.map(map.contains)`).
    public func contains(_ entry: (key: Key, value: Value)) -> Bool {
        guard let v = self[entry.key] else { return false }
        return v == entry.value
    }
    /// The entries as `(key, value)` tuples, for `for (key, value) in map.asKeyValueSequence()`
    /// (a `Map`'s own elements are already `(key:value:)` tuples; this is RealmSwift's spelling).
    public func asKeyValueSequence() -> [(Key, Value)] { map { ($0.key, $0.value) } }
}

extension Map where Value: BinaryInteger {
    /// The average of the values (nil when empty).
    public func average<T: BinaryFloatingPoint>() -> T? { values.average() }
}
extension Map where Value: BinaryFloatingPoint {
    /// The average of the values (nil when empty).
    public func average<T: BinaryFloatingPoint>() -> T? { values.average() }
}
extension Map where Value == Decimal128 {
    /// The average of the values (nil when empty).
    public func average() -> Decimal128? { values.average() }
}
extension Map where Value: _StrataOptionalElement, Value.Wrapped: Comparable {
    /// The smallest non-nil value (nil when there is none).
    public func min() -> Value.Wrapped? { values.min() }
    /// The largest non-nil value (nil when there is none).
    public func max() -> Value.Wrapped? { values.max() }
}
extension Map where Value: _StrataOptionalElement, Value.Wrapped: AdditiveArithmetic {
    /// The sum of the non-nil values (0 when there is none).
    public func sum() -> Value.Wrapped { values.sum() }
}
extension Map where Value: _StrataOptionalElement, Value.Wrapped: BinaryInteger {
    /// The average of the non-nil values (nil when there is none).
    public func average<T: BinaryFloatingPoint>() -> T? { values.average() }
}
extension Map where Value: _StrataOptionalElement, Value.Wrapped: BinaryFloatingPoint {
    /// The average of the non-nil values (nil when there is none).
    public func average<T: BinaryFloatingPoint>() -> T? { values.average() }
}

/// A map of objects' property aggregates (RealmSwift's `min(of:)`, `max(of:)`, `sum(of:)`,
/// `average(of:)` on `Map<String, Dog?>`); nil values are skipped, managed or not.
extension Map where Value: _StrataOptionalElement, Value.Wrapped: ObjectBase {
    /// The smallest value of `keyPath` among the map's objects (nil when there is none).
    public func min<T: Comparable>(of keyPath: KeyPath<Value.Wrapped, T>) -> T? {
        values.lazy.compactMap { $0._strataWrapped?[keyPath: keyPath] }.min()
    }
    /// The largest value of `keyPath` among the map's objects (nil when there is none).
    public func max<T: Comparable>(of keyPath: KeyPath<Value.Wrapped, T>) -> T? {
        values.lazy.compactMap { $0._strataWrapped?[keyPath: keyPath] }.max()
    }
    /// The sum of `keyPath` over the map's objects (0 when there is none).
    public func sum<T: AdditiveArithmetic>(of keyPath: KeyPath<Value.Wrapped, T>) -> T {
        values.lazy.compactMap { $0._strataWrapped?[keyPath: keyPath] }.reduce(.zero, +)
    }
    /// The average of an integer `keyPath` over the map's objects, as that type (truncated;
    /// nil when there is none).
    public func average<T: BinaryInteger>(of keyPath: KeyPath<Value.Wrapped, T>) -> T? {
        var n = 0, s = 0.0
        for case let o? in values.lazy.map(\._strataWrapped) { s += Double(o[keyPath: keyPath]); n += 1 }
        return n == 0 ? nil : T(s / Double(n))
    }
    /// The average of a floating-point `keyPath` over the map's objects (nil when there is none).
    public func average<T: BinaryFloatingPoint>(of keyPath: KeyPath<Value.Wrapped, T>) -> T? {
        var n = 0, s = 0.0
        for case let o? in values.lazy.map(\._strataWrapped) { s += Double(o[keyPath: keyPath]); n += 1 }
        return n == 0 ? nil : T(s / Double(n))
    }
}
