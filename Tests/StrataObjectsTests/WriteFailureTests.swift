import XCTest
import Foundation
@testable import StrataObjects
@testable import StrataStorage

/// A write transaction that fails on the way is discarded as a whole and its error reaches the
/// app at the next throwing call (no trap, nothing half-applied committed).
final class WriteFailureTests: XCTestCase {
    private func item(_ id: Int, _ name: String) -> TWItem {
        let o = TWItem(); o.id = id; o.name = name
        return o
    }

    /// Flips a byte in the middle of the only copy of `marker` in the file (the block of the
    /// column holding it then fails its checksum when a new handle reads it).
    private func damage(_ url: URL, _ marker: String) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        let m = Array(marker.utf8)
        var found: [Int] = []
        var i = 0
        while i + m.count <= bytes.count {
            if bytes[i] == m[0] && Array(bytes[i..<(i + m.count)]) == m { found.append(i); i += m.count } else { i += 1 }
        }
        XCTAssertEqual(found.count, 1, "the marker is stored once")
        for at in found { bytes[at + m.count / 2] ^= 0x20 }
        try Data(bytes).write(to: url)
    }

    /// TWItem 1...3 (the name of 2 in a column block damaged on disk) and one TWNoKey.
    private func damagedFile(_ f: APIFixture) throws -> Realm.Configuration {
        let config = f.config("damaged.strata", types: [TWItem.self, TWNoKey.self])
        let marker = "damaged-name-" + String(repeating: "q", count: 48)
        do {
            let realm = try Realm(configuration: config)
            try realm.write {
                realm.add(item(1, "one")); realm.add(item(2, marker)); realm.add(item(3, "three"))
            }
            // Another commit after it: the damaged block is then not one the newest commit
            // wrote (a damaged block of the newest commit makes the open take the version
            // before, as after a torn one-sync commit).
            try realm.write { let o = TWNoKey(); o.name = "setup"; realm.add(o) }
            XCTAssertEqual(realm.objects(TWItem.self).count, 3)
        }
        try damage(config.fileURL!, marker)
        return config
    }

    /// The objects `add` queues are written to their table when something reads inside the
    /// write. When that fails (here: the class's last cluster, which the queued rows fill, has
    /// a damaged column block), the read does not trap: the write is discarded at once, reads
    /// see the last commit, later changes are ignored, and `commitWrite` / `write` throw a
    /// `Realm.Error` saying what happened and what to do. Nothing of the write is committed.
    func testAFailedWriteOfQueuedAddsDiscardsTheWriteAndThrowsAtCommit() throws {
        let f = APIFixture()
        let config = try damagedFile(f)
        let realm = try Realm(configuration: config)
        realm.beginWrite()
        let first = TWNoKey(); first.name = "first"
        realm.add(first)                    // the write's first add: inserted at once
        let queued = item(10, "queued")
        realm.add(queued)                   // queued (its key is above every key of the class)
        // A read writes the queue first: that fails; the read sees the last commit.
        XCTAssertEqual(realm.objects(TWItem.self).count, 3)
        XCTAssertEqual(realm.objects(TWNoKey.self).count, 1, "the object added before is gone with the write")
        XCTAssertTrue(realm.isInWriteTransaction, "the write stays open until the app commits or cancels it")
        realm.add(item(11, "ignored"))      // ignored: the write has failed
        XCTAssertThrowsError(try realm.commitWrite()) { error in
            guard let e = error as? Realm.Error else { return XCTFail("not a Realm.Error: \(error)") }
            XCTAssertEqual(e.code, .invalidDatabase)
            XCTAssertTrue(e.description.contains("nothing of it was committed"), e.description)
            XCTAssertTrue(e.description.contains("strata check"), e.description)
            XCTAssertNotNil(e.underlyingError)
        }
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertTrue(first.isInvalidated)
        XCTAssertTrue(queued.isInvalidated)
        XCTAssertEqual(realm.objects(TWNoKey.self).count, 1)
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 10))
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 11))

        // `write` throws the failure the same way (and a cancelled failed write leaves nothing).
        XCTAssertThrowsError(try realm.write {
            realm.add(TWNoKey()); realm.add(item(12, "queued"))
            _ = realm.objects(TWItem.self).count
        }) { error in XCTAssertEqual((error as? Realm.Error)?.code, .invalidDatabase) }
        realm.beginWrite()
        realm.add(TWNoKey()); realm.add(item(13, "queued"))
        _ = realm.objects(TWItem.self).first
        realm.cancelWrite()
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(TWNoKey.self).count, 1)
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 13))

        // Writes that do not touch the damaged block still commit.
        try realm.write { realm.add(TWNoKey()) }
        XCTAssertEqual(realm.objects(TWNoKey.self).count, 2)
    }

    /// A property setter (which cannot throw) that hits a storage error inside a write does not
    /// trap either: the write is discarded with the changes made before it, and the commit
    /// throws.
    func testAStorageErrorInASetterDiscardsTheWriteAndThrowsAtCommit() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: try damagedFile(f))
        let two = try XCTUnwrap(realm.object(ofType: TWItem.self, forPrimaryKey: 2))
        XCTAssertThrowsError(try realm.write {
            let o = TWNoKey(); o.name = "made before"; realm.add(o)
            two.age = 40                   // its cluster's age column is sound: changed
            two.name = "renamed"           // its name column block is damaged: the change fails
            two.age = 41                   // ignored
        }) { error in
            guard let e = error as? Realm.Error else { return XCTFail("not a Realm.Error: \(error)") }
            XCTAssertEqual(e.code, .invalidDatabase)
            XCTAssertTrue(e.description.contains("a change in it failed"), e.description)
        }
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(TWNoKey.self).count, 1, "the add before the failed change is not committed")
        XCTAssertEqual(two.age, 0)
        // The throwing form throws at once.
        realm.beginWrite()
        XCTAssertThrowsError(try realm.tryAdd(item(4, "into the damaged cluster"))) { error in
            XCTAssertEqual((error as? Realm.Error)?.code, .invalidDatabase)
        }
        XCTAssertTrue(realm.isInWriteTransaction)
        XCTAssertThrowsError(try realm.commitWrite())
        XCTAssertEqual(realm.objects(TWItem.self).count, 3)
    }

    /// `create` (which cannot throw and must return an object) that hits a storage error does
    /// not trap: the write is discarded as for a setter, `create` returns an unmanaged object
    /// holding the values given (safe to read and change, storable by a later write), and the
    /// commit throws. A `create` after the failure returns an unmanaged object too.
    func testAStorageErrorInCreateDiscardsTheWriteAndReturnsAnUnmanagedObject() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: try damagedFile(f))
        realm.beginWrite()
        let before = TWNoKey(); before.name = "made before"; realm.add(before)
        let made = realm.create(TWItem.self, value: ["id": 4, "name": "into the damaged cluster", "age": 7])
        XCTAssertNil(made.realm, "not managed: the write that would have stored it failed")
        XCTAssertFalse(made.isInvalidated)
        XCTAssertEqual(made.id, 4)
        XCTAssertEqual(made.name, "into the damaged cluster")
        XCTAssertEqual(made.age, 7)
        made.age = 8                       // an unmanaged object: changes stay in it
        XCTAssertEqual(made.age, 8)
        let after = realm.create(TWItem.self, value: [5, "after the failure"])
        XCTAssertNil(after.realm)
        XCTAssertEqual(after.name, "after the failure")
        XCTAssertThrowsError(try realm.commitWrite()) { error in
            guard let e = error as? Realm.Error else { return XCTFail("not a Realm.Error: \(error)") }
            XCTAssertEqual(e.code, .invalidDatabase)
            XCTAssertTrue(e.description.contains("nothing of it was committed"), e.description)
        }
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(TWItem.self).count, 3)
        XCTAssertEqual(realm.objects(TWNoKey.self).count, 1, "the add before the failed create is not committed")
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 4))
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 5))

        // `write` throws it the same way.
        XCTAssertThrowsError(try realm.write {
            XCTAssertNil(realm.create(TWItem.self, value: ["id": 6, "name": "again"]).realm)
        }) { error in XCTAssertEqual((error as? Realm.Error)?.code, .invalidDatabase) }
        XCTAssertNil(realm.object(ofType: TWItem.self, forPrimaryKey: 6))

        // The dynamic API: `dynamicCreate` returns an invalidated object, setters are ignored.
        let two = try XCTUnwrap(realm.dynamicObject(ofType: "TWItem", forPrimaryKey: 2))
        XCTAssertThrowsError(try realm.write {
            let d = realm.dynamicCreate("TWItem", value: ["id": 7, "name": "dynamic"])
            XCTAssertTrue(d.isInvalidated)
            two["age"] = 50                  // ignored: the write has failed
        }) { error in XCTAssertEqual((error as? Realm.Error)?.code, .invalidDatabase) }
        XCTAssertNil(realm.dynamicObject(ofType: "TWItem", forPrimaryKey: 7))
        XCTAssertEqual(two["age"] as? Int, 0)
    }

    /// A write that cannot begin — here the free list of the newest version, which a write reads
    /// first, is damaged on disk (its base list, written by an earlier commit: damage to a block
    /// the newest commit wrote makes the open take the version before) — throws from `write` (the block does not run) and, through
    /// `beginWrite`, from `commitWrite`, instead of trapping; nothing changes in the file.
    func testAWriteThatCannotBeginThrowsInsteadOfTrapping() throws {
        let f = APIFixture()
        let config = f.config("nobegin.strata", types: [TWItem.self, TWNoKey.self])
        do {
            let realm = try Realm(configuration: config)
            try realm.write { realm.add(item(1, "one")) }
            try realm.write { realm.add(item(2, "two")) }
        }
        let path = config.fileURL!.path
        let freeList: UInt64 = try {
            let s = try Store(path: path); defer { s.close() }
            return try s.newestMeta().freeListRef
        }()
        XCTAssertNotEqual(freeList, 0)
        var bytes = [UInt8](try Data(contentsOf: config.fileURL!))
        let f0 = Int(freeList)
        XCTAssertEqual(bytes[f0 + 15], 4, "the newest free list is a delta over an older full list")
        let base = bytes[(f0 + 16)..<(f0 + 24)].reversed().reduce(0) { $0 << 8 | Int($1) }
        XCTAssertGreaterThan(base, 8192)
        bytes[base + 24] ^= 0x41
        try Data(bytes).write(to: config.fileURL!)

        let realm = try Realm(configuration: config)
        var ran = false
        XCTAssertThrowsError(try realm.write { ran = true; realm.add(item(3, "three")) }) { e in
            guard let re = e as? Realm.Error else { return XCTFail("not a Realm.Error: \(e)") }
            XCTAssertTrue(re.localizedDescription.contains("could not begin"), re.localizedDescription)
            XCTAssertTrue(re.localizedDescription.contains("strata check"), re.localizedDescription)
        }
        XCTAssertFalse(ran, "the block of a write that could not begin does not run")
        XCTAssertFalse(realm.isInWriteTransaction)
        realm.beginWrite()
        XCTAssertTrue(realm.isInWriteTransaction)
        realm.add(item(4, "four"))          // ignored: the write failed
        XCTAssertThrowsError(try realm.commitWrite())
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(realm.objects(TWItem.self).map(\.id).sorted(), [1, 2], "reads see the last commit")
    }
}
