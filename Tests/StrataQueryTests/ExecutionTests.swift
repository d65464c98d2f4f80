import Foundation
import XCTest
@testable import StrataQuery
@testable import StrataObjects

/// Random queries for the executor-vs-reference comparison: every clause shape the scans
/// handle natively, the generic path and the fallback.
struct ExecQueryGenerator {
    var rng: SeededRNG
    let ids: [Int64]

    mutating func pick<T>(_ xs: [T]) -> T { xs.randomElement(using: &rng)! }
    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }

    mutating func quote() -> String { "'" + ExecWorld.randomName(&rng) + "'" }

    mutating func clause() -> (String, [Any]) {
        let cmp = ["==", "!=", "<", "<=", ">", ">="]
        switch int(0...39) {
        case 0: return ("age \(pick(cmp)) \(int(-5...105))", [])
        case 1: return ("age BETWEEN {\(int(0...60)), \(int(30...100))}", [])
        case 2: return ("age IN {\((0..<int(0...12)).map { _ in String(int(0...99)) }.joined(separator: ", "))}", [])
        case 3: return ("\(int(0...99)) \(pick(cmp)) age", [])
        case 4: return ("age \(pick(cmp)) \(pick(["2.5", "50.0", "-1.5"]))", [])
        case 5: return ("score \(pick(cmp)) \(Double(int(-400...400)) / 8)", [])
        case 6: return ("score \(pick(["==", "!="])) nil", [])
        case 7: return ("score BETWEEN {\(int(-50...0)), \(int(0...50))}", [])
        case 8: return ("score IN {1.5, -2, \(Double(int(-400...400)) / 8)}", [])
        case 9: return ("weight \(pick(cmp)) \(Double(int(0...200)) / 4)", [])
        case 10: return ("name \(pick(["BEGINSWITH", "ENDSWITH", "CONTAINS"])) \(quote())", [])
        case 11: return ("name \(pick(cmp)) \(quote())", [])
        case 12: return ("name \(pick(["==", "!="])) nil", [])
        case 13 where int(0...1) == 0:
            return ("name \(pick(["BEGINSWITH", "CONTAINS", "==", "!=", "ENDSWITH"]))[c] '\(pick(["k", "S", "ss", "BO", "b", "", "é"]))'", [])
        case 13: return ("name \(pick(["BEGINSWITH", "CONTAINS", "==", "ENDSWITH"]))\(pick(["[c]", "[d]", "[cd]"])) \(quote())", [])
        case 14: return ("name LIKE '\(pick(["*b*", "?", "B*", "*é", "a?b*"]))'", [])
        case 15: return ("name IN {\(quote()), \(quote()), nil}", [])
        case 16: return ("active == \(pick(["true", "false"]))", [])
        case 17: return ("born \(pick(cmp)) $0", [Date(timeIntervalSince1970: Double(int(-1_000_000_000...2_000_000_000)))])
        case 18: return ("born BETWEEN {T0:0, T\(int(0...2_000_000_000)):0}", [])
        case 19: return ("tag \(pick(["==", "!="])) '\(pick(["red", "green", "blue", "", "Red", "none"]))'", [])
        case 20: return ("tag IN {'red', '\(pick(["green", "blue", "x"]))'}", [])
        case 21: return ("tag ==[c] 'red'", [])
        case 22: return ("id == \(pick(ids))", [])
        case 23: return ("id IN {\(pick(ids)), \(pick(ids)), 123456789}", [])
        case 24: return ("id \(pick(cmp)) \(int(-50_000...50_000))", [])
        case 25: return ("level \(pick(["==", "!=", ">", "<="])) \(int(-3...6))", [])
        case 26: return ("level \(pick(["==", "!="])) nil", [])
        case 27: return ("level IN {nil, 1, 3}", [])
        case 28: return ("blob \(pick(["==", "!=", "BEGINSWITH", "CONTAINS"])) $0", [Data((0..<int(0...2)).map { _ in UInt8(int(0...3)) })])
        case 29: return ("oid \(pick(["==", "!="])) nil", [])
        case 30: return ("price \(pick(cmp)) \(Double(int(-100...100)) / 10)", [])
        case 31:
            let v = pick(["1", "0.5", "'a'", "true", "nil", "T50:0"])
            return ("extra \(v == "nil" || v == "true" ? pick(["==", "!="]) : pick(cmp)) \(v)", [])
        case 32: return ("best \(pick(["==", "!="])) nil", [])
        case 33:
            switch int(0...3) {
            case 0: return ("best.name \(pick(["BEGINSWITH", "==", "!=", "CONTAINS[c]"])) \(quote())", [])
            case 1: return ("best.score \(pick(["==", "!="])) nil", [])
            case 2: return ("best.age IN {1, 2, 3, 40}", [])
            default: return ("best.age \(pick(cmp)) \(int(0...99))", [])
            }
        case 34: return ("ANY nums \(pick(cmp)) \(int(0...10))", [])
        case 35: return (pick(["nums.@count > 2", "nums.@sum >= 12", "friends.@count == 0", "labels.@count > 1",
                               "counts['a'] > 4", "ANY labels ==[c] 'x'", "ALL friends.age > 30"]), [])
        case 36: return (pick(["SUBQUERY(friends, $f, $f.age > 50).@count > 0", "dogs.@count > 0",
                               "@links.Person.friends.@count > 1", "ANY dogs.age > 10", "name.@size > 2"]), [])
        case 37: return ("age \(pick(cmp)) score", [])
        case 38: return ("best == $0", [ObjectLink(className: "Person", key: pick(ids))])
        default: return (pick(["TRUEPREDICATE", "FALSEPREDICATE"]), [])
        }
    }

    mutating func predicate(depth: Int = 0) -> (String, [Any]) {
        if depth >= 2 || int(0...2) == 0 { return clause() }
        let n = int(2...3)
        var parts: [String] = []
        var args: [Any] = []
        for _ in 0..<n {
            var (s, a) = predicate(depth: depth + 1)
            // Renumber $0 in the part.
            if !a.isEmpty { s = s.replacingOccurrences(of: "$0", with: "$\(args.count)") }
            args += a
            parts.append(int(0...4) == 0 ? "NOT (\(s))" : "(\(s))")
        }
        return (parts.joined(separator: int(0...1) == 0 ? " AND " : " OR "), args)
    }

    mutating func ordering() -> String {
        switch int(0...7) {
        case 0: return " SORT(\(pick(["age", "name", "score", "born", "tag", "extra", "best.age", "weight", "price"])) \(pick(["ASC", "DESC"])))"
        case 1: return " SORT(tag ASC, age DESC, name ASC)"
        case 2: return " DISTINCT(\(pick(["tag", "age", "active", "score"])))"
        case 3: return " LIMIT(\(int(0...30)))"
        case 4: return " SORT(score DESC) DISTINCT(tag, active) LIMIT(7)"
        case 5: return " SORT(\(pick(["name", "score", "born", "extra", "active"])) \(pick(["ASC", "DESC"])), age ASC) LIMIT(\(int(0...40)))"
        default: return ""
        }
    }
}

final class ExecutionTests: XCTestCase {
    func testRandomQueriesAgreeWithReferenceEvaluator() throws {
        let dir = ExecTempDir()
        let world = ExecWorld.generate(seed: 42, people: 2100, dogs: 300)
        let db = try makeExecDatabase(dir, world)
        defer { db.close() }
        let r = try db.read()
        defer { r.end() }
        var gen = ExecQueryGenerator(rng: SeededRNG(seed: 7), ids: world.people.map(\.id))
        defer { ClusterEvaluator.linkMapThreshold = 4096 }
        for i in 0..<200 {
            // Half of the queries read link targets through a whole-column map.
            ClusterEvaluator.linkMapThreshold = i % 2 == 0 ? 0 : 4096
            let (p, args) = gen.predicate()
            let q = p + gen.ordering()
            do { try assertAgrees(r, "Person", q, args) } catch { XCTFail("\(q): \(error)") }
        }
    }

    func testPlainSwiftOracle() throws {
        let dir = ExecTempDir()
        let world = ExecWorld.generate(seed: 3, people: 3000)
        let db = try makeExecDatabase(dir, world)
        defer { db.close() }
        let r = try db.read()
        defer { r.end() }
        let byId = Dictionary(uniqueKeysWithValues: world.people.map { ($0.id, $0) })
        func check(_ q: String, _ args: [Any] = [], _ oracle: (ExecPerson) -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
            let keys = try r.objects("Person", where: q, arguments: args)
            let expected = world.people.filter(oracle).map(\.id).sorted()
            XCTAssertEqual(keys, expected, q, file: file, line: line)
            XCTAssertEqual(try r.count("Person", where: q, arguments: args), expected.count, q, file: file, line: line)
        }
        var rng = SeededRNG(seed: 99)
        for _ in 0..<60 {
            let lo = Int64.random(in: 0...60, using: &rng), hi = Int64.random(in: 20...100, using: &rng)
            let prefix = ExecWorld.letters.randomElement(using: &rng)!
            try check("age BETWEEN {\(lo), \(hi)} AND name BEGINSWITH '\(prefix)'") { p in
                p.age >= lo && p.age <= hi && (p.name.map { $0.utf8.starts(with: prefix.utf8) } ?? false)
            }
            let a = Int64.random(in: 0...99, using: &rng)
            let s = Double(Int.random(in: -400...400, using: &rng)) / 8
            try check("age < $0 OR score >= $1", [a, s]) { p in p.age < a || (p.score.map { $0 >= s } ?? false) }
            try check("NOT (active == true AND tag == 'red') AND score != nil") { p in !(p.active && p.tag == "red") && p.score != nil }
            try check("name CONTAINS $0 AND level != 2", [prefix]) { p in
                (p.name.map { Array($0.utf8).firstRange(of: Array(prefix.utf8)) != nil } ?? false) && p.level != 2
            }
            let t = Int64.random(in: -1_000_000_000...2_000_000_000, using: &rng)
            try check("born > $0", [Date(timeIntervalSince1970: Double(t))]) { p in p.born > t }
            try check("level IN {nil, 1, 3}") { p in p.level == nil || p.level == 1 || p.level == 3 }
        }
        // Aggregates against plain Swift.
        let e = QueryExecutor(r)
        XCTAssertEqual(try e.aggregate(.sum, property: "age", className: "Person"), .int(world.people.reduce(0) { $0 + $1.age }))
        let young = world.people.filter { $0.age < 30 }
        let youngPredicate = try e.compile("age < 30", className: "Person").predicate
        XCTAssertEqual(try e.aggregate(.sum, property: "age", className: "Person", where: youngPredicate), .int(young.reduce(0) { $0 + $1.age }))
        XCTAssertEqual(try e.aggregate(.max, property: "age", className: "Person", where: youngPredicate), .int(young.map(\.age).max()!))
        XCTAssertEqual(try e.aggregate(.min, property: "level", className: "Person"), .int(world.people.compactMap(\.level).min()!))
        let avg = try e.aggregate(.avg, property: "age", className: "Person")
        XCTAssertEqual(avg, .double(Double(world.people.reduce(0) { $0 + $1.age }) / Double(world.people.count)))
        let weights = world.people.map { Double($0.weight) }
        XCTAssertEqual(try e.aggregate(.sum, property: "weight", className: "Person"), .double(weights.reduce(0, +)))
        XCTAssertEqual(try e.aggregate(.max, property: "weight", className: "Person"), .float(Float(weights.max()!)))
        let prices = world.people.compactMap(\.price)
        XCTAssertEqual(try e.aggregate(.sum, property: "price", className: "Person"), .decimal(Decimal128(prices.reduce(0, +))))
        XCTAssertEqual(try e.aggregate(.count, property: "score", className: "Person"), .int(Int64(world.people.filter { $0.score != nil }.count)))
        XCTAssertEqual(try r.aggregate(.min, of: "born", in: "Person", where: "age > 90"),
                       .date(QueryTimestamp(seconds: world.people.filter { $0.age > 90 }.map(\.born).min()!)))
        XCTAssertThrowsError(try e.aggregate(.sum, property: "name", className: "Person"))
        XCTAssertThrowsError(try e.aggregate(.sum, property: "nope", className: "Person"))
        // Sorting against plain Swift (stable, nulls first ascending).
        let sortedKeys = try r.objects("Person", where: "age < 50 SORT(score ASC, age DESC)")
        let expected = world.people.filter { $0.age < 50 }.sorted { $0.id < $1.id }.enumerated().sorted { a, b in
            func rank(_ d: Double?) -> (Int, Double) { d == nil ? (0, 0) : (d!.isNaN ? (1, 0) : (2, d!)) }
            let ra = rank(a.element.score), rb = rank(b.element.score)
            if ra != rb { return ra < rb }
            if a.element.age != b.element.age { return a.element.age > b.element.age }
            return a.offset < b.offset
        }.map(\.element.id)
        XCTAssertEqual(sortedKeys, expected)
        _ = byId
    }

    func testWriteTransactionDirtyClustersAndDeletes() throws {
        let dir = ExecTempDir()
        let world = ExecWorld.generate(seed: 11, people: 2500, dogs: 200)
        let db = try makeExecDatabase(dir, world)
        defer { db.close() }
        var gen = ExecQueryGenerator(rng: SeededRNG(seed: 12), ids: world.people.map(\.id))
        var rng = SeededRNG(seed: 13)
        let w = try db.write()
        // Change some objects, add some, delete some: several clusters become dirty.
        for p in world.people.shuffled(using: &rng).prefix(300) {
            try w.set("Person", p.id, "age", .int(Int64.random(in: 0..<100, using: &rng)))
            try w.set("Person", p.id, "name", Bool.random(using: &rng) ? .null : .string(ExecWorld.randomName(&rng)))
            try w.set("Person", p.id, "tag", .string(["red", "blue", "violet"].randomElement(using: &rng)!))
        }
        for i in 0..<200 {
            try w.create("Person", values: ["id": .int(100_000 + Int64(i)), "name": .string("New\(i)"), "age": .int(Int64(i % 100)),
                                            "tag": .string("violet"), "score": .double(Double(i))])
        }
        let deleted = Array(world.people.shuffled(using: &rng).prefix(400).map(\.id))
        try w.delete("Person", keys: deleted)
        for _ in 0..<100 {
            let (p, args) = gen.predicate()
            let q = p + gen.ordering()
            do { try assertAgrees(w, "Person", q, args) } catch { XCTFail("\(q): \(error)") }
        }
        // Aggregates over dirty clusters agree with values read one by one.
        let e = QueryExecutor(w)
        for q in ["age < 50", "TRUEPREDICATE", "tag == 'violet'", "score > 0"] {
            let pred = try e.compile(q, className: "Person").predicate
            let keys = try e.filter(pred, className: "Person")
            let ages = try keys.map { k -> Int64 in if case .int(let a) = try w.value("Person", k, "age") { return a }; return 0 }
            XCTAssertEqual(try e.aggregate(.sum, property: "age", className: "Person", where: pred), .int(ages.reduce(0, +)), q)
            XCTAssertEqual(try e.aggregate(.max, property: "age", className: "Person", where: pred), ages.max().map { .int($0) } ?? .null, q)
            let scores = try keys.compactMap { k -> Double? in if case .double(let d) = try w.value("Person", k, "score") { return d }; return nil }
            XCTAssertEqual(try e.aggregate(.count, property: "score", className: "Person", where: pred), .int(Int64(scores.count)), q)
        }
        // The index sees this transaction's changes.
        let violet = try assertAgrees(w, "Person", "tag == 'violet'")
        XCTAssertGreaterThanOrEqual(violet.count, 200)
        XCTAssertEqual(try w.objects("Person", where: "id IN $0", deleted.prefix(20).map { $0 }), [])
        try w.commit()
        // After the commit: the same comparisons on the committed version.
        let r = try db.read()
        defer { r.end() }
        for _ in 0..<100 {
            let (p, args) = gen.predicate()
            let q = p + gen.ordering()
            do { try assertAgrees(r, "Person", q, args) } catch { XCTFail("\(q): \(error)") }
        }
        XCTAssertEqual(try r.count("Person", where: "TRUEPREDICATE"), 2500 + 200 - 400)
    }

    func testIndexAndPrimaryKeyLookupsDoNotScan() throws {
        let dir = ExecTempDir()
        let world = ExecWorld.generate(seed: 5, people: 5000)
        let db = try makeExecDatabase(dir, world)
        defer { db.close() }
        let r = try db.read()
        defer { r.end() }
        let e = QueryExecutor(r)
        let target = world.people[1234]
        XCTAssertEqual(try e.run("id == $0", className: "Person", arguments: [target.id]), [target.id])
        XCTAssertEqual(e.statistics.indexLookups, 1)
        XCTAssertEqual(e.statistics.clustersScanned, 1)
        XCTAssertEqual(e.statistics.rowsScanned, 1)

        e.statistics = QueryStatistics()
        XCTAssertEqual(try e.run("id == 999999999", className: "Person"), [])
        XCTAssertEqual(e.statistics.clustersScanned, 0)

        e.statistics = QueryStatistics()
        let some = world.people.prefix(3).map(\.id)
        XCTAssertEqual(try e.run("id IN $0 AND age >= 0", className: "Person", arguments: [some]), some.sorted())
        XCTAssertEqual(e.statistics.indexLookups, 3)
        XCTAssertEqual(e.statistics.rowsScanned, 3)

        // Indexed level: the candidates come from the index; only their rows are evaluated.
        e.statistics = QueryStatistics()
        let level3 = try e.run("level == 3 AND name != nil", className: "Person")
        XCTAssertEqual(level3, world.people.filter { $0.level == 3 && $0.name != nil }.map(\.id).sorted())
        XCTAssertEqual(e.statistics.indexLookups, 1)
        XCTAssertEqual(e.statistics.rowsScanned, world.people.filter { $0.level == 3 }.count)

        e.statistics = QueryStatistics()
        let nilLevel = try e.run("level == nil", className: "Person")
        XCTAssertEqual(nilLevel, world.people.filter { $0.level == nil }.map(\.id).sorted())
        XCTAssertEqual(e.statistics.indexLookups, 1)

        // Indexed string, and no index for [c].
        e.statistics = QueryStatistics()
        XCTAssertEqual(try e.count(e.compile("tag == 'red'", className: "Person")), world.people.filter { $0.tag == "red" }.count)
        XCTAssertEqual(e.statistics.indexLookups, 1)
        XCTAssertEqual(e.statistics.rowsScanned, world.people.filter { $0.tag == "red" }.count)
        e.statistics = QueryStatistics()
        XCTAssertEqual(try e.count(e.compile("tag ==[c] 'red'", className: "Person")), world.people.filter { $0.tag.lowercased() == "red" }.count)
        XCTAssertEqual(e.statistics.indexLookups, 0)
        XCTAssertEqual(e.statistics.rowsScanned, 5000)

        // A full scan visits every cluster once and needs no fallback for simple clauses.
        e.statistics = QueryStatistics()
        _ = try e.count(e.compile("age > 10 AND name BEGINSWITH 'B' OR score < 0", className: "Person"))
        XCTAssertEqual(e.statistics.indexLookups, 0)
        XCTAssertEqual(e.statistics.fallbackEvaluations, 0)
        XCTAssertGreaterThanOrEqual(e.statistics.clustersScanned, 5)
    }

    /// A query among a few objects evaluates them instead of reading every key of an indexed
    /// value (change notifications and the browser place changed objects two at a time); among
    /// many, the index still narrows the scan.
    func testAFewAmongKeysAreEvaluatedWithoutTheIndex() throws {
        let dir = ExecTempDir()
        let world = ExecWorld.generate(seed: 6, people: 3000)
        let db = try makeExecDatabase(dir, world)
        defer { db.close() }
        let r = try db.read()
        defer { r.end() }
        let e = QueryExecutor(r)
        let few = [world.people[10].id, world.people[2000].id]
        XCTAssertEqual(try e.run("level == 3", className: "Person", among: few),
                       world.people.filter { few.contains($0.id) && $0.level == 3 }.map(\.id))
        XCTAssertEqual(e.statistics.indexLookups, 0)
        XCTAssertEqual(e.statistics.rowsScanned, 2)
        e.statistics = QueryStatistics()
        let many = world.people.prefix(1000).map(\.id)
        XCTAssertEqual(try e.run("level == 3", className: "Person", among: many),
                       world.people.prefix(1000).filter { $0.level == 3 }.map(\.id))
        XCTAssertEqual(e.statistics.indexLookups, 1)
    }

    func testAmongKeysKeepsOrder() throws {
        let dir = ExecTempDir()
        let world = ExecWorld.generate(seed: 8, people: 2000)
        let db = try makeExecDatabase(dir, world)
        defer { db.close() }
        let r = try db.read()
        defer { r.end() }
        let e = QueryExecutor(r)
        let byAge = try r.objects("Person", where: "TRUEPREDICATE SORT(age DESC)")
        let bound = try e.compile("name BEGINSWITH 'a' AND active == true", className: "Person")
        let filtered = try e.run(bound, among: byAge)
        let ages = try filtered.map { try r.value("Person", $0, "age") }
        XCTAssertEqual(filtered, byAge.filter { Set(try! e.run(bound)).contains($0) })
        XCTAssertEqual(ages, ages.sorted { if case .int(let a) = $0, case .int(let b) = $1 { return a > b }; return false })
        XCTAssertEqual(try e.count(bound, among: byAge), filtered.count)
        XCTAssertEqual(try e.filter(bound.predicate, className: "Person", among: byAge, limit: 5), Array(filtered.prefix(5)))
        // Keys not in the class are ignored.
        XCTAssertEqual(try e.run(e.compile("TRUEPREDICATE", className: "Person"), among: [987_654_321]), [])
    }

    func testBadQueriesThrowNamedErrors() throws {
        let dir = ExecTempDir()
        let db = try makeExecDatabase(dir, ExecWorld.generate(seed: 1, people: 10))
        defer { db.close() }
        let r = try db.read()
        defer { r.end() }
        func error(_ q: String, _ args: Any...) -> QueryError? {
            do { _ = try r.objects("Person", where: q, arguments: args); return nil } catch let e as QueryError { return e } catch { return nil }
        }
        XCTAssertEqual(error("age >")?.kind, .syntax)
        XCTAssertNotNil(error("age > ")?.position)
        XCTAssertTrue(error("age > 3 AND")?.message.contains("position") == true)
        XCTAssertEqual(error("agee > 3")?.kind, .unknownProperty)
        XCTAssertTrue(error("agee > 3")?.message.contains("age") == true)
        XCTAssertEqual(error("name > 3")?.kind, .typeMismatch)
        XCTAssertEqual(error("age > $0")?.kind, .argument)
        XCTAssertEqual(error("age > $0", NSObject())?.kind, .argument)
        XCTAssertThrowsError(try r.objects("Nope", where: "TRUEPREDICATE"))
        XCTAssertThrowsError(try r.count("Nope", where: "TRUEPREDICATE")) { XCTAssertTrue($0 is QueryError) }
        // A class without objects.
        XCTAssertEqual(try r.objects("Dog", where: "age > 1 SORT(name ASC)"), [])
        XCTAssertEqual(try r.count("Dog", where: "TRUEPREDICATE"), 0)
        XCTAssertEqual(try r.aggregate(.sum, of: "age", in: "Dog"), .int(0))
        XCTAssertEqual(try r.aggregate(.avg, of: "age", in: "Dog"), .null)
        XCTAssertEqual(try r.objects("Person", where: "TRUEPREDICATE LIMIT(0)"), [])
        XCTAssertEqual(error("name == $0", Optional<String>.none as Any), nil)
    }

    func testArgumentsAndBridges() throws {
        XCTAssertEqual(try QueryArguments.convert([3, Int8(4), UInt32(5), 2.5, Float(1.5), "x", true, [1, 2], Optional<Int>.none as Any]),
                       [.int(3), .int(4), .int(5), .double(2.5), .float(1.5), .string("x"), .bool(true), .list([.int(1), .int(2)]), .null])
        let d = Date(timeIntervalSince1970: 1_700_000_000.123456)
        XCTAssertEqual(try QueryArguments.convert(d), .date(QueryTimestamp(storing: d)))
        XCTAssertThrowsError(try QueryArguments.convert(UInt64.max))
        let qs = QuerySchema(execSchema)
        XCTAssertEqual(qs.classNamed("Person")?.property(named: "friends")?.type, .list(.link("Person")))
        XCTAssertEqual(qs.classNamed("Person")?.property(named: "counts")?.type, .map(.int))
        XCTAssertEqual(qs.classNamed("Person")?.property(named: "dogs")?.type, .linkingObjects(originClass: "Dog", property: "owner"))
        XCTAssertEqual(qs.classNamed("Person")?.property(named: "extra")?.type, .any)
        XCTAssertEqual(QueryTimestamp(nanosecondsSince1970: -1), QueryTimestamp(seconds: -1, nanoseconds: 999_999_999))
        XCTAssertEqual(QueryTimestamp(nanosecondsSince1970: -1).nanosecondsSince1970, -1)
    }

    func testCaseInsensitiveFastPathAgreesOnUnicodeFolding() throws {
        let dir = ExecTempDir()
        let db = try Database(path: dir.path("c.strata"), schema: execSchema)
        defer { db.close() }
        let names = ["KELVIN", "\u{212A}elvin", "\u{17F}am", "SAM", "STRASSE", "Straße", "strasse", "", "İstanbul", "istanbul"]
        let w = try db.write()
        for (i, n) in names.enumerated() { try w.create("Person", values: ["id": .int(Int64(i)), "name": .string(n)]) }
        try w.create("Person", values: ["id": .int(99)])
        try w.commit()
        let r = try db.read()
        defer { r.end() }
        XCTAssertEqual(try assertAgrees(r, "Person", "name BEGINSWITH[c] 'k'"), [0, 1])
        XCTAssertEqual(try assertAgrees(r, "Person", "name ==[c] 'sam'"), [2, 3])
        XCTAssertEqual(try assertAgrees(r, "Person", "name ==[c] 'straße'"), [4, 5, 6])
        XCTAssertEqual(try assertAgrees(r, "Person", "name !=[c] 'STRASSE'").count, names.count + 1 - 3)
        try assertAgrees(r, "Person", "name CONTAINS[c] 'ss'")
        try assertAgrees(r, "Person", "name ENDSWITH[c] 'BUL'")
        try assertAgrees(r, "Person", "name BEGINSWITH[c] ''")
        try assertAgrees(r, "Person", "name BEGINSWITH[c] 'i'")
    }

    func testDateArgumentMatchesStoredDate() throws {
        let dir = ExecTempDir()
        let db = try Database(path: dir.path("d.strata"), schema: execSchema)
        defer { db.close() }
        let when = Date(timeIntervalSince1970: 1_712_345_678.987654321)
        let w = try db.write()
        try w.create("Person", values: ["id": .int(1), "born": .date(when)])
        try w.create("Person", values: ["id": .int(2), "born": .date(when.addingTimeInterval(1))])
        try w.commit()
        let r = try db.read()
        defer { r.end() }
        XCTAssertEqual(try r.objects("Person", where: "born == $0", when), [1])
        XCTAssertEqual(try r.objects("Person", where: "born > $0", when), [2])
        XCTAssertEqual(try r.objects("Person", where: "born IN {$0}", when), [1])
    }
}
