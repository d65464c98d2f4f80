/// The syntax tree of a parsed Realm Query Language string, before it is checked against a schema.
///
/// The tree carries no source positions, so two queries that differ only in spelling
/// (`a = 1 && b <> 2` and `a == 1 AND b != 2`) produce equal trees, and `description` prints a
/// canonical form that parses back to an equal tree.

/// A whole query: a predicate followed by `SORT`, `DISTINCT` and `LIMIT` clauses, which apply in
/// the order written (as in Realm: `LIMIT(5) SORT(a ASC)` sorts the first five).
package struct ParsedQuery: Hashable, Sendable {
    package var predicate: QueryPredicate
    package var ordering: [QueryOrderingClause]

    package init(predicate: QueryPredicate, ordering: [QueryOrderingClause] = []) {
        self.predicate = predicate
        self.ordering = ordering
    }
}

/// A boolean condition. `and`/`or` are n-ary and flattened by the parser (never nested directly
/// in the same kind), each holding at least two operands.
package indirect enum QueryPredicate: Hashable, Sendable {
    /// `TRUEPREDICATE` (true) or `FALSEPREDICATE` (false).
    case constant(Bool)
    case and([QueryPredicate])
    case or([QueryPredicate])
    case not(QueryPredicate)
    case comparison(QueryComparison)

    /// The top-level AND clauses: the operands of a top-level `and`, or `[self]`.
    /// A scan can evaluate them one at a time and use an index for any `property == constant` one.
    package var conjuncts: [QueryPredicate] {
        if case .and(let parts) = self { return parts }
        return [self]
    }
}

/// `ANY`/`SOME`, `ALL`, `NONE` before a comparison whose left side goes through a collection.
package enum QueryQuantifier: String, Hashable, Sendable {
    case anyOf = "ANY"
    case allOf = "ALL"
    case noneOf = "NONE"
}

/// A comparison operator. `=` and `==` are both `equal`; `<>` and `!=` are both `notEqual`.
package enum QueryOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    /// `x IN {a, b}` / `x IN $0` (right side a list), or `'v' IN listProperty`.
    case `in` = "IN"
    /// `x BETWEEN {low, high}`: inclusive on both ends.
    case between = "BETWEEN"

    /// True for the operators that take `[c]`/`[d]` modifiers.
    package var acceptsStringOptions: Bool {
        switch self {
        case .equal, .notEqual, .beginsWith, .endsWith, .contains, .like, .in: return true
        default: return false
        }
    }

    /// True for BEGINSWITH, ENDSWITH, CONTAINS and LIKE.
    package var isStringOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like: return true
        default: return false
        }
    }

    /// True for < <= > >= and BETWEEN.
    package var isOrdering: Bool {
        switch self {
        case .less, .lessOrEqual, .greater, .greaterOrEqual, .between: return true
        default: return false
        }
    }
}

/// The `[c]`, `[d]`, `[cd]` modifiers of string comparisons.
package struct QueryStringOptions: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `[c]`: compare after Unicode case folding.
    package static let caseInsensitive = QueryStringOptions(rawValue: 1)
    /// `[d]`: compare after removing diacritics (combining marks after canonical decomposition).
    package static let diacriticInsensitive = QueryStringOptions(rawValue: 2)
}

/// `left op[options] right`, optionally quantified.
package struct QueryComparison: Hashable, Sendable {
    /// Explicit quantifier, or nil (implicit ANY when a side goes through a collection).
    package var quantifier: QueryQuantifier?
    package var left: QueryExpression
    package var op: QueryOperator
    package var options: QueryStringOptions
    package var right: QueryExpression

    package init(_ left: QueryExpression, _ op: QueryOperator, _ right: QueryExpression,
                options: QueryStringOptions = [], quantifier: QueryQuantifier? = nil) {
        self.left = left
        self.op = op
        self.right = right
        self.options = options
        self.quantifier = quantifier
    }
}

/// One side of a comparison.
package indirect enum QueryExpression: Hashable, Sendable {
    case keyPath(QueryKeyPath)
    /// A literal: `3`, `-2.5`, `'x'`, `true`, `nil`, `T2024-01-01@10:00:00`, `oid(...)`, ...
    /// Integer literals are `.int`, other numbers `.double`.
    case constant(QueryValue)
    /// `$0`, `$1`, ...
    case argument(Int)
    /// `{a, b, ...}`: constants and arguments, for `IN` and `BETWEEN`.
    case list([QueryExpression])
    /// `SUBQUERY(collection, $var, predicate).@count`.
    case subqueryCount(QuerySubquery)
}

/// `SUBQUERY(collection, $variable, predicate)`: `predicate` is evaluated for each element of
/// `collection` with the element bound to `$variable`.
package struct QuerySubquery: Hashable, Sendable {
    package var collection: QueryKeyPath
    /// The variable name without `$`.
    package var variable: String
    package var predicate: QueryPredicate

    package init(collection: QueryKeyPath, variable: String, predicate: QueryPredicate) {
        self.collection = collection
        self.variable = variable
        self.predicate = predicate
    }
}

/// A collection operator: `@count`, `@size`, `@sum`, `@min`, `@max`, `@avg`.
public enum QueryAggregate: String, Hashable, Sendable, CaseIterable {
    /// `@count`: the number of elements.
    case count
    /// `@size`: the length of a string or binary value, or the number of elements.
    case size
    /// `@sum`: the sum of numeric values.
    case sum
    /// `@min`: the smallest value.
    case min
    /// `@max`: the largest value.
    case max
    /// `@avg`: the average of numeric values.
    case avg
}

/// One step of a key path.
package enum QueryKeyPathComponent: Hashable, Sendable {
    /// A property name.
    case property(String)
    /// `@links.Class.property`: objects of `Class` whose `property` links here.
    case backlinks(className: String, property: String)
    /// `@links` alone: every object linking here (only before `@count`/`@size`).
    case allBacklinks
    /// `['key']` after a map property.
    case mapKey(String)
    /// `@keys` after a map property.
    case mapKeys
    /// `@values` after a map property.
    case mapValues
    /// A collection operator.
    case aggregate(QueryAggregate)
    /// `@type`: the type of the value (realm-core's `TypeOfValue`), compared with type names
    /// (`mixed.@type == 'string'`); last in a key path.
    case typeOf
}

/// `owner.name`, `dogs.@avg.age`, `@links.Person.dogs.@count`, `$d.age` (inside a SUBQUERY).
package struct QueryKeyPath: Hashable, Sendable {
    /// The SUBQUERY variable the path starts from (without `$`), or nil for the queried object.
    package var variable: String?
    package var components: [QueryKeyPathComponent]

    package init(variable: String? = nil, _ components: [QueryKeyPathComponent]) {
        self.variable = variable
        self.components = components
    }

    /// A path of plain property names: `QueryKeyPath("owner.name")`.
    package init(_ dotted: String) {
        self.variable = nil
        self.components = dotted.split(separator: ".").map { .property(String($0)) }
    }
}

/// A clause after the predicate.
package enum QueryOrderingClause: Hashable, Sendable {
    /// `SORT(a ASC, b DESC)`.
    case sort([QuerySortKey])
    /// `DISTINCT(a, b)`: keeps the first object of each combination of values.
    case distinct([QueryKeyPath])
    /// `LIMIT(n)`: keeps the first n objects.
    case limit(Int)
}

/// One key of a `SORT` clause.
package struct QuerySortKey: Hashable, Sendable {
    package var keyPath: QueryKeyPath
    package var ascending: Bool
    package init(_ keyPath: QueryKeyPath, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}
