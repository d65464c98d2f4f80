import Foundation
import StrataDecimal
import StrataObjects

extension ParsedQuery {
    /// Checks the query against `schema` for objects of `className`, substitutes `arguments`
    /// for `$0`, `$1`, ... and resolves every key path. Throws a `QueryError` for unknown
    /// classes or properties, argument problems and type mismatches.
    package func bind(to schema: QuerySchema, className: String,
                     arguments: [QueryValue] = []) throws(QueryError) -> BoundQuery {
        var binder = Binder(schema: schema, arguments: arguments)
        return try binder.bind(self, className: className)
    }
}

/// Resolves a parsed query against a schema. See `ParsedQuery.bind`.
struct Binder {
    let schema: QuerySchema
    let arguments: [QueryValue]
    /// What each SUBQUERY variable in scope stands for.
    private var variables: [String: Context] = [:]
    private var rootClass = ""

    init(schema: QuerySchema, arguments: [QueryValue]) {
        self.schema = schema
        self.arguments = arguments
    }

    /// Where a key path currently points: at an object of a class, or at a scalar value.
    enum Context: Hashable {
        case object(String)
        case value(QueryPropertyType)

        var type: QueryPropertyType {
            switch self {
            case .object(let c): return .link(c)
            case .value(let t): return t
            }
        }
    }

    mutating func bind(_ query: ParsedQuery, className: String) throws(QueryError) -> BoundQuery {
        guard schema.classNamed(className) != nil else { throw unknownClass(className) }
        rootClass = className
        let predicate = try bind(query.predicate)
        var ordering: [BoundOrderingClause] = []
        for clause in query.ordering {
            switch clause {
            case .sort(let keys):
                var bound: [BoundSortKey] = []
                for k in keys { bound.append(BoundSortKey(path: try bindSingleValued(k.keyPath, in: "SORT"), ascending: k.ascending)) }
                ordering.append(.sort(bound))
            case .distinct(let paths):
                var bound: [BoundKeyPath] = []
                for p in paths { bound.append(try bindSingleValued(p, in: "DISTINCT")) }
                ordering.append(.distinct(bound))
            case .limit(let n):
                ordering.append(.limit(n))
            }
        }
        return BoundQuery(className: className, predicate: predicate, ordering: ordering)
    }

    private mutating func bindSingleValued(_ path: QueryKeyPath, in clause: String) throws(QueryError) -> BoundKeyPath {
        let bound = try bindPath(path)
        if bound.isToMany {
            throw QueryError(kind: .unsupported, message: "Cannot \(clause) by '\(path)': it goes through a collection")
        }
        if case .link = bound.type {
            throw QueryError(kind: .unsupported, message: "Cannot \(clause) by '\(path)': it is a link, not a value")
        }
        return bound
    }

    // MARK: predicates

    private mutating func bind(_ p: QueryPredicate) throws(QueryError) -> BoundPredicate {
        switch p {
        case .constant(let b): return .constant(b)
        case .not(let inner): return .not(try bind(inner))
        case .and(let parts):
            var out: [BoundPredicate] = []
            for part in parts { out.append(try bind(part)) }
            return .and(out)
        case .or(let parts):
            var out: [BoundPredicate] = []
            for part in parts { out.append(try bind(part)) }
            return .or(out)
        case .comparison(let c):
            return .comparison(try bind(c))
        }
    }

    /// An operand before type checking.
    private enum Operand {
        case constant(QueryValue)
        case list([QueryValue])
        case path(BoundKeyPath)
        case subquery(BoundSubquery, text: String)

        var isToMany: Bool {
            if case .path(let p) = self { return p.isToMany }
            return false
        }
    }

    private mutating func operand(_ e: QueryExpression) throws(QueryError) -> Operand {
        switch e {
        case .constant(let v): return .constant(v)
        case .argument(let n):
            let v = try argument(n)
            if case .list(let items) = v { return .list(items) }
            return .constant(v)
        case .list(let items):
            var values: [QueryValue] = []
            for item in items {
                switch item {
                case .constant(let v): values.append(v)
                case .argument(let n):
                    let v = try argument(n)
                    if case .list = v {
                        throw QueryError(kind: .argument, message: "Argument $\(n) is a list and cannot be an element of {...}")
                    }
                    values.append(v)
                default:
                    throw QueryError(kind: .unsupported, message: "A list {...} may only hold constants and arguments")
                }
            }
            return .list(values)
        case .keyPath(let k):
            return .path(try bindPath(k))
        case .subqueryCount(let s):
            return .subquery(try bindSubquery(s), text: QueryExpression.subqueryCount(s).description)
        }
    }

    private func argument(_ n: Int) throws(QueryError) -> QueryValue {
        guard n >= 0, n < arguments.count else {
            let given = arguments.count == 1 ? "1 argument was" : "\(arguments.count) arguments were"
            throw QueryError(kind: .argument, message: "Argument $\(n) is out of range: \(given) given")
        }
        return arguments[n]
    }

    private mutating func bindSubquery(_ s: QuerySubquery) throws(QueryError) -> BoundSubquery {
        let collection = try bindPath(s.collection)
        guard collection.isToMany else {
            throw QueryError(kind: .unsupported, message: "SUBQUERY needs a collection, but '\(s.collection)' is a single value")
        }
        if variables[s.variable] != nil {
            throw QueryError(kind: .unsupported, message: "The SUBQUERY variable $\(s.variable) is already in use")
        }
        let element: Context
        if case .link(let c) = collection.type { element = .object(c) } else { element = .value(collection.type) }
        variables[s.variable] = element
        defer { variables[s.variable] = nil }
        let predicate = try bind(s.predicate)
        return BoundSubquery(collection: collection, variable: s.variable, predicate: predicate)
    }

    private mutating func bind(_ c: QueryComparison) throws(QueryError) -> BoundComparison {
        if c.left.isTypeOf || c.right.isTypeOf { return try bindTypeComparison(c) }
        var left = try operand(c.left)
        var right = try operand(c.right)
        var op = c.op
        var quantifier = c.quantifier

        if case .list = left {
            throw QueryError(kind: .unsupported, message: "A list {...} can only appear on the right of IN or BETWEEN")
        }
        switch op {
        case .in:
            switch right {
            case .list: break
            case .path(let p) where p.isToMany:
                // `'x' IN tags` means `ANY tags == 'x'`.
                if left.isToMany {
                    throw QueryError(kind: .unsupported, message: "IN between two collections ('\(c.left)' and '\(p.text)') is not supported")
                }
                swap(&left, &right)
                op = .equal
                quantifier = quantifier ?? .anyOf
            default:
                throw QueryError(kind: .typeMismatch, message: "IN expects a list such as {1, 2}, a list argument or a collection, but found \(describe(c.right, right))")
            }
        case .between:
            guard case .list(let items) = right, items.count == 2 else {
                throw QueryError(kind: .typeMismatch, message: "BETWEEN expects a list of two values {low, high}, but found \(describe(c.right, right))")
            }
        default:
            if case .list = right {
                throw QueryError(kind: .unsupported, message: "A list {...} can only appear on the right of IN or BETWEEN")
            }
        }

        if let q = quantifier, c.quantifier != nil {
            guard left.isToMany else {
                throw QueryError(kind: .unsupported, message: "'\(q.rawValue)' needs a key path through a collection, but '\(c.left)' is a single value")
            }
            if q != .anyOf, right.isToMany {
                throw QueryError(kind: .unsupported, message: "'\(q.rawValue)' compares each element with a single value, but '\(c.right)' is a collection")
            }
        }
        if quantifier == nil, left.isToMany || right.isToMany { quantifier = .anyOf }

        // Type checks, pairwise; constants are converted to the type of the other side.
        let leftSide = side(c.left, left)
        switch right {
        case .list(var items):
            for k in items.indices {
                try check(op, c.options, leftSide, Side(type: items[k].scalarType, text: items[k].spoken))
                items[k] = convert(items[k], toward: leftSide.type)
            }
            right = .list(items)
        default:
            let rightSide = side(c.right, right)
            try check(op, c.options, leftSide, rightSide)
            if case .constant(let v) = right { right = .constant(convert(v, toward: leftSide.type)) }
            if case .constant(let v) = left { left = .constant(convert(v, toward: rightSide.type)) }
        }
        return BoundComparison(bound(left), op, bound(right), options: c.options, quantifier: quantifier)
    }

    /// `x.@type == 'string'`, `x.@type != 'numeric'`, `x.@type IN {'int', 'double'}`,
    /// `x.@type == y.@type`: the path yields one `QueryTypeOfValue` bit per value, so a name
    /// comparison becomes `IN` the name's bits (`!=`: the other bits, so that ANY/ALL/NONE keep
    /// their meaning).
    private mutating func bindTypeComparison(_ c: QueryComparison) throws(QueryError) -> BoundComparison {
        guard c.op == .equal || c.op == .notEqual || c.op == .in else {
            throw QueryError(kind: .unsupported, message: "@type can only be compared with ==, != or IN, not '\(c.op.rawValue)' (in '\(c)')")
        }
        guard c.options.isEmpty else {
            throw QueryError(kind: .unsupported, message: "The [c]/[d] options do not apply to @type (in '\(c)'): type names are compared without regard to case")
        }
        var (typeSide, other) = (c.left, c.right)
        if !typeSide.isTypeOf {
            guard c.op != .in else {
                throw QueryError(kind: .unsupported, message: "Write 'x.@type IN {...}' with @type on the left (in '\(c)')")
            }
            swap(&typeSide, &other)
        }
        guard case .keyPath(let typePath) = typeSide else { preconditionFailure("isTypeOf implies a key path") }
        let path = try bindPath(typePath)
        func quantifier(_ otherToMany: Bool) throws(QueryError) -> QueryQuantifier? {
            if let q = c.quantifier {
                guard path.isToMany else {
                    throw QueryError(kind: .unsupported, message: "'\(q.rawValue)' needs a key path through a collection, but '\(typePath)' is a single value")
                }
                if q != .anyOf, otherToMany {
                    throw QueryError(kind: .unsupported, message: "'\(q.rawValue)' compares each element with a single value, but '\(other)' is a collection")
                }
                return q
            }
            return path.isToMany || otherToMany ? .anyOf : nil
        }
        if case .keyPath(let otherPath) = other {
            guard other.isTypeOf else {
                throw QueryError(kind: .typeMismatch, message: "Cannot compare '\(typePath)' with the value of '\(otherPath)': compare @type with type names ('string') or with another '.@type'")
            }
            guard c.op != .in else {
                throw QueryError(kind: .unsupported, message: "IN after @type needs type names {'int', 'double'}, not '\(otherPath)'")
            }
            let bound = try bindPath(otherPath)
            return BoundComparison(.path(path), c.op, .path(bound), quantifier: try quantifier(bound.isToMany))
        }
        // Type names: literals (checked with their position by the parser) or arguments.
        var names: [(name: String, argument: Int?)] = []
        func name(_ e: QueryExpression) throws(QueryError) {
            switch e {
            case .constant(.string(let s)): names.append((s, nil))
            case .argument(let n):
                switch try argument(n) {
                case .string(let s): names.append((s, n))
                case .list(let items) where c.op == .in:
                    for item in items {
                        guard case .string(let s) = item else {
                            throw QueryError(kind: .argument, message: "Argument $\(n) for @type must hold type names such as 'string', but holds \(item.spoken)")
                        }
                        names.append((s, n))
                    }
                case let v:
                    throw QueryError(kind: .argument, message: "Argument $\(n) for @type must be a type name such as 'string', but is \(v.spoken)")
                }
            default:
                throw QueryError(kind: .typeMismatch, message: "@type is compared with type names such as 'string', not with '\(e)'")
            }
        }
        switch other {
        case .list(let items):
            guard c.op != .notEqual else {
                throw QueryError(kind: .unsupported, message: "Use NOT (x.@type IN {...}) rather than != with a list (in '\(c)')")
            }
            for item in items { try name(item) }
        default:
            try name(other)
        }
        var mask = 0
        for (n, arg) in names {
            guard let m = QueryTypeOfValue.mask(named: n) else {
                let message = QueryTypeOfValue.unknownName(n)
                if let arg { throw QueryError(kind: .argument, message: "Argument $\(arg): \(message)") }
                throw QueryError(kind: .typeMismatch, message: message.prefix(1).uppercased() + message.dropFirst())
            }
            mask |= m
        }
        if c.op == .notEqual { mask = QueryTypeOfValue.all & ~mask }
        let bits = QueryTypeOfValue.bits(of: mask).map { QueryValue.int(Int64($0)) }
        return BoundComparison(.path(path), .in, .values(bits), quantifier: try quantifier(false))
    }

    private func bound(_ o: Operand) -> BoundOperand {
        switch o {
        case .constant(let v): return .value(v)
        case .list(let vs): return .values(vs)
        case .path(let p): return .path(p)
        case .subquery(let s, _): return .subqueryCount(s)
        }
    }

    private func describe(_ e: QueryExpression, _ o: Operand) -> String {
        switch o {
        case .constant(let v): return v.spoken
        case .list(let vs): return "a list of \(vs.count) values"
        case .path(let p): return "\(p.type) property '\(p.text)'"
        case .subquery: return "'\(e)'"
        }
    }

    /// One side of a comparison for type checking: its type (nil for null) and how to name it.
    private struct Side {
        var type: QueryPropertyType?
        var text: String
    }

    private func side(_ e: QueryExpression, _ o: Operand) -> Side {
        switch o {
        case .constant(let v): return Side(type: v.scalarType, text: v.spoken)
        case .list: return Side(type: nil, text: "a list")
        case .path(let p): return Side(type: p.type, text: "\(p.type) property '\(p.text)'")
        case .subquery(_, let text): return Side(type: .int, text: "Int value '\(text)'")
        }
    }

    private func check(_ op: QueryOperator, _ options: QueryStringOptions, _ l: Side, _ r: Side) throws(QueryError) {
        let opName = op.rawValue
        guard let lt = l.type, let rt = r.type else {
            // Null: only equality (and IN, which is equality per element).
            guard op == .equal || op == .notEqual || op == .in else {
                throw QueryError(kind: .typeMismatch, message: "Cannot use '\(opName)' with null (\(l.type == nil ? r.text : l.text))")
            }
            return
        }
        let stringish: (QueryPropertyType) -> Bool = { $0 == .string || $0 == .any }
        if !options.isEmpty {
            guard stringish(lt), stringish(rt) else {
                throw QueryError(kind: .typeMismatch, message: "The [c]/[d] options need strings, but '\(opName)' compares \(l.text) with \(r.text)")
            }
        }
        if lt == .any || rt == .any {
            if op.isStringOperator {
                let ok: (QueryPropertyType) -> Bool = { $0 == .string || $0 == .data || $0 == .any }
                guard ok(lt), ok(rt) else { throw mismatch(op, l, r) }
            }
            return
        }
        if op.isStringOperator {
            let ok: (QueryPropertyType) -> Bool = { $0 == .string || $0 == .data }
            guard ok(lt), ok(rt) else {
                throw QueryError(kind: .typeMismatch, message: "\(opName) needs strings or binary data, but compares \(l.text) with \(r.text)")
            }
            if op == .like, lt == .data || rt == .data {
                throw QueryError(kind: .typeMismatch, message: "LIKE needs strings, but compares \(l.text) with \(r.text)")
            }
            return
        }
        let equality = op == .equal || op == .notEqual || op == .in
        switch (lt, rt) {
        case (.link(let a), .link(let b)):
            guard a == b else { throw mismatch(op, l, r) }
            guard equality else {
                throw QueryError(kind: .typeMismatch, message: "Objects can only be compared with == or !=, not '\(opName)' (\(l.text))")
            }
        case _ where lt.isNumeric && rt.isNumeric:
            break
        case (.string, .string), (.data, .data), (.string, .data), (.data, .string):
            break
        case (.date, .date), (.objectId, .objectId), (.uuid, .uuid):
            break
        case (.bool, .bool):
            guard equality else {
                throw QueryError(kind: .typeMismatch, message: "Booleans can only be compared with == or !=, not '\(opName)' (\(l.text))")
            }
        default:
            throw mismatch(op, l, r)
        }
    }

    private func mismatch(_ op: QueryOperator, _ l: Side, _ r: Side) -> QueryError {
        QueryError(kind: .typeMismatch, message: "Cannot compare \(l.text) with \(r.text)")
    }

    /// Converts a constant toward the type of the other side: integers become
    /// doubles/floats/decimals for such properties, strings become data. A double compared with
    /// a Float property (or Float elements, `self` of a Float collection) becomes the nearest
    /// Float, as realm-core parses a constant as the column's type: `f == 0.1` matches a stored
    /// `Float(0.1)`, and `f > 0.1` does not, for every operator alike.
    private func convert(_ v: QueryValue, toward type: QueryPropertyType?) -> QueryValue {
        switch (v, type) {
        case (.int(let i), .double?): return .double(Double(i))
        case (.int(let i), .float?): return .float(Float(i))
        case (.int(let i), .decimal?): return .decimal(Decimal128(storage: DecimalValue(i)))
        case (.double(let d), .float?): return .float(Float(d))
        // As realm-core converts a double for a decimal comparison: 15 significant digits.
        case (.double(let d), .decimal?) where d.isFinite: return .decimal(Decimal128(floatLiteral: d))
        case (.string(let s), .data?): return .data(Array(s.utf8))
        default: return v
        }
    }

    // MARK: key paths

    private func unknownClass(_ name: String) -> QueryError {
        var message = "Unknown class '\(name)'"
        if let s = suggestion(for: name, among: Array(schema.classes.keys)) { message += " (did you mean '\(s)'?)" }
        return QueryError(kind: .unknownClass, message: message)
    }

    private func lookup(_ name: String, in className: String) throws(QueryError) -> QueryProperty {
        guard let cls = schema.classNamed(className) else { throw unknownClass(className) }
        guard let p = cls.property(named: name) else {
            var message = "Unknown property '\(name)' on class '\(className)'"
            if let s = suggestion(for: name, among: cls.properties.map(\.name)) { message += " (did you mean '\(s)'?)" }
            throw QueryError(kind: .unknownProperty, message: message)
        }
        return p
    }

    mutating func bindPath(_ path: QueryKeyPath) throws(QueryError) -> BoundKeyPath {
        let start: Context
        if let v = path.variable {
            guard let c = variables[v] else {
                throw QueryError(kind: .unsupported, message: "Unknown variable $\(v): variables are introduced by SUBQUERY(collection, $\(v), ...)")
            }
            start = c
        } else {
            start = .object(rootClass)
        }
        let (steps, end, many) = try bindComponents(path.components[...], from: start, path: path)
        return BoundKeyPath(variable: path.variable, steps: steps, type: end.type, isToMany: many, text: path.description)
    }

    /// Resolves components one by one. Returns the steps, where the path ends, and whether it
    /// crossed a collection outside of a collection operator.
    private func bindComponents(_ comps: ArraySlice<QueryKeyPathComponent>, from start: Context,
                                path: QueryKeyPath) throws(QueryError) -> ([BoundPathStep], Context, Bool) {
        var steps: [BoundPathStep] = []
        var ctx = start
        var many = false
        var i = comps.startIndex
        // A collection step: either followed by a collection operator (consumed here), or crossed.
        func collection(_ step: BoundPathStep, element: Context) throws(QueryError) {
            let next = comps.index(after: i)
            guard next < comps.endIndex, case .aggregate(let op) = comps[next] else {
                steps.append(step)
                many = true
                ctx = element
                i = next
                return
            }
            switch op {
            case .count, .size:
                steps.append(.aggregate(BoundAggregate(op: .count, collection: step, elementPath: [], type: .int)))
                ctx = .value(.int)
                i = comps.index(after: next)
            case .sum, .min, .max, .avg:
                var elementPath: [BoundPathStep] = []
                var valueType: QueryPropertyType
                let rest = comps[comps.index(after: next)...]
                switch element {
                case .object(let cls):
                    if rest.contains(.typeOf) {
                        throw QueryError(kind: .unsupported, message: "@type cannot follow @\(op.rawValue) in '\(path)': the aggregate is a number")
                    }
                    guard !rest.isEmpty else {
                        throw QueryError(kind: .unsupported, message: "@\(op.rawValue) on a collection of '\(cls)' objects needs a property: '\(path).property'")
                    }
                    let (sub, end, subMany) = try bindComponents(rest, from: element, path: path)
                    guard !subMany, case .value(let t) = end else {
                        throw QueryError(kind: .unsupported, message: "@\(op.rawValue) in '\(path)' must be followed by a single-valued property path")
                    }
                    elementPath = sub
                    valueType = t
                case .value(let t):
                    guard rest.isEmpty else {
                        throw QueryError(kind: .unsupported, message: "Nothing can follow @\(op.rawValue) on a collection of values in '\(path)'")
                    }
                    valueType = t
                }
                let resultType: QueryPropertyType
                switch op {
                case .sum:
                    guard valueType.isNumeric || valueType == .any else { throw aggregateType(op, valueType, path) }
                    resultType = valueType == .int ? .int : valueType == .decimal ? .decimal : valueType == .any ? .any : .double
                case .avg:
                    guard valueType.isNumeric || valueType == .any else { throw aggregateType(op, valueType, path) }
                    resultType = valueType == .decimal ? .decimal : valueType == .any ? .any : .double
                default:
                    guard valueType.isNumeric || valueType == .date || valueType == .any else { throw aggregateType(op, valueType, path) }
                    resultType = valueType
                }
                steps.append(.aggregate(BoundAggregate(op: op, collection: step, elementPath: elementPath, type: resultType)))
                ctx = .value(resultType)
                i = comps.endIndex
            }
        }

        while i < comps.endIndex {
            let comp = comps[i]
            switch (ctx, comp) {
            case (.object(let cls), .property(let requested)):
                let prop = try lookup(requested, in: cls)
                let name = prop.name   // the stored name, when the query used an alias
                switch prop.type {
                case .link(let target):
                    steps.append(.link(property: name, target: target))
                    ctx = .object(target)
                    i += 1
                case .list(let e), .set(let e):
                    if case .link(let target) = e {
                        try collection(.links(property: name, target: target), element: .object(target))
                    } else {
                        try collection(.values(property: name, element: e), element: .value(e))
                    }
                case .map(let e):
                    let next = i + 1
                    var target: String?
                    if case .link(let t) = e { target = t }
                    if next < comps.endIndex, case .mapKey(let key) = comps[next] {
                        if let t = target {
                            steps.append(.linkMapValue(property: name, key: key, target: t))
                            ctx = .object(t)
                        } else {
                            steps.append(.mapValue(property: name, key: key, type: e))
                            ctx = .value(e)
                        }
                        i = next + 1
                    } else if next < comps.endIndex, comps[next] == .mapKeys {
                        i = next
                        try collection(.mapKeys(property: name), element: .value(.string))
                    } else {
                        if next < comps.endIndex, comps[next] == .mapValues { i = next }
                        if let t = target {
                            try collection(.linkMapValues(property: name, target: t), element: .object(t))
                        } else {
                            try collection(.mapValues(property: name, type: e), element: .value(e))
                        }
                    }
                case .linkingObjects(let origin, let property):
                    try collection(.backlinks(originClass: origin, property: property), element: .object(origin))
                default:
                    steps.append(.value(property: name, type: prop.type))
                    ctx = .value(prop.type)
                    i += 1
                }
            case (.object(let cls), .backlinks(let origin, let property)):
                let p = try lookup(property, in: origin)
                let linksHere: Bool
                switch p.type {
                case .link(let t), .list(.link(let t)), .set(.link(let t)), .map(.link(let t)): linksHere = t == cls
                default: linksHere = false
                }
                guard linksHere else {
                    throw QueryError(kind: .typeMismatch, message: "'@links.\(origin).\(property)' in '\(path)': \(origin).\(property) is not a link to '\(cls)'")
                }
                try collection(.backlinks(originClass: origin, property: p.name), element: .object(origin))
            case (.object, .allBacklinks):
                let next = i + 1
                guard next < comps.endIndex, comps[next] == .aggregate(.count) || comps[next] == .aggregate(.size) else {
                    throw QueryError(kind: .unsupported, message: "'@links' alone can only be followed by @count in '\(path)'")
                }
                try collection(.allBacklinks, element: .value(.int))
            case (_, .typeOf):
                guard comps.index(after: i) == comps.endIndex else {
                    throw QueryError(kind: .unsupported, message: "Nothing can follow @type in '\(path)'")
                }
                guard !steps.isEmpty || path.variable != nil else {
                    throw QueryError(kind: .unsupported, message: "@type needs a property before it: 'property.@type'")
                }
                let declared: Int?
                switch ctx {
                case .object: declared = QueryTypeOfValue.objectLink
                case .value(let t): declared = QueryTypeOfValue.bit(ofDeclared: t)
                }
                steps.append(.typeOf(declared: declared))
                ctx = .value(.int)
                i += 1
            case (.value(let t), .aggregate(let op)) where (op == .size || op == .count) && (t == .string || t == .data || t == .any):
                steps.append(.size)
                ctx = .value(.int)
                i += 1
            case (_, .aggregate(let op)):
                throw QueryError(kind: .unsupported, message: "@\(op.rawValue) in '\(path)' must follow a collection\(op == .size ? " or a string" : "")")
            case (.object(let cls), _):
                throw QueryError(kind: .unsupported, message: "Invalid key path '\(path)': \(componentText(comp)) cannot follow an object of class '\(cls)'")
            case (.value(let t), _):
                throw QueryError(kind: .unsupported, message: "Invalid key path '\(path)': \(componentText(comp)) cannot follow a \(t) value")
            }
        }
        return (steps, ctx, many)
    }

    private func componentText(_ c: QueryKeyPathComponent) -> String {
        switch c {
        case .property(let n): return "'\(n)'"
        case .mapKey(let k): return "[\(quoteString(k))]"
        default: return "'" + QueryKeyPath(variable: nil, [c]).description + "'"
        }
    }

    private func aggregateType(_ op: QueryAggregate, _ t: QueryPropertyType, _ path: QueryKeyPath) -> QueryError {
        QueryError(kind: .typeMismatch, message: "@\(op.rawValue) cannot be applied to \(t) values in '\(path)'")
    }
}

/// The closest candidate by edit distance, if it is close enough to be a likely typo.
func suggestion(for name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased())
    var best: (String, Int)?
    for c in candidates.sorted() {
        let d = editDistance(target, Array(c.lowercased()))
        if d <= max(1, min(3, target.count / 3)), d < (best?.1 ?? Int.max) { best = (c, d) }
    }
    return best?.0
}

/// Optimal-string-alignment distance: insertions, deletions, substitutions and transpositions
/// of neighbours each cost 1 (so `nmae` is one edit from `name`).
func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[a.count][b.count]
}

extension QueryExpression {
    /// True for a key path ending with `@type`.
    var isTypeOf: Bool {
        if case .keyPath(let k) = self, k.components.last == .typeOf { return true }
        return false
    }
}
