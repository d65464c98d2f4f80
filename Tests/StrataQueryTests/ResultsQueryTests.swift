// Tests of Results.filter / where / sorted / distinct over the typed API (branch helper-api).
// INTEGRATION: compiled out until helper-api is merged; then delete the `#if` line below and
// the `#endif` at the end (together with those of Sources/StrataQuery/Results/Results+Query.swift).
import XCTest
import Foundation
import Strata

final class QPerson: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted(indexed: true) var name: String
    @Persisted var age: Int
    @Persisted var nickname: String?
    @Persisted var active: Bool
    @Persisted var score: Double
    @Persisted var best: QPerson?
    @Persisted var tags: List<String>
}

final class ResultsQueryTests: XCTestCase {
    private var dir: URL!

    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-rq-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private func realmWithPeople(_ n: Int = 300) throws -> (Realm, [QPerson]) {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: dir.appendingPathComponent("r.strata"), objectTypes: [QPerson.self]))
        var rng = SeededRNG(seed: 21)
        var made: [QPerson] = []
        try realm.write {
            for i in 0..<n {
                let p = QPerson()
                p.id = i * 3
                p.name = ["Ann", "Bob", "bea", "Carl", "Béla", "Dora"].randomElement(using: &rng)! + "\(i % 7)"
                p.age = Int.random(in: 0..<100, using: &rng)
                p.nickname = Bool.random(using: &rng) ? nil : "n\(i % 5)"
                p.active = Bool.random(using: &rng)
                p.score = Double(Int.random(in: 0...1000, using: &rng)) / 10
                p.tags.append(objectsIn: (0..<Int.random(in: 0...2, using: &rng)).map { _ in ["x", "y"].randomElement(using: &rng)! })
                realm.add(p)
                made.append(p)
            }
            for (i, p) in made.enumerated() where i % 3 == 0 { p.best = made[(i * 7) % made.count] }
        }
        return (realm, made)
    }

    func testFilterWhereSortedDistinct() throws {
        let (realm, _) = try realmWithPeople()
        let all = realm.objects(QPerson.self)
        let snapshot = all.map { (id: $0.id, name: $0.name, age: $0.age, nick: $0.nickname, active: $0.active, score: $0.score, bestAge: $0.best?.age) }

        let r1 = all.filter("age BETWEEN {20, 40} AND name BEGINSWITH $0", "B")
        XCTAssertEqual(r1.map(\.id), snapshot.filter { $0.age >= 20 && $0.age <= 40 && $0.name.hasPrefix("B") }.map(\.id))
        XCTAssertEqual(r1.count, r1.map(\.id).count)

        let typed = all.where { $0.age > 30 && $0.name.starts(with: "b", options: .caseInsensitive) || $0.nickname == nil }
        XCTAssertEqual(typed.map(\.id), snapshot.filter { ($0.age > 30 && $0.name.lowercased().hasPrefix("b")) || $0.nick == nil }.map(\.id))

        let links = all.where { $0.best.age >= 50 }
        XCTAssertEqual(links.map(\.id), snapshot.filter { ($0.bestAge ?? -1) >= 50 }.map(\.id))

        let between = all.where { $0.age.contains(10...20) && !$0.active }
        XCTAssertEqual(between.map(\.id), snapshot.filter { (10...20).contains($0.age) && !$0.active }.map(\.id))
        let inList = all.where { $0.age.in([1, 2, 3, 50]) }
        XCTAssertEqual(inList.map(\.id), snapshot.filter { [1, 2, 3, 50].contains($0.age) }.map(\.id))
        XCTAssertEqual(all.where { $0.tags.count > 1 }.count, all.filter { $0.tags.count > 1 }.count)
        XCTAssertEqual(all.where { $0.active }.count, snapshot.filter(\.active).count)

        let sorted = all.filter("active == true").sorted(byKeyPath: "age", ascending: false)
        let expected = snapshot.filter(\.active).enumerated().sorted { a, b in
            a.element.age != b.element.age ? a.element.age > b.element.age : a.offset < b.offset
        }.map(\.element.id)
        XCTAssertEqual(sorted.map(\.id), expected)
        // Chained filter keeps the sorted order.
        XCTAssertEqual(sorted.filter("score > 50").map(\.id), expected.filter { id in snapshot.first { $0.id == id }!.score > 50 })
        XCTAssertEqual(all.sorted(by: \QPerson.score).map(\.score), snapshot.map(\.score).sorted())
        XCTAssertEqual(all.sorted(by: [SortDescriptor(keyPath: "nickname"), SortDescriptor(keyPath: "id", ascending: false)]).first?.nickname, nil)
        XCTAssertEqual(all.distinct(by: ["nickname"]).count, Set(snapshot.map(\.nick)).count)
        XCTAssertEqual(all.filter("TRUEPREDICATE SORT(age ASC) LIMIT(5)").map(\.age), Array(snapshot.map(\.age).sorted().prefix(5)))
        XCTAssertEqual(try all.filter("age < 50").aggregate(.sum, ofProperty: "age"), .int(Int64(snapshot.filter { $0.age < 50 }.reduce(0) { $0 + $1.age })))
    }

    func testLiveAndErrors() throws {
        let (realm, made) = try realmWithPeople(50)
        let young = realm.objects(QPerson.self).filter("age < 10")
        XCTAssertEqual(young.count, made.filter { $0.age < 10 }.count)
        try realm.write { made[0].age = 5; made[1].age = 6; made[2].age = 70 }
        XCTAssertEqual(young.count, made.filter { $0.age < 10 }.count)
        XCTAssertTrue(young.contains { $0.id == made[0].id })
        XCTAssertFalse(young.contains { $0.id == made[2].id })
        XCTAssertThrowsError(try realm.objects(QPerson.self).filter(checked: "age >")) { e in
            XCTAssertEqual((e as? QueryError)?.kind, .syntax)
        }
        XCTAssertThrowsError(try realm.objects(QPerson.self).filter(checked: "agee > 3")) { e in
            XCTAssertTrue("\(e)".contains("age"))
        }
        XCTAssertEqual(try realm.objects(QPerson.self).filter(checked: "best == $0", made[3]).map(\.id),
                       made.filter { $0.best?.id == made[3].id }.map(\.id))
    }
}
