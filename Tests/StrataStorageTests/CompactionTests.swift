import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// Space pinned by readers, full compaction, writeCopy, online and automatic compaction within
/// one process. Every test compares the full logical content before and after and runs the
/// integrity check.
final class CompactionTests: XCTestCase {
    /// The seed scenario: a reader holds an old version while another thread commits many
    /// writes. The file grows and the statistics name that reader and the bytes it pins; once it
    /// ends, space is reused; compaction then shrinks the file with all data intact.
    func testSeedScenarioPinnedReaderGrowthReuseAndCompaction() throws {
        let dir = TempDir()
        let path = dir.path("seed.strata")
        let store = try Store(path: path, options: storeOptions())
        try populate(store, count: 3000)

        // A "blocked thread" pins the current version.
        final class Pin: @unchecked Sendable { var txn: ReadTransaction? }
        let pin = Pin()
        let pinned = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            pin.txn = try? store.beginRead(label: "blocked thread")
            pinned.signal()
            release.wait()
            pin.txn?.end()
            pin.txn = nil
            done.signal()
        }
        pinned.wait()
        let pinnedVersion = try XCTUnwrap(pin.txn?.version)
        let start = try store.spaceStatistics()

        // Another writer rewrites every value several times.
        for round in 1...4 { try populate(store, count: 3000, salt: round) }
        let grown = try store.spaceStatistics()
        // The first rewrite frees blocks the reader sees: they stay; later rewrites free blocks
        // born after the pinned version, which are reused between the reader and the newest.
        XCTAssertGreaterThan(grown.logicalBytes, start.logicalBytes + start.usedBytes / 2, "the file grows while the reader pins")
        let reader = try XCTUnwrap(grown.readers.first { $0.label == "blocked thread" })
        XCTAssertEqual(reader.version, pinnedVersion)
        XCTAssertTrue(reader.isAlive)
        let pinnedBytes = try XCTUnwrap(grown.pinnedBytesByReader[reader.slot])
        XCTAssertGreaterThan(pinnedBytes, start.usedBytes / 2, "the reader pins (at least) the old data")
        XCTAssertGreaterThanOrEqual(grown.lockedBytes, pinnedBytes)

        release.signal(); done.wait()
        // Space is reused once the reader ended: rewriting again does not grow the file.
        for round in 5...8 { try populate(store, count: 3000, salt: round) }
        let reused = try store.spaceStatistics()
        XCTAssertNil(reused.readers.first { $0.label == "blocked thread" })
        XCTAssertEqual(reused.lockedBytes, 0)
        XCTAssertLessThanOrEqual(reused.logicalBytes, grown.logicalBytes, "freed space was reused")
        XCTAssertGreaterThan(reused.freeBytes, reused.usedBytes / 2, "the pinned era left free space behind")

        let expected = try logicalContent(store, includeHistory: true)
        let estimate = reused.estimatedBytesAfterCompaction
        var reports: [CompactionProgress] = []
        let result = try store.compact { reports.append($0) }
        XCTAssertEqual(result.beforeBytes, reused.totalBytes)
        XCTAssertLessThan(result.afterBytes, result.beforeBytes / 2)
        XCTAssertEqual(result.afterBytes, try store.fileSize())
        XCTAssertLessThanOrEqual(result.afterBytes, estimate + 4096, "the estimate is an upper bound")
        XCTAssertEqual(reports.last?.bytesDone, reports.last?.bytesTotal)
        XCTAssertTrue(reports.count >= 2)
        XCTAssertEqual(try logicalContent(store, includeHistory: true), expected)
        assertSound(store)
        let after = try store.spaceStatistics()
        XCTAssertEqual(after.freeExtents, [])
        XCTAssertEqual(after.version, reused.version + 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.compactionTempPath))

        // The handle keeps working on the new file, and a fresh handle sees the same.
        try populate(store, count: 100, salt: 99)
        let again = try logicalContent(store)
        store.close()
        let reopened = try Store(path: path)
        XCTAssertEqual(try logicalContent(reopened), again)
        assertSound(reopened)
    }

    func testCompactRefusedWithOpenTransactionsOrAnotherHandle() throws {
        let dir = TempDir()
        let path = dir.path("refuse.strata")
        let store = try Store(path: path, options: storeOptions())
        try populate(store, count: 200)

        let w = try store.beginWrite()
        XCTAssertThrowsError(try store.compact()) { XCTAssertEqual($0 as? CompactionError, .writeTransactionInProgress(path: path)) }
        w.abort()

        let r = try store.beginRead()
        XCTAssertThrowsError(try store.compact()) { XCTAssertEqual($0 as? CompactionError, .readTransactionsOpen(path: path, count: 1)) }
        r.end()

        let other = try Store(path: path)
        XCTAssertThrowsError(try store.compact()) { error in
            guard case StorageError.fileInUse(_, let pids, _)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(pids, [], "the other handle is in this process")
            XCTAssertTrue("\(error)".contains("another handle"))
            XCTAssertTrue("\(error)".contains("online compaction"))
        }
        // Online compaction works meanwhile, from either handle.
        XCTAssertNoThrow(try other.compactOnline())
        other.close()
        XCTAssertNoThrow(try store.compact())
        assertSound(store)
    }

    func testLeftoverTempFileIsRemovedOnOpen() throws {
        let dir = TempDir()
        let path = dir.path("tmp.strata")
        try populate(try Store(path: path), count: 50)
        let stale = path + ".compact-tmp"
        XCTAssertTrue(FileManager.default.createFile(atPath: stale, contents: Data([1, 2, 3])))
        let store = try Store(path: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        assertSound(store)
    }

    /// Two copies to one destination at once: the second is refused and leaves the first's
    /// temporary file alone (it used to delete it on start, and could then link the other
    /// copy's half-written file into place). A temporary left by a copy that died is taken over.
    func testASecondCopyToTheSameDestinationIsRefusedAndAStaleTemporaryIsTakenOver() throws {
        let dir = TempDir()
        let path = dir.path("src.strata")
        let store = try Store(path: path, options: storeOptions())
        try populate(store, count: 500)
        let dest = dir.path("copy.strata")
        let tmp = Store.writeCopyTemporaryPath(for: dest)
        // A copy in progress (in this process or another: flock is per open file).
        let running = try Store.claimCopyTemporary(tmp, destination: dest)
        XCTAssertEqual(write(running, "partial", 7), 7)
        XCTAssertThrowsError(try store.writeCopy(toPath: dest)) {
            XCTAssertEqual($0 as? CompactionError, .copyInProgress(path: dest))
            XCTAssertTrue("\($0)".contains("another copy to this path"), "\($0)")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: tmp), Data("partial".utf8), "the running copy's file is untouched")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest))
        // That copy dies (its lock goes with its descriptor): its leftover is taken over.
        close(running)
        try store.writeCopy(toPath: dest)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp))
        let copy = try Store(path: dest)
        XCTAssertEqual(try logicalContent(copy, includeHistory: true), try logicalContent(store, includeHistory: true))
        assertSound(copy)
        copy.close()
        store.close()
    }

    func testWriteCopyRefusesExistingDestinationAndCopiesLogicalContent() throws {
        let dir = TempDir()
        let path = dir.path("src.strata")
        let store = try Store(path: path, options: storeOptions())
        try populate(store, count: 4000)
        try deleteWhere(store, count: 4000) { $0 % 3 != 0 }
        let existing = dir.path("exists.strata")
        XCTAssertTrue(FileManager.default.createFile(atPath: existing, contents: Data([42])))
        XCTAssertThrowsError(try store.writeCopy(toPath: existing)) {
            XCTAssertEqual($0 as? CompactionError, .destinationExists(path: existing))
            XCTAssertTrue("\($0)".contains("never overwrites"))
        }
        XCTAssertEqual(FileManager.default.contents(atPath: existing), Data([42]), "the existing file is untouched")

        // A reader elsewhere does not prevent a copy (no exclusivity needed).
        let other = try Store(path: path)
        let dest = dir.path("copy.strata")
        var last: CompactionProgress?
        try store.writeCopy(toPath: dest) { last = $0 }
        XCTAssertEqual(last?.bytesDone, last?.bytesTotal)
        other.close()
        let copy = try Store(path: dest)
        XCTAssertEqual(try logicalContent(copy, includeHistory: true), try logicalContent(store, includeHistory: true))
        XCTAssertEqual(try copy.newestMeta().version, try store.newestMeta().version)
        assertSound(copy)
        let src = try store.spaceStatistics()
        XCTAssertLessThanOrEqual(try copy.fileSize(), src.usedBytes, "the copy is dense")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest + ".writecopy-tmp"))
    }

    /// A full compaction reports where its time went: each phase measured, together no more
    /// than the whole (the rest is checks and the lock file).
    func testFullCompactionReportsItsPhases() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("phases.strata"), options: storeOptions())
        try populate(store, count: 3000)
        try deleteWhere(store, count: 3000) { $0 % 3 != 0 }
        let result = try store.compact()
        let p = try XCTUnwrap(result.phases)
        XCTAssertGreaterThan(p.copySeconds, 0)
        XCTAssertGreaterThan(p.syncSeconds, 0)
        XCTAssertGreaterThan(p.replaceSeconds, 0)
        XCTAssertLessThanOrEqual(p.copySeconds + p.syncSeconds + p.replaceSeconds, result.seconds)
        assertSound(store)
    }

    func testOnlineCompactionShrinksFileInProcess() throws {
        let dir = TempDir()
        let path = dir.path("online.strata")
        let store = try Store(path: path, options: storeOptions())
        try populate(store, count: 6000)
        // Delete three quarters, interleaved, so live data is spread over the whole file.
        try deleteWhere(store, count: 6000) { ($0 / 50) % 4 != 0 }
        let expected = try logicalContent(store)
        let before = try store.spaceStatistics()
        var progress: [CompactionProgress] = []
        let result = try store.compactOnline { progress.append($0) }
        XCTAssertEqual(result.pendingTailBytes, 0)
        XCTAssertGreaterThan(result.bytesMoved, 0)
        XCTAssertNil(result.phases, "online compaction has no copy, sync and rename phases")
        XCTAssertLessThan(result.afterBytes, before.totalBytes / 2, "\(result)")
        XCTAssertEqual(result.afterBytes, try store.fileSize())
        XCTAssertEqual(progress.last?.fraction, 1)
        let after = try store.spaceStatistics()
        XCTAssertLessThanOrEqual(after.logicalBytes, Store.compactionTarget(used: after.usedBytes, attempt: 4))
        XCTAssertEqual(try logicalContent(store), expected)
        assertSound(store)
    }

    /// A reader pinning an old version keeps the tail: online compaction reports it and names the
    /// reader; a later commit gives the tail back once the reader ended.
    func testOnlineCompactionReportsPinnedTailAndGivesItBackLater() throws {
        let dir = TempDir()
        let path = dir.path("pinned.strata")
        let store = try Store(path: path, options: storeOptions(automaticCompaction: true))
        try populate(store, count: 4000)
        let reader = try store.beginRead(label: "old snapshot")
        try deleteWhere(store, count: 4000) { $0 % 8 != 0 }
        let expected = try logicalContent(store)
        let result = try store.compactOnline()
        XCTAssertGreaterThan(result.pendingTailBytes, 0)
        XCTAssertEqual(result.pinningReaders.map(\.label), ["old snapshot"])
        // The snapshot still reads its version completely.
        XCTAssertEqual(try reader.tree("a")?.entries().count, 4000)
        reader.end()
        let pending = try store.fileSize()
        // Ordinary commits now give the tail back (automatic compaction truncates it).
        for i in 0..<4 {
            let w = try store.beginWrite()
            try w.tree("c", create: true)!.put(key(i), bytes: testValue(i))
            try w.commit()
        }
        XCTAssertLessThan(try store.fileSize(), pending / 2)
        var exp = expected
        exp["c"] = Dictionary(uniqueKeysWithValues: (0..<4).map { (key($0), testValue($0)) })
        XCTAssertEqual(try logicalContent(store), exp)
        assertSound(store)
    }

    /// Automatic compaction: after most data is deleted, ordinary small commits shrink the file
    /// without anyone asking, each doing bounded work.
    func testAutomaticCompactionShrinksFileAfterMostDataDeleted() throws {
        let dir = TempDir()
        let path = dir.path("auto.strata")
        let store = try Store(path: path, options: storeOptions(automaticCompaction: true))
        try populate(store, count: 8000)
        let full = try store.fileSize()
        try deleteWhere(store, count: 8000) { ($0 / 20) % 10 != 0 }
        var expected = try logicalContent(store)
        let deleted = try store.fileSize()
        XCTAssertGreaterThan(deleted, full / 2, "deleting alone does not shrink a file whose live data is spread out")
        var commits = 0
        var sizes: [UInt64] = []
        while commits < 400 {
            let w = try store.beginWrite()
            try w.tree("small", create: true)!.put(key(commits % 10), bytes: testValue(commits, length: 40))
            try w.commit()
            expected["small", default: [:]][key(commits % 10)] = testValue(commits, length: 40)
            commits += 1
            sizes.append(try store.fileSize())
            let s = try store.spaceStatistics()
            if s.freeBytes <= 2 * s.usedBytes { break }
        }
        let final = try store.fileSize()
        XCTAssertLessThan(final, deleted / 3, "file shrank from \(deleted) to \(final) after \(commits) commits")
        XCTAssertEqual(try logicalContent(store), expected)
        assertSound(store)
    }

    func testSpaceStatisticsHelpers() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("stats.strata"), options: storeOptions())
        try populate(store, count: 2000)
        let reader = try store.beginRead(label: "holder")
        try deleteWhere(store, count: 2000) { $0 % 2 == 0 }
        let s = try store.spaceStatistics()
        let buckets = s.freeBytesBySize
        XCTAssertEqual(buckets.reduce(0) { $0 + $1.bytes }, s.freeExtents.reduce(0) { $0 + $1.length })
        XCTAssertEqual(buckets.reduce(0) { $0 + $1.extents }, s.freeExtents.count)
        let byVersion = s.freeBytesByFreeingVersion
        XCTAssertEqual(byVersion.reduce(0) { $0 + $1.bytes }, s.freeExtents.reduce(0) { $0 + $1.length })
        XCTAssertTrue(byVersion.contains { $0.freedAt > 0 && $0.pinned }, "space freed while the holder reads is pinned")
        XCTAssertGreaterThanOrEqual(s.estimatedBytesAfterCompaction, MetaSlot.dataStart)
        XCTAssertLessThanOrEqual(s.estimatedBytesAfterCompaction, s.usedBytes)
        XCTAssertFalse(s.compactionSummary.isEmpty)
        reader.end()
    }
}
