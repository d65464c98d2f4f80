import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// Several processes on one file: writers serialise, readers see consistent snapshots, a killed
/// reader's slot is cleared and its pinned space becomes reusable, commits wake observers in
/// other processes (how fast is measured by `strata bench`, not asserted here).
final class MultiProcessTests: XCTestCase {
    var exe: URL { productsDirectory.appendingPathComponent("StrataTestWriter") }

    func u64(_ b: [UInt8]?) -> UInt64 { guard let b, b.count == 8 else { return 0 }; return b.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }

    func testConcurrentWriterProcessesKeepEveryCommit() throws {
        _ = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("mp.strata")
        try Store(path: path).close()
        let store = try Store(path: path)
        let procs = try (0..<4).map { try ChildProcess(executable: exe, arguments: ["add", path, "\($0)", "150"]) }
        // While they write, this process keeps reading snapshots: within one snapshot the total
        // always equals the sum of the per-process counters (each commit updates both).
        var snapshots = 0
        while procs.contains(where: { $0.process.isRunning }) {
            let r = try store.beginRead()
            if let t = try r.tree("t") {
                let total = u64(try t.getBytes(Array("total".utf8)))
                let sum = try (0..<4).reduce(UInt64(0)) { $0 + u64(try t.getBytes(Array("p\($1)".utf8))) }
                XCTAssertEqual(total, sum, "inconsistent snapshot at version \(r.version)")
                snapshots += 1
            }
            r.end()
            usleep(2000)
        }
        for p in procs { p.process.waitUntilExit(); XCTAssertEqual(p.process.terminationStatus, 0) }
        let r = try store.beginRead()
        let t = try XCTUnwrap(try r.tree("t"))
        XCTAssertEqual(u64(try t.getBytes(Array("total".utf8))), 600)
        for i in 0..<4 { XCTAssertEqual(u64(try t.getBytes(Array("p\(i)".utf8))), 150) }
        XCTAssertEqual(r.version, 601)
        XCTAssertGreaterThan(snapshots, 0)
        r.end()
        assertSound(store)
    }

    func testKilledReaderSlotIsClearedAndSpaceReused() throws {
        _ = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("kr.strata")
        let store = try Store(path: path)
        var w = try store.beginWrite()
        try w.tree("t", create: true)!.put(Array("v".utf8), bytes: [UInt8](repeating: 1, count: 50_000))
        try w.commit()
        let reader = try ChildProcess(executable: exe, arguments: ["reader", path, "pinning reader"])
        XCTAssertNotNil(reader.waitForLine { $0.hasPrefix("pinned") })
        for i in 0..<20 {
            w = try store.beginWrite()
            try w.tree("t")!.put(Array("v".utf8), bytes: [UInt8](repeating: UInt8(i), count: 50_000))
            try w.commit()
        }
        var s = try store.spaceStatistics()
        let info = try XCTUnwrap(s.readers.first { $0.label == "pinning reader" })
        XCTAssertEqual(info.pid, reader.process.processIdentifier)
        XCTAssertTrue(info.isAlive)
        XCTAssertEqual(info.version, 2)
        XCTAssertGreaterThanOrEqual(s.lockedBytes, 50_000)
        let grownTo = s.logicalBytes
        reader.kill9()
        // The dead reader is shown as dead until a writer clears it.
        XCTAssertEqual(store.readers().first { $0.label == "pinning reader" }?.isAlive, false)
        for i in 0..<20 {
            w = try store.beginWrite()
            try w.tree("t")!.put(Array("v".utf8), bytes: [UInt8](repeating: UInt8(i), count: 50_000))
            try w.commit()
        }
        s = try store.spaceStatistics()
        XCTAssertNil(s.readers.first { $0.label == "pinning reader" })
        XCTAssertEqual(s.lockedBytes, 0)
        XCTAssertLessThanOrEqual(s.logicalBytes, grownTo, "space pinned by the dead reader was reused")
        assertSound(store)
    }

    func testCommitObserverInAnotherProcessSeesEveryCommit() throws {
        _ = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("n.strata")
        let store = try Store(path: path)
        final class Box: @unchecked Sendable {
            let lock = NSLock(); var seen: [(UInt64, Date)] = []
        }
        let box = Box()
        let token = store.addCommitObserver { v in box.lock.lock(); box.seen.append((v, Date())); box.lock.unlock() }
        defer { store.removeCommitObserver(token) }
        let child = try ChildProcess(executable: exe, arguments: ["churn", path, "1"])
        var latencies: [Double] = []
        for _ in 0..<20 {
            guard let line = child.waitForLine(timeout: 10, { $0.hasPrefix("committed") && !child.lines.dropLast().contains($0) }) else { break }
            let ackTime = Date()
            let v = UInt64(line.split(separator: " ")[1])!
            // The observer sees v (or later) eventually: a generous deadline, no timing claim
            // (a loaded machine may take long; a missing wake-up never arrives).
            let deadline = ackTime.addingTimeInterval(20)
            var seenAt: Date? = nil
            while Date() < deadline {
                box.lock.lock(); seenAt = box.seen.first { $0.0 >= v }?.1; box.lock.unlock()
                if seenAt != nil { break }
                usleep(500)
            }
            XCTAssertNotNil(seenAt, "version \(v) never observed")
            if let s = seenAt { latencies.append(max(0, s.timeIntervalSince(ackTime))) }
            child.lines.removeAll()
        }
        child.kill9()
        XCTAssertGreaterThan(latencies.count, 10)
        if !latencies.isEmpty { print("commit observer latency (informational): median \(latencies.sorted()[latencies.count / 2] * 1000) ms") }
    }
}
