import XCTest
import Foundation
@testable import StrataObjects

final class APIObjectTests: XCTestCase {
    func testSchemaIsDerivedFromSwiftTypes() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        let p = try XCTUnwrap(realm.schema["APerson"])
        XCTAssertEqual(p.properties.map(\.name), ["id", "name", "age", "nickname", "dogs", "best", "address", "tags", "scores", "extra", "previous"])
        XCTAssertEqual(p.primaryKeyProperty?.name, "id")
        XCTAssertTrue(p["name"]!.isIndexed)
        XCTAssertEqual(p["nickname"]!.isOptional, true)
        XCTAssertEqual(p["dogs"]!.collection, .list)
        XCTAssertEqual(p["dogs"]!.objectClassName, "ADog")
        XCTAssertEqual(p["tags"]!.collection, .set)
        XCTAssertEqual(p["scores"]!.collection, .map)
        XCTAssertEqual(p["extra"]!.type, .mixed)
        let d = try XCTUnwrap(realm.schema["ADog"])
        XCTAssertEqual(d["walkers"]!.type, .linkingObjects)
        XCTAssertEqual(d["walkers"]!.linkOriginPropertyName, "dogs")
        XCTAssertEqual(d["id"]!.type, .objectId)
        XCTAssertTrue(realm.schema["AAddress"]!.isEmbedded)
        XCTAssertNotNil(realm.schema["AGeo"], "classes reachable through links are added")
        XCTAssertEqual(Namespace.NestedModel.className(), "NestedModel")
        XCTAssertEqual(APerson._propertyName(for: \APerson.best?.name), "best.name")
        XCTAssertEqual(APerson._propertyName(for: \APerson.age), "age")
    }

    func testUnmanagedObjectsAreNothingButSwiftObjects() {
        let p = APerson(id: 1, name: "Ada", age: 36)
        p.dogs.append(ADog(name: "Rex"))
        p.tags.insert("x"); p.tags.insert("x")
        p.scores["math"] = 5
        p.address = AAddress(value: ["street": "1 Main", "city": "Oslo"])
        XCTAssertNil(p.realm)
        XCTAssertFalse(p.isInvalidated)
        XCTAssertEqual(p.name, "Ada")
        XCTAssertEqual(p.dogs.count, 1)
        XCTAssertEqual(p.dogs[0].name, "Rex")
        XCTAssertEqual(p.tags.count, 1)
        XCTAssertEqual(p.scores["math"], 5)
        XCTAssertEqual(p.address?.city, "Oslo")
        XCTAssertEqual(p["age"] as? Int, 36)
        p["age"] = 37
        XCTAssertEqual(p.age, 37)
        let d = ADog()
        XCTAssertEqual(d.id, d.id, "a generated default primary key is stable")
        XCTAssertEqual(d.weight, 1.5)
    }

    func testAddLinksRecursivelyAndReadsBackAfterReopen() throws {
        let f = APIFixture()
        let cfg = f.config()
        var rexId: ObjectId!
        do {
            let realm = try Realm(configuration: cfg)
            let p = APerson(id: 7, name: "Ada 🐙 李", age: 36)
            let rex = ADog(name: "Rex", weight: 12)
            rexId = rex.id
            rex.owner = p
            p.dogs.append(rex)
            p.dogs.append(ADog(name: "Fido"))
            p.best = rex
            p.address = AAddress(value: ["street": "1 Main", "city": "Oslo", "geo": ["lat": 59.9, "lon": 10.7]])
            p.tags.insert(objectsIn: ["a", "b", "a"])
            p.scores["math"] = 5
            p.extra = .string("mixed!")
            try realm.write { realm.add(p) }
            XCTAssertNotNil(p.realm, "added objects become managed")
            XCTAssertTrue(rex.realm != nil, "linked objects are added too")
            XCTAssertEqual(realm.objects(ADog.self).count, 2)
            XCTAssertEqual(realm.objects(AAddress.self).count, 1)
            XCTAssertEqual(realm.objects(AGeo.self).count, 1)
            assertIntegrity(realm)
        }
        let realm = try Realm(configuration: cfg)
        let p = try XCTUnwrap(realm.object(ofType: APerson.self, forPrimaryKey: 7))
        XCTAssertEqual(p.name, "Ada 🐙 李")
        XCTAssertEqual(p.age, 36)
        XCTAssertNil(p.nickname)
        XCTAssertEqual(p.dogs.map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(p.best?.id, rexId)
        XCTAssertEqual(p.best?.owner?.id, 7, "a cycle of links is stored")
        XCTAssertEqual(p.address?.street, "1 Main")
        XCTAssertEqual(p.address?.geo?.lat, 59.9)
        XCTAssertEqual(Set(p.tags), ["a", "b"])
        XCTAssertEqual(p.scores["math"], 5)
        XCTAssertEqual(p.extra, .string("mixed!"))
        XCTAssertEqual(p.objectSchema.className, "APerson")
        let rex = try XCTUnwrap(realm.object(ofType: ADog.self, forPrimaryKey: rexId))
        XCTAssertEqual(rex.walkers.count, 1)
        XCTAssertEqual(rex.walkers.first?.name, "Ada 🐙 李")
        XCTAssertEqual(rex.weight, 12)
        XCTAssertEqual(realm.objects(APerson.self).first, p, "managed objects compare by row")
    }

    func testEveryPropertyTypeRoundTrips() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config(types: [AllTypes.self, APerson.self]))
        let oid = ObjectId.generate(), u = UUID(), date = Date(timeIntervalSince1970: 1_700_000_000)
        let o = AllTypes()
        o.key = "k"; o.b = true; o.i = Int.max; o.i8 = -8; o.i16 = 1600; o.i32 = -32_000_000; o.i64 = Int64.min
        o.f = 1.5; o.d = -2.25; o.s = "héllo"; o.data = Data([1, 2, 3]); o.date = date; o.oid = oid; o.uuid = u
        o.dec = Decimal128(number: 12345); o.ob = false; o.oi = 42; o.oi8 = nil; o.of = 2.5; o.od = nil; o.os = "x"
        o.odata = Data([9]); o.odate = date; o.ooid = oid; o.ouuid = u; o.odec = 7
        o.mixed = .int(3); o.intList.append(objectsIn: [3, 1, 2]); o.optStrings.append(objectsIn: ["a", nil])
        o.dateSet.insert(date); o.mixedMap["n"] = .double(1); o.mixedMap["s"] = .string("v")
        try realm.write { realm.add(o) }
        realm.invalidate()
        let r = try XCTUnwrap(realm.object(ofType: AllTypes.self, forPrimaryKey: "k"))
        XCTAssertTrue(r.b); XCTAssertEqual(r.i, Int.max); XCTAssertEqual(r.i8, -8); XCTAssertEqual(r.i16, 1600)
        XCTAssertEqual(r.i32, -32_000_000); XCTAssertEqual(r.i64, Int64.min); XCTAssertEqual(r.f, 1.5); XCTAssertEqual(r.d, -2.25)
        XCTAssertEqual(r.s, "héllo"); XCTAssertEqual(r.data, Data([1, 2, 3])); XCTAssertEqual(r.date, date)
        XCTAssertEqual(r.oid, oid); XCTAssertEqual(r.uuid, u); XCTAssertEqual(r.dec, Decimal128(number: 12345))
        XCTAssertEqual(r.ob, false); XCTAssertEqual(r.oi, 42); XCTAssertNil(r.oi8); XCTAssertEqual(r.of, 2.5); XCTAssertNil(r.od)
        XCTAssertEqual(r.os, "x"); XCTAssertEqual(r.odata, Data([9])); XCTAssertEqual(r.odate, date); XCTAssertEqual(r.ooid, oid)
        XCTAssertEqual(r.ouuid, u); XCTAssertEqual(r.odec, 7); XCTAssertEqual(r.mixed, .int(3))
        XCTAssertEqual(Array(r.intList), [3, 1, 2]); XCTAssertEqual(Array(r.optStrings), ["a", nil])
        XCTAssertEqual(Array(r.dateSet), [date]); XCTAssertEqual(r.mixedMap["s"], .string("v")); XCTAssertEqual(r.mixedMap.count, 2)
        try realm.write {
            r.oi = nil; r.i8 = 127; r.mixed = .string("now a string"); r.intList.remove(at: 0); r.mixedMap["n"] = nil
        }
        XCTAssertNil(r.oi); XCTAssertEqual(r.i8, 127); XCTAssertEqual(r.mixed.stringValue, "now a string")
        XCTAssertEqual(Array(r.intList), [1, 2]); XCTAssertEqual(r.mixedMap.keys, ["s"])
        // A mixed value can link to an object.
        try realm.write {
            let p = realm.create(APerson.self, value: ["id": 1, "name": "linked"])
            r.mixed = .object(p)
        }
        XCTAssertEqual(r.mixed.object(APerson.self)?.name, "linked")
        assertIntegrity(realm)
    }

    func testUpsertModesAndPrimaryKeyUniqueness() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        try realm.write {
            realm.add(APerson(id: 1, name: "Ada", age: 36))
            XCTAssertThrowsError(try realm.tryAdd(APerson(id: 1, name: "Dup"))) {
                XCTAssertEqual($0 as? ObjectError, .duplicatePrimaryKey(className: "APerson", value: "1"))
            }
            XCTAssertThrowsError(try realm.tryCreate(APerson.self, value: ["id": 1, "name": "Dup"]))
        }
        XCTAssertEqual(realm.objects(APerson.self).count, 1)
        // .modified with a partial dictionary changes only the given keys.
        try realm.write { realm.create(APerson.self, value: ["id": 1, "age": 40], update: .modified) }
        var p = try XCTUnwrap(realm.object(ofType: APerson.self, forPrimaryKey: 1))
        XCTAssertEqual(p.name, "Ada"); XCTAssertEqual(p.age, 40)
        // .all with an object replaces every property.
        try realm.write { realm.add(APerson(id: 1, name: "Bea"), update: .all) }
        p = try XCTUnwrap(realm.object(ofType: APerson.self, forPrimaryKey: 1))
        XCTAssertEqual(p.name, "Bea"); XCTAssertEqual(p.age, 0)
        // create from an array (property order) and from another object.
        try realm.write {
            realm.create(APerson.self, value: [2, "Cy", 20])
            realm.create(APerson.self, value: APerson(id: 3, name: "Di", age: 30))
        }
        XCTAssertEqual(realm.object(ofType: APerson.self, forPrimaryKey: 2)?.name, "Cy")
        XCTAssertEqual(realm.object(ofType: APerson.self, forPrimaryKey: 3)?.age, 30)
        XCTAssertEqual(realm.objects(APerson.self).count, 3)
        // The primary key of a managed object cannot change (the dynamic layer refuses it).
        try realm.write {
            XCTAssertThrowsError(try realm.withTransaction { try $0.set("APerson", 2, "id", .int(9)) })
        }
        assertIntegrity(realm)
    }

    func testBacklinksEmbeddedCascadeAndLinkCleanup() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        let a = APerson(id: 1, name: "A"), b = APerson(id: 2, name: "B")
        let rex = ADog(name: "Rex")
        a.dogs.append(rex); b.dogs.append(rex); a.best = rex
        a.address = AAddress(value: ["street": "s", "geo": ["lat": 1.0]])
        a.previous.append(AAddress(value: ["city": "old1"]))
        a.previous.append(AAddress(value: ["city": "old2"]))
        try realm.write { realm.add([a, b]) }
        XCTAssertEqual(Set(rex.walkers.map(\.id)), [1, 2])
        XCTAssertEqual(rex.walkers.results.count, 2)
        XCTAssertEqual(realm.objects(AAddress.self).count, 3)
        // Replacing an embedded object deletes the old one (and its children).
        try realm.write { a.address = AAddress(value: ["street": "new"]) }
        XCTAssertEqual(realm.objects(AAddress.self).count, 3)
        XCTAssertEqual(realm.objects(AGeo.self).count, 0)
        // Removing from a list of embedded objects deletes it.
        try realm.write { a.previous.remove(at: 0) }
        XCTAssertEqual(a.previous.map(\.city), ["old2"])
        XCTAssertEqual(realm.objects(AAddress.self).count, 2)
        // Deleting a dog nullifies links and removes it from lists.
        try realm.write { realm.delete(rex) }
        XCTAssertTrue(rex.isInvalidated)
        XCTAssertNil(a.best)
        XCTAssertEqual(a.dogs.count, 0); XCTAssertEqual(b.dogs.count, 0)
        // Deleting the parent deletes its embedded objects.
        try realm.write { realm.delete(a) }
        XCTAssertEqual(realm.objects(AAddress.self).count, 0)
        XCTAssertTrue(a.isInvalidated)
        XCTAssertFalse(b.isInvalidated)
        try realm.write { realm.deleteAll() }
        XCTAssertTrue(realm.isEmpty)
        assertIntegrity(realm)
    }

    func testListSetMapOperations() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        let p = APerson(id: 1, name: "P")
        try realm.write { realm.add(p) }
        let d = (0..<4).map { ADog(name: "d\($0)") }
        try realm.write {
            p.dogs.append(objectsIn: d)
            p.dogs.insert(ADog(name: "first"), at: 0)
            p.dogs.move(from: 0, to: 4)
            p.dogs.swapAt(0, 1)
            p.dogs.replace(index: 2, object: d[0])
            p.dogs.remove(at: 4)
        }
        XCTAssertEqual(p.dogs.map(\.name), ["d1", "d0", "d0", "d3"])
        XCTAssertEqual(p.dogs.index(of: d[3]), 3)
        XCTAssertEqual(p.dogs.asResults().map(\.name), ["d1", "d0", "d0", "d3"])
        XCTAssertEqual(realm.objects(ADog.self).count, 5, "removing from a list does not delete the object")
        try realm.write {
            p.tags.insert("x"); p.tags.insert("y"); p.tags.insert("x"); p.tags.remove("y")
            p.scores["a"] = 1; p.scores["b"] = 2; p.scores.updateValue(3, forKey: "a"); p.scores.removeObject(for: "b")
        }
        XCTAssertEqual(Array(p.tags), ["x"])
        XCTAssertTrue(p.tags.contains("x"))
        XCTAssertEqual(p.scores.keys, ["a"]); XCTAssertEqual(p.scores["a"], 3)
        try realm.write { p.dogs.removeAll(); p.tags.removeAll(); p.scores.removeAll() }
        XCTAssertTrue(p.dogs.isEmpty); XCTAssertEqual(p.tags.count, 0); XCTAssertTrue(p.scores.isEmpty)
        // Assigning a collection replaces its contents.
        let other = List<ADog>(); other.append(ADog(name: "z"))
        try realm.write { p.dogs = other }
        XCTAssertEqual(p.dogs.map(\.name), ["z"])
        assertIntegrity(realm)
    }

    func testWriteTransactionsCancelAndErrors() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        XCTAssertFalse(realm.isInWriteTransaction)
        realm.beginWrite()
        XCTAssertTrue(realm.isInWriteTransaction)
        let p = APerson(id: 5, name: "gone")
        realm.add(p)
        XCTAssertEqual(realm.objects(APerson.self).count, 1)
        realm.cancelWrite()
        XCTAssertEqual(realm.objects(APerson.self).count, 0)
        XCTAssertTrue(p.isInvalidated, "objects added in a cancelled write are invalid")
        struct Boom: Error {}
        XCTAssertThrowsError(try realm.write { realm.add(APerson(id: 6, name: "x")); throw Boom() })
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(APerson.self).count, 0, "an error in the block cancels the write")
        let v = try realm.write { () -> Int in realm.add(APerson(id: 7, name: "kept")); return 42 }
        XCTAssertEqual(v, 42)
        XCTAssertEqual(realm.objects(APerson.self).count, 1)
        assertIntegrity(realm)
    }

    func testLimitsAndSchemaErrors() throws {
        let f = APIFixture()
        XCTAssertEqual(Name58Bytes_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.className().utf8.count, 58)
        XCTAssertThrowsError(try Realm(configuration: f.config("long.strata", types: [Name58Bytes_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.self]))) {
            guard case .classNameTooLong(_, 58) = (($0 as? Realm.Error)?.underlyingError ?? $0) as? SchemaError else { return XCTFail("\($0)") }
        }
        let realm = try Realm(configuration: f.config())
        try realm.write {
            XCTAssertThrowsError(try realm.tryAdd(APerson(id: 1, name: String(repeating: "x", count: 16 * 1024 * 1024 + 1)))) {
                guard case .valueTooLarge = $0 as? ObjectError else { return XCTFail("\($0)") }
            }
        }
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: f.dir.url.appendingPathComponent("e.strata"), encryptionKey: Data(count: 63), objectTypes: apiTypes)))
        assertIntegrity(realm)
    }

    func testSchemaMismatchAndDeleteIfMigrationNeeded() throws {
        let f = APIFixture()
        let url = f.dir.url.appendingPathComponent("m.strata")
        do {
            let db = try Database(path: url.path, schema: Schema([ObjectSchema(className: "ADog", properties: [PropertySchema(name: "name", type: .int)])]))
            let w = try db.write(); try w.create("ADog", values: ["name": .int(1)]); try w.commit(); db.close()
        }
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [ADog.self]))) {
            guard case .migrationRequired = (($0 as? Realm.Error)?.underlyingError ?? $0) as? SchemaError else { return XCTFail("\($0)") }
        }
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, deleteRealmIfMigrationNeeded: true, objectTypes: [ADog.self]))
        XCTAssertEqual(realm.objects(ADog.self).count, 0)
        try realm.write { realm.add(ADog(name: "fresh")) }
        assertIntegrity(realm)
    }

    func testInMemoryRealm() throws {
        var cfg = Realm.Configuration(inMemoryIdentifier: "api-test-\(UUID().uuidString)", objectTypes: apiTypes)
        var path = ""
        do {
            let realm = try Realm(configuration: cfg)
            try realm.write { realm.add(APerson(id: 1, name: "mem")) }
            let again = try Realm(configuration: cfg)
            XCTAssertEqual(again, realm, "same thread, same configuration: same instance")
            XCTAssertEqual(again.objects(APerson.self).count, 1)
            path = realm.database.store.path
            XCTAssertTrue(realm.database.store.isInMemory)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no file: \(path)")
        }
        XCTAssertEqual(try Realm(configuration: cfg).objects(APerson.self).count, 0, "the data lives while a realm with the identifier is open")
        cfg.fileURL = URL(fileURLWithPath: "/tmp/x.strata")
        XCTAssertNil(cfg.inMemoryIdentifier)
    }

    func testResultsAreLazyLivePagedAndAggregate() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        try realm.write { for i in 0..<2500 { realm.add(APerson(id: i, name: "p\(i)", age: i % 100)) } }
        let all = realm.objects(APerson.self)
        XCTAssertEqual(all.count, 2500)
        XCTAssertEqual(all[1234].id, 1234)
        XCTAssertEqual(all.first?.id, 0); XCTAssertEqual(all.last?.id, 2499)
        var n = 0, s = 0
        for p in all { n += 1; s += p.id }
        XCTAssertEqual(n, 2500); XCTAssertEqual(s, 2499 * 2500 / 2)
        XCTAssertEqual(all.sum(ofProperty: "age") as Int, (0..<2500).map { $0 % 100 }.reduce(0, +))
        XCTAssertEqual(all.min(ofProperty: "age") as Int?, 0)
        XCTAssertEqual(all.max(ofProperty: "age") as Int?, 99)
        XCTAssertEqual(all.average(ofProperty: "age") as Double?, 49.5)
        XCTAssertEqual(all.index(of: all[77]), 77)
        // A stage (as the query module adds them).
        let filtered = all.appending(FakeFilterSort(property: "age", min: 98, sortBy: "name"))
        XCTAssertEqual(filtered.count, 50)
        XCTAssertEqual(filtered.first?.name, "p1098")
        XCTAssertEqual(filtered.map(\.name), all.filter { $0.age >= 98 }.map(\.name).sorted())
        // Live: a commit shows up.
        try realm.write { realm.add(APerson(id: 5000, name: "p0000", age: 99)) }
        XCTAssertEqual(all.count, 2501)
        XCTAssertEqual(filtered.count, 51)
        XCTAssertEqual(filtered.first?.id, 5000)
        try realm.write { realm.delete(filtered) }
        XCTAssertEqual(filtered.count, 0)
        XCTAssertEqual(all.count, 2450)
        assertIntegrity(realm)
    }

    func testThreadConfinementFrozenObjectsAndThreadSafeReference() throws {
        let f = APIFixture()
        let cfg = f.config()
        let realm = try Realm(configuration: cfg)
        try realm.write { realm.add(APerson(id: 1, name: "Ada", age: 3)) }
        let p = realm.objects(APerson.self).first!
        let frozen = p.freeze()
        XCTAssertTrue(frozen.isFrozen)
        let frozenResults = realm.objects(APerson.self).freeze()
        let ref = ThreadSafeReference(to: p)
        let resultsRef = ThreadSafeReference(to: realm.objects(APerson.self))
        nonisolated(unsafe) let unsafeRealm = realm
        nonisolated(unsafe) let frozenBox = frozen
        nonisolated(unsafe) let frozenResultsBox = frozenResults
        nonisolated(unsafe) var messages: [String] = []
        nonisolated(unsafe) var seen: [String] = []
        let done = expectation(description: "other thread")
        let t = Thread {
            do { try unsafeRealm.verifyThread() } catch { messages.append("\(error)") }
            seen.append(frozenBox.name)
            seen.append("\(frozenResultsBox.count)")
            do {
                let mine = try Realm(configuration: cfg)
                XCTAssertNotEqual(mine, unsafeRealm, "each thread has its own instance")
                try mine.verifyThread()
                if let q = mine.resolve(ref) { seen.append(q.name) }
                if let r = mine.resolve(resultsRef) { seen.append("results \(r.count)") }
            } catch { messages.append("unexpected \(error)") }
            done.fulfill()
        }
        t.start()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages.first?.contains("Realm accessed from incorrect thread") == true, "\(messages)")
        XCTAssertEqual(seen, ["Ada", "1", "Ada", "results 1"])
        // Frozen objects do not change.
        try realm.write { p.name = "Bea" }
        XCTAssertEqual(frozen.name, "Ada")
        XCTAssertEqual(p.name, "Bea")
        XCTAssertEqual(frozen.thaw()?.name, "Bea")
        assertIntegrity(realm)
    }

    func testQueueConfinedRealm() throws {
        let f = APIFixture()
        let cfg = f.config()
        let q = DispatchQueue(label: "api.queue")
        let realm = try q.sync { try Realm(configuration: cfg, queue: q) }
        XCTAssertThrowsError(try realm.verifyThread())
        let n = try q.sync { () -> Int in
            try realm.verifyThread()
            try realm.write { realm.add(APerson(id: 1, name: "q")) }
            return realm.objects(APerson.self).count
        }
        XCTAssertEqual(n, 1)
    }
}

/// Reopening right after the last realm of a configuration was released gives a fresh realm:
/// in memory the data is gone (and a file is checked against the new classes' schema). The
/// realm's last reference can be dropped on the commit watcher's thread while it forwards the
/// realm's last commit; closing the handle there used to wait for that very thread to exit
/// (a deadlock: the thread stuck for good, the handle and the in-memory data never released).
final class ReopenAfterReleaseTests: XCTestCase {
    private func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    func testInMemoryDataIsGoneRightAfterTheLastRealmIsReleased() throws {
        let threadsBefore = threadCount()
        for i in 0..<300 {
            let cfg = Realm.Configuration(inMemoryIdentifier: "reopen-\(i)-\(UUID().uuidString)", objectTypes: apiTypes)
            weak var core: RealmCore?
            do {
                let realm = try Realm(configuration: cfg)
                core = realm.core
                try realm.write { realm.add(APerson(id: i, name: "mem")) }
            }
            let state = "realm core still alive: \(core != nil), coordinator registered: \(Coordinator.isOpen(path: cfg.path))"
            XCTAssertEqual(try Realm(configuration: cfg).objects(APerson.self).count, 0, "round \(i); \(state)")
        }
        // Every handle's watcher thread exited (none stuck waiting for itself).
        XCTAssertLessThan(threadCount() - threadsBefore, 10, "commit watcher threads left behind")
    }
}
