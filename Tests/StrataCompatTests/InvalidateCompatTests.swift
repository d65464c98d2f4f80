import Foundation
import XCTest
import Strata

final class IVDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<IVOwner>
}

final class IVOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<IVDog>
    @Persisted var tags: MutableSet<String>
    @Persisted var dogsByName: Map<String, IVDog?>
    @Persisted var counts: List<Int>
}

/// `Realm.invalidate()` as RealmSwift documents and tests it (RLMRealm's
/// testInvalidateDetachesAccessors, testInvalidateInvalidatesResults,
/// testInvalidateInvalidatesArrays, testCanRestartReadTransactionAfterInvalidate): every object
/// and collection obtained before is invalidated; the realm itself stays usable.
final class InvalidateCompatTests: XCTestCase {
    private func seeded(_ dir: CompatDir) throws -> Realm {
        let realm = try Realm(configuration: dir.config(types: [IVOwner.self, IVDog.self]))
        try realm.write {
            let o = IVOwner(); o.id = 1; o.name = "Ann"
            for (n, a) in [("Rex", 3), ("Ace", 1)] {
                let d = IVDog(); d.name = n; d.age = a
                o.dogs.append(d); o.dogsByName[n] = d
            }
            o.tags.insert("a"); o.counts.append(objectsIn: [3, 1, 2])
            realm.add(o)
        }
        return realm
    }

    func testInvalidateInvalidatesObjectsAndEveryCollectionObtainedBefore() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let owner = try XCTUnwrap(realm.object(ofType: IVOwner.self, forPrimaryKey: 1))
        let dog = owner.dogs[0]
        let dogs = owner.dogs, tags = owner.tags, byName = owner.dogsByName, owners = dog.owners
        let all = realm.objects(IVDog.self)
        let filtered = realm.objects(IVDog.self).filter("age > 2")
        let sortedCounts = owner.counts.sorted()
        let frozen = owner.freeze()
        XCTAssertEqual(all.count, 2); XCTAssertEqual(filtered.count, 1); XCTAssertEqual(Array(sortedCounts), [1, 2, 3])
        for invalidated in [owner.isInvalidated, dog.isInvalidated, dogs.isInvalidated, tags.isInvalidated, byName.isInvalidated,
                            owners.isInvalidated, all.isInvalidated, filtered.isInvalidated, sortedCounts.isInvalidated] {
            XCTAssertFalse(invalidated)
        }

        realm.invalidate()

        XCTAssertTrue(owner.isInvalidated)
        XCTAssertTrue(dog.isInvalidated)
        XCTAssertTrue(dogs.isInvalidated)
        XCTAssertTrue(tags.isInvalidated)
        XCTAssertTrue(byName.isInvalidated)
        XCTAssertTrue(owners.isInvalidated)
        XCTAssertTrue(all.isInvalidated)
        XCTAssertTrue(filtered.isInvalidated)
        XCTAssertTrue(sortedCounts.isInvalidated)
        XCTAssertEqual(owner.description, "[invalid object]")
        // What stays usable: the realm, the objects' realm and class, frozen objects.
        XCTAssertNotNil(owner.realm)
        XCTAssertFalse(frozen.isInvalidated)
        XCTAssertEqual(frozen.name, "Ann")
        XCTAssertEqual(frozen.dogs.map(\.name), ["Rex", "Ace"])
        // A new read transaction begins with the next access.
        let again = try XCTUnwrap(realm.object(ofType: IVOwner.self, forPrimaryKey: 1))
        XCTAssertFalse(again.isInvalidated)
        XCTAssertEqual(again.dogs.map(\.name), ["Rex", "Ace"])
        XCTAssertEqual(realm.objects(IVDog.self).filter("age > 2").map(\.name), ["Rex"])
        XCTAssertEqual(again.dogsByName["Ace"]??.age, 1)
        XCTAssertEqual(again.dogs[0].owners.count, 1)
        // Objects obtained after it are valid until the next invalidate.
        realm.invalidate()
        XCTAssertTrue(again.isInvalidated)
        XCTAssertEqual(realm.objects(IVOwner.self).first?.name, "Ann")
    }

    func testRefreshWritesAndCommitsDoNotInvalidate() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let owner = try XCTUnwrap(realm.objects(IVOwner.self).first)
        let dogs = owner.dogs, all = realm.objects(IVDog.self)
        realm.refresh()
        try realm.write { owner.name = "Bea"; dogs[0].age = 9 }
        realm.beginWrite(); realm.cancelWrite()
        XCTAssertFalse(owner.isInvalidated); XCTAssertFalse(dogs.isInvalidated); XCTAssertFalse(all.isInvalidated)
        XCTAssertEqual(owner.name, "Bea"); XCTAssertEqual(dogs[0].age, 9); XCTAssertEqual(all.count, 2)
    }

    func testInvalidateDuringAWriteRollsItBack() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        realm.beginWrite()
        let d = IVDog(); d.name = "New"
        realm.add(d)
        realm.invalidate()
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertTrue(d.isInvalidated)
        XCTAssertEqual(realm.objects(IVDog.self).count, 2)
        // Writing works again, with objects fetched anew.
        try realm.write { realm.objects(IVDog.self).first!.age = 5 }
        XCTAssertEqual(realm.objects(IVDog.self).first?.age, 5)
    }

    func testInvalidateLeavesTheRealmsOfOtherThreadsAlone() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let config = realm.configuration
        let obtained = DispatchSemaphore(value: 0), invalidated = DispatchSemaphore(value: 0)
        final class Seen: @unchecked Sendable { var value: (Bool, String, Int)? }
        let seen = Seen()
        let done = expectation(description: "other thread")
        Thread {
            let other = try! Realm(configuration: config)
            let o = other.object(ofType: IVOwner.self, forPrimaryKey: 1)!
            let dogs = other.objects(IVDog.self)
            _ = dogs.count
            obtained.signal()
            invalidated.wait()
            seen.value = (o.isInvalidated || dogs.isInvalidated, o.name, dogs.count)
            done.fulfill()
        }.start()
        obtained.wait()
        let mine = realm.objects(IVOwner.self).first!
        realm.invalidate()
        invalidated.signal()
        wait(for: [done], timeout: 10)
        XCTAssertTrue(mine.isInvalidated)
        let (invalid, name, count) = try XCTUnwrap(seen.value)
        XCTAssertFalse(invalid)
        XCTAssertEqual(name, "Ann")
        XCTAssertEqual(count, 2)
    }

    func testInvalidateOnAFrozenRealmKeepsItsObjects() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let frozen = realm.freeze()
        let owner = try XCTUnwrap(frozen.objects(IVOwner.self).first)
        frozen.invalidate()
        XCTAssertFalse(owner.isInvalidated)
        XCTAssertEqual(owner.name, "Ann")
        XCTAssertEqual(frozen.objects(IVDog.self).count, 2)
    }

    /// Observers outlive an invalidation: they deliver the next changes, handing the block an
    /// object or collection that can be read.
    func testObserversKeepDeliveringUsableObjectsAndCollectionsAfterInvalidate() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let owner = try XCTUnwrap(realm.object(ofType: IVOwner.self, forPrimaryKey: 1))
        var resultCounts: [Int] = [], listNames: [[String]] = [], mapKeys: [[String]] = [], ownerNames: [String] = []
        let t1 = realm.objects(IVDog.self).observe { change in
            switch change {
            case .initial(let r), .update(let r, _, _, _): resultCounts.append(r.count)
            case .error(let e): XCTFail("\(e)")
            }
        }
        let t2 = owner.dogs.observe { change in
            if case .update(let l, _, _, _) = change { listNames.append(l.map(\.name)) }
        }
        let t3 = owner.dogsByName.observe { change in
            if case .update(let m, _, _, _) = change { mapKeys.append(m.keys) }
        }
        let t4 = owner.observe { (change: ObjectChange<IVOwner>) in
            if case .change(let o, _) = change { ownerNames.append(o.name) }
        }
        defer { t1.invalidate(); t2.invalidate(); t3.invalidate(); t4.invalidate() }
        realm.refresh()
        XCTAssertEqual(resultCounts, [2])

        realm.invalidate()
        try realm.write {
            let o = realm.object(ofType: IVOwner.self, forPrimaryKey: 1)!
            let d = IVDog(); d.name = "Max"
            o.dogs.append(d); o.dogsByName["Max"] = d; o.name = "Cy"
        }
        XCTAssertEqual(resultCounts, [2, 3])
        XCTAssertEqual(listNames, [["Rex", "Ace", "Max"]])
        XCTAssertEqual(mapKeys, [["Ace", "Max", "Rex"]])
        XCTAssertEqual(ownerNames, ["Cy"])
        XCTAssertTrue(owner.isInvalidated, "the app's own accessor stays invalidated")
    }
}
