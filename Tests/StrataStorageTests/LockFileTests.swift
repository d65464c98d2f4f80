import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// The lock file and the write lock under hostile conditions (issue 18, items 10-13): a path
/// that is not a regular file, a full disk while the lock file is created, a lock file
/// truncated under running handles, and a writer stopped while it holds the write lock.
final class LockFileTests: XCTestCase {
    /// Runs `body` on another thread; fails (instead of hanging the suite) when it has not
    /// finished within `seconds`.
    final class ResultBox<T>: @unchecked Sendable { var result: Result<T, Error>?; init() {} }

    func finishes<T>(within seconds: Double, _ what: String, _ body: @escaping @Sendable () throws -> T) -> Result<T, Error>? {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { box.result = Result { try body() }; done.signal() }
        guard done.wait(timeout: .now() + seconds) == .success else {
            XCTFail("\(what) did not return within \(seconds) s")
            return nil
        }
        return box.result
    }

    func assertNotARegularFile(_ result: Result<Store, Error>?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let result else { return }
        switch result {
        case .success: XCTFail("\(what) opened", file: file, line: line)
        case .failure(let e):
            guard case StorageError.notARegularFile? = e as? StorageError else { return XCTFail("\(what): \(e)", file: file, line: line) }
        }
    }

    /// A lock file unlinked while a handle waits to initialise it (a failed command removes a
    /// lock file it made, holding bytes 0 and 2 while it unlinks) must not become that handle's
    /// lock file: it would coordinate with nobody, and the next process would create another.
    /// The handle opens the path again and lands on the file the path names.
    func testAHandleNeverKeepsALockFileUnlinkedWhileItWaited() throws {
        let dir = TempDir()
        let path = dir.path("db.strata")
        let lockPath = path + ".lock"
        _ = try LockFile(path: lockPath, label: "maker")
        // The remover: holds byte 0 (a process-associated record lock, which conflicts with the
        // handles' open-file-description locks) while the handle below starts to open.
        let fd = open(lockPath, O_RDWR)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var l = flock()
        l.l_type = Int16(F_WRLCK); l.l_whence = Int16(SEEK_SET); l.l_start = 0; l.l_len = 1
        XCTAssertEqual(fcntl(fd, F_SETLK, &l), 0)
        let box = ResultBox<LockFile>()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { box.result = Result { try LockFile(path: lockPath, label: "waiter") }; done.signal() }
        usleep(200_000) // the handle has opened the file and waits for byte 0
        XCTAssertEqual(unlink(lockPath), 0)
        close(fd) // releases byte 0
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let handle = try XCTUnwrap(try box.result?.get())
        var held = stat(), named = stat()
        XCTAssertEqual(fstat(handle.fd, &held), 0)
        XCTAssertEqual(stat(lockPath, &named), 0, "the handle created the lock file again at its path")
        XCTAssertEqual(held.st_ino, named.st_ino, "the handle's lock file is the one its path names")
        handle.close()
    }

    func testFIFOAsDatabasePathIsRefusedAtOnce() throws {
        let dir = TempDir()
        let path = dir.path("pipe.strata")
        XCTAssertEqual(mkfifo(path, 0o644), 0)
        assertNotARegularFile(finishes(within: 10, "opening a FIFO") { try Store(path: path) }, "a FIFO")
        var ro = StoreOptions(); ro.readOnly = true
        let readOnly = ro
        assertNotARegularFile(finishes(within: 10, "opening a FIFO read-only") { try Store(path: path, options: readOnly) }, "a FIFO, read-only")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".lock"), "nothing is created beside it")
        let message = "\(StorageError.notARegularFile(path: path, kind: Store.fileKind(S_IFIFO)))"
        XCTAssertTrue(message.contains("FIFO"), message)
    }

    func testDeviceAndDirectoryAsDatabasePathAreRefused() throws {
        assertNotARegularFile(finishes(within: 10, "opening /dev/null") { try Store(path: "/dev/null") }, "/dev/null")
        let dir = TempDir()
        let dirPath = dir.url.path
        assertNotARegularFile(finishes(within: 10, "opening a directory") { try Store(path: dirPath) }, "a directory")
    }

    func testLockFileBytesAreAllocatedBeforeTheyAreMapped() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("db.strata"))
        var st = stat()
        XCTAssertEqual(stat(store.lockPath, &st), 0)
        XCTAssertEqual(Int(st.st_size), LockFile.fileSize)
        // A sparse lock file is a SIGBUS waiting for a full disk: every byte has disk blocks.
        XCTAssertGreaterThanOrEqual(Int(st.st_blocks) * 512, LockFile.fileSize, "the lock file is sparse")
    }

    func testFullDiskWhileCreatingTheLockFileIsATypedError() throws {
        let dir = TempDir()
        let path = dir.path("db.strata")
        let saved = LockFile.reserveSpace
        LockFile.reserveSpace = { _, _ in ENOSPC }
        defer { LockFile.reserveSpace = saved }
        XCTAssertThrowsError(try Store(path: path)) { e in
            guard case StorageError.noSpaceForLockFile(let p, _)? = e as? StorageError else { return XCTFail("\(e)") }
            XCTAssertEqual(p, path + ".lock")
            XCTAssertTrue("\(e)".contains("disk full"), "\(e)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no half-made database")
    }

    func testLockFileTruncatedUnderARunningWriterIsAnErrorNotACrash() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("db.strata"))
        let w = try store.beginWrite()
        try w.tree("t", create: true)!.put([1], bytes: [1])
        try w.commit()
        XCTAssertEqual(truncate(store.lockPath, 0), 0)
        XCTAssertThrowsError(try store.beginWrite()) { e in
            guard case StorageError.badLockFile(_, let detail)? = e as? StorageError else { return XCTFail("\(e)") }
            XCTAssertTrue(detail.contains("truncated"), detail)
        }
        // The size was restored, so the mapping no longer faults: reads and commits go on.
        XCTAssertEqual(try store.beginRead().tree("t")?.getBytes([1]), [1])
        let w2 = try store.beginWrite()
        try w2.tree("t", create: true)!.put([2], bytes: [2])
        try w2.commit()
    }

    func testWriteLockHolderIsRecordedAndCleared() throws {
        let dir = TempDir()
        let path = dir.path("db.strata")
        var a = StoreOptions(); a.label = "holder-A"
        let holder = try Store(path: path, options: a)
        let other = try Store(path: path)
        XCTAssertNil(other.writeLockHolder)
        let before = LockFile.nowNanos()
        let w = try holder.beginWrite()
        let h = try XCTUnwrap(other.writeLockHolder)
        XCTAssertEqual(h.pid, getpid())
        XCTAssertEqual(h.label, "holder-A")
        XCTAssertTrue(h.isAlive)
        XCTAssertGreaterThanOrEqual(h.since, before)
        XCTAssertTrue(h.description.hasPrefix("pid \(getpid()) (holder-A) since "), h.description)
        XCTAssertEqual(try other.spaceStatistics().writeLockHolder, h)
        try w.commit()
        XCTAssertNil(other.writeLockHolder)
    }

    /// Two handles of this process exclude each other like two processes (separate lock-file
    /// descriptions), so the wait for the write lock can be tested without a child.
    func testWaitingWriterIsToldWhoHoldsTheLockOnceAndTimesOut() throws {
        let dir = TempDir()
        let path = dir.path("db.strata")
        var a = StoreOptions(); a.label = "slow-writer"
        let holder = try Store(path: path, options: a)
        let w = try holder.beginWrite()
        final class Seen: @unchecked Sendable { let lock = NSLock(); var holders: [WriteLockHolder] = [] }
        let seen = Seen()
        var b = StoreOptions()
        b.writeLockNoticeSeconds = 0.2
        b.writeLockTimeout = 1.0
        b.onWriteLockWait = { h in seen.lock.lock(); seen.holders.append(h); seen.lock.unlock() }
        let waiter = try Store(path: path, options: b)
        XCTAssertThrowsError(try waiter.beginWrite()) { e in
            guard case StorageError.writeLockTimeout(_, let h)? = e as? StorageError else { return XCTFail("\(e)") }
            XCTAssertEqual(h?.label, "slow-writer")
            XCTAssertTrue("\(e)".contains("held by pid \(getpid()) (slow-writer)"), "\(e)")
        }
        XCTAssertEqual(seen.holders.count, 1, "told once")
        XCTAssertEqual(seen.holders.first?.pid, getpid())
        XCTAssertEqual(seen.holders.first?.label, "slow-writer")
        w.abort()
        let w2 = try waiter.beginWrite()
        w2.abort()
    }

    func testWaitForTheWriteLockIsCancellable() throws {
        let dir = TempDir()
        let path = dir.path("db.strata")
        let holder = try Store(path: path)
        let w = try holder.beginWrite()
        final class Flag: @unchecked Sendable { let lock = NSLock(); var told = false }
        let flag = Flag()
        var b = StoreOptions()
        b.writeLockNoticeSeconds = 0.1
        b.onWriteLockWait = { _ in flag.lock.lock(); flag.told = true; flag.lock.unlock() }
        let waiter = try Store(path: path, options: b)
        let cancel = WriteLockWaitCancellation()
        final class Box: @unchecked Sendable { var error: Error?; let done = DispatchSemaphore(value: 0) }
        let box = Box()
        Thread.detachNewThread {
            do { let t = try waiter.beginWrite(cancellation: cancel); t.abort() } catch { box.error = error }
            box.done.signal()
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline { flag.lock.lock(); let t = flag.told; flag.lock.unlock(); if t { break }; usleep(10_000) }
        cancel.cancel()
        XCTAssertEqual(box.done.wait(timeout: .now() + 20), .success, "cancel ends the wait")
        guard case StorageError.writeLockWaitCancelled? = box.error as? StorageError else { return XCTFail("\(String(describing: box.error))") }
        w.abort()
    }

    func testWaitingWriterGetsTheLockWhenItIsReleased() throws {
        let dir = TempDir()
        let path = dir.path("db.strata")
        let holder = try Store(path: path)
        let w = try holder.beginWrite()
        var b = StoreOptions()
        b.writeLockTimeout = 60
        b.onWriteLockWait = { _ in }
        let waiter = try Store(path: path, options: b)
        nonisolated(unsafe) let holding = w
        Thread.detachNewThread { usleep(200_000); _ = try? holding.commit() }
        let t = try waiter.beginWrite()
        XCTAssertEqual(t.version, 3, "it waited for the holder's commit")
        try t.commit()
    }

    /// A writer process stopped with SIGSTOP while it holds the write lock: others see who holds
    /// it, a waiting writer is told once after the notice delay and can give up; once the
    /// stopped process is killed the kernel frees the lock and writing resumes.
    func testStoppedWriterProcessIsNamedAndWaitingForItCanEnd() throws {
        let exe = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("db.strata")
        try Store(path: path).close()
        let child = try ChildProcess(executable: exe, arguments: ["hold", path, "stopped-writer"])
        XCTAssertNotNil(child.waitForLine { $0.hasPrefix("holding") })
        let pid = child.process.processIdentifier
        XCTAssertEqual(kill(pid, SIGSTOP), 0)
        defer { kill(pid, SIGKILL) }
        final class Seen: @unchecked Sendable { let lock = NSLock(); var holders: [WriteLockHolder] = [] }
        let seen = Seen()
        var o = StoreOptions()
        o.writeLockNoticeSeconds = 0.3
        o.writeLockTimeout = 1.5
        o.onWriteLockWait = { h in seen.lock.lock(); seen.holders.append(h); seen.lock.unlock() }
        let store = try Store(path: path, options: o)
        let h = try XCTUnwrap(store.writeLockHolder)
        XCTAssertEqual(h.pid, pid)
        XCTAssertEqual(h.label, "stopped-writer")
        XCTAssertTrue(h.isAlive)
        XCTAssertThrowsError(try store.beginWrite()) { e in
            guard case StorageError.writeLockTimeout(_, let holder)? = e as? StorageError else { return XCTFail("\(e)") }
            XCTAssertEqual(holder?.pid, pid)
        }
        XCTAssertEqual(seen.holders.map(\.pid), [pid], "told once, naming the stopped process")
        child.kill9()
        XCTAssertTrue(child.diedOfSIGKILL)
        let w = try store.beginWrite()
        XCTAssertEqual(store.writeLockHolder?.pid, getpid())
        w.abort()
    }
}
