import Foundation
import XCTest
import Strata

/// Typed key-path aggregates and distinct, as RealmSwift's documentation uses them.
final class KPReading: Object {
    @Persisted var sensor = ""
    @Persisted var count = 0
    @Persisted var celsius = 0.0
    @Persisted var at = Date(timeIntervalSince1970: 0)
}

final class KeyPathAggregateCompatTests: XCTestCase {
    func testAggregatesAndDistinctByKeyPath() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [KPReading.self]))
        let rows: [(String, Int, Double, TimeInterval)] = [("a", 3, 20.5, 10), ("b", 4, 22.0, 30), ("a", 8, 19.0, 20)]
        try realm.write {
            for r in rows { realm.create(KPReading.self, value: ["sensor": r.0, "count": r.1, "celsius": r.2, "at": Date(timeIntervalSince1970: r.3)]) }
        }
        let all = realm.objects(KPReading.self)
        XCTAssertEqual(all.sum(of: \.count), 15)
        XCTAssertEqual(all.min(of: \.count), 3)
        XCTAssertEqual(all.max(of: \.celsius), 22.0)
        XCTAssertEqual(all.max(of: \.at), Date(timeIntervalSince1970: 30))
        XCTAssertEqual(all.average(of: \.celsius)!, 61.5 / 3, accuracy: 1e-9)
        XCTAssertEqual(all.average(of: \.count), 5, "15 / 3, in the property's own type")
        let distinct = all.distinct(by: [\KPReading.sensor])
        XCTAssertEqual(distinct.map(\.sensor).sorted(), ["a", "b"])
        // Through the protocol, as generic code over RealmCollection writes it.
        func total<C: RealmCollection>(_ c: C) -> Int where C.Element == KPReading { c.sum(of: \.count) }
        XCTAssertEqual(total(all.filter("sensor == 'a'")), 11)
        XCTAssertNil(all.filter("count > 100").average(of: \.count))
    }
}
