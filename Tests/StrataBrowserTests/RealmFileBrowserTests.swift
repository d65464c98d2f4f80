import Foundation
import StrataTooling
import XCTest
@testable import StrataBrowser

/// The browser's data source over a real `.realm` file (realm-core's all-types fixture, shared
/// with StrataRealmTests); expectations come from the fixture's realm-core JSON (`all-types.json`).
final class RealmFileBrowserTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("StrataRealmTests/Fixtures")
    static let allTypes = fixtures.appendingPathComponent("all-types.realm").path

    func oracleClasses() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("all-types.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try XCTUnwrap(json["classes"] as? [String: [String: Any]])
    }

    func testClassesAndCountsMatchRealmCore() throws {
        let source = try RealmFileDataSource(path: Self.allTypes)
        let oracle = try oracleClasses()
        let classes = source.classes()
        XCTAssertEqual(Set(classes.map(\.name)), Set(oracle.keys))
        for c in classes {
            XCTAssertEqual(c.count.value, oracle[c.name]?["objectCount"] as? Int, c.name)
            XCTAssertEqual(c.isEmbedded, oracle[c.name]?["embedded"] as? Bool, c.name)
            XCTAssertEqual(c.primaryKey, oracle[c.name]?["primaryKey"] as? String, c.name)
        }
        let props = try source.properties(className: "LinkTarget")
        XCTAssertEqual(Array(props.prefix(4).map(\.name)), ["_id", "name", "value", "parent"])
        XCTAssertEqual(props[3].kind, .link)
        XCTAssertEqual(props[3].targetClass, "AllTypes")
        XCTAssertTrue(props[0].isPrimaryKey)
        XCTAssertTrue(props.contains { $0.kind == .backlinks && $0.targetClass == "AllTypes" })
        let allTypes = try source.properties(className: "AllTypes")
        XCTAssertEqual(allTypes.first { $0.name == "embeddedCol" }?.kind, .embedded)
        XCTAssertEqual(allTypes.first { $0.name == "objectList" }?.kind, .list)
        XCTAssertEqual(allTypes.first { $0.name == "intDict" }?.kind, .map)
    }

    func testRowsFollowLinksAndBacklinks() throws {
        let source = try RealmFileDataSource(path: Self.allTypes)
        // all-types.json: LinkTarget $key 0 is {"_id":"t0","name":"target 0","value":0,"parent":1}.
        let rows = try source.rows(className: "LinkTarget", filter: nil, sort: nil, range: 0..<3)
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows[0].ref, ObjectRef(className: "LinkTarget", key: 0))
        XCTAssertEqual(Array(rows[0].values.prefix(3)), [.string("t0"), .string("target 0"), .int(0)])
        guard case let .link(parent) = rows[0].values[3] else { return XCTFail("parent is \(rows[0].values[3])") }
        XCTAssertEqual(parent.ref, ObjectRef(className: "AllTypes", key: 1))
        XCTAssertEqual(rows[1].values[3], .null)  // t1 has no parent
        // Follow the link: AllTypes $key 1 is the object whose primary key is 1.
        let detail = try source.object(parent.ref)
        let idIndex = try XCTUnwrap(detail.properties.firstIndex { $0.name == "_id" })
        XCTAssertEqual(detail.values[idIndex], .int(1))
        // Backlinks of t0 include AllTypes.objectCol from object 10 and objectList from 9 and 10.
        let back = try source.backlinks(of: ObjectRef(className: "LinkTarget", key: 0))
        XCTAssertTrue(back.contains { $0.property == "objectCol" && $0.source.ref == ObjectRef(className: "AllTypes", key: 10) })
        XCTAssertEqual(back.filter { $0.property == "objectList" }.map(\.source.ref.key).sorted(), [9, 10, 10])
        XCTAssertEqual(try source.position(of: ObjectRef(className: "LinkTarget", key: 2), filter: nil, sort: nil), 2)
    }

    func testCollectionsOpen() throws {
        let source = try RealmFileDataSource(path: Self.allTypes)
        let owner = ObjectRef(className: "AllTypes", key: 10)
        // all-types.json: LinkTarget t0's backlinks say AllTypes 10's objectList holds t0 twice.
        let count = try source.collectionCount(owner: owner, property: "objectList")
        let items = try source.collectionRows(owner: owner, property: "objectList", range: 0..<count)
        XCTAssertEqual(items.filter { $0.ref == ObjectRef(className: "LinkTarget", key: 0) }.count, 2)
        XCTAssertEqual(items.first?.values.count, try source.properties(className: "LinkTarget").count)
    }

    func testEditsAreRefusedWithOneLine() throws {
        let source = try RealmFileDataSource(path: Self.allTypes)
        let before = try Data(contentsOf: URL(fileURLWithPath: Self.allTypes))
        let expected = "all-types.realm is a Realm file opened read-only; convert it with 'strata convert all-types.realm all-types.strata' to edit it"
        let ref = ObjectRef(className: "LinkTarget", key: 0)
        XCTAssertThrowsError(try source.setValue(text: "x", property: "name", of: ref)) { XCTAssertEqual(($0 as? BrowserError)?.message, expected) }
        XCTAssertThrowsError(try source.createObject(className: "NoPk", values: [:])) { XCTAssertEqual(($0 as? BrowserError)?.message, expected) }
        XCTAssertThrowsError(try source.deleteObject(ref)) { XCTAssertEqual(($0 as? BrowserError)?.message, expected) }
        XCTAssertThrowsError(try source.compact(online: false, progress: { _ in })) { XCTAssertEqual(($0 as? BrowserError)?.message, expected) }
        // Filtering is reading: it works (all-types.json: LinkTarget values are 0, 10, …, 90).
        XCTAssertEqual(try source.rows(className: "LinkTarget", filter: "value > 35", sort: nil, range: 0..<1).first?.values.first, .string("t4"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: Self.allTypes)), before)
    }

    func testBrowserShowsRealmStatusAndRefusesEdit() throws {
        let dir = URL(fileURLWithPath: Self.allTypes).deletingLastPathComponent()
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let source = try RealmFileDataSource(path: Self.allTypes)
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 200, rows: 30), environment: [:], clock: { Date(timeIntervalSince1970: 0) })
        var text = app.frame().textLines().joined(separator: "\n")
        XCTAssertTrue(text.contains("Realm file, format 24, read-only"), text)
        XCTAssertTrue(text.contains("AllTypes"), text)
        for name in ["l", "e"] { app.handle(try XCTUnwrap(Key(name: name))) }
        text = app.frame().textLines().joined(separator: "\n")
        XCTAssertTrue(text.contains("all-types.realm is a Realm file opened read-only"), text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), listing)
    }

    /// The Compaction screen of a Realm file: the gain the Space screen states (it said 0 B) and
    /// why it cannot run, without "a full compaction can run now" above "compaction is disabled".
    func testCompactionScreenOfARealmFileAgreesWithSpaceAndSaysWhyItIsDisabled() throws {
        let source = try RealmFileDataSource(path: Self.allTypes)
        let report = source.space()
        XCTAssertLessThan(report.compactedBytes, report.totalBytes, "the fixture has free space")
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 120, rows: 30), environment: [:], clock: { Date(timeIntervalSince1970: 0) })
        app.handle(try XCTUnwrap(Key(name: "3")))
        let space = app.frame().textLines().joined(separator: "\n")
        let gain = Formatting.bytes(report.totalBytes - report.compactedBytes)
        XCTAssertTrue(space.contains("Compaction would give back \(gain)"), space)
        app.handle(try XCTUnwrap(Key(name: "5")))
        let text = app.frame().textLines().joined(separator: "\n")
        XCTAssertTrue(text.contains("gives back \(gain)"), text)
        XCTAssertFalse(text.contains("can run now"), text)
        XCTAssertTrue(text.contains("Read-only: compaction is disabled. all-types.realm is a Realm file opened read-only"), text)
    }

    /// The Versions screen of a Realm file said "0 live readers" above empty reader and commit
    /// tables, as if nobody read the file and nothing was ever committed; it says why nothing
    /// is listed.
    func testVersionsScreenOfARealmFileSaysWhyNothingIsListed() throws {
        let source = try RealmFileDataSource(path: Self.allTypes)
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 100, rows: 24), environment: [:], clock: { Date(timeIntervalSince1970: 0) })
        app.handle(try XCTUnwrap(Key(name: "2")))
        let text = app.frame().textLines().joined(separator: "\n")
        XCTAssertTrue(text.contains("Current version"), text)
        XCTAssertFalse(text.contains("0 live readers"), text)
        XCTAssertFalse(text.contains("Recent commits"), text)
        XCTAssertTrue(text.contains("realm-core keeps no commit history Strata can list"), text)
    }

    /// `s` on a link to a class without a primary key (AllTypes.noPkLink → NoPk) sorts by the
    /// target's object key, as on a Strata file: null links first ascending, ties in key order.
    func testSortByLinkToClassWithoutPrimaryKeyUsesTheTargetKey() throws {
        let source = try RealmFileDataSource(path: Self.allTypes)
        let objects = try XCTUnwrap(try oracleClasses()["AllTypes"]?["objects"] as? [[String: Any]])
        let byTarget = objects.map { o -> (Int?, Int) in
            ((o["noPkLink"] as? [String: Any])?["$key"] as? Int, o["_id"] as! Int)
        }
        func expected(ascending: Bool) -> [Int] {
            byTarget.enumerated().sorted { a, b in
                let (x, y) = (a.element.0, b.element.0)
                if x == y { return a.offset < b.offset }
                guard let x else { return ascending }
                guard let y else { return !ascending }
                return (x < y) == ascending
            }.map(\.element.1)
        }
        let idColumn = try XCTUnwrap(try source.properties(className: "AllTypes").firstIndex { $0.name == "_id" })
        for ascending in [true, false] {
            let rows = try source.rows(className: "AllTypes", filter: nil, sort: SortSpec(property: "noPkLink", ascending: ascending), range: 0..<100)
            XCTAssertEqual(rows.map { $0.values[idColumn] }, expected(ascending: ascending).map { .int(Int64($0)) }, "ascending: \(ascending)")
        }
        let filtered = try source.rows(className: "AllTypes", filter: "_id > 8", sort: SortSpec(property: "noPkLink", ascending: false), range: 0..<100)
        XCTAssertEqual(filtered.map { $0.values[idColumn] }, expected(ascending: false).filter { $0 > 8 }.map { .int(Int64($0)) })
    }
}
