import Foundation
import XCTest
@testable import StrataQuery
@testable import StrataObjects
import StrataStorage

/// Key paths through to-many links: the work is bounded by hops × objects (not by the product
/// of the lists' sizes), results agree with a plain-Swift walk of the graph, and a query can be
/// cancelled through a `QueryCancellation`.
final class KeyPathFanOutTests: XCTestCase {
    /// `n` people, each with `fanOut` friends chosen with a seeded generator (shared targets,
    /// cycles), names "p<i>", ages i % 50; returns the friends lists by key.
    private func makeGraph(_ db: Database, n: Int, fanOut: Int, seed: UInt64) throws -> [ObjKey: [ObjKey]] {
        var rng = SplitMix64(seed: seed)
        let w = try db.write()
        for i in 0..<n {
            try w.create("Person", values: ["id": .int(Int64(i)), "name": .string("p\(i)"), "age": .int(Int64(i % 50)), "tag": .string("t")])
        }
        var friends: [ObjKey: [ObjKey]] = [:]
        for i in 0..<n {
            let fs = (0..<fanOut).map { _ in ObjKey(rng.next() % UInt64(n)) }
            friends[ObjKey(i)] = fs
            try w.setList("Person", ObjKey(i), "friends", fs.map { .object(ObjectLink(className: "Person", key: $0)) })
        }
        try w.commit()
        return friends
    }

    /// Objects reachable in exactly `hops` steps from `root` (plain breadth-first walk).
    private func reach(_ friends: [ObjKey: [ObjKey]], from root: ObjKey, hops: Int) -> Set<ObjKey> {
        var current: Set<ObjKey> = [root]
        for _ in 0..<hops { current = Set(current.flatMap { friends[$0] ?? [] }) }
        return current
    }

    func testToManyKeyPathWorkIsBoundedByHopsTimesObjects() throws {
        let seed: UInt64 = 1814
        let dir = ExecTempDir()
        let db = try Database(path: dir.path("fan.strata"), schema: execSchema)
        let n = 60, fanOut = 8, hops = 4
        let friends = try makeGraph(db, n: n, fanOut: fanOut, seed: seed)
        let r = try db.read()
        defer { r.end() }
        let path = Array(repeating: "friends", count: hops).joined(separator: ".")
        for (query, test) in [("\(path).age == 7", { (k: ObjKey) in k % 50 == 7 }),
                              ("\(path).name == 'nobody'", { (_: ObjKey) in false }),
                              ("\(path).age < 3", { (k: ObjKey) in k % 50 < 3 })] {
            // ANY, NONE and ALL against the plain walk.
            for (quantifier, holds) in [("ANY ", { (s: Set<ObjKey>) in s.contains(where: test) }),
                                        ("NONE ", { (s: Set<ObjKey>) in !s.contains(where: test) }),
                                        ("ALL ", { (s: Set<ObjKey>) in s.allSatisfy(test) })] {
                let ex = QueryExecutor(r)
                let got = try ex.run(quantifier + query, className: "Person")
                let want = (0..<ObjKey(n)).filter { holds(reach(friends, from: $0, hops: hops)) }
                XCTAssertEqual(got, want, "seed \(seed): \(quantifier)\(query)")
                // Each hop reads each object at most once (plus the last class's scan, twice for ALL).
                XCTAssertLessThanOrEqual(ex.statistics.objectsVisited, (hops + 2) * n, "seed \(seed): \(quantifier)\(query) visited \(ex.statistics.objectsVisited)")
                XCTAssertGreaterThan(ex.statistics.objectsVisited, 0, "the counter counts")
            }
        }
        // The reference evaluator (the per-object path, used inside subqueries and by the
        // oracle) removes repeats per hop: each hop reads the links of at most every object once,
        // so at most hops × links are reached per object (1,920 here), where the plain product
        // is 8 + 64 + 512 + 4,096 = 4,680.
        let want = (0..<ObjKey(n)).filter { reach(friends, from: $0, hops: hops).contains { $0 % 50 == 7 } }
        let bound = try QueryExecutor(r).compile("\(path).age == 7", className: "Person")
        for k in 0..<ObjKey(n) {
            let access = DBObjectAccess(r)
            let evaluator = QueryEvaluator(access)
            XCTAssertEqual(evaluator.matches(ObjectLink(className: "Person", key: k), bound.predicate), want.contains(k), "seed \(seed): reference evaluator on \(k)")
            XCTAssertLessThanOrEqual(access.objectsReached, hops * n * fanOut, "seed \(seed): evaluator reached \(access.objectsReached) objects from \(k)")
        }
    }

    func testCancelledQueryThrowsCancelled() throws {
        let dir = ExecTempDir()
        let db = try Database(path: dir.path("cancel.strata"), schema: execSchema)
        _ = try makeGraph(db, n: 30, fanOut: 3, seed: 7)
        let r = try db.read()
        defer { r.end() }
        let token = QueryCancellation()
        let ex = QueryExecutor(r, cancellation: token)
        XCTAssertEqual(try ex.run("friends.friends.age == 3", className: "Person").isEmpty, false)
        token.cancel()
        XCTAssertThrowsError(try ex.run("friends.friends.age == 3", className: "Person")) {
            XCTAssertEqual(($0 as? QueryError)?.kind, .cancelled)
        }
        XCTAssertThrowsError(try ex.run("age > 3 OR SUBQUERY(friends, $f, $f.age == 1).@count > 1", className: "Person")) {
            XCTAssertEqual(($0 as? QueryError)?.kind, .cancelled)
        }
        // Cancelling from another thread stops a long evaluation part-way.
        let token2 = QueryCancellation()
        let ex2 = QueryExecutor(r, cancellation: token2)
        DispatchQueue.global().async { token2.cancel() }
        var threw = false
        let deadline = Date().addingTimeInterval(60)
        while !threw && Date() < deadline {
            do { _ = try ex2.run("SUBQUERY(friends.friends.friends, $f, $f.age == 1).@count > 1", className: "Person") }
            catch let e as QueryError where e.kind == .cancelled { threw = true }
        }
        XCTAssertTrue(threw, "a cancel from another thread is observed")
    }
}
