import XCTest
import Foundation
@testable import StrataStorage

/// Power loss at every sync point of a commit (unsynced writes dropped, or torn sector by
/// sector), disk full during commit, and damaged, truncated or foreign files.
final class FaultInjectionTests: XCTestCase {
    /// Value `i` of round `round`. Every third round writes values 4× larger (about 600 KB),
    /// over the one-sync limit, so the runs mix one-sync and two-sync commits.
    func value(round: Int, _ i: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(round), count: (i * 37) % 1500 * (round % 3 == 2 ? 4 : 1))
    }

    /// Writes `commits` commits of data; with power lost at sync number `crashAt`.
    func run(path: String, crashAt: Int, mode: FaultInjectingFileIO.LossMode) throws -> (durable: UInt64, io: FaultInjectingFileIO) {
        nonisolated(unsafe) var made: FaultInjectingFileIO?
        var opts = StoreOptions()
        opts.fileIO = { p, c, _ in
            let io = try FaultInjectingFileIO(path: p, create: c)
            made = io
            return io
        }
        let store = try Store(path: path, options: opts)
        let io = made!
        io.lossMode = mode
        let startSyncs = io.syncs
        io.crashAtSync = startSyncs + crashAt
        var durable = try store.newestMeta().version
        for round in 0..<14 {
            do {
                let w = try store.beginWrite()
                let t = try w.tree("t", create: true)!
                for i in 0..<200 { try t.put(key(round * 1000 + i), bytes: value(round: round, i)) }
                if round > 0 { for i in 0..<100 { try t.delete(key((round - 1) * 1000 + i)) } }
                durable = try w.commit()
            } catch is FaultInjectingFileIO.SimulatedCrash {
                break
            }
        }
        store.close()
        return (durable, io)
    }

    func verify(path: String, expectVersion: UInt64, file: StaticString = #filePath, line: UInt = #line) throws {
        let store = try Store(path: path)
        XCTAssertEqual(try store.newestMeta().version, expectVersion, "opened at the wrong version", file: file, line: line)
        assertSound(store, file: file, line: line)
        // Content of version v (round = v - 2 committed last).
        let r = try store.beginRead()
        let rounds = Int(expectVersion) - 1
        if rounds > 0 {
            let t = try XCTUnwrap(try r.tree("t"), file: file, line: line)
            var expected = 0
            for round in 0..<rounds { expected += (round == rounds - 1) ? 200 : 100 }
            XCTAssertEqual(try t.totalWeight, UInt64(expected), file: file, line: line)
            let last = rounds - 1
            XCTAssertEqual(try t.getBytes(key(last * 1000 + 5)), value(round: last, 5), file: file, line: line)
        }
    }

    func testPowerLossAtEverySyncPoint() throws {
        let modes: [FaultInjectingFileIO.LossMode] = [.dropAll, .tearRandomly(seed: 7), .tearRandomly(seed: 99), .keepAll, .keepMetaSlotsOnly]
        var oneSyncCommitsCut = 0, twoSyncCommitsCutBeforeSlot = 0
        for mode in modes {
            for crashAt in 1...12 {
                let dir = TempDir()
                let path = dir.path("p.strata")
                // Create the file first (its initial sync is not part of the experiment).
                try Store(path: path).close()
                let (durable, io) = try run(path: path, crashAt: crashAt, mode: mode)
                XCTAssertTrue(io.hasCrashed)
                // The commit in flight survives only if its meta slot was written before the
                // loss and everything it lists reached the file. keepAll: exactly when the slot
                // was written. keepMetaSlotsOnly: when the slot was its only unsynced write (a
                // two-sync commit, blocks synced first); a one-sync commit whose blocks were lost
                // with its slot kept must open at the version before — the case the run checksum
                // exists for. dropAll: never. Torn: either.
                switch mode {
                case .keepAll:
                    if !io.metaSlotWritePending && io.blockWritePending { twoSyncCommitsCutBeforeSlot += 1 }
                    try verify(path: path, expectVersion: io.metaSlotWritePending ? durable + 1 : durable)
                case .tearRandomly:
                    let store = try Store(path: path)
                    let v = try store.newestMeta().version
                    store.close()
                    XCTAssertTrue(v == durable || v == durable + 1, "mode \(mode) crash \(crashAt): version \(v)")
                    try verify(path: path, expectVersion: v)
                case .keepMetaSlotsOnly:
                    let oneSync = io.metaSlotWritePending && io.blockWritePending
                    if oneSync { oneSyncCommitsCut += 1 }
                    try verify(path: path, expectVersion: io.metaSlotWritePending && !io.blockWritePending ? durable + 1 : durable)
                case .dropAll:
                    try verify(path: path, expectVersion: durable)
                }
            }
        }
        XCTAssertGreaterThan(oneSyncCommitsCut, 0, "no one-sync commit was cut after its meta slot was written")
        XCTAssertGreaterThan(twoSyncCommitsCutBeforeSlot, 0, "no two-sync commit was cut at its data sync")
    }

    func testDiskFullDuringCommitKeepsFile() throws {
        let dir = TempDir()
        let path = dir.path("full.strata")
        do {
            let s = try Store(path: path)
            let w = try s.beginWrite()
            try w.tree("t", create: true)!.put(key(1), bytes: [1, 2, 3])
            try w.commit()
            s.close()
        }
        let (store, made) = try FaultInjectingFileIO.openStore(path: path)
        made.diskFullAfterBytes = 100_000
        let w = try store.beginWrite()
        let t = try w.tree("t")!
        for i in 0..<5000 { try? t.put(key(i + 10), bytes: [UInt8](repeating: 9, count: 500)) }
        XCTAssertThrowsError(try w.commit()) { error in
            XCTAssertEqual(error as? StorageError, .diskFull(path: path))
            XCTAssertTrue("\(error)".contains("disk full"))
        }
        // The handle still works and the file is at the previous version.
        made.diskFullAfterBytes = nil
        let r = try store.beginRead()
        XCTAssertEqual(r.version, 2)
        XCTAssertEqual(try r.tree("t")?.entries().map(\.key), [key(1)])
        r.end()
        let w2 = try store.beginWrite()
        try w2.tree("t")!.put(key(2), bytes: [2])
        XCTAssertEqual(try w2.commit(), 3)
        assertSound(store)
    }

    /// A compaction or copy that fills the disk names the database or the destination (not its
    /// temporary file), says how much the new file needs, and leaves nothing behind.
    func testDiskFullDuringCompactionOrCopyNamesTheFileAndLeavesNothing() throws {
        let dir = TempDir()
        let path = dir.path("full.strata")
        do {
            let s = try Store(path: path)
            let w = try s.beginWrite()
            let t = try w.tree("t", create: true)!
            for i in 0..<2000 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(i % 251), count: 300)) }
            try w.commit()
            s.close()
        }
        // The copy's file fills the disk after 64 KiB.
        let store = try Store(path: path)
        let copy = dir.path("copy.strata")
        XCTAssertThrowsError(try store.writeCopy(toPath: copy, output: { p in
            let io = try FaultInjectingFileIO(path: p, create: true); io.diskFullAfterBytes = 64 << 10; return io
        })) { error in
            guard case let .diskFullWritingNewFile(p, _, needed, _)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, copy)
            XCTAssertGreaterThan(needed, 600_000)
            XCTAssertTrue("\(error)".contains("no file was created"), "\(error)")
            XCTAssertFalse("\(error)".contains("-tmp"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
        XCTAssertFalse(FileManager.default.fileExists(atPath: Store.writeCopyTemporaryPath(for: copy)))
        store.close()
        // Compaction: only the temporary file's writes fail.
        var options = StoreOptions()
        options.fileIO = { p, c, r in
            if p.hasSuffix(".compact-tmp") {
                let io = try FaultInjectingFileIO(path: p, create: c); io.diskFullAfterBytes = 64 << 10; return io
            }
            return try PosixFileIO(path: p, create: c, readOnly: r)
        }
        let compacting = try Store(path: path, options: options)
        XCTAssertThrowsError(try compacting.compact()) { error in
            guard case let .diskFullWritingNewFile(p, _, _, _)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(p, path)
            XCTAssertTrue("\(error)".contains("the database is unchanged"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: compacting.compactionTempPath))
        let r = try compacting.beginRead()
        XCTAssertEqual(try r.tree("t")?.entries().count, 2000)
        r.end()
        assertSound(compacting)
    }

    func testForeignTruncatedAndDamagedFiles() throws {
        let dir = TempDir()
        // Foreign file.
        let foreign = dir.path("foreign.txt")
        try Data("hello, this is not a database\n".utf8).write(to: URL(fileURLWithPath: foreign))
        XCTAssertThrowsError(try Store(path: foreign)) { XCTAssertEqual($0 as? StorageError, .notADatabase(path: foreign)) }
        let bigForeign = dir.path("big.bin")
        try Data(repeating: 0xAB, count: 100_000).write(to: URL(fileURLWithPath: bigForeign))
        XCTAssertThrowsError(try Store(path: bigForeign)) { XCTAssertEqual($0 as? StorageError, .notADatabase(path: bigForeign)) }
        // Missing file without create.
        var noCreate = StoreOptions(); noCreate.create = false
        XCTAssertThrowsError(try Store(path: dir.path("missing.strata"), options: noCreate)) {
            XCTAssertEqual($0 as? StorageError, .fileNotFound(path: dir.path("missing.strata")))
        }
        // A real database, then damaged copies.
        let good = dir.path("good.strata")
        do {
            let s = try Store(path: good)
            for round in 0..<3 {
                let w = try s.beginWrite()
                let t = try w.tree("t", create: true)!
                for i in 0..<300 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(round), count: 100)) }
                try w.commit()
            }
            s.close()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        // Truncated to 5000 bytes: clear error.
        let trunc = dir.path("trunc.strata")
        try bytes.prefix(5000).write(to: URL(fileURLWithPath: trunc))
        XCTAssertThrowsError(try Store(path: trunc)) { error in
            guard case .corrupted = error as? StorageError else { return XCTFail("\(error)") }
        }
        // Truncated in the data area: the newest slot points past the end: no crash.
        let trunc2 = dir.path("trunc2.strata")
        try bytes.prefix(20_000).write(to: URL(fileURLWithPath: trunc2))
        do {
            let s = try Store(path: trunc2)
            let report = try s.check()
            XCTAssertFalse(report.isSound)
        } catch {
            guard case .corrupted = error as? StorageError else { return XCTFail("\(error)") }
        }
        // Newer format version.
        var newer = bytes
        for slot in 0..<2 {
            let o = slot * 4096
            newer[o + 8] = 9
            let sum = newer.withUnsafeBytes { Checksum.hash($0.baseAddress! + o, 120) }
            withUnsafeBytes(of: sum.littleEndian) { for (i, b) in $0.enumerated() { newer[o + 120 + i] = b } }
        }
        let newerPath = dir.path("newer.strata")
        try newer.write(to: URL(fileURLWithPath: newerPath))
        XCTAssertThrowsError(try Store(path: newerPath)) { error in
            XCTAssertEqual(error as? StorageError, .unsupportedFormat(path: newerPath, found: 9, supported: MetaSlot.formatVersion))
        }
        // Random byte flips in the data area: open + check + read never crash; check reports damage.
        var rng = SplitMix64(seed: 5)
        // Bytes past the logical size (the preallocated tail) are not data: damage the rest.
        let logicalSize = try { let s = try Store(path: good); defer { s.close() }; return Int(try s.newestMeta().logicalSize) }()
        for trial in 0..<40 {
            var damaged = bytes
            for _ in 0..<8 {
                let at = 8192 + Int(rng.next() % UInt64(logicalSize - 8192))
                damaged[at] ^= UInt8(1 + rng.next() % 255)
            }
            let p = dir.path("damaged\(trial).strata")
            try damaged.write(to: URL(fileURLWithPath: p))
            do {
                let s = try Store(path: p)
                let report = try s.check()
                let r = try s.beginRead()
                if let t = try? r.tree("t") { _ = try? t.entries(); for i in 0..<300 { _ = try? t.getBytes(key(i)) } }
                r.end()
                if report.isSound && report.notes.isEmpty { XCTAssertEqual(damaged, bytes, "damage went unnoticed") }
                s.close()
            } catch let e as StorageError {
                if case .corrupted = e {} else { XCTFail("unexpected \(e)") }
            }
            try? FileManager.default.removeItem(atPath: p)
            try? FileManager.default.removeItem(atPath: p + ".lock")
        }
        // Both meta slots damaged.
        var noMeta = bytes
        noMeta[20] ^= 1; noMeta[4096 + 20] ^= 1
        let noMetaPath = dir.path("nometa.strata")
        try noMeta.write(to: URL(fileURLWithPath: noMetaPath))
        XCTAssertThrowsError(try Store(path: noMetaPath)) { error in
            guard case .corrupted = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("strata check"))
        }
    }
}

/// The commit protocol's two forms: a small commit syncs once (its meta slot lists the runs it
/// wrote; in an encrypted file, logical runs checked on their plaintext), a large one syncs its
/// blocks before writing the slot.
final class CommitSyncCountTests: XCTestCase {
    func testSmallCommitsSyncOnceLargeOnesTwice() throws {
        try assertSyncCounts(StoreOptions())
    }

    func testSmallEncryptedCommitsSyncOnceLargeOnesTwice() throws {
        try assertSyncCounts(encryptedOptions())
    }

    private func assertSyncCounts(_ options: StoreOptions, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = TempDir()
        let path = dir.path("s.strata")
        try Store(path: path, options: options).close()
        let (store, io) = try FaultInjectingFileIO.openStore(path: path, options: options)
        func commit(values: Int, size: Int) throws -> Int {
            let before = io.syncs
            let w = try store.beginWrite()
            let t = try w.tree("t", create: true)!
            for i in 0..<values { try t.put(Array("k\(i)".utf8), bytes: [UInt8](repeating: UInt8(truncatingIfNeeded: size), count: size)) }
            try w.commit()
            return io.syncs - before
        }
        XCTAssertEqual(try commit(values: 10, size: 100), 1, file: file, line: line)
        XCTAssertEqual(try store.newestMeta().unsyncedRuns.isEmpty, false, file: file, line: line)
        XCTAssertEqual(try commit(values: 2_000, size: 1_000), 2, file: file, line: line)
        XCTAssertEqual(try store.newestMeta().unsyncedRuns, [], file: file, line: line)
        XCTAssertEqual(try commit(values: 1, size: 10), 1, file: file, line: line)
        store.close()
        func value(_ store: Store) throws -> [UInt8]? {
            let r = try store.beginRead(); defer { r.end() }
            return try r.tree("t")!.getBytes(Array("k0".utf8))
        }
        // A slot whose runs no longer match is not a version: damage one byte of the last
        // commit's first run (an encrypted file: a ciphertext byte of the page holding it, which
        // then fails its authentication) and the file opens at the version before it.
        let reopened = try Store(path: path, options: options)
        let m = try reopened.newestMeta()
        XCTAssertEqual(m.format, MetaSlot.formatVersion, file: file, line: line)
        XCTAssertEqual(try value(reopened), [UInt8](repeating: 10, count: 10), file: file, line: line)
        let run = try XCTUnwrap(m.unsyncedRuns.first, file: file, line: line)
        reopened.close()
        let logical = run.offset + 20
        let physical = options.encryptionKey == nil ? logical
            : PageLayout.physicalPage(logical >> PageLayout.pageShift) << PageLayout.pageShift + (logical & UInt64(PageLayout.pageSize - 1))
        let fd = open(path, O_RDWR)
        var b: UInt8 = 0
        XCTAssertEqual(pread(fd, &b, 1, off_t(physical)), 1, file: file, line: line)
        b ^= 0xFF
        XCTAssertEqual(pwrite(fd, &b, 1, off_t(physical)), 1, file: file, line: line)
        close(fd)
        let again = try Store(path: path, options: options)
        XCTAssertEqual(try again.newestMeta().version, m.version - 1, file: file, line: line)
        XCTAssertEqual(try value(again), [UInt8](repeating: 232, count: 1_000), file: file, line: line)
        assertSound(again, file: file, line: line)
        XCTAssertEqual(try again.check().notes.count, 1, file: file, line: line)
        again.close()
    }
}
