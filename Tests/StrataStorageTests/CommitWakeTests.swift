import XCTest
import Foundation
@testable import StrataStorage

/// Who a commit wakes: every commit watcher of other handles and processes; its own handle's
/// watcher only when `WriteTransaction.ownObserversNeedCommit` does not answer false (a writer
/// that tells its own observers itself spares the wake-up of a sleeping thread).
final class CommitWakeTests: XCTestCase {
    final class Flag: @unchecked Sendable {
        let lock = NSLock(); var returnedAt: Date?; var calls: [UInt64] = []
        var returned: Bool { lock.lock(); defer { lock.unlock() }; return returnedAt != nil }
        var versions: [UInt64] { lock.lock(); defer { lock.unlock() }; return calls }
        func note(_ v: UInt64) { lock.lock(); calls.append(v); lock.unlock() }
    }

    /// Starts a thread sleeping in `waitForCommit` on `lock` (10 s timeout) and returns once
    /// the lock file counts it as sleeping.
    func sleepingWaiter(on lock: LockFile) -> Flag {
        let flag = Flag()
        let before = lock.sleepingWatchers
        let seen = lock.commitSequence
        Thread.detachNewThread {
            lock.waitForCommit(seen: seen, timeoutMs: 10_000)
            flag.lock.lock(); flag.returnedAt = Date(); flag.lock.unlock()
        }
        let deadline = Date().addingTimeInterval(10)
        while lock.sleepingWatchers <= before && Date() < deadline { usleep(1_000) }
        XCTAssertGreaterThan(lock.sleepingWatchers, before, "the waiter never went to sleep")
        usleep(50_000) // from counted to asleep in the kernel
        return flag
    }

    func waitUntil(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() { if Date() > deadline { return false }; usleep(1_000) }
        return true
    }

    func commit(_ store: Store, _ i: Int, wakeOwn: Bool?) throws -> UInt64 {
        let w = try store.beginWrite()
        try w.tree("t", create: true)!.put(key(i), value: .inline([UInt8(i & 0xFF)]))
        if let wakeOwn { w.ownObserversNeedCommit = { wakeOwn } }
        return try w.commit()
    }

    func testOwnWatcherSleepsOnThroughACommitThatSparesItAndOthersWake() throws {
        let dir = TempDir()
        let path = dir.path("wake.strata")
        let a = try Store(path: path), b = try Store(path: path)
        defer { a.close(); b.close() }
        let own = sleepingWaiter(on: a.lock!)
        _ = try commit(a, 1, wakeOwn: false)
        usleep(300_000)
        XCTAssertFalse(own.returned, "the committer's own watcher was woken")
        // Another handle's watcher sleeping: it is woken (and the own one with it).
        let other = sleepingWaiter(on: b.lock!)
        _ = try commit(a, 2, wakeOwn: false)
        XCTAssertTrue(waitUntil(5) { other.returned }, "another handle's watcher was not woken")
        XCTAssertTrue(waitUntil(5) { own.returned })
    }

    func testCommitsWakeTheirOwnWatcherByDefault() throws {
        let dir = TempDir()
        let a = try Store(path: dir.path("wake.strata"))
        defer { a.close() }
        let own = sleepingWaiter(on: a.lock!)
        _ = try commit(a, 1, wakeOwn: nil)
        XCTAssertTrue(waitUntil(5) { own.returned }, "a plain commit did not wake its own watcher")
        let again = sleepingWaiter(on: a.lock!)
        _ = try commit(a, 2, wakeOwn: true)
        XCTAssertTrue(waitUntil(5) { again.returned })
    }

    /// Through `addCommitObserver`: spared commits reach the handle's own observers at the
    /// watcher's next wake-up (here its 1 s safety timeout), newest version first; commits that
    /// do not spare it reach them one by one.
    func testSparedCommitsReachOwnObserversLater() throws {
        let dir = TempDir()
        let a = try Store(path: dir.path("wake.strata"))
        defer { a.close() }
        let seen = Flag()
        let token = a.addCommitObserver { seen.note($0) }
        defer { a.removeCommitObserver(token) }
        XCTAssertTrue(waitUntil(10) { a.lock!.sleepingWatchers >= 1 })
        usleep(50_000)
        var last: UInt64 = 0
        for i in 0..<20 { last = try commit(a, i, wakeOwn: false) }
        let early = seen.versions.count
        XCTAssertLessThanOrEqual(early, 2, "spared commits woke the watcher: \(seen.versions)")
        XCTAssertTrue(waitUntil(5) { seen.versions.contains(last) }, "the newest version never reached the observer")
        let before = seen.versions.count
        for i in 20..<30 { last = try commit(a, i, wakeOwn: nil) }
        XCTAssertTrue(waitUntil(5) { seen.versions.contains(last) })
        XCTAssertGreaterThanOrEqual(seen.versions.count - before, 3, "commits that wake the watcher were not reported: \(seen.versions)")
    }
}
