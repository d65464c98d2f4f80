import Foundation
import XCTest
import Strata

/// A model with collections of values, declared as RealmSwift's documentation shows them.
final class PScoreDog: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var scores: List<Int>
    @Persisted var tags: List<String>
    @Persisted var labels: MutableSet<String>
    @Persisted var visits: MutableSet<Date>
    @Persisted var maybe: List<Int?>
}

/// Issue 15: `Results` of primitive values (`Results<Int>`, `Results<String>`, `Results<Date>`)
/// from `filter` with `self`, `sorted(ascending:)`, `sorted()` and `distinct()` on lists and
/// sets of values, used as RealmSwift's documentation shows: live, aggregatable, observable.
final class PrimitiveResultsCompatTests: XCTestCase {
    var dir: CompatDir!
    var realm: Realm!
    var dog: PScoreDog!

    override func setUpWithError() throws {
        dir = CompatDir()
        realm = try Realm(configuration: dir.config(types: [PScoreDog.self]))
        dog = PScoreDog()
        dog.name = "Rex"
        dog.scores.append(objectsIn: [5, 1, 4, 2, 3])
        dog.tags.append(objectsIn: ["beta", "Zeta", "alpha", "Émile"])
        dog.labels.insert("apple"); dog.labels.insert("Banana"); dog.labels.insert("avocado")
        for d in [3000.0, 1000.0, 2000.0] { dog.visits.insert(Date(timeIntervalSince1970: d)) }
        dog.maybe.append(objectsIn: [3, nil, 1])
        try realm.write { realm.add(dog) }
    }

    override func tearDown() { dog = nil; realm = nil; dir = nil }

    func testFilterListOfIntBySelf() throws {
        let big: Results<Int> = dog.scores.filter("self > 2")
        XCTAssertEqual(Array(big), [5, 4, 3])
        XCTAssertEqual(big.count, 3)
        XCTAssertEqual(big.first, 5)
        XCTAssertEqual(big.last, 3)
        XCTAssertEqual(big[1], 4)
        XCTAssertEqual(big.index(of: 3), 2)
        XCTAssertNil(big.index(of: 1))
        XCTAssertEqual(Array(dog.scores.filter("self >= %@", 4)), [5, 4])
        XCTAssertEqual(Array(dog.scores.filter("self BETWEEN {$0, $1}", 2, 4)), [4, 2, 3])
        XCTAssertEqual(Array(dog.scores.filter("self IN {1, 5}")), [5, 1])
        // Filtering results of values again.
        XCTAssertEqual(Array(big.filter("self < 5")), [4, 3])
        XCTAssertEqual(big.description, "Results<Int>[filter(self > 2)]")
    }

    func testFilterMutableSetOfStringBySelf() throws {
        let a: Results<String> = dog.labels.filter("self BEGINSWITH 'a'")
        XCTAssertEqual(Set(a), ["apple", "avocado"])
        XCTAssertEqual(Set(dog.labels.filter("self BEGINSWITH[c] $0", "b")), ["Banana"])
        XCTAssertEqual(Set(dog.labels.filter("self CONTAINS 'o'")), ["avocado"])
        XCTAssertEqual(Array(dog.tags.filter("self LIKE '*eta'")), ["beta", "Zeta"])
    }

    func testSortedAscendingAndDescending() throws {
        let down: Results<Int> = dog.scores.sorted(ascending: false)
        XCTAssertEqual(Array(down), [5, 4, 3, 2, 1])
        let up: Results<Int> = dog.scores.sorted()
        XCTAssertEqual(Array(up), [1, 2, 3, 4, 5])
        // Strings by code point, as query results sort.
        let names: Results<String> = dog.tags.sorted()
        XCTAssertEqual(Array(names), ["Zeta", "alpha", "beta", "Émile"])
        XCTAssertEqual(Array(dog.tags.sorted(ascending: false)), ["Émile", "beta", "alpha", "Zeta"])
        let visits: Results<Date> = dog.visits.sorted()
        XCTAssertEqual(visits.map(\.timeIntervalSince1970), [1000, 2000, 3000])
        XCTAssertEqual(dog.visits.sorted(ascending: false).first, Date(timeIntervalSince1970: 3000))
        // Filter then sort, and sort results of values.
        XCTAssertEqual(Array(dog.scores.filter("self > 1").sorted()), [2, 3, 4, 5])
        XCTAssertEqual(Array(dog.labels.filter("self != 'Banana'").sorted(ascending: false)), ["avocado", "apple"])
    }

    func testOptionalValuesAndTypeWithoutContext() throws {
        XCTAssertEqual(Array(dog.maybe.filter("self == nil")), [nil])
        XCTAssertEqual(Array(dog.maybe.filter("self != nil")), [3, 1])
        XCTAssertEqual(Array(dog.maybe.sorted()), [nil, 1, 3])
        XCTAssertEqual(Array(dog.maybe.sorted(ascending: false)), [3, 1, nil])
        // As in RealmSwift, sorted() on a list of values is live Results, not an array.
        let s = dog.scores.sorted()
        XCTAssertTrue(type(of: s) == Results<Int>.self)
        let plain: [Int] = dog.scores.sorted()   // Swift's own sorted() where an array is wanted
        XCTAssertEqual(plain, [1, 2, 3, 4, 5])
    }

    func testDistinct() throws {
        try realm.write { dog.scores.append(objectsIn: [3, 5, 0, 1]) }
        XCTAssertEqual(Array(dog.scores.distinct()), [5, 1, 4, 2, 3, 0])
        XCTAssertEqual(Array(dog.scores.filter("self > 2").distinct()), [5, 4, 3])
        XCTAssertEqual(Array(dog.scores.distinct().sorted(ascending: false)), [5, 4, 3, 2, 1, 0])
    }

    func testAggregates() throws {
        let big = dog.scores.filter("self > 2")
        XCTAssertEqual(big.min(), 3)
        XCTAssertEqual(big.max(), 5)
        XCTAssertEqual(big.sum(), 12)
        let avg: Double? = big.average()
        XCTAssertEqual(avg, 4)
        let none = dog.scores.filter("self > 100")
        XCTAssertTrue(none.isEmpty)
        XCTAssertNil(none.first)
        XCTAssertNil(none.min())
        XCTAssertEqual(none.sum(), 0)
        let noAverage: Double? = none.average()
        XCTAssertNil(noAverage)
        XCTAssertEqual(dog.visits.filter("self > $0", Date(timeIntervalSince1970: 1500)).min(), Date(timeIntervalSince1970: 2000))
    }

    func testResultsAreLiveAfterWrites() throws {
        let big = dog.scores.filter("self > 2")
        let sorted = dog.scores.sorted()
        XCTAssertEqual(big.count, 3)
        try realm.write {
            dog.scores.append(10)
            dog.scores.remove(at: 0)   // the 5
        }
        XCTAssertEqual(Array(big), [4, 3, 10])
        XCTAssertEqual(Array(sorted), [1, 2, 3, 4, 10])
        XCTAssertEqual(big.sum(), 17)
        // Another realm's commit shows after refresh.
        let config = realm.configuration
        let done = expectation(description: "written elsewhere")
        Thread.detachNewThread {
            defer { done.fulfill() }
            do {
                let other = try Realm(configuration: config)
                let d = other.object(ofType: PScoreDog.self, forPrimaryKey: "Rex")!
                try other.write { d.scores.append(7) }
            } catch { XCTFail("\(error)") }
        }
        wait(for: [done], timeout: 30)
        realm.refresh()
        XCTAssertEqual(Array(big), [4, 3, 10, 7])
        XCTAssertEqual(Array(sorted), [1, 2, 3, 4, 7, 10])
    }

    func testObserveReportsIndexSets() throws {
        let sorted = dog.scores.filter("self > 1").sorted(ascending: false)   // [5, 4, 3, 2]
        var initial: [Int]?
        var updates: [(deletions: [Int], insertions: [Int], modifications: [Int], now: [Int])] = []
        let token = sorted.observe { change in
            switch change {
            case .initial(let results): initial = Array(results)
            case .update(let results, let deletions, let insertions, let modifications):
                updates.append((deletions, insertions, modifications, Array(results)))
            case .error(let e): XCTFail("\(e)")
            }
        }
        XCTAssertTrue(waitFor { initial == [5, 4, 3, 2] }, "\(String(describing: initial))")
        try realm.write { dog.scores.append(objectsIn: [6, 0]) }   // 0 is filtered out
        XCTAssertTrue(waitFor { updates.count == 1 })
        XCTAssertEqual(updates.first?.insertions, [0])
        XCTAssertEqual(updates.first?.deletions, [])
        XCTAssertEqual(updates.first?.now, [6, 5, 4, 3, 2])
        try realm.write { dog.scores.remove(at: 2) }   // the 4
        XCTAssertTrue(waitFor { updates.count == 2 })
        XCTAssertEqual(updates.last?.deletions, [2])
        XCTAssertEqual(updates.last?.insertions, [])
        XCTAssertEqual(updates.last?.now, [6, 5, 3, 2])
        // A commit that leaves the results as they were reports nothing.
        try realm.write { dog.scores.append(1) }
        try realm.write { dog.tags.append("gamma") }
        XCTAssertFalse(waitFor(0.3) { updates.count > 2 }, "\(updates)")
        token.invalidate()
    }

    func testInvalidPredicateIsAnError() throws {
        XCTAssertThrowsError(try dog.scores.filter(checked: "age > 2")) { error in
            XCTAssertTrue("\(error)".contains("age"), "\(error)")
        }
        XCTAssertThrowsError(try dog.scores.filter(checked: "self > 'text'")) { error in
            XCTAssertTrue(error is QueryError, "\(error)")
        }
        XCTAssertThrowsError(try dog.labels.filter(checked: "self >")) { error in
            XCTAssertTrue(error is QueryError, "\(error)")
        }
        XCTAssertEqual(Array(try dog.scores.filter(checked: "self == $0", 4)), [4])
    }

    func testGenericCodeFreezeAndHandover() throws {
        func total<C: RealmCollection>(_ c: C) -> Int where C.Element == Int { c.reduce(0, +) }
        let big = dog.scores.filter("self > 2")
        XCTAssertEqual(total(big), 12)
        let any = AnyRealmCollection(big)
        XCTAssertEqual(any.count, 3)
        XCTAssertEqual(Array(any.filter("self != 4")), [5, 3])
        XCTAssertEqual(total(any), 12)

        let frozen = big.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { dog.scores.append(9) }
        XCTAssertEqual(Array(frozen), [5, 4, 3])
        XCTAssertEqual(Array(big), [5, 4, 3, 9])
        XCTAssertEqual(frozen.thaw().map(Array.init), [5, 4, 3, 9])

        let config = realm.configuration
        let refs = UncheckedBox((ThreadSafeReference(to: big), ThreadSafeReference(to: AnyRealmCollection(dog.labels.sorted()))))
        let done = expectation(description: "resolved on another thread")
        Thread.detachNewThread {
            defer { done.fulfill() }
            do {
                let r = try Realm(configuration: config)
                let (b, l) = refs.value
                XCTAssertEqual(r.resolve(b).map(Array.init), [5, 4, 3, 9])
                XCTAssertEqual(r.resolve(l).map(Array.init), ["Banana", "apple", "avocado"])
            } catch { XCTFail("\(error)") }
        }
        wait(for: [done], timeout: 30)

        try realm.write { realm.delete(dog) }
        XCTAssertTrue(big.isInvalidated)
        XCTAssertNil(big.thaw())
    }

    func testObjectResultsAreUnchanged() throws {
        // Results of objects keep their own filter and sorting by key path.
        let dogs = realm.objects(PScoreDog.self).filter("ANY scores > 4").sorted(byKeyPath: "name")
        XCTAssertEqual(dogs.map(\.name), ["Rex"])
        XCTAssertEqual(dogs.className, "PScoreDog")
        XCTAssertEqual(dogs.first?.scores.count, 5)
    }
}
