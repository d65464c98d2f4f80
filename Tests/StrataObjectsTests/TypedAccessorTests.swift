import XCTest
import Foundation
@testable import StrataObjects

/// Many properties of the same type, each with its own default, one stored under another name:
/// an accessor that found the wrong property index would read or write a neighbour.
final class TAWide: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var a = 1
    @Persisted var b = 2
    @Persisted var c = 3
    @Persisted var first = "first"
    @Persisted var second = "second"
    @Persisted var renamed = 4
    @Persisted var flag = true
    @Persisted var ratio: Double? = 0.5

    override class func propertiesMapping() -> [String: String] { ["renamed": "stored_as"] }
}

/// A second class in the same realm (primary-key lookups find each class's info).
final class TAOther: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var a = -1
}

/// The typed accessors find a property by the tag of the wrapper at the same place in the
/// class's schema probe (no key path object per access), and objects of model classes hold
/// their class info unretained: these tests read and write every property through its own
/// accessor, unmanaged and managed, through lookups, iteration, writes and frozen copies.
final class TypedAccessorTests: XCTestCase {
    private func realm(_ f: APIFixture) throws -> Realm {
        try Realm(configuration: f.config("accessors.strata", types: [TAWide.self, TAOther.self]))
    }

    private func values(_ o: TAWide) -> [String] {
        ["\(o.id)", "\(o.a)", "\(o.b)", "\(o.c)", o.first, o.second, "\(o.renamed)", "\(o.flag)", "\(o.ratio.map { "\($0)" } ?? "nil")"]
    }

    func testEachAccessorReadsAndWritesItsOwnPropertyUnmanagedAndManaged() throws {
        let f = APIFixture()
        let realm = try realm(f)
        // Unmanaged: declared defaults first (the out-of-line first read), then set values.
        let fresh = TAWide()
        XCTAssertEqual(values(fresh), ["0", "1", "2", "3", "first", "second", "4", "true", "0.5"])
        let o = TAWide()
        o.id = 7; o.c = 30; o.a = 10; o.second = "2nd"; o.renamed = 40; o.ratio = nil
        XCTAssertEqual(values(o), ["7", "10", "2", "30", "first", "2nd", "40", "true", "nil"])
        let other = TAOther(); other.id = 7; other.a = 70
        try realm.write { realm.add(o); realm.add(other) }
        // The added object itself, then a lookup, then iteration: the same values.
        XCTAssertEqual(values(o), ["7", "10", "2", "30", "first", "2nd", "40", "true", "nil"])
        let found = try XCTUnwrap(realm.object(ofType: TAWide.self, forPrimaryKey: 7))
        XCTAssertEqual(values(found), values(o))
        XCTAssertEqual(realm.object(ofType: TAOther.self, forPrimaryKey: 7)?.a, 70)
        XCTAssertNil(realm.object(ofType: TAOther.self, forPrimaryKey: 8))
        XCTAssertEqual(realm.objects(TAWide.self).map { self.values($0) }, [values(o)])
        // The stored columns are the ones the accessors named (read by name, the file's names).
        XCTAssertEqual(found["c"] as? Int, 30)
        XCTAssertEqual(found["stored_as"] as? Int, 40)
        XCTAssertEqual(found["second"] as? String, "2nd")
        // Managed setters write their own column only.
        try realm.write { found.b = 20; found.first = "1st"; found.flag = false; found.ratio = 2.5 }
        XCTAssertEqual(values(o), ["7", "10", "20", "30", "1st", "2nd", "40", "false", "2.5"])
        XCTAssertEqual(found["b"] as? Int, 20)
        XCTAssertEqual(realm.object(ofType: TAOther.self, forPrimaryKey: 7)?.a, 70)
        // A frozen copy reads its version; the live object the next one.
        let frozen = found.freeze()
        try realm.write { found.a = 11 }
        XCTAssertEqual(frozen.a, 10); XCTAssertEqual(found.a, 11); XCTAssertEqual(o.a, 11)
        XCTAssertEqual(values(frozen), ["7", "10", "20", "30", "1st", "2nd", "40", "false", "2.5"])
        // Key paths still name their properties (the key-path probe reads through the accessors).
        XCTAssertEqual(TAWide._propertyName(for: \TAWide.second), "second")
        XCTAssertEqual(TAWide._propertyName(for: \TAWide.c), "c")
    }

    func testObjectsKeptFromIterationAndLookupsReadTheirOwnRowsAcrossWritesAndRefresh() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write {
            for i in 1...2500 { let o = TAWide(); o.id = i; o.a = i; o.c = -i; o.first = "f\(i)"; realm.add(o) }
        }
        var kept: [TAWide] = []
        var sum = 0
        for o in realm.objects(TAWide.self) {
            sum += o.a
            XCTAssertEqual(o.c, -o.id)
            if o.id % 250 == 0 { kept.append(o) }
        }
        XCTAssertEqual(sum, (1...2500).reduce(0, +))
        let looked = (1...10).map { realm.object(ofType: TAWide.self, forPrimaryKey: $0 * 240)! }
        try realm.write { for o in kept { o.a += 100_000 } }
        XCTAssertEqual(kept.map(\.a), (1...10).map { $0 * 250 + 100_000 })
        XCTAssertEqual(kept.map(\.first), (1...10).map { "f\($0 * 250)" })
        XCTAssertEqual(looked.map(\.c), (1...10).map { -$0 * 240 })
        // Another thread's commit, seen after refresh.
        realm.autorefresh = false
        let config = realm.configuration
        let done = expectation(description: "other thread")
        DispatchQueue.global().async {
            let other = try! Realm(configuration: config)
            try! other.write { other.object(ofType: TAWide.self, forPrimaryKey: 250)!.first = "elsewhere" }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(kept[0].first, "f250")
        realm.refresh()
        XCTAssertEqual(kept[0].first, "elsewhere")
        XCTAssertEqual(kept[1].first, "f500")
    }

    func testDeclaredDefaultsOfUntouchedPropertiesAreReadAtTheirWrappersOffsets() throws {
        let readers = try XCTUnwrap(ClassInfo.of(TAWide.self).allInitialReaders)
        XCTAssertEqual(readers.count, 9)
        let fresh = TAWide()
        XCTAssertNil(readers[0](fresh))                                  // no declared default
        XCTAssertEqual(readers[1](fresh) as? Int, 1)
        XCTAssertEqual(readers[3](fresh) as? Int, 3)
        XCTAssertEqual(readers[5](fresh) as? String, "second")
        XCTAssertEqual(readers[6](fresh) as? Int, 4)
        XCTAssertEqual(readers[7](fresh) as? Bool, true)
        XCTAssertEqual(readers[8](fresh) as? Double, 0.5)
        // A generated default is the instance's own: adding untouched objects stores each one's.
        let f = APIFixture()
        let realm = try Realm(configuration: f.config("defaults.strata", types: [FPItem.self]))
        let a = FPItem(), b = FPItem()
        a.id = 1; b.id = 2
        func declared(_ o: FPItem) -> ObjectId? {
            (Mirror(reflecting: o).children.first { $0.label == "_created" }?.value as? Persisted<ObjectId>)?._initial
        }
        let (ca, cb) = (try XCTUnwrap(declared(a)), try XCTUnwrap(declared(b)))
        XCTAssertNotEqual(ca, cb)
        XCTAssertEqual(try XCTUnwrap(ClassInfo.of(FPItem.self).allInitialReaders)[4](a) as? ObjectId, ca)
        try realm.write { realm.add([a, b]) }
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 1)?.created, ca)
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 2)?.created, cb)
        XCTAssertEqual(realm.object(ofType: FPItem.self, forPrimaryKey: 2)?.name, "unnamed")
    }

    func testModelObjectsShareTheirClassInfoAndDynamicObjectsKeepTheirOwn() throws {
        let f = APIFixture()
        let realm = try realm(f)
        try realm.write { let o = TAWide(); o.id = 1; o.a = 5; realm.add(o) }
        let o = try XCTUnwrap(realm.object(ofType: TAWide.self, forPrimaryKey: 1))
        XCTAssertTrue(o._rlmInfoCache === ClassInfo.of(TAWide.self))
        XCTAssertTrue(ClassInfo.of(TAWide.self).isPermanent)
        // A dynamic object's info is its own: the object keeps it alive.
        weak var dynamicInfo: ClassInfo?
        var d: DynamicObject? = try XCTUnwrap(realm.dynamicObject(ofType: "TAWide", forPrimaryKey: 1))
        dynamicInfo = d?._rlmInfoCache
        XCTAssertNotNil(dynamicInfo)
        XCTAssertFalse(dynamicInfo?.isPermanent ?? true)
        XCTAssertEqual(d?["a"] as? Int, 5)
        XCTAssertEqual(d?._rlmInfoCache?.className, "TAWide")
        d = nil
        XCTAssertNil(dynamicInfo)
        // A new unmanaged object finds its info on first access.
        let u = TAWide()
        XCTAssertNil(u._rlmInfoCache)
        XCTAssertEqual(u.b, 2)
        XCTAssertTrue(u._rlmInfoCache === ClassInfo.of(TAWide.self))
    }
}

/// Int primary-key lookups through the typed read cursor answer as `DBTransaction.find` does
/// at every point of a realm's life: before and after refresh, inside writes, after deletes,
/// invalidation and on frozen realms.
final class TypedLookupTests: XCTestCase {
    func testIntKeyLookupsFollowTheRealmsVersion() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config("lookups.strata", types: [TAWide.self, TAOther.self]))
        try realm.write { for i in 1...1500 { let o = TAWide(); o.id = i * 2; o.a = i; realm.add(o) } }
        XCTAssertEqual(realm.object(ofType: TAWide.self, forPrimaryKey: 2000)?.a, 1000)
        XCTAssertNil(realm.object(ofType: TAWide.self, forPrimaryKey: 2001))       // between keys
        XCTAssertNil(realm.object(ofType: TAWide.self, forPrimaryKey: 0))
        XCTAssertNil(realm.object(ofType: TAWide.self, forPrimaryKey: 5000))       // beyond the last
        XCTAssertNil(realm.object(ofType: TAOther.self, forPrimaryKey: 2))        // another class
        // Another thread inserts: seen after refresh only.
        realm.autorefresh = false
        let config = realm.configuration
        let done = expectation(description: "other thread")
        DispatchQueue.global().async {
            let other = try! Realm(configuration: config)
            try! other.write { let o = TAWide(); o.id = 2001; o.a = -1; other.add(o); other.delete(other.object(ofType: TAWide.self, forPrimaryKey: 4)!) }
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        XCTAssertNil(realm.object(ofType: TAWide.self, forPrimaryKey: 2001))
        XCTAssertEqual(realm.object(ofType: TAWide.self, forPrimaryKey: 4)?.a, 2)
        realm.refresh()
        XCTAssertEqual(realm.object(ofType: TAWide.self, forPrimaryKey: 2001)?.a, -1)
        XCTAssertNil(realm.object(ofType: TAWide.self, forPrimaryKey: 4))
        // Inside a write: objects added and deleted in it.
        let frozen = realm.freeze()
        try realm.write {
            let o = TAWide(); o.id = 7; o.a = 77; realm.add(o)
            XCTAssertEqual(realm.object(ofType: TAWide.self, forPrimaryKey: 7)?.a, 77)
            realm.delete(realm.object(ofType: TAWide.self, forPrimaryKey: 6)!)
            XCTAssertNil(realm.object(ofType: TAWide.self, forPrimaryKey: 6))
        }
        XCTAssertEqual(realm.object(ofType: TAWide.self, forPrimaryKey: 7)?.a, 77)
        XCTAssertNil(realm.object(ofType: TAWide.self, forPrimaryKey: 6))
        // The frozen realm keeps its version.
        XCTAssertNil(frozen.object(ofType: TAWide.self, forPrimaryKey: 7))
        XCTAssertEqual(frozen.object(ofType: TAWide.self, forPrimaryKey: 6)?.a, 3)
        XCTAssertTrue(frozen.object(ofType: TAWide.self, forPrimaryKey: 6)?.isFrozen ?? false)
        // After invalidation the next lookup reads the current version.
        realm.invalidate()
        XCTAssertEqual(realm.object(ofType: TAWide.self, forPrimaryKey: 7)?.a, 77)
        XCTAssertEqual(realm.object(ofType: TAWide.self, forPrimaryKey: 3000)?.a, 1500)
    }
}
