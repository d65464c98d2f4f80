// Realm Query Language on the typed `Results` of StrataObjects: `filter`, the typed
// `where { }`, `sorted`, `distinct`, as `ResultsStage`s run by the `QueryExecutor`.
import Foundation
import StrataObjects

// MARK: stages

/// A `Results` stage that runs a bound query over the previous stage's objects: its predicate
/// filters (keeping their order), then its SORT / DISTINCT / LIMIT clauses apply.
package struct QueryStage: ResultsStage {
    package let query: BoundQuery
    package let stageDescription: String

    package init(_ query: BoundQuery, description: String) {
        self.query = query
        self.stageDescription = description
    }

    package func apply(to keys: [ObjKey]?, className: String, in txn: DBTransaction) throws -> [ObjKey] {
        if case .constant(true) = query.predicate, keys == nil, !query.ordering.isEmpty {
            return try QueryExecutor(txn).applyOrdering(query.ordering, to: txn.objectKeys(className), className: className)
        }
        return try QueryExecutor(txn).run(query, among: keys)
    }

    package func count(of keys: [ObjKey]?, className: String, in txn: DBTransaction) throws -> Int {
        try QueryExecutor(txn).count(query, among: keys)
    }
}

/// RealmSwift's `SortDescriptor`: a key path (`"age"`, `"owner.name"`) and a direction.
/// (Foundation has a generic `SortDescriptor<T>` too; write `StrataQuery.SortDescriptor` if
/// a file sees both and the name is ambiguous.)
public struct SortDescriptor: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The property or key path to sort by (`"age"`, `"owner.name"`).
    public var keyPath: String
    /// True for ascending order (the default).
    public var ascending: Bool
    /// A sort key on `keyPath`, ascending unless told.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
    public init(stringLiteral value: String) { self.init(keyPath: value) }
    /// The descriptor with the opposite direction.
    public func reversed() -> SortDescriptor { SortDescriptor(keyPath: keyPath, ascending: !ascending) }
}

// MARK: Results

extension Results where Element: ObjectBase {
    /// Parses and binds a query for this class against the realm's schema.
    package func compileQuery(_ text: String, _ arguments: [Any]) throws -> BoundQuery {
        let schema = withTransaction { QuerySchema($0.schema) }
        let (text, arguments) = rewritePredicatePlaceholders(text, arguments)   // RealmSwift's %@ and %K
        return try RQL.compile(text, schema: schema, className: className, arguments: QueryArguments.convert(arguments))
    }

    /// The objects matching a Realm Query Language predicate (`"age > $0 AND name BEGINSWITH[c] 'b'"`),
    /// which may end with SORT / DISTINCT / LIMIT. Like RealmSwift, an invalid query traps with
    /// the error message (naming the position and the problem); use `filter(checked:)` to get
    /// the error instead.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try filter(checked: predicateFormat, arguments: args) } catch {
            preconditionFailure("Strata: invalid query '\(predicateFormat)': \(error)")
        }
    }

    /// `filter(_:_:)` that throws a `QueryError` for an invalid query.
    public func filter(checked predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try filter(checked: predicateFormat, arguments: args)
    }

    /// `filter(checked:)` with the arguments as an array.
    public func filter(checked predicateFormat: String, arguments: [Any]) throws -> Results<Element> {
        let q = try compileQuery(predicateFormat, arguments)
        return appending(QueryStage(q, description: "filter(\(predicateFormat))"))
    }

    /// The objects for which the typed predicate holds:
    /// `people.where { $0.age > 3 && $0.name.starts(with: "B") }`.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        let predicate = isIncluded(Query<Element>(.path("")))
        do {
            let (text, args) = try predicate.predicateText()
            let q = try RQL.compile(text, schema: withTransaction { QuerySchema($0.schema) }, className: className, arguments: args)
            return appending(QueryStage(q, description: "where(\(text))"))
        } catch {
            preconditionFailure("Strata: invalid typed query: \(error)")
        }
    }

    /// Sorted by one key path (`"age"`, `"owner.name"`); stable, nulls first when ascending.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// Sorted by a typed key path (`\.age`).
    public func sorted<V>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: Element._propertyName(for: keyPath), ascending: ascending)
    }

    /// Sorted by several keys, the first deciding first.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        let ds = Array(descriptors)
        guard !ds.isEmpty else { return self }
        let text = "TRUEPREDICATE SORT(" + ds.map { "\($0.keyPath) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ") + ")"
        do {
            let q = try compileQuery(text, [])
            return appending(QueryStage(q, description: "sorted(" + ds.map { "\($0.keyPath)\($0.ascending ? "" : " desc")" }.joined(separator: ", ") + ")"))
        } catch {
            preconditionFailure("Strata: cannot sort by \(ds.map(\.keyPath)): \(error)")
        }
    }

    /// The first object of each distinct combination of the key paths' values.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        let ps = Array(keyPaths)
        guard !ps.isEmpty else { return self }
        do {
            let q = try compileQuery("TRUEPREDICATE DISTINCT(" + ps.joined(separator: ", ") + ")", [])
            return appending(QueryStage(q, description: "distinct(" + ps.joined(separator: ", ") + ")"))
        } catch {
            preconditionFailure("Strata: cannot make distinct by \(ps): \(error)")
        }
    }

    /// At most `n` objects (RQL's LIMIT).
    public func limit(_ n: Int) -> Results<Element> {
        appending(QueryStage(BoundQuery(className: className, predicate: .constant(true), ordering: [.limit(Swift.max(n, 0))]),
                             description: "limit(\(n))"))
    }

    /// `min`/`max`/`sum`/`avg` of a property over these results, computed on the columns
    /// (the reference evaluator's types: sums of Int are Int, averages Double, …).
    public func aggregate(_ op: QueryAggregate, ofProperty property: String) throws -> QueryValue {
        let keys: [ObjKey]? = stages.isEmpty ? nil : objectKeys
        let cls = className
        return try withTransaction { txn in
            try QueryExecutor(txn).aggregate(op, property: property, className: cls, among: keys)
        }
    }
}

// MARK: typed queries

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
    case path(String)
    case constant(Any)
    case constants([Any])
    case comparison(TypedQueryNode, String, TypedQueryNode)
    case between(TypedQueryNode, Any, Any)
    case and(TypedQueryNode, TypedQueryNode)
    case or(TypedQueryNode, TypedQueryNode)
    case not(TypedQueryNode)
    case suffix(TypedQueryNode, String)
}

/// The typed query builder of `Results.where { }` (RealmSwift's `Query<T>`): `$0.age > 3`,
/// `$0.owner.name == "Ann"`, `$0.name.starts(with: "B", options: .caseInsensitive)`,
/// `$0.age.contains(20...40)`, `$0.tag.in(["a", "b"])`, `$0.dogs.count > 2`, `$0.dogs.age == 4`
/// (any dog), `&&`, `||`, `!`.
@dynamicMemberLookup
public struct Query<T> {
    let node: TypedQueryNode
    init(_ node: TypedQueryNode) { self.node = node }

    private var pathText: String { if case .path(let p) = node { return p }; return "" }
    private func child(_ name: String) -> TypedQueryNode { .path(pathText.isEmpty ? name : pathText + "." + name) }

    /// A property of an object (`$0.age`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> where T: ObjectBase {
        Query<V>(child(T._propertyName(for: keyPath)))
    }

    /// A property of an optional linked object (`$0.owner.name`).
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Wrapped, V>) -> Query<V> where T: _QueryOptional, T.Wrapped: ObjectBase {
        Query<V>(child(T.Wrapped._propertyName(for: keyPath)))
    }

    /// A property of the objects of a collection of objects (`$0.dogs.age > 3`, a `List`,
    /// `MutableSet` or `LinkingObjects`): true when any of them matches, RQL's implicit `ANY`.
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Element, V>) -> Query<V> where T: Sequence, T.Element: ObjectBase {
        Query<V>(child(T.Element._propertyName(for: keyPath)))
    }

    /// The number of elements of a collection property (`@count`).
    public var count: Query<Int> { Query<Int>(.suffix(node, "@count")) }

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
    /// `property < otherProperty`.
    public static func < (l: Query<T>, r: Query<T>) -> Query<Bool> { Query<Bool>(.comparison(l.node, "<", r.node)) }

    /// `IN {…}`.
    public func `in`<S: Sequence>(_ values: S) -> Query<Bool> where S.Element == T {
        Query<Bool>(.comparison(node, "IN", .constants(values.map { $0 as Any })))
    }

    /// `BETWEEN {low, high}` (inclusive).
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> where T: Comparable {
        Query<Bool>(.between(node, range.lowerBound, range.upperBound))
    }

    /// `ANY collection == value` for a collection of `V`.
    public func contains<V>(_ value: V) -> Query<Bool> where T: Sequence, T.Element == V {
        Query<Bool>(.comparison(.constant(value), "IN", node))
    }

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
}

extension Query where T == Bool {
    /// Both predicates hold (`AND`).
    public static func && (l: Query<Bool>, r: Query<Bool>) -> Query<Bool> { Query(.and(l.node, r.node)) }
    /// Either predicate holds (`OR`).
    public static func || (l: Query<Bool>, r: Query<Bool>) -> Query<Bool> { Query(.or(l.node, r.node)) }
    /// The predicate does not hold (`NOT`).
    public static prefix func ! (q: Query<Bool>) -> Query<Bool> { Query(.not(q.node)) }

    /// The RQL text with `$n` placeholders and the converted arguments.
    func predicateText() throws -> (String, [QueryValue]) {
        var args: [QueryValue] = []
        func arg(_ v: Any) throws -> String {
            args.append(try QueryArguments.convert(v, index: args.count))
            return "$\(args.count - 1)"
        }
        func operand(_ n: TypedQueryNode) throws -> String {
            switch n {
            case .path(let p): return p
            case .constant(let v): return try arg(v)
            case .constants(let vs): return "{" + (try vs.map(arg)).joined(separator: ", ") + "}"
            case .suffix(let inner, let s): return try operand(inner) + "." + s
            default: return "(" + (try predicate(n)) + ")"
            }
        }
        func predicate(_ n: TypedQueryNode) throws -> String {
            switch n {
            case .path, .suffix: return try operand(n) + " == true"   // a Bool property alone
            case .constant(let v): return (v as? Bool) == true ? "TRUEPREDICATE" : "FALSEPREDICATE"
            case .constants: return "FALSEPREDICATE"
            case .comparison(let l, let op, let r): return try operand(l) + " " + op + " " + operand(r)
            case .between(let x, let lo, let hi): return try operand(x) + " BETWEEN {" + arg(lo) + ", " + arg(hi) + "}"
            case .and(let a, let b): return "(" + (try predicate(a)) + ") AND (" + (try predicate(b)) + ")"
            case .or(let a, let b): return "(" + (try predicate(a)) + ") OR (" + (try predicate(b)) + ")"
            case .not(let a): return "NOT (" + (try predicate(a)) + ")"
            }
        }
        let text = try predicate(node)
        return (text, args)
    }
}
