import XCTest
import Foundation
@testable import StrataStorage

/// Free-list deltas (format 2): small commits write how their free list differs from a full
/// list written earlier instead of the whole list; the list read back is the same either way.
final class FreeListDeltaTests: XCTestCase {
    func extent(_ o: UInt64, _ l: UInt64, _ b: UInt64 = 0, _ f: UInt64 = 0) -> FreeExtent {
        FreeExtent(offset: o, length: l, birth: b, freed: f)
    }

    func testDiffThenApplyGivesTheList() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<200 {
            func list() -> [FreeExtent] {
                var out: [FreeExtent] = []
                var o: UInt64 = MetaSlot.dataStart
                for _ in 0..<Int(random.next() % 40) {
                    o += 8 * (1 + random.next() % 50)
                    let l = 8 * (1 + random.next() % 50)
                    let held = random.next() % 3 == 0
                    out.append(extent(o, l, held ? 3 : 0, held ? 9 : 0))
                    o += l
                }
                return out
            }
            let base = list()
            // The new list shares some entries with the base.
            var target = list()
            for e in base where random.next() % 2 == 0 && !target.contains(where: { $0.offset < e.offset + e.length && e.offset < $0.offset + $0.length }) {
                target.append(e)
            }
            target.sort { $0.offset < $1.offset }
            let (removed, added) = FreeListCodec.diff(base: base, list: target)
            XCTAssertEqual(removed.count + added.count, FreeListCodec.diffCount(base: base, list: target))
            XCTAssertEqual(FreeListCodec.apply(base: base, removed: removed, added: added, logicalSize: 1 << 30), target)
        }
        // A removed entry that is not in the base, or overlapping results, are refused.
        let base = [extent(8192, 64), extent(9000, 64)]
        XCTAssertNil(FreeListCodec.apply(base: base, removed: [extent(8192, 72)], added: [], logicalSize: 1 << 20))
        XCTAssertNil(FreeListCodec.apply(base: base, removed: [], added: [extent(8200, 64)], logicalSize: 1 << 20))
        XCTAssertNil(FreeListCodec.apply(base: base, removed: [], added: [extent(1 << 20, 64)], logicalSize: 1 << 20))
    }

    /// A transaction's allocator starts from its base list: held entries no reader can see any
    /// more join the reusable extents (merged with those they touch, in one pass), the others
    /// stay held, and the changes it reports (`listChanges`, which compares only the ranges it
    /// recorded as touched) turn the base list into the final one. Random lists whose entries
    /// often touch, random readers.
    func testHeldEntriesJoinTheReusableOnesAndTheChangesGiveTheList() {
        var random = SplitMix64(seed: 0x5EED)
        var merged = 0
        for round in 0..<400 {
            var entries: [FreeExtent] = []
            var o: UInt64 = MetaSlot.dataStart
            for _ in 0..<Int(random.next() % 60) {
                if random.next() % 2 == 0 { o += 8 * (1 + random.next() % 20) }   // else: touches the previous one
                let l = 8 * (1 + random.next() % 30)
                if random.next() % 2 == 0 { entries.append(extent(o, l)) }
                else { let b = 1 + random.next() % 8; entries.append(extent(o, l, b, b + 1 + random.next() % 4)) }
                o += l
            }
            let readers = (0..<Int(random.next() % 3)).map { _ in 1 + random.next() % 12 }.sorted()
            let logical = o + 64
            let (reusable, held) = SpaceAllocator.split(entries)
            var alloc = SpaceAllocator(reusable: reusable, held: held, readers: readers, logicalSize: logical, newVersion: 20)
            // What the allocator must start from: every extent free for all now, coalesced.
            var expected: [(offset: UInt64, length: UInt64)] = []
            for e in entries where e.isReusable(readers: readers) {
                if let last = expected.last, last.offset + last.length == e.offset { expected[expected.count - 1].length += e.length; merged += 1 }
                else { expected.append((e.offset, e.length)) }
            }
            XCTAssertEqual(alloc.reusable.map(\.offset), expected.map(\.offset), "round \(round)")
            XCTAssertEqual(alloc.reusable.map(\.length), expected.map(\.length), "round \(round)")
            XCTAssertEqual(alloc.held, entries.filter { !$0.isReusable(readers: readers) }, "round \(round)")
            // A few allocations and frees, then the reported changes applied to the base list.
            for _ in 0..<Int(random.next() % 4) { _ = alloc.allocate(8 * (1 + random.next() % 40)) }
            alloc.releaseVisible(offset: logical - 64, length: 32, birth: 3)
            alloc.finish()
            let (dropped, gained) = alloc.listChanges()
            XCTAssertEqual(FreeListCodec.apply(base: entries, removed: dropped, added: gained, logicalSize: alloc.logicalSize),
                           alloc.finalEntries(), "round \(round)")
        }
        XCTAssertGreaterThan(merged, 100, "the lists should often merge a freed extent with its neighbours")
    }

    /// Small commits on a file with many free extents write deltas (format 2); the file checks
    /// sound, reopens to the same list, and compaction writes format 1 again.
    func testSmallCommitsWriteDeltasThatReadBackTheSameList() throws {
        let dir = TempDir()
        let path = dir.path("d.strata")
        let store = try Store(path: path)
        try writeThenDeleteEveryOther(store, count: 4_000, valueBytes: 300)
        var w: WriteTransaction
        var t: BTree
        var deltas = 0, fulls = 0
        for i in 0..<300 {
            w = try store.beginWrite()
            t = try w.tree("t", create: false)!
            try t.put(key(1 + 2 * (i * 7 % 2_000)), bytes: [UInt8](repeating: UInt8(i % 13), count: 100 + i % 200))
            try w.commit()
            let m = try store.newestMeta()
            XCTAssertEqual(m.format, MetaSlot.formatVersion)
            let r = try store.beginRead()
            let list = try FreeListCodec.load(m.freeListRef, logicalSize: m.logicalSize, path: path) { try r.block($0) }
            if list.delta != nil { deltas += 1 } else { fulls += 1 }
            XCTAssertEqual(list.entries, store.committedFreeList?.list.entries)
            r.end()
        }
        XCTAssertGreaterThan(deltas, 200, "small commits should mostly write deltas")
        XCTAssertGreaterThan(fulls, 0, "a delta grown past its limit should be rebased")
        // End on a delta, so that the next handle has one to read.
        for i in 0..<10 where store.committedFreeList?.list.delta == nil {
            w = try store.beginWrite()
            try w.tree("t", create: false)!.put(key(3 + 2 * i), bytes: [UInt8(i)])
            try w.commit()
        }
        XCTAssertNotNil(store.committedFreeList?.list.delta)
        let again = try reopenReadingTheSameList(store, path: path)
        _ = try again.compact()
        XCTAssertEqual(try again.newestMeta().freeListRef, 0)
        assertSound(again)
        let r = try again.beginRead()
        XCTAssertEqual(try r.tree("t")!.getBytes(key(1)), [1, 2, 3])
        r.end()
        again.close()
    }

    /// A file of an older format (1: before deltas; 2: before one-sync encrypted commits; 3: before
    /// chains of deltas) opens,
    /// and its first commit by this build leaves both slots at this build's format, so a build
    /// that reads only the older format refuses the file instead of opening the previous version
    /// from the older slot.
    func testFirstCommitUpgradesBothSlots() throws {
        for older: UInt8 in [1, 2, 3] {
            let dir = TempDir()
            let path = dir.path("u.strata")
            let store = try Store(path: path)
            for round in 0..<2 {
                let w = try store.beginWrite()
                try w.tree("t", create: true)!.put(key(round), bytes: [UInt8(round)])
                try w.commit()
            }
            store.close()
            // Make both slots the older format, as an older build wrote them (two-sync slots:
            // no unsynced runs, which format 1 did not have).
            let fd = open(path, O_RDWR)
            for slot in 0..<2 {
                var b = [UInt8](repeating: 0, count: 128)
                XCTAssertEqual(pread(fd, &b, 128, off_t(slot * 4096)), 128)
                b[8] = older
                for i in 112..<116 { b[i] = 0 }
                let sum = b.withUnsafeBytes { Checksum.hash($0.baseAddress!, 120) }
                withUnsafeBytes(of: sum.littleEndian) { for (i, x) in $0.enumerated() { b[120 + i] = x } }
                XCTAssertEqual(pwrite(fd, b, 128, off_t(slot * 4096)), 128)
            }
            close(fd)
            func formats() throws -> [UInt32] {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                return [0, 4096].map { o in data.withUnsafeBytes { $0.baseAddress!.getLE(o + 8, as: UInt32.self) } }
            }
            XCTAssertEqual(try formats(), [UInt32(older), UInt32(older)])
            let upgraded = try Store(path: path)
            XCTAssertEqual(try upgraded.newestMeta().format, UInt32(older))
            let w = try upgraded.beginWrite()
            try w.tree("t", create: false)!.put(key(9), bytes: [9])
            try w.commit()
            XCTAssertEqual(try formats(), [MetaSlot.formatVersion, MetaSlot.formatVersion])
            assertSound(upgraded)
            upgraded.close()
            let r = try Store(path: path)
            let t = try r.beginRead()
            XCTAssertEqual(try t.tree("t")!.getBytes(key(1)), [1])
            XCTAssertEqual(try t.tree("t")!.getBytes(key(9)), [9])
            t.end()
            r.close()
        }
    }

    /// Format 4: each small commit writes a delta of its own changes over the list before it, so
    /// the chain grows by one small block per commit up to `FreeListCodec.maxChain`; the next
    /// commit folds it into one delta over the base (or writes a full list). Every list read back
    /// — by this handle and by one without a cached list — is the one committed, and the file
    /// checks sound at every length of the chain.
    func testSmallCommitsChainDeltasAndFoldThem() throws {
        let dir = TempDir()
        let path = dir.path("c.strata")
        let store = try Store(path: path)
        // Values of their own blocks: deleting every other one leaves 2,000 separate holes, a base
        // long enough that a folded chain stays under its delta limit.
        try writeThenDeleteEveryOther(store, count: 4_000, valueBytes: 1_500)
        var w: WriteTransaction
        var lengths: [Int] = []
        var previous = try XCTUnwrap(store.committedFreeList?.list.entries)
        for i in 0..<3 * FreeListCodec.maxChain {
            w = try store.beginWrite()
            try w.tree("t", create: false)!.put(key(1 + 2 * (i * 11 % 2_000)), bytes: [UInt8](repeating: UInt8(i), count: 150))
            try w.commit()
            let m = try store.newestMeta()
            let r = try store.beginRead()
            let list = try FreeListCodec.load(m.freeListRef, logicalSize: m.logicalSize, path: path) { try r.block($0) }
            XCTAssertEqual(list.entries, store.committedFreeList?.list.entries, "commit \(i)")
            XCTAssertEqual(list.chain, store.committedFreeList?.list.chain, "commit \(i)")
            XCTAssertEqual(list.blocks.count, list.chain.count + 1)
            if list.chain.count > 1 {
                // A chained delta holds this commit's changes only (the difference from the list
                // before it), not everything since the base.
                XCTAssertEqual(list.headCount, FreeListCodec.diffCount(base: previous, list: list.entries), "commit \(i)")
            }
            previous = list.entries
            r.end()
            lengths.append(list.chain.count)
            if i % 7 == 3 { assertSound(store) }
        }
        XCTAssertEqual(lengths.max(), FreeListCodec.maxChain, "\(lengths)")
        for (a, b) in zip(lengths, lengths.dropFirst()) {
            XCTAssertTrue(b == a + 1 || b <= 1, "the chain grows by one or is folded: \(lengths)")
        }
        // A full chain is folded into one delta over the base by the next commit (the first
        // commits after the delete change every hole — held, then free for all — and write
        // full lists instead).
        XCTAssertEqual(zip(lengths, lengths.dropFirst()).filter { $0 == FreeListCodec.maxChain && $1 == 1 }.count, 2, "\(lengths)")
        // End in the middle of a chain, then read it with a handle that has no cached list.
        while (store.committedFreeList?.list.chain.count ?? 0) < 5 {
            w = try store.beginWrite()
            try w.tree("t", create: false)!.put(key(5), bytes: [5])
            try w.commit()
        }
        try reopenReadingTheSameList(store, path: path).close()
    }

    /// A damaged delta inside a chain (not the newest) is reported by check and refused by a
    /// writer, like a damaged base.
    func testDamagedDeltaInsideAChainIsReported() throws {
        try assertDamagedListBlockIsReported(chainLength: 4) { $0.chain[1] }
    }

    /// A delta whose base was damaged is reported by check and refused by a writer.
    func testDamagedDeltaBaseIsReported() throws {
        try assertDamagedListBlockIsReported(chainLength: 1) { $0.base.ref }
    }

    /// Closes `store` and opens its file again: the new handle, which has no cached list, reads
    /// the delta (or chain) `store` committed as the same list, and commits on from it (key 1 of
    /// tree "t" set to [1, 2, 3]); the file checks sound before and after. Returns it, open.
    private func reopenReadingTheSameList(_ store: Store, path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Store {
        let expected = try XCTUnwrap(store.committedFreeList?.list.entries, file: file, line: line)
        assertSound(store)
        store.close()
        let again = try Store(path: path)
        let m = try again.newestMeta()
        let reader = try again.beginRead()
        let reread = try FreeListCodec.load(m.freeListRef, logicalSize: m.logicalSize, path: path) { try reader.block($0) }
        reader.end()
        XCTAssertNotNil(reread.delta, file: file, line: line)
        XCTAssertEqual(reread.entries, expected, file: file, line: line)
        let w = try again.beginWrite()
        try w.tree("t", create: false)!.put(key(1), bytes: [1, 2, 3])
        try w.commit()
        assertSound(again)
        return again
    }

    /// Many free extents: `count` values of `valueBytes` bytes in tree "t" (keys `key(0..<count)`),
    /// then every other one deleted, in two commits.
    private func writeThenDeleteEveryOther(_ store: Store, count: Int, valueBytes: Int) throws {
        var w = try store.beginWrite()
        var t = try w.tree("t", create: true)!
        for i in 0..<count { try t.put(key(i), bytes: [UInt8](repeating: UInt8(i % 251), count: valueBytes)) }
        try w.commit()
        w = try store.beginWrite()
        t = try w.tree("t", create: false)!
        for i in stride(from: 0, to: count, by: 2) { try t.delete(key(i)) }
        try w.commit()
    }

    /// Writes a file whose free list is a chain of at least `chainLength` deltas, flips a byte of
    /// the list block `target` picks, and checks that `check` reports it and a writer refuses
    /// the file (the list is needed to allocate; its blocks fail their checksums).
    private func assertDamagedListBlockIsReported(chainLength: Int, target: (FreeListCodec.Stored) -> BlockRef,
                                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = TempDir()
        let path = dir.path("b.strata")
        let store = try Store(path: path)
        try writeThenDeleteEveryOther(store, count: 2_000, valueBytes: 200)
        var w: WriteTransaction
        for i in 0..<100 where (store.committedFreeList?.list.chain.count ?? 0) < chainLength {
            w = try store.beginWrite()
            try w.tree("t", create: false)!.put(key(1 + 2 * i), bytes: [9])
            try w.commit()
        }
        XCTAssertGreaterThanOrEqual(store.committedFreeList?.list.chain.count ?? 0, chainLength, file: file, line: line)
        let m = try store.newestMeta()
        let r = try store.beginRead()
        let list = try FreeListCodec.load(m.freeListRef, logicalSize: m.logicalSize, path: path) { try r.block($0) }
        r.end()
        store.close()
        let at = off_t(target(list) + 40)
        let fd = open(path, O_RDWR)
        var b: UInt8 = 0
        XCTAssertEqual(pread(fd, &b, 1, at), 1, file: file, line: line)
        b ^= 0x5A
        XCTAssertEqual(pwrite(fd, &b, 1, at), 1, file: file, line: line)
        close(fd)
        let damaged = try Store(path: path)
        XCTAssertFalse(try damaged.check().problems.isEmpty, file: file, line: line)
        XCTAssertThrowsError(try damaged.beginWrite(), file: file, line: line) { XCTAssertTrue("\($0)".contains("checksum"), "\($0)") }
        damaged.close()
    }

    /// The delta a commit writes is folded from its own changes to the list (only the ranges it
    /// touched are compared, `SpaceAllocator.listChanges`). Random small commits, with readers
    /// pinning versions so that entries stay held and later become reusable: after each commit
    /// the list read back from the file is the one the handle keeps, and so is what another
    /// handle, which has no cached list, commits on from. (Debug builds also check every delta
    /// against the whole list as it is written.)
    func testFoldedDeltasMatchTheListUnderPinnedReaders() throws {
        try foldedDeltaRounds(StoreOptions(), minimumDeltas: 200)
    }

    /// The same in an encrypted file, whose transactions touch every free extent (the
    /// unaligned ends of each are parked and restored): the commit compares the whole lists.
    func testFoldedDeltasMatchTheListInAnEncryptedFile() throws {
        var options = StoreOptions()
        options.encryptionKey = (0..<64).map { UInt8($0 * 7 % 251) }
        // Whole pages change per commit: more entries, so the delta is rebased more often.
        try foldedDeltaRounds(options, minimumDeltas: 80)
    }

    private func foldedDeltaRounds(_ options: StoreOptions, minimumDeltas: Int) throws {
        let dir = TempDir()
        let path = dir.path("f.strata")
        let store = try Store(path: path, options: options)
        var w = try store.beginWrite()
        var t = try w.tree("t", create: true)!
        for i in 0..<3_000 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(i % 251), count: 250)) }
        try w.commit()
        w = try store.beginWrite()
        t = try w.tree("t", create: false)!
        for i in stride(from: 0, to: 3_000, by: 3) { try t.delete(key(i)) }
        try w.commit()
        var random = SplitMix64(seed: 0xF01D)
        var readers: [ReadTransaction] = []
        var deltas = 0
        for round in 0..<400 {
            // Readers come and go: each pins the version it started at.
            if random.next() % 4 == 0 { readers.append(try store.beginRead()) }
            if !readers.isEmpty && random.next() % 3 == 0 { readers.remove(at: Int(random.next() % UInt64(readers.count))).end() }
            w = try store.beginWrite()
            t = try w.tree("t", create: false)!
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let k = Int(random.next() % 3_000)
                if random.next() % 3 == 0 { try t.delete(key(k)) }
                else { try t.put(key(k), bytes: [UInt8](repeating: UInt8(round % 251), count: 20 + Int(random.next() % 600))) }
            }
            try w.commit()
            let m = try store.newestMeta()
            let r = try store.beginRead()
            let list = try FreeListCodec.load(m.freeListRef, logicalSize: m.logicalSize, path: path) { try r.block($0) }
            r.end()
            if list.delta != nil { deltas += 1 }
            XCTAssertEqual(list.entries, store.committedFreeList?.list.entries, "round \(round)")
            XCTAssertTrue(list.entries.contains { !$0.isFreeForAll } || readers.isEmpty || round < 2)
            if round % 100 == 99 {
                assertSound(store)
                // Another handle reads the list from the file and commits on from it.
                let other = try Store(path: path, options: options)
                let ow = try other.beginWrite()
                try ow.tree("t", create: false)!.put(key(round), bytes: [UInt8](repeating: 1, count: 300))
                try ow.commit()
                assertSound(other)
                other.close()
            }
        }
        for r in readers { r.end() }
        XCTAssertGreaterThan(deltas, minimumDeltas, "small commits should mostly write deltas")
        assertSound(store)
        store.close()
    }
}
