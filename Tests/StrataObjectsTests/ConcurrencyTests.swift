import XCTest
import Foundation
@testable import StrataObjects
import StrataStorage

final class CItem: Object {
    @Persisted(primaryKey: true) var key = ""
    @Persisted var writer = ""
    @Persisted var n = 0
    convenience init(_ writer: String, _ n: Int) { self.init(); key = "\(writer)-\(n)"; self.writer = writer; self.n = n }
}

/// A writer isolated to its own actor, with its own realm.
actor ItemWriter {
    let configuration: Realm.Configuration
    init(_ configuration: Realm.Configuration) { self.configuration = configuration }

    /// Writes `count` items, one asyncWrite each; returns how many suspensions found the lock busy.
    func write(_ tag: String, count: Int) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        for i in 0..<count {
            try await realm.asyncWrite { realm.add(CItem(tag, i)) }
        }
    }

    /// Resolves a reference handed over from another actor and changes the object.
    func rename(_ ref: ThreadSafeReference<CItem>, to name: String) async throws -> String {
        let realm = try await Realm(configuration: configuration, actor: self)
        guard let item = realm.resolve(ref) else { return "<gone>" }
        try await realm.asyncWrite { item.writer = name }
        return item.key
    }

    var ticks = 0
    func tick() { ticks += 1 }

    /// asyncWrite while another thread holds the write lock: the actor keeps serving `tick`.
    /// `progress` counts the ticks made after the write was requested; the lock holder keeps the
    /// lock until it has seen some (so the check needs no clock). The wait for `lockHeld` polls
    /// without blocking: a semaphore wait would block a thread of the 2-thread cooperative pool.
    func writeWhileLocked(_ lockHeld: DispatchSemaphore, progress: Locked<Int?>) async throws -> Int {
        let realm = try await Realm(configuration: configuration, actor: self)
        ticks = 0
        let ticker = Task {
            while !Task.isCancelled {
                self.tick()
                progress.with { if let n = $0 { $0 = n + 1 } }
                try? await Task.sleep(nanoseconds: 2_000_000)
            }
        }
        while lockHeld.wait(timeout: .now()) == .timedOut { try await Task.sleep(nanoseconds: 1_000_000) }
        progress.with { $0 = 0 }
        try await realm.asyncWrite { realm.add(CItem("locked", 0)) }
        let during = progress.with { $0 ?? 0 }
        ticker.cancel()
        return during
    }

    /// `realm` opened on this actor, smuggled out (to prove the runtime check).
    func smuggledRealm() async throws -> UncheckedSendable<Realm> {
        UncheckedSendable(try await Realm(configuration: configuration, actor: self))
    }
}

@MainActor
final class MainTicker {
    var ticks = 0
    var running = true
    /// The tick count, readable from any thread.
    nonisolated let shared = Locked(0)
    func start() {
        Task { @MainActor in
            while self.running {
                self.ticks += 1
                self.shared.with { $0 += 1 }
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
        }
    }
}

struct Timeout: Error {}

actor ChangeCollector {
    var counts: [Int] = []
    var names: [String] = []
}

final class ConcurrencyTests: XCTestCase {
    func config(_ dir: TempDir, _ name: String = "c.strata") -> Realm.Configuration {
        Realm.Configuration(fileURL: dir.url.appendingPathComponent(name), objectTypes: [CItem.self])
    }

    @MainActor
    func testAsyncOpenCompactsWithoutBlockingTheCallersActor() async throws {
        let dir = TempDir()
        let path = dir.path("async-open.strata")
        try makeFragmentedFile(path, n: 1_500, size: 20_000, keep: 20)
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let onMain = Locked<Bool?>(nil)
        let ticker = MainTicker()
        let mainTicks = ticker.shared
        let ticksDuringLaunch = Locked(0)
        let cfg = Realm.Configuration(fileURL: URL(fileURLWithPath: path), shouldCompactOnLaunch: { total, used in
            onMain.with { $0 = Thread.isMainThread }
            // The launch work waits until the main actor has run a few times meanwhile (no
            // clock: a generous deadline only bounds a failing run).
            let start = mainTicks.with { $0 }
            let deadline = Date().addingTimeInterval(60)
            while mainTicks.with({ $0 }) - start < 10 && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
            ticksDuringLaunch.with { $0 = mainTicks.with { $0 } - start }
            return total > 2 * used
        }, objectTypes: [CBlob.self])
        ticker.start()
        let started = Date()
        let realm = try await Realm(configuration: cfg)
        let elapsed = Date().timeIntervalSince(started)
        ticker.running = false
        let sizeAfter = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        XCTAssertEqual(onMain.with { $0 }, false, "the launch compaction runs off the main actor")
        XCTAssertGreaterThanOrEqual(ticksDuringLaunch.with { $0 }, 10, "the main actor kept running while the launch compaction ran")
        guard case .success(let r)? = realm.launchCompaction else { return XCTFail("\(String(describing: realm.launchCompaction))") }
        XCTAssertLessThan(sizeAfter, sizeBefore / 10)
        XCTAssertEqual(realm.objects(CBlob.self).count, 20)
        try realm.verifyThread()
        print("async open: \(sizeBefore) → \(sizeAfter) bytes, compaction \(String(format: "%.3f", r.seconds)) s, open \(String(format: "%.3f", elapsed)) s, main-actor ticks meanwhile \(ticker.ticks)")
    }

    func testTwoActorsWriteConcurrentlyAndEveryWriteIsKept() async throws {
        let dir = TempDir()
        let cfg = config(dir)
        let a = ItemWriter(cfg), b = ItemWriter(cfg)
        let n = 150
        async let wa: Void = a.write("a", count: n)
        async let wb: Void = b.write("b", count: n)
        _ = try await (wa, wb)
        let check = try Realm(configuration: cfg, queue: nil)
        XCTAssertEqual(check.objects(CItem.self).count, 2 * n)
        for tag in ["a", "b"] {
            for i in 0..<n { XCTAssertNotNil(check.object(ofType: CItem.self, forPrimaryKey: "\(tag)-\(i)"), "\(tag)-\(i)") }
        }
        assertIntegrity(check)
    }

    func testAsyncWriteSuspendsWhileTheLockIsHeldElsewhere() async throws {
        let dir = TempDir()
        let cfg = config(dir)
        let writer = ItemWriter(cfg)
        let held = DispatchSemaphore(value: 0)
        let path = cfg.fileURL!.path
        let progress = Locked<Int?>(nil)
        _ = try Realm(configuration: cfg, queue: nil) // create the file and schema
        // Another process-like handle holds the write lock until the actor has ticked a few times
        // after asking for its write (generous deadline: it only bounds a failing run).
        Thread.detachNewThread {
            let db = try! Database(path: path)
            let w = try! db.write()
            held.signal()
            let deadline = Date().addingTimeInterval(60)
            while (progress.with { $0 ?? 0 }) < 10 && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
            w.abort()
            db.close()
        }
        let ticks = try await writer.writeWhileLocked(held, progress: progress)
        XCTAssertGreaterThanOrEqual(ticks, 10, "the actor kept running while asyncWrite waited for the lock")
        XCTAssertNotNil(try Realm(configuration: cfg, queue: nil).object(ofType: CItem.self, forPrimaryKey: "locked-0"))
    }

    @MainActor
    func testChangeStreamWithForAwait() async throws {
        let dir = TempDir()
        let cfg = config(dir)
        let realm = try await Realm(configuration: cfg)
        let results = realm.objects(CItem.self)
        let stream = results.changes()
        let writer = ItemWriter(cfg)
        let watchdog = Task { try await Task.sleep(nanoseconds: 15_000_000_000); XCTFail("timed out") }
        defer { watchdog.cancel() }
        var sawInitial = false, updates = 0
        for await change in stream {
            switch change {
            case .initial(let r):
                sawInitial = true; XCTAssertEqual(r.count, 0)
                // The writer starts after .initial (started before, its commits could race it).
                Task { try await writer.write("s", count: 3) }
            case .update(let r, _, let ins, _): updates += 1; XCTAssertFalse(ins.isEmpty); if r.count == 3 { break }
            case .error(let e): XCTFail("\(e)")
            }
            if results.count == 3 { break }
        }
        XCTAssertTrue(sawInitial)
        XCTAssertGreaterThanOrEqual(updates, 1)
        XCTAssertEqual(results.map(\.n).sorted(), [0, 1, 2])
        // Realm notifications as a stream too.
        var notes = realm.notifications.makeAsyncIterator()
        try await realm.asyncWrite { realm.add(CItem("m", 1)) }
        let n = await notes.next()
        XCTAssertEqual(n, .didChange)
    }

    func testFrozenSnapshotsAreSendableAndReadFromManyTasks() async throws {
        let dir = TempDir()
        let cfg = config(dir)
        let frozenResults: Frozen<Results<CItem>>
        let frozenItem: Frozen<CItem>
        do {
            let realm = try Realm(configuration: cfg, queue: nil)
            try realm.write { for i in 0..<200 { realm.add(CItem("f", i)) } }
            frozenResults = Frozen(realm.objects(CItem.self))
            frozenItem = Frozen(realm.object(ofType: CItem.self, forPrimaryKey: "f-7")!)
            try realm.write { realm.add(CItem("f", 999)) } // later commits do not change snapshots
        }
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    XCTAssertEqual(frozenItem.n, 7)
                    XCTAssertEqual(frozenItem.key, "f-7")
                    return frozenResults.value.reduce(0) { $0 + $1.n }
                }
            }
            var out: [Int] = []
            for try await s in group { out.append(s) }
            return out
        }
        XCTAssertEqual(sums, Array(repeating: (0..<200).reduce(0, +), count: 16))
        XCTAssertTrue(frozenResults.value.isFrozen)
    }

    @MainActor
    func testThreadSafeReferenceHandsAnObjectToAnotherActor() async throws {
        let dir = TempDir()
        let cfg = config(dir)
        let realm = try await Realm(configuration: cfg)
        try await realm.asyncWrite { realm.add(CItem("main", 1)) }
        let item = realm.object(ofType: CItem.self, forPrimaryKey: "main-1")!
        let ref = ThreadSafeReference(to: item)
        let key = try await ItemWriter(cfg).rename(ref, to: "renamed")
        XCTAssertEqual(key, "main-1")
        await realm.asyncRefresh()
        XCTAssertEqual(item.writer, "renamed")
    }

    func testUseFromTheWrongActorIsAPreciseError() async throws {
        let dir = TempDir()
        let writer = ItemWriter(config(dir))
        let smuggled = try await writer.smuggledRealm()
        XCTAssertThrowsError(try smuggled.value.verifyThread()) { e in
            guard case .wrongThread(let m) = e as? Realm.Error else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("ItemWriter"), m)
        }
    }

    @MainActor
    func testWriteAsyncOnAnActorRealmAndOnTheMainThread() async throws {
        let dir = TempDir()
        let cfg = config(dir)
        let realm = try await Realm(configuration: cfg)
        let done = Locked(0)
        let first = realm.writeAsync({ realm.add(CItem("wa", 1)) }, onComplete: { e in XCTAssertNil(e); done.with { $0 += 1 } })
        let second = realm.writeAsync({ realm.add(CItem("wa", 2)) }, onComplete: { _ in XCTFail("cancelled") })
        XCTAssertNotEqual(first, second)
        try realm.cancelAsyncWrite(second)
        XCTAssertTrue(realm.isPerformingAsynchronousWriteOperations)
        for _ in 0..<6000 where done.with({ $0 }) == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        XCTAssertEqual(done.with { $0 }, 1)
        XCTAssertNotNil(realm.object(ofType: CItem.self, forPrimaryKey: "wa-1"))
        XCTAssertNil(realm.object(ofType: CItem.self, forPrimaryKey: "wa-2"))
        XCTAssertFalse(realm.isPerformingAsynchronousWriteOperations)
    }

    func testWriteAsyncOnAQueueConfinedRealm() throws {
        let dir = TempDir()
        let cfg = config(dir)
        let q = DispatchQueue(label: "strata.test.writeAsync")
        let done = expectation(description: "completion")
        q.async {
            let realm = try! Realm(configuration: cfg, queue: q)
            realm.writeAsync({ realm.add(CItem("q", 1)) }, onComplete: { e in
                XCTAssertNil(e)
                XCTAssertNotNil(realm.object(ofType: CItem.self, forPrimaryKey: "q-1"))
                done.fulfill()
            })
        }
        wait(for: [done], timeout: 10)
    }

    @MainActor
    func testObserveOnAnotherActor() async throws {
        let dir = TempDir()
        let cfg = config(dir)
        let realm = try await Realm(configuration: cfg)
        try await realm.asyncWrite { realm.add(CItem("o", 0)) }
        let collector = ChangeCollector()
        let token = await realm.objects(CItem.self).observe(on: collector) { c, change in
            switch change {
            case .initial(let r): c.counts.append(r.count)
            case .update(let r, _, _, _): c.counts.append(r.count)
            case .error: break
            }
        }
        let item = realm.object(ofType: CItem.self, forPrimaryKey: "o-0")!
        let objectToken = await item.observe(on: collector) { c, change in
            if case .change(let o, _) = change { c.names.append(o.writer) }
        }
        for _ in 0..<6000 where await collector.counts.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
        try await realm.asyncWrite { realm.add(CItem("o", 1)); item.writer = "changed" }
        for _ in 0..<6000 {
            let (c, n) = (await collector.counts, await collector.names)
            if c.last == 2 && !n.isEmpty { break }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        let counts = await collector.counts, names = await collector.names
        XCTAssertEqual(counts.first, 1)
        XCTAssertEqual(counts.last, 2)
        XCTAssertEqual(names, ["changed"])
        token.invalidate(); objectToken.invalidate()
    }
}
