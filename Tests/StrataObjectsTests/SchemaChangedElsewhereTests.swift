import XCTest
import Foundation
@testable import StrataObjects
import StrataStorage

private func prop(_ name: String, _ type: PropertyType, pk: Bool = false, indexed: Bool = false) -> PropertySchema {
    PropertySchema(name: name, type: type, collection: .single, isOptional: false, objectClassName: nil, isPrimaryKey: pk, isIndexed: indexed)
}

/// A handle reads and writes a class by the columns of the file's schema: a model that lists
/// the same properties in another order reads the same values, and a handle whose classes
/// another handle (process) migrated since it opened the file stops with an error instead of
/// reading one column as another or writing into the wrong ones.
final class SchemaChangedElsewhereTests: XCTestCase {
    var dir: TempDir!
    var path: String { dir.path("s.strata") }
    override func setUp() { dir = TempDir() }

    private let v0 = ObjectSchema(className: "P", properties: [prop("id", .int, pk: true), prop("name", .string), prop("age", .int), prop("score", .double)])

    /// A second handle on its own `Store`, as another process has.
    private func otherHandle(_ classes: [ObjectSchema], version: UInt64, block: MigrationBlock? = nil) throws -> Database {
        var options = StoreOptions(); options.create = false
        return try Database(store: try Store(path: path, options: options), schema: Schema(classes), schemaVersion: version, migrationBlock: block)
    }

    private func seed(_ db: Database) throws {
        let w = try db.write()
        _ = try w.create("P", values: ["id": .int(1), "name": .string("ann"), "age": .int(31), "score": .double(2.5)])
        try w.commit()
    }

    func testAModelListingThePropertiesInAnotherOrderReadsAndWritesTheSameColumns() throws {
        do { let a = try Database(path: path, schema: Schema([v0]), schemaVersion: 0); try seed(a); a.close() }
        let reordered = ObjectSchema(className: "P", properties: [prop("score", .double), prop("age", .int), prop("name", .string), prop("id", .int, pk: true)])
        let b = try Database(path: path, schema: Schema([reordered]), schemaVersion: 0)
        let r = try b.read()
        let k = try XCTUnwrap(try r.objectKeys("P").first)
        XCTAssertEqual(try r.values("P", k), ["id": .int(1), "name": .string("ann"), "age": .int(31), "score": .double(2.5)])
        r.end()
        let w = try b.write()
        _ = try w.create("P", values: ["id": .int(2), "name": .string("bo"), "age": .int(40), "score": .double(1)])
        try w.commit()
        b.close()
        let c = try Database(path: path)
        let rc = try c.read()
        let values = try rc.objectKeys("P").map { try rc.values("P", $0) }
        XCTAssertEqual(values.map { $0["name"] }, [.string("ann"), .string("bo")])
        XCTAssertEqual(values.map { $0["age"] }, [.int(31), .int(40)])
        XCTAssertTrue(try c.store.check().isSound)
    }

    func testAHandleWhoseClassAnotherHandleMigratedStopsBeforeReadingOrWriting() throws {
        let a = try Database(path: path, schema: Schema([v0]), schemaVersion: 0)
        try seed(a)
        let v1 = ObjectSchema(className: "P", properties: [prop("id", .int, pk: true), prop("age", .int), prop("city", .string, indexed: true)])
        let b = try otherHandle([v1], version: 1)
        let wb = try b.write()
        _ = try wb.create("P", values: ["id": .int(2), "age": .int(5), "city": .string("Oslo")])
        try wb.commit()
        let before = try b.store.newestMeta().version

        for attempt in ["read", "write"] {
            XCTAssertThrowsError(attempt == "read" ? try a.read() : try a.write(), attempt) { error in
                guard case SchemaError.changedByAnotherProcess(let changes) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(changes, ["property 'P.city' was added", "property 'P.name' was removed", "property 'P.score' was removed"])
                XCTAssertTrue("\(error)".contains("open the file again"), "\(error)")
            }
        }
        XCTAssertThrowsError(try a.tryWrite())
        // Nothing was written, the write lock is free again, the migrated data is intact.
        XCTAssertEqual(try b.store.newestMeta().version, before)
        let rb = try b.read()
        XCTAssertEqual(try rb.objectKeys("P").map { try rb.values("P", $0)["age"] }, [.int(31), .int(5)])
        rb.end()
        let wb2 = try b.write(); try wb2.set("P", 2, "age", .int(6)); try wb2.commit()
        XCTAssertTrue(try b.store.check().isSound)
    }

    func testClassesAnotherHandleAddsLeaveThisHandleWorking() throws {
        let a = try Database(path: path, schema: Schema([v0]), schemaVersion: 0)
        try seed(a)
        let extra = ObjectSchema(className: "Q", properties: [prop("x", .int)])
        let b = try otherHandle([v0, extra], version: 0)
        let wb = try b.write(); _ = try wb.create("Q", values: ["x": .int(1)]); try wb.commit()
        let w = try a.write()
        try w.set("P", 1, "age", .int(32))
        try w.commit()
        let r = try a.read()
        XCTAssertEqual(try r.values("P", 1)["age"], .int(32))
    }

    func testAClassDeletedByAnotherHandlesMigrationStopsThisHandle() throws {
        let keep = ObjectSchema(className: "K", properties: [prop("x", .int)])
        let a = try Database(path: path, schema: Schema([v0, keep]), schemaVersion: 0)
        try seed(a)
        _ = try otherHandle([keep], version: 1) { m, _ in m.deleteData(forType: "P") }
        XCTAssertThrowsError(try a.write()) { error in
            guard case SchemaError.changedByAnotherProcess(let changes) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(changes, ["class 'P' was deleted"])
        }
    }

    func testIndexChangesApplyWithoutASchemaVersionBump() throws {
        do {
            let a = try Database(path: path, schema: Schema([v0]), schemaVersion: 0)
            let w = try a.write()
            for i in 1...50 { _ = try w.create("P", values: ["id": .int(Int64(i)), "name": .string("n\(i % 5)"), "age": .int(Int64(i)), "score": .double(0)]) }
            try w.commit()
            a.close()
        }
        var indexed = v0
        indexed.properties[1] = prop("name", .string, indexed: true)
        // A read-only handle that wants the index reads by the file's (none): no migration, and
        // the lookups a query makes do not go to an index tree that does not exist.
        var readOnly = StoreOptions(); readOnly.readOnly = true
        let ro = try Database(store: try Store(path: path, options: readOnly), schema: Schema([indexed]), schemaVersion: 0)
        XCTAssertFalse(try ro.read().hasIndex("P", "name"))
        ro.close()

        let b = try Database(path: path, schema: Schema([indexed]), schemaVersion: 0)
        XCTAssertEqual(b.schemaVersion, 0)
        let r = try b.read()
        XCTAssertTrue(r.hasIndex("P", "name"))
        XCTAssertEqual(try r.indexLookup("P", "name", .string("n3")).count, 10)
        XCTAssertEqual(try r.values("P", 7)["age"], .int(7))
        r.end()
        XCTAssertTrue(try b.store.check().isSound)
        b.close()
        XCTAssertEqual(try Database.readSchema(try Store(path: path)).0?["P"]?["name"]?.isIndexed, true)

        let c = try Database(path: path, schema: Schema([v0]), schemaVersion: 0)
        let rc = try c.read()
        XCTAssertFalse(rc.hasIndex("P", "name"))
        XCTAssertNil(try rc.storage.tree("i/P/name"), "a removed index's tree is dropped")
        XCTAssertEqual(try rc.count("P"), 50)
        rc.end()
        XCTAssertTrue(try c.store.check().isSound)
    }

    /// The root of the class's cluster tree in the newest version (unchanged while no object of
    /// the class is written).
    private func clusterRoot(_ db: Database) throws -> BlockRef? {
        let r = try db.read(); defer { r.end() }
        return try r.storage.committedRoot(of: "c/P")?.root
    }

    /// The entries of `P.name`'s index tree and the ones the objects' names call for.
    private func nameIndex(_ db: Database) throws -> (tree: [[UInt8]], expected: [[UInt8]]) {
        let r = try db.read(); defer { r.end() }
        let tree = try r.storage.tree("i/P/name")?.entries().map(\.key) ?? []
        let expected = try r.objectKeys("P").map { IndexKey.key(try r.value("P", $0, "name"), $0) }.sorted { $0.lexicographicallyPrecedes($1) }
        return (tree, expected)
    }

    private var indexedName: ObjectSchema {
        var s = v0
        s.properties[1] = prop("name", .string, indexed: true)
        return s
    }

    func testAnIndexChangeBuildsOrDropsOnlyTheIndexAndLeavesTheClassData() throws {
        let a = try Database(path: path, schema: Schema([v0]), schemaVersion: 0)
        let w = try a.write()
        for i in 1...3000 { _ = try w.create("P", values: ["id": .int(Int64(i)), "name": .string("n\(i % 7)"), "age": .int(Int64(i)), "score": .double(0)]) }
        try w.commit()
        let root = try XCTUnwrap(try clusterRoot(a))
        let version = try a.store.newestMeta().version

        let b = try otherHandle([indexedName], version: 0)
        XCTAssertEqual(try b.store.newestMeta().version, version + 1, "the index change is one commit")
        XCTAssertEqual(try clusterRoot(b), root, "adding an index rewrote the class's clusters")
        let (tree, expected) = try nameIndex(b)
        XCTAssertEqual(tree.count, 3000)
        XCTAssertEqual(tree, expected)
        XCTAssertEqual(try b.read().indexLookup("P", "name", .string("n3")).count, 429)
        XCTAssertEqual(try b.read().values("P", 2999)["age"], .int(2999))
        XCTAssertTrue(try b.store.check().isSound)
        b.close()

        let c = try otherHandle([v0], version: 0)
        XCTAssertEqual(try clusterRoot(c), root, "removing an index rewrote the class's clusters")
        XCTAssertNil(try c.read().storage.tree("i/P/name"))
        XCTAssertEqual(try Database.readSchema(c.store).0?["P"]?["name"]?.isIndexed, false)
        XCTAssertTrue(try c.store.check().isSound)
    }

    func testAHandleWithoutAnIndexAddedElsewhereKeepsWorkingAndMaintainsIt() throws {
        let a = try Database(path: path, schema: Schema([v0]), schemaVersion: 0)
        let w = try a.write()
        for i in 1...20 { _ = try w.create("P", values: ["id": .int(Int64(i)), "name": .string("n\(i)"), "age": .int(Int64(i)), "score": .double(0)]) }
        try w.commit()
        XCTAssertFalse(try a.read().hasIndex("P", "name"))

        let b = try otherHandle([indexedName], version: 0)
        // `a`'s model has no index on `name`; it goes on reading and writing, and keeps the
        // file's index current (inserts, changes, deletes).
        let wa = try a.write()
        _ = try wa.create("P", values: ["id": .int(100), "name": .string("zed"), "age": .int(1), "score": .double(0)])
        try wa.set("P", 1, "name", .string("renamed"))
        try wa.delete("P", 2)
        try wa.commit()
        let ra = try a.read()
        XCTAssertTrue(ra.hasIndex("P", "name"), "the handle uses the file's indexes")
        XCTAssertEqual(try ra.indexLookup("P", "name", .string("zed")), [100])
        ra.end()
        XCTAssertEqual(a.schema["P"]?["name"]?.isIndexed, true)

        let rb = try b.read()
        XCTAssertEqual(try rb.indexLookup("P", "name", .string("zed")), [100])
        XCTAssertEqual(try rb.indexLookup("P", "name", .string("renamed")), [1])
        XCTAssertEqual(try rb.indexLookup("P", "name", .string("n1")), [])
        XCTAssertEqual(try rb.indexLookup("P", "name", .string("n2")), [])
        rb.end()
        let (tree, expected) = try nameIndex(b)
        XCTAssertEqual(tree, expected, "the index matches the objects")
        XCTAssertEqual(tree.count, 20)
        XCTAssertEqual(try b.read().indexProblems("P"), [], "strata check finds the index sound")
        XCTAssertTrue(try a.store.check().isSound)
    }

    func testAHandleWithAnIndexRemovedElsewhereKeepsWorkingAndStopsMaintainingIt() throws {
        let a = try Database(path: path, schema: Schema([indexedName]), schemaVersion: 0)
        try seed(a)
        XCTAssertTrue(try a.read().hasIndex("P", "name"))
        _ = try otherHandle([v0], version: 0)
        let wa = try a.write()
        _ = try wa.create("P", values: ["id": .int(2), "name": .string("bo"), "age": .int(1), "score": .double(0)])
        try wa.set("P", 1, "name", .string("ann2"))
        try wa.commit()
        let ra = try a.read()
        XCTAssertFalse(ra.hasIndex("P", "name"), "a query scans instead of reading a dropped index")
        XCTAssertNil(try ra.storage.tree("i/P/name"), "no index tree is written for an index the file no longer has")
        XCTAssertEqual(try ra.objectKeys("P").map { try ra.value("P", $0, "name") }, [.string("ann2"), .string("bo")])
        ra.end()
        // Added back by a third handle: built from the objects as they are now.
        let c = try otherHandle([indexedName], version: 0)
        let (tree, expected) = try nameIndex(c)
        XCTAssertEqual(tree, expected)
        XCTAssertEqual(try c.read().indexLookup("P", "name", .string("bo")), [2])
        XCTAssertTrue(try a.store.check().isSound)
    }
}
