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

final class DynKennel: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var members: MutableSet<DDog>
    @Persisted var byRole: Map<String, DDog?>
}

private final class ThreadBox<R>: @unchecked Sendable {
    let body: () throws -> R
    var out: Result<R, Error>?
    init(_ b: @escaping () throws -> R) { body = b }
}

/// Runs `body` on a new thread (so through another Realm instance than the test's).
private func onOtherThread<R>(_ body: @escaping () throws -> R) throws -> R {
    let box = ThreadBox(body)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread { box.out = Result { try box.body() }; done.signal() }
    done.wait()
    return try box.out!.get()
}

/// Opens `config` once the realms of the same file at an older schema version are released
/// (under load another thread can hold the seeding realm's coordinator for a moment); other
/// errors are thrown at once.
private func openAfterRelease(_ config: Realm.Configuration) throws -> Realm {
    let end = Date().addingTimeInterval(10)
    while true {
        do { return try Realm(configuration: config) } catch {
            guard "\(error)".contains("already open in this process"), Date() < end else { throw error }
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
    }
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

    func testDynamicListIsLiveAndWritesInAWrite() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let ann = try XCTUnwrap(realm.dynamicObject(ofType: "DOwner", forPrimaryKey: "Ann"))
        let dogs: List<DynamicObject> = ann.dynamicList("dogs")
        XCTAssertEqual(dogs.count, 2)
        XCTAssertEqual(dogs[1]["name"] as? String, "Fido")
        XCTAssertEqual(dogs[0].dynamicClassName, "DDog")
        try realm.write {
            let spot = realm.dynamicCreate("DDog", value: ["name": "Spot", "age": 1] as [String: Any])
            dogs.append(spot)            // Rex, Fido, Spot
            dogs.insert(dogs[1], at: 0)  // Fido, Rex, Fido, Spot
            dogs.remove(at: 1)           // Fido, Fido, Spot
        }
        var names: [String?] = []
        for d in dogs { names.append(d.name as? String) }
        XCTAssertEqual(names, ["Fido", "Fido", "Spot"])
        XCTAssertEqual(realm.object(ofType: DOwner.self, forPrimaryKey: "Ann")?.dogs.map(\.name), ["Fido", "Fido", "Spot"])
        let config = dir.config(types: [DOwner.self, DDog.self])
        XCTAssertEqual(try onOtherThread {
            try Realm(configuration: config).dynamicObject(ofType: "DOwner", forPrimaryKey: "Ann")?.dynamicList("dogs").map { $0["name"] as? String }
        }, ["Fido", "Fido", "Spot"])
        // Reading reflects the current version: a typed write shows in the list obtained before.
        try realm.write { realm.object(ofType: DOwner.self, forPrimaryKey: "Ann")?.dogs.removeLast() }
        XCTAssertEqual(dogs.count, 2)
        XCTAssertEqual(dogs.asResults().filter("age > 4").first?["name"] as? String, "Fido")
        XCTAssertEqual(dogs.asResults().first?.dynamicClassName, "DDog")
        try realm.write { dogs.removeAll() }
        XCTAssertTrue(dogs.isEmpty)
        XCTAssertEqual(try onOtherThread { try Realm(configuration: config).object(ofType: DOwner.self, forPrimaryKey: "Ann")?.dogs.count }, 0)
        XCTAssertEqual(realm.objects(DDog.self).count, 3, "removing from a list of links keeps the objects")
    }

    func testDynamicMutableSetAndMapAreLiveAndWriteInAWrite() throws {
        let dir = CompatDir()
        let config = dir.config(types: [DynKennel.self, DDog.self])
        let realm = try Realm(configuration: config)
        try realm.write {
            realm.dynamicCreate("DynKennel", value: ["name": "K"] as [String: Any])
            realm.dynamicCreate("DDog", value: ["name": "Rex", "age": 3] as [String: Any])
            realm.dynamicCreate("DDog", value: ["name": "Fido", "age": 5] as [String: Any])
        }
        let kennel = try XCTUnwrap(realm.dynamicObject(ofType: "DynKennel", forPrimaryKey: "K"))
        let dogs = realm.dynamicObjects("DDog").sorted(byKeyPath: "name")
        let fido = dogs[0], rex = dogs[1]
        let members: MutableSet<DynamicObject> = kennel.dynamicMutableSet("members")
        let byRole: Map<String, DynamicObject?> = kennel.dynamicMap("byRole")
        XCTAssertTrue(members.isEmpty)
        XCTAssertEqual(byRole.count, 0)
        try realm.write {
            members.insert(rex); members.insert(fido); members.insert(rex)
            byRole["guard"] = rex
            byRole["pet"] = fido
            byRole["none"] = .some(nil)
        }
        XCTAssertEqual(members.count, 2)
        XCTAssertTrue(members.contains(fido))
        XCTAssertEqual(Set(members.map { $0["name"] as? String }), ["Rex", "Fido"])
        XCTAssertEqual(byRole.keys, ["guard", "none", "pet"])
        XCTAssertEqual(byRole["guard"]??.name as? String, "Rex")
        XCTAssertEqual(byRole["guard"]??.dynamicClassName, "DDog")
        XCTAssertNotNil(byRole["none"] as Any??)
        XCTAssertNil(byRole["none"]!)
        try realm.write {
            members.remove(rex)
            byRole["pet"] = nil
            byRole["guard"] = fido
        }
        let typed = try XCTUnwrap(realm.object(ofType: DynKennel.self, forPrimaryKey: "K"))
        XCTAssertEqual(typed.members.map(\.name), ["Fido"])
        XCTAssertEqual(typed.byRole.keys, ["guard", "none"])
        XCTAssertEqual(typed.byRole["guard"]??.name, "Fido")
        XCTAssertEqual(try onOtherThread { () -> [String?] in
            let k = try XCTUnwrap(try Realm(configuration: config).dynamicObject(ofType: "DynKennel", forPrimaryKey: "K"))
            return k.dynamicMutableSet("members").map { $0["name"] as? String } + k.dynamicMap("byRole").keys
        }, ["Fido", "guard", "none"])
        try realm.write { members.removeAll(); byRole.removeAll() }
        XCTAssertEqual(typed.members.count, 0)
        XCTAssertTrue(typed.byRole.isEmpty)
    }

    func testMigrationObjectDynamicListAppendsInsideAMigration() throws {
        let dir = CompatDir()
        do { _ = try seeded(dir) }
        var seen: [String] = []
        let v1 = Realm.Configuration(fileURL: dir.url.appendingPathComponent("compat.strata"), schemaVersion: 1, migrationBlock: { migration, _ in
            migration.enumerateObjects(ofType: "DOwner") { old, new in
                guard (old?.name as? String) == "Ann" else { return }
                seen = old!.dynamicList("dogs").map { $0.name as? String ?? "?" }
                let pup = migration.create("DDog", value: ["name": "Pup", "age": 0])
                let dogs = new!.dynamicList("dogs")
                dogs.append(pup)              // Rex, Fido, Pup
                dogs.insert(dogs[1], at: 0)   // Fido, Rex, Fido, Pup
                dogs.remove(at: 2)            // Fido, Rex, Pup
                XCTAssertEqual(dogs.count, 3)
            }
        }, objectTypes: [DOwner.self, DDog.self])
        let realm = try openAfterRelease(v1)
        XCTAssertEqual(seen, ["Rex", "Fido"])
        XCTAssertEqual(realm.object(ofType: DOwner.self, forPrimaryKey: "Ann")?.dogs.map(\.name), ["Fido", "Rex", "Pup"])
        XCTAssertEqual(realm.objects(DDog.self).count, 3)
    }

    func testMigrationObjectDynamicListOfAnOldObjectIsReadOnly() throws {
        let dir = CompatDir()
        do { _ = try seeded(dir) }
        let v1 = Realm.Configuration(fileURL: dir.url.appendingPathComponent("compat.strata"), schemaVersion: 1, migrationBlock: { migration, _ in
            migration.enumerateObjects(ofType: "DOwner") { old, _ in old!.dynamicList("dogs").removeAll() }
        }, objectTypes: [DOwner.self, DDog.self])
        XCTAssertThrowsError(try openAfterRelease(v1)) { XCTAssertTrue("\($0)".contains("read-only"), "\($0)") }
        let reopened = try Realm(configuration: dir.config(types: [DOwner.self, DDog.self]))
        XCTAssertEqual(reopened.object(ofType: DOwner.self, forPrimaryKey: "Ann")?.dogs.count, 2, "a failed migration leaves the file unchanged")
    }
}
