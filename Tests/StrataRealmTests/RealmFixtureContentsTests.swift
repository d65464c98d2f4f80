import XCTest
@testable import StrataRealm

/// The format-20, 22 and 23 fixtures (and the two format-24 upgrade fixtures, whose tables realm-core's
/// dump does not list as classes) against the contents documented in Fixtures/NOTICE's sources:
/// realm-core's test/test_upgrade_database.cpp, which wrote them, and the fixture README.
final class RealmFixtureContentsTests: XCTestCase {
    func open(_ name: String) throws -> RealmFile {
        try RealmFile.open(path: RealmOracle.fixtureURL(name).path)
    }

    func links(_ v: RealmValue) -> [Int64] {
        guard case let .list(items) = v else { return [] }
        return items.compactMap { if case let .link(_, k) = $0 { return k } else { return nil } }
    }

    func pk(_ f: RealmFile, _ v: RealmValue) throws -> RealmValue {
        guard case let .link(cn, key) = v, let cls = f.realmClass(named: cn), let pk = cls.primaryKey,
              let o = try f.object(withKey: key, in: cn), let i = cls.properties.firstIndex(where: { $0.name == pk }) else { return .null }
        return o.values[i]
    }

    /// Upgrade_Database_20: foo(id) 0,2,3,15,42,100,7000 and bar(name) adam…gary, 42 and "eric"
    /// invalidated (tombstones); origin links one object each; keys of bar are hashes of the names.
    func testFormat20PrimaryKeyHashKeysAndTombstones() throws {
        let f = try open("test_upgrade_database_20.realm")
        XCTAssertEqual(f.formatVersion, 20)
        XCTAssertTrue(f.isStreamingForm)
        let foo = try XCTUnwrap(f.realmClass(named: "foo")), bar = try XCTUnwrap(f.realmClass(named: "bar"))
        XCTAssertEqual(foo.primaryKey, "id"); XCTAssertEqual(bar.primaryKey, "name")
        XCTAssertEqual(foo.objectCount, 6); XCTAssertEqual(bar.objectCount, 6)
        XCTAssertEqual(f.realmClass(named: "origin")?.objectCount, 14)
        var ids: [Int64] = []
        for i in 0..<6 { if case let .int(x) = try f.object(at: i, in: "foo").values[0] { ids.append(x) } }
        XCTAssertEqual(ids.sorted(), [0, 2, 3, 15, 100, 7000])
        var names: [String] = []
        var bigKeys = 0
        for i in 0..<6 {
            let o = try f.object(at: i, in: "bar")
            if case let .string(s) = o.values[0] { names.append(s) }
            if o.key > Int64(UInt32.max) { bigKeys += 1 }
            XCTAssertEqual(links(o.backlinks[0]).count, 1, "bar \(i) has one origin")
        }
        XCTAssertEqual(names.sorted(), ["adam", "bart", "carlo", "david", "frank", "gary"])
        XCTAssertGreaterThan(bigKeys, 0, "format-20 object keys are hashes of the primary key")
        // origin: objects 0-6 link foo in id order (42 unresolved → null), 7-13 link bar ("eric" null).
        var fooTargets: [RealmValue] = [], barTargets: [RealmValue] = []
        for i in 0..<14 {
            let o = try f.object(at: i, in: "origin")
            if i < 7 { fooTargets.append(try pk(f, o.values[0])); XCTAssertTrue(o.values[1].isNull) }
            else { barTargets.append(try pk(f, o.values[1])); XCTAssertTrue(o.values[0].isNull) }
        }
        XCTAssertEqual(fooTargets.map(\.description), ["0", "2", "3", "15", "null", "100", "7000"])
        XCTAssertEqual(barTargets.map(\.description), ["adam", "bart", "carlo", "david", "null", "frank", "gary"])
    }

    /// Upgrade_Database_22: one object (id 1) with a v21-22 dictionary (a cluster tree) of 9 Mixed
    /// values and a Mixed set of 8; target 47 has two backlinks.
    func testFormat22LegacyDictionaryAndMixedSet() throws {
        let f = try open("test_upgrade_database_4_22.realm")
        XCTAssertEqual(f.formatVersion, 22)
        let o = try f.object(at: 0, in: "table")
        XCTAssertEqual(o.values[0].description, "1")
        guard case let .dictionary(entries) = o.values[1] else { return XCTFail("dict") }
        var d: [String: String] = [:]
        for e in entries { d[e.key] = e.value.description }
        XCTAssertEqual(d["one"], "1"); XCTAssertEqual(d["two"], "2.0"); XCTAssertEqual(d["three"], "John")
        XCTAssertEqual(d["four"], "Paul"); XCTAssertEqual(d["five"], "George"); XCTAssertEqual(d["six"], "Ringo")
        XCTAssertEqual(d["seven"], "Morgan")
        XCTAssertEqual(d["eight"], RealmTimestampFormat.iso8601(seconds: 4, nanoseconds: 5))
        XCTAssertEqual(entries.count, 9)
        if let nine = entries.first(where: { $0.key == "nine" })?.value { XCTAssertEqual(try pk(f, nine).description, "47") }
        guard case let .set(items) = o.values[2] else { return XCTFail("set") }
        XCTAssertEqual(items.count, 8)
        let texts = Set(items.map { v -> String in
            if case let .binary(b) = v { return "bin:" + String(decoding: b, as: UTF8.self) }
            if case .link = v { return "link" }
            return v.description
        })
        // BinaryData("Paul") in the generating test takes the C literal with its NUL (5 bytes).
        XCTAssertEqual(texts, ["1", "2.0", "John", "Ringo", "bin:Paul\0", "bin:George\0", "Beatles", "link"])
        let target = try f.object(at: 0, in: "target")
        XCTAssertEqual(target.values[0].description, "47")
        XCTAssertEqual(target.backlinks.map { links($0).count }.reduce(0, +), 2)
    }

    /// Upgrade_Database_23 (node size 1000): 10,000 objects link target 1; table_for_mixed holds
    /// sets of 32 Mixed, 20 String? and 8 Binary? values; table2 has 20 string-keyed objects.
    func testFormat23BacklinksAndSets() throws {
        let f = try open("test_upgrade_database_1000_23.realm")
        XCTAssertEqual(f.formatVersion, 23)
        XCTAssertEqual(f.realmClass(named: "table")?.objectCount, 10_000)
        let target = try f.object(at: 0, in: "target")
        XCTAssertEqual(target.values[0].description, "1")
        XCTAssertEqual(links(target.backlinks[0]).count, 10_000)
        let last = try f.object(at: 9_999, in: "table")
        XCTAssertEqual(last.values[0].description, "9999")
        XCTAssertEqual(try pk(f, last.values[1]).description, "1")
        let m = try f.object(at: 0, in: "table_for_mixed")
        func size(_ v: RealmValue) -> Int { if case let .set(x) = v { return x.count }; return -1 }
        XCTAssertEqual(size(m.values[1]), 32)
        XCTAssertEqual(size(m.values[2]), 20)
        XCTAssertEqual(size(m.values[3]), 8)
        if case let .set(strings) = m.values[2] {
            let s = Set(strings.map(\.description))
            for x in ["John", "Ringo", "Æ", "æ", "ÿ", "ʄ", "Beatles", "john", "ringo", "", "\0", "\0\u{1}", "\0\0\u{1}", "\u{1}\0", "null"] {
                XCTAssertTrue(s.contains(x), "stringSet lacks \(x.debugDescription)")
            }
        }
        XCTAssertEqual(f.realmClass(named: "table2")?.objectCount, 20)
    }

    /// client_schema_version_011: a committed (non-streaming) format-22 file, header slot 1, with
    /// sync client history (history type 3) in an 11-slot top array.
    func testSyncClientHistoryFile() throws {
        let f = try open("client_schema_version_011.realm")
        XCTAssertEqual(f.formatVersion, 22)
        XCTAssertFalse(f.isStreamingForm)
        XCTAssertEqual(f.historyType, 3)
        XCTAssertEqual(f.top.count, 11)
    }

    /// Upgrade_Database_24 (realm-core next-major test/test_upgrade_database.cpp): `table` (ObjectId
    /// primary key, one column of each type) gets cnt = 10 × node size objects with int = 0xffff + i,
    /// optint = 0xffff + i % 10, string = colours[i % 10], link → target 1; then one more object with
    /// a long Danish poem and a Mixed dictionary parsed from JSON (nested list and dictionary).
    func testFormat24UpgradeFixtures() throws {
        let colours = ["white", "yellow", "red", "orange", "green", "blue", "grey", "violet", "purple", "black"]
        for (name, cnt) in [("test_upgrade_database_1000_24.realm", 10_000), ("test_upgrade_database_4_24.realm", 40)] {
            let f = try open(name)
            XCTAssertEqual(f.formatVersion, 24)
            let t = try XCTUnwrap(f.realmClass(named: "table"))
            XCTAssertEqual(t.objectCount, cnt + 1)
            XCTAssertEqual(t.primaryKey, "_id")
            XCTAssertEqual(t.properties.map(\.name), ["_id", "int", "optint", "bool", "string", "binary", "any", "date",
                                                      "float", "double", "decimal", "uuid", "link"])
            XCTAssertEqual(t.properties.map(\.type), [.objectId, .int, .int, .bool, .string, .binary, .mixed, .timestamp,
                                                      .float, .double, .decimal128, .uuid, .link])
            XCTAssertEqual(t.properties.last?.targetClass, "target")
            for i in Set([0, 1, 7, cnt / 2, cnt - 1]) {
                let o = try f.object(at: i, in: "table")
                XCTAssertEqual(o.values[1].description, String(0xffff + i))
                XCTAssertEqual(o.values[2].description, String(0xffff + i % 10))
                XCTAssertEqual(o.values[4].description, colours[i % 10])
                XCTAssertEqual(try pk(f, o.values[12]).description, "1")
            }
            let last = try f.object(at: cnt, in: "table")
            guard case let .string(poem) = last.values[4] else { return XCTFail("poem") }
            XCTAssertTrue(poem.hasPrefix("1. Jeg ved en lærkerede,\njeg siger ikke mer;"))
            XCTAssertTrue(poem.hasSuffix("hvor lærkereden er.\n"))
            XCTAssertTrue(last.values[12].isNull)
            guard case let .dictionary(d) = last.values[6] else { return XCTFail("mixed dictionary") }
            var m: [String: String] = [:]
            for e in d { m[e.key] = e.value.description }
            XCTAssertEqual(m["Seven"], "7"); XCTAssertEqual(m["Six"], "6")
            XCTAssertEqual(m["Points"], "[1.25, 4.5, 6.75]")
            XCTAssertEqual(Set(["{Height: 202, Weight: 92}", "{Weight: 92, Height: 202}"]).contains(m["Attributes"] ?? ""), true)
            XCTAssertEqual(f.realmClass(named: "target")?.objectCount, 1)
            XCTAssertEqual(links(try f.object(at: 0, in: "target").backlinks[0]).count, cnt)
        }
    }

    /// The legacy encrypted fixture decrypts with its documented key (every HMAC checks) and is then
    /// refused as format 9.
    func testLegacyEncryptedFileIsRefusedAsFormat9() throws {
        let key = Array("12345678901234567890123456789011".utf8) + Array("23456789012345678901234567890123".utf8)
        XCTAssertThrowsError(try RealmFile.open(path: RealmOracle.fixtureURL("test_shared_decrypt_4k_page.realm").path, encryptionKey: key)) {
            XCTAssertEqual($0 as? RealmFileError, .unsupportedFormat(9))
            XCTAssertTrue("\($0)".contains("format 9"))
        }
        // Every page decrypts and passes its HMAC check.
        let plain = try RealmDecryptor(key: key).open(try RealmBytes(mapping: RealmOracle.fixtureURL("test_shared_decrypt_4k_page.realm").path))
        XCTAssertNoThrow(try plain.pager?.verifyAll())
        XCTAssertEqual(RealmDecryptor.dataPageCount(77_824), 18)
        XCTAssertEqual(try plain.u8(20 + Int(try plain.u8(23) & 1)), 9, "format 9 in the active header slot")
        // Without a key: it is not plain text.
        XCTAssertThrowsError(try open("test_shared_decrypt_4k_page.realm")) {
            XCTAssertEqual($0 as? RealmFileError, .encryptionKeyRequired)
        }
    }
}
