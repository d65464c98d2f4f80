import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

final class InMemoryTests: XCTestCase {
    func testHandlesShareDataAndLastCloseDisposes() throws {
        let id = "mem-\(UUID().uuidString)"
        let a = try Store(inMemoryIdentifier: id)
        XCTAssertTrue(a.isInMemory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: a.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: a.path + ".lock"))
        let w = try a.beginWrite()
        for i in 0..<500 { try w.tree("t", create: true)!.put(key(i), bytes: sampleValue(i)) }
        try w.commit()
        let b = try Store(inMemoryIdentifier: id)
        let r = try b.beginRead()
        XCTAssertEqual(try r.tree("t")?.totalWeight, 500)
        XCTAssertEqual(try r.tree("t")?.getBytes(key(77)), sampleValue(77))
        r.end()
        // Commits by one handle are seen by the other, and notifications work.
        let seen = expectation(description: "commit observed")
        seen.assertForOverFulfill = false
        let token = a.addCommitObserver { _ in seen.fulfill() }
        let w2 = try b.beginWrite()
        try w2.tree("t")!.put(key(9999), bytes: [1])
        try w2.commit()
        XCTAssertEqual(a.publishedVersion, b.publishedVersion, "one lock file")
        XCTAssertEqual(a.publishedVersion, 3)
        wait(for: [seen], timeout: 5)
        a.removeCommitObserver(token)
        XCTAssertEqual(try a.beginRead().tree("t")?.getBytes(key(9999)), [1])
        // Writers exclude each other across handles (own lock-file description per handle).
        let held = try a.beginWrite()
        XCTAssertNil(try b.tryBeginWrite())
        held.abort()
        XCTAssertNotNil(try b.tryBeginWrite())
        assertSound(a)
        XCTAssertEqual(a.participants().count, 2)
        // Another identifier is another database.
        let other = try Store(inMemoryIdentifier: id + "-other")
        XCTAssertNil(try other.beginRead().tree("t"))
        other.close()
        XCTAssertThrowsError(try a.compact()) { guard case .unsupported = $0 as? StorageError else { return XCTFail("\($0)") } }
        a.close()
        XCTAssertTrue(InMemoryFiles.shared.identifiers.contains(id))
        XCTAssertEqual(try b.beginRead().tree("t")?.totalWeight, 501, "data lives while a handle is open")
        b.close()
        XCTAssertFalse(InMemoryFiles.shared.identifiers.contains(id))
        // Reopening after the last close: empty.
        let c = try Store(inMemoryIdentifier: id)
        XCTAssertNil(try c.beginRead().tree("t"))
        c.close()
        var noCreate = StoreOptions(); noCreate.create = false
        XCTAssertThrowsError(try Store(inMemoryIdentifier: id, options: noCreate))
    }

    func testEncryptedInMemory() throws {
        let id = "mem-enc-\(UUID().uuidString)"
        let a = try Store(inMemoryIdentifier: id, options: encryptedOptions())
        let w = try a.beginWrite()
        for i in 0..<300 { try w.tree("t", create: true)!.put(key(i), bytes: sampleValue(i)) }
        try w.commit()
        XCTAssertThrowsError(try Store(inMemoryIdentifier: id)) { XCTAssertEqual($0 as? StorageError, .encryptionKeyRequired(path: "in-memory:" + id)) }
        let b = try Store(inMemoryIdentifier: id, options: encryptedOptions())
        XCTAssertEqual(try b.beginRead().tree("t")?.getBytes(key(123)), sampleValue(123))
        a.close(); b.close()
    }
}

final class ReadOnlyTests: XCTestCase {
    func makeFile(_ path: String, encryptionKey: [UInt8]? = nil) throws {
        var o = StoreOptions(); o.encryptionKey = encryptionKey
        let s = try Store(path: path, options: o)
        let w = try s.beginWrite()
        for i in 0..<400 { try w.tree("t", create: true)!.put(key(i), bytes: sampleValue(i)) }
        try w.commit()
        s.close()
        unlink(path + ".lock")
    }

    func mtime(_ path: String) -> timespec { var st = stat(); stat(path, &st); return st.st_mtim }

    func testReadOnlyWritesNothingAndCreatesNoLockFile() throws {
        for k in [nil, testKey] as [[UInt8]?] {
            let dir = TempDir()
            let path = dir.path("ro.strata")
            try makeFile(path, encryptionKey: k)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let m0 = mtime(path)
            usleep(20_000)
            var o = StoreOptions(); o.readOnly = true; o.encryptionKey = k
            let s = try Store(path: path, options: o)
            XCTAssertTrue(s.isReadOnly)
            let r = try s.beginRead()
            XCTAssertEqual(try r.tree("t")?.getBytes(key(5)), sampleValue(5))
            XCTAssertThrowsError(try r.tree("t")!.put(key(1), bytes: [1])) { XCTAssertEqual($0 as? StorageError, .readOnly(path: path)) }
            r.end()
            XCTAssertThrowsError(try s.beginWrite()) { XCTAssertEqual($0 as? StorageError, .readOnly(path: path)) }
            XCTAssertThrowsError(try s.tryBeginWrite()) { XCTAssertEqual($0 as? StorageError, .readOnly(path: path)) }
            XCTAssertThrowsError(try s.compact()) { XCTAssertEqual($0 as? StorageError, .readOnly(path: path)) }
            XCTAssertThrowsError(try s.compactOnline()) { XCTAssertEqual($0 as? StorageError, .readOnly(path: path)) }
            assertSound(s)
            // writeCopy writes another file: allowed.
            try s.writeCopy(toPath: dir.path("copy.strata"), encryptionKey: k)
            s.close()
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"), "read-only open created a lock file")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
            let m1 = mtime(path)
            XCTAssertTrue(m0.tv_sec == m1.tv_sec && m0.tv_nsec == m1.tv_nsec, "mtime changed")
            // Missing file: not created.
            XCTAssertThrowsError(try Store(path: dir.path("missing.strata"), options: o)) {
                XCTAssertEqual($0 as? StorageError, .fileNotFound(path: dir.path("missing.strata")))
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("missing.strata")))
        }
    }

    func testReadOnlyJoinsAnExistingLockFileAndSeesCommits() throws {
        let dir = TempDir()
        let path = dir.path("ro.strata")
        try makeFile(path)
        let writer = try Store(path: path)
        var o = StoreOptions(); o.readOnly = true
        let ro = try Store(path: path, options: o)
        let r = try ro.beginRead(label: "ro-reader")
        XCTAssertTrue(writer.readers().contains { $0.label == "ro-reader" }, "the writer sees the read-only handle's reader")
        let w = try writer.beginWrite()
        try w.tree("t")!.put(key(1), bytes: [42])
        try w.commit()
        XCTAssertEqual(try r.tree("t")?.getBytes(key(1)), sampleValue(1), "snapshot unchanged")
        XCTAssertTrue(try r.refresh())
        XCTAssertEqual(try r.tree("t")?.getBytes(key(1)), [42])
        r.end()
        ro.close(); writer.close()
    }

    func testReadOnlyDirectory() throws {
        let dir = TempDir()
        let sub = dir.path("locked")
        try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        let path = sub + "/db.strata"
        try makeFile(path)
        chmod(path, 0o444)
        chmod(sub, 0o555)
        defer { chmod(sub, 0o755); chmod(path, 0o644) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var o = StoreOptions(); o.readOnly = true
        let s = try Store(path: path, options: o)
        XCTAssertEqual(try s.beginRead().tree("t")?.getBytes(key(9)), sampleValue(9))
        XCTAssertThrowsError(try s.beginWrite()) { XCTAssertEqual($0 as? StorageError, .readOnly(path: path)) }
        s.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        // Without root, a writable open fails cleanly here (root bypasses the permissions).
        if geteuid() != 0 { XCTAssertThrowsError(try Store(path: path)) }
    }
}

/// A handle closed from one of its own commit observers (its last owner released on the watcher
/// thread): `close()` returns, the watcher thread exits, and in memory the data is released.
final class CloseFromCommitObserverTests: XCTestCase {
    func testClosingAHandleFromItsCommitObserverReturnsAndReleasesTheData() throws {
        let id = "close-from-observer-\(UUID().uuidString)"
        let s = try Store(inMemoryIdentifier: id)
        let closed = DispatchSemaphore(value: 0), committed = DispatchSemaphore(value: 0)
        // The observer closes the handle once the commit has returned (as when an app drops its
        // last realm while the watcher forwards the commit).
        _ = s.addCommitObserver { _ in committed.wait(); s.close(); closed.signal() }
        let w = try s.beginWrite()
        _ = try w.tree("t", create: true)!.put([1], bytes: [2])
        try w.commit()
        committed.signal()
        // Before the fix the watcher waited for itself to exit: close() never returned.
        XCTAssertEqual(closed.wait(timeout: .now() + 5), .success, "close() called on the watcher thread returned")
        XCTAssertFalse(InMemoryFiles.shared.identifiers.contains(id), "the last handle released the in-memory data")
        XCTAssertThrowsError(try Store(inMemoryIdentifier: id, options: { var o = StoreOptions(); o.create = false; return o }()))
    }
}
