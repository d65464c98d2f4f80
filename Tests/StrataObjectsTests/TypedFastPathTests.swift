import XCTest
import Foundation
@testable import StrataObjects

/// A class of plain values only: `realm.add` takes the one-row insert path.
final class FPItem: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name = "unnamed"
    @Persisted var age: Int
    @Persisted var score: Double?
    @Persisted var created = ObjectId.generate()
}

/// The typed API's fast paths (plain-class insert, cached cluster reads, primary-key lookups,
/// iteration) behave as the general paths do.
final class TypedFastPathTests: XCTestCase {
    private func realm(_ f: APIFixture) throws -> Realm {
        try Realm(configuration: f.config("fast.strata", types: [FPItem.self]))
    }

    func testUnmanagedValuesDefaultsAndValuesSetByNameAreStored() throws {
        let f = APIFixture()
        let realm = try realm(f)
        let a = FPItem(); a.id = 1; a.age = 30
        XCTAssertEqual(a.name, "unnamed")              // declared default, read before adding
        let b = FPItem(); b.id = 2; b["name"] = "by name"; b.score = 2.5
        let c = FPItem(); c.id = 3; c.name = "first"; c.name = "second"
        let created = c.created                          // a generated default stays stable
        try realm.write { realm.add([a, b, c]) }
        XCTAssertEqual(a.name, "unnamed"); XCTAssertEqual(a.age, 30); XCTAssertNil(a.score)
        XCTAssertEqual(b.name, "by name"); XCTAssertEqual(b.score, 2.5)
        XCTAssertEqual(c.name, "second"); XCTAssertEqual(c.created, created)
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 2)?.name, "by name")
    }

    func testDuplicatePrimaryKeyThrowsAndUpdatePoliciesStillUpdate() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write { let o = FPItem(); o.id = 7; o.name = "a"; realm.add(o) }
        realm.beginWrite()
        let dup = FPItem(); dup.id = 7; dup.name = "b"
        XCTAssertThrowsError(try realm.tryAdd(dup)) { error in
            guard case ObjectError.duplicatePrimaryKey = error else { return XCTFail("\(error)") }
        }
        let upd = FPItem(); upd.id = 7; upd.name = "c"; upd.age = 4
        realm.add(upd, update: .modified)
        try realm.commitWrite()
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 7)?.name, "c")
        XCTAssertEqual(realm.objects(FPItem.self).count, 1)
    }

    func testReadsSeeLaterCommitsAndWritesInTheTransaction() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write { for i in 1...3000 { let o = FPItem(); o.id = i; o.age = i; realm.add(o) } }
        let o = try XCTUnwrap(realm.object(ofType: FPItem.self, forPrimaryKey: 1500))
        XCTAssertEqual(o.age, 1500)
        try realm.write {
            o.age = -1
            XCTAssertEqual(o.age, -1)                      // read inside the write
            realm.delete(realm.object(ofType: FPItem.self, forPrimaryKey: 1501)!)
        }
        XCTAssertEqual(o.age, -1)                          // the new read transaction sees it
        XCTAssertNil(realm.object(ofType: FPItem.self, forPrimaryKey: 1501))
        XCTAssertNil(realm.object(ofType: FPItem.self, forPrimaryKey: 9999))
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 1502)?.age, 1502)
        // Another realm instance's commit (other thread) is seen after refresh.
        let done = expectation(description: "other thread")
        let config = realm.configuration
        DispatchQueue.global().async {
            let other = try! Realm(configuration: config)
            try! other.write { other.object(ofType: FPItem.self, forPrimaryKey: 2)!.age = 222 }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        realm.refresh()
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 2)?.age, 222)
        // Iteration over several clusters reads every object once, in key order.
        var ids: [Int] = [], total = 0
        for item in realm.objects(FPItem.self) { ids.append(item.id); total += item.age }
        XCTAssertEqual(ids, (1...3000).filter { $0 != 1501 })
        XCTAssertEqual(total, (1...3000).reduce(0, +) - 1501 - 1500 - 1 - 2 + 222)
    }
}
