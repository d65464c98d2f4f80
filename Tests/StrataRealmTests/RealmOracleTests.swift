import Foundation
import XCTest
@testable import StrataRealm

/// Every generated fixture against the JSON realm-core's API wrote for it.
final class RealmOracleTests: XCTestCase {
    func check(_ realm: String, json: String, key: [UInt8]? = nil, hasClasses: Bool = true) throws {
        let file = try RealmFile.open(path: RealmOracle.fixtureURL(realm).path, encryptionKey: key)
        let oracle = RealmOracle(file: file)
        try oracle.checkDocument(try RealmOracle.loadJSON(json))
        XCTAssertEqual(oracle.mismatches, [], "\(realm): \(oracle.mismatches.count) mismatches")
        if hasClasses { XCTAssertGreaterThan(oracle.checkedValues, 0) }
    }

    func testAllTypesMatchesRealmCore() throws { try check("all-types.realm", json: "all-types.json") }
    func testNestedMixedMatchesRealmCore() throws { try check("nested.realm", json: "nested.json") }
    func testHistoryMatchesRealmCore() throws { try check("history.realm", json: "history.json") }
    func testCompactedHistoryMatchesRealmCore() throws { try check("history-compacted.realm", json: "history-compacted.json") }
    func testUpgradeFixtures24MatchRealmCore() throws {
        // realm-core reports no classes here (tables "table" and "target" lack the class_ prefix);
        // their contents are checked against the fixture README in RealmFixtureContentsTests.
        try check("test_upgrade_database_4_24.realm", json: "test_upgrade_database_4_24.json", hasClasses: false)
        try check("test_upgrade_database_1000_24.realm", json: "test_upgrade_database_1000_24.json", hasClasses: false)
    }

    static func fixtureKey() throws -> [UInt8] {
        let hex = try String(contentsOf: RealmOracle.fixtureURL("encrypted.key"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var out: [UInt8] = []
        var it = hex.makeIterator()
        while let a = it.next(), let b = it.next() { out.append(UInt8(String([a, b]), radix: 16) ?? 0) }
        return out
    }

    func testEncryptedMatchesAllTypes() throws {
        let key = try Self.fixtureKey()
        XCTAssertEqual(key.count, 64)
        XCTAssertEqual(key[1], UInt8((1 * 37 + 11) & 0xff))
        let file = try RealmFile.open(path: RealmOracle.fixtureURL("encrypted.realm").path, encryptionKey: key)
        XCTAssertTrue(file.isEncrypted)
        let oracle = RealmOracle(file: file)
        try oracle.checkDocument(try RealmOracle.loadJSON("all-types.json"))
        XCTAssertEqual(oracle.mismatches, [])
    }
}
