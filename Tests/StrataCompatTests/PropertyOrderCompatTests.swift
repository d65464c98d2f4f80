import Foundation
import XCTest
import Strata
import StrataStorage

final class COrderV1: Object {
    override class func className() -> String { "COrder" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var score = 0.0
}

/// The same model with its properties declared in another order (RealmSwift: the same schema).
final class COrderV2: Object {
    override class func className() -> String { "COrder" }
    @Persisted var score = 0.0
    @Persisted var age = 0
    @Persisted var name = ""
    @Persisted(primaryKey: true) var id = 0
}

/// The same model with `name` indexed (RealmSwift: no migration needed).
final class COrderV3: Object {
    override class func className() -> String { "COrder" }
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var score = 0.0
}

/// Reordering the `@Persisted` declarations of a model needs no migration and reads the same
/// values (it read one column as another: the file stores columns in its own schema's order).
final class PropertyOrderCompatTests: XCTestCase {
    func testReorderedDeclarationsReadAndWriteTheSameValues() throws {
        let dir = CompatDir()
        do {
            let realm = try Realm(configuration: dir.config(types: [COrderV1.self]))
            try realm.write { realm.add(COrderV1(value: ["id": 1, "name": "ann", "age": 31, "score": 2.5])) }
        }
        let realm = try Realm(configuration: dir.config(types: [COrderV2.self]))
        let ann = try XCTUnwrap(realm.object(ofType: COrderV2.self, forPrimaryKey: 1))
        XCTAssertEqual([ann.name, "\(ann.age)", "\(ann.score)"], ["ann", "31", "2.5"])
        try realm.write { realm.add(COrderV2(value: ["id": 2, "name": "bo", "age": 40, "score": 1.5])) }
        XCTAssertEqual(realm.objects(COrderV2.self).filter("age > 35").map(\.name), ["bo"])
        XCTAssertEqual(realm.objects(COrderV2.self).sorted(byKeyPath: "score").map(\.id), [2, 1])
    }

    func testAddingAnIndexNeedsNoSchemaVersionBump() throws {
        let dir = CompatDir()
        do {
            let realm = try Realm(configuration: dir.config(types: [COrderV1.self]))
            try realm.write { for i in 1...20 { realm.add(COrderV1(value: ["id": i, "name": "n\(i % 4)", "age": i, "score": 0.5])) } }
        }
        let realm = try Realm(configuration: dir.config(types: [COrderV3.self]))
        XCTAssertEqual(realm.objects(COrderV3.self).filter("name == 'n1'").count, 5)
        XCTAssertEqual(realm.objects(COrderV3.self).where { $0.name == "n2" }.map(\.id).sorted(), [2, 6, 10, 14, 18])
        try realm.write { realm.add(COrderV3(value: ["id": 21, "name": "n1", "age": 21, "score": 1.0])) }
        XCTAssertEqual(realm.objects(COrderV3.self).filter("name == 'n1'").count, 6)
        XCTAssertEqual(realm.schema["COrder"]?.properties.first { $0.name == "name" }?.isIndexed, true)
    }

    /// realm-core adds an index another process asks for without stopping this realm: a realm
    /// whose model has no index on `name` goes on writing, keeps the file's index current, and
    /// its queries use it.
    func testARealmWhoseModelLacksAnIndexAddedElsewhereKeepsWritingAndTheIndexFindsItsObjects() throws {
        let dir = CompatDir()
        let config = dir.config(types: [COrderV1.self])
        let realm = try Realm(configuration: config)
        try realm.write { for i in 1...20 { realm.add(COrderV1(value: ["id": i, "name": "n\(i % 4)", "age": i, "score": 0.5])) } }
        // Another handle on its own store (as another process has) opens the file with `name` indexed.
        var schema = realm.schema
        let c = try XCTUnwrap(schema.objectSchemas.firstIndex { $0.className == "COrder" })
        let n = try XCTUnwrap(schema.objectSchemas[c].properties.firstIndex { $0.name == "name" })
        schema.objectSchemas[c].properties[n].isIndexed = true
        let other = try Database(store: try Store(path: try XCTUnwrap(config.fileURL).path), schema: schema, schemaVersion: 0)

        try realm.write {
            realm.add(COrderV1(value: ["id": 21, "name": "n1", "age": 21, "score": 1.0]))
            realm.object(ofType: COrderV1.self, forPrimaryKey: 2)?.name = "two"
            if let three = realm.object(ofType: COrderV1.self, forPrimaryKey: 3) { realm.delete(three) }
        }
        XCTAssertEqual(realm.schema["COrder"]?["name"]?.isIndexed, true)
        XCTAssertEqual(realm.objects(COrderV1.self).filter("name == 'n1'").map(\.id).sorted(), [1, 5, 9, 13, 17, 21])
        XCTAssertEqual(realm.objects(COrderV1.self).where { $0.name == "two" }.map(\.id), [2])
        let r = try other.read()
        XCTAssertEqual(try r.indexLookup("COrder", "name", .string("n1")).sorted(), [1, 5, 9, 13, 17, 21])
        XCTAssertEqual(try r.indexLookup("COrder", "name", .string("two")), [2])
        XCTAssertEqual(try r.indexLookup("COrder", "name", .string("n2")).sorted(), [6, 10, 14, 18])
        XCTAssertEqual(try r.indexLookup("COrder", "name", .string("n3")).sorted(), [7, 11, 15, 19])
        r.end()
        XCTAssertTrue(try realm.checkIntegrity().isSound)
    }
}
