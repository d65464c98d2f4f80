import XCTest
@testable import StrataStorage

/// 1,200 random transactions (about 24,000 puts / deletes / tree drops; commit or abort) checked
/// against a plain in-memory model after every transaction, with several readers holding old
/// versions whose snapshots must never change, and the integrity check every 25 transactions.
final class PropertyTests: XCTestCase {
    typealias Model = [String: [[UInt8]: [UInt8]]]

    func snapshot(_ txn: Transaction, trees: [String]) throws -> Model {
        var m: Model = [:]
        for name in trees {
            guard let t = try txn.tree(name) else { continue }
            var d: [[UInt8]: [UInt8]] = [:]
            for e in try t.entries() { d[e.key] = try t.bytes(of: e.value) }
            m[name] = d
        }
        return m
    }

    func testRandomTransactionsAgainstModel() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("p.strata"))
        var rng = SplitMix64(seed: 0xC0FFEE)
        var committed: Model = [:]
        let treeNames = ["a", "b", "c"]
        var readers: [(ReadTransaction, Model)] = []
        let steps = 1200
        for step in 0..<steps {
            let w = try store.beginWrite()
            var working = committed
            let ops = Int(rng.next() % 40) + 1
            for _ in 0..<ops {
                let name = treeNames[Int(rng.next() % 3)]
                let r = rng.next() % 100
                if r < 60 {
                    let k = Array("k\(rng.next() % 600)".utf8)
                    let len = rng.next() % 10 == 0 ? Int(rng.next() % 6000) : Int(rng.next() % 64)
                    let v = (0..<len).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    try w.tree(name, create: true)!.put(k, bytes: v)
                    working[name, default: [:]][k] = v
                } else if r < 97 {
                    let k = Array("k\(rng.next() % 600)".utf8)
                    let t = try w.tree(name)
                    let existed = try t?.delete(k) ?? false
                    XCTAssertEqual(existed, working[name]?[k] != nil)
                    working[name]?[k] = nil
                } else {
                    try w.dropTree(name)
                    working[name] = nil
                }
            }
            // The write transaction sees its own changes.
            XCTAssertEqual(try snapshot(w, trees: treeNames).filter { !$0.value.isEmpty }, working.filter { !$0.value.isEmpty })
            if rng.next() % 10 == 0 {
                w.abort()
            } else {
                try w.commit()
                committed = working
            }
            // Readers come and go; each must keep seeing its own version.
            if rng.next() % 8 == 0 && readers.count < 5 {
                let r = try store.beginRead(label: "reader-\(step)")
                readers.append((r, committed))
            }
            if !readers.isEmpty && rng.next() % 10 == 0 {
                let i = Int(rng.next() % UInt64(readers.count))
                let (r, model) = readers[i]
                XCTAssertEqual(try snapshot(r, trees: treeNames).filter { !$0.value.isEmpty }, model.filter { !$0.value.isEmpty }, "reader at \(r.version) changed")
                r.end()
                readers.remove(at: i)
            }
            if step % 25 == 0 { assertSound(store) }
        }
        for (r, model) in readers {
            XCTAssertEqual(try snapshot(r, trees: treeNames).filter { !$0.value.isEmpty }, model.filter { !$0.value.isEmpty })
            r.end()
        }
        assertSound(store)
        let r = try store.beginRead()
        XCTAssertEqual(try snapshot(r, trees: treeNames).filter { !$0.value.isEmpty }, committed.filter { !$0.value.isEmpty })
        // With no readers left, nothing is locked and the file did not grow without limit: its
        // allocated area stays within a small multiple of the live data (1,200 commits that
        // never reused space would need tens of MiB).
        let s = try store.spaceStatistics()
        XCTAssertEqual(s.lockedBytes, 0)
        let liveData = committed.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.key.count + $1.value.count } }
        XCTAssertLessThan(Int(s.logicalBytes), 8 * liveData + (4 << 20), "allocated \(s.logicalBytes) bytes for \(liveData) bytes of data")
    }

    /// The interval rule: a reader pinned at an old version does not stop the reuse of blocks
    /// born and freed after it.
    func testReuseBetweenReaders() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("i.strata"))
        var w = try store.beginWrite()
        try w.tree("t", create: true)!.put(Array("x".utf8), bytes: [UInt8](repeating: 1, count: 100_000))
        try w.commit()
        let pinned = try store.beginRead(label: "old reader")
        let oldVersion = pinned.version
        // Churn: each commit replaces a 100 KB value. Without interval reuse the file would
        // grow by 100 KB per commit because of the pinned reader.
        for i in 0..<200 {
            w = try store.beginWrite()
            try w.tree("t")!.put(Array("y".utf8), bytes: [UInt8](repeating: UInt8(i & 0xff), count: 100_000))
            try w.commit()
        }
        let s = try store.spaceStatistics()
        XCTAssertLessThan(s.logicalBytes, 2_000_000, "blocks born and freed after the pinned version must be reused")
        // The pinned reader still sees its version intact and keeps (only) its own data locked.
        XCTAssertEqual(try pinned.tree("t")?.getBytes(Array("x".utf8)), [UInt8](repeating: 1, count: 100_000))
        XCTAssertNil(try pinned.tree("t")?.get(Array("y".utf8)))
        XCTAssertEqual(pinned.version, oldVersion)
        let pinInfo = try XCTUnwrap(s.readers.first { $0.label == "old reader" })
        XCTAssertEqual(pinInfo.version, oldVersion)
        pinned.end()
        assertSound(store)
    }

    /// A long-lived reader pins everything freed after it: the file grows, the statistics say
    /// which reader holds how much, and after `end()` the space is reused.
    func testPinnedReaderGrowsFileThenReleases() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("g.strata"))
        var w = try store.beginWrite()
        let t = try w.tree("t", create: true)!
        for i in 0..<500 { try t.put(key(i), bytes: [UInt8](repeating: 3, count: 200)) }
        try w.commit()
        let reader = try store.beginRead(label: "stuck thread")
        for round in 0..<5 {
            w = try store.beginWrite()
            let t = try w.tree("t")!
            for i in 0..<500 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(round), count: 200)) }
            try w.commit()
        }
        let s = try store.spaceStatistics()
        let slot = try XCTUnwrap(s.readers.first { $0.label == "stuck thread" }).slot
        XCTAssertGreaterThan(s.pinnedBytesByReader[slot] ?? 0, 100_000)
        XCTAssertGreaterThan(s.lockedBytes, 100_000)
        let grown = s.logicalBytes
        reader.end()
        // Next commits reuse the space instead of growing.
        for round in 0..<5 {
            w = try store.beginWrite()
            let t = try w.tree("t")!
            for i in 0..<500 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(round), count: 200)) }
            try w.commit()
        }
        let after = try store.spaceStatistics()
        XCTAssertEqual(after.lockedBytes, 0)
        XCTAssertLessThanOrEqual(after.logicalBytes, grown)
        assertSound(store)
    }
}
