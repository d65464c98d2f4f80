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
        let predicate = isIncluded(Query<Element>(.keyPath([], collectionAt: nil)))
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

