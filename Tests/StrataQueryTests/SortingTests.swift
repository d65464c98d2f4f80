import Foundation
import XCTest
@testable import StrataQuery

final class SortingTests: XCTestCase {
    func run(_ q: String, _ world: World, _ cls: String = "Person") throws -> [Int] {
        let store = world.store()
        return QueryEvaluator(store).run(try RQL.compile(q, schema: testSchema, className: cls), over: store.all(cls)).map(\.index)
    }

    /// nil first, then by code point.
    func nameLess(_ a: String?, _ b: String?) -> Bool? {
        switch (a, b) {
        case (nil, nil): return nil
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?):
            let xs = x.unicodeScalars.map(\.value), ys = y.unicodeScalars.map(\.value)
            return xs == ys ? nil : xs.lexicographicallyPrecedes(ys)
        }
    }

    func testMultiKeySortAgainstSwiftSort() throws {
        for seed in 1...5 as ClosedRange<UInt64> {
            let w = World.generate(seed: seed, people: 80)
            let got = try run("TRUEPREDICATE SORT(name ASC, age DESC)", w)
            let expected = w.people.indices.sorted { i, j in
                if let l = nameLess(w.people[i].name, w.people[j].name) { return l }
                if w.people[i].age != w.people[j].age { return w.people[i].age > w.people[j].age }
                return i < j
            }
            XCTAssertEqual(got, expected)
            let desc = try run("age > 10 SORT(name DESCENDING)", w)
            let expectedDesc = w.people.indices.filter { w.people[$0].age > 10 }.sorted { i, j in
                if let l = nameLess(w.people[j].name, w.people[i].name) { return l }
                return i < j
            }
            XCTAssertEqual(desc, expectedDesc, "nulls last when descending, stable")
        }
    }

    func testSortThroughLinkAndDates() throws {
        let w = World.generate(seed: 8, people: 50)
        let got = try run("TRUEPREDICATE SORT(bestFriend.age ASC, born ASC)", w)
        let expected = w.people.indices.sorted { i, j in
            let a = w.people[i].bestFriend.map { w.people[$0].age }, b = w.people[j].bestFriend.map { w.people[$0].age }
            if a != b {
                guard let a else { return true }
                guard let b else { return false }
                return a < b
            }
            if w.people[i].born != w.people[j].born { return w.people[i].born < w.people[j].born }
            return i < j
        }
        XCTAssertEqual(got, expected)
    }

    func testDistinctAndLimitInOrder() throws {
        let w = World.generate(seed: 3, people: 80)
        let ages = w.people.map(\.age)
        var seen = Set<Int>()
        let firstOfEachAge = w.people.indices.filter { seen.insert(ages[$0]).inserted }
        XCTAssertEqual(try run("TRUEPREDICATE DISTINCT(age)", w), firstOfEachAge)
        XCTAssertEqual(try run("TRUEPREDICATE DISTINCT(age) LIMIT(4)", w), Array(firstOfEachAge.prefix(4)))
        let sortedDistinct = try run("TRUEPREDICATE SORT(age ASC) DISTINCT(age)", w)
        XCTAssertEqual(sortedDistinct.map { ages[$0] }, Array(Set(ages)).sorted())
        // LIMIT before SORT sorts only the first n.
        let limitedThenSorted = try run("TRUEPREDICATE LIMIT(5) SORT(age ASC)", w)
        XCTAssertEqual(Set(limitedThenSorted), Set(0..<5))
        XCTAssertEqual(limitedThenSorted.map { ages[$0] }, (0..<5).map { ages[$0] }.sorted())
        XCTAssertEqual(try run("TRUEPREDICATE LIMIT(0)", w), [])
        var pairs = Set<[Int]>()
        let multi = w.people.indices.filter { pairs.insert([ages[$0], w.people[$0].active ? 1 : 0]).inserted }
        XCTAssertEqual(try run("TRUEPREDICATE DISTINCT(age, active)", w), multi)
    }

    func testMixedValuesSortByTypeThenValue() {
        let values: [QueryValue] = [.string("b"), .int(3), .null, .double(2.5), .bool(true), .string("a"), .decimal(1),
                                    .date(QueryTimestamp(seconds: 0)), .double(.nan), .data([1])]
        let sorted = values.sorted { sortCompare($0, $1) == .less }
        XCTAssertEqual(sorted.map(\.literal), ["nil", "true", "nan", "decimal128(1)", "2.5", "3", "\"a\"", "\"b\"", "B64\"AQ==\"", "1970-01-01@00:00:00"])
        XCTAssertEqual(DistinctKey(.int(1)), DistinctKey(.double(1)))
        XCTAssertEqual(DistinctKey(.decimal(1)), DistinctKey(.float(1)))
        XCTAssertNotEqual(DistinctKey(.string("é")), DistinctKey(.string("e\u{301}")))
    }
}
