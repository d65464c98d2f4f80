import Foundation
import XCTest
@testable import StrataStorage

/// Damaged Strata files whose damage passes the checksums: blocks and meta slots are mutated and
/// their checksums recomputed (so the code behind the checksum sees the damage), besides plain
/// flips, truncation, duplicated and zeroed regions and swapped meta slots. Each case is opened
/// and read the whole way (every tree, every entry and value, weights, floor lookups, generic
/// blocks), checked, written (a commit) and compacted; it must end in values or a typed
/// `StorageError`, never a trap or a hang. `STRATA_FUZZ_SEED` / `STRATA_FUZZ_CASES` replay or
/// extend it; `STRATA_FUZZ_ANNOUNCE` prints each case's seed before it runs.
final class StorageFuzzTests: XCTestCase {
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
    }

    /// A file with a plain and a weighted tree (inner nodes), inline, large and owned values,
    /// generic blocks with refs, a free list (deltas) and history, after a few commits.
    static func makeFixture(_ path: String) throws {
        var o = StoreOptions()
        o.growthStep = 64 << 10
        o.automaticCompaction = false
        let s = try Store(path: path, options: o)
        for round in 0..<4 {
            let w = try s.beginWrite()
            let t = try w.tree("t", create: true)!
            let wt = try w.tree("weighted", create: true, weighted: true)!
            for i in 0..<300 where i % 4 == round || round == 0 {
                try t.put(key(i), bytes: [UInt8](repeating: UInt8(truncatingIfNeeded: i &+ round), count: 20 + i % 50))
                try wt.put(key(i), bytes: [UInt8(i & 0xff)], weight: UInt64(1 + i % 7))
            }
            try t.put(Array("large\(round)".utf8), bytes: [UInt8](repeating: 0xE2, count: 3000 + round * 1000))
            let leaf = try w.writeGeneric(refs: [], byteCount: 40) { $0.initializeMemory(as: UInt8.self, repeating: 7) }
            let mid = try w.writeGeneric(refs: [leaf, 0], byteCount: 16) { $0.initializeMemory(as: UInt8.self, repeating: 9) }
            try t.put(Array("owned\(round)".utf8), value: .owned(mid))
            if round == 2 { _ = try t.delete(key(5)) }
            try w.commit()
        }
        s.close()
    }

    /// Offsets and lengths of the blocks of `b` whose checksums hold.
    static func blocks(_ b: [UInt8]) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        b.withUnsafeBytes { raw in
            var off = 8192
            while off + 16 <= b.count {
                let len = Int(raw.loadUnaligned(fromByteOffset: off + 4, as: UInt32.self))
                if len >= 16, len % 8 == 0, len <= 65536, off + len <= b.count,
                   raw.loadUnaligned(fromByteOffset: off, as: UInt32.self) == UInt32(truncatingIfNeeded: Checksum.hash(raw.baseAddress! + off + 4, len - 4)) {
                    out.append((off, len))
                }
                off += 8
            }
        }
        return out
    }

    static func putLE(_ b: inout [UInt8], _ at: Int, _ v: UInt64, _ size: Int) {
        guard at >= 0, at + size <= b.count else { return }
        for k in 0..<size { b[at + k] = UInt8(truncatingIfNeeded: v >> UInt64(8 * k)) }
    }

    static func word(_ rng: inout Rng, fileSize n: Int, blocks: [(Int, Int)]) -> UInt64 {
        switch rng.below(10) {
        case 0, 1: return 0
        case 2: return UInt64.max
        case 3: return UInt64(1 + rng.below(63))
        case 4, 5: return blocks.isEmpty ? 8192 : UInt64(blocks[rng.below(blocks.count)].0)
        case 6: return UInt64(max(0, n + rng.below(128) - 64))
        case 7, 8:
            let c: [UInt64] = [1 << 31, (1 << 31) - 1, 1 << 32, 1 << 62, 1 << 63, 0xFFFF_FFF8, 4096, 8192]
            return c[rng.below(c.count)] &+ UInt64([0, 1, 8][rng.below(3)])
        default: return rng.next()
        }
    }

    static func reseal(_ b: inout [UInt8], block off: Int) {
        guard off + 8 <= b.count else { return }
        let len = Int(b[off + 4]) | Int(b[off + 5]) << 8 | Int(b[off + 6]) << 16 | Int(b[off + 7]) << 24
        guard len >= 8, off + len <= b.count else { return }
        let sum = b.withUnsafeBytes { UInt32(truncatingIfNeeded: Checksum.hash($0.baseAddress! + off + 4, len - 4)) }
        putLE(&b, off, UInt64(sum), 4)
    }

    static func resealSlot(_ b: inout [UInt8], _ s: Int) {
        guard s + 128 <= b.count else { return }
        let sum = b.withUnsafeBytes { Checksum.hash($0.baseAddress! + s, 120) }
        putLE(&b, s + 120, sum, 8)
    }

    static func mutate(_ original: [UInt8], blocks: [(Int, Int)], rng: inout Rng) -> [UInt8] {
        var b = original
        for _ in 0..<(1 + (rng.below(10) < 3 ? 1 : 0)) {
            let n = b.count
            guard n >= 64 else { break }
            switch rng.below(10) {
            case 0:
                for _ in 0...rng.below(4) { b[rng.below(n)] ^= UInt8(1 + rng.below(255)) }
            case 1:
                b.removeSubrange(rng.below(n)...)
            case 2:
                let len = [8, 64, 4096][rng.below(3)]
                let s = rng.below(max(1, n - len)) & ~7, d = rng.below(max(1, n - len)) & ~7
                let chunk = Array(b[s..<min(n, s + len)])
                for (k, x) in chunk.enumerated() where d + k < n { b[d + k] = x }
            case 3:
                if n >= 8192, rng.below(2) == 0 {
                    for k in 0..<4096 { b.swapAt(k, k + 4096) }
                } else {
                    let s = [0, 4096][rng.below(2)]
                    let field = [8, 12, 16, 24, 32, 40, 112][rng.below(7)]
                    let v = word(&rng, fileSize: n, blocks: blocks)
                    if field == 8 || field == 12 || field == 112 { putLE(&b, s + field, v, 4) } else { putLE(&b, s + field, v, 8) }
                    resealSlot(&b, s)
                }
            default:
                guard !blocks.isEmpty else { continue }
                let (off, len) = blocks[rng.below(blocks.count)]
                guard off + len <= n else { continue }
                switch rng.below(8) {
                case 0, 1, 2:
                    putLE(&b, off + 16 + (rng.below(max(1, len - 24)) & ~7), word(&rng, fileSize: n, blocks: blocks), 8)
                case 3, 4:
                    putLE(&b, off + 16 + (rng.below(max(1, min(len - 16, 96))) & ~3), word(&rng, fileSize: n, blocks: blocks), 4)
                case 5:
                    b[off + 16 + rng.below(max(1, len - 16))] ^= UInt8(1 + rng.below(255))
                case 6:
                    putLE(&b, off + 4, [16, 8, 24, UInt64(len + 8), UInt64(len - 8), 1 << 20, 0xFFFF_FFF8][rng.below(7)], 4)
                default:
                    b[off + 15] = [1, 2, 3, 4, 16, 17, 0, 255][rng.below(8)]
                }
                if rng.below(10) < 9 { reseal(&b, block: off) }
            }
        }
        return b
    }

    /// Everything a user's commands do with a file, on `path`. Throws only untyped errors.
    static func exercise(_ path: String, scratch: String) throws -> Bool {
        var ok = true
        func attempt(_ body: () throws -> Void) throws {
            do { try body() } catch is StorageError { ok = false }
        }
        var o = StoreOptions()
        o.create = false
        o.automaticCompaction = false
        let s: Store
        do { s = try Store(path: path, options: o) } catch is StorageError { return false }
        defer { s.close() }
        try attempt {
            let r = try s.beginRead()
            defer { r.end() }
            for name in try r.treeNames() {
                try attempt {
                    guard let t = try r.tree(name) else { return }
                    var count = 0
                    try t.forEach { e in
                        count += 1
                        _ = try t.bytes(of: e.value)
                        if case let .owned(ref) = e.value {
                            let g = try r.genericBlock(ref)
                            for i in 0..<g.refCount where g.ref(i) != 0 { _ = try r.genericBlock(g.ref(i)).bytes.count }
                        }
                        return count < 100_000
                    }
                    _ = try t.floor(key(150))
                    _ = try t.getBytes(key(7))
                    if t.weighted { for w in [0, 1, 100, 1000, UInt64.max] { _ = try t.entry(atWeight: w) } }
                }
            }
        }
        try attempt { _ = try s.check() }
        try attempt {
            let w = try s.beginWrite()
            if let t = try w.tree("t", create: true) {
                try t.put(key(1), bytes: [1, 2, 3])
                _ = try t.delete(key(2))
                try t.put(Array("new".utf8), bytes: [UInt8](repeating: 4, count: 2000))
            }
            try w.commit()
        }
        try attempt { _ = try s.compact() }
        try attempt { try s.writeCopy(toPath: scratch) }
        try? FileManager.default.removeItem(atPath: scratch)
        return ok
    }

    func run(seed: UInt64, cases: Int, announce: Bool) throws -> (clean: Int, refused: Int) {
        let dir = TempDir()
        let fixture = dir.path("fixture.strata")
        try Self.makeFixture(fixture)
        let original = [UInt8](FileManager.default.contents(atPath: fixture)!)
        let blocks = Self.blocks(original)
        XCTAssertGreaterThan(blocks.count, 20)
        var clean = 0, refused = 0
        let path = dir.path("case.strata")
        for c in 0..<cases {
            let caseSeed = seed &+ UInt64(c)
            var rng = Rng(state: caseSeed)
            let image = Self.mutate(original, blocks: blocks, rng: &rng)
            if let dump = ProcessInfo.processInfo.environment["STRATA_FUZZ_DUMP"] {
                FileManager.default.createFile(atPath: dump, contents: Data(image))
                FileManager.default.createFile(atPath: dump + ".orig", contents: Data(original))
            }
            try? FileManager.default.removeItem(atPath: path + ".lock")
            FileManager.default.createFile(atPath: path, contents: Data(image))
            if announce { FileHandle.standardError.write(Data("case \(caseSeed)\n".utf8)) }
            do {
                if try Self.exercise(path, scratch: dir.path("copy.strata")) { clean += 1 } else { refused += 1 }
            } catch {
                XCTFail("seed \(caseSeed): untyped error \(error)")
            }
        }
        return (clean, refused)
    }

    func testChecksumPassingDamageEndsInValuesOrTypedErrors() throws {
        let env = ProcessInfo.processInfo.environment
        let seed = UInt64(env["STRATA_FUZZ_SEED"] ?? "") ?? 0x5747_2026
        let cases = Int(env["STRATA_FUZZ_CASES"] ?? "") ?? 400
        let (clean, refused) = try run(seed: seed, cases: cases, announce: env["STRATA_FUZZ_ANNOUNCE"] != nil)
        print("StorageFuzzTests: seed \(seed), \(cases) cases: \(clean) clean, \(refused) ended in a StorageError")
        XCTAssertGreaterThan(refused, cases / 10)
    }

    // MARK: regressions found by the fuzzer (each trapped before its fix)

    /// Writes `b` to `path` with no lock file left behind (a fresh handle re-judges the slots).
    func replace(_ path: String, with b: [UInt8]) {
        try? FileManager.default.removeItem(atPath: path + ".lock")
        FileManager.default.createFile(atPath: path, contents: Data(b))
    }

    /// A slot claiming version 2^64-1 with a valid checksum: the next commit counted
    /// `version + 1` and trapped (arithmetic overflow in WriteTransaction.init). Block births
    /// have 56 bits, so such a slot is passed over like one with an impossible size.
    func testMetaSlotWithAnImpossibleVersionIsPassedOver() throws {
        let dir = TempDir()
        let path = dir.path("v.strata")
        try Self.makeFixture(path)
        var b = [UInt8](FileManager.default.contents(atPath: path)!)
        let v0 = b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 16, as: UInt64.self) }
        let v1 = b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4096 + 16, as: UInt64.self) }
        let newest = v0 > v1 ? 0 : 4096
        Self.putLE(&b, newest + 16, UInt64.max, 8)
        Self.resealSlot(&b, newest)
        replace(path, with: b)
        var o = StoreOptions()
        o.create = false
        let s = try Store(path: path, options: o)
        defer { s.close() }
        let r = try s.beginRead()
        XCTAssertEqual(r.version, min(v0, v1), "the other slot is the newest valid version")
        r.end()
        let w = try s.beginWrite()
        try w.tree("t", create: true)!.put([1], bytes: [2])
        XCTAssertEqual(try w.commit(), min(v0, v1) + 1)
    }

    /// A one-sync slot whose run list (not covered by the slot checksum) holds a run whose end
    /// overflows: judging the runs trapped (`ByteRun.end`). Now the commit counts as cut short
    /// and the other slot is used.
    func testUnsyncedRunWhoseEndOverflowsIsNotIntact() throws {
        let dir = TempDir()
        let path = dir.path("runs.strata")
        try Self.makeFixture(path)
        var b = [UInt8](FileManager.default.contents(atPath: path)!)
        let slots = [0, 4096].filter { s in b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: s + 112, as: UInt32.self) } > 0 }
        let newest = [0, 4096].max { x, y in
            b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: x + 16, as: UInt64.self) < $0.loadUnaligned(fromByteOffset: y + 16, as: UInt64.self) }
        }!
        XCTAssertTrue(slots.contains(newest), "the last small commit is a one-sync commit listing its runs")
        let older = b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: (4096 - newest) + 16, as: UInt64.self) }
        Self.putLE(&b, newest + 128, UInt64.max - 7, 8)   // first run: offset near 2^64
        Self.putLE(&b, newest + 136, 4096, 8)             // length: the end overflows
        replace(path, with: b)
        var o = StoreOptions()
        o.create = false
        let s = try Store(path: path, options: o)
        defer { s.close() }
        let r = try s.beginRead()
        XCTAssertEqual(r.version, older)
        r.end()
    }

    /// An owned value's data block whose refs count does not fit the block (checksum valid):
    /// reading the value threw an untyped `GenericBlockError`; now `StorageError.corrupted`
    /// naming the block.
    func testMalformedDataBlockOfAValueIsCorrupted() throws {
        let dir = TempDir()
        let path = dir.path("owned.strata")
        try Self.makeFixture(path)
        var ref: BlockRef = 0
        do {
            let s = try Store(path: path)
            let r = try s.beginRead()
            guard case let .owned(x)? = try r.tree("t")!.get(Array("owned2".utf8)) else { return XCTFail("no owned value") }
            ref = x
            r.end()
            s.close()
        }
        var b = [UInt8](FileManager.default.contents(atPath: path)!)
        Self.putLE(&b, Int(ref) + 16, 0xFFFF, 4)
        Self.reseal(&b, block: Int(ref))
        replace(path, with: b)
        let s = try Store(path: path)
        defer { s.close() }
        let r = try s.beginRead()
        defer { r.end() }
        let t = try r.tree("t")!
        XCTAssertThrowsError(try t.getBytes(Array("owned2".utf8))) { e in
            guard case let StorageError.corrupted(_, detail)? = e as? StorageError else { return XCTFail("\(e)") }
            XCTAssertTrue(detail.contains("data block \(ref) is malformed"), detail)
        }
    }

    /// The newest commit cut short (its runs fail their checksum: the older slot is the newest
    /// version) and the older slot's catalog ref, checksum valid, naming the cut-short commit's
    /// catalog: a block in the older version's free space, born at the version the next commit
    /// gets. The commit took it for one of its own blocks, put it in the free list a second
    /// time and trapped on the free-list consistency assertion (a release build would have
    /// written a list handing out the same bytes twice). Now the commit throws `corrupted`
    /// and writes nothing; seeds 7001284 of the fuzzer found it.
    func testCommitOverABlockInFreeSpaceIsRefused() throws {
        let dir = TempDir()
        let path = dir.path("cut.strata")
        try Self.makeFixture(path)
        var b = [UInt8](FileManager.default.contents(atPath: path)!)
        func u64(_ at: Int) -> UInt64 { b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt64.self) } }
        let newest = u64(16) > u64(4096 + 16) ? 0 : 4096, older = 4096 - newest
        XCTAssertGreaterThan(b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: newest + 112, as: UInt32.self) }, 0)
        let runs = Int(b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: newest + 112, as: UInt32.self) })
        let lastRun = Int(u64(newest + 128 + 16 * (runs - 1))), lastLength = Int(u64(newest + 136 + 16 * (runs - 1)))
        b[lastRun + lastLength - 1] ^= 0x55                        // the newest commit did not reach the disk whole
        // A tree leaf the cut-short commit wrote inside the older version's free space.
        let olderSize = Int(u64(older + 40)), newestVersion = u64(newest + 16)
        let leaf = try XCTUnwrap(Self.blocks(b).first { off, len in
            off + len <= olderSize && b[off + 15] == BlockKind.leaf.rawValue && u64(off + 8) & 0x00FF_FFFF_FFFF_FFFF == newestVersion
        })
        Self.putLE(&b, older + 24, UInt64(leaf.0), 8)              // the older catalog names it
        Self.resealSlot(&b, older)
        let before = b
        replace(path, with: b)
        let s = try Store(path: path)
        defer { s.close() }
        let w = try s.beginWrite()
        XCTAssertThrowsError(try { try w.tree("t", create: true)!.put([1], bytes: [2]); try w.commit() }()) { e in
            guard case let StorageError.corrupted(_, detail)? = e as? StorageError else { return XCTFail("\(e)") }
            XCTAssertTrue(detail.contains("free space"), detail)
        }
        XCTAssertEqual([UInt8](FileManager.default.contents(atPath: path)!.prefix(8192)), Array(before.prefix(8192)), "no slot was written")
    }

    /// Two values owning the same data block (a leaf's value ref changed, checksum valid):
    /// deleting both freed the block twice and the commit wrote a free list listing it twice
    /// (the next commits would hand the same bytes out twice). Now the commit throws
    /// `corrupted` naming the block, and writes nothing.
    func testBlockFreedTwiceIsRefusedAtCommit() throws {
        let dir = TempDir()
        let path = dir.path("twice.strata")
        try Self.makeFixture(path)
        var refs: [BlockRef] = []
        do {
            let s = try Store(path: path)
            let r = try s.beginRead()
            for k in ["owned1", "owned2"] {
                guard case let .owned(x)? = try r.tree("t")!.get(Array(k.utf8)) else { return XCTFail("no owned value") }
                refs.append(x)
            }
            r.end()
            // A last commit elsewhere: the leaf damaged below is not among the runs the newest
            // slot lists (damage there would read as a commit cut short).
            let w = try s.beginWrite()
            try w.tree("other", create: true)!.put([1], bytes: [1])
            try w.commit()
            s.close()
        }
        var b = [UInt8](FileManager.default.contents(atPath: path)!)
        // The leaves holding owned1's ref (the live one and older copies): make them name owned2's block.
        let needle = withUnsafeBytes(of: refs[0].littleEndian) { Array($0) }
        for (off, len) in Self.blocks(b) where b[off + 15] == BlockKind.leaf.rawValue {
            guard let at = (off + 16..<off + len - 8).first(where: { Array(b[$0..<$0 + 8]) == needle }) else { continue }
            Self.putLE(&b, at, refs[1], 8)
            Self.reseal(&b, block: off)
        }
        replace(path, with: b)
        let s = try Store(path: path)
        defer { s.close() }
        XCTAssertEqual(try s.beginRead().tree("t")!.get(Array("owned1".utf8)), .owned(refs[1]), "the damage is read (the leaf is not in the last commit's runs)")
        let w = try s.beginWrite()
        let t = try w.tree("t", create: true)!
        XCTAssertTrue(try t.delete(Array("owned1".utf8)))
        XCTAssertTrue(try t.delete(Array("owned2".utf8)))
        XCTAssertThrowsError(try w.commit()) { e in
            guard case let StorageError.corrupted(_, detail)? = e as? StorageError else { return XCTFail("\(e)") }
            XCTAssertTrue(detail.contains("reached twice"), detail)
        }
    }
}
