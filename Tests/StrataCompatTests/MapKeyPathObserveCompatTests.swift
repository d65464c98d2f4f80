import Foundation
import XCTest
import Strata

final class MKToy: Object {
    @Persisted var brand = ""
    @Persisted var price = 0.0
}

final class MKDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var toys: List<MKToy>
}

final class MKHome: Object {
    @Persisted var dogs: Map<String, MKDog?>
    @Persisted var labels: Map<String, String>
}

/// `Map.observe(keyPaths:)` as RealmSwift documents it: key paths name properties of the
/// values' class and filter which changes of the values count as modifications; insertions
/// and deletions of keys always notify.
final class MapKeyPathObserveCompatTests: XCTestCase {
    private struct Update: Equatable { var deletions: [String], insertions: [String], modifications: [String] }

    private func home(_ dir: CompatDir) throws -> (Realm, MKHome) {
        let realm = try Realm(configuration: dir.config(types: [MKHome.self, MKDog.self, MKToy.self]))
        let h = MKHome()
        try realm.write {
            for (k, n) in [("a", "Rex"), ("b", "Ace")] {
                let d = MKDog(); d.name = n; d.age = 2
                let t = MKToy(); t.brand = "Acme"; t.price = 1
                d.toys.append(t)
                h.dogs[k] = d
            }
            h.labels["x"] = "one"
            realm.add(h)
        }
        return (realm, h)
    }

    private func observe(_ map: Map<String, MKDog?>, _ keyPaths: [String]?, into updates: @escaping (Update) -> Void) -> NotificationToken {
        map.observe(keyPaths: keyPaths) { change in
            switch change {
            case .initial: break
            case .update(_, let d, let i, let m): updates(Update(deletions: d, insertions: i, modifications: m))
            case .error(let e): XCTFail("\(e)")
            }
        }
    }

    func testKeyPathsFilterModificationsOfTheValues() throws {
        let dir = CompatDir()
        let (realm, h) = try home(dir)
        var updates: [Update] = []
        let token = observe(h.dogs, ["name"]) { updates.append($0) }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { h.dogs["a"]!!.age = 5 }
        XCTAssertEqual(updates, [], "a property outside the key paths")
        try realm.write { h.dogs["b"]!!.name = "Max" }
        XCTAssertEqual(updates, [Update(deletions: [], insertions: [], modifications: ["b"])])
        try realm.write { let d = MKDog(); d.name = "Pup"; h.dogs["c"] = d; h.dogs.removeObject(for: "a") }
        XCTAssertEqual(updates.last, Update(deletions: ["a"], insertions: ["c"], modifications: []))
        XCTAssertEqual(updates.count, 2)
    }

    func testDottedKeyPathsReachLinkedObjects() throws {
        let dir = CompatDir()
        let (realm, h) = try home(dir)
        var updates: [Update] = []
        let token = observe(h.dogs, ["toys.brand"]) { updates.append($0) }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { h.dogs["a"]!!.toys[0].price = 9 }
        XCTAssertEqual(updates, [], "a toy property outside the key paths")
        try realm.write { h.dogs["a"]!!.toys[0].brand = "Zap" }
        XCTAssertEqual(updates, [Update(deletions: [], insertions: [], modifications: ["a"])])
        try realm.write { h.dogs["b"]!!.toys.append(MKToy()) }
        XCTAssertEqual(updates.last, Update(deletions: [], insertions: [], modifications: ["b"]), "the toys list itself is on the path")
        try realm.write { h.dogs["b"]!!.name = "Other" }
        XCTAssertEqual(updates.count, 2, "the dog's name is not on the path")
    }

    func testTheListPropertyAloneIgnoresChangesOfItsObjects() throws {
        let dir = CompatDir()
        let (realm, h) = try home(dir)
        var updates: [Update] = []
        let token = observe(h.dogs, ["toys"]) { updates.append($0) }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { h.dogs["a"]!!.toys[0].brand = "Zap" }
        XCTAssertEqual(updates, [])
        try realm.write { h.dogs["a"]!!.toys.removeAll() }
        XCTAssertEqual(updates, [Update(deletions: [], insertions: [], modifications: ["a"])])
    }

    func testWithoutKeyPathsChangesOfLinkedObjectsCount() throws {
        let dir = CompatDir()
        let (realm, h) = try home(dir)
        var updates: [Update] = []
        let token = observe(h.dogs, nil) { updates.append($0) }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { h.dogs["a"]!!.age = 7 }
        XCTAssertEqual(updates, [Update(deletions: [], insertions: [], modifications: ["a"])])
        try realm.write { h.dogs["b"]!!.toys[0].price = 3 }
        XCTAssertEqual(updates.last, Update(deletions: [], insertions: [], modifications: ["b"]), "a toy of the dog changed")
        XCTAssertEqual(updates.count, 2)
    }

    func testMapsOfValuesReportChangedKeys() throws {
        let dir = CompatDir()
        let (realm, h) = try home(dir)
        var updates: [Update] = []
        let token = h.labels.observe { change in
            if case .update(_, let d, let i, let m) = change { updates.append(Update(deletions: d, insertions: i, modifications: m)) }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { h.labels["x"] = "uno"; h.labels["y"] = "two" }
        XCTAssertEqual(updates, [Update(deletions: [], insertions: ["y"], modifications: ["x"])])
    }
}
