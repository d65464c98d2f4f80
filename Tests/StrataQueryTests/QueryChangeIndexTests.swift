import XCTest
import Foundation
import Strata

final class QCPerson: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var age: Int
    @Persisted var nickname: String?

    convenience init(id: Int, name: String, age: Int) { self.init(); self.id = id; self.name = name; self.age = age }
}

/// The change-index scenarios of StrataObjects' notification and Results tests (which run on a
/// stand-in filter/sort stage there), here through the real query layer: `filter` + `sorted`.
final class QueryChangeIndexTests: XCTestCase {
    private var dir: URL!
    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-qc-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    private func realm() throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: dir.appendingPathComponent("c.strata"), objectTypes: [QCPerson.self]))
    }

    /// Runs the main run loop until `condition` holds (generous deadline: bounds a failing run only).
    private func eventually(_ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(30)
        while !condition() && Date() < end { RunLoop.current.run(until: Date().addingTimeInterval(0.005)) }
        return condition()
    }

    func testChangeIndexesOnQueryFilteredSortedResults() throws {
        let realm = try realm()
        try realm.write {
            for (i, n) in ["d", "b", "f", "a"].enumerated() { realm.add(QCPerson(id: i, name: n, age: 20)) }
            realm.add(QCPerson(id: 10, name: "c", age: 5))
        }
        let adults = realm.objects(QCPerson.self).filter("age >= 18").sorted(byKeyPath: "name")
        XCTAssertEqual(adults.map(\.name), ["a", "b", "d", "f"])
        var changes: [RealmCollectionChange<Results<QCPerson>>] = []
        let token = adults.observe { changes.append($0) }
        XCTAssertTrue(eventually { changes.count == 1 })
        guard case .initial(let r) = changes[0] else { return XCTFail("expected .initial") }
        XCTAssertEqual(r.count, 4)
        func lastUpdate() -> ([Int], [Int], [Int])? {
            guard case .update(_, let d, let i, let m)? = changes.last else { return nil }
            return (d, i, m)
        }
        // Insert "e" (between d and f), and "c" grows up (inserted between b and d).
        try realm.write {
            realm.add(QCPerson(id: 20, name: "e", age: 30))
            realm.object(ofType: QCPerson.self, forPrimaryKey: 10)!.age = 18
        }
        XCTAssertTrue(eventually { changes.count == 2 })
        XCTAssertEqual(adults.map(\.name), ["a", "b", "c", "d", "e", "f"])
        var u = try XCTUnwrap(lastUpdate())
        XCTAssertEqual(u.0, []); XCTAssertEqual(u.1, [2, 4]); XCTAssertEqual(u.2, [])
        // Delete "b" (old index 1) and modify "f" (old index 5).
        try realm.write {
            realm.delete(realm.object(ofType: QCPerson.self, forPrimaryKey: 1)!)
            realm.object(ofType: QCPerson.self, forPrimaryKey: 2)!.age = 21
        }
        XCTAssertTrue(eventually { changes.count == 3 })
        u = try XCTUnwrap(lastUpdate())
        XCTAssertEqual(u.0, [1]); XCTAssertEqual(u.1, []); XCTAssertEqual(u.2, [5])
        // Rename "a" to "z": it moves from the front to the end (a deletion and an insertion).
        try realm.write { realm.object(ofType: QCPerson.self, forPrimaryKey: 3)!.name = "z" }
        XCTAssertTrue(eventually { changes.count == 4 })
        XCTAssertEqual(adults.map(\.name), ["c", "d", "e", "f", "z"])
        u = try XCTUnwrap(lastUpdate())
        XCTAssertEqual(u.0, [0]); XCTAssertEqual(u.1, [4]); XCTAssertEqual(u.2, [])
        // A change outside the results does not notify (a later change does, and comes alone).
        try realm.write { realm.add(QCPerson(id: 99, name: "kid", age: 3)) }
        try realm.write { realm.object(ofType: QCPerson.self, forPrimaryKey: 20)!.nickname = "ee" }
        XCTAssertTrue(eventually { changes.count >= 5 })
        XCTAssertEqual(changes.count, 5, "the commit outside the results produced no notification")
        u = try XCTUnwrap(lastUpdate())
        XCTAssertEqual(u.0, []); XCTAssertEqual(u.1, []); XCTAssertEqual(u.2, [2])
        // Key-path filter: only "age" counts as a modification.
        var filtered: [RealmCollectionChange<Results<QCPerson>>] = []
        let t2 = adults.observe(keyPaths: ["age"]) { filtered.append($0) }
        XCTAssertTrue(eventually { filtered.count == 1 })
        try realm.write { realm.object(ofType: QCPerson.self, forPrimaryKey: 0)!.nickname = "dd" }
        try realm.write { realm.object(ofType: QCPerson.self, forPrimaryKey: 0)!.age = 44 }
        XCTAssertTrue(eventually { filtered.count >= 2 })
        XCTAssertEqual(filtered.count, 2, "nickname is not in the key paths")
        token.invalidate(); t2.invalidate()
    }

    func testQueryResultsAreLiveAndDeletable() throws {
        let realm = try realm()
        try realm.write { for i in 0..<2500 { realm.add(QCPerson(id: i, name: "p\(i)", age: i % 100)) } }
        let all = realm.objects(QCPerson.self)
        let filtered = all.filter("age >= 98").sorted(byKeyPath: "name")
        XCTAssertEqual(filtered.count, 50)
        XCTAssertEqual(filtered.first?.name, "p1098")
        XCTAssertEqual(filtered.map(\.name), all.filter { $0.age >= 98 }.map(\.name).sorted())
        try realm.write { realm.add(QCPerson(id: 5000, name: "p0000", age: 99)) }
        XCTAssertEqual(all.count, 2501)
        XCTAssertEqual(filtered.count, 51)
        XCTAssertEqual(filtered.first?.id, 5000)
        try realm.write { realm.delete(filtered) }
        XCTAssertEqual(filtered.count, 0)
        XCTAssertEqual(all.count, 2450)
    }
}
