import Foundation
import XCTest
@testable import StrataQuery
import StrataObjects

/// The parser, binder and evaluator never trap: every input ends in a result or a QueryError.
/// Generated syntax trees survive printing and parsing unchanged.
final class FuzzTests: XCTestCase {
    static let fragments = [
        "a", "age", "name", "dogs", "owner", "tags", "attrs", "scores", "nick", "bestFriend", "favorites", "x",
        " ", " ", " ", "(", ")", "'", "\"", "==", "=", "!=", "<>", "<", "<=", ">", ">=", "=>", "!", "&&", "||",
        "@", "$", "$0", "$1", "$d", "{", "}", "[", "]", "[c]", "[cd]", ",", ".", "0", "9", "42", "-", "3.5", "1e", "0x", "0xFF",
        "T", ":", "\\", "\\u", "é", "e\u{301}", "\u{301}", "😀", "🏻", "\u{200D}", "\u{600}", "*", "?", "#",
        "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE",
        "TRUEPREDICATE", "FALSEPREDICATE", "true", "false", "nil", "NULL", "inf", "-inf", "nan",
        "SUBQUERY(", "oid(", "uuid(", "decimal128(", "B64\"", "@links", "@count", "@size", "@sum", "@avg", "@min", "@max",
        "@keys", "@values", ".@count", "T2024-01-01@10:00:00", "2024-02-30@1:2:3", "T12:34", "SORT(", "DISTINCT(", "LIMIT(",
        "ASC", "DESC", "507f1f77bcf86cd799439011", "'x'", "\"y\"", "['k1']", "\u{0}", "\n", "\t",
    ]

    static let validQueries = [
        "age > 3 AND name BEGINSWITH[c] 'b'", "bestFriend.name == $0", "ANY tags == 'x'", "dogs.@count > 2",
        "age IN {1,2}", "age BETWEEN {1, 5}", "TRUEPREDICATE SORT(name ASC) DISTINCT(age) LIMIT(10)",
        "dogs.@avg.age > 3 OR NOT (scores.@sum < 4 && nick == nil)", "attrs['k1'] > 2 AND attrs.@keys == 'k2'",
        "SUBQUERY(dogs, $d, $d.age > 3 AND $d.name CONTAINS[cd] 'é').@count >= 1", "born > T2024-01-01@10:00:00:5",
        "favorites['f1'].age == 3 OR favorites.@values.name LIKE '*a?'", "ALL dogs.toys.price < 10.5e1",
        "name.@size == 0x3 AND balance > decimal128(1.5) AND height < -inf", "'a' IN tags AND active == false",
    ]

    /// Parses, and when that works binds and evaluates on a small world; returns whether it parsed.
    @discardableResult
    func exercise(_ text: String, _ store: DictionaryStore, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let parsed: ParsedQuery
        do {
            parsed = try RQL.parse(text)
        } catch {
            XCTAssertFalse(error.message.isEmpty, file: file, line: line)
            if error.kind == .syntax {
                XCTAssertTrue(error.message.hasPrefix("Invalid query"), error.message, file: file, line: line)
                XCTAssertNotNil(error.position, file: file, line: line)
                if let p = error.position { XCTAssertTrue((1...text.count + 1).contains(p), "\(p) in \(text)", file: file, line: line) }
            }
            return false
        }
        // Printing is canonical: print → parse → print is a fixed point.
        let printed = parsed.description
        do {
            let again = try RQL.parse(printed)
            XCTAssertEqual(again.description, printed, "from \(text)", file: file, line: line)
        } catch {
            XCTFail("printed form of \(text) does not parse: \(printed): \(error)", file: file, line: line)
        }
        for cls in ["Person", "Dog"] {
            let args: [QueryValue] = [.string("x"), .int(2)]
            if let bound = try? parsed.bind(to: testSchema, className: cls, arguments: args) {
                _ = QueryEvaluator(store).run(bound, over: store.all(cls))
            }
        }
        return true
    }

    func testRandomFragmentSoup() {
        let store = World.generate(seed: 99, people: 6, dogs: 8, toys: 3).store()
        var rng = SeededRNG(seed: 2024)
        var parsedCount = 0
        for _ in 0..<4000 {
            let n = Int.random(in: 0...14, using: &rng)
            let text = (0..<n).map { _ in FuzzTests.fragments.randomElement(using: &rng)! }.joined()
            if exercise(text, store) { parsedCount += 1 }
        }
        XCTAssertGreaterThan(parsedCount, 5, "some soups should parse")
    }

    func testRandomScalars() {
        let store = World.generate(seed: 98, people: 4, dogs: 4, toys: 2).store()
        var rng = SeededRNG(seed: 7)
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...30, using: &rng) {
                let v: UInt32 = Bool.random(using: &rng) ? UInt32.random(in: 0x20...0x7E, using: &rng) : UInt32.random(in: 0...0x1F_FFF, using: &rng)
                if let u = Unicode.Scalar(v) { text.unicodeScalars.append(u) }
            }
            exercise(text, store)
        }
    }

    func testMutatedValidQueries() {
        let store = World.generate(seed: 97, people: 6, dogs: 8, toys: 3).store()
        var rng = SeededRNG(seed: 99)
        var parsedCount = 0
        for q in FuzzTests.validQueries { XCTAssertTrue(exercise(q, store), q) }
        for _ in 0..<4000 {
            var chars = Array(FuzzTests.validQueries.randomElement(using: &rng)!)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                guard !chars.isEmpty else { break }
                let i = Int.random(in: 0..<chars.count, using: &rng)
                switch Int.random(in: 0...4, using: &rng) {
                case 0: chars.remove(at: i)
                case 1: chars.insert(contentsOf: Array(FuzzTests.fragments.randomElement(using: &rng)!), at: i)
                case 2: chars.swapAt(i, Int.random(in: 0..<chars.count, using: &rng))
                case 3: chars = Array(chars[..<i])
                default: chars.insert(contentsOf: chars[i..<min(chars.count, i + 5)], at: i)
                }
            }
            if exercise(String(chars), store) { parsedCount += 1 }
        }
        XCTAssertGreaterThan(parsedCount, 200)
    }

    // MARK: generated trees

    struct TreeGenerator {
        var rng: SeededRNG
        let names = ["age", "name", "dogs", "owner", "x", "sort", "limit", "in_", "Ünïcode", "a1"]

        mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
        mutating func pick<T>(_ xs: [T]) -> T { xs.randomElement(using: &rng)! }

        mutating func randomString() -> String {
            var s = ""
            for _ in 0..<int(0...6) {
                switch int(0...5) {
                case 0: s.unicodeScalars.append(pick(["'", "\"", "\\", "\n", "\t", "\u{0}", "\u{301}", "\u{200D}", "\u{1F3FB}", "\u{600}"]))
                case 1: s.unicodeScalars.append(Unicode.Scalar(UInt32(int(0xA0...0x2FFF))) ?? "x")
                case 2: s += pick(["😀", "🇺🇸", "👩‍👩‍👧", "é", "e\u{301}", "한"])
                default: s.unicodeScalars.append(Unicode.Scalar(UInt8(int(0x20...0x7E))))
                }
            }
            return s
        }

        mutating func value() -> QueryValue {
            switch int(0...10) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int64.random(in: .min ... .max, using: &rng))
            case 3: return .int(Int64(int(-10...10)))
            case 4:
                let d = pick([0.5, -2.25, 1e300, Double.leastNonzeroMagnitude, -0.0, .infinity, -.infinity, 3.0, Double(int(-1000...1000)) / 7])
                return .double(d)
            case 5: return .string(randomString())
            case 6: return .data((0..<int(0...6)).map { _ in UInt8(int(0...255)) })
            case 7: return .date(QueryTimestamp(seconds: Int64.random(in: -80_000_000_000...300_000_000_000, using: &rng),
                                                nanoseconds: Int64(int(0...999_999_999))))
            case 8: return .objectId(QueryObjectId(bytes: (0..<12).map { _ in UInt8(int(0...255)) })!)
            case 9: return .uuid(UUID())
            default: return .decimal(Decimal128(number: int(-100_000...100_000)) / 100)
            }
        }

        mutating func keyPath(variable: String? = nil) -> QueryKeyPath {
            var comps: [QueryKeyPathComponent] = []
            let first = int(0...9)
            if variable == nil || first > 5 {
                comps.append(first == 0 ? .backlinks(className: "Person", property: pick(names)) : .property(pick(names)))
            }
            for _ in 0..<int(0...3) {
                switch int(0...6) {
                case 0: comps.append(.aggregate(pick(QueryAggregate.allCases)))
                case 1: comps.append(.mapKey(randomString()))
                case 2: comps.append(pick([.mapKeys, .mapValues]))
                default: comps.append(.property(pick(names)))
                }
            }
            if comps.isEmpty && variable == nil { comps.append(.property("a")) }
            if int(0...15) == 0 { return QueryKeyPath(variable: variable, [.allBacklinks, .aggregate(.count)]) }
            return QueryKeyPath(variable: variable, comps)
        }

        mutating func expression(_ variables: [String], depth: Int) -> QueryExpression {
            switch int(0...9) {
            case 0...3: return .keyPath(keyPath(variable: variables.isEmpty || Bool.random(using: &rng) ? nil : pick(variables)))
            case 4...6: return .constant(value())
            case 7: return .argument(int(0...20))
            case 8: return .list((0..<int(0...3)).map { _ in Bool.random(using: &rng) ? .constant(value()) : .argument(int(0...3)) })
            default:
                guard depth > 0 else { return .constant(value()) }
                let v = "v\(variables.count)"
                return .subqueryCount(QuerySubquery(collection: keyPath(), variable: v,
                                                    predicate: predicate(variables + [v], depth: depth - 1)))
            }
        }

        mutating func comparison(_ variables: [String], depth: Int) -> QueryPredicate {
            let op = pick(QueryOperator.allCases)
            var options: QueryStringOptions = []
            if op.acceptsStringOptions { options = pick([[], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]) }
            var quantifier: QueryQuantifier?
            var left = expression(variables, depth: depth)
            if case .list = left { left = .keyPath(keyPath()) }
            if case .keyPath = left, int(0...3) == 0 { quantifier = pick([.anyOf, .allOf, .noneOf]) }
            var right = expression(variables, depth: depth)
            if op == .between { right = .list([.constant(value()), .argument(int(0...3))]) }
            return .comparison(QueryComparison(left, op, right, options: options, quantifier: quantifier))
        }

        mutating func predicate(_ variables: [String], depth: Int) -> QueryPredicate {
            if depth == 0 { return int(0...9) == 0 ? .constant(Bool.random(using: &rng)) : comparison(variables, depth: 0) }
            switch int(0...5) {
            case 0: return .not(predicate(variables, depth: depth - 1))
            case 1, 2:
                // Flattening invariant: no direct and-in-and / or-in-or.
                let parts = (0..<int(2...4)).map { _ in predicate(variables, depth: depth - 1) }
                return .and(parts.flatMap { p -> [QueryPredicate] in if case .and(let ps) = p { return ps } else { return [p] } })
            case 3:
                let parts = (0..<int(2...3)).map { _ in predicate(variables, depth: depth - 1) }
                return .or(parts.flatMap { p -> [QueryPredicate] in if case .or(let ps) = p { return ps } else { return [p] } })
            default: return comparison(variables, depth: depth)
            }
        }

        mutating func query() -> ParsedQuery {
            var ordering: [QueryOrderingClause] = []
            for _ in 0..<int(0...3) {
                switch int(0...2) {
                case 0: ordering.append(.sort((0..<int(1...3)).map { _ in QuerySortKey(keyPath(), ascending: Bool.random(using: &rng)) }))
                case 1: ordering.append(.distinct((0..<int(1...2)).map { _ in keyPath() }))
                default: ordering.append(.limit(int(0...1000)))
                }
            }
            return ParsedQuery(predicate: predicate([], depth: int(0...4)), ordering: ordering)
        }
    }

    func testGeneratedTreesRoundTrip() {
        var gen = TreeGenerator(rng: SeededRNG(seed: 31337))
        var failures = 0
        for _ in 0..<3000 {
            let tree = gen.query()
            let text = tree.description
            do {
                let parsed = try RQL.parse(text)
                if parsed != tree {
                    failures += 1
                    XCTFail("round trip changed the tree:\n\(text)\n\(parsed.description)")
                }
            } catch {
                failures += 1
                XCTFail("\(text): \(error)")
            }
            if failures > 10 { return }
        }
    }
}
