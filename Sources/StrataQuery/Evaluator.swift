import Foundation
import StrataDecimal
import StrataObjects

/// The reference evaluator: runs a `BoundQuery` over objects reached through a
/// `QueryObjectAccess`. It defines the semantics the engine's fast paths must reproduce.
///
/// Semantics of key paths:
/// - A path yields a list of values. A single-valued path (no collection crossed) yields exactly
///   one value: if a to-one link on the way is null, or a map key is missing, that value is null
///   (so `owner.name == nil` matches objects without an owner).
/// - A to-many path yields one value per element reached; elements reached through a null link
///   contribute nothing. An empty collection yields no values.
/// - A comparison with a to-many side is quantified: ANY (the default) holds when some pair of
///   values satisfies it, ALL when every left value does (true when there are none), NONE when
///   no left value does (true when there are none).
/// - Collection operators apply to one collection instance at a time: `@count` counts elements,
///   `@sum` of nothing is 0, `@min`/`@max`/`@avg` of nothing are null; null elements are skipped.
package struct QueryEvaluator<Access: QueryObjectAccess> {
    package let access: Access

    package init(_ access: Access) { self.access = access }

    /// Something a path step works on.
    private enum Item {
        case object(Access.Object)
        case value(QueryValue)
    }

    /// Whether `object` satisfies `predicate`.
    package func matches(_ object: Access.Object, _ predicate: BoundPredicate) -> Bool {
        evaluate(predicate, root: object, variables: [:])
    }

    /// The objects satisfying the query's predicate, then sorted, made distinct and limited by
    /// its SORT/DISTINCT/LIMIT clauses in the order written.
    package func run<S: Sequence>(_ query: BoundQuery, over objects: S) -> [Access.Object] where S.Element == Access.Object {
        let matched = objects.filter { matches($0, query.predicate) }
        return applyOrdering(query.ordering, to: matched)
    }

    /// ``run(_:over:)`` that can be stopped from another thread: `cancellation` is checked every
    /// 256 objects and before ordering, and a cancelled run throws `QueryError.cancelled`.
    package func run<S: Sequence>(_ query: BoundQuery, over objects: S, cancellation: QueryCancellation?) throws -> [Access.Object]
        where S.Element == Access.Object {
        guard let cancellation else { return run(query, over: objects) }
        var matched: [Access.Object] = []
        var seen = 0
        for object in objects {
            if seen & 255 == 0 { try cancellation.check() }
            seen &+= 1
            if matches(object, query.predicate) { matched.append(object) }
        }
        try cancellation.check()
        let ordered = applyOrdering(query.ordering, to: matched)
        try cancellation.check()
        return ordered
    }

    /// Evaluates a single-valued key path on an object (used for sorting and distinct).
    package func value(of path: BoundKeyPath, on object: Access.Object) -> QueryValue {
        values(path, root: object, variables: [:]).first ?? .null
    }

    // MARK: predicates

    private func evaluate(_ p: BoundPredicate, root: Access.Object, variables: [String: Item]) -> Bool {
        switch p {
        case .constant(let b): return b
        case .not(let inner): return !evaluate(inner, root: root, variables: variables)
        case .and(let parts): return parts.allSatisfy { evaluate($0, root: root, variables: variables) }
        case .or(let parts): return parts.contains { evaluate($0, root: root, variables: variables) }
        case .comparison(let c): return evaluate(c, root: root, variables: variables)
        }
    }

    private func evaluate(_ c: BoundComparison, root: Access.Object, variables: [String: Item]) -> Bool {
        let left = operand(c.left, root: root, variables: variables)
        let test: (QueryValue) -> Bool
        switch c.op {
        case .in:
            let set = operand(c.right, root: root, variables: variables)
            test = { l in set.contains { queryEquals(l, $0, c.options) } }
        case .between:
            let bounds = operand(c.right, root: root, variables: variables)
            guard bounds.count == 2 else { return false }
            test = { l in
                guard let lo = queryCompare(l, bounds[0]), let hi = queryCompare(l, bounds[1]) else { return false }
                return lo != .less && hi != .greater
            }
        default:
            let right = operand(c.right, root: root, variables: variables)
            test = { l in right.contains { queryTest(l, c.op, $0, c.options) } }
        }
        switch c.quantifier {
        case nil, .anyOf?: return left.contains(where: test)
        case .allOf?: return left.allSatisfy(test)
        case .noneOf?: return !left.contains(where: test)
        }
    }

    private func operand(_ o: BoundOperand, root: Access.Object, variables: [String: Item]) -> [QueryValue] {
        switch o {
        case .value(let v): return [v]
        case .values(let vs): return vs
        case .path(let p): return values(p, root: root, variables: variables)
        case .subqueryCount(let s):
            let elements = items(s.collection, root: root, variables: variables, distinctObjects: false)
            var count: Int64 = 0
            for e in elements {
                var inner = variables
                inner[s.variable] = e
                if evaluate(s.predicate, root: root, variables: inner) { count += 1 }
            }
            return [.int(count)]
        }
    }

    // MARK: key paths

    private func values(_ path: BoundKeyPath, root: Access.Object, variables: [String: Item]) -> [QueryValue] {
        let reached = items(path, root: root, variables: variables)
        if reached.isEmpty && !path.isToMany { return [.null] }
        return reached.map(valueOf)
    }

    private func valueOf(_ item: Item) -> QueryValue {
        switch item {
        case .value(let v): return v
        case .object(let o): return .object(access.reference(of: o))
        }
    }

    /// The items a path reaches. With `distinctObjects`, an object reached more than once at a
    /// hop is kept once (first occurrence) before the next hop: comparisons are quantified (ANY,
    /// ALL, NONE), so repeats never change their result, and without this the items of a path
    /// through to-many links grow with the product of the collections' sizes (4 hops through
    /// lists of 10 shared friends: 10,000 items instead of at most the number of objects).
    /// Subquery counts keep repeats (they count elements).
    private func items(_ path: BoundKeyPath, root: Access.Object, variables: [String: Item], distinctObjects: Bool = true) -> [Item] {
        var current: [Item]
        if let v = path.variable {
            current = variables[v].map { [$0] } ?? []
        } else {
            current = [.object(root)]
        }
        for step in path.steps {
            var next: [Item] = []
            for item in current { apply(step, to: item, into: &next) }
            if distinctObjects && next.count > 1 { next = withoutRepeatedObjects(next) }
            current = next
        }
        return current
    }

    /// `items` with each object kept at its first occurrence (values are kept as they are).
    private func withoutRepeatedObjects(_ items: [Item]) -> [Item] {
        var seen = Set<QueryObjectRef>()
        var out: [Item] = []
        out.reserveCapacity(items.count)
        for item in items {
            if case .object(let o) = item, !seen.insert(access.reference(of: o)).inserted { continue }
            out.append(item)
        }
        return out
    }

    /// Applies one step to one item, appending what it yields.
    private func apply(_ step: BoundPathStep, to item: Item, into out: inout [Item]) {
        if case .aggregate(let agg) = step {
            out.append(.value(aggregate(agg, item)))
            return
        }
        if case .typeOf(let declared) = step {
            switch item {
            case .object: out.append(.value(.int(Int64(QueryTypeOfValue.objectLink))))
            case .value(let v): out.append(.value(.int(Int64(declared ?? QueryTypeOfValue.bit(of: v)))))
            }
            return
        }
        if case .size = step {
            guard case .value(let v) = item else { return }
            switch v {
            case .string(let s): out.append(.value(.int(Int64(s.utf8.count))))
            case .data(let d): out.append(.value(.int(Int64(d.count))))
            case .null: out.append(.value(.null))
            default: break
            }
            return
        }
        // Every other step reads a property of an object; values (e.g. null link-map entries)
        // have no properties and yield nothing.
        guard case .object(let o) = item else { return }
        switch step {
        case .link(let p, _):
            if let t = access.link(of: o, property: p) { out.append(.object(t)) }
        case .links(let p, _):
            for t in access.objects(of: o, property: p) { out.append(.object(t)) }
        case .backlinks(let cls, let p):
            for t in access.backlinks(of: o, originClass: cls, property: p) { out.append(.object(t)) }
        case .allBacklinks:
            // Only meaningful under @count (see `aggregate`); as a plain step it yields nothing.
            break
        case .linkMapValue(let p, let key, _):
            if let entry = access.objectMap(of: o, property: p).first(where: { $0.key == key }), let t = entry.value {
                out.append(.object(t))
            }
        case .linkMapValues(let p, _):
            for entry in access.objectMap(of: o, property: p) {
                out.append(entry.value.map { .object($0) } ?? .value(.null))
            }
        case .value(let p, _):
            out.append(.value(access.value(of: o, property: p)))
        case .values(let p, _):
            for v in access.values(of: o, property: p) { out.append(.value(v)) }
        case .mapValue(let p, let key, _):
            if let entry = access.map(of: o, property: p).first(where: { $0.key == key }) {
                out.append(.value(entry.value))
            }
        case .mapValues(let p, _):
            for entry in access.map(of: o, property: p) { out.append(.value(entry.value)) }
        case .mapKeys(let p):
            for entry in access.map(of: o, property: p) { out.append(.value(.string(entry.key))) }
        case .size, .aggregate, .typeOf:
            break  // handled above
        }
    }

    private func aggregate(_ agg: BoundAggregate, _ item: Item) -> QueryValue {
        if case .allBacklinks = agg.collection {
            guard case .object(let o) = item else { return .int(0) }
            return .int(Int64(access.backlinkCount(of: o)))
        }
        var elements: [Item] = []
        apply(agg.collection, to: item, into: &elements)
        if agg.op == .count || agg.op == .size { return .int(Int64(elements.count)) }
        var values: [QueryValue] = []
        for e in elements {
            var current = [e]
            for step in agg.elementPath {
                var next: [Item] = []
                for c in current { apply(step, to: c, into: &next) }
                current = next
            }
            for c in current {
                let v = valueOf(c)
                if !v.isNull { values.append(v) }
            }
        }
        return reduce(agg.op, values, type: agg.type)
    }

    private func reduce(_ op: QueryAggregate, _ values: [QueryValue], type: QueryPropertyType) -> QueryValue {
        reduceAggregate(op, values, type: type)
    }
}

/// Reduces non-null values for @count/@sum/@min/@max/@avg (shared by the reference evaluator and
/// the executor, so both give the same answers).
func reduceAggregate(_ op: QueryAggregate, _ values: [QueryValue], type: QueryPropertyType) -> QueryValue {
    switch op {
    case .count, .size:
        return .int(Int64(values.count))
    case .min, .max:
        let candidates = values.filter { v in
            if case .double(let d) = v { return !d.isNaN }
            if case .float(let f) = v { return !f.isNaN }
            return true
        }
        guard var best = candidates.first else { return .null }
        for v in candidates.dropFirst() {
            let o = sortCompare(v, best)
            if (op == .min && o == .less) || (op == .max && o == .greater) { best = v }
        }
        return best
    case .sum, .avg:
        let numbers = values.filter(\.isNumeric)
        if op == .avg && numbers.isEmpty { return .null }
        let useDecimal = type == .decimal || numbers.contains { if case .decimal = $0 { return true } else { return false } }
        let allInts = numbers.allSatisfy { if case .int = $0 { return true } else { return false } }
        if useDecimal {
            var total: Decimal128 = 0
            for n in numbers { total += aggregateDecimal(n) }
            return op == .sum ? .decimal(total) : .decimal(total / Decimal128(number: numbers.count))
        }
        if op == .sum && allInts && (type == .int || type == .any) {
            var total: Int64 = 0
            for case .int(let i) in numbers { total = total &+ i }
            return .int(total)
        }
        var total = 0.0
        for n in numbers { total += aggregateDouble(n) }
        return op == .sum ? .double(total) : .double(total / Double(numbers.count))
    }
}

func aggregateDouble(_ v: QueryValue) -> Double {
    switch v {
    case .int(let i): return Double(i)
    case .double(let d): return d
    case .float(let f): return Double(f)
    case .decimal(let d): return d.doubleValue
    default: return 0
    }
}

func aggregateDecimal(_ v: QueryValue) -> Decimal128 {
    switch v {
    case .int(let i): return Decimal128(storage: DecimalValue(i))
    case .double(let d): return Decimal128(floatLiteral: d)
    case .float(let f): return Decimal128(floatLiteral: Double(f))
    case .decimal(let d): return d
    default: return 0
    }
}
