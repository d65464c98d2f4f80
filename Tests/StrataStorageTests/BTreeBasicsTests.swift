import XCTest
@testable import StrataStorage

final class BTreeBasicsTests: XCTestCase {
    func testPutGetCommitReopen() throws {
        let dir = TempDir()
        let path = dir.path("a.strata")
        do {
            let store = try Store(path: path)
            let w = try store.beginWrite()
            let t = try w.tree("t", create: true)!
            for i in 0..<5000 { try t.put(key(i), bytes: Array("value \(i)".utf8)) }
            let v = try w.commit()
            XCTAssertEqual(v, 2)
            assertSound(store)
            store.close()
        }
        let store = try Store(path: path)
        let r = try store.beginRead()
        XCTAssertEqual(r.version, 2)
        let t = try XCTUnwrap(try r.tree("t"))
        XCTAssertEqual(try t.totalWeight, 5000)
        for i in stride(from: 0, to: 5000, by: 37) { XCTAssertEqual(try t.getBytes(key(i)), Array("value \(i)".utf8)) }
        XCTAssertNil(try t.get(key(5000)))
        XCTAssertEqual(try t.entries().map(\.key), (0..<5000).map(key))
        XCTAssertEqual(try t.entry(atWeight: 1234)?.entry.key, key(1234))
        XCTAssertEqual(try t.floor(Array("key00000100x".utf8))?.key, key(100))
    }

    func testDeleteEverythingAndMerge() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("d.strata"))
        var w = try store.beginWrite()
        var t = try w.tree("t", create: true)!
        for i in 0..<3000 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(i & 0xff), count: i % 50)) }
        try w.commit()
        w = try store.beginWrite()
        t = try w.tree("t")!
        for i in stride(from: 0, to: 3000, by: 2) { XCTAssertTrue(try t.delete(key(i))) }
        XCTAssertFalse(try t.delete(key(0)))
        try w.commit()
        assertSound(store)
        w = try store.beginWrite()
        t = try w.tree("t")!
        for i in stride(from: 1, to: 3000, by: 2) { XCTAssertTrue(try t.delete(key(i))) }
        XCTAssertEqual(try t.totalWeight, 0)
        try w.commit()
        assertSound(store)
        let r = try store.beginRead()
        XCTAssertEqual(try r.tree("t")?.entries().count, 0)
    }

    /// `delete(keys:)` removes many keys at once (sorted or not, some absent, up to every key:
    /// the root shrinks), freeing their values, and equals a model of the entries.
    func testDeleteManyKeysAgainstModel() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("m.strata"))
        var model: [Int: Int] = [:]
        var rng = SplitMix64(seed: 9)
        do {
            let w = try store.beginWrite()
            let t = try w.tree("t", create: true)!
            for i in 0..<4000 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(i & 0xff), count: i % 3 == 0 ? 2000 : i % 40)); model[i] = i % 3 == 0 ? 2000 : i % 40 }
            try w.commit()
        }
        for round in 0..<12 {
            let w = try store.beginWrite()
            let t = try w.tree("t")!
            let share = [2, 30, 70, 100][round % 4]
            var batch = (0..<4400).filter { _ in Int(rng.next() % 100) < share }
            if round % 3 == 1 { batch.shuffle(using: &rng) }
            let present = batch.filter { model[$0] != nil }.count
            XCTAssertEqual(try t.delete(keys: batch.map(key)), present, "round \(round)")
            for i in batch { model[i] = nil }
            XCTAssertEqual(try t.totalWeight, UInt64(model.count), "round \(round)")
            try w.commit()
            assertSound(store)
            let r = try store.beginRead()
            let entries = try r.tree("t")?.entries() ?? []
            XCTAssertEqual(entries.map(\.key), model.keys.sorted().map(key), "round \(round)")
            for i in model.keys.sorted() where i % 97 == 0 { XCTAssertEqual(try r.tree("t")?.getBytes(key(i))?.count, model[i], "round \(round)") }
            r.end()
            if model.isEmpty {
                let w = try store.beginWrite()
                let t = try w.tree("t")!
                for i in 0..<3000 where i % 2 == 0 { try t.put(key(i), bytes: [UInt8(i & 0xff)]); model[i] = 1 }
                try w.commit()
            }
        }
    }

    func testLargeValuesUpTo16MB() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("l.strata"))
        let big = (0..<(16 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let w = try store.beginWrite()
        let t = try w.tree("blobs", create: true)!
        try t.put(Array("big".utf8), bytes: big)
        try t.put(Array("mid".utf8), bytes: Array(big.prefix(5000)))
        try w.commit()
        let r = try store.beginRead()
        XCTAssertEqual(try r.tree("blobs")?.getBytes(Array("big".utf8)), big)
        XCTAssertEqual(try r.tree("blobs")?.getBytes(Array("mid".utf8)), Array(big.prefix(5000)))
        r.end()
        assertSound(store)
        // Replacing frees the old blob; after another commit its space is reused.
        let w2 = try store.beginWrite()
        try w2.tree("blobs")!.put(Array("big".utf8), bytes: [1, 2, 3])
        try w2.commit()
        let stats = try store.spaceStatistics()
        XCTAssertGreaterThan(stats.freeBytes, 16 << 20)
        assertSound(store)
    }

    func testWeightedPositionalAccess() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("w.strata"))
        let w = try store.beginWrite()
        let t = try w.tree("clusters", create: true, weighted: true)!
        // 400 entries weighing 1..400: positions map to entries by prefix sums.
        var starts: [UInt64] = []
        var acc: UInt64 = 0
        for i in 0..<400 { starts.append(acc); try t.put(key(i), bytes: [1], weight: UInt64(i + 1)); acc += UInt64(i + 1) }
        XCTAssertEqual(try t.totalWeight, acc)
        for probe in [0, 1, 2, 3, 500, 4000, Int(acc) - 1] {
            let (e, start) = try XCTUnwrap(try t.entry(atWeight: UInt64(probe)))
            let idx = starts.lastIndex { $0 <= UInt64(probe) }!
            XCTAssertEqual(e.key, key(idx)); XCTAssertEqual(start, starts[idx])
        }
        XCTAssertNil(try t.entry(atWeight: acc))
        try w.commit()
        assertSound(store)
    }

    func testAbortLeavesPreviousVersion() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("x.strata"))
        let w = try store.beginWrite()
        try w.tree("t", create: true)!.put(key(1), bytes: [1])
        try w.commit()
        let w2 = try store.beginWrite()
        try w2.tree("t")!.put(key(2), bytes: [2])
        try w2.dropTree("t")
        w2.abort()
        let r = try store.beginRead()
        XCTAssertEqual(r.version, 2)
        XCTAssertEqual(try r.tree("t")?.entries().map(\.key), [key(1)])
        XCTAssertThrowsError(try w2.commit()) { XCTAssertEqual($0 as? StorageError, .transactionEnded) }
    }

    func testDropTreeFreesSpace() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("drop.strata"))
        var w = try store.beginWrite()
        let t = try w.tree("t", create: true)!
        for i in 0..<2000 { try t.put(key(i), bytes: [UInt8](repeating: 7, count: 100)) }
        try w.commit()
        let before = try store.spaceStatistics()
        w = try store.beginWrite()
        try w.dropTree("t")
        try w.commit()
        XCTAssertEqual(try store.beginRead().treeNames(), ["_history"])
        let after = try store.spaceStatistics()
        XCTAssertLessThan(after.usedBytes, before.usedBytes / 4)
        assertSound(store)
    }
}
