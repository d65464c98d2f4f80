import XCTest
import Foundation
@testable import StrataObjects

final class CRItem: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name = ""
    @Persisted var score = 0.0
}

/// The coordinator registers its realms' cores by address, not by weak reference (a weak
/// reference gives a core a side table, and every object a lookup makes retains its core on the
/// runtime's slow path). Each core removes itself in its deinit; the commit watcher and the
/// per-thread cache take a core only while its deinit has not begun.
final class CoreRegistryTests: XCTestCase {
    private func config(_ f: APIFixture) -> Realm.Configuration { f.config("registry.strata", types: [CRItem.self]) }

    private func fill(_ realm: Realm, _ n: Int) throws {
        try realm.write {
            for i in 0..<n { let o = CRItem(); o.id = i; o.name = "n\(i)"; o.score = Double(i) / 2; realm.add(o) }
        }
    }

    /// The word after the isa pointer of a native object: on 64-bit platforms bit 62 marks a
    /// reference count moved to a side table (what a weak reference does).
    private func hasSideTable(_ o: AnyObject) -> Bool {
        let p = Unmanaged.passUnretained(o).toOpaque()
        let bits = p.load(fromByteOffset: 8, as: UInt64.self)
        return bits & (1 << 63) != 0 && bits & (1 << 62) != 0
    }

    func testCoresReachedByTheRegistryAndCommitWakeUpsKeepInlineReferenceCounts() throws {
        let f = APIFixture()
        nonisolated(unsafe) let cfg = config(f)
        let realm = try Realm(configuration: cfg)
        try fill(realm, 10)
        let again = try Realm(configuration: config(f))
        XCTAssertTrue(again.core === realm.core, "one core per thread")
        let frozen = realm.freeze()
        // Another thread's realm commits: the watcher wakes every live core.
        let done = expectation(description: "commit")
        Thread {
            let r = try! Realm(configuration: cfg)
            try! r.write { r.object(ofType: CRItem.self, forPrimaryKey: 3)!.name = "other" }
            done.fulfill()
        }.start()
        wait(for: [done], timeout: 60)
        // The main thread's autorefresh delivery (scheduled on the main queue) brings it in.
        XCTAssertTrue(spin { realm.object(ofType: CRItem.self, forPrimaryKey: 3)?.name == "other" })
        XCTAssertFalse(hasSideTable(realm.core), "the live core's retains take the inline path")
        XCTAssertFalse(hasSideTable(frozen.core), "the frozen core's retains take the inline path")
    }

    func testObjectsFromLookupsKeepTheirRealmAliveAndAReleasedCoreLeavesTheRegistry() throws {
        let f = APIFixture()
        var objects: [CRItem] = []
        var frozenObject: CRItem?
        do {
            let realm = try Realm(configuration: config(f))
            try fill(realm, 100)
            for i in stride(from: 0, to: 100, by: 7) { objects.append(realm.object(ofType: CRItem.self, forPrimaryKey: i)!) }
            frozenObject = realm.object(ofType: CRItem.self, forPrimaryKey: 5)!.freeze()
        }
        // The realm value is gone; its objects keep the core, which the thread's next realm shares.
        for o in objects { XCTAssertEqual(o.score, Double(o.id) / 2); XCTAssertEqual(o.name, "n\(o.id)") }
        do {
            let realm = try Realm(configuration: config(f))
            XCTAssertTrue(objects[0].realm!.core === realm.core)
            try realm.write { objects[1].name = "changed" }
            XCTAssertEqual(realm.object(ofType: CRItem.self, forPrimaryKey: 7)?.name, "changed")
            XCTAssertEqual(frozenObject?.name, "n5")
        }
        // Everything released: the core's deinit removes its entry; a new realm on this thread
        // gets a new core that reads, writes and is woken by commits.
        objects = []; frozenObject = nil
        do {
            let fresh = try Realm(configuration: config(f))
            XCTAssertEqual(fresh.object(ofType: CRItem.self, forPrimaryKey: 7)?.name, "changed")
            try fresh.write { fresh.object(ofType: CRItem.self, forPrimaryKey: 8)!.score = -1 }
            XCTAssertEqual(fresh.object(ofType: CRItem.self, forPrimaryKey: 8)?.score, -1)
        }
    }

    func testRealmsOnManyThreadsComeAndGoWhileOthersCommit() throws {
        let f = APIFixture()
        nonisolated(unsafe) let cfg = config(f)
        let realm = try Realm(configuration: cfg)
        try fill(realm, 1000)
        let stop = Locked(false)
        // A committer: each commit wakes every registered core while other threads release theirs.
        let committer = Thread {
            let r = try! Realm(configuration: cfg)
            var i = 0
            while !stop.with({ $0 }) {
                try! r.write { r.object(ofType: CRItem.self, forPrimaryKey: i % 1000)!.score += 1 }
                i += 1
            }
        }
        committer.start()
        let group = DispatchGroup()
        let failures = Locked(0)
        for t in 0..<6 {
            group.enter()
            Thread {
                for round in 0..<40 {
                    do {
                        // A realm per round: its core dies at the end of the round (objects,
                        // frozen copies and all), unless the committer is waking it right then.
                        let r = try! Realm(configuration: cfg)
                        var kept: [CRItem] = []
                        for k in 0..<20 {
                            let id = (t * 131 + round * 17 + k * 29) % 1000
                            guard let o = r.object(ofType: CRItem.self, forPrimaryKey: id), o.name == "n\(id)" else {
                                failures.with { $0 += 1 }; continue
                            }
                            kept.append(o)
                        }
                        if round % 5 == 0 {
                            let frozen = r.freeze()
                            if frozen.object(ofType: CRItem.self, forPrimaryKey: t)?.name != "n\(t)" { failures.with { $0 += 1 } }
                        }
                        if kept.contains(where: { $0.realm?.core !== r.core }) { failures.with { $0 += 1 } }
                    }
                }
                group.leave()
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 300), .success)
        stop.with { $0 = true }
        XCTAssertEqual(failures.with { $0 }, 0)
        XCTAssertTrue(realm.refresh())
        XCTAssertEqual(realm.objects(CRItem.self).count, 1000)
    }
}
