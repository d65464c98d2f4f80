import Foundation
import XCTest
import Strata

final class AIDog: Object {
    @Persisted var name = ""
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<AIOwner>
}

final class AIOwner: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var dogs: List<AIDog>
    @Persisted(originProperty: "best") var admirers: LinkingObjects<AIOwner>
    @Persisted var counts: List<Int>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var best: AIOwner?
}

/// A managed object caches one accessor per `List`, `MutableSet` and `Map` property, as
/// RealmSwift's `@Persisted` does (`PropertyStorage.managedCached`): `obj.list === obj.list`.
final class AccessorIdentityCompatTests: XCTestCase {
    private func seeded(_ dir: CompatDir) throws -> Realm {
        let realm = try Realm(configuration: dir.config(types: [AIOwner.self, AIDog.self]))
        try realm.write {
            for id in 1...3 {
                let o = AIOwner(); o.id = id
                o.counts.append(objectsIn: Array(repeating: id, count: id))
                o.tags.insert("t\(id)"); o.scores["s"] = id
                let d = AIDog(); d.name = "dog\(id)"; o.dogs.append(d)
                realm.add(o)
            }
        }
        return realm
    }

    func testRepeatedReadsOfACollectionPropertyReturnTheSameAccessor() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let o = try XCTUnwrap(realm.object(ofType: AIOwner.self, forPrimaryKey: 1))
        XCTAssertTrue(o.dogs === o.dogs)
        XCTAssertTrue(o.counts === o.counts)
        XCTAssertTrue(o.tags === o.tags)
        XCTAssertTrue(o.scores === o.scores)
        // Key-value coding reads the same accessor.
        XCTAssertTrue((o["counts"] as AnyObject) === o.counts)
        // Another accessor object of the same row has accessors of its own.
        let again = try XCTUnwrap(realm.object(ofType: AIOwner.self, forPrimaryKey: 1))
        XCTAssertFalse(again.counts === o.counts)
        XCTAssertEqual(Array(again.counts), Array(o.counts))
    }

    func testCachedAccessorsFollowWritesAndRefresh() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let o = try XCTUnwrap(realm.object(ofType: AIOwner.self, forPrimaryKey: 2))
        let counts = o.counts, tags = o.tags, scores = o.scores
        try realm.write {
            o.counts.append(7)
            o.tags.insert("x")
            o.scores["n"] = 9
            o.counts = { let l = List<Int>(); l.append(objectsIn: [5, 6]); return l }()
        }
        XCTAssertTrue(o.counts === counts)
        XCTAssertEqual(Array(counts), [5, 6])
        XCTAssertEqual(Set(tags), ["t2", "x"])
        XCTAssertEqual(scores["n"], 9)

        // A commit of another thread, seen after refresh.
        let config = realm.configuration
        let done = expectation(description: "written elsewhere")
        DispatchQueue.global().async {
            let other = try! Realm(configuration: config)
            try! other.write { other.object(ofType: AIOwner.self, forPrimaryKey: 2)!.counts.append(8) }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        realm.refresh()
        XCTAssertTrue(o.counts === counts)
        XCTAssertEqual(Array(o.counts), [5, 6, 8])
        XCTAssertFalse(counts.isInvalidated)
    }

    func testInvalidateAndDeletionInvalidateTheCachedAccessor() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let o = try XCTUnwrap(realm.object(ofType: AIOwner.self, forPrimaryKey: 1))
        let dogs = o.dogs
        realm.invalidate()
        XCTAssertTrue(dogs.isInvalidated)
        XCTAssertTrue(o.isInvalidated)
        // Objects obtained again have fresh, valid accessors.
        let again = try XCTUnwrap(realm.object(ofType: AIOwner.self, forPrimaryKey: 1))
        XCTAssertFalse(again.dogs === dogs)
        XCTAssertTrue(again.dogs === again.dogs)
        XCTAssertFalse(again.dogs.isInvalidated)
        XCTAssertEqual(again.dogs.map(\.name), ["dog1"])

        let tags = again.tags, scores = again.scores
        try realm.write { realm.delete(again) }
        XCTAssertTrue(again.isInvalidated)
        XCTAssertTrue(again.dogs.isInvalidated)
        XCTAssertTrue(tags.isInvalidated)
        XCTAssertTrue(scores.isInvalidated)
        XCTAssertTrue(again.tags === tags)
    }

    func testFrozenObjectsCacheTheirOwnFrozenAccessors() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let o = try XCTUnwrap(realm.object(ofType: AIOwner.self, forPrimaryKey: 3))
        let live = o.counts
        let frozen = o.freeze()
        XCTAssertTrue(frozen.counts === frozen.counts)
        XCTAssertFalse(frozen.counts === live)
        XCTAssertTrue(frozen.counts.isFrozen)
        try realm.write { o.counts.append(4) }
        XCTAssertEqual(Array(frozen.counts), [3, 3, 3])
        XCTAssertEqual(Array(live), [3, 3, 3, 4])

        // The first reads of a frozen object's property on many threads at once agree.
        // Frozen objects may be read from any thread.
        nonisolated(unsafe) let shared = o.freeze()
        let ids = Locked<Set<ObjectIdentifier>>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let id = ObjectIdentifier(shared.tags)
            ids.with { $0.insert(id) }
        }
        XCTAssertEqual(ids.with { $0.count }, 1)
        XCTAssertTrue(ids.with { $0.first } == ObjectIdentifier(shared.tags))
    }

    func testAddedObjectKeepsTheCollectionItHadUnmanaged() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        let o = AIOwner(); o.id = 10
        let counts = o.counts, tags = o.tags, scores = o.scores
        counts.append(1); tags.insert("u"); scores["k"] = 2
        try realm.write { realm.add(o) }
        XCTAssertTrue(o.counts === counts)
        XCTAssertTrue(o.tags === tags)
        XCTAssertTrue(o.scores === scores)
        XCTAssertNotNil(counts.realm)
        try realm.write { o.counts.append(2) }
        XCTAssertEqual(Array(counts), [1, 2])
    }

    func testIteratingResultsReadsEachRowsOwnCollection() throws {
        let dir = CompatDir()
        let realm = try seeded(dir)
        // The loop may point one accessor object at each row in turn: its cached
        // collections must follow.
        var seen: [[Int]] = []
        for o in realm.objects(AIOwner.self).sorted(byKeyPath: "id") {
            seen.append(Array(o.counts))
            XCTAssertTrue(o.counts === o.counts)
        }
        XCTAssertEqual(seen, [[1], [2, 2], [3, 3, 3]])
    }
}

/// A value behind a lock (for the threads of a test).
private final class Locked<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func with<R>(_ body: (inout T) -> R) -> R { lock.lock(); defer { lock.unlock() }; return body(&value) }
}

/// `ObjectSchema.properties` as in RealmSwift: the stored properties only; linking objects are
/// `computedProperties` (RLMObjectSchema's split), still found by name and by queries.
final class ObjectSchemaComputedPropertiesCompatTests: XCTestCase {
    func testPropertiesLeaveOutLinkingObjectsWhichAreComputedProperties() throws {
        let owner = try XCTUnwrap(AIOwner.sharedSchema())
        XCTAssertEqual(owner.properties.map(\.name), ["id", "dogs", "counts", "tags", "scores", "best"])
        XCTAssertEqual(owner.computedProperties.map(\.name), ["admirers"])
        XCTAssertEqual(owner["admirers"]?.type, .linkingObjects)
        XCTAssertEqual(owner["admirers"]?.linkOriginPropertyName, "best")
        XCTAssertEqual(owner["counts"]?.collection, .list)
        XCTAssertNil(owner["nope"])
        XCTAssertEqual(owner.primaryKeyProperty?.name, "id")
        let dog = try XCTUnwrap(AIDog.sharedSchema())
        XCTAssertEqual(dog.properties.map(\.name), ["name"])
        XCTAssertEqual(dog.computedProperties.map(\.name), ["owners"])
        XCTAssertNil(dog.primaryKeyProperty)

        // The same through a realm's schema and an object's, also after opening the file again.
        let dir = CompatDir()
        let config = dir.config(types: [AIOwner.self, AIDog.self])
        do {
            let realm = try Realm(configuration: config)
            try realm.write {
                let o = AIOwner(); o.id = 1
                let d = AIDog(); d.name = "rex"; o.dogs.append(d)
                realm.add(o)
            }
            XCTAssertEqual(realm.schema["AIDog"]?.properties.map(\.name), ["name"])
            XCTAssertEqual(realm.schema["AIDog"]?.computedProperties.map(\.name), ["owners"])
            XCTAssertEqual(realm.objects(AIDog.self).first?.objectSchema.properties.map(\.name), ["name"])
        }
        let reopened = try Realm(configuration: config)
        XCTAssertEqual(reopened.schema["AIOwner"]?.properties.map(\.name), ["id", "dogs", "counts", "tags", "scores", "best"])
        XCTAssertEqual(reopened.schema["AIOwner"]?.computedProperties.map(\.name), ["admirers"])
        // Queries and the objects still see the linking objects.
        XCTAssertEqual(reopened.objects(AIDog.self).filter("owners.@count == 1").count, 1)
        XCTAssertEqual(reopened.objects(AIDog.self).first?.owners.first?.id, 1)

        // An array value in the order of `properties` makes an object, as in RealmSwift.
        let values: [String: Any] = ["id": 5, "dogs": [], "counts": [1, 2], "tags": ["a"], "scores": ["k": 1], "best": NSNull()]
        let made = AIOwner(value: owner.properties.map { values[$0.name]! })
        XCTAssertEqual(made.id, 5)
        XCTAssertEqual(Array(made.counts), [1, 2])
    }

    func testSettingPropertiesKeepsTheLinkingObjects() throws {
        var dog = try XCTUnwrap(AIDog.sharedSchema())
        var props = dog.properties
        props[0].isIndexed = true
        dog.properties = props
        XCTAssertEqual(dog["name"]?.isIndexed, true)
        XCTAssertEqual(dog.allProperties.map(\.name), ["name", "owners"])
        dog.properties.append(PropertySchema(name: "age", type: .int))
        XCTAssertEqual(dog.properties.map(\.name), ["name", "age"])
        XCTAssertEqual(dog.computedProperties.map(\.name), ["owners"])
    }
}
