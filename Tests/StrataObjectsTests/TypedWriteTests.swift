import XCTest
import Foundation
@testable import StrataObjects

/// The benchmark's shape: plain values with an Int primary key (batched by `realm.add`), and an
/// optional value (nil is batched too).
final class TWItem: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var score = 0.0
    @Persisted var active = false
    @Persisted var note: String?
}

/// A class of plain values without a primary key (new keys from the class's counter).
final class TWNoKey: Object {
    @Persisted var name = ""
    @Persisted var n = 0
    @Persisted var flag = false
}

/// Links to plain objects (its own adds take the general path).
final class TWOwner: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var item: TWItem?
    @Persisted var items: List<TWItem>
    @Persisted var home: AAddress?
}

/// The typed write path: unmanaged values in typed slots, and plain objects added in batches
/// (`ObjectAdder.PendingRows`) that every read, other change and the commit see.
final class TypedWriteTests: XCTestCase {
    private func realm(_ f: APIFixture) throws -> Realm {
        try Realm(configuration: f.config("write.strata", types: [TWItem.self, FPItem.self, TWNoKey.self, TWOwner.self, AAddress.self, AGeo.self]))
    }

    private func item(_ id: Int, _ name: String = "", age: Int = 0) -> TWItem {
        let o = TWItem(); o.id = id; o.name = name; o.age = age; o.score = Double(id) / 2; o.active = id % 2 == 0
        if id % 3 == 0 { o.note = "third" }
        return o
    }

    func testUnmanagedSlotsKeepEveryKindOfValue() {
        let o = TWOwner()
        XCTAssertNil(o.item)
        let target = item(1, "t")
        o.item = target
        XCTAssertTrue(o.item === target)                 // objects keep their identity
        o.items.append(item(2)); o.items.append(item(3))
        XCTAssertEqual(o.items.map(\.id), [2, 3])        // the same unmanaged list each read
        let a = AAddress(); a.street = "Main"; o.home = a
        XCTAssertEqual(o.home?.street, "Main")
        o["id"] = 9
        XCTAssertEqual(o.id, 9)
        XCTAssertEqual(o["id"] as? Int, 9)
        let p = FPItem(); p.score = 1.5; p.score = nil
        XCTAssertNil(p.score)
        XCTAssertEqual(p.name, "unnamed")
        XCTAssertTrue(p.description.contains("unnamed"))
    }

    func testBatchedAddsAreSeenByReadsAndQueriesInTheSameWrite() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write {
            let first = item(1, "a", age: 10)
            realm.add(first)
            XCTAssertEqual(first.name, "a")                                   // a getter of an added object
            realm.add(item(2, "b", age: 20))
            XCTAssertEqual(realm.objects(TWItem.self).count, 2)               // a count
            realm.add(item(3, "c", age: 30))
            XCTAssertEqual(realm.object(ofType: TWItem.self, forPrimaryKey: 3)?.name, "c")
            realm.add(item(4, "d", age: 40))
            XCTAssertEqual(realm.objects(TWItem.self).filter { $0.age >= 20 }.count, 3)   // iteration
            realm.add(item(5, "e", age: 50))
            first.age = 11                                                    // a setter
            realm.add(item(6, "f", age: 60))
            realm.delete(realm.object(ofType: TWItem.self, forPrimaryKey: 2)!)  // a delete
            realm.add(item(7, "g", age: 70))
        }
        XCTAssertEqual(realm.objects(TWItem.self).map(\.id), [1, 3, 4, 5, 6, 7])
        XCTAssertEqual(realm.objects(TWItem.self).map(\.age), [11, 30, 40, 50, 60, 70])
        assertIntegrity(realm)
    }

    func testDuplicatePrimaryKeysThrowAtTheirOwnAdd() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write { realm.add(item(100, "old")) }
        realm.beginWrite()
        realm.add(item(101)); realm.add(item(102))
        // Against a pending object, against one committed before, and one repeated in a row.
        XCTAssertThrowsError(try realm.tryAdd(item(101, "dup"))) { e in
            guard case ObjectError.duplicatePrimaryKey = e else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try realm.tryAdd(item(100, "dup"))) { e in
            guard case ObjectError.duplicatePrimaryKey = e else { return XCTFail("\(e)") }
        }
        realm.add(item(103))
        XCTAssertThrowsError(try realm.tryAdd(item(103, "dup")))
        let notAdded = item(104, "later")
        XCTAssertThrowsError(try realm.tryAdd(item(102, "dup")))
        XCTAssertNil(notAdded.realm)
        realm.add(notAdded)
        try realm.commitWrite()
        XCTAssertEqual(realm.objects(TWItem.self).map(\.id), [100, 101, 102, 103, 104])
        XCTAssertEqual(realm.objects(TWItem.self).filter { $0.name == "dup" }.count, 0)
        XCTAssertEqual(realm.object(ofType: TWItem.self, forPrimaryKey: 100)?.name, "old")
    }

    func testUpdatePoliciesSeePendingObjects() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write {
            realm.add(item(1, "a", age: 1))
            realm.add(item(2, "b", age: 2))
            realm.add(item(2, "b2", age: 22), update: .modified)
            realm.add(item(1, "a2", age: 11), update: .all)
            realm.add(item(3, "c", age: 3), update: .modified)   // new object under an update policy
            realm.add(item(4, "d", age: 4))
        }
        XCTAssertEqual(realm.objects(TWItem.self).map(\.name), ["a2", "b2", "c", "d"])
        XCTAssertEqual(realm.objects(TWItem.self).map(\.age), [11, 22, 3, 4])
    }

    func testKeysOutOfOrderAndClassesWithoutPrimaryKey() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write {
            for id in [50, 10, 60, 20, 70, 70 + 1, 5] { realm.add(item(id, "n\(id)", age: id)) }
            for i in 0..<5 { let o = TWNoKey(); o.name = "k\(i)"; o.n = i; o.flag = i % 2 == 0; realm.add(o) }
            realm.add(item(80, "n80", age: 80))        // back to the first class
        }
        XCTAssertEqual(realm.objects(TWItem.self).map(\.id), [5, 10, 20, 50, 60, 70, 71, 80])
        XCTAssertEqual(realm.objects(TWItem.self).map(\.name), ["n5", "n10", "n20", "n50", "n60", "n70", "n71", "n80"])
        XCTAssertEqual(realm.objects(TWNoKey.self).map(\.n), [0, 1, 2, 3, 4])
        XCTAssertEqual(realm.objects(TWNoKey.self).map(\.flag), [true, false, true, false, true])
        try realm.write { let o = TWNoKey(); o.n = 5; realm.add(o) }
        XCTAssertEqual(realm.objects(TWNoKey.self).map(\.n), [0, 1, 2, 3, 4, 5])
        assertIntegrity(realm)
    }

    func testLinkedAndEmbeddedObjectsAmongBatchedAdds() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write {
            let a = item(1, "a")
            realm.add(a)                                   // pending
            let owner = TWOwner(); owner.id = 1
            owner.item = a                                 // link to a pending object
            owner.items.append(a)
            owner.items.append(item(2, "b"))               // unmanaged: added through the link
            let home = AAddress(); home.city = "Oslo"; owner.home = home
            realm.add(owner)
            realm.add(item(3, "c"))
            let other = TWOwner(); other.id = 2; other.item = item(4, "d")
            realm.add(other)
        }
        let owner = try XCTUnwrap(realm.object(ofType: TWOwner.self, forPrimaryKey: 1))
        XCTAssertEqual(owner.item?.name, "a")
        XCTAssertEqual(owner.items.map(\.name), ["a", "b"])
        // Unmanaged objects added through a managed object's link and list, after a batched add.
        try realm.write {
            realm.add(item(10, "x"))
            owner.item = item(11, "via link")
            owner.items.append(item(12, "via list"))
            realm.add(item(13, "y"))
        }
        XCTAssertEqual(owner.item?.name, "via link")
        XCTAssertEqual(owner.items.map(\.name), ["a", "b", "via list"])
        XCTAssertEqual(realm.objects(TWItem.self).filter { $0.id >= 10 }.map(\.name), ["x", "via link", "via list", "y"])
        XCTAssertEqual(owner.home?.city, "Oslo")
        XCTAssertEqual(realm.object(ofType: TWOwner.self, forPrimaryKey: 2)?.item?.id, 4)
        XCTAssertEqual(realm.objects(TWItem.self).map(\.id), [1, 2, 3, 4, 10, 11, 12, 13])
        assertIntegrity(realm)
    }

    func testCancelledWriteLeavesNothing() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write { realm.add(item(1)) }
        realm.beginWrite()
        var added: [TWItem] = []
        for id in 2...20_000 { let o = item(id); realm.add(o); added.append(o) }
        realm.cancelWrite()
        XCTAssertEqual(realm.objects(TWItem.self).count, 1)
        XCTAssertTrue(added[0].isInvalidated)
        XCTAssertTrue(added[added.count - 1].isInvalidated)
        // A write that throws is cancelled the same way.
        struct Stop: Error {}
        XCTAssertThrowsError(try realm.write { realm.add(item(30_000)); throw Stop() })
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 30_000))
        assertIntegrity(realm)
    }

    func testManyAddsSpanClustersAndPendingBatches() throws {
        let f = APIFixture()
        let realm = try realm(f)
        let n = 25_000
        try realm.write {
            for id in 1...n { realm.add(item(id, "n\(id)", age: id % 100)) }
            XCTAssertEqual(realm.object(ofType: TWItem.self, forPrimaryKey: 12_345)?.name, "n12345")
            for id in (n + 1)...(n + 10) { realm.add(item(id, "m", age: 1)) }
        }
        XCTAssertEqual(realm.objects(TWItem.self).count, n + 10)
        var sum = 0, last = 0, ordered = true
        for o in realm.objects(TWItem.self) { sum += o.age; if o.id <= last { ordered = false }; last = o.id }
        XCTAssertTrue(ordered)
        XCTAssertEqual(sum, (1...n).reduce(0) { $0 + $1 % 100 } + 10)
        XCTAssertEqual(realm.objects(TWItem.self).filter { $0.note == "third" }.count, (n + 10) / 3)
        XCTAssertEqual(realm.object(ofType: TWItem.self, forPrimaryKey: 999)?.score, 499.5)
        XCTAssertEqual(realm.object(ofType: TWItem.self, forPrimaryKey: 999)?.active, false)
        assertIntegrity(realm)
        // Reopened from the file.
        let config = realm.configuration
        realm.invalidate()
        let again = try Realm(configuration: config)
        XCTAssertEqual(again.object(ofType: TWItem.self, forPrimaryKey: n)?.name, "n\(n)")
    }

    func testValueBeyondTheLimitThrowsAtItsAddAndKeepsEarlierAdds() throws {
        let f = APIFixture()
        let realm = try realm(f)
        realm.beginWrite()
        realm.add(item(1, "a"))
        let big = item(2, String(repeating: "x", count: ObjectLimits.maxValueBytes + 1))
        XCTAssertThrowsError(try realm.tryAdd(big)) { e in
            guard case ObjectError.valueTooLarge = e else { return XCTFail("\(e)") }
        }
        XCTAssertNil(big.realm)
        realm.add(item(3, "c"))
        try realm.commitWrite()
        XCTAssertEqual(realm.objects(TWItem.self).map(\.id), [1, 3])
    }
}

extension TypedWriteTests {
    /// One small write after another appends to the last cluster (no cluster per write).
    func testSmallWritesShareTheLastCluster() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config("small.strata", types: [TWItem.self]))
        for id in 1...300 { try realm.write { let o = TWItem(); o.id = id; o.name = "n\(id)"; realm.add(o) } }
        let clusters = try realm.withTransaction { txn -> Int in
            var n = 0
            try txn.table("TWItem").forEachCluster { _ in n += 1; return true }
            return n
        }
        XCTAssertEqual(clusters, 1)
        XCTAssertEqual(realm.objects(TWItem.self).map(\.id), Array(1...300))
        XCTAssertEqual(realm.object(ofType: TWItem.self, forPrimaryKey: 150)?.name, "n150")
        assertIntegrity(realm)
    }
}

/// Plain values of other Swift types than Int/Double/Bool/String (kept as `Value`s while pending).
final class TWWide: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var small: Int32 = 0
    @Persisted var count: Int?
    @Persisted var at = Date(timeIntervalSince1970: 0)
    @Persisted var ratio: Float = 0
    @Persisted var label = ""
}

extension TypedWriteTests {
    func testPendingRowsOfOtherValueTypes() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config("wide.strata", types: [TWWide.self]))
        try realm.write {
            for id in Int64(1)...20 {
                let o = TWWide(); o.id = id; o.small = Int32(id) * 2; o.count = id % 2 == 0 ? Int(id) : nil
                o.at = Date(timeIntervalSince1970: Double(id)); o.ratio = Float(id) / 4; o.label = "w\(id)"
                realm.add(o)
            }
            XCTAssertThrowsError(try realm.tryAdd({ let o = TWWide(); o.id = 5; return o }()))
            XCTAssertEqual(realm.objects(TWWide.self).count, 20)
        }
        let all = realm.objects(TWWide.self)
        XCTAssertEqual(all.map(\.id), Array(Int64(1)...20))
        XCTAssertEqual(all.map(\.small), (1...20).map { Int32($0) * 2 })
        XCTAssertEqual(all.map(\.count), (1...20).map { $0 % 2 == 0 ? $0 : nil })
        XCTAssertEqual(realm.object(ofType: TWWide.self, forPrimaryKey: Int64(7))?.at, Date(timeIntervalSince1970: 7))
        XCTAssertEqual(realm.object(ofType: TWWide.self, forPrimaryKey: Int64(8))?.ratio, 2)
        XCTAssertEqual(realm.object(ofType: TWWide.self, forPrimaryKey: Int64(9))?.label, "w9")
        assertIntegrity(realm)
    }
}

extension TypedWriteTests {
    /// After `commitWrite` the realm reads the version it committed through the reader slot it
    /// had before the write (handed over by the commit): one slot for the realm however many
    /// writes, always at the realm's version; a cancelled write gives it up.
    func testCommitsContinueAsAReadOfTheCommittedVersion() throws {
        let f = APIFixture()
        let realm = try realm(f)
        let store = realm.core.coordinator.db.store
        func mySlots() -> [UInt64] { store.readers().filter { $0.pid == getpid() }.map(\.version) }
        _ = realm.objects(TWItem.self).count
        XCTAssertEqual(mySlots(), [realm.version])
        for id in 1...20 {
            let before = realm.version
            try realm.write { realm.add(item(id, "n\(id)")) }
            XCTAssertEqual(realm.version, before + 1)
            XCTAssertEqual(mySlots(), [realm.version], "one slot, at the committed version")
            XCTAssertEqual(realm.objects(TWItem.self).count, id)
        }
        try realm.write { realm.object(ofType: TWItem.self, forPrimaryKey: 3)!.name = "three" }
        XCTAssertEqual(realm.object(ofType: TWItem.self, forPrimaryKey: 3)?.name, "three")
        XCTAssertEqual(mySlots(), [realm.version])
        realm.beginWrite()
        realm.add(item(100))
        realm.cancelWrite()
        XCTAssertEqual(mySlots(), [], "a cancelled write gives up the slot it kept")
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 100))
        XCTAssertEqual(mySlots(), [realm.version])
        assertIntegrity(realm)
    }
}
