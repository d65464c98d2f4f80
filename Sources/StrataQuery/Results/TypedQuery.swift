// The typed query builder of `where { }` (RealmSwift's `Query<T>`): each expression builds a
// node tree, which becomes Realm Query Language text with `$n` arguments when the query runs.
import Foundation
import StrataObjects

/// Objects as query arguments (`owner == $0`) are references to managed objects.
extension ObjectBase: QueryArgumentConvertible {
    /// The object as a query argument: a reference to its class and key (null when unmanaged).
    public var queryArgument: QueryValue {
        guard let key = objectKey else { return .null }
        return .object(QueryObjectRef(className: objectSchema.className, key: key))
    }
}

/// `Optional` as seen by the typed query builder (links through optional objects).
public protocol _QueryOptional { associatedtype Wrapped }
extension Optional: _QueryOptional {}

/// The types typed queries compare with `<`, `>`, and aggregate with `.min`, `.max`, `.avg`,
/// `.sum` (RealmSwift's `_QueryNumeric`): integers, `Float`, `Double`, `Decimal128`, `Date`,
/// `AnyRealmValue` and optionals of these.
public protocol _QueryNumeric {}
extension Int: _QueryNumeric {}
extension Int8: _QueryNumeric {}
extension Int16: _QueryNumeric {}
extension Int32: _QueryNumeric {}
extension Int64: _QueryNumeric {}
extension Float: _QueryNumeric {}
extension Double: _QueryNumeric {}
extension Decimal128: _QueryNumeric {}
extension Date: _QueryNumeric {}
extension AnyRealmValue: _QueryNumeric {}
extension Optional: _QueryNumeric where Wrapped: _QueryNumeric {}

/// The types the typed string operators (`starts(with:)`, `ends(with:)`, `contains(_:options:)`,
/// `like`, `equals(_:options:)`) apply to (RealmSwift's `_QueryBinary`): `String`, `Data` and
/// their optionals. For a `String`-backed enum use `.rawValue` (`$0.status.rawValue.starts(with: "o")`).
public protocol _QueryBinary {}
extension String: _QueryBinary {}
extension Data: _QueryBinary {}
extension Optional: _QueryBinary where Wrapped: _QueryBinary {}

/// A `Map` as seen by the typed query builder (RealmSwift's `RealmKeyedCollection`).
public protocol _QueryMap {
    /// The key type (`String`).
    associatedtype Key: _MapKey
    /// The value type.
    associatedtype Value: RealmCollectionValue
}
extension Map: _QueryMap {}

/// Options of the typed string operators (`[c]`, `[d]`).
public struct StringOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Compare without regard to case (`[c]`).
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// Compare without regard to accents (`[d]`).
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
    var modifier: String {
        if isEmpty { return "" }
        return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

/// A node of a typed query: a key path, a constant, or a predicate.
indirect enum TypedQueryNode {
    /// RQL key path components (`dogs`, `@avg`, `scores['a']`) and the index of the component
    /// ending the first collection the path crosses (where `.avg` & co. put their operator:
    /// `dogs.@avg.age`).
    case keyPath([String], collectionAt: Int?)
    case constant(Any)
    case constants([Any])
    case comparison(TypedQueryNode, String, TypedQueryNode)
    case between(TypedQueryNode, Any, Any)
    case and(TypedQueryNode, TypedQueryNode)
    case or(TypedQueryNode, TypedQueryNode)
    case not(TypedQueryNode)
    /// `(predicate on a collection's elements).count`: `SUBQUERY(...).@count`.
    case subqueryCount(TypedQueryNode)
    /// An expression that cannot become a query; the message is thrown when the query is built.
    case invalid(String)
}

/// The typed query builder of `Results.where { }` (RealmSwift's `Query<T>`): `$0.age > 3`,
/// `$0.owner.name == "Ann"`, `$0.name.starts(with: "B", options: .caseInsensitive)`,
/// `$0.age.contains(20...40)`, `$0.tag.in(["a", "b"])`, `$0.kind == .large` (enums),
/// `$0.dogs.count > 2`, `$0.dogs.age == 4` (any dog), `$0.dogs.age.avg > 3`,
/// `$0.scores["a"] > 3` (maps), `($0.dogs.age > 3).count >= 2` (subquery), `&&`, `||`, `!`.
@dynamicMemberLookup
public struct Query<T> {
    let node: TypedQueryNode
    init(_ node: TypedQueryNode) { self.node = node }

    private var pathText: String {
        if case .keyPath(let comps, _) = node { return comps.joined(separator: ".") }
        return "an expression"
    }

    /// The key path with `name` appended; `crossing` when the path so far is a collection whose
    /// elements `name` is read from.
    func appending(_ name: String, crossing: Bool = false) -> TypedQueryNode {
        guard case .keyPath(let comps, let at) = node else {
            return .invalid("'\(name)' cannot follow \(pathText)")
        }
        return .keyPath(comps + [name], collectionAt: at ?? (crossing && !comps.isEmpty ? comps.count - 1 : nil))
    }

    /// `map['key']`.
    func subscripted(_ key: String) -> TypedQueryNode {
        guard case .keyPath(var comps, let at) = node, !comps.isEmpty else {
            return .invalid("A map key ['\(key)'] cannot follow \(pathText)")
        }
        comps[comps.count - 1] += "[" + quoteString(key) + "]"
        return .keyPath(comps, collectionAt: at)
    }

    /// `@op` right after the collection the key path crosses (`dogs.@avg.age` for `$0.dogs.age.avg`).
    func aggregatingThroughCollection(_ op: String) -> TypedQueryNode {
        guard case .keyPath(var comps, let at) = node else {
            return .invalid("'.\(op)' cannot follow \(pathText)")
        }
        guard let at else {
            return .invalid("'.\(op)' on '\(pathText)' needs a property of the objects of a collection ($0.dogs.age.\(op)) or a collection of values ($0.scores.\(op))")
        }
        comps.insert("@" + op, at: at + 1)
        return .keyPath(comps, collectionAt: nil)
    }

    /// A property of an object (`$0.age`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> where T: ObjectBase {
        Query<V>(appending(T._propertyName(for: keyPath)))
    }

    /// A property of an optional linked object (`$0.owner.name`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Wrapped, V>) -> Query<V> where T: _QueryOptional, T.Wrapped: ObjectBase {
        Query<V>(appending(T.Wrapped._propertyName(for: keyPath)))
    }

    /// A property of the objects of a collection of objects (`$0.dogs.age > 3`, a `List`,
    /// `MutableSet` or `LinkingObjects`): true when any of them matches, RQL's implicit `ANY`.
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Element, V>) -> Query<V> where T: Sequence, T.Element: ObjectBase {
        Query<V>(appending(T.Element._propertyName(for: keyPath), crossing: true))
    }

    private static func compare(_ l: Query<T>, _ op: String, _ r: Any) -> Query<Bool> { Query<Bool>(.comparison(l.node, op, .constant(r))) }

    /// `property == value`.
    public static func == (l: Query<T>, r: T) -> Query<Bool> { compare(l, "==", r) }
    /// `property != value`.
    public static func != (l: Query<T>, r: T) -> Query<Bool> { compare(l, "!=", r) }
    /// `property > value`.
    public static func > (l: Query<T>, r: T) -> Query<Bool> { compare(l, ">", r) }
    /// `property >= value`.
    public static func >= (l: Query<T>, r: T) -> Query<Bool> { compare(l, ">=", r) }
    /// `property < value`.
    public static func < (l: Query<T>, r: T) -> Query<Bool> { compare(l, "<", r) }
    /// `property <= value`.
    public static func <= (l: Query<T>, r: T) -> Query<Bool> { compare(l, "<=", r) }
    /// `property == otherProperty`.
    public static func == (l: Query<T>, r: Query<T>) -> Query<Bool> { Query<Bool>(.comparison(l.node, "==", r.node)) }
    /// `property != otherProperty`.
    public static func != (l: Query<T>, r: Query<T>) -> Query<Bool> { Query<Bool>(.comparison(l.node, "!=", r.node)) }
    /// `property > otherProperty`.
    public static func > (l: Query<T>, r: Query<T>) -> Query<Bool> { Query<Bool>(.comparison(l.node, ">", r.node)) }
    /// `property >= otherProperty`.
    public static func >= (l: Query<T>, r: Query<T>) -> Query<Bool> { Query<Bool>(.comparison(l.node, ">=", r.node)) }
    /// `property < otherProperty`.
    public static func < (l: Query<T>, r: Query<T>) -> Query<Bool> { Query<Bool>(.comparison(l.node, "<", r.node)) }
    /// `property <= otherProperty`.
    public static func <= (l: Query<T>, r: Query<T>) -> Query<Bool> { Query<Bool>(.comparison(l.node, "<=", r.node)) }

    /// `IN {…}`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        Query<Bool>(.comparison(node, "IN", .constants(values.map { $0 as Any })))
    }

    /// `BETWEEN {low, high}` (inclusive).
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> where T: Comparable {
        Query<Bool>(.between(node, range.lowerBound, range.upperBound))
    }

    /// `property >= low AND property < high`.
    public func contains(_ range: Range<T>) -> Query<Bool> where T: Comparable {
        Query<Bool>(.and(.comparison(node, ">=", .constant(range.lowerBound)), .comparison(node, "<", .constant(range.upperBound))))
    }

    /// `ANY collection == value` for a collection of `V`.
    public func contains<V>(_ value: V) -> Query<Bool> where T: Sequence, T.Element == V {
        Query<Bool>(.comparison(.constant(value), "IN", node))
    }
}

// MARK: strings and binary data

extension Query where T: _QueryBinary {
    private func stringOp(_ op: String, _ value: Any, _ options: StringOptions) -> Query<Bool> {
        Query<Bool>(.comparison(node, op + options.modifier, .constant(value)))
    }

    /// `BEGINSWITH` (with `[c]`/`[d]` from `options`).
    public func starts(with s: String, options: StringOptions = []) -> Query<Bool> { stringOp("BEGINSWITH", s, options) }
    /// `ENDSWITH` (with `[c]`/`[d]` from `options`).
    public func ends(with s: String, options: StringOptions = []) -> Query<Bool> { stringOp("ENDSWITH", s, options) }
    /// `CONTAINS` (with `[c]`/`[d]` from `options`).
    public func contains(_ s: String, options: StringOptions = []) -> Query<Bool> { stringOp("CONTAINS", s, options) }
    /// `LIKE` with `?` and `*` wildcards, `[c]` when `caseInsensitive`.
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> Query<Bool> {
        stringOp("LIKE", pattern, caseInsensitive ? .caseInsensitive : [])
    }
    /// `==` on strings with `[c]`/`[d]` from `options`.
    public func equals(_ s: String, options: StringOptions = []) -> Query<Bool> { stringOp("==", s, options) }
    /// `!=` on strings with `[c]`/`[d]` from `options`.
    public func notEquals(_ s: String, options: StringOptions = []) -> Query<Bool> { stringOp("!=", s, options) }

    /// `BEGINSWITH` binary data.
    public func starts(with d: Data, options: StringOptions = []) -> Query<Bool> { stringOp("BEGINSWITH", d, options) }
    /// `ENDSWITH` binary data.
    public func ends(with d: Data, options: StringOptions = []) -> Query<Bool> { stringOp("ENDSWITH", d, options) }
    /// `CONTAINS` binary data.
    public func contains(_ d: Data, options: StringOptions = []) -> Query<Bool> { stringOp("CONTAINS", d, options) }

    private func columnOp<U>(_ op: String, _ column: Query<U>, _ options: StringOptions) -> Query<Bool> {
        Query<Bool>(.comparison(node, op + options.modifier, column.node))
    }
    /// `BEGINSWITH` another property (`$0.name.starts(with: $0.prefix)`).
    public func starts<U: _QueryBinary>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> { columnOp("BEGINSWITH", column, options) }
    /// `ENDSWITH` another property.
    public func ends<U: _QueryBinary>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> { columnOp("ENDSWITH", column, options) }
    /// `CONTAINS` another property.
    public func contains<U: _QueryBinary>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> { columnOp("CONTAINS", column, options) }
    /// `LIKE` another property.
    public func like<U: _QueryBinary>(_ column: Query<U>, caseInsensitive: Bool = false) -> Query<Bool> {
        columnOp("LIKE", column, caseInsensitive ? .caseInsensitive : [])
    }
    /// `==` another property, with `[c]`/`[d]` from `options`.
    public func equals<U: _QueryBinary>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> { columnOp("==", column, options) }
    /// `!=` another property, with `[c]`/`[d]` from `options`.
    public func notEquals<U: _QueryBinary>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> { columnOp("!=", column, options) }
}

// MARK: ranges of optionals

extension Query where T: _QueryOptional, T.Wrapped: Comparable {
    /// `BETWEEN {low, high}` on an optional property (nil is in no range).
    public func contains(_ range: ClosedRange<T.Wrapped>) -> Query<Bool> {
        Query<Bool>(.between(node, range.lowerBound, range.upperBound))
    }
    /// `property >= low AND property < high` on an optional property.
    public func contains(_ range: Range<T.Wrapped>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(node, ">=", .constant(range.lowerBound)), .comparison(node, "<", .constant(range.upperBound))))
    }
}

// MARK: enums

extension Query where T: PersistableEnum {
    /// The enum's raw value, for what the enum type cannot express
    /// (`$0.status.rawValue.starts(with: "o")`, `$0.kind.rawValue > 1`).
    public var rawValue: Query<T.RawValue> { Query<T.RawValue>(node) }
}

extension Query where T: _QueryOptional, T.Wrapped: PersistableEnum {
    /// The optional enum's raw value (nil when the property is nil).
    public var rawValue: Query<T.Wrapped.RawValue?> { Query<T.Wrapped.RawValue?>(node) }
}

extension Query where T: RealmCollection, T.Element: PersistableEnum, T.Element.RawValue: RealmCollectionValue {
    /// The raw values of a collection of enums (`$0.statuses.rawValue.contains("open")`).
    public var rawValue: Query<List<T.Element.RawValue>> { Query<List<T.Element.RawValue>>(node) }
}

extension Query where T: _QueryMap, T.Value: PersistableEnum, T.Value.RawValue: RealmCollectionValue {
    /// The raw values of a map of enums (`$0.byDay.rawValue["mon"] == 2`).
    public var rawValue: Query<Map<T.Key, T.Value.RawValue>> { Query<Map<T.Key, T.Value.RawValue>>(node) }
}

extension Query where T: PersistableEnum {
    /// The stored value (the raw value), as RealmSwift's `persistableValue`.
    public var persistableValue: Query<T.RawValue> { Query<T.RawValue>(node) }
}

// MARK: custom persistable types

extension Query where T: CustomPersistable {
    /// The stored value, for what the type cannot express (`$0.temperature.persistableValue > 20`).
    public var persistableValue: Query<T.PersistedType> { Query<T.PersistedType>(node) }
}

extension Query where T: FailableCustomPersistable {
    /// The stored value (`$0.url.persistableValue.starts(with: "https:")`).
    public var persistableValue: Query<T.PersistedType> { Query<T.PersistedType>(node) }
}

extension Query where T: _QueryOptional, T.Wrapped: CustomPersistable {
    /// The stored value of an optional property (nil when the property is nil).
    public var persistableValue: Query<T.Wrapped.PersistedType?> { Query<T.Wrapped.PersistedType?>(node) }
}

extension Query where T: _QueryOptional, T.Wrapped: FailableCustomPersistable {
    /// The stored value of an optional property (nil when the property is nil).
    public var persistableValue: Query<T.Wrapped.PersistedType?> { Query<T.Wrapped.PersistedType?>(node) }
}

extension Query where T: RealmCollection, T.Element: CustomPersistable, T.Element.PersistedType: RealmCollectionValue {
    /// The stored values of a collection (`$0.readings.persistableValue > 30`: any of them).
    public var persistableValue: Query<List<T.Element.PersistedType>> { Query<List<T.Element.PersistedType>>(node) }
}

extension Query where T: RealmCollection, T.Element: FailableCustomPersistable, T.Element.PersistedType: RealmCollectionValue {
    /// The stored values of a collection.
    public var persistableValue: Query<List<T.Element.PersistedType>> { Query<List<T.Element.PersistedType>>(node) }
}

// MARK: collections (List, MutableSet, LinkingObjects)

extension Query where T: RealmCollection {
    /// The number of elements (`@count`).
    public var count: Query<Int> { Query<Int>(appending("@count")) }

    /// Any element equals the value (`$0.kinds == .large`).
    public static func == (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, "==", .constant(r))) }
    /// Any element differs from the value.
    public static func != (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, "!=", .constant(r))) }

    /// Any element is one of `values` (`ANY collection IN {…}`).
    public func containsAny<U: Sequence>(in values: U) -> Query<Bool> where U.Element == T.Element {
        Query<Bool>(.comparison(node, "IN", .constants(values.map { $0 as Any })))
    }
}

extension Query where T: RealmCollection, T.Element: _QueryNumeric {
    /// Any element is greater than the value.
    public static func > (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, ">", .constant(r))) }
    /// Any element is greater than or equal to the value.
    public static func >= (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, ">=", .constant(r))) }
    /// Any element is less than the value.
    public static func < (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, "<", .constant(r))) }
    /// Any element is less than or equal to the value.
    public static func <= (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, "<=", .constant(r))) }

    /// The smallest element (`@min`; nil for an empty collection).
    public var min: Query<T.Element> { Query<T.Element>(appending("@min")) }
    /// The largest element (`@max`; nil for an empty collection).
    public var max: Query<T.Element> { Query<T.Element>(appending("@max")) }
    /// The average of the elements (`@avg`; nil for an empty collection).
    public var avg: Query<T.Element> { Query<T.Element>(appending("@avg")) }
    /// The sum of the elements (`@sum`; 0 for an empty collection).
    public var sum: Query<T.Element> { Query<T.Element>(appending("@sum")) }
}

extension Query where T: RealmCollection, T.Element: PersistableEnum, T.Element.RawValue: _QueryNumeric {
    /// Any element's raw value is greater than the case's.
    public static func > (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, ">", .constant(r))) }
    /// Any element's raw value is greater than or equal to the case's.
    public static func >= (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, ">=", .constant(r))) }
    /// Any element's raw value is less than the case's.
    public static func < (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, "<", .constant(r))) }
    /// Any element's raw value is less than or equal to the case's.
    public static func <= (l: Query<T>, r: T.Element) -> Query<Bool> { Query<Bool>(.comparison(l.node, "<=", .constant(r))) }
}

extension Query where T: RealmCollection, T.Element: Comparable {
    /// Every element lies in the range (`@min >= low AND @max <= high`).
    public func contains(_ range: ClosedRange<T.Element>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<=", .constant(range.upperBound))))
    }
    /// Every element lies in the half-open range (`@min >= low AND @max < high`).
    public func contains(_ range: Range<T.Element>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<", .constant(range.upperBound))))
    }
}

extension Query where T: RealmCollection, T.Element: _QueryOptional, T.Element.Wrapped: Comparable {
    /// Every non-nil element lies in the range (`@min >= low AND @max <= high`).
    public func contains(_ range: ClosedRange<T.Element.Wrapped>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<=", .constant(range.upperBound))))
    }
    /// Every non-nil element lies in the half-open range (`@min >= low AND @max < high`).
    public func contains(_ range: Range<T.Element.Wrapped>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<", .constant(range.upperBound))))
    }
}

// MARK: key path aggregates

extension Query where T: _QueryNumeric {
    /// The smallest value of a property over the objects of a collection (`$0.dogs.age.min`:
    /// `dogs.@min.age`).
    public var min: Query<T> { Query<T>(aggregatingThroughCollection("min")) }
    /// The largest value of a property over the objects of a collection (`dogs.@max.age`).
    public var max: Query<T> { Query<T>(aggregatingThroughCollection("max")) }
    /// The average of a property over the objects of a collection (`$0.dogs.age.avg > 3`:
    /// `dogs.@avg.age`).
    public var avg: Query<T> { Query<T>(aggregatingThroughCollection("avg")) }
    /// The sum of a property over the objects of a collection (`dogs.@sum.age`).
    public var sum: Query<T> { Query<T>(aggregatingThroughCollection("sum")) }
}

// MARK: maps

extension Query where T: _QueryMap {
    /// The value for a key (`$0.scores["a"] > 3`); a missing key matches nothing.
    public subscript(member: T.Key) -> Query<T.Value> { Query<T.Value>(subscripted(member._mapKeyString)) }
    /// Each key of the map (`$0.scores.keys == "a"`: the map has the key "a").
    public var keys: Query<String> { Query<String>(appending("@keys")) }
    /// Each value of the map (`$0.scores.values > 3`: any value is greater than 3).
    public var values: Query<T.Value> {
        guard case .keyPath(let comps, let at) = node else { return Query<T.Value>(appending("@values")) }
        return Query<T.Value>(.keyPath(comps + ["@values"], collectionAt: at ?? comps.count))
    }
    /// The number of entries (`@count`).
    public var count: Query<Int> { Query<Int>(appending("@count")) }
    /// Any value equals `value` (`value IN map`).
    public func contains(_ value: T.Value) -> Query<Bool> { Query<Bool>(.comparison(.constant(value), "IN", node)) }
    /// Any value is one of `values`.
    public func containsAny<U: Sequence>(in values: U) -> Query<Bool> where U.Element == T.Value {
        Query<Bool>(.comparison(node, "IN", .constants(values.map { $0 as Any })))
    }
}

extension Query where T: _QueryMap, T.Value: _QueryNumeric {
    /// The smallest value (`@min`).
    public var min: Query<T.Value> { Query<T.Value>(appending("@min")) }
    /// The largest value (`@max`).
    public var max: Query<T.Value> { Query<T.Value>(appending("@max")) }
    /// The average of the values (`@avg`).
    public var avg: Query<T.Value> { Query<T.Value>(appending("@avg")) }
    /// The sum of the values (`@sum`).
    public var sum: Query<T.Value> { Query<T.Value>(appending("@sum")) }
}

extension Query where T: _QueryMap, T.Value: Comparable {
    /// Every value lies in the range (`@min >= low AND @max <= high`).
    public func contains(_ range: ClosedRange<T.Value>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<=", .constant(range.upperBound))))
    }
    /// Every value lies in the half-open range (`@min >= low AND @max < high`).
    public func contains(_ range: Range<T.Value>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<", .constant(range.upperBound))))
    }
}

extension Query where T: _QueryMap, T.Value: _QueryOptional, T.Value.Wrapped: Comparable {
    /// Every non-nil value lies in the range (`@min >= low AND @max <= high`).
    public func contains(_ range: ClosedRange<T.Value.Wrapped>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<=", .constant(range.upperBound))))
    }
    /// Every non-nil value lies in the half-open range (`@min >= low AND @max < high`).
    public func contains(_ range: Range<T.Value.Wrapped>) -> Query<Bool> {
        Query<Bool>(.and(.comparison(appending("@min"), ">=", .constant(range.lowerBound)),
                         .comparison(appending("@max"), "<", .constant(range.upperBound))))
    }
}

// MARK: predicates

extension Query where T == Bool {
    /// Both predicates hold (`AND`).
    public static func && (l: Query<Bool>, r: Query<Bool>) -> Query<Bool> { Query(.and(l.node, r.node)) }
    /// Either predicate holds (`OR`).
    public static func || (l: Query<Bool>, r: Query<Bool>) -> Query<Bool> { Query(.or(l.node, r.node)) }
    /// The predicate does not hold (`NOT`).
    public static prefix func ! (q: Query<Bool>) -> Query<Bool> { Query(.not(q.node)) }

    /// The number of elements of one collection for which the predicate holds (a SUBQUERY):
    /// `($0.dogs.age > 3 && $0.dogs.name.starts(with: "R")).count >= 2`. The predicate may
    /// reference one collection only.
    public var count: Query<Int> { Query<Int>(.subqueryCount(node)) }

    /// The RQL text with `$n` placeholders and the converted arguments.
    func predicateText() throws -> (String, [QueryValue]) {
        var args: [QueryValue] = []
        var subqueries = 0
        func arg(_ v: Any) throws -> String {
            // Enums and custom persistables compare as the value their column stores.
            args.append(try QueryArguments.convert(persistedQueryArgument(v), index: args.count))
            return "$\(args.count - 1)"
        }
        func operand(_ n: TypedQueryNode) throws -> String {
            switch n {
            case .keyPath(let comps, _): return comps.joined(separator: ".")
            case .constant(let v): return try arg(v)
            case .constants(let vs): return "{" + (try vs.map(arg)).joined(separator: ", ") + "}"
            case .subqueryCount(let inner): return try subquery(inner)
            case .invalid(let message): throw QueryError(kind: .unsupported, message: message)
            default: return "(" + (try predicate(n)) + ")"
            }
        }
        func predicate(_ n: TypedQueryNode) throws -> String {
            switch n {
            case .keyPath: return try operand(n) + " == true"   // a Bool property alone
            case .constant(let v): return (v as? Bool) == true ? "TRUEPREDICATE" : "FALSEPREDICATE"
            case .constants: return "FALSEPREDICATE"
            case .comparison(let l, let op, let r): return try operand(l) + " " + op + " " + operand(r)
            case .between(let x, let lo, let hi): return try operand(x) + " BETWEEN {" + arg(lo) + ", " + arg(hi) + "}"
            case .and(let a, let b): return "(" + (try predicate(a)) + ") AND (" + (try predicate(b)) + ")"
            case .or(let a, let b): return "(" + (try predicate(a)) + ") OR (" + (try predicate(b)) + ")"
            case .not(let a): return "NOT (" + (try predicate(a)) + ")"
            case .subqueryCount: return try operand(n) + " > 0"
            case .invalid(let message): throw QueryError(kind: .unsupported, message: message)
            }
        }
        // `SUBQUERY(dogs, $col1, $col1.age > 3).@count`: paths through the collection are
        // rewritten to start at the variable.
        func subquery(_ inner: TypedQueryNode) throws -> String {
            subqueries += 1
            let variable = "$col\(subqueries)"
            var collection: [String]?
            func rewrite(_ n: TypedQueryNode) throws -> TypedQueryNode {
                switch n {
                case .keyPath(let comps, let at):
                    guard let at else { return n }
                    let head = Array(comps[...at])
                    if let c = collection, c != head {
                        throw QueryError(kind: .unsupported, message: "A subquery's predicate may reference one collection only, but it uses '\(c.joined(separator: "."))' and '\(head.joined(separator: "."))'")
                    }
                    collection = head
                    return .keyPath([variable] + comps[(at + 1)...], collectionAt: nil)
                case .comparison(let l, let op, let r): return .comparison(try rewrite(l), op, try rewrite(r))
                case .between(let x, let lo, let hi): return .between(try rewrite(x), lo, hi)
                case .and(let a, let b): return .and(try rewrite(a), try rewrite(b))
                case .or(let a, let b): return .or(try rewrite(a), try rewrite(b))
                case .not(let a): return .not(try rewrite(a))
                case .constant, .constants, .subqueryCount, .invalid: return n
                }
            }
            let rewritten = try rewrite(inner)
            guard let c = collection else {
                throw QueryError(kind: .unsupported, message: "'.count' of a predicate needs a predicate on the objects of a collection, as in ($0.dogs.age > 3).count")
            }
            return "SUBQUERY(" + c.joined(separator: ".") + ", " + variable + ", " + (try predicate(rewritten)) + ").@count"
        }
        let text = try predicate(node)
        return (text, args)
    }
}
