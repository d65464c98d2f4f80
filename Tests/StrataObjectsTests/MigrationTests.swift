import XCTest
import Foundation
@testable import StrataObjects
import StrataStorage

private func prop(_ name: String, _ type: PropertyType, _ coll: CollectionKind = .single, optional: Bool = false,
                  target: String? = nil, pk: Bool = false, indexed: Bool = false) -> PropertySchema {
    PropertySchema(name: name, type: type, collection: coll, isOptional: optional, objectClassName: target, isPrimaryKey: pk, isIndexed: indexed)
}

private struct Boom: Error, Equatable {}

/// Migrations through the dynamic `Database` (the typed API uses the same path; see the typed
/// tests at the end).
final class MigrationTests: XCTestCase {
    var dir: TempDir!
    var path: String { dir.url.appendingPathComponent("m.strata").path }
    override func setUp() { dir = TempDir() }

    private func open(_ classes: [ObjectSchema], _ version: UInt64, _ block: MigrationBlock? = nil) throws -> Database {
        try Database(path: path, schema: Schema(classes), schemaVersion: version, migrationBlock: block)
    }

    private func check(_ db: Database, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let r = try db.store.check()
            XCTAssertTrue(r.isSound, "integrity: \(r.problems.prefix(3))", file: file, line: line)
        } catch { XCTFail("\(error)", file: file, line: line) }
    }

    private let personV0 = ObjectSchema(className: "Person", properties: [
        prop("id", .int, pk: true), prop("name", .string), prop("age", .int), prop("nick", .string, optional: true),
        prop("tags", .string, .list), prop("scores", .int, .map),
    ])

    private func seedPeople(_ n: Int = 3) throws {
        let db = try open([personV0], 0)
        let w = try db.write()
        for i in 1...n {
            let k = try w.create("Person", values: ["id": .int(Int64(i)), "name": .string("p\(i)"), "age": .int(Int64(20 + i)), "nick": i == 2 ? .null : .string("n\(i)")])
            try w.setList("Person", k, "tags", [.string("t\(i)"), .string("x")])
            try w.setMap("Person", k, "scores", [("a", .int(Int64(i)))])
        }
        try w.commit()
        db.close()
    }

    func testAddRemoveAndRenamePropertiesKeepData() throws {
        try seedPeople()
        let v1 = ObjectSchema(className: "Person", properties: [
            prop("id", .int, pk: true), prop("fullName", .string), prop("age", .int), prop("email", .string),
            prop("tags", .string, .list), prop("scores", .int, .map), prop("joined", .date, optional: true),
        ])
        let calls = Locked(0)
        let db = try open([v1], 1) { m, old in
            XCTAssertEqual(old, 0)
            XCTAssertNotNil(m.oldSchema["Person"]?["nick"])
            m.renameProperty(onType: "Person", from: "name", to: "fullName")
            m.enumerateObjects(ofType: "Person") { o, n in
                calls.with { $0 += 1 }
                XCTAssertEqual(o?["name"] as? String, n?["fullName"] as? String, "renamed before the enumeration")
                n?["email"] = "\(o!["name"] as! String)@example.com"
                XCTAssertNil(n?["email"] == nil ? 1 : nil)
            }
        }
        XCTAssertEqual(calls.with { $0 }, 3)
        XCTAssertEqual(db.schemaVersion, 1)
        let r = try db.read()
        XCTAssertEqual(try r.count("Person"), 3)
        let k2 = try XCTUnwrap(r.find("Person", primaryKey: .int(2)))
        XCTAssertEqual(try r.value("Person", k2, "fullName"), .string("p2"))
        XCTAssertEqual(try r.value("Person", k2, "email"), .string("p2@example.com"))
        XCTAssertEqual(try r.value("Person", k2, "age"), .int(22))
        XCTAssertEqual(try r.value("Person", k2, "joined"), .null, "an added property takes its default")
        XCTAssertEqual(try r.list("Person", k2, "tags"), [.string("t2"), .string("x")])
        XCTAssertEqual(try r.map("Person", k2, "scores").map(\.key), ["a"])
        XCTAssertThrowsError(try r.value("Person", k2, "nick"), "a removed property is gone")
        let (stored, version) = try Database.readSchema(db.store)
        XCTAssertEqual(version, 1)
        XCTAssertEqual(stored?["Person"], v1)
        r.end()
        check(db)
        // New objects after the migration.
        let w = try db.write()
        try w.create("Person", values: ["id": .int(9), "fullName": .string("nine")])
        try w.commit()
        check(db)
        db.close()
        // Opening again at the same version is not a migration.
        let again = try open([v1], 1) { _, _ in XCTFail("no migration expected") }
        XCTAssertEqual(try again.read().count("Person"), 4)
    }

    func testChangedTypeConvertsThroughTheBlockOrByDefault() throws {
        try seedPeople()
        let v1 = ObjectSchema(className: "Person", properties: [
            prop("id", .int, pk: true), prop("name", .int), prop("age", .string), prop("nick", .string),
            prop("tags", .string, .set), prop("scores", .double, .map),
        ])
        let db = try open([v1], 5) { m, _ in
            m.enumerateObjects(ofType: "Person") { o, n in
                // age: Int → String through the block.
                n!["age"] = "age \(o!["age"] as! Int)"
            }
        }
        let r = try db.read()
        defer { r.end() }
        let k1 = try XCTUnwrap(r.find("Person", primaryKey: .int(1)))
        let k2 = try XCTUnwrap(r.find("Person", primaryKey: .int(2)))
        XCTAssertEqual(try r.value("Person", k1, "age"), .string("age 21"))
        XCTAssertEqual(try r.value("Person", k1, "name"), .int(0), "'p1' is not a number: the default")
        XCTAssertEqual(try r.value("Person", k1, "nick"), .string("n1"), "optional → required keeps values")
        XCTAssertEqual(try r.value("Person", k2, "nick"), .string(""), "… and nil becomes the default")
        XCTAssertEqual(try r.list("Person", k1, "tags"), [.string("t1"), .string("x")], "list → set")
        XCTAssertEqual(try r.map("Person", k1, "scores").first?.value, .double(1), "map of Int → map of Double")
        check(db)
    }

    func testAddedAndRemovedClassesAndDeleteData() throws {
        try seedPeople()
        do {
            let db = try open([personV0, ObjectSchema(className: "Old", properties: [prop("x", .int)]),
                               ObjectSchema(className: "Gone", properties: [prop("y", .string, indexed: true)])], 0)
            let w = try db.write()
            try w.create("Old", values: ["x": .int(1)])
            try w.create("Gone", values: ["y": .string("bye")])
            try w.commit()
            db.close()
        }
        let newClass = ObjectSchema(className: "New", properties: [prop("name", .string), prop("owner", .object, optional: true, target: "Person")])
        let db = try open([personV0, newClass], 1) { m, _ in
            XCTAssertTrue(m.deleteData(forType: "Gone"))
            XCTAssertFalse(m.deleteData(forType: "NeverWas"))
            var count = 0
            m.enumerateObjects(ofType: "Old") { o, n in
                count += 1
                XCTAssertNil(n, "not in the new schema")
                let owner = try? m.tryCreate("Person", value: ["id": 100, "name": "created"])
                m.create("New", value: ["name": "from old \(o!["x"] as! Int)", "owner": owner as Any])
            }
            XCTAssertEqual(count, 1)
        }
        let (stored, _) = try Database.readSchema(db.store)
        XCTAssertNotNil(stored?["Old"], "classes outside the new schema stay unless deleted")
        XCTAssertNil(stored?["Gone"])
        XCTAssertNotNil(stored?["New"])
        let r = try db.read()
        XCTAssertEqual(try r.count("New"), 1)
        let nk = try r.objectKeys("New")[0]
        XCTAssertEqual(try r.value("New", nk, "name"), .string("from old 1"))
        let owner = try r.value("New", nk, "owner")
        XCTAssertEqual(owner, .object(ObjectLink(className: "Person", key: 100)))
        let names = try r.storage.treeNames()
        XCTAssertFalse(names.contains { $0 == "c/Gone" || $0.hasPrefix("i/Gone/") }, "\(names)")
        r.end()
        check(db)
        db.close()
        // A handle with every class still sees the kept class's data.
        let all = try Database(path: path)
        XCTAssertEqual(try all.read().count("Old"), 1)
    }

    func testIndexChangesRebuildIndexes() throws {
        try seedPeople(50)
        var v1 = personV0
        v1.properties[2] = prop("age", .int, indexed: true)
        var db = try open([v1], 1)
        var r = try db.read()
        XCTAssertTrue(r.hasIndex("Person", "age"))
        XCTAssertEqual(try r.indexLookup("Person", "age", .int(30)).count, 1)
        XCTAssertNotNil(try r.storage.tree("i/Person/age"))
        r.end()
        check(db)
        // The index stays in step with writes after the migration.
        let w = try db.write()
        try w.create("Person", values: ["id": .int(1000), "age": .int(30)])
        try w.commit()
        XCTAssertEqual(try db.read().indexLookup("Person", "age", .int(30)).count, 2)
        db.close()
        db = try open([personV0], 2)
        r = try db.read()
        XCTAssertNil(try r.storage.tree("i/Person/age"), "a removed index's tree is dropped")
        XCTAssertEqual(try r.count("Person"), 51)
        r.end()
        check(db)
    }

    private let dogV0 = ObjectSchema(className: "Dog", properties: [
        prop("name", .string), prop("owner", .object, optional: true, target: "Owner"), prop("friends", .object, .list, target: "Owner"),
    ])
    private let ownerV0 = ObjectSchema(className: "Owner", properties: [prop("code", .int), prop("label", .string)])

    private func seedOwnersAndDogs() throws {
        let db = try open([ownerV0, dogV0], 0)
        let w = try db.write()
        var owners: [ObjKey] = []
        for i in 0..<5 { owners.append(try w.create("Owner", values: ["code": .int(Int64(i)), "label": .string("o\(i)")])) }
        for i in 0..<5 {
            let d = try w.create("Dog", values: ["name": .string("d\(i)"), "owner": .object(ObjectLink(className: "Owner", key: owners[i]))])
            try w.setList("Dog", d, "friends", [.object(ObjectLink(className: "Owner", key: owners[(i + 1) % 5]))])
        }
        try w.commit()
        db.close()
    }

    func testPrimaryKeyChangeReKeysObjectsAndKeepsLinks() throws {
        try seedOwnersAndDogs()
        let ownerV1 = ObjectSchema(className: "Owner", properties: [prop("code", .int, pk: true), prop("label", .string)])
        let db = try open([ownerV1, dogV0], 1) { m, _ in
            // New primary key values (keys move: 0→100, 1→101 …; 100+ collide with nothing).
            m.enumerateObjects(ofType: "Owner") { o, n in n!["code"] = 100 + (o!["code"] as! Int) }
        }
        let r = try db.read()
        defer { r.end() }
        XCTAssertEqual(try r.objectKeys("Owner"), [100, 101, 102, 103, 104], "an Int primary key is the object key")
        for d in try r.objectKeys("Dog") {
            guard case .string(let name) = try r.value("Dog", d, "name"), let i = Int(name.dropFirst()) else { return XCTFail() }
            guard case .object(let l) = try r.value("Dog", d, "owner") else { return XCTFail("link lost") }
            XCTAssertEqual(try r.value("Owner", l.key, "label"), .string("o\(i)"))
            let friends = try r.list("Dog", d, "friends")
            XCTAssertEqual(friends, [.object(ObjectLink(className: "Owner", key: Int64(100 + (i + 1) % 5)))])
        }
        XCTAssertEqual(try r.find("Owner", primaryKey: .int(103)), 103)
        check(db)
    }

    func testStringPrimaryKeyAddedThroughTheBlockIsIndexed() throws {
        try seedOwnersAndDogs()
        let ownerV1 = ObjectSchema(className: "Owner", properties: [prop("code", .int), prop("label", .string), prop("uid", .string, pk: true)])
        let db = try open([ownerV1, dogV0], 1) { m, _ in
            m.enumerateObjects(ofType: "Owner") { o, n in n!["uid"] = "u-\(o!["label"] as! String)" }
        }
        let r = try db.read()
        defer { r.end() }
        let k = try XCTUnwrap(r.find("Owner", primaryKey: .string("u-o3")))
        XCTAssertEqual(try r.value("Owner", k, "code"), .int(3))
        check(db)
    }

    func testDuplicatePrimaryKeysAfterTheMigrationLeaveTheFileUnchanged() throws {
        try seedOwnersAndDogs()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let ownerV1 = ObjectSchema(className: "Owner", properties: [prop("code", .int, pk: true), prop("label", .string)])
        XCTAssertThrowsError(try open([ownerV1, dogV0], 1) { m, _ in
            m.enumerateObjects(ofType: "Owner") { _, n in n!["code"] = 7 }
        }) { e in
            guard case .duplicatePrimaryKey(let c, let v) = e as? ObjectError else { return XCTFail("\(e)") }
            XCTAssertEqual(c, "Owner"); XCTAssertEqual(v, "7")
        }
        // No block at all: the added String primary key is "" for everyone.
        let ownerV2 = ObjectSchema(className: "Owner", properties: [prop("code", .int), prop("label", .string), prop("uid", .string, pk: true)])
        XCTAssertThrowsError(try open([ownerV2, dogV0], 1)) { e in
            guard case .duplicatePrimaryKey = e as? ObjectError else { return XCTFail("\(e)") }
        }
        try assertUnchanged(before)
    }

    private func assertUnchanged(_ before: Data, file: StaticString = #filePath, line: UInt = #line) throws {
        let db = try Database(path: path)
        let (schema, version) = try Database.readSchema(db.store)
        XCTAssertEqual(version, 0, file: file, line: line)
        XCTAssertEqual(schema, Schema([ownerV0, dogV0]), file: file, line: line)
        let r = try db.read()
        XCTAssertEqual(try r.count("Owner"), 5, file: file, line: line)
        XCTAssertEqual(try r.objectKeys("Owner"), [0, 1, 2, 3, 4], file: file, line: line)
        r.end()
        check(db, file: file, line: line)
        db.close()
        // The data pages of the old version were never overwritten: the file holds the same
        // newest version (the aborted transaction wrote nothing a reader can reach).
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(before.prefix(8192), after.prefix(8192), "meta slots unchanged", file: file, line: line)
    }

    func testThrowingBlockLeavesTheFileUnchanged() throws {
        try seedOwnersAndDogs()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let ownerV1 = ObjectSchema(className: "Owner", properties: [prop("code", .int), prop("title", .string)])
        XCTAssertThrowsError(try open([ownerV1, dogV0], 1) { m, _ in
            m.renameProperty(onType: "Owner", from: "label", to: "title")
            m.enumerateObjects(ofType: "Dog") { _, n in m.delete(n!) }
            throw Boom()
        }) { XCTAssertEqual($0 as? Boom, Boom()) }
        // A failed operation inside the block fails the migration too.
        XCTAssertThrowsError(try open([ownerV1, dogV0], 1) { m, _ in
            m.renameProperty(onType: "Owner", from: "nope", to: "title")
        }) { e in
            guard case .invalidOperation(let s) = e as? MigrationError else { return XCTFail("\(e)") }
            XCTAssertTrue(s.contains("'nope'"), s)
        }
        try assertUnchanged(before)
    }

    func testLowerSchemaVersionIsAnError() throws {
        try seedPeople()
        _ = try open([personV0], 3).close()
        XCTAssertThrowsError(try open([personV0], 2)) { e in
            guard case .schemaVersionDecreased(_, let f, let c) = e as? MigrationError else { return XCTFail("\(e)") }
            XCTAssertEqual(f, 3); XCTAssertEqual(c, 2)
            XCTAssertTrue("\(e)".contains("lower than the file's schema version 3"), "\(e)")
        }
    }

    func testDifferentSchemaWithoutVersionBumpNamesEachDifference() throws {
        try seedPeople()
        let changed = ObjectSchema(className: "Person", properties: [
            prop("id", .int, pk: true), prop("name", .string, indexed: true), prop("age", .string), prop("extra", .bool),
            prop("tags", .string, .list), prop("scores", .int, .map),
        ])
        XCTAssertThrowsError(try open([changed], 0)) { e in
            guard case .migrationRequired(let diffs) = e as? SchemaError else { return XCTFail("\(e)") }
            XCTAssertEqual(Set(diffs), [
                "property 'Person.extra' was added", "property 'Person.nick' was removed",
                "property 'Person.age' changed type from int to string", "index on 'Person.name' was added",
            ])
            XCTAssertTrue("\(e)".contains("Increase schemaVersion"), "\(e)")
        }
    }

    func testVersionBumpWithoutChangesRunsTheBlock() throws {
        try seedPeople()
        let ran = Locked(false)
        let db = try open([personV0], 1) { m, old in
            ran.with { $0 = true }
            m.enumerateObjects(ofType: "Person") { _, n in n!["age"] = 1 }
        }
        XCTAssertTrue(ran.with { $0 })
        let r = try db.read()
        XCTAssertEqual(try r.value("Person", 1, "age"), .int(1))
        r.end()
        check(db)
    }

    func testEmbeddedObjectsAndLinksSurviveARewrite() throws {
        let addr = ObjectSchema(className: "Addr", properties: [prop("city", .string)], isEmbedded: true)
        let home = ObjectSchema(className: "Home", properties: [prop("name", .string), prop("addr", .object, optional: true, target: "Addr"),
                                                               prop("rooms", .int, .list)])
        do {
            let db = try open([addr, home], 0)
            let w = try db.write()
            let h = try w.create("Home", values: ["name": .string("h")])
            try w.setEmbedded("Home", h, "addr", ["city": .string("Oslo")])
            try w.setList("Home", h, "rooms", [.int(1), .int(2)])
            try w.commit(); db.close()
        }
        let addr1 = ObjectSchema(className: "Addr", properties: [prop("city", .string), prop("zip", .string)], isEmbedded: true)
        let home1 = ObjectSchema(className: "Home", properties: [prop("title", .string), prop("addr", .object, optional: true, target: "Addr"),
                                                                prop("rooms", .int, .list)])
        let db = try open([addr1, home1], 1) { m, _ in
            m.renameProperty(onType: "Home", from: "name", to: "title")
            m.enumerateObjects(ofType: "Addr") { _, n in n!["zip"] = "0150" }
        }
        let r = try db.read()
        let h = try r.objectKeys("Home")[0]
        XCTAssertEqual(try r.value("Home", h, "title"), .string("h"))
        XCTAssertEqual(try r.list("Home", h, "rooms"), [.int(1), .int(2)])
        guard case .object(let a) = try r.value("Home", h, "addr") else { return XCTFail() }
        XCTAssertEqual(try r.value("Addr", a.key, "city"), .string("Oslo"))
        XCTAssertEqual(try r.value("Addr", a.key, "zip"), .string("0150"))
        r.end()
        check(db)
    }

    func testReadOnlyHandleCannotMigrate() throws {
        try seedPeople()
        var o = StoreOptions(); o.readOnly = true
        var v1 = personV0; v1.properties.append(prop("more", .int))
        XCTAssertThrowsError(try Database(store: Store(path: path, options: o), schema: Schema([v1]), schemaVersion: 1, migrationBlock: nil)) { e in
            guard case .readOnly = e as? MigrationError else { return XCTFail("\(e)") }
        }
    }
}

// MARK: - the typed API

final class MPersonV1: Object {
    override class func className() -> String { "MPerson" }
    @Persisted(primaryKey: true) var id: Int
    @Persisted var first = ""
    @Persisted var last = ""
    @Persisted var age = 0
    @Persisted var pets: List<MPetV1>
}
final class MPetV1: Object {
    override class func className() -> String { "MPet" }
    @Persisted var name = ""
    @Persisted var owner: MPersonV1?
}
final class MPersonV2: Object {
    override class func className() -> String { "MPerson" }
    @Persisted(primaryKey: true) var id: Int
    @Persisted var fullName = ""
    @Persisted var yearsOld = 0
    @Persisted var note: String?
    @Persisted var pets: List<MPetV2>
}
final class MPetV2: Object {
    override class func className() -> String { "MPet" }
    @Persisted(indexed: true) var name = ""
    @Persisted var owner: MPersonV2?
}

final class TypedMigrationTests: XCTestCase {
    func testTypedMigrationEndToEnd() throws {
        let dir = TempDir()
        let url = dir.url.appendingPathComponent("typed.strata")
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [MPersonV1.self, MPetV1.self]))
            try realm.write {
                for i in 1...3 {
                    let p = MPersonV1(); p.id = i; p.first = "F\(i)"; p.last = "L\(i)"; p.age = 30 + i
                    let pet = MPetV1(); pet.name = "pet\(i)"; pet.owner = p
                    p.pets.append(pet)
                    realm.add(p)
                }
            }
        }
        // Same classes, no version bump: a clear error naming the differences.
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [MPersonV2.self, MPetV2.self]))) { e in
            XCTAssertTrue("\(e)".contains("property 'MPerson.fullName' was added"), "\(e)")
            XCTAssertTrue("\(e)".contains("index on 'MPet.name' was added"), "\(e)")
        }
        let cfg = Realm.Configuration(fileURL: url, schemaVersion: 2, migrationBlock: { migration, old in
            migration.renameProperty(onType: "MPerson", from: "age", to: "yearsOld")
            migration.enumerateObjects(ofType: "MPerson") { o, n in
                n!["fullName"] = "\(o!["first"] as! String) \(o!["last"] as! String)"
            }
        }, objectTypes: [MPersonV2.self, MPetV2.self])
        let realm = try Realm(configuration: cfg)
        let p2 = try XCTUnwrap(realm.object(ofType: MPersonV2.self, forPrimaryKey: 2))
        XCTAssertEqual(p2.fullName, "F2 L2")
        XCTAssertEqual(p2.yearsOld, 32)
        XCTAssertNil(p2.note)
        XCTAssertEqual(p2.pets.map(\.name), ["pet2"])
        XCTAssertEqual(p2.pets.first?.owner?.id, 2)
        XCTAssertEqual(realm.database.schemaVersion, 2)
        assertIntegrity(realm)
        // A lower version afterwards is an error.
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 1, objectTypes: [MPersonV2.self, MPetV2.self]))) {
            guard case .schemaVersionDecreased = (($0 as? Realm.Error)?.underlyingError ?? $0) as? MigrationError else { return XCTFail("\($0)") }
        }
    }

    func testDeleteRealmIfMigrationNeededOnVersionChange() throws {
        let dir = TempDir()
        let url = dir.url.appendingPathComponent("del.strata")
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [MPersonV1.self, MPetV1.self]))
            try realm.write { let p = MPersonV1(); p.id = 1; realm.add(p) }
        }
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 3, deleteRealmIfMigrationNeeded: true,
                                                                 objectTypes: [MPersonV2.self, MPetV2.self]))
        XCTAssertEqual(realm.objects(MPersonV2.self).count, 0)
        XCTAssertEqual(realm.database.schemaVersion, 3)
        try realm.write { let p = MPersonV2(); p.id = 1; p.fullName = "new"; realm.add(p) }
        assertIntegrity(realm)
    }
}
