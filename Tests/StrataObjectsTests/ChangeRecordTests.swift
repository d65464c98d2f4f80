import XCTest
import Foundation
@testable import StrataObjects
@testable import StrataStorage

/// Each commit's change record (inserted / deleted / modified keys per class and property) and
/// the notifications computed from it, checked against a plain model of the keys.
final class ChangeRecordTests: XCTestCase {
    private var seedNote: String?
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        super.recordFailure(withDescription: description + (seedNote.map { " [\($0)]" } ?? ""), inFile: filePath, atLine: lineNumber, expected: expected)
    }

    func testCommitRecordsInsertedDeletedModifiedKeysPerProperty() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("r.strata"), schema: testSchema)
        var w = try db.write()
        for i in 0..<10 { try w.create("Person", values: ["id": .int(Int64(i)), "name": .string("p\(i)"), "age": .int(1)]) }
        let v1 = try w.commit()
        w = try db.write()
        try w.create("Person", values: ["id": .int(100), "name": .string("x")])
        try w.delete("Person", 3)
        try w.set("Person", 5, "age", .int(9))
        try w.set("Person", 6, "age", .int(9))
        try w.set("Person", 7, "name", .string("q"))
        try w.setList("Person", 8, "tags", [.string("t")])
        let v2 = try w.commit()
        let r = try db.read()
        defer { r.end() }
        let c = try XCTUnwrap(try r.changes(since: v1)?["Person"])
        XCTAssertEqual(c.inserted.ranges, [100...100])
        XCTAssertEqual(c.deleted.ranges, [3...3])
        XCTAssertEqual(c.modified["age"]?.ranges, [5...6], "consecutive keys become one range")
        XCTAssertEqual(c.modifiedKeys(properties: ["name"]).ranges, [7...7], "the index update of 'name' is recorded under 'name' only")
        XCTAssertEqual(c.modified["tags"]?.ranges, [8...8])
        XCTAssertFalse(c.rewritten)
        XCTAssertEqual(try r.changes(since: v2), [:])
        let first = try XCTUnwrap(try r.changes(since: v1 - 1)?["Person"])
        XCTAssertEqual(first.inserted.ranges, [0...9, 100...100], "merged over two versions")
        XCTAssertEqual(first.deleted.ranges, [3...3])
    }

    func testRecordsAreCappedAndKeptForRecentVersionsOnly() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("w.strata"), schema: testSchema)
        let savedCap = ChangeLog.rangeCap, savedKept = ChangeLog.keptVersions
        defer { ChangeLog.rangeCap = savedCap; ChangeLog.keptVersions = savedKept }
        ChangeLog.rangeCap = 20
        ChangeLog.keptVersions = 8
        var w = try db.write()
        for i in 0..<30 { try w.create("Person", values: ["id": .int(Int64(i * 2)), "name": .string("p")]) }
        let v1 = try w.commit()
        var r = try db.read()
        XCTAssertEqual(try r.changes(since: v1 - 1)?["Person"]?.rewritten, true, "30 scattered keys exceed a cap of 20 ranges")
        r.end()
        var versions: [UInt64] = []
        for i in 0..<20 {
            w = try db.write()
            try w.set("Person", 0, "age", .int(Int64(i)))
            versions.append(try w.commit())
        }
        r = try db.read()
        defer { r.end() }
        XCTAssertNil(try r.changes(since: versions[5]), "12 versions back is beyond a window of 8")
        XCTAssertEqual(try r.changes(since: versions[14])?["Person"]?.modified["age"]?.ranges, [0...0])
        let records = try XCTUnwrap(try r.storage.tree(ChangeLog.treeName)).entries().count
        // Dropped in batches of an eighth of the window (here 1): at most 8 + 1 are kept.
        XCTAssertLessThanOrEqual(records, 9, "old records are dropped")
    }

    /// Random commits (inserts with gapped keys, deletes, modifications of watched and unwatched
    /// properties) observed through whole-class results, sorted results and a key-path filter;
    /// each change set must turn the previous model into the new one, with exactly the expected
    /// modifications.
    func testNotificationsFromRecordsAgainstModel() throws {
        let seed: UInt64 = 1616
        seedNote = "seed \(seed)"
        var rng = SplitMix64(seed: seed)
        func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        var model: [Int: (name: String, age: Int)] = [:]
        try realm.write {
            for i in 0..<300 { let id = 1_000_000 + i * 3; realm.add(APerson(id: id, name: "n\(rand(500))", age: rand(50))); model[id] = (realm.object(ofType: APerson.self, forPrimaryKey: id)!.name, realm.object(ofType: APerson.self, forPrimaryKey: id)!.age) }
        }
        let all = realm.objects(APerson.self)
        let sorted = all.appending(FakeFilterSort(property: "age", min: 10, sortBy: "name"))
        var allChanges: [RealmCollectionChange<Results<APerson>>] = []
        var sortedChanges: [RealmCollectionChange<Results<APerson>>] = []
        var ageChanges: [RealmCollectionChange<Results<APerson>>] = []
        let t1 = all.observe { allChanges.append($0) }
        let t2 = sorted.observe { sortedChanges.append($0) }
        let t3 = all.observe(keyPaths: ["age"]) { ageChanges.append($0) }
        defer { t1.invalidate(); t2.invalidate(); t3.invalidate() }
        XCTAssertTrue(spin { allChanges.count == 1 && sortedChanges.count == 1 && ageChanges.count == 1 })
        func sortedOrder(_ m: [Int: (name: String, age: Int)]) -> [Int] {
            m.filter { $0.value.age >= 10 }.sorted { $0.value.name != $1.value.name ? $0.value.name < $1.value.name : $0.key < $1.key }.map(\.key)
        }
        /// Applies an update to `old` and checks it yields `new`.
        func check(_ change: RealmCollectionChange<Results<APerson>>?, old: [Int], new: [Int], modified: Set<Int>, _ what: String, step: Int) {
            guard case .update(_, let del, let ins, let mods)? = change else {
                if old != new || !modified.intersection(old).intersection(new).isEmpty { XCTFail("step \(step) \(what): expected an update") }
                return
            }
            var a = old
            for i in del.reversed() { a.remove(at: i) }
            for i in ins { a.insert(new[i], at: i) }
            XCTAssertEqual(a, new, "step \(step) \(what): deletions/insertions do not turn old into new")
            let kept = Set(old).intersection(new)
            XCTAssertEqual(Set(mods.map { old[$0] }), modified.intersection(kept).subtracting(Set(del.map { old[$0] })), "step \(step) \(what): modifications")
        }
        for step in 0..<40 {
            let oldAll = model.keys.sorted(), oldSorted = sortedOrder(model)
            var modifiedAny = Set<Int>(), modifiedAge = Set<Int>()
            let counts = (allChanges.count, sortedChanges.count, ageChanges.count)
            try realm.write {
                for _ in 0..<(1 + rand(6)) {
                    switch rand(5) {
                    case 0:
                        let id = rand(3) == 0 ? rand(2_000_000) : (model.keys.max() ?? 0) + 1 + rand(5)
                        if model[id] != nil { break }
                        let p = APerson(id: id, name: "n\(rand(500))", age: rand(50))
                        realm.add(p); model[id] = (p.name, p.age)
                    case 1:
                        guard let id = model.keys.sorted().randomElement(using: &rng) else { break }
                        realm.delete(realm.object(ofType: APerson.self, forPrimaryKey: id)!); model[id] = nil
                        modifiedAny.remove(id); modifiedAge.remove(id)
                    case 2:
                        guard let id = model.keys.sorted().randomElement(using: &rng) else { break }
                        let age = rand(50)
                        realm.object(ofType: APerson.self, forPrimaryKey: id)!.age = age; model[id]!.age = age
                        modifiedAny.insert(id); modifiedAge.insert(id)
                    case 3:
                        guard let id = model.keys.sorted().randomElement(using: &rng) else { break }
                        let name = "n\(rand(500))"
                        realm.object(ofType: APerson.self, forPrimaryKey: id)!.name = name; model[id]!.name = name
                        modifiedAny.insert(id)
                    default:
                        guard let id = model.keys.sorted().randomElement(using: &rng) else { break }
                        realm.object(ofType: APerson.self, forPrimaryKey: id)!.nickname = "x\(rand(9))"
                        modifiedAny.insert(id)
                    }
                }
            }
            XCTAssertTrue(spin { allChanges.count > counts.0 || (model.keys.sorted() == oldAll && modifiedAny.isEmpty) }, "step \(step)")
            let newAll = model.keys.sorted()
            check(allChanges.count > counts.0 ? allChanges.last : nil, old: oldAll, new: newAll, modified: modifiedAny, "all", step: step)
            check(sortedChanges.count > counts.1 ? sortedChanges.last : nil, old: oldSorted, new: sortedOrder(model), modified: modifiedAny, "sorted", step: step)
            check(ageChanges.count > counts.2 ? ageChanges.last : nil, old: oldAll, new: newAll, modified: modifiedAge, "key path age", step: step)
            XCTAssertEqual(all.map(\.id), newAll, "step \(step)")
        }
    }

    /// An observer on a thread that does not refresh falls further behind than the records
    /// reach: the full comparison gives the right change set.
    func testObserverBehindTheRecordsFallsBackToFullComparison() throws {
        let savedKept = ChangeLog.keptVersions
        defer { ChangeLog.keptVersions = savedKept }
        ChangeLog.keptVersions = 4
        let f = APIFixture()
        let cfg = f.config()
        let realm = try Realm(configuration: cfg)
        try realm.write { for i in 0..<20 { realm.add(APerson(id: i * 10, name: "p\(i)", age: i)) } }
        var changes: [RealmCollectionChange<Results<APerson>>] = []
        let token = realm.objects(APerson.self).observe { changes.append($0) }
        defer { token.invalidate() }
        XCTAssertTrue(spin { changes.count == 1 })
        // Ten commits from another thread while this one does not run its loop.
        let done = DispatchSemaphore(value: 0)
        Thread {
            let other = try! Realm(configuration: cfg)
            for i in 0..<10 {
                try! other.write {
                    other.add(APerson(id: 1000 + i, name: "new", age: 1))
                    if i == 0 { other.delete(other.object(ofType: APerson.self, forPrimaryKey: 50)!) }
                    if i == 1 { other.object(ofType: APerson.self, forPrimaryKey: 70)!.age = 99 }
                }
            }
            done.signal()
        }.start()
        done.wait()
        XCTAssertTrue(spin { changes.count >= 2 })
        guard case .update(_, let del, let ins, let mods)? = changes.last else { return XCTFail("expected an update") }
        XCTAssertEqual(del, [5])
        XCTAssertEqual(ins, Array(19..<29))
        XCTAssertTrue(mods.contains(7), "the modified object is reported (the fallback may report more): \(mods)")
        XCTAssertEqual(realm.objects(APerson.self).count, 29)
    }
    /// `KeyRanges.subtracting` and `union` against sets of keys, including ranges at the ends of
    /// the key space.
    func testKeyRangeSetOperationsAgainstSets() {
        let seed: UInt64 = 77
        seedNote = "seed \(seed)"
        var rng = SplitMix64(seed: seed)
        func ranges(_ n: Int) -> ([ClosedRange<ObjKey>], Set<ObjKey>) {
            var rs: [ClosedRange<ObjKey>] = [], keys = Set<ObjKey>()
            for _ in 0..<n {
                let lo = ObjKey(rng.next(below: 200)) - 100, len = ObjKey(rng.next(below: 6))
                rs.append(lo...(lo + len)); keys.formUnion(lo...(lo + len))
            }
            return (rs, keys)
        }
        for round in 0..<500 {
            let (a, ak) = ranges(rng.next(below: 8)), (b, bk) = ranges(rng.next(below: 8))
            let ra = KeyRanges.normalized(a), rb = KeyRanges.normalized(b)
            XCTAssertEqual(Set(ra.subtracting(rb).keys), ak.subtracting(bk), "round \(round)")
            XCTAssertEqual(Set(ra.union(rb).keys), ak.union(bk), "round \(round)")
            XCTAssertEqual(ra.subtracting(rb), .normalized(ra.subtracting(rb).ranges), "round \(round): not merged")
        }
        let edges = KeyRanges.normalized([ObjKey.min...(ObjKey.min + 2), (ObjKey.max - 2)...ObjKey.max])
        let cut = KeyRanges.normalized([ObjKey.min...ObjKey.min, ObjKey.max...ObjKey.max])
        XCTAssertEqual(edges.subtracting(cut).ranges, [(ObjKey.min + 1)...(ObjKey.min + 2), (ObjKey.max - 2)...(ObjKey.max - 1)])
        XCTAssertEqual(edges.subtracting(edges).ranges, [])
    }
}

/// `observe(on: queue)` from a realm whose thread runs no loop: `.initial` and updates are
/// computed and delivered on the queue (RealmSwift's rule), not on the realm's thread.
final class QueueDeliveryTests: XCTestCase {
    func testObserveOnQueueFromThreadWithoutLoop() throws {
        let f = APIFixture()
        let cfg = f.config()
        _ = try Realm(configuration: cfg)
        let q = DispatchQueue(label: "observer-queue")
        let initial = DispatchSemaphore(value: 0), update = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let counts = Locked<[Int]>([])
        Thread {
            let r = try! Realm(configuration: cfg)
            let token = r.objects(APerson.self).observe(on: q) { change in
                switch change {
                case .initial(let x): counts.with { $0.append(x.count) }; initial.signal()
                case .update(let x, _, _, _): counts.with { $0.append(x.count) }; update.signal()
                case .error: break
                }
            }
            release.wait() // this thread never runs a loop nor refreshes
            token.invalidate()
        }.start()
        XCTAssertEqual(initial.wait(timeout: .now() + 30), .success, ".initial arrives on the queue")
        let writer = try Realm(configuration: cfg, queue: nil)
        try writer.write { writer.add(APerson(id: 1, name: "w")) }
        XCTAssertEqual(update.wait(timeout: .now() + 30), .success, "the update arrives on the queue")
        release.signal()
        XCTAssertEqual(counts.with { $0 }, [0, 1])
    }
}

extension ChangeRecordTests {
    /// The records' tree keeps leaves of at most `ChangeLog.leafLimit` bytes (each commit
    /// rewrites its last leaf), and every kept record still reads back.
    func testRecordLeavesStaySmall() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("l.strata"), schema: testSchema)
        var w = try db.write()
        for i in 0..<50 { try w.create("Person", values: ["id": .int(Int64(i)), "name": .string("p\(i)"), "age": .int(1)]) }
        try w.commit()
        var versions: [UInt64] = []
        for i in 0..<300 {
            w = try db.write()
            try w.set("Person", Int64(i % 50), "age", .int(Int64(i)))
            versions.append(try w.commit())
        }
        let r = try db.read()
        defer { r.end() }
        var leaves = 0, largest = 0
        func walk(_ ref: BlockRef) throws {
            let view = try r.storage.block(ref)
            let node = try StoredNode(view, path: r.storage.path)
            if node.isLeaf { leaves += 1; if node.count > 1 { largest = max(largest, view.length) } }
            else { for i in 0..<node.count { try walk(node.child(i)) } }
        }
        try walk(try XCTUnwrap(try r.storage.committedRoot(of: ChangeLog.treeName)).root)
        XCTAssertLessThanOrEqual(largest, ChangeLog.leafLimit)
        XCTAssertGreaterThan(leaves, 8)
        for (i, v) in versions.suffix(200).enumerated() {
            let key = Int64((100 + i) % 50)
            XCTAssertEqual(try ChangeLog.record(of: v, in: r.storage)?["Person"]?.modified["age"]?.ranges, [key...key], "version \(v)")
        }
    }
}
