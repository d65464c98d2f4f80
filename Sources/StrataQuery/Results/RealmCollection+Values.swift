import Foundation
import StrataObjects

// Filtering, sorting and distinct for collections of primitive values (`List<Int>`,
// `MutableSet<String>`, `Results<Date>`, …), as RealmSwift's: each returns live `Results` of
// the values. A predicate names the element `self` (`"self > 2"`, `"self BEGINSWITH 'a'"`);
// it is bound against a one-property class whose property `self` has the element's type and
// run by the reference evaluator, and sorting uses the query layer's one ordering
// (`sortCompare`: numbers by value, strings by code point, nulls first ascending).

/// The elements of a collection of values as the evaluator's objects: object `i` is element
/// `i`, whose only property, `self`, is its value.
struct ValueElementAccess: QueryObjectAccess {
    let elements: [QueryValue]
    func value(of object: Int, property: String) -> QueryValue { elements[object] }
    func link(of object: Int, property: String) -> Int? { nil }
    func objects(of object: Int, property: String) -> [Int] { [] }
    func values(of object: Int, property: String) -> [QueryValue] { [] }
    func map(of object: Int, property: String) -> [(key: String, value: QueryValue)] { [] }
    func objectMap(of object: Int, property: String) -> [(key: String, value: Int?)] { [] }
    func backlinks(of object: Int, originClass: String, property: String) -> [Int] { [] }
    func backlinkCount(of object: Int) -> Int { 0 }
    func reference(of object: Int) -> QueryObjectRef { QueryObjectRef(className: "", key: Int64(object)) }
}

/// A stage of results of values: a bound query whose predicate, SORT and DISTINCT name `self`.
struct ValueQueryStage: ValueResultsStage {
    let query: BoundQuery
    let stageDescription: String

    func apply(to values: [Value]) throws -> [Value] {
        let access = ValueElementAccess(elements: values.map(QueryValue.init))
        return QueryEvaluator(access).run(query, over: values.indices).map { values[$0] }
    }
}

extension Results {
    /// Binds a query over results of values: `self` is the element.
    func compileValueQuery(_ text: String, _ arguments: [Any]) throws -> BoundQuery {
        let source = QueryProperty(_valueSourceProperty)
        let elementType: QueryPropertyType
        switch source.type {
        case .list(let e), .set(let e): elementType = e
        default: elementType = source.type
        }
        let className = "\(Element.self)"
        let schema = QuerySchema([QueryClass(className, [QueryProperty("self", elementType, optional: source.isOptional)])])
        let (text, arguments) = rewritePredicatePlaceholders(text, arguments)
        return try RQL.compile(text, schema: schema, className: className, arguments: QueryArguments.convert(arguments))
    }

    /// Results of values with the query `text` appended as a stage.
    func appendingValueQuery(_ text: String, _ arguments: [Any], description: String) throws -> Results<Element> {
        _appendingValueStage(ValueQueryStage(query: try compileValueQuery(text, arguments), stageDescription: description))
    }
}

extension RealmCollection {
    /// The values matching a Realm Query Language predicate on `self`
    /// (`scores.filter("self > 2")`, `tags.filter("self BEGINSWITH[c] $0", "a")`), as live
    /// `Results` (RealmSwift's `filter` on collections of values). An invalid query traps with
    /// the error message; use `filter(checked:)` to get the error instead.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try filter(checked: predicateFormat, arguments: args) } catch {
            preconditionFailure("Strata: invalid query '\(predicateFormat)': \(error)")
        }
    }

    /// `filter(_:_:)` on values that throws a `QueryError` for an invalid query.
    public func filter(checked predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try filter(checked: predicateFormat, arguments: args)
    }

    /// `filter(checked:)` on values with the arguments as an array.
    public func filter(checked predicateFormat: String, arguments: [Any]) throws -> Results<Element> {
        try _strataValueResults.appendingValueQuery(predicateFormat, arguments, description: "filter(\(predicateFormat))")
    }

    /// The values without repeats, each at its first position (RealmSwift's `distinct()` on
    /// collections of values), as live `Results`.
    public func distinct() -> Results<Element> {
        do { return try _strataValueResults.appendingValueQuery("TRUEPREDICATE DISTINCT(self)", [], description: "distinct()") } catch {
            preconditionFailure("Strata: cannot make \(Element.self) values distinct: \(error)")
        }
    }
}

extension RealmCollection where Element: Comparable {
    /// The values sorted (RealmSwift's `sorted(ascending:)` on collections of values), as live
    /// `Results`: stable, by the query layer's ordering (numbers by value, strings by code
    /// point, dates by time).
    public func sorted(ascending: Bool = true) -> Results<Element> { _strataValueResults.sortedValues(ascending: ascending) }
}

extension RealmCollection where Element: _QueryOptional, Element.Wrapped: Comparable {
    /// The optional values sorted, nils first when ascending (last when descending), as live
    /// `Results` (RealmSwift's `sorted(ascending:)` on collections of optional values).
    public func sorted(ascending: Bool = true) -> Results<Element> { _strataValueResults.sortedValues(ascending: ascending) }
}

extension Results {
    /// Results of values with a SORT on `self` appended.
    func sortedValues(ascending: Bool) -> Results<Element> {
        do {
            return try appendingValueQuery("TRUEPREDICATE SORT(self \(ascending ? "ASC" : "DESC"))", [],
                                           description: ascending ? "sorted()" : "sorted(ascending: false)")
        } catch {
            preconditionFailure("Strata: cannot sort \(Element.self) values: \(error)")
        }
    }
}
