import Foundation
import Strata
import XCTest

/// A link held by an AnyRealmValue exports the target's primary key (as plain links do), so a
/// Realm file and its converted Strata copy give the same JSON; it exported the object key,
/// which differs between the two. Import reads the primary-key form back (and still the
/// object-key form).
final class MixedLinkExportTests: CLITestCase {
    func exportRows(_ file: String, _ className: String) throws -> [[String: Any]] {
        let r = try StrataCLI.run(["export", file, "--class", className])
        XCTAssertEqual(r.code, 0, r.stderr)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]], r.stdout)
    }

    /// `mixedCol` of each AllTypes row by `_id`, as JSON text (key order fixed).
    func mixedColumn(_ file: String) throws -> [Int: String] {
        var out: [Int: String] = [:]
        for row in try exportRows(file, "AllTypes") {
            let id = try XCTUnwrap(row["_id"] as? Int)
            let value = row["mixedCol"] ?? NSNull()
            out[id] = String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]), as: UTF8.self)
        }
        return out
    }

    func testARealmFileAndItsConvertedCopyExportTheSameMixedLinks() throws {
        let realm = path("all-types.realm")
        try FileManager.default.copyItem(atPath: FileRefusalCommandTests.realmFixtures.appendingPathComponent("all-types.realm").path, toPath: realm)
        let copy = path("all-types.strata")
        let convert = try StrataCLI.run(["convert", realm, copy, "--allow-loss"])
        XCTAssertEqual(convert.code, 0, convert.stderr)
        let fromRealm = try mixedColumn(realm)
        let fromCopy = try mixedColumn(copy)
        XCTAssertEqual(fromRealm.count, fromCopy.count)
        let links = fromRealm.filter { $0.value.contains("$link") }
        XCTAssertEqual(links.count, 2, "the fixture holds a link to LinkTarget and one to NoPk: \(links)")
        let byPrimaryKey = try XCTUnwrap(links.first { $0.value.contains("LinkTarget") })
        XCTAssertEqual(byPrimaryKey.value, #"{"$link":{"class":"LinkTarget","primaryKey":"t3"}}"#)
        for (id, text) in fromRealm {
            XCTAssertEqual(fromCopy[id], text, "mixedCol of _id \(id)")
        }
    }

    func testAMixedLinkExportsThePrimaryKeyAndImportsBack() throws {
        let source = path("source.strata")
        try AllTypes.create(source, objects: 0)
        do {
            let db = try Database(path: source)
            defer { db.close() }
            let w = try db.write()
            // Object keys that a fresh file would not give the same targets.
            for code in ["gap 1", "gap 2", "T1 ü", "T2"] { try w.create("Target", values: ["code": .string(code), "n": .int(0)]) }
            try w.delete("Target", try XCTUnwrap(try w.find("Target", primaryKey: .string("gap 1"))))
            let target = try XCTUnwrap(try w.find("Target", primaryKey: .string("T1 ü")))
            try w.create("Thing", values: ["id": .int(1), "any": .object(StrataObjects.ObjectLink(className: "Target", key: target))])
            try w.commit()
        }
        let things = try exportRows(source, "Thing")
        let any = try XCTUnwrap(things.first?["any"] as? [String: Any])
        let link = try XCTUnwrap(any["$link"] as? [String: Any])
        XCTAssertEqual(link["class"] as? String, "Target")
        XCTAssertEqual(link["primaryKey"] as? String, "T1 ü")
        XCTAssertNil(link["key"], "no object key for a class with a primary key")

        // Into a fresh file: targets first (in another order: other object keys), then Thing.
        let fresh = path("fresh.strata")
        try AllTypes.create(fresh, objects: 0)
        let targets = try write(#"[{"code": "T2", "n": 0}, {"code": "T1 ü", "n": 0}]"#, to: "targets.json")
        XCTAssertEqual(try StrataCLI.run(["import", fresh, "--class", "Target", targets]).code, 0)
        let thingExport = try StrataCLI.run(["export", source, "--class", "Thing", "--output", path("things.json")])
        XCTAssertEqual(thingExport.code, 0, thingExport.stderr)
        let imported = try StrataCLI.run(["import", fresh, "--class", "Thing", path("things.json")])
        XCTAssertEqual(imported.code, 0, imported.stderr)
        XCTAssertEqual(try exportRows(fresh, "Thing").first?["any"] as? NSDictionary, any as NSDictionary, "exports the same again")
        let db = try Database(path: fresh)
        defer { db.close() }
        let t = try db.read()
        defer { t.end() }
        let thing = try XCTUnwrap(try t.find("Thing", primaryKey: .int(1)))
        guard case .object(let l) = try t.value("Thing", thing, "any") else { return XCTFail("not a link") }
        XCTAssertEqual(try t.value("Target", l.key, "code"), .string("T1 ü"), "the link resolves to the same target")

        // A primary key that is not there is refused, naming it.
        let bad = try write(#"[{"id": 2, "any": {"$link": {"class": "Target", "primaryKey": "nobody"}}}]"#, to: "bad.json")
        let refused = try StrataCLI.run(["import", fresh, "--class", "Thing", bad])
        XCTAssertEqual(refused.code, 4, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("no Target with primary key"), refused.stderr)
    }
}
