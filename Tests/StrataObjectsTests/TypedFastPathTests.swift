import XCTest
import Foundation
@testable import StrataObjects
import StrataStorage

/// A class of plain values only: `realm.add` takes the one-row insert path.
final class FPItem: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name = "unnamed"
    @Persisted var age: Int
    @Persisted var score: Double?
    @Persisted var created = ObjectId.generate()
}

/// A class with state of its own besides `@Persisted` properties: iteration never reuses its
/// accessors (the state would carry over to the next element).
final class FPStateful: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var age: Int
    var scratch = 0
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

    private func seeded(_ f: APIFixture, count: Int = 3000) throws -> Realm {
        let realm = try Realm(configuration: f.config("fast.strata", types: [FPItem.self, FPStateful.self]))
        try realm.write {
            for i in 1...count {
                let o = FPItem(); o.id = i; o.age = i; o.name = "n\(i)"; o.score = Double(i) / 2; realm.add(o)
                let s = FPStateful(); s.id = i; s.age = i; realm.add(s)
            }
        }
        return realm
    }

    func testIterationReusesOnlyAccessorsTheCallerLetGo() throws {
        let f = APIFixture()
        let realm = try seeded(f)
        var kept: [FPItem] = []
        var identities = Set<ObjectIdentifier>()
        var count = 0
        for item in realm.objects(FPItem.self) {
            identities.insert(ObjectIdentifier(item))
            XCTAssertEqual(item.age, item.id)
            XCTAssertEqual(item.name, "n\(item.id)")
            if item.id % 100 == 0 { kept.append(item) }
            count += 1
        }
        XCTAssertEqual(count, 3000)
        // Kept objects were not re-pointed: each still reads its own row.
        XCTAssertEqual(kept.map(\.id), Array(stride(from: 100, through: 3000, by: 100)))
        XCTAssertEqual(kept.map(\.age), kept.map(\.id))
        XCTAssertEqual(Set(kept.map { ObjectIdentifier($0) }).count, kept.count)
        // Elements the loop let go were reused (far fewer instances than elements).
        XCTAssertLessThan(identities.count, 1000)
    }

    func testIterationNeverReusesWeaklyOrUnownedReferencedOrStatefulObjects() throws {
        let f = APIFixture()
        let realm = try seeded(f, count: 50)
        // A weak reference: the object is not re-pointed (it goes away or keeps its row).
        weak var firstWeak: FPItem?
        var seen = 0
        for item in realm.objects(FPItem.self) {
            if item.id == 1 { firstWeak = item }
            if let w = firstWeak { XCTAssertEqual(w.id, 1) }
            seen += 1
        }
        XCTAssertEqual(seen, 50)
        // Unowned, weak and other strong references make an object not the only reference,
        // through the runtime's queries and through the inline counts (readable on this platform).
        XCTAssertTrue(ObjectBase.inlineRefCountsReadable)
        for inline in [false, true] {
            var o: ObjectBase = FPItem()
            XCTAssertTrue(ObjectBase.isOnlyReference(&o, readInlineCounts: inline))
            do {
                let other = o
                XCTAssertFalse(ObjectBase.isOnlyReference(&o, readInlineCounts: inline))
                withExtendedLifetime(other) {}
            }
            do {
                unowned let u = o
                XCTAssertFalse(ObjectBase.isOnlyReference(&o, readInlineCounts: inline))
                withExtendedLifetime(u) {}
            }
            do {
                weak var w = o
                XCTAssertFalse(ObjectBase.isOnlyReference(&o, readInlineCounts: inline))
                withExtendedLifetime(w) {}
                _ = w
            }
        }
        // A class with its own state is never reused: each element starts fresh.
        XCTAssertFalse(ClassInfo.of(FPStateful.self).isReusableAccessor)
        XCTAssertTrue(ClassInfo.of(FPItem.self).isReusableAccessor)
        for s in realm.objects(FPStateful.self) {
            XCTAssertEqual(s.scratch, 0)
            s.scratch = s.id
        }
    }

    func testDirectReadsFollowWritesRefreshesDeletesAndFrozenVersions() throws {
        let f = APIFixture()
        let realm = try seeded(f)
        let a = try XCTUnwrap(realm.object(ofType: FPItem.self, forPrimaryKey: 10))
        let b = try XCTUnwrap(realm.object(ofType: FPItem.self, forPrimaryKey: 2500))
        // Reads alternating between clusters keep each object's own row.
        XCTAssertEqual(a.age, 10); XCTAssertEqual(b.age, 2500); XCTAssertEqual(a.name, "n10")
        XCTAssertEqual(b.score, 1250); XCTAssertEqual(a.score, 5)
        let frozen = a.freeze()
        // A write: reads inside it see the change, and after the commit too.
        try realm.write {
            a.age = 11; a.name = "changed"
            XCTAssertEqual(a.age, 11); XCTAssertEqual(a.name, "changed")
        }
        XCTAssertEqual(a.age, 11); XCTAssertEqual(a.name, "changed"); XCTAssertEqual(b.age, 2500)
        // The frozen object reads its own version, directly or not.
        XCTAssertEqual(frozen.age, 10); XCTAssertEqual(frozen.name, "n10")
        // Another thread's commit is seen after refresh (not before: the read version holds).
        realm.autorefresh = false
        let config = realm.configuration
        let done = expectation(description: "other thread")
        DispatchQueue.global().async {
            let other = try! Realm(configuration: config)
            try! other.write { other.object(ofType: FPItem.self, forPrimaryKey: 10)!.age = 99 }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(a.age, 11)
        realm.refresh()
        XCTAssertEqual(a.age, 99)
        // A deleted object is invalidated; the others still read their rows.
        try realm.write { realm.delete(b) }
        XCTAssertTrue(b.isInvalidated)
        XCTAssertFalse(a.isInvalidated)
        XCTAssertEqual(a.age, 99)
        XCTAssertNil(realm.object(ofType: FPItem.self, forPrimaryKey: 2500))
        // Iteration after the changes sees the current version.
        var total = 0
        for item in realm.objects(FPItem.self) { total += item.age }
        XCTAssertEqual(total, (1...3000).reduce(0, +) - 10 + 99 - 2500)
        // Invalidating the realm drops the cached read and invalidates the accessors obtained
        // before (as RealmSwift's); a new lookup reads the current version.
        realm.invalidate()
        XCTAssertTrue(a.isInvalidated)
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 10)?.age, 99)
        XCTAssertEqual(frozen.age, 10)
    }

    func testFrozenObjectsAreReadFromSeveralThreadsAtOnce() throws {
        let f = APIFixture()
        let realm = try seeded(f, count: 2000)
        let frozen = Array(realm.objects(FPItem.self).freeze())
        XCTAssertEqual(frozen.count, 2000)
        try realm.write { realm.object(ofType: FPItem.self, forPrimaryKey: 1)!.age = -5 }
        nonisolated(unsafe) let objects = frozen
        let sums = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            var s = 0
            for _ in 0..<3 { for o in objects { s += o.age + o.name.count } }
            sums.with { $0.append(s) }
        }
        let expected = 3 * ((1...2000).reduce(0, +) + (1...2000).reduce(0) { $0 + "n\($1)".count })
        XCTAssertEqual(sums.with { $0 }, Array(repeating: expected, count: 4))
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 1)?.age, -5)
    }
}

extension TypedFastPathTests {
    /// Lookups by primary key fetch the row of the columns earlier reads used (`fetchRow`):
    /// the values read are those stored, whatever column was learned, across clusters, with
    /// nil and empty values, after a change of the columns read, and after a commit.
    func testLookupsReadStoredValuesWhateverColumnsWereReadBefore() throws {
        let f = APIFixture()
        let realm = try realm(f)
        let n = 3_000   // three clusters
        func name(_ id: Int) -> String { id % 7 == 0 ? "" : "name \(id) " + String(repeating: "é", count: id % 5) }
        func score(_ id: Int) -> Double? { id % 3 == 0 ? nil : Double(id) / 4 }
        try realm.write {
            for id in 0..<n { let o = FPItem(); o.id = id; o.name = name(id); o.age = id % 90; o.score = score(id); realm.add(o) }
        }
        var order = Array(0..<n)
        var g = SplitMix64(seed: 7)
        order.shuffle(using: &g)
        for id in order.prefix(500) {
            let o = try XCTUnwrap(realm.object(ofType: FPItem.self, forPrimaryKey: id))
            XCTAssertEqual(o.name, name(id)); XCTAssertEqual(o.score, score(id))
        }
        // Other columns now (the learned ones are fetched too, and still read right).
        for id in order.suffix(500) {
            let o = try XCTUnwrap(realm.object(ofType: FPItem.self, forPrimaryKey: id))
            XCTAssertEqual(o.age, id % 90)
            if id % 2 == 0 { XCTAssertEqual(o.name, name(id)) }
        }
        XCTAssertNil(realm.object(ofType: FPItem.self, forPrimaryKey: n + 5))
        try realm.write { realm.object(ofType: FPItem.self, forPrimaryKey: 10)!.name = "changed" }
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 10)?.name, "changed")
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 2_999)?.score, score(2_999))
    }
}

