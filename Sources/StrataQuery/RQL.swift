/// StrataQuery: the Realm Query Language front end and reference evaluator.
///
/// The pipeline has three stages, each usable on its own:
///
/// 1. `RQL.parse(_:)` turns text into a `ParsedQuery` (a syntax tree, `QueryPredicate`, plus
///    SORT/DISTINCT/LIMIT clauses). Its `description` prints a canonical form that parses back
///    to the same tree.
/// 2. `ParsedQuery.bind(to:className:arguments:)` checks the tree against a `QuerySchema`,
///    substitutes `$0, $1, ...` and resolves key paths into a `BoundQuery`.
/// 3. `QueryEvaluator(access).run(boundQuery, over: objects)` filters, sorts, de-duplicates and
///    limits objects read through any `QueryObjectAccess`. The engine's column scans are
///    expected to reproduce exactly these semantics (see `QueryEvaluator`), and can use
///    `BoundPredicate.conjuncts` and `BoundComparison.propertyEqualsConstant` to find clauses an
///    index answers.
///
/// Every failure is a thrown `QueryError`; no input makes any stage trap.
///
///     let query = try RQL.compile("age > $0 AND name BEGINSWITH[c] 'b' SORT(age DESC) LIMIT(10)",
///                                 schema: schema, className: "Person", arguments: [.int(3)])
///     let people = QueryEvaluator(store).run(query, over: store.all("Person"))
package enum RQL {
    /// Parses a query string. Throws a `QueryError` of kind `.syntax` naming the 1-based position
    /// and what was expected.
    package static func parse(_ text: String) throws(QueryError) -> ParsedQuery {
        var parser = Parser(tokens: try Lexer.tokenize(text))
        return try parser.parseQuery()
    }

    /// Parses a predicate only (SORT/DISTINCT/LIMIT clauses are an error).
    package static func parsePredicate(_ text: String) throws(QueryError) -> QueryPredicate {
        let q = try parse(text)
        if !q.ordering.isEmpty {
            throw QueryError(kind: .syntax, message: "Invalid query: SORT, DISTINCT and LIMIT are not allowed here")
        }
        return q.predicate
    }

    /// Parses and binds in one step.
    package static func compile(_ text: String, schema: QuerySchema, className: String,
                               arguments: [QueryValue] = []) throws(QueryError) -> BoundQuery {
        try parse(text).bind(to: schema, className: className, arguments: arguments)
    }
}
