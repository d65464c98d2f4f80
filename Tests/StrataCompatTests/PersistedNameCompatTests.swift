import Foundation
import XCTest
import Strata

/// A model whose class and property are stored under other names, declared as RealmSwift's
/// documentation shows (`propertiesMapping()`, `_realmObjectName()`).
final class MappedPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var firstName = ""
    @Persisted var age = 0
    override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }
    override class func _realmObjectName() -> String? { "person_v2" }
}

final class PersistedNameCompatTests: XCTestCase {
    func testMappedNamesAreStoredAndTheSwiftNamesStillWork() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [MappedPerson.self]))
        try realm.write {
            realm.create(MappedPerson.self, value: ["id": 1, "firstName": "Ann", "age": 40])
            let bo = MappedPerson(); bo.id = 2; bo.firstName = "Bo"; bo.age = 30
            realm.add(bo)
        }
        // The file holds the persisted names.
        let stored = try XCTUnwrap(realm.schema["person_v2"])
        XCTAssertNotNil(stored["first_name"])
        XCTAssertNil(stored["firstName"])
        XCTAssertNil(realm.schema["MappedPerson"])
        XCTAssertEqual(MappedPerson.className(), "person_v2")
        // The typed API uses the Swift names.
        let ann = try XCTUnwrap(realm.object(ofType: MappedPerson.self, forPrimaryKey: 1))
        XCTAssertEqual(ann.firstName, "Ann")
        XCTAssertEqual(ann["firstName"] as? String, "Ann")
        XCTAssertEqual(realm.objects(MappedPerson.self).sorted(by: \.firstName, ascending: false).map(\.firstName), ["Bo", "Ann"])
        XCTAssertEqual(realm.objects(MappedPerson.self).where { $0.firstName == "Bo" }.first?.id, 2)
        // Query strings take the Swift names, as RealmSwift's do, and the names in the file.
        XCTAssertEqual(realm.objects(MappedPerson.self).filter("firstName == 'Ann'").count, 1)
        XCTAssertEqual(realm.objects(MappedPerson.self).filter("firstName BEGINSWITH %@", "B").first?.id, 2)
        XCTAssertEqual(realm.objects(MappedPerson.self).sorted(byKeyPath: "firstName").map(\.id), [1, 2])
        XCTAssertEqual(realm.objects(MappedPerson.self).distinct(by: ["firstName"]).count, 2)
        XCTAssertEqual(realm.objects(MappedPerson.self).filter("first_name == 'Ann'").count, 1)
        // The dynamic API uses the names in the file.
        let dyn = try XCTUnwrap(realm.dynamicObject(ofType: "person_v2", forPrimaryKey: 2))
        XCTAssertEqual(dyn["first_name"] as? String, "Bo")
        try realm.write { ann.firstName = "Anna" }
        XCTAssertEqual(realm.dynamicObjects("person_v2").filter("id == 1").first?["first_name"] as? String, "Anna")
    }

    /// Observed key paths take the Swift names too.
    func testObservedKeyPathsTakeTheSwiftNames() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [MappedPerson.self]))
        let ann = MappedPerson(); ann.id = 1; ann.firstName = "Ann"
        try realm.write { realm.add(ann) }
        var named = 0, typed = 0
        let t1 = ann.observe(keyPaths: ["firstName"]) { (_: ObjectChange<MappedPerson>) in named += 1 }
        let t2 = ann.observe(keyPaths: [\MappedPerson.firstName]) { (_: ObjectChange<MappedPerson>) in typed += 1 }
        try realm.write { ann.age = 41 }
        try realm.write { ann.firstName = "Anna" }
        XCTAssertEqual(named, 1)
        XCTAssertEqual(typed, 1)
        _ = (t1, t2)
    }
}
