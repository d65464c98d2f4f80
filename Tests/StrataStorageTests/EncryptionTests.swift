import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage
import Crypto
import _CryptoExtras

let testKey: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
let otherKey: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }

func encryptedOptions(_ key: [UInt8] = testKey) -> StoreOptions {
    var o = StoreOptions()
    o.encryptionKey = key
    return o
}

/// Values of mixed sizes: inline, spanning pages, and large-value blocks over many pages.
func sampleValue(_ i: Int) -> [UInt8] {
    let len = (i * 7919) % 9000
    return (0..<len).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }
}

final class EncryptionTests: XCTestCase {
    func fill(_ store: Store, rounds: Int = 4, perRound: Int = 150) throws {
        for round in 0..<rounds {
            let w = try store.beginWrite()
            let t = try w.tree("t", create: true)!
            for i in 0..<perRound { try t.put(key(round * perRound + i), bytes: sampleValue(round * perRound + i)) }
            if round > 0 { for i in 0..<perRound / 3 { try t.delete(key((round - 1) * perRound + i)) } }
            try w.commit()
        }
    }

    func expectedKeys(rounds: Int = 4, perRound: Int = 150) -> [Int] {
        var keys: [Int] = []
        for round in 0..<rounds {
            for i in 0..<perRound where !(round < rounds - 1 && i < perRound / 3) { keys.append(round * perRound + i) }
        }
        return keys
    }

    func verify(_ store: Store, rounds: Int = 4, perRound: Int = 150, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try store.beginRead()
        defer { r.end() }
        let t = try XCTUnwrap(try r.tree("t"), file: file, line: line)
        let keys = expectedKeys(rounds: rounds, perRound: perRound)
        XCTAssertEqual(try t.totalWeight, UInt64(keys.count), file: file, line: line)
        for k in keys { XCTAssertEqual(try t.getBytes(key(k)), sampleValue(k), "key \(k)", file: file, line: line) }
        assertSound(store, file: file, line: line)
    }

    func testAESNIPathMatchesSwiftCrypto() throws {
        let fast = try PageCrypto(key: testKey)
        let portable = try PageCrypto(key: testKey, portable: true)
        XCTAssertFalse(portable.usesAESNI)
        print("AES-NI available: \(fast.usesAESNI)")
        var rng = SplitMix64(seed: 3)
        let plain = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16); defer { plain.deallocate() }
        let ct1 = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16); defer { ct1.deallocate() }
        let ct2 = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16); defer { ct2.deallocate() }
        let back = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16); defer { back.deallocate() }
        var e1 = [UInt8](repeating: 0, count: 48), e2 = [UInt8](repeating: 0, count: 48)
        for round in 0..<20 {
            for i in 0..<512 { plain.storeBytes(of: rng.next(), toByteOffset: i * 8, as: UInt64.self) }
            try e1.withUnsafeMutableBytes { try fast.seal(page: UInt64(round + 2), plaintext: plain, ciphertext: ct1, entry: $0.baseAddress!) }
            // Same IV through the portable path: same ciphertext and MAC.
            e2 = e1
            let iv = try AES._CBC.IV(ivBytes: e1[0..<16])
            let ct = try AES._CBC.encrypt(UnsafeRawBufferPointer(start: plain, count: 4096), using: portable.aesKey, iv: iv, noPadding: true)
            ct.withUnsafeBytes { _ = memcpy(ct2, $0.baseAddress!, 4096) }
            XCTAssertEqual(memcmp(ct1, ct2, 4096), 0, "AES-256-CBC output differs from swift-crypto")
            for c in [fast, portable] {
                memset(back, 0, 4096)
                XCTAssertTrue(try e2.withUnsafeBytes { try c.open(page: UInt64(round + 2), ciphertext: ct1, entry: $0.baseAddress!, into: back) })
                XCTAssertEqual(memcmp(back, plain, 4096), 0)
                // Another page number (a swapped page) fails authentication.
                XCTAssertFalse(try e2.withUnsafeBytes { try c.open(page: UInt64(round + 3), ciphertext: ct1, entry: $0.baseAddress!, into: back) })
            }
        }
    }

    /// Sealing pages four at a time (interleaved CBC chains) gives the bytes of sealing each
    /// alone with the same IV, for batches of 1 to 9 pages, on the AES-NI and portable paths.
    func testBatchSealMatchesSinglePages() throws {
        var rng = SplitMix64(seed: 11)
        for crypto in [try PageCrypto(key: testKey), try PageCrypto(key: testKey, portable: true)] {
            for count in 1...9 {
                let plain = (0..<count).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16) }
                let batch = (0..<count).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16) }
                let single = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
                let entries = UnsafeMutableRawPointer.allocate(byteCount: 48 * count, alignment: 16)
                let one = UnsafeMutableRawPointer.allocate(byteCount: 48, alignment: 16)
                defer { (plain + batch + [single, entries, one]).forEach { $0.deallocate() } }
                for k in 0..<count {
                    for i in 0..<512 { plain[k].storeBytes(of: rng.next(), toByteOffset: i * 8, as: UInt64.self) }
                    for i in 0..<2 { (entries + 48 * k).storeBytes(of: rng.next(), toByteOffset: i * 8, as: UInt64.self) }
                }
                try crypto.seal((0..<count).map { PageCrypto.SealedPage(page: UInt64(5 + $0), plaintext: plain[$0], ciphertext: batch[$0], entry: entries + 48 * $0) })
                for k in 0..<count {
                    try crypto.seal(page: UInt64(5 + k), plaintext: plain[k], ciphertext: single, entry: one, iv: entries + 48 * k)
                    XCTAssertEqual(memcmp(single, batch[k], 4096), 0, "page \(k) of \(count)")
                    XCTAssertEqual(memcmp(one, entries + 48 * k, 48), 0, "entry \(k) of \(count)")
                    let back = single
                    XCTAssertTrue(try crypto.open(page: UInt64(5 + k), ciphertext: batch[k], entry: entries + 48 * k, into: back))
                    XCTAssertEqual(memcmp(back, plain[k], 4096), 0)
                }
            }
        }
    }

    func testPageLayoutRoundTrips() {
        for pages in [0, 1, 2, 3, 65, 66, 67, 130, 131, 1000, 4097] as [UInt64] {
            let logical = pages * 4096
            let phys = PageLayout.physicalSize(logical: logical)
            XCTAssertEqual(PageLayout.logicalSize(physical: phys), logical, "\(pages) pages")
        }
        // Data pages and IV pages never collide.
        var seen = Set<UInt64>()
        for p in 2..<400 as Range<UInt64> {
            XCTAssertTrue(seen.insert(PageLayout.physicalPage(p)).inserted)
            XCTAssertFalse(seen.contains(PageLayout.entryOffset(p) >> 12))
        }
    }

    /// Pages a handle writes go into its decrypted-page cache under their new IVs: reading what
    /// a commit wrote decrypts nothing (no cache miss), and returns what was written. Another
    /// handle (its own cache) decrypts and authenticates them from the file.
    func testWrittenPagesAreReadFromTheCache() throws {
        let dir = TempDir()
        let path = dir.path("c.strata")
        let s = try Store(path: path, options: encryptedOptions())
        try fill(s, rounds: 2)
        let w = try s.beginWrite()
        let t = try w.tree("t", create: false)!
        for i in 0..<40 { try t.put(key(10_000 + i), bytes: sampleValue(i)) }
        try w.commit()
        let missesBefore = s.decryptedPageCacheCounts.misses
        let r = try s.beginRead()
        for i in 0..<40 { XCTAssertEqual(try r.tree("t")!.getBytes(key(10_000 + i)), sampleValue(i)) }
        r.end()
        XCTAssertEqual(s.decryptedPageCacheCounts.misses, missesBefore, "pages this handle wrote were decrypted again")
        let other = try Store(path: path, options: encryptedOptions())
        let r2 = try other.beginRead()
        for i in 0..<40 { XCTAssertEqual(try r2.tree("t")!.getBytes(key(10_000 + i)), sampleValue(i)) }
        r2.end()
        XCTAssertGreaterThan(other.decryptedPageCacheCounts.misses, 0)
        assertSound(other)
        other.close()
        s.close()
    }

    func testRoundTripAndNoPlaintextOnDisk() throws {
        let dir = TempDir()
        let path = dir.path("enc.strata")
        do {
            let s = try Store(path: path, options: encryptedOptions())
            XCTAssertTrue(s.isEncrypted)
            try fill(s)
            let w = try s.beginWrite()
            try w.tree("secret", create: true)!.put(Array("needle".utf8), bytes: Array(String(repeating: "PLAINTEXT-MARKER ", count: 400).utf8))
            try w.commit()
            try verify(s)
            s.close()
        }
        let raw = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertNil(raw.range(of: Data("PLAINTEXT-MARKER".utf8)), "plaintext found in the encrypted file")
        XCTAssertNil(raw.range(of: Data("needle".utf8)))
        let s = try Store(path: path, options: encryptedOptions())
        try verify(s)
        let r = try s.beginRead()
        XCTAssertEqual(try r.tree("secret")?.getBytes(Array("needle".utf8)).map { $0.count }, 17 * 400)
        r.end()
        XCTAssertGreaterThan(s.decryptedPageCacheCounts.hits + s.decryptedPageCacheCounts.misses, 0)
    }

    func testKeyErrors() throws {
        let dir = TempDir()
        let enc = dir.path("enc.strata"), plain = dir.path("plain.strata")
        try Store(path: enc, options: encryptedOptions()).close()
        try fill(try Store(path: plain))
        XCTAssertThrowsError(try Store(path: enc, options: encryptedOptions(otherKey))) {
            XCTAssertEqual($0 as? StorageError, .wrongEncryptionKey(path: enc))
            XCTAssertTrue("\($0)".contains("wrong encryption key"))
        }
        XCTAssertThrowsError(try Store(path: enc)) { XCTAssertEqual($0 as? StorageError, .encryptionKeyRequired(path: enc)) }
        XCTAssertThrowsError(try Store(path: plain, options: encryptedOptions())) { XCTAssertEqual($0 as? StorageError, .notEncrypted(path: plain)) }
        XCTAssertThrowsError(try Store(path: dir.path("x.strata"), options: encryptedOptions(Array(testKey.prefix(32))))) {
            XCTAssertEqual($0 as? StorageError, .invalidEncryptionKey(length: 32))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("x.strata")), "a bad key creates nothing")
        // The key check binds both halves: changing only the HMAC half is a wrong key too.
        var halfWrong = testKey; halfWrong[40] ^= 1
        XCTAssertThrowsError(try Store(path: enc, options: encryptedOptions(halfWrong))) { XCTAssertEqual($0 as? StorageError, .wrongEncryptionKey(path: enc)) }
        // And the right key still works.
        try Store(path: enc, options: encryptedOptions()).close()
    }

    func testTamperedPageIsDetected() throws {
        let dir = TempDir()
        let path = dir.path("t.strata")
        do { let s = try Store(path: path, options: encryptedOptions()); try fill(s); s.close() }
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let logical = try { () throws -> UInt64 in
            let s = try Store(path: path, options: encryptedOptions()); defer { s.close() }; return try s.newestMeta().logicalSize
        }()
        // Flip one byte in every data page in turn (a sample): each is detected by some read.
        var detected = 0, tried = 0
        let lastPage = (logical - 1) >> 12
        for p in stride(from: UInt64(2), through: lastPage, by: max(1, Int(lastPage) / 12)) {
            let phys = Int(PageLayout.physicalPage(p) << 12) + 100 + Int(p % 3000)
            var bytes = original
            bytes[phys] ^= 0x40
            try bytes.write(to: URL(fileURLWithPath: path))
            tried += 1
            let s = try Store(path: path, options: encryptedOptions())
            do {
                let report = try s.check()
                if !report.isSound { detected += 1; XCTAssertTrue(report.problems.joined().contains("authentication"), "\(report.problems.prefix(2))") }
                else {
                    // The flipped page holds no live block: only free space. Reading all data must still work.
                    try verify(s)
                }
            } catch let e as StorageError {
                guard case .corrupted(_, let d) = e else { return XCTFail("unexpected \(e)") }
                XCTAssertTrue(d.contains("authentication"), d)
                detected += 1
            }
            s.close()
        }
        XCTAssertGreaterThan(detected, tried / 2, "most flipped pages hold live data and must be detected")
        // Tampering with the IV page (the IV of the catalog root's page) is detected too.
        var bytes = original
        let catalogPage = try { () throws -> UInt64 in
            let s = try Store(path: path, options: encryptedOptions()); defer { s.close() }; return try s.newestMeta().catalogRef >> 12
        }()
        bytes[Int(PageLayout.entryOffset(catalogPage)) + 3] ^= 1
        try bytes.write(to: URL(fileURLWithPath: path))
        let s = try Store(path: path, options: encryptedOptions())
        XCTAssertThrowsError(try { let r = try s.check(); if !r.isSound { throw StorageError.corrupted(path: path, detail: r.problems[0]) } }())
        s.close()
        // A tampered meta slot (tag fails) is not used.
        bytes = original
        try bytes.write(to: URL(fileURLWithPath: path))
        let m = try { () throws -> MetaSlot in let s = try Store(path: path, options: encryptedOptions()); defer { s.close() }; return try s.newestMeta() }()
        let slotOff = Int((m.version % 2) * 4096)
        bytes[slotOff + 24] ^= 8   // catalog ref; then fix the plain checksum so only the tag catches it
        let sum = bytes.withUnsafeBytes { Checksum.hash($0.baseAddress! + slotOff, 120) }
        withUnsafeBytes(of: sum.littleEndian) { for i in 0..<8 { bytes[slotOff + 120 + i] = $0[i] } }
        // A handle that already authenticated the slot notices the change too (tampered in place).
        let held = try Store(path: path, options: encryptedOptions())
        XCTAssertEqual(try held.newestMeta().version, m.version)
        let fd = open(path, O_RDWR)
        XCTAssertEqual(bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + slotOff, 128, off_t(slotOff)) }, 128)
        close(fd)
        XCTAssertEqual(try held.newestMeta().version, m.version - 1, "the tampered newest slot is skipped by a handle that saw it intact")
        held.close()
        try bytes.write(to: URL(fileURLWithPath: path))
        let s2 = try Store(path: path, options: encryptedOptions())
        XCTAssertEqual(try s2.newestMeta().version, m.version - 1, "the tampered newest slot is skipped")
        s2.close()
    }

    /// Rounds alternate large commits (two syncs: pages, then the meta slot) and small ones (one
    /// sync: pages, IV pages and a slot listing the runs with their plaintext checksum). Each loss
    /// mode has one exact outcome, as in the plain-file test: dropAll keeps the acknowledged
    /// version; keepAll adds the commit in flight exactly when its slot was written;
    /// keepMetaSlotsOnly adds it when the slot was its only unsynced write (a one-sync commit
    /// whose pages were lost with its slot kept opens at the version before); torn writes may go
    /// either way.
    func testPowerLossOnEncryptedFile() throws {
        // Six rounds take 2 + 1 + 2 + 1 + 2 + 1 = 9 syncs: a loss at each.
        func value(_ round: Int, _ k: Int) -> [UInt8] { round % 2 == 1 ? Array(sampleValue(k).prefix(40)) : sampleValue(k) }
        var inFlightKept = 0, inFlightLost = 0, oneSyncCommitsCut = 0, twoSyncCommitsCutBeforeSlot = 0
        for mode in [FaultInjectingFileIO.LossMode.dropAll, .tearRandomly(seed: 7), .tearRandomly(seed: 1234), .keepAll, .keepMetaSlotsOnly] {
            for crashAt in 1...9 {
                let dir = TempDir()
                let path = dir.path("p.strata")
                try Store(path: path, options: encryptedOptions()).close()
                nonisolated(unsafe) var made: FaultInjectingFileIO?
                var opts = encryptedOptions()
                opts.fileIO = { p, c, _ in let io = try FaultInjectingFileIO(path: p, create: c); made = io; return io }
                let store = try Store(path: path, options: opts)
                made!.lossMode = mode
                made!.crashAtSync = made!.syncs + crashAt
                var durable = try store.newestMeta().version
                var durableRounds = 0
                for round in 0..<6 {
                    do {
                        let w = try store.beginWrite()
                        let t = try w.tree("t", create: true)!
                        for i in 0..<120 { try t.put(key(round * 1000 + i), bytes: value(round, round * 1000 + i)) }
                        if round > 0 { for i in 0..<60 { try t.delete(key((round - 1) * 1000 + i)) } }
                        durable = try w.commit()
                        durableRounds = round + 1
                    } catch is FaultInjectingFileIO.SimulatedCrash { break }
                }
                store.close()
                let io = made!
                XCTAssertTrue(io.hasCrashed, "mode \(mode) crash \(crashAt): the power loss never happened")
                let s = try Store(path: path, options: encryptedOptions())
                let v = try s.newestMeta().version
                let context = "mode \(mode) crash \(crashAt): version \(v), acknowledged \(durable)"
                switch mode {
                case .dropAll: XCTAssertEqual(v, durable, context)
                case .keepAll:
                    if !io.metaSlotWritePending && io.blockWritePending { twoSyncCommitsCutBeforeSlot += 1 }
                    XCTAssertEqual(v, io.metaSlotWritePending ? durable + 1 : durable, context)
                case .keepMetaSlotsOnly:
                    if io.metaSlotWritePending && io.blockWritePending { oneSyncCommitsCut += 1 }
                    XCTAssertEqual(v, io.metaSlotWritePending && !io.blockWritePending ? durable + 1 : durable, context)
                case .tearRandomly: XCTAssertTrue(v == durable || v == durable + 1, context)
                }
                if v == durable + 1 { inFlightKept += 1 } else { inFlightLost += 1 }
                assertSound(s)
                let rounds = Int(v) - 1
                XCTAssertGreaterThanOrEqual(rounds, durableRounds)
                if rounds > 0 {
                    let r = try s.beginRead()
                    let t = try XCTUnwrap(try r.tree("t"))
                    for round in 0..<rounds {
                        let from = round == rounds - 1 ? 0 : 60
                        for i in from..<120 { XCTAssertEqual(try t.getBytes(key(round * 1000 + i)), value(round, round * 1000 + i)) }
                    }
                    r.end()
                }
                s.close()
            }
        }
        XCTAssertGreaterThan(inFlightKept, 0, "no commit in flight survived (its slot written before the loss)")
        XCTAssertGreaterThan(inFlightLost, 0, "every commit in flight survived")
        XCTAssertGreaterThan(oneSyncCommitsCut, 0, "no one-sync commit was cut after its meta slot was written")
        XCTAssertGreaterThan(twoSyncCommitsCutBeforeSlot, 0, "no two-sync commit was cut at its page sync")
    }

    func testWriteCopyEncryptsRekeysAndDecrypts() throws {
        let dir = TempDir()
        let plain = dir.path("plain.strata")
        do { let s = try Store(path: plain); try fill(s); s.close() }
        let src = try Store(path: plain)
        // Encrypt.
        let enc = dir.path("enc.strata")
        try src.writeCopy(toPath: enc, encryptionKey: testKey)
        XCTAssertThrowsError(try Store(path: enc)) { XCTAssertEqual($0 as? StorageError, .encryptionKeyRequired(path: enc)) }
        let e = try Store(path: enc, options: encryptedOptions())
        try verify(e)
        // Re-key.
        let rekeyed = dir.path("rekeyed.strata")
        try e.writeCopy(toPath: rekeyed, encryptionKey: otherKey)
        XCTAssertThrowsError(try Store(path: rekeyed, options: encryptedOptions())) { XCTAssertEqual($0 as? StorageError, .wrongEncryptionKey(path: rekeyed)) }
        try verify(try Store(path: rekeyed, options: encryptedOptions(otherKey)))
        // Decrypt.
        let decrypted = dir.path("decrypted.strata")
        try e.writeCopy(toPath: decrypted)
        let d = try Store(path: decrypted)
        XCTAssertFalse(d.isEncrypted)
        try verify(d)
        XCTAssertEqual(try d.newestMeta().version, try src.newestMeta().version)
        XCTAssertThrowsError(try e.writeCopy(toPath: decrypted, encryptionKey: Array(testKey.prefix(10)))) {
            XCTAssertEqual($0 as? StorageError, .invalidEncryptionKey(length: 10))
        }
    }

    func testCompactKeepsKeyAndReadersSeeConcurrentCommits() throws {
        let dir = TempDir()
        let path = dir.path("c.strata")
        let s = try Store(path: path, options: encryptedOptions())
        try fill(s, rounds: 6, perRound: 200)
        // Drop most data, then compact.
        let w = try s.beginWrite()
        let t = try w.tree("t")!
        for k in expectedKeys(rounds: 6, perRound: 200) where k < 900 { try t.delete(key(k)) }
        try w.commit()
        let before = try s.fileSize()
        let result = try s.compact()
        XCTAssertLessThan(result.afterBytes, before)
        assertSound(s)
        s.close()
        XCTAssertThrowsError(try Store(path: path)) { XCTAssertEqual($0 as? StorageError, .encryptionKeyRequired(path: path)) }
        let again = try Store(path: path, options: encryptedOptions())
        let r = try again.beginRead()
        for k in expectedKeys(rounds: 6, perRound: 200) where k >= 900 { XCTAssertEqual(try r.tree("t")!.getBytes(key(k)), sampleValue(k)) }
        // A second handle's commits are seen by the first (the page cache is validated by IV).
        let other = try Store(path: path, options: encryptedOptions())
        for round in 0..<5 {
            let w2 = try other.beginWrite()
            let t2 = try w2.tree("t")!
            for i in 0..<50 { try t2.put(key(10_000 + i), bytes: sampleValue(round * 100 + i)) }
            try w2.commit()
            let r2 = try again.beginRead()
            for i in 0..<50 { XCTAssertEqual(try r2.tree("t")!.getBytes(key(10_000 + i)), sampleValue(round * 100 + i)) }
            r2.end()
        }
        // The old reader still sees its version.
        for k in expectedKeys(rounds: 6, perRound: 200) where k >= 900 { XCTAssertEqual(try r.tree("t")!.getBytes(key(k)), sampleValue(k)) }
        XCTAssertNil(try r.tree("t")!.getBytes(key(10_000)))
        r.end()
        assertSound(again)
    }

    /// An aborted transaction spills pages into free space (that is allowed), but publishes
    /// nothing: the meta slots are byte for byte as before, the version and the data unchanged.
    func testAbortedEncryptedTransactionPublishesNothingAndOnlineCompactionWorks() throws {
        let dir = TempDir()
        let path = dir.path("a.strata")
        let s = try Store(path: path, options: encryptedOptions())
        try fill(s)
        let slotsBefore = [UInt8](FileManager.default.contents(atPath: path)!.prefix(8192))
        let versionBefore = try s.newestMeta().version
        let w = try s.beginWrite()
        for i in 0..<3000 { try w.tree("junk", create: true)!.put(key(i), bytes: sampleValue(i)) }   // spills pages
        w.abort()
        XCTAssertTrue([UInt8](FileManager.default.contents(atPath: path)!.prefix(8192)) == slotsBefore, "a meta slot was written")
        XCTAssertEqual(try s.newestMeta().version, versionBefore)
        XCTAssertNil(try s.beginRead().tree("junk"))
        try verify(s)
        let w2 = try s.beginWrite()
        for i in 0..<2000 { try w2.tree("junk", create: true)!.put(key(i), bytes: sampleValue(i)) }
        try w2.commit()
        let w3 = try s.beginWrite()
        try w3.dropTree("junk")
        try w3.commit()
        _ = try s.compactOnline()
        try verify(s)
    }

    func testCrashLoopOnEncryptedFile() throws {
        try runChurnCrashLoop(mode: "churn-encrypted", options: encryptedOptions(), defaultRounds: 40, seed: 7)
    }
}

final class EncryptedMultiProcessTests: XCTestCase {
    func u64(_ b: [UInt8]?) -> UInt64 { guard let b, b.count == 8 else { return 0 }; return b.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }

    /// Four processes commit to one encrypted file while this process reads snapshots: every
    /// handle's page cache must notice pages the others rewrite (validated by IV).
    func testConcurrentWritersOnEncryptedFile() throws {
        let exe = productsDirectory.appendingPathComponent("StrataTestWriter")
        _ = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("mp-enc.strata")
        try Store(path: path, options: encryptedOptions()).close()
        let store = try Store(path: path, options: encryptedOptions())
        let procs = try (0..<4).map { try ChildProcess(executable: exe, arguments: ["add-encrypted", path, "\($0)", "80"]) }
        var snapshots = 0
        while procs.contains(where: { $0.process.isRunning }) {
            let r = try store.beginRead()
            if let t = try r.tree("t") {
                let total = u64(try t.getBytes(Array("total".utf8)))
                var sum: UInt64 = 0
                for i in 0..<4 {
                    let c = u64(try t.getBytes(Array("p\(i)".utf8)))
                    sum += c
                    if c > 0 {
                        let n = Int(c) - 1
                        XCTAssertEqual(try t.getBytes(Array("v\(i)-\(n)".utf8)), (0..<600).map { UInt8(truncatingIfNeeded: $0 &+ i &* 31 &+ n) })
                    }
                }
                XCTAssertEqual(total, sum, "inconsistent snapshot at version \(r.version)")
                snapshots += 1
            }
            r.end()
            usleep(2000)
        }
        for p in procs { p.process.waitUntilExit(); XCTAssertEqual(p.process.terminationStatus, 0) }
        let r = try store.beginRead()
        let t = try XCTUnwrap(try r.tree("t"))
        XCTAssertEqual(u64(try t.getBytes(Array("total".utf8))), 320)
        XCTAssertEqual(try t.totalWeight, 1 + 4 + 320)
        r.end()
        XCTAssertGreaterThan(snapshots, 0)
        assertSound(store)
    }
}
