import XCTest
import Foundation
@testable import StrataObjects
@testable import StrataStorage

final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-obj-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

func assertSound(_ db: Database, file: StaticString = #filePath, line: UInt = #line) {
    do {
        let r = try db.store.check()
        XCTAssertTrue(r.isSound, "integrity problems: \(r.problems.prefix(5))", file: file, line: line)
    } catch { XCTFail("check threw \(error)", file: file, line: line) }
}

let testSchema = Schema([
    ObjectSchema(className: "Person", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true),
        PropertySchema(name: "name", type: .string, isIndexed: true),
        PropertySchema(name: "age", type: .int),
        PropertySchema(name: "score", type: .double, isOptional: true),
        PropertySchema(name: "dogs", type: .object, collection: .list, objectClassName: "Dog"),
        PropertySchema(name: "tags", type: .string, collection: .set),
        PropertySchema(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
        PropertySchema(name: "extra", type: .mixed),
        PropertySchema(name: "scores", type: .int, collection: .map),
    ]),
    ObjectSchema(className: "Dog", properties: [
        PropertySchema(name: "oid", type: .objectId, isPrimaryKey: true),
        PropertySchema(name: "name", type: .string),
        PropertySchema(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
        PropertySchema(name: "born", type: .date, isOptional: true),
        PropertySchema(name: "uuid", type: .uuid, isOptional: true),
        PropertySchema(name: "walkers", type: .linkingObjects, objectClassName: "Person", linkOriginPropertyName: "dogs"),
    ]),
    ObjectSchema(className: "Address", properties: [
        PropertySchema(name: "street", type: .string),
        PropertySchema(name: "city", type: .string),
    ], isEmbedded: true),
])

final class DynamicAPITests: XCTestCase {
    func testCreateReadUpdateDeleteAcrossReopen() throws {
        let dir = TempDir()
        let path = dir.path("d.strata")
        let rexId = ObjectId.generate()
        do {
            let db = try Database(path: path, schema: testSchema)
            let w = try db.write()
            let rex = try w.create("Dog", values: ["oid": .objectId(rexId), "name": .string("Rex"), "born": .date(Date(timeIntervalSince1970: 1_600_000_000))])
            let p = try w.create("Person", values: ["id": .int(7), "name": .string("Ada 🐙 李"), "age": .int(36), "extra": .string("mixed!")],
                                 embedded: ["address": ["street": .string("1 Main"), "city": .string("Oslo")]],
                                 collections: ["dogs": [.object(ObjectLink(className: "Dog", key: rex))], "tags": [.string("a"), .string("b"), .string("a")]],
                                 maps: ["scores": [("scores", Value.int(3)), ("math", Value.int(5))]])
            XCTAssertEqual(p, 7, "an Int primary key is the object key")
            try w.set("Dog", rex, "owner", .object(ObjectLink(className: "Person", key: 7)))
            XCTAssertThrowsError(try w.create("Person", values: ["id": .int(7), "name": .string("dup")])) {
                XCTAssertEqual($0 as? ObjectError, .duplicatePrimaryKey(className: "Person", value: "7"))
            }
            try w.commit()
            assertSound(db)
            db.close()
        }
        let db = try Database(path: path, schema: testSchema)
        let r = try db.read()
        XCTAssertEqual(try r.count("Person"), 1)
        XCTAssertEqual(try r.count("Address"), 1)
        XCTAssertEqual(try r.value("Person", 7, "name"), .string("Ada 🐙 李"))
        XCTAssertEqual(try r.value("Person", 7, "score"), .null)
        XCTAssertEqual(try r.value("Person", 7, "extra"), .string("mixed!"))
        XCTAssertEqual(try r.list("Person", 7, "tags"), [.string("a"), .string("b")])
        XCTAssertEqual(try r.map("Person", 7, "scores").map(\.key), ["math", "scores"])
        let rex = try XCTUnwrap(try r.find("Dog", primaryKey: .objectId(rexId)))
        XCTAssertEqual(try r.list("Person", 7, "dogs"), [.object(ObjectLink(className: "Dog", key: rex))])
        XCTAssertEqual(try r.backlinks("Dog", rex, originClass: "Person", originProperty: "dogs"), [7])
        XCTAssertEqual(try r.value("Dog", rex, "born"), .date(Date(timeIntervalSince1970: 1_600_000_000)))
        guard case .object(let addr) = try r.value("Person", 7, "address") else { return XCTFail() }
        XCTAssertEqual(try r.value("Address", addr.key, "city"), .string("Oslo"))
        XCTAssertEqual(try r.indexLookup("Person", "name", .string("Ada 🐙 李")), [7])
        r.end()
        // Delete the person: the embedded address goes too; the dog's owner link becomes null.
        let w = try db.write()
        try w.delete("Person", 7)
        try w.commit()
        let r2 = try db.read()
        XCTAssertEqual(try r2.count("Person"), 0)
        XCTAssertEqual(try r2.count("Address"), 0)
        XCTAssertEqual(try r2.value("Dog", rex, "owner"), .null)
        XCTAssertEqual(try r2.indexLookup("Person", "name", .string("Ada 🐙 李")), [])
        r2.end()
        assertSound(db)
    }

    func testManyObjectsPositionsAndClusters() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("m.strata"), schema: testSchema)
        var w = try db.write()
        for i in 0..<10_000 { try w.create("Person", values: ["id": .int(Int64(i * 2)), "name": .string("p\(i)"), "age": .int(Int64(i % 90))]) }
        try w.commit()
        var r = try db.read()
        XCTAssertEqual(try r.count("Person"), 10_000)
        XCTAssertEqual(try r.objectKey("Person", at: 0), 0)
        XCTAssertEqual(try r.objectKey("Person", at: 5000), 10_000)
        XCTAssertEqual(try r.objectKeys("Person", from: 1020, count: 10), (1020..<1030).map { Int64($0 * 2) })
        XCTAssertEqual(try r.value("Person", 19_998, "name"), .string("p9999"))
        r.end()
        // Odd keys inserted in between (cluster splits in the middle), some deleted, some updated.
        w = try db.write()
        for i in stride(from: 1, to: 4000, by: 2) { try w.create("Person", values: ["id": .int(Int64(i)), "name": .string("odd\(i)")]) }
        for i in stride(from: 0, to: 20_000, by: 6) { try w.delete("Person", Int64(i)) }
        for i in stride(from: 2, to: 20_000, by: 6) { try w.set("Person", Int64(i), "score", .double(Double(i) / 2)) }
        XCTAssertEqual(try w.count("Person"), 10_000 + 2000 - 3334)
        try w.commit()
        r = try db.read()
        let keys = try r.objectKeys("Person")
        var expected = Set((0..<10_000).map { Int64($0 * 2) }).union(stride(from: 1, to: 4000, by: 2).map { Int64($0) })
        for i in stride(from: 0, to: 20_000, by: 6) { expected.remove(Int64(i)) }
        XCTAssertEqual(keys, expected.sorted())
        XCTAssertEqual(try r.value("Person", 8, "score"), .double(4))
        XCTAssertEqual(try r.value("Person", 4, "score"), .null)
        XCTAssertEqual(try r.objectKey("Person", at: 3), keys[3])
        r.end()
        assertSound(db)
    }

    func testLimitsAndErrors() throws {
        let dir = TempDir()
        let long = String(repeating: "x", count: 58)
        XCTAssertThrowsError(try Schema([ObjectSchema(className: long, properties: [])]).validate()) {
            XCTAssertEqual($0 as? SchemaError, .classNameTooLong(long, 58))
        }
        XCTAssertThrowsError(try Schema([ObjectSchema(className: "A", properties: [PropertySchema(name: String(repeating: "p", count: 64), type: .int)])]).validate())
        let db = try Database(path: dir.path("e.strata"), schema: testSchema)
        let w = try db.write()
        XCTAssertThrowsError(try w.create("Person", values: ["id": .int(1), "name": .string(String(repeating: "z", count: (16 << 20) + 1))])) {
            guard case .valueTooLarge = $0 as? ObjectError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try w.create("Person", values: ["id": .int(1), "age": .string("old")])) {
            XCTAssertEqual("\($0)", "'Person.age' holds int values, not string")
        }
        XCTAssertThrowsError(try w.create("Person", values: ["name": .string("no pk")])) {
            XCTAssertEqual($0 as? ObjectError, .missingPrimaryKey(className: "Person"))
        }
        XCTAssertThrowsError(try w.create("Nope", values: [:])) { XCTAssertEqual($0 as? SchemaError, .noSuchClass("Nope")) }
        try w.create("Person", values: ["id": .int(1), "name": .string(String(repeating: "z", count: 16 << 20))])
        try w.commit()
        // A different schema without migration is a clear error.
        var changed = testSchema
        changed.objectSchemas[changed.objectSchemas.firstIndex { $0.className == "Person" }!].properties.append(PropertySchema(name: "nick", type: .string))
        db.close()
        XCTAssertThrowsError(try Database(path: dir.path("e.strata"), schema: changed)) {
            XCTAssertEqual($0 as? SchemaError, .migrationRequired(["property 'Person.nick' was added"]))
        }
    }

    func testAppendObjectsFastPathAndFallback() throws {
        let dir = TempDir()
        let schema = Schema([ObjectSchema(className: "Item", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true),
            PropertySchema(name: "name", type: .string),
            PropertySchema(name: "score", type: .double, isOptional: true),
            PropertySchema(name: "flag", type: .bool),
        ])])
        let db = try Database(path: dir.path("b.strata"), schema: schema)
        var w = try db.write()
        // Fast path: increasing keys; spans several clusters; `score` omitted → null.
        try w.appendObjects("Item", count: 2500, columns: ["id": .ints((0..<2500).map { Int64($0 * 2) }),
                                                           "name": .strings((0..<2500).map { "n\($0) ✓" }),
                                                           "flag": .bools((0..<2500).map { $0 % 3 == 0 })])
        // Fallback: keys in the middle (odd) go in one by one.
        try w.appendObjects("Item", count: 3, columns: ["id": .ints([1, 3, 5]), "name": .values([.string("a"), .string("b"), .string("c")])])
        XCTAssertThrowsError(try w.appendObjects("Item", count: 1, columns: ["id": .ints([4])])) {
            XCTAssertEqual($0 as? ObjectError, .duplicatePrimaryKey(className: "Item", value: "4"))
        }
        XCTAssertThrowsError(try w.appendObjects("Item", count: 2, columns: ["id": .ints([10_000])]))
        XCTAssertEqual(try w.count("Item"), 2503)
        try w.commit()
        let r = try db.read()
        XCTAssertEqual(try r.count("Item"), 2503)
        XCTAssertEqual(try r.value("Item", 4998, "name"), .string("n2499 ✓"))
        XCTAssertEqual(try r.value("Item", 3, "name"), .string("b"))
        XCTAssertEqual(try r.value("Item", 6, "flag"), .bool(true))
        XCTAssertEqual(try r.value("Item", 8, "score"), .null)
        XCTAssertEqual(try r.objectKey("Item", at: 2), 2)
        XCTAssertEqual(try r.objectKeys("Item").count, 2503)
        r.end()
        assertSound(db)
        w = try db.write()
        try w.appendObjects("Item", count: 2, columns: ["id": .ints([9000, 9001]), "name": .strings(["x", "y"])])
        try w.commit()
        XCTAssertEqual(try db.read().value("Item", 9001, "name"), .string("y"))
        assertSound(db)
    }

    /// Clusters whose keys are dense record it and are read without their key column; a delete
    /// or a gap makes the next commit write them as ordinary clusters. Lookups of present and
    /// missing keys must agree with a model either way, across reopening.
    func testDenseAndSparseClusterKeys() throws {
        let dir = TempDir()
        let path = dir.path("d.strata")
        let schema = Schema([ObjectSchema(className: "Item", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true),
            PropertySchema(name: "v", type: .int),
        ])])
        var present = Set<Int64>()
        do {
            let db = try Database(path: path, schema: schema)
            let w = try db.write()
            try w.appendObjects("Item", count: 3000, columns: ["id": .ints((0..<3000).map { Int64($0) }), "v": .ints((0..<3000).map { Int64($0) * 7 })])
            try w.commit()
            present = Set(0..<3000)
            let w2 = try db.write()
            try w2.delete("Item", keys: [5, 1500, 2999])                       // holes: first, middle and last cluster
            try w2.insertRow("Item", [.int(10_000), .int(70_000)])             // a gap after the last key
            try w2.insertRow("Item", [.int(-4), .int(-28)])                     // before the first key
            try w2.commit()
            present.subtract([5, 1500, 2999]); present.formUnion([10_000, -4])
            db.close()
        }
        let db = try Database(path: path, schema: schema)
        let r = try db.read()
        defer { r.end() }
        let column = try r.columnIndex("Item", "v")
        for key in Array(Int64(-10)..<3010) + [9_999, 10_000, 10_001] {
            let found = try r.locateObject("Item", key)
            XCTAssertEqual(found != nil, present.contains(key), "key \(key)")
            if let (c, row) = found {
                XCTAssertEqual(c.key(row), key)
                XCTAssertEqual(try c.column(at: column).int(row), key * 7)
            }
            XCTAssertEqual(try r.exists("Item", key), present.contains(key))
        }
        XCTAssertEqual(try r.objectKeys("Item"), present.sorted())
        assertSound(db)
    }
}
