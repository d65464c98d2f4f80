import Foundation
import XCTest
@testable import StrataQuery
@testable import StrataObjects

/// The executor on the real engine against oracles written here in plain Swift, over values
/// read through the dynamic API (`DBTransaction.value/list/map`): none of the reference
/// evaluator's functions (`queryTest`, `transform`, `sortCompare`, …) is used, so a bug shared
/// by the executor and the reference evaluator shows up. Covers the clause kinds that take the
/// generic, case-folded, link and fallback paths, and SORT / DISTINCT / LIMIT. Each run counts
/// how many leaves took each scan path and how many results were non-empty, and asserts both.
final class ExecutionOracleTests: XCTestCase {
    // MARK: plain-Swift semantics

    /// A number from a value, for cross-type numeric comparisons (ints exactly, doubles, decimals).
    enum Num { case i(Int64), d(Double), dec(Decimal) }
    static func num(_ v: Value) -> Num? {
        switch v {
        case .int(let i): return .i(i)
        case .double(let d): return .d(d)
        case .float(let f): return .d(Double(f))
        case .decimal(let d): return .dec(d.value)
        default: return nil
        }
    }
    /// -1/0/1, nil when unordered (NaN). Test values are small, so doubles are exact.
    static func cmpNum(_ a: Num, _ b: Num) -> Int? {
        func dec(_ n: Num) -> Decimal? {
            switch n { case .i(let i): return Decimal(i); case .d(let d): return d.isFinite ? Decimal(string: String(d)) : nil; case .dec(let x): return x }
        }
        switch (a, b) {
        case (.i(let x), .i(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.dec, _), (_, .dec):
            guard let x = dec(a), let y = dec(b) else { return nil }
            return x < y ? -1 : (x == y ? 0 : 1)
        default:
            let x: Double, y: Double
            switch a { case .i(let i): x = Double(i); case .d(let d): x = d; default: return nil }
            switch b { case .i(let i): y = Double(i); case .d(let d): y = d; default: return nil }
            if x.isNaN || y.isNaN { return nil }
            return x < y ? -1 : (x == y ? 0 : 1)
        }
    }
    static func bytesCmp(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }
    /// Order of two values, nil when not comparable (null, NaN, different kinds).
    static func order(_ a: Value, _ b: Value) -> Int? {
        if let x = num(a), let y = num(b) { return cmpNum(x, y) }
        switch (a, b) {
        case (.string(let x), .string(let y)): return bytesCmp(Array(x.utf8), Array(y.utf8))
        case (.data(let x), .data(let y)): return bytesCmp(x, y)
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.objectId(let x), .objectId(let y)): return bytesCmp(x.bytes, y.bytes)
        default: return nil
        }
    }
    static func equal(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.object(let x), .object(let y)): return x == y
        default: return order(a, b) == 0
        }
    }
    static func test(_ l: Value, _ op: String, _ r: Value) -> Bool {
        switch op {
        case "==": return equal(l, r)
        case "!=": return !equal(l, r)
        case "<": return order(l, r) == -1
        case "<=": return order(l, r).map { $0 <= 0 } ?? false
        case ">": return order(l, r) == 1
        case ">=": return order(l, r).map { $0 >= 0 } ?? false
        default: fatalError(op)
        }
    }
    /// Case folding for the test alphabet (full folding: ß → ss, long s → s, Kelvin sign → k).
    static func fold(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\u{DF}": out += "ss"
            case "\u{17F}": out += "s"
            case "\u{212A}": out += "k"
            default: out += String(u).lowercased()
            }
        }
        return out
    }
    /// Diacritics removed for the test alphabet.
    static func strip(_ s: String) -> String {
        String(s.unicodeScalars.map { u -> Character in
            switch u { case "é": return "e"; case "ä": return "a"; case "É": return "E"; case "Ä": return "A"; default: return Character(u) }
        })
    }
    static func stringOp(_ l: String, _ op: String, _ r: String) -> Bool {
        let x = Array(l.unicodeScalars), y = Array(r.unicodeScalars)
        switch op {
        case "BEGINSWITH": return x.starts(with: y)
        case "ENDSWITH": return x.count >= y.count && Array(x.suffix(y.count)) == y
        case "CONTAINS":
            if y.isEmpty { return true }
            guard x.count >= y.count else { return false }
            return (0...(x.count - y.count)).contains { Array(x[$0..<($0 + y.count)]) == y }
        case "==": return x == y
        case "!=": return x != y
        default: fatalError(op)
        }
    }
    static func like(_ text: String, _ pattern: String) -> Bool {
        var re = "^"
        for c in pattern { re += c == "*" ? ".*" : c == "?" ? "." : NSRegularExpression.escapedPattern(for: String(c)) }
        re += "$"
        let rx = try! NSRegularExpression(pattern: re, options: [.dotMatchesLineSeparators])
        return rx.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    // MARK: the test

    func testClausesAndOrderingAgainstPlainSwiftOracles() throws {
        let seed: UInt64 = 1904
        let dir = ExecTempDir()
        let world = ExecWorld.generate(seed: seed, people: 1500, dogs: 200)
        let db = try makeExecDatabase(dir, world)
        defer { db.close() }
        let r = try db.read()
        defer { r.end() }
        var rng = SeededRNG(seed: seed)
        let keys = try r.objectKeys("Person")
        let ids = world.people.map(\.id).sorted()
        // Every property read once through the dynamic API.
        var row: [ObjKey: [String: Value]] = [:]
        for k in keys { row[k] = try r.values("Person", k) }
        func v(_ k: ObjKey, _ p: String) -> Value { row[k]![p] ?? .null }
        func list(_ k: ObjKey, _ p: String) -> [Value] { (try? r.list("Person", k, p)) ?? [] }
        let dogKeys = try r.objectKeys("Dog")
        var dogsOf: [ObjKey: [ObjKey]] = [:]
        for d in dogKeys { if case .object(let l) = try r.value("Dog", d, "owner") { dogsOf[l.key, default: []].append(d) } }
        var incomingFriends: [ObjKey: Int] = [:]
        for k in keys { for case .object(let l) in list(k, "friends") { incomingFriends[l.key, default: 0] += 1 } }

        var pathCounts: [String: Int] = [:]
        var nonEmpty = 0, checks = 0
        let cmp = ["==", "!=", "<", "<=", ">", ">="]
        func pick<T>(_ xs: [T]) -> T { xs.randomElement(using: &rng)! }
        func check(_ q: String, _ args: [Any] = [], file: StaticString = #filePath, line: UInt = #line, _ oracle: (ObjKey) -> Bool) throws {
            let ex = QueryExecutor(r)
            let bound = try ex.compile(q, className: "Person", arguments: args)
            let plan = ScanCompiler.compile(bound.predicate, schema: r.schema["Person"]!)
            if case .leaf(let leaf) = plan.root { pathCounts[Self.pathName(leaf), default: 0] += 1 }
            let got = try ex.run(bound)
            let want = keys.filter(oracle)
            XCTAssertEqual(got, want, "seed \(seed): \(q)", file: file, line: line)
            checks += 1
            if !want.isEmpty { nonEmpty += 1 }
        }
        func name(_ k: ObjKey) -> String? { if case .string(let s) = v(k, "name") { return s }; return nil }

        for _ in 0..<25 {
            // Int property against a fractional constant (generic numeric comparison).
            let op = pick(cmp), c = pick([2.5, 50.0, -1.5, 49.5])
            try check("age \(op) \(c)") { Self.test(v($0, "age"), op, .double(c)) }
            // Case- and diacritic-insensitive string operators.
            let sop = pick(["BEGINSWITH", "CONTAINS", "==", "!=", "ENDSWITH"])
            let needle = pick(["k", "S", "ss", "BO", "b", "é", "a", "Ä"])
            try check("name \(sop)[c] '\(needle)'") { k in
                guard let n = name(k) else { return sop == "!=" }
                return Self.stringOp(Self.fold(n), sop, Self.fold(needle))
            }
            try check("name \(sop)[cd] '\(needle)'") { k in
                guard let n = name(k) else { return sop == "!=" }
                return Self.stringOp(Self.strip(Self.fold(n)), sop, Self.strip(Self.fold(needle)))
            }
            try check("name \(sop)[d] '\(needle)'") { k in
                guard let n = name(k) else { return sop == "!=" }
                return Self.stringOp(Self.strip(n), sop, Self.strip(needle))
            }
            let pattern = pick(["*b*", "?", "B*", "*é", "a?b*", "*", "??*"])
            try check("name LIKE '\(pattern)'") { k in name(k).map { Self.like($0, pattern) } ?? false }
            let n1 = ExecWorld.randomName(&rng), n2 = name(pick(keys)) ?? "b"
            // Exact (byte) equality: Swift's String == would equate the Kelvin sign with K.
            try check("name IN {'\(n1)', '\(n2)', nil}") { k in name(k).map { Array($0.utf8) == Array(n1.utf8) || Array($0.utf8) == Array(n2.utf8) } ?? true }
            // Data, ObjectId, decimal, mixed.
            let blob = (0..<Int.random(in: 0...2, using: &rng)).map { _ in UInt8.random(in: 0...3, using: &rng) }
            let bop = pick(["==", "!=", "BEGINSWITH", "CONTAINS"])
            try check("blob \(bop) $0", [Data(blob)]) { k in
                guard case .data(let b) = v(k, "blob") else { return bop == "!=" }
                switch bop {
                case "==": return b == blob
                case "!=": return b != blob
                case "BEGINSWITH": return b.starts(with: blob)
                default: return blob.isEmpty || (b.count >= blob.count && (0...(b.count - blob.count)).contains { Array(b[$0..<($0 + blob.count)]) == blob })
                }
            }
            let nop = pick(["==", "!="])
            try check("oid \(nop) nil") { k in v(k, "oid").isNull == (nop == "==") }
            let pop = pick(cmp), price = Double(Int.random(in: -100...100, using: &rng)) / 10
            try check("price \(pop) \(price)") { Self.test(v($0, "price"), pop, .decimal(Decimal128(Decimal(string: String(price))!))) }
            let (lit, value): (String, Value) = pick([("1", .int(1)), ("0.5", .double(0.5)), ("'a'", .string("a")), ("true", .bool(true)),
                                                      ("nil", .null), ("T50:0", .date(Date(timeIntervalSince1970: 50)))])
            let mop = lit == "nil" || lit == "true" ? pick(["==", "!="]) : pick(cmp)
            try check("extra \(mop) \(lit)") { Self.test(v($0, "extra"), mop, value) }
            // Property against property.
            let aop = pick(cmp)
            try check("age \(aop) score") { Self.test(v($0, "age"), aop, v($0, "score")) }
            // Through links (to-one, lists, backlinks) and collections.
            func best(_ k: ObjKey) -> ObjKey? { if case .object(let l) = v(k, "best") { return l.key }; return nil }
            let bop2 = pick(cmp), bage = Int64.random(in: 0...99, using: &rng)
            try check("best.age \(bop2) \(bage)") { k in Self.test(best(k).map { v($0, "age") } ?? .null, bop2, .int(bage)) }
            let bneedle = ExecWorld.randomName(&rng)
            try check("best.name BEGINSWITH '\(bneedle)'") { k in best(k).flatMap { name($0) }.map { Self.stringOp($0, "BEGINSWITH", bneedle) } ?? false }
            let target = pick(ids)
            try check("best == $0", [ObjectLink(className: "Person", key: target)]) { best($0) == target }
            let nn = Int64.random(in: 0...10, using: &rng), nop2 = pick(cmp)
            try check("ANY nums \(nop2) \(nn)") { k in list(k, "nums").contains { Self.test($0, nop2, .int(nn)) } }
            try check("nums.@count > 2") { list($0, "nums").count > 2 }
            try check("nums.@sum >= 12") { list($0, "nums").reduce(Int64(0)) { if case .int(let i) = $1 { return $0 + i }; return $0 } >= 12 }
            let fa = Int64.random(in: 0...99, using: &rng)
            func friends(_ k: ObjKey) -> [ObjKey] { list(k, "friends").compactMap { if case .object(let l) = $0 { return l.key }; return nil } }
            try check("ALL friends.age > \(fa)") { k in friends(k).allSatisfy { Self.test(v($0, "age"), ">", .int(fa)) } }
            try check("ANY friends.friends.age == \(fa % 50)") { k in friends(k).flatMap(friends).contains { v($0, "age") == .int(fa % 50) } }
            try check("SUBQUERY(friends, $f, $f.age > \(fa)).@count > 0") { k in friends(k).contains { Self.test(v($0, "age"), ">", .int(fa)) } }
            try check("ANY labels ==[c] 'x'") { k in list(k, "labels").contains { if case .string(let s) = $0 { return Self.fold(s) == "x" }; return false } }
            try check("counts['a'] > 4") { k in ((try? r.map("Person", k, "counts")) ?? []).first { $0.key == "a" }.map { Self.test($0.value, ">", .int(4)) } ?? false }
            try check("dogs.@count > 0") { dogsOf[$0] != nil }
            try check("ANY dogs.age > 10") { k in (dogsOf[k] ?? []).contains { (try? r.value("Dog", $0, "age")).map { Self.test($0, ">", .int(10)) } ?? false } }
            try check("@links.Person.friends.@count > 1") { (incomingFriends[$0] ?? 0) > 1 }
            try check("name.@size > 2") { name($0).map { $0.utf8.count > 2 } ?? false }
            // Native paths too, so their counts show up.
            let ia = Int64.random(in: 0...99, using: &rng), iop = pick(["<", ">="])
            try check("age \(iop) \(ia)") { Self.test(v($0, "age"), iop, .int(ia)) }
        }
        try check("age < 40") { Self.test(v($0, "age"), "<", .int(40)) }
        try check("score >= 1.5") { Self.test(v($0, "score"), ">=", .double(1.5)) }
        try check("tag == 'red'") { v($0, "tag") == .string("red") }

        // SORT / DISTINCT / LIMIT against a plain stable sort over the same values.
        func sortRank(_ x: Value) -> Int {
            switch x { case .null: return 0; case .bool: return 1; case .int, .double, .float, .decimal: return 2; case .string: return 3
            case .data: return 4; case .date: return 5; default: return 6 }
        }
        func sortCmp(_ a: Value, _ b: Value) -> Int {
            let ra = sortRank(a), rb = sortRank(b)
            if ra != rb { return ra < rb ? -1 : 1 }
            if let o = Self.order(a, b) { return o }
            func nan(_ x: Value) -> Bool { if case .double(let d) = x { return d.isNaN }; if case .float(let f) = x { return f.isNaN }; return false }
            return nan(a) == nan(b) ? 0 : (nan(a) ? -1 : 1)
        }
        var orderingChecks = 0
        for _ in 0..<40 {
            let props = ["age", "name", "score", "born", "tag", "extra", "weight", "price", "active"]
            let sortKeys = (0..<Int.random(in: 1...3, using: &rng)).map { _ in (pick(props), Bool.random(using: &rng)) }
            let distinctProps = Bool.random(using: &rng) ? [pick(["tag", "active", "age"])] : []
            let limit: Int? = Bool.random(using: &rng) ? Int.random(in: 0...50, using: &rng) : nil
            let a = Int64.random(in: 10...90, using: &rng)
            var q = "age < \(a) SORT(" + sortKeys.map { "\($0.0) \($0.1 ? "ASC" : "DESC")" }.joined(separator: ", ") + ")"
            if !distinctProps.isEmpty { q += " DISTINCT(\(distinctProps.joined(separator: ", ")))" }
            if let limit { q += " LIMIT(\(limit))" }
            var want = keys.filter { Self.test(v($0, "age"), "<", .int(a)) }
            want = want.enumerated().sorted { x, y in
                for (p, asc) in sortKeys {
                    let c = sortCmp(v(x.element, p), v(y.element, p))
                    if c != 0 { return asc ? c < 0 : c > 0 }
                }
                return x.offset < y.offset
            }.map(\.element)
            if !distinctProps.isEmpty {
                var seen: [[Value]] = []
                want = want.filter { k in
                    let combo = distinctProps.map { v(k, $0) }
                    if seen.contains(where: { zip($0, combo).allSatisfy { Self.equal($0, $1) } }) { return false }
                    seen.append(combo); return true
                }
            }
            if let limit, want.count > limit { want = Array(want.prefix(limit)) }
            XCTAssertEqual(try r.objects("Person", where: q), want, "seed \(seed): \(q)")
            orderingChecks += 1
            if !want.isEmpty { nonEmpty += 1 }
        }
        // The run exercised every path, and most results were not empty.
        for path in ["ints", "doubles", "bytes", "foldedBytes", "generic", "linkedValue", "linkPath", "fallback"] {
            XCTAssertGreaterThan(pathCounts[path] ?? 0, 0, "seed \(seed): no leaf took the \(path) path: \(pathCounts)")
        }
        XCTAssertGreaterThan(nonEmpty, (checks + orderingChecks) / 2, "seed \(seed): too many empty results (\(nonEmpty) non-empty of \(checks + orderingChecks))")
        print("ExecutionOracleTests: \(checks) clause checks, \(orderingChecks) ordering checks, \(nonEmpty) non-empty; paths \(pathCounts.sorted { $0.key < $1.key })")
    }

    static func pathName(_ leaf: ScanLeaf) -> String {
        switch leaf {
        case .ints: return "ints"
        case .doubles: return "doubles"
        case .bytes: return "bytes"
        case .foldedBytes: return "foldedBytes"
        case .generic: return "generic"
        case .linkedValue: return "linkedValue"
        case .linkPath: return "linkPath"
        case .fallback: return "fallback"
        }
    }
}
