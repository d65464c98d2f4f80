/// A query checked against a `QuerySchema`: property names resolved to typed path steps,
/// arguments substituted, constants converted to the type they are compared with. This is what
/// evaluators (the reference `QueryEvaluator`, or the engine's column scans) execute.
package struct BoundQuery: Hashable, Sendable {
    /// The class the query selects from.
    package var className: String
    package var predicate: BoundPredicate
    /// SORT / DISTINCT / LIMIT in the order written.
    package var ordering: [BoundOrderingClause]

    package init(className: String, predicate: BoundPredicate, ordering: [BoundOrderingClause] = []) {
        self.className = className
        self.predicate = predicate
        self.ordering = ordering
    }
}

/// A bound boolean condition (same shape as `QueryPredicate`).
package indirect enum BoundPredicate: Hashable, Sendable {
    case constant(Bool)
    case and([BoundPredicate])
    case or([BoundPredicate])
    case not(BoundPredicate)
    case comparison(BoundComparison)

    /// The top-level AND clauses: the operands of a top-level `and`, or `[self]`.
    package var conjuncts: [BoundPredicate] {
        if case .and(let parts) = self { return parts }
        return [self]
    }
}

/// A bound comparison. Invariants established by the binder:
/// - `op == .in` ⇒ `right` is `.values`; `op == .between` ⇒ `right` is `.values` of two items.
/// - `quantifier == nil` ⇒ neither side is to-many; otherwise at least the left side is, and for
///   `allOf`/`noneOf` the right side is single-valued.
/// - The types of both sides are compatible for `op` (mixed values are checked at run time).
package struct BoundComparison: Hashable, Sendable {
    package var quantifier: QueryQuantifier?
    package var left: BoundOperand
    package var op: QueryOperator
    package var options: QueryStringOptions
    package var right: BoundOperand

    package init(_ left: BoundOperand, _ op: QueryOperator, _ right: BoundOperand,
                options: QueryStringOptions = [], quantifier: QueryQuantifier? = nil) {
        self.left = left
        self.op = op
        self.right = right
        self.options = options
        self.quantifier = quantifier
    }

    /// If this clause is `property == constant` (either order, no `[c]`/`[d]`) on a scalar
    /// property of the queried object itself, the property name and the constant: the shape an
    /// index lookup can answer.
    package var propertyEqualsConstant: (property: String, value: QueryValue)? {
        guard op == .equal, options.isEmpty, quantifier == nil else { return nil }
        switch (left, right) {
        case (.path(let p), .value(let v)), (.value(let v), .path(let p)):
            guard let name = p.directProperty else { return nil }
            return (name, v)
        default:
            return nil
        }
    }
}

/// One side of a bound comparison.
package indirect enum BoundOperand: Hashable, Sendable {
    /// A constant (literal or argument), converted to the type of the other side when numeric.
    case value(QueryValue)
    /// The right side of IN (any number of values) or BETWEEN (low, high).
    case values([QueryValue])
    case path(BoundKeyPath)
    /// The number of elements of a collection matching a predicate.
    case subqueryCount(BoundSubquery)
}

/// `SUBQUERY(collection, $variable, predicate).@count`, bound.
package struct BoundSubquery: Hashable, Sendable {
    /// A to-many path; its elements are bound to `variable` in turn.
    package var collection: BoundKeyPath
    package var variable: String
    package var predicate: BoundPredicate
}

/// A resolved key path: a chain of steps from the queried object (or a SUBQUERY variable).
package struct BoundKeyPath: Hashable, Sendable {
    /// The SUBQUERY variable the path starts at, or nil for the queried object.
    package var variable: String?
    package var steps: [BoundPathStep]
    /// The type of each value the path yields: a scalar type, or `.link(Class)` for objects.
    package var type: QueryPropertyType
    /// True when the path can yield several values (it crosses a list, set, map or backlinks
    /// outside of a collection operator).
    package var isToMany: Bool
    /// The path as written, for messages.
    package var text: String

    /// The property name when the path is a single scalar property of the queried object.
    package var directProperty: String? {
        guard variable == nil, steps.count == 1, case .value(let name, _) = steps[0] else { return nil }
        return name
    }
}

/// One resolved step of a key path. Steps marked to-many turn one item into any number.
package indirect enum BoundPathStep: Hashable, Sendable {
    /// To-one link; a null link yields nothing.
    case link(property: String, target: String)
    /// List or set of links (to-many).
    case links(property: String, target: String)
    /// `LinkingObjects` property or `@links.Class.property` (to-many).
    case backlinks(originClass: String, property: String)
    /// Every object linking here; only inside `.aggregate` with `@count`.
    case allBacklinks
    /// `map['key']` on a map of links.
    case linkMapValue(property: String, key: String, target: String)
    /// All values of a map of links (to-many).
    case linkMapValues(property: String, target: String)
    /// A scalar property.
    case value(property: String, type: QueryPropertyType)
    /// List or set of scalars (to-many).
    case values(property: String, element: QueryPropertyType)
    /// `map['key']` on a map of scalars; a missing key yields nothing.
    case mapValue(property: String, key: String, type: QueryPropertyType)
    /// All values of a map of scalars (to-many).
    case mapValues(property: String, type: QueryPropertyType)
    /// `map.@keys` (to-many strings).
    case mapKeys(property: String)
    /// `@size` of a string (UTF-8 bytes, as realm-core) or binary value (bytes).
    case size
    /// A collection operator applied to one collection of the current object.
    case aggregate(BoundAggregate)
    /// `@type`: the `QueryTypeOfValue` bit of the value, as an int; `declared` for a typed
    /// property (whatever its value), nil for mixed values (the bit of each value).
    case typeOf(declared: Int?)

    /// True for the steps that can yield several items.
    package var isToMany: Bool {
        switch self {
        case .links, .backlinks, .allBacklinks, .linkMapValues, .values, .mapValues, .mapKeys: return true
        default: return false
        }
    }
}

/// `collection.@op` or `collection.@op.element.path`.
package struct BoundAggregate: Hashable, Sendable {
    /// `.size` on collections is bound as `.count`.
    package var op: QueryAggregate
    /// A to-many step.
    package var collection: BoundPathStep
    /// For collections of objects: the to-one path from each element to the aggregated value.
    package var elementPath: [BoundPathStep]
    /// The type of the result.
    package var type: QueryPropertyType
}

/// A bound SORT / DISTINCT / LIMIT clause.
package enum BoundOrderingClause: Hashable, Sendable {
    case sort([BoundSortKey])
    case distinct([BoundKeyPath])
    case limit(Int)
}

/// A bound sort key: a single-valued path and a direction.
package struct BoundSortKey: Hashable, Sendable {
    package var path: BoundKeyPath
    package var ascending: Bool
    package init(path: BoundKeyPath, ascending: Bool) {
        self.path = path
        self.ascending = ascending
    }
}
