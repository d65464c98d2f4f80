import Foundation
import XCTest
import Strata

final class CDated: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var at = Date(timeIntervalSince1970: 0)
    @Persisted var maybe: Date?
}

final class CThingV1: Object {
    override class func className() -> String { "CThing" }
    @Persisted var name = ""
    @Persisted var count = 0
}

/// The same class name with `count` as a String: a schema change the file needs a migration for.
final class CThingV2: Object {
    override class func className() -> String { "CThing" }
    @Persisted var name = ""
    @Persisted var count = ""
}

/// A realm opened again while the file is open in this process gets the same checks a fresh
/// open gets (the encryption key), and the dates apps use as "no date" sentinels round-trip.
final class OpenAgainCompatTests: XCTestCase {
    func testAWrongOrMissingKeyIsRefusedWhileTheFileIsOpenInThisProcess() throws {
        let dir = CompatDir()
        var config = dir.config(types: [CDated.self])
        config.encryptionKey = Data(repeating: 1, count: 64)
        let first = try Realm(configuration: config)
        try first.write { first.add(CDated(value: ["id": 1])) }

        var wrong = config
        wrong.encryptionKey = Data(repeating: 4, count: 64)
        XCTAssertThrowsError(try Realm(configuration: wrong)) { XCTAssertTrue("\($0)".contains("wrong encryption key"), "\($0)") }
        var none = config
        none.encryptionKey = nil
        XCTAssertThrowsError(try Realm(configuration: none)) { XCTAssertTrue("\($0)".contains("encrypted"), "\($0)") }
        // The right key still opens it (the same open handle).
        XCTAssertEqual(try Realm(configuration: config).objects(CDated.self).count, 1)
        _ = first

        // A plain file open in this process refuses a key, as a fresh open does.
        var plain = dir.config("plain.strata", types: [CDated.self])
        let open = try Realm(configuration: plain)
        plain.encryptionKey = Data(repeating: 2, count: 64)
        XCTAssertThrowsError(try Realm(configuration: plain)) { XCTAssertTrue("\($0)".contains("not encrypted"), "\($0)") }
        _ = open
    }

    func testAnotherModelOfTheSameClassNameIsCheckedAgainstTheFile() throws {
        let dir = CompatDir()
        let first = try Realm(configuration: dir.config(types: [CThingV1.self]))
        try first.write { first.add(CThingV1(value: ["name": "a", "count": 1])) }
        // A fresh process would be told a migration is needed; so is this open, although the
        // file is open in this process under the same class name.
        XCTAssertThrowsError(try Realm(configuration: dir.config(types: [CThingV2.self]))) {
            XCTAssertTrue("\($0)".contains("migration"), "\($0)")
        }
        XCTAssertEqual(first.objects(CThingV1.self).first?.count, 1)
    }

    func testDistantPastAndDistantFutureRoundTrip() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [CDated.self]))
        let exact = Date(timeIntervalSince1970: 1_700_000_000.123456)
        try realm.write {
            realm.add(CDated(value: ["id": 1, "at": Date.distantFuture, "maybe": Date.distantPast]))
            realm.add(CDated(value: ["id": 2, "at": exact]))
        }
        let one = try XCTUnwrap(realm.object(ofType: CDated.self, forPrimaryKey: 1))
        XCTAssertEqual(one.at, .distantFuture)
        XCTAssertEqual(one.maybe, .distantPast)
        XCTAssertEqual(realm.objects(CDated.self).filter("at == %@", Date.distantFuture).count, 1)
        XCTAssertEqual(realm.objects(CDated.self).filter("at > %@", exact).count, 1)
        XCTAssertEqual(realm.objects(CDated.self).where { $0.maybe == Date.distantPast }.count, 1)
        // Dates inside the stored range are unchanged (to the microsecond a Date holds here).
        let two = try XCTUnwrap(realm.object(ofType: CDated.self, forPrimaryKey: 2))
        XCTAssertEqual(two.at.timeIntervalSince1970, exact.timeIntervalSince1970, accuracy: 1e-6)
    }
}
