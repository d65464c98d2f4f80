import Foundation
import XCTest
import Strata

final class COptionals: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var ints: List<Int?>
    @Persisted var doubles: MutableSet<Double?>
    @Persisted var amount: Decimal128 = 0
}

/// Aggregates RealmSwift has on collections of optional values (nil skipped) and the decimal
/// average of a Decimal128 property.
final class OptionalAggregateCompatTests: XCTestCase {
    func testAggregatesOfOptionalValuesSkipNil() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [COptionals.self]))
        let o = COptionals()
        try realm.write {
            realm.add(o)
            o.ints.append(objectsIn: [3, nil, 7, nil, -2])
            o.doubles.insert(objectsIn: [1.5, nil, 2.5])
        }
        XCTAssertEqual(o.ints.min(), -2)
        XCTAssertEqual(o.ints.max(), 7)
        XCTAssertEqual(o.ints.sum(), 8)
        let average: Double? = o.ints.average()
        XCTAssertEqual(try XCTUnwrap(average), 8.0 / 3, accuracy: 1e-12)
        XCTAssertEqual(o.doubles.sum(), 4.0)
        XCTAssertEqual(o.doubles.max(), 2.5)
        let empty = List<Int?>()
        XCTAssertNil(empty.min())
        XCTAssertEqual(empty.sum(), 0)
        let none: Double? = empty.average()
        XCTAssertNil(none)
    }

    func testDecimalAverageOfADecimal128Property() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [COptionals.self]))
        try realm.write {
            for (i, a) in ["0.1", "0.2", "0.4"].enumerated() { realm.add(COptionals(value: ["id": i, "amount": Decimal128(stringLiteral: a)])) }
        }
        let all = realm.objects(COptionals.self)
        let average: Decimal128? = all.average(ofProperty: "amount")
        XCTAssertEqual(average?.description, (Decimal128(stringLiteral: "0.7") / 3).description, "decimal arithmetic, not binary")
        let none: Decimal128? = all.filter("id > 10").average(ofProperty: "amount")
        XCTAssertNil(none)
        let asDouble: Double? = all.average(ofProperty: "amount")
        XCTAssertEqual(try XCTUnwrap(asDouble), 0.7 / 3, accuracy: 1e-12)
    }
}
