import Foundation
import XCTest
import Strata

final class DDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

final class DOwner: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var age = 0
    @Persisted var favorite: DDog?
    @Persisted var dogs: List<DDog>
    @Persisted var nicknames: List<String>
    @Persisted var scores: Map<String, Int>
}

/// The dynamic API as RealmSwift's documentation uses it: objects by class name, properties by
/// name (subscript and dynamic member lookup), creation from dictionaries and arrays, queries.
final class DynamicCompatTests: XCTestCase {
    private func seeded(_ dir: CompatDir) throws -> Realm {
        let realm = try Realm(configuration: dir.config(types: [DOwner.self, DDog.self]))
        try realm.write {
            let rex = DDog(); rex.name = "Rex"; rex.age = 3
            let fido = DDog(); fido.name = "Fido"; fido.age = 5
            let ann = DOwner(); ann.name = "Ann"; ann.age = 40; ann.favorite = rex
            ann.dogs.append(objectsIn: [rex, fido]); ann.nicknames.append(objectsIn: ["A", "Annie"]); ann.scores["x"] = 7
            let bob = DOwner(); bob.name = "Bob"; bob.age = 25
            realm.add([ann, bob])
        }
        return realm
    }

    func testDynamicObjectsReadByNameAndDynamicMember() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let owners = realm.dynamicObjects("DOwner")
        XCTAssertEqual(owners.count, 2)
        let ann = try XCTUnwrap(owners.first { ($0["name"] as? String) == "Ann" })
        XCTAssertEqual(ann["age"] as? Int, 40)
        XCTAssertEqual(ann.age as? Int, 40)
        XCTAssertEqual(ann.dynamicClassName, "DOwner")
        XCTAssertEqual(ann.objectSchema.className, "DOwner")
        let favorite = try XCTUnwrap(ann.favorite as? DynamicObject)
        XCTAssertEqual(favorite.dynamicClassName, "DDog")
        XCTAssertEqual(favorite["name"] as? String, "Rex")
        XCTAssertEqual(ann.dynamicList("dogs").map { $0["name"] as? String }, ["Rex", "Fido"])
        XCTAssertEqual(ann["nicknames"] as? [String?], ["A", "Annie"])
        XCTAssertEqual((ann["scores"] as? [String: Any?])?["x"] as? Int, 7)
        let bob = try XCTUnwrap(owners.first { ($0["name"] as? String) == "Bob" })
        XCTAssertNil(bob["favorite"])
        XCTAssertTrue(bob.dynamicList("dogs").isEmpty)
    }

    func testDynamicObjectsFilterAndSortWithQueryStrings() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let dogs = realm.dynamicObjects("DDog").filter("age > %@", 2).sorted(byKeyPath: "age", ascending: false)
        XCTAssertEqual(dogs.map { $0["name"] as? String }, ["Fido", "Rex"])
        XCTAssertEqual(realm.dynamicObjects("DOwner").filter("ANY dogs.name == 'Fido'").first?["name"] as? String, "Ann")
        XCTAssertEqual(realm.dynamicObjects("DDog").filter("name BEGINSWITH 'R'").count, 1)
    }

    func testDynamicObjectForPrimaryKey() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let bob = try XCTUnwrap(realm.dynamicObject(ofType: "DOwner", forPrimaryKey: "Bob"))
        XCTAssertEqual(bob.age as? Int, 25)
        XCTAssertNil(realm.dynamicObject(ofType: "DOwner", forPrimaryKey: "Nobody"))
    }

    func testDynamicWritesAreSeenByTypedObjects() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let bob = try XCTUnwrap(realm.dynamicObject(ofType: "DOwner", forPrimaryKey: "Bob"))
        let dogs = Array(realm.dynamicObjects("DDog"))
        try realm.write {
            bob["age"] = 26
            bob.favorite = dogs[1]
            bob["dogs"] = dogs
            bob.nicknames = ["B"]
            bob["scores"] = ["y": 2]
        }
        let typed = try XCTUnwrap(realm.object(ofType: DOwner.self, forPrimaryKey: "Bob"))
        XCTAssertEqual(typed.age, 26)
        XCTAssertEqual(typed.favorite?.name, "Fido")
        XCTAssertEqual(typed.dogs.map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(Array(typed.nicknames), ["B"])
        XCTAssertEqual(typed.scores["y"], 2)
        try realm.write { bob.favorite = nil }
        XCTAssertNil(typed.favorite)
    }

    func testDynamicCreateFromDictionaryAndArray() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        try realm.write {
            let dog = realm.dynamicCreate("DDog", value: ["name": "Spot", "age": 1] as [String: Any])
            XCTAssertEqual(dog["name"] as? String, "Spot")
            let cat = realm.dynamicCreate("DOwner", value: ["Cid", 33, dog, [dog], ["C"], ["k": 1]] as [Any])
            XCTAssertEqual(cat.age as? Int, 33)
            realm.dynamicCreate("DOwner", value: ["name": "Dee", "favorite": ["name": "Nested", "age": 9] as [String: Any]] as [String: Any])
            // update: an existing primary key is updated with the given values only.
            realm.dynamicCreate("DOwner", value: ["name": "Bob", "age": 99] as [String: Any], update: .modified)
        }
        XCTAssertEqual(realm.objects(DDog.self).count, 4)
        let cid = try XCTUnwrap(realm.object(ofType: DOwner.self, forPrimaryKey: "Cid"))
        XCTAssertEqual(cid.favorite?.name, "Spot")
        XCTAssertEqual(cid.dogs.count, 1)
        XCTAssertEqual(cid.scores["k"], 1)
        XCTAssertEqual(realm.object(ofType: DOwner.self, forPrimaryKey: "Dee")?.favorite?.age, 9)
        XCTAssertEqual(realm.object(ofType: DOwner.self, forPrimaryKey: "Bob")?.age, 99)
        XCTAssertEqual(realm.dynamicObjects("DOwner").count, 4)
    }

    func testDynamicObjectInvalidatedAfterDelete() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let bob = try XCTUnwrap(realm.dynamicObject(ofType: "DOwner", forPrimaryKey: "Bob"))
        XCTAssertFalse(bob.isInvalidated)
        try realm.write { realm.delete(realm.objects(DOwner.self).filter("name == 'Bob'")) }
        XCTAssertTrue(bob.isInvalidated)
    }
}
