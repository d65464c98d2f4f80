import Foundation
import XCTest
import Strata

final class DKennel: Object {
    @Persisted var dogsByRun: Map<String, DDog?>
    @Persisted var labels: Map<String, String>
    @Persisted var weights: Map<String, Double>
}

/// `Map.sorted(byKeyPath:ascending:)` and `sorted(ascending:)` as RealmSwift's documentation
/// uses them; values are ordered as query results are.
final class MapSortingCompatTests: XCTestCase {
    func testMapOfObjectsSortedByKeyPath() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [DKennel.self, DDog.self]))
        let kennel = DKennel()
        try realm.write {
            for (run, name, age) in [("a", "Rex", 7), ("b", "Ace", 2), ("c", "Max", 4)] {
                let d = DDog(); d.name = name; d.age = age
                kennel.dogsByRun[run] = d
            }
            kennel.dogsByRun["empty"] = .some(nil)
            realm.add(kennel)
        }
        XCTAssertEqual(kennel.dogsByRun.sorted(byKeyPath: "age").map(\.name), ["Ace", "Max", "Rex"])
        XCTAssertEqual(kennel.dogsByRun.sorted(byKeyPath: "name", ascending: false).map(\.name), ["Rex", "Max", "Ace"])
        // Live: a new entry shows up in the same results.
        let byAge: Results<DDog> = kennel.dogsByRun.sorted(byKeyPath: "age")
        try realm.write { let d = DDog(); d.name = "Pup"; d.age = 0; kennel.dogsByRun["d"] = d }
        XCTAssertEqual(byAge.map(\.name), ["Pup", "Ace", "Max", "Rex"])
        XCTAssertEqual(byAge.filter("age > 3").map(\.name), ["Max", "Rex"])
    }

    func testMapOfValuesSortedByTheQueryOrdering() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [DKennel.self, DDog.self]))
        let kennel = DKennel()
        // Code-point order, as query results sort strings: a decomposed "e\u{301}" (U+0065 U+0301)
        // sorts before "f", the precomposed "\u{E9}" after it (Swift's `<` treats the two as equal).
        kennel.labels["1"] = "\u{E9}"; kennel.labels["2"] = "f"; kennel.labels["3"] = "e\u{301}"
        kennel.weights["x"] = 2.5; kennel.weights["y"] = -1; kennel.weights["z"] = 10
        let scalars = { (a: [String]) in a.map { $0.unicodeScalars.map(\.value) } }
        XCTAssertEqual(scalars(kennel.labels.sorted()), [[0x65, 0x301], [0x66], [0xE9]])
        try realm.write { realm.add(kennel) }
        XCTAssertEqual(scalars(kennel.labels.sorted()), [[0x65, 0x301], [0x66], [0xE9]])
        XCTAssertEqual(scalars(kennel.labels.sorted(ascending: false)), [[0xE9], [0x66], [0x65, 0x301]])
        XCTAssertEqual(kennel.weights.sorted(), [-1, 2.5, 10])
    }
}
