/// Recursive-descent parser for the Realm Query Language.
///
/// Grammar (keywords case-insensitive; `&&`/`||`/`!` are synonyms of AND/OR/NOT):
///
///     query      := predicate clause* END
///     clause     := SORT '(' keyPath (ASC|ASCENDING|DESC|DESCENDING)? (',' ...)* ')'
///                 | DISTINCT '(' keyPath (',' keyPath)* ')' | LIMIT '(' integer ')'
///     predicate  := and (OR and)*
///     and        := not (AND not)*
///     not        := NOT not | atom
///     atom       := '(' predicate ')' | TRUEPREDICATE | FALSEPREDICATE | comparison
///     comparison := (ANY|SOME|ALL|NONE)? expr op ('[' c|d|cd ']')? expr
///     expr       := keyPath | literal | $n | '{' expr, ... '}' | SUBQUERY '(' keyPath ',' $v ',' predicate ')' '.' '@count'
///     keyPath    := (name | $v | @links ...) ('.' (name | @op) | '[' string ']')*   (@op: @count … @type)
///
/// Keywords are recognised by position, so properties may be named `sort`, `limit`, `asc`...
/// Only the value keywords (`true false nil null TRUEPREDICATE FALSEPREDICATE ANY SOME ALL NONE
/// NOT SUBQUERY inf infinity nan`) cannot start a key path.
struct Parser {
    private let tokens: [Token]
    private var pos = 0
    /// Nesting depth guard: deeply nested input must fail cleanly rather than overflow the stack.
    private var depth = 0
    static let maxDepth = 100

    init(tokens: [Token]) { self.tokens = tokens }

    private var current: Token { tokens[pos] }
    private func peek(_ k: Int) -> Token { tokens[min(pos + k, tokens.count - 1)] }
    private mutating func advance() { if pos < tokens.count - 1 { pos += 1 } }

    private static let valueKeywords: Set<String> = [
        "true", "false", "nil", "null", "truepredicate", "falsepredicate", "any", "some", "all",
        "none", "not", "subquery", "inf", "infinity", "nan",
    ]

    private func keyword(_ t: Token) -> String? {
        if case .identifier(let s) = t.kind { return s.lowercased() }
        return nil
    }
    private func isKeyword(_ t: Token, _ words: String...) -> Bool {
        guard let k = keyword(t) else { return false }
        return words.contains(k)
    }
    private func isSymbol(_ t: Token, _ s: String) -> Bool { t.kind == .symbol(s) }

    private func error(_ expected: String, at t: Token? = nil) -> QueryError {
        let t = t ?? current
        return .syntax(at: t.offset, "expected \(expected) but found \(t.quoted)")
    }

    private mutating func expectSymbol(_ s: String, _ what: String) throws(QueryError) {
        guard isSymbol(current, s) else { throw error(what) }
        advance()
    }

    private mutating func enter() throws(QueryError) {
        depth += 1
        if depth > Parser.maxDepth {
            throw .syntax(at: current.offset, "the query is nested too deeply")
        }
    }

    // MARK: query and clauses

    mutating func parseQuery() throws(QueryError) -> ParsedQuery {
        if current.kind == .end { throw error("a predicate") }
        let predicate = try parseOr()
        var ordering: [QueryOrderingClause] = []
        while current.kind != .end {
            if isKeyword(current, "sort"), isSymbol(peek(1), "(") {
                advance(); advance()
                var keys: [QuerySortKey] = []
                repeat {
                    if !keys.isEmpty { advance() }
                    let path = try parseKeyPath(what: "a key path to sort by")
                    var ascending = true
                    if isKeyword(current, "asc", "ascending") { advance() }
                    else if isKeyword(current, "desc", "descending") { ascending = false; advance() }
                    keys.append(QuerySortKey(path, ascending: ascending))
                } while isSymbol(current, ",")
                guard isSymbol(current, ")") else { throw error("ASC, DESC, ',' or ')' in SORT") }
                advance()
                ordering.append(.sort(keys))
            } else if isKeyword(current, "distinct"), isSymbol(peek(1), "(") {
                advance(); advance()
                var paths: [QueryKeyPath] = []
                repeat {
                    if !paths.isEmpty { advance() }
                    paths.append(try parseKeyPath(what: "a key path in DISTINCT"))
                } while isSymbol(current, ",")
                try expectSymbol(")", "',' or ')' in DISTINCT")
                ordering.append(.distinct(paths))
            } else if isKeyword(current, "limit"), isSymbol(peek(1), "(") {
                advance(); advance()
                guard case .literal(.int(let n)) = current.kind else {
                    throw error("a non-negative integer in LIMIT")
                }
                guard n >= 0, n <= Int64(Int.max) else {
                    throw .syntax(at: current.offset, "LIMIT must not be negative")
                }
                advance()
                try expectSymbol(")", "')' after the LIMIT count")
                ordering.append(.limit(Int(n)))
            } else if ordering.isEmpty {
                throw error("AND, OR, SORT, DISTINCT, LIMIT or end of input")
            } else {
                throw error("SORT, DISTINCT, LIMIT or end of input")
            }
        }
        return ParsedQuery(predicate: predicate, ordering: ordering)
    }

    // MARK: predicates

    private mutating func parseOr() throws(QueryError) -> QueryPredicate {
        try enter()
        defer { depth -= 1 }
        var parts = [try parseAnd()]
        while isKeyword(current, "or") || isSymbol(current, "||") {
            advance()
            parts.append(try parseAnd())
        }
        return parts.count == 1 ? parts[0] : .or(parts.flatMap { p -> [QueryPredicate] in
            if case .or(let inner) = p { return inner }
            return [p]
        })
    }

    private mutating func parseAnd() throws(QueryError) -> QueryPredicate {
        var parts = [try parseNot()]
        while isKeyword(current, "and") || isSymbol(current, "&&") {
            advance()
            parts.append(try parseNot())
        }
        return parts.count == 1 ? parts[0] : .and(parts.flatMap { p -> [QueryPredicate] in
            if case .and(let inner) = p { return inner }
            return [p]
        })
    }

    private mutating func parseNot() throws(QueryError) -> QueryPredicate {
        if isKeyword(current, "not") || isSymbol(current, "!") {
            try enter()
            defer { depth -= 1 }
            advance()
            return .not(try parseNot())
        }
        return try parseAtom()
    }

    private mutating func parseAtom() throws(QueryError) -> QueryPredicate {
        if isSymbol(current, "(") {
            advance()
            let inner = try parseOr()
            guard isSymbol(current, ")") else { throw error("')' or AND, OR") }
            advance()
            // A parenthesised group holding one or-list/and-list is flattened by the caller.
            return inner
        }
        if isKeyword(current, "truepredicate") { advance(); return .constant(true) }
        if isKeyword(current, "falsepredicate") { advance(); return .constant(false) }
        return .comparison(try parseComparison())
    }

    private mutating func parseComparison() throws(QueryError) -> QueryComparison {
        var quantifier: QueryQuantifier?
        if let k = keyword(current) {
            switch k {
            case "any", "some": quantifier = .anyOf
            case "all": quantifier = .allOf
            case "none": quantifier = .noneOf
            default: break
            }
            if quantifier != nil { advance() }
        }
        if current.kind == .end { throw error(quantifier == nil ? "a predicate" : "a key path after \(quantifier!.rawValue)") }
        let leftToken = current
        let leftIndex = pos
        let left = try parseExpression(what: quantifier == nil ? "a predicate" : "a key path after \(quantifier!.rawValue)")
        if let q = quantifier {
            guard case .keyPath = left else { throw error("a key path after \(q.rawValue)", at: leftToken) }
        }
        let opToken = current
        let opIndex = pos
        guard let op = parseOperator() else {
            throw error("a comparison operator after '\(tokens[leftIndex..<pos].map(\.text).joined())'")
        }
        var options: QueryStringOptions = []
        if isSymbol(current, "["), case .identifier(let word) = peek(1).kind, isSymbol(peek(2), "]") {
            let lower = word.lowercased()
            guard !lower.isEmpty, lower.allSatisfy({ $0 == "c" || $0 == "d" }) else {
                throw .syntax(at: peek(1).offset, "unknown string comparison option '[\(word)]': expected [c], [d] or [cd]")
            }
            if lower.contains("c") { options.insert(.caseInsensitive) }
            if lower.contains("d") { options.insert(.diacriticInsensitive) }
            guard op.acceptsStringOptions else {
                throw .syntax(at: current.offset, "the option [\(word)] cannot be used with '\(opToken.text)'")
            }
            advance(); advance(); advance()
        }
        let rightIndex = pos
        let right = try parseExpression(what: "a value after '\(opToken.text)'")
        try checkTypeNames(left, leftIndex..<opIndex, right, rightIndex..<pos)
        if op == .between {
            if case .argument = right { return QueryComparison(left, op, right, options: options, quantifier: quantifier) }
            guard case .list(let items) = right, items.count == 2 else {
                throw .syntax(at: opToken.offset, "BETWEEN expects a list of two values: BETWEEN {low, high}")
            }
        }
        return QueryComparison(left, op, right, options: options, quantifier: quantifier)
    }

    /// In a comparison with `@type`, the constants on the other side must be type names
    /// (`'string'`, `{'int', 'double'}`): an unknown name or another constant is an error at
    /// its position.
    private func checkTypeNames(_ left: QueryExpression, _ leftTokens: Range<Int>,
                                _ right: QueryExpression, _ rightTokens: Range<Int>) throws(QueryError) {
        func isTypeOf(_ e: QueryExpression) -> Bool {
            if case .keyPath(let k) = e, k.components.last == .typeOf { return true }
            return false
        }
        func check(_ e: QueryExpression, _ range: Range<Int>) throws(QueryError) {
            switch e {
            case .constant, .list: break
            default: return
            }
            for t in tokens[range] {
                switch t.kind {
                case .literal(.string(let name)):
                    if QueryTypeOfValue.mask(named: name) == nil { throw .syntax(at: t.offset, QueryTypeOfValue.unknownName(name)) }
                case .literal:
                    throw .syntax(at: t.offset, "@type is compared with type names such as 'string' or {'int', 'double'}, not with '\(t.text)'")
                case .identifier where constantKeyword(t) != nil:
                    throw .syntax(at: t.offset, "@type is compared with type names such as 'string' or 'null', not with '\(t.text)'")
                default:
                    break
                }
            }
        }
        if isTypeOf(left) { try check(right, rightTokens) }
        if isTypeOf(right) { try check(left, leftTokens) }
    }

    private mutating func parseOperator() -> QueryOperator? {
        let op: QueryOperator?
        switch current.kind {
        case .symbol("=="): op = .equal
        case .symbol("!="): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="): op = .greaterOrEqual
        case .identifier(let w):
            switch w.lowercased() {
            case "beginswith": op = .beginsWith
            case "endswith": op = .endsWith
            case "contains": op = .contains
            case "like": op = .like
            case "in": op = .in
            case "between": op = .between
            default: op = nil
            }
        default: op = nil
        }
        if op != nil { advance() }
        return op
    }

    // MARK: expressions

    private mutating func parseExpression(what: String) throws(QueryError) -> QueryExpression {
        let t = current
        switch t.kind {
        case .literal(let v):
            advance()
            return .constant(v)
        case .argument(let n):
            advance()
            return .argument(n)
        case .symbol("{"):
            advance()
            var items: [QueryExpression] = []
            if isSymbol(current, "}") { advance(); return .list(items) }
            while true {
                let item = current
                switch item.kind {
                case .literal(let v): items.append(.constant(v)); advance()
                case .argument(let n): items.append(.argument(n)); advance()
                case .identifier:
                    guard let c = constantKeyword(item) else { throw error("a constant in the list", at: item) }
                    items.append(.constant(c)); advance()
                default: throw error("a constant in the list")
                }
                if isSymbol(current, ",") { advance(); continue }
                guard isSymbol(current, "}") else { throw error("',' or '}' in the list") }
                advance()
                return .list(items)
            }
        case .identifier:
            if let c = constantKeyword(t) { advance(); return .constant(c) }
            if isKeyword(t, "subquery") { return try parseSubquery() }
            if let k = keyword(t), Parser.valueKeywords.contains(k) { throw error(what) }
            return .keyPath(try parseKeyPath(what: what))
        case .atName, .variable:
            return .keyPath(try parseKeyPath(what: what))
        default:
            throw error(what)
        }
    }

    private func constantKeyword(_ t: Token) -> QueryValue? {
        switch keyword(t) {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "nil", "null": return .null
        case "inf", "infinity": return .double(.infinity)
        case "nan": return .double(.nan)
        default: return nil
        }
    }

    private mutating func parseSubquery() throws(QueryError) -> QueryExpression {
        try enter()
        defer { depth -= 1 }
        advance()
        try expectSymbol("(", "'(' after SUBQUERY")
        let collection = try parseKeyPath(what: "a collection key path in SUBQUERY")
        try expectSymbol(",", "',' after the SUBQUERY collection")
        guard case .variable(let name) = current.kind else { throw error("a variable such as $x in SUBQUERY") }
        advance()
        try expectSymbol(",", "',' after the SUBQUERY variable")
        let predicate = try parseOr()
        try expectSymbol(")", "')' to close SUBQUERY")
        try expectSymbol(".", "'.@count' after SUBQUERY(...)")
        guard case .atName(let op) = current.kind, ["count", "size"].contains(op.lowercased()) else {
            throw error("'@count' after SUBQUERY(...)")
        }
        advance()
        return .subqueryCount(QuerySubquery(collection: collection, variable: name, predicate: predicate))
    }

    /// Parses a key path; `what` names it in the error when none is found.
    private mutating func parseKeyPath(what: String) throws(QueryError) -> QueryKeyPath {
        var path = QueryKeyPath(variable: nil, [])
        switch current.kind {
        case .variable(let v):
            path.variable = v
            advance()
        case .identifier(let name):
            if let k = keyword(current), Parser.valueKeywords.contains(k) { throw error(what) }
            path.components.append(.property(name))
            advance()
        case .atName:
            try parseAtComponent(into: &path)
        default:
            throw error(what)
        }
        while true {
            if isSymbol(current, ".") {
                advance()
                switch current.kind {
                case .identifier(let name):
                    path.components.append(.property(name))
                    advance()
                case .atName:
                    try parseAtComponent(into: &path)
                default:
                    throw error("a property name or collection operator after '.'")
                }
            } else if isSymbol(current, "[") {
                // `[c]` after a key path is a misplaced option, not a map key: leave it.
                guard case .literal(.string(let key)) = peek(1).kind else {
                    if case .identifier = peek(1).kind { return path }
                    advance()
                    throw error("a string key in '[...]'")
                }
                advance(); advance()
                try expectSymbol("]", "']' after the map key")
                path.components.append(.mapKey(key))
            } else {
                return path
            }
        }
    }

    private mutating func parseAtComponent(into path: inout QueryKeyPath) throws(QueryError) {
        guard case .atName(let raw) = current.kind else { throw error("a collection operator") }
        let name = raw.lowercased()
        let t = current
        advance()
        switch name {
        case "links":
            // @links.@count | @links.Class.property
            if isSymbol(current, "."), case .atName = peek(1).kind {
                path.components.append(.allBacklinks)
                return
            }
            try expectSymbol(".", "'.Class.property' after @links")
            guard case .identifier(let cls) = current.kind else { throw error("a class name after '@links.'") }
            advance()
            try expectSymbol(".", "'.property' after '@links.\(cls)'")
            guard case .identifier(let prop) = current.kind else { throw error("a property name after '@links.\(cls).'") }
            advance()
            path.components.append(.backlinks(className: cls, property: prop))
        // `@allKeys` / `@allValues`: the NSPredicate spellings RealmSwift's format strings take.
        case "keys", "allkeys": path.components.append(.mapKeys)
        case "values", "allvalues": path.components.append(.mapValues)
        case "type": path.components.append(.typeOf)
        default:
            guard let agg = QueryAggregate(rawValue: name) else {
                throw .syntax(at: t.offset, "unknown collection operator '\(t.text)': expected @count, @size, @sum, @min, @max, @avg, @keys, @values, @type or @links")
            }
            path.components.append(.aggregate(agg))
        }
    }
}
