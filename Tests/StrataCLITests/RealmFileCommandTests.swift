import Foundation
import Strata
import XCTest

/// `strata` on `.realm` files written by realm-core (issue 14): the read-only commands work,
/// the writing ones refuse, `convert` writes a Strata copy; the Realm file and its folder never
/// change. Fixtures are StrataRealmTests' (realm-core's all-types file and its JSON oracle).
final class RealmFileCommandTests: CLITestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("StrataRealmTests/Fixtures")

    /// Copies a fixture into this test's empty folder.
    func fixture(_ name: String) throws -> String {
        let target = path(name)
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent(name).path, toPath: target)
        return target
    }

    func oracle() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("all-types.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(json["classes"] as? [String: [String: Any]])
    }

    /// Runs `body` and asserts the folder's listing and the file's bytes are unchanged.
    func assertUntouched(_ file: String, _ body: () throws -> Void, line: UInt = #line) throws {
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try body()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), listing, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), bytes, line: line)
    }

    func testInfoSchemaSpaceCheckOnRealmFile() throws {
        let file = try fixture("all-types.realm")
        let oracle = try oracle()
        try assertUntouched(file) {
            let info = try StrataCLI.run(["info", file, "--json"])
            XCTAssertEqual(info.code, 0, info.stderr)
            XCTAssertEqual(info.object["formatVersion"] as? Int, 24)
            XCTAssertEqual(info.object["schemaVersion"] as? Int, 7)
            let classes = try XCTUnwrap(info.object["classes"] as? [[String: Any]])
            XCTAssertEqual(Set(classes.map { $0["name"] as! String }), Set(oracle.keys))
            for c in classes { XCTAssertEqual(c["count"] as? Int, oracle[c["name"] as! String]?["objectCount"] as? Int) }
            let text = try StrataCLI.run(["info", file])
            XCTAssertEqual(text.code, 0, text.stderr)
            XCTAssertTrue(text.stdout.contains("Format        24"), text.stdout)

            let schema = try StrataCLI.run(["schema", file, "--json"])
            XCTAssertEqual(schema.code, 0, schema.stderr)
            let linkTarget = try XCTUnwrap((schema.object["classes"] as? [[String: Any]])?.first { $0["name"] as? String == "LinkTarget" })
            XCTAssertEqual(linkTarget["primaryKey"] as? String, "_id")
            let swift = try StrataCLI.run(["schema", file, "--swift"])
            XCTAssertTrue(swift.stdout.contains("class EmbeddedObj: EmbeddedObject {"), swift.stdout)
            XCTAssertTrue(swift.stdout.contains("@Persisted(primaryKey: true) var _id: String"), swift.stdout)
            XCTAssertTrue(swift.stdout.contains("@Persisted var parent: AllTypes?"), swift.stdout)

            let space = try StrataCLI.run(["space", file, "--json"])
            XCTAssertEqual(space.code, 0, space.stderr)
            XCTAssertEqual(space.object["totalBytes"] as? Int, try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            let spaceClasses = try XCTUnwrap(space.object["classes"] as? [[String: Any]])
            XCTAssertGreaterThan(spaceClasses.first { $0["name"] as? String == "Big" }?["bytes"] as? Int ?? 0, 0)
            let spaceText = try StrataCLI.run(["space", file])
            XCTAssertTrue(spaceText.stdout.contains("Free space by extent size"), spaceText.stdout)

            let check = try StrataCLI.run(["check", file])
            XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
            XCTAssertTrue(check.stdout.contains("sound Realm file, format 24"), check.stdout)
        }
    }

    func testExportJSONAndCSVMatchRealmCore() throws {
        let file = try fixture("all-types.realm")
        try assertUntouched(file) {
            let json = try StrataCLI.run(["export", file, "--class", "LinkTarget"])
            XCTAssertEqual(json.code, 0, json.stderr)
            let rows = try XCTUnwrap(json.json as? [[String: Any]])
            XCTAssertEqual(rows.count, 10)
            // all-types.json: t0 = {"_id":"t0","name":"target 0","value":0,"parent":1}; the link is
            // exported as the target's primary key (AllTypes._id of $key 1 is 1).
            XCTAssertEqual(rows[0]["_id"] as? String, "t0")
            XCTAssertEqual(rows[0]["name"] as? String, "target 0")
            XCTAssertEqual(rows[0]["parent"] as? Int, 1)
            XCTAssertTrue(rows[1]["parent"] is NSNull)
            let csv = try StrataCLI.run(["export", file, "--class", "LinkTarget", "--format", "csv"])
            XCTAssertEqual(csv.code, 0, csv.stderr)
            let lines = csv.stdout.split(separator: "\n")
            XCTAssertEqual(lines.count, 11)
            XCTAssertEqual(lines[0], "_id,name,value,parent")
            XCTAssertEqual(lines[1], "t0,target 0,0,1")
            let all = try StrataCLI.run(["export", file])
            XCTAssertEqual(all.code, 0, all.stderr)
            XCTAssertEqual((all.object["Big"] as? [Any])?.count, 2000)
        }
    }

    func testWritingCommandsAreRefused() throws {
        let file = try fixture("all-types.realm")
        let input = path("rows.json")
        try Data("[]".utf8).write(to: URL(fileURLWithPath: input))
        try assertUntouched(file) {
            for args in [["compact", file], ["import", file, "--class", "NoPk", input], ["copy", file, path("copy.strata")]] {
                let r = try StrataCLI.run(args)
                XCTAssertEqual(r.code, 5, "\(args): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("all-types.realm is a Realm file opened read-only; convert it with 'strata convert all-types.realm all-types.strata' to edit it"), r.stderr)
            }
        }
    }

    func testEncryptedRealmNeedsItsKey() throws {
        let file = try fixture("encrypted.realm")
        let key = path("encrypted.key")
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("encrypted.key").path, toPath: key)
        try assertUntouched(file) {
            let without = try StrataCLI.run(["info", file])
            XCTAssertEqual(without.code, 6, without.stderr)
            let with = try StrataCLI.run(["info", file, "--json", "--encryption-key-file", key])
            XCTAssertEqual(with.code, 0, with.stderr)
            XCTAssertEqual(with.object["encrypted"] as? Bool, true)
            let counts = Dictionary(uniqueKeysWithValues: (with.object["classes"] as? [[String: Any]] ?? []).map { ($0["name"] as! String, $0["count"] as! Int) })
            XCTAssertEqual(counts["Big"], 2000)
        }
    }

    func testConvertWritesTheSameObjectsIntoAStrataFile() throws {
        let file = try fixture("all-types.realm")
        let out = path("all-types.strata")
        let oracle = try oracle()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        // all-types.realm holds values a Strata file cannot: converting without --allow-loss
        // writes nothing and lists them (exit 5).
        let refused = try StrataCLI.run(["convert", file, out])
        XCTAssertEqual(refused.code, 5, refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        XCTAssertTrue(refused.stderr.contains("pass --allow-loss"), refused.stderr)
        let r = try StrataCLI.run(["convert", file, out, "--allow-loss"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), bytes)
        // What was left out, counted from the oracle: the embedded objects held in maps (with
        // the children they own), dates outside 1677-2262 and the -0.0 of sets also holding 0
        // (DateValueTests); every Decimal128 converts (checked below).
        let allTypes = try XCTUnwrap(oracle["AllTypes"]?["objects"] as? [[String: Any]])
        let inMaps = allTypes.flatMap { (($0["embeddedDict"] as? [String: Any]) ?? [:]).values.compactMap { $0 as? [String: Any] } }
        let childrenInMaps = inMaps.filter { $0["child"] is [String: Any] }.count
        XCTAssertTrue(r.stderr.contains("\(inMaps.count) × embedded object in a map"), r.stderr)
        XCTAssertTrue(r.stderr.contains("values cannot be stored"), r.stderr)

        let db = try Database(path: out)
        defer { db.close() }
        let txn = try db.read(label: "test")
        defer { txn.end() }
        for (name, c) in oracle where (c["embedded"] as? Bool) == false {
            XCTAssertEqual(try txn.count(name), c["objectCount"] as? Int, name)
        }
        // Every embedded object but those in maps (and their children) arrived.
        XCTAssertEqual(try txn.count("EmbeddedObj"), (oracle["EmbeddedObj"]?["objectCount"] as? Int ?? 0) - inMaps.count)
        XCTAssertEqual(try txn.count("EmbeddedChild"), (oracle["EmbeddedChild"]?["objectCount"] as? Int ?? 0) - childrenInMaps)
        XCTAssertEqual(db.schema["LinkTarget"]?.primaryKeyProperty?.name, "_id")
        XCTAssertEqual(db.schema["EmbeddedObj"]?.isEmbedded, true)
        // LinkTarget t0: name "target 0", parent = AllTypes with _id 1.
        let t0 = try XCTUnwrap(try txn.find("LinkTarget", primaryKey: .string("t0")))
        XCTAssertEqual(try txn.value("LinkTarget", t0, "name"), .string("target 0"))
        guard case let .object(parent) = try txn.value("LinkTarget", t0, "parent") else { return XCTFail("t0.parent is not a link") }
        XCTAssertEqual(try txn.value("AllTypes", parent.key, "_id"), .int(1))
        // Big 1 (all-types.json): mediumStr, byte, optInt.
        let big1 = try XCTUnwrap(try txn.find("Big", primaryKey: .int(1)))
        XCTAssertEqual(try txn.value("Big", big1, "mediumStr"), .string("medium string number 1"))
        XCTAssertEqual(try txn.value("Big", big1, "byte"), .int(-127))
        XCTAssertEqual(try txn.value("Big", big1, "optInt"), .int(1))
        // AllTypes 10's objectList holds t0 twice (t0's backlinks in all-types.json).
        let a10 = try XCTUnwrap(try txn.find("AllTypes", primaryKey: .int(10)))
        let list = try txn.list("AllTypes", a10, "objectList")
        XCTAssertEqual(list.filter { $0 == .object(ObjectLink(className: "LinkTarget", key: t0)) }.count, 2)

        // Every decimal converts, the ones beyond Foundation's Decimal (1E-6176, 34 nines E+6111)
        // included, and prints as realm-core printed it.
        XCTAssertFalse(r.stdout.contains("Decimal128") || r.stderr.contains("Decimal128"), r.stdout + r.stderr)
        var decimals = 0
        for object in try XCTUnwrap(oracle["AllTypes"]?["objects"] as? [[String: Any]]) {
            let key = try XCTUnwrap(try txn.find("AllTypes", primaryKey: .int(Int64(try XCTUnwrap(object["_id"] as? Int)))))
            for column in ["decimalCol", "optdecimalCol"] {
                guard let text = object[column] as? String else { continue }
                guard case let .decimal(d) = try txn.value("AllTypes", key, column) else { XCTFail("\(column) of \(key) is not a decimal"); continue }
                XCTAssertEqual(d.stringValue, text, column)
                decimals += 1
            }
        }
        XCTAssertGreaterThan(decimals, 10)

        let again = try StrataCLI.run(["convert", file, out])
        XCTAssertEqual(again.code, 5, again.stderr)
    }

    func testConvertTablesWrittenWithoutTheObjectStore() throws {
        // realm-core's test files: tables without the `class_` prefix are converted as classes
        // named by their tables (they were skipped: "0 classes, 0 objects", exit 0).
        let file = try fixture("test_upgrade_database_1000_24.realm")
        let out = path("t.strata")
        // One AnyRealmValue holds a nested collection: refused without --allow-loss.
        let refused = try StrataCLI.run(["convert", file, out])
        XCTAssertEqual(refused.code, 5, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("table.any of #10000"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let r = try StrataCLI.run(["convert", file, out, "--allow-loss"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("(Realm format 24, 2 classes, 10,002 objects)"), r.stdout)
        let db = try Database(path: out)
        defer { db.close() }
        let txn = try db.read(label: "test")
        defer { txn.end() }
        XCTAssertEqual(try txn.count("table"), 10_001)
        XCTAssertEqual(try txn.count("target"), 1)
        let target = try XCTUnwrap(try txn.find("target", primaryKey: .int(1)))
        let first = try XCTUnwrap(try txn.find("table", primaryKey: .objectId(try ObjectId(string: "66b9fa6b0a6276620c3a4aa1"))))
        XCTAssertEqual(try txn.value("table", first, "string"), .string("white"))
        XCTAssertEqual(try txn.value("table", first, "link"), .object(ObjectLink(className: "target", key: target)))

        // Format 4_22 (two tables, one object each): "1 class"/"2 classes", singular/plural.
        let small = try fixture("test_upgrade_database_4_22.realm")
        let r2 = try StrataCLI.run(["convert", small, path("s.strata")])
        XCTAssertEqual(r2.code, 0, r2.stderr)
        XCTAssertTrue(r2.stdout.contains("2 classes, 2 objects"), r2.stdout)
        // An indexed AnyRealmValue (format 23): converted, its index (Strata has none for
        // Mixed) named on stderr.
        let mixed = try fixture("test_upgrade_database_1000_23.realm")
        let r3 = try StrataCLI.run(["convert", mixed, path("m.strata")])
        XCTAssertEqual(r3.code, 0, r3.stderr)
        XCTAssertTrue(r3.stdout.contains("4 classes, 10,022 objects"), r3.stdout)
        XCTAssertTrue(r3.stderr.contains("not indexed in") && r3.stderr.contains("table2.mixed"), r3.stderr)
    }

    func testTablesWithoutTheObjectStoreAreClassesAndInternalTablesStandApart() throws {
        // The fixture README: realm-core's test file holds table `table` (10,001 objects) and
        // `target` (1 object), written without the object store (its JSON lists them as otherTables).
        let file = try fixture("test_upgrade_database_1000_24.realm")
        try assertUntouched(file) {
            let info = try StrataCLI.run(["info", file, "--json"])
            XCTAssertEqual(info.code, 0, info.stderr)
            let classes = try XCTUnwrap(info.object["classes"] as? [[String: Any]])
            XCTAssertEqual(classes.map { $0["name"] as? String }, ["table", "target"])
            XCTAssertEqual(classes.map { $0["count"] as? Int }, [10_001, 1])
            XCTAssertEqual(classes.map { $0["objectStore"] as? Bool }, [false, false])
            let text = try StrataCLI.run(["info", file])
            XCTAssertTrue(text.stdout.contains("table               10,001  (table written without the object store)"), text.stdout)
            let query = try StrataCLI.run(["query", file, "target", "TRUEPREDICATE"])
            XCTAssertEqual(query.code, 0, query.stderr)
            XCTAssertTrue(query.stdout.hasSuffix("(1 object)\n"), query.stdout)
        }
        // all-types.realm: `metadata` (the schema version) is internal: not a class in info or
        // space, listed apart in space.
        let allTypes = try fixture("all-types.realm")
        let info = try StrataCLI.run(["info", allTypes, "--json"])
        XCTAssertFalse((info.object["classes"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "metadata" })
        XCTAssertEqual(info.object["internalTables"] as? [String], ["metadata"])
        let space = try StrataCLI.run(["space", allTypes, "--json"])
        XCTAssertFalse((space.object["classes"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "metadata" })
        XCTAssertEqual((space.object["internalTables"] as? [[String: Any]])?.map { $0["name"] as? String }, ["metadata"])
        let text = try StrataCLI.run(["space", allTypes])
        let byClass = try XCTUnwrap(text.stdout.components(separatedBy: "Internal tables").first)
        XCTAssertFalse(byClass.contains("metadata"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Internal tables"), text.stdout)
    }
}
