import Foundation
import XCTest
import Strata

enum TQKind: Int, PersistableEnum { case small, medium, large }
enum TQMood: String, PersistableEnum { case happy, sad, calm }

final class TQDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var weight: Double?
}

final class TQOwner: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var kind: TQKind
    @Persisted var mood: TQMood?
    @Persisted var kinds: List<TQKind>
    @Persisted var moods: MutableSet<TQMood>
    @Persisted var moodByDay: Map<String, TQMood>
    @Persisted var scores: Map<String, Int>
    @Persisted var maybeScores: Map<String, Int?>
    @Persisted var labels: Map<String, String>
    @Persisted var dogsByName: Map<String, TQDog?>
    @Persisted var dogs: List<TQDog>
    @Persisted var counts: List<Int>
    @Persisted var ratings: MutableSet<Double>
}

/// RealmSwift's typed queries on enums, maps and collection aggregates, checked against the
/// objects each should select.
final class TypedQueryEnumMapAggregateCompatTests: XCTestCase {
    private var dir: CompatDir!
    private var realm: Realm!
    private var owners: Results<TQOwner>!

    override func setUpWithError() throws {
        dir = CompatDir()
        realm = try Realm(configuration: dir.config(types: [TQOwner.self, TQDog.self]))
        try realm.write {
            func owner(_ name: String, _ kind: TQKind, _ mood: TQMood?, kinds: [TQKind], moods: [TQMood],
                       byDay: [String: TQMood], scores: [String: Int], maybe: [String: Int?], labels: [String: String],
                       dogs: [(String, Int, Double?)], counts: [Int], ratings: [Double]) {
                let o = TQOwner()
                o.name = name
                o.kind = kind
                o.mood = mood
                o.kinds.append(objectsIn: kinds)
                o.moods.insert(objectsIn: moods)
                for (k, v) in byDay { o.moodByDay[k] = v }
                for (k, v) in scores { o.scores[k] = v }
                for (k, v) in maybe { o.maybeScores[k] = v }
                for (k, v) in labels { o.labels[k] = v }
                for (n, a, w) in dogs {
                    let d = TQDog()
                    d.name = n
                    d.age = a
                    d.weight = w
                    o.dogs.append(d)
                    o.dogsByName[n] = d
                }
                o.counts.append(objectsIn: counts)
                o.ratings.insert(objectsIn: ratings)
                realm.add(o)
            }
            owner("ann", .small, .happy, kinds: [.small, .large], moods: [.happy], byDay: ["mon": .happy, "tue": .sad],
                  scores: ["a": 5, "b": 1], maybe: ["a": nil, "b": 2], labels: ["x": "apple"],
                  dogs: [("rex", 2, 10), ("fido", 6, nil)], counts: [1, 2, 3], ratings: [4.5])
            owner("bob", .large, nil, kinds: [.medium], moods: [.sad, .calm], byDay: ["mon": .calm],
                  scores: ["a": 2], maybe: ["a": 7], labels: ["y": "banana", "it's \"q\"": "quoted"],
                  dogs: [("max", 9, 30)], counts: [10], ratings: [1, 2])
            owner("cat", .medium, .sad, kinds: [], moods: [], byDay: [:],
                  scores: [:], maybe: [:], labels: [:],
                  dogs: [], counts: [], ratings: [])
        }
        owners = realm.objects(TQOwner.self)
    }

    override func tearDown() {
        owners = nil
        realm = nil
        dir = nil
    }

    private func names(_ q: (Query<TQOwner>) -> Query<Bool>, file: StaticString = #filePath, line: UInt = #line) -> Set<String> {
        Set(owners.where(q).map(\.name))
    }

    func testEnumProperties() {
        XCTAssertEqual(names { $0.kind == .large }, ["bob"])
        XCTAssertEqual(names { $0.kind != .large }, ["ann", "cat"])
        XCTAssertEqual(names { $0.kind > .small }, ["bob", "cat"], "Int enums compare by raw value")
        XCTAssertEqual(names { $0.kind <= .medium }, ["ann", "cat"])
        XCTAssertEqual(names { $0.kind.in([.small, .medium]) }, ["ann", "cat"])
        XCTAssertEqual(names { $0.kind.rawValue >= 1 }, ["bob", "cat"])
        XCTAssertEqual(names { $0.kind == .large || $0.mood == .happy }, ["ann", "bob"])
    }

    func testOptionalEnumProperties() {
        XCTAssertEqual(names { $0.mood == .sad }, ["cat"])
        XCTAssertEqual(names { $0.mood == nil }, ["bob"])
        XCTAssertEqual(names { $0.mood != nil }, ["ann", "cat"])
        XCTAssertEqual(names { $0.mood != .happy }, ["bob", "cat"], "nil is not .happy")
        XCTAssertEqual(names { $0.mood.in([.happy, nil]) }, ["ann", "bob"])
        XCTAssertEqual(names { $0.mood.rawValue.starts(with: "s") }, ["cat"])
        XCTAssertEqual(names { $0.mood.rawValue == nil }, ["bob"])
    }

    func testEnumsInCollections() {
        XCTAssertEqual(names { $0.kinds.contains(.large) }, ["ann"])
        XCTAssertEqual(names { $0.kinds == .medium }, ["bob"], "any element")
        XCTAssertEqual(names { $0.kinds != .small }, ["ann", "bob"], "any element other than .small")
        XCTAssertEqual(names { $0.kinds > .small }, ["ann", "bob"])
        XCTAssertEqual(names { $0.kinds.containsAny(in: [.medium, .large]) }, ["ann", "bob"])
        XCTAssertEqual(names { !$0.kinds.contains(.small) }, ["bob", "cat"])
        XCTAssertEqual(names { $0.kinds.count == 0 }, ["cat"])
        XCTAssertEqual(names { $0.moods.contains(.calm) }, ["bob"])
        XCTAssertEqual(names { $0.moods.rawValue.contains("calm") }, ["bob"], "raw values")
        XCTAssertEqual(names { $0.moodByDay["mon"] == .happy }, ["ann"])
        XCTAssertEqual(names { $0.moodByDay.contains(.sad) }, ["ann"])
        XCTAssertEqual(names { $0.moodByDay.values == .calm }, ["bob"])
    }

    func testMapSubscriptsKeysAndValues() {
        XCTAssertEqual(names { $0.scores["a"] > 3 }, ["ann"])
        XCTAssertEqual(names { $0.scores["a"] == 2 }, ["bob"])
        XCTAssertEqual(names { $0.scores["b"] <= 1 }, ["ann"], "a missing key matches nothing")
        XCTAssertEqual(names { $0.scores.keys == "b" }, ["ann"])
        XCTAssertEqual(names { $0.scores.keys.in(["a", "z"]) }, ["ann", "bob"])
        XCTAssertEqual(names { $0.labels.keys.contains("y") }, ["bob"], "keys.contains is substring search, as in RealmSwift")
        XCTAssertEqual(names { $0.scores.values > 4 }, ["ann"])
        XCTAssertEqual(names { $0.scores.values.contains(2...3) }, ["bob"])
        XCTAssertEqual(names { $0.scores.contains(1) }, ["ann"])
        XCTAssertEqual(names { $0.scores.containsAny(in: [2, 9]) }, ["bob"])
        XCTAssertEqual(names { $0.scores.contains(1...5) }, ["ann", "bob"], "every value in range")
        XCTAssertEqual(names { $0.scores.count == 0 }, ["cat"])
        XCTAssertEqual(names { $0.scores.sum == 6 }, ["ann"])
        XCTAssertEqual(names { $0.scores.max >= 5 }, ["ann"])
        XCTAssertEqual(names { $0.labels["x"].starts(with: "ap") }, ["ann"])
        XCTAssertEqual(names { $0.labels.values.contains("nan") }, ["bob"])
        XCTAssertEqual(names { $0.labels["it's \"q\""] == "quoted" }, ["bob"], "keys with quotes")
        XCTAssertEqual(names { $0.maybeScores["a"] == nil }, ["ann", "cat"], "a missing key reads as nil")
        XCTAssertEqual(names { $0.maybeScores["a"] != nil }, ["bob"])
        XCTAssertEqual(names { $0.maybeScores.values == nil }, ["ann"])
        XCTAssertEqual(names { $0.dogsByName["rex"].age == 2 }, ["ann"], "through a map of objects")
    }

    func testCollectionAggregates() {
        XCTAssertEqual(names { $0.dogs.age.avg > 3 }, ["ann", "bob"])
        XCTAssertEqual(names { $0.dogs.age.avg == 4 }, ["ann"])
        XCTAssertEqual(names { $0.dogs.age.sum == 8 }, ["ann"])
        XCTAssertEqual(names { $0.dogs.age.min < 5 }, ["ann"])
        XCTAssertEqual(names { $0.dogs.age.max == 9 }, ["bob"])
        XCTAssertEqual(names { $0.dogs.weight.max == 10 }, ["ann"], "nil weights are skipped")
        XCTAssertEqual(names { $0.dogs.weight.avg == nil }, ["cat"], "average of nothing is nil")
        XCTAssertEqual(names { $0.dogs.age.sum == 0 }, ["cat"], "sum of nothing is 0")
        XCTAssertEqual(names { $0.counts.avg == 2 }, ["ann"])
        XCTAssertEqual(names { $0.counts.sum > 6 }, ["bob"])
        XCTAssertEqual(names { $0.counts.min == 1 }, ["ann"])
        XCTAssertEqual(names { $0.counts.max < 5 }, ["ann"], "no max for an empty list")
        XCTAssertEqual(names { $0.counts > 5 }, ["bob"], "any element")
        XCTAssertEqual(names { $0.counts.contains(1...3) }, ["ann"], "every element in range")
        XCTAssertEqual(names { $0.ratings.avg == 1.5 }, ["bob"])
        XCTAssertEqual(names { $0.dogs.count == 2 }, ["ann"])
        XCTAssertEqual(names { ($0.dogs.age > 1).count == 2 }, ["ann"], "SUBQUERY")
        XCTAssertEqual(names { ($0.dogs.age > 1 && $0.dogs.name.starts(with: "f")).count == 1 }, ["ann"])
        XCTAssertEqual(owners.where { $0.dogs.age.avg > 3 }.count, owners.filter("dogs.@avg.age > 3").count)
    }
}
