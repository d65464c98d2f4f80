import Foundation
import XCTest
import Strata

/// Issue 15 item 1: model declarations RealmSwift apps use (enums, literals, custom
/// persistables, linking objects of an embedded origin).
final class ModelCompatTests: XCTestCase {
    func testEnumsOptionalEnumsAndCollectionsOfEnumsRoundTrip() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let task = CTask()
        XCTAssertEqual(task.priority, .low, "a non-optional enum defaults to its first case")
        XCTAssertNil(task.optionalPriority)
        task.priority = .high
        task.optionalPriority = .medium
        task.history.append(objectsIn: [.low, .high, .high])
        task.statuses.insert(.done)
        task.statuses.insert(.done)
        task.byDay["mon"] = .medium
        try realm.write { realm.add(task) }

        let stored = try XCTUnwrap(realm.objects(CTask.self).first)
        XCTAssertEqual(stored.priority, .high)
        XCTAssertEqual(stored.status, .open)
        XCTAssertEqual(stored.optionalPriority, .medium)
        XCTAssertEqual(Array(stored.history), [.low, .high, .high])
        XCTAssertEqual(Array(stored.statuses), [.done])
        XCTAssertEqual(stored.byDay["mon"], .medium)
        try realm.write { stored.optionalPriority = nil; stored.status = .done }
        XCTAssertNil(stored.optionalPriority)
        XCTAssertEqual(stored.status, .done)

        // The column holds the raw value: queries compare raw values, enum arguments work.
        XCTAssertEqual(realm.objects(CTask.self).filter("priority == 2").count, 1)
        XCTAssertEqual(realm.objects(CTask.self).filter("priority == %@", TaskPriority.high).count, 1)
        XCTAssertEqual(realm.objects(CTask.self).filter("status == %@", TaskStatus.open).count, 0)
        XCTAssertEqual(stored.objectSchema["priority"]?.type, .int)
        XCTAssertEqual(stored.objectSchema["status"]?.type, .string)
        XCTAssertEqual(stored.objectSchema["optionalPriority"]?.isOptional, true)

        // Created from a dictionary with raw values or cases.
        let made = try realm.write { realm.create(CTask.self, value: ["title": "b", "priority": 1, "status": TaskStatus.done]) }
        XCTAssertEqual(made.priority, .medium)
        XCTAssertEqual(made.status, .done)
    }

    func testStringLiteralsForDecimal128AndObjectId() throws {
        let price: Decimal128 = "9.99"
        XCTAssertEqual(price, Decimal128(floatLiteral: 9.99))
        XCTAssertEqual(CTask().price.description, "9.99")
        let id = ObjectId("6525fa3c1e8d4a0b9c2f11ab")
        XCTAssertEqual(id.stringValue, "6525fa3c1e8d4a0b9c2f11ab")
        let literal: ObjectId = "6525fa3c1e8d4a0b9c2f11ab"
        XCTAssertEqual(literal, id)
        let runtime = String("6525fa3c1e8d4a0b9c2f11ab".reversed().reversed())
        XCTAssertEqual(ObjectId(runtime), id)
        XCTAssertTrue(("not a number" as Decimal128).isNaN)
        XCTAssertThrowsError(try ObjectId(string: "xyz"))
    }

    func testCustomPersistableAndFailableCustomPersistable() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let task = CTask()
        task.temperature = Temperature(persistedValue: 21.5)
        task.link = Link(URL(string: "https://example.com/a?b=1")!)
        task.readings.append(objectsIn: [Temperature(persistedValue: 1), Temperature(persistedValue: 2)])
        try realm.write { realm.add(task) }
        let stored = try XCTUnwrap(realm.objects(CTask.self).first)
        XCTAssertEqual(stored.temperature.celsius, 21.5)
        XCTAssertEqual(stored.link?.url.absoluteString, "https://example.com/a?b=1")
        XCTAssertEqual(stored.readings.map(\.celsius), [1, 2])
        XCTAssertEqual(stored.objectSchema["temperature"]?.type, .double)
        XCTAssertEqual(stored.objectSchema["link"]?.type, .string)
        // Queries see the persisted value.
        XCTAssertEqual(realm.objects(CTask.self).filter("temperature > 20").count, 1)
        XCTAssertEqual(realm.objects(CTask.self).filter("link BEGINSWITH 'https://example.com'").count, 1)
        try realm.write { stored.link = nil }
        XCTAssertNil(stored.link)
    }

    func testLinkingObjectsWithAnEmbeddedOrigin() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let dog = CDog()
        dog.name = "Rex"
        let project = CProject()
        project.name = "p"
        project.child = CChild()
        try realm.write {
            realm.add(dog)
            realm.add(project)
            project.child?.dog = dog
        }
        XCTAssertEqual(dog.owners.count, 1)
        XCTAssertEqual(dog.owners.first?.note, "")
        XCTAssertEqual(project.child?.dog?.name, "Rex")
    }

    func testIsSameObject() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let a = CDog(), b = CDog()
        XCTAssertTrue(a.isSameObject(as: a))
        XCTAssertFalse(a.isSameObject(as: b))
        XCTAssertFalse(a.isSameObject(as: nil))
        try realm.write { realm.add([a, b]) }
        let fetched = realm.objects(CDog.self)
        XCTAssertTrue(fetched[0].isSameObject(as: a))
        XCTAssertFalse(fetched[1].isSameObject(as: a))
    }
}
