import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// Compaction with other processes: refused while another process has the file open; online
/// compaction while a child keeps writing; a compacting child killed with SIGKILL at random
/// moments never leaves a broken file or loses an acknowledged commit.
final class CompactionProcessTests: XCTestCase {
    var exe: URL { productsDirectory.appendingPathComponent("StrataTestWriter") }

    /// Checks the churn tree "t" holds exactly the state after commit n, and returns n.
    func verifyChurn(_ store: Store, context: String) throws -> Int {
        let r = try store.beginRead()
        defer { r.end() }
        guard let t = try r.tree("t") else { return 0 }
        let counter = try XCTUnwrap(try t.getBytes(Array("counter".utf8)), context)
        let n = Int(counter.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        var expected = Set((max(1, n - 49)...max(1, n)).map { "n\($0)" })
        expected.insert("counter")
        XCTAssertEqual(Set(try t.entries().map { String(decoding: $0.key, as: UTF8.self) }), expected, context)
        for i in max(1, n - 49)...max(1, n) { XCTAssertEqual(try t.getBytes(Array("n\(i)".utf8)), churnValue(i), context) }
        return n
    }

    func testCompactRefusedWhileAnotherProcessHasTheFileOpen() throws {
        _ = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("busy.strata")
        let store = try Store(path: path, options: storeOptions())
        try populate(store, count: 1000)
        let child = try ChildProcess(executable: exe, arguments: ["reader", path, "other process"])
        XCTAssertNotNil(child.waitForLine { $0.hasPrefix("pinned") })
        XCTAssertThrowsError(try store.compact()) { error in
            guard case StorageError.fileInUse(_, let pids, _)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertEqual(pids, [child.process.processIdentifier])
            XCTAssertTrue("\(error)".contains("process \(child.process.processIdentifier)"))
        }
        child.kill9()
        let result = try store.compact()
        XCTAssertLessThanOrEqual(result.afterBytes, result.beforeBytes)
        assertSound(store)
    }

    func testOnlineCompactionWhileAnotherProcessKeepsWriting() throws {
        _ = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("live.strata")
        let store = try Store(path: path, options: storeOptions())
        try populate(store, count: 6000)
        try deleteWhere(store, count: 6000) { ($0 / 40) % 4 != 0 }
        let expected = try logicalContent(store)
        let child = try ChildProcess(executable: exe, arguments: ["churn", path, "7"])
        XCTAssertNotNil(child.waitForLine { $0.hasPrefix("committed") })
        XCTAssertThrowsError(try store.compact(), "a full compaction is refused")
        let before = try store.fileSize()
        // Commits during the compaction are those whose version lies between the versions the
        // file had when it started and when it ended (not lines counted before it started).
        let startVersion = try store.newestMeta().version
        let result = try store.compactOnline()
        let endVersion = try store.newestMeta().version
        func childVersions() -> [UInt64] {
            child.lines.compactMap { l -> UInt64? in
                let p = l.split(separator: " "); return p.count == 3 && p[0] == "committed" ? UInt64(p[1]) : nil
            }
        }
        // Wait until the child acknowledged a version past the end, so every commit it made in
        // the interval has been reported.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && !childVersions().contains(where: { $0 > endVersion }) { child.poll(timeout: 0.05) }
        let ackedDuring = childVersions().filter { $0 > startVersion && $0 < endVersion }.count
        // Both processes see consistent data meanwhile.
        let n1 = try verifyChurn(store, context: "during")
        XCTAssertGreaterThan(n1, 0)
        child.kill9()
        XCTAssertGreaterThan(ackedDuring, 0, "the other process committed between versions \(startVersion) and \(endVersion) (the online compaction)")
        XCTAssertLessThan(result.afterBytes, before, "\(result)")
        var now = try logicalContent(store)
        now["t"] = nil
        XCTAssertEqual(now, expected)
        _ = try verifyChurn(store, context: "after")
        assertSound(store)
    }

    /// SIGKILL while a child runs `compact()` (or `compactOnline()`) in a loop between churn
    /// commits: every reopen passes the integrity check, holds every acknowledged commit, keeps
    /// the other data intact, and leaves no temporary file behind after open.
    func crashRounds(mode: String, rounds defaultRounds: Int, seed: UInt64) throws {
        _ = try requireTestWriter()
        let dir = TempDir()
        let path = dir.path("crash-\(mode).strata")
        do {
            let store = try Store(path: path, options: storeOptions())
            try populate(store, count: 3000)
            try deleteWhere(store, count: 3000) { $0 % 3 == 0 }
        }
        let expected = try logicalContent(try Store(path: path, options: storeOptions()))
        var rng = SplitMix64(seed: seed)
        let rounds = ProcessInfo.processInfo.environment["STRATA_CRASH_ROUNDS"].flatMap(Int.init) ?? defaultRounds
        var lastAcked = 0
        var compactionsSeen = 0
        var killedMidCopy = 0
        var killedInsideCommit = 0
        for round in 0..<rounds {
            let child = try ChildProcess(executable: exe, arguments: [mode, path])
            _ = child.waitForLine { $0.hasPrefix("committed") }
            // Every other round waits for a finished compaction first, so the kills also land
            // after (and between) compactions however slow the machine is.
            if round % 2 == 1 { _ = child.waitForLine(timeout: 30) { $0.hasPrefix("compacted") } }
            usleep(useconds_t(rng.next() % 150_000))
            child.kill9()
            // SIGKILL keeps the page cache: this tests atomicity; the power-loss tests are the
            // durability proof. The child must have died of the kill, not of an error.
            XCTAssertTrue(child.diedOfSIGKILL, "round \(round): the child ended with status \(child.process.terminationStatus), not by SIGKILL (seed \(seed))")
            if child.killedInsideCommit { killedInsideCommit += 1 }
            compactionsSeen += child.lines.filter { $0.hasPrefix("compacted") }.count
            let acked = child.lines.compactMap { l -> Int? in
                let p = l.split(separator: " "); return p.count == 3 && p[0] == "committed" ? Int(p[2]) : nil
            }.max() ?? lastAcked
            if FileManager.default.fileExists(atPath: path + ".compact-tmp") { killedMidCopy += 1 }
            let store = try Store(path: path, options: storeOptions())
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".compact-tmp"), "round \(round)")
            let report = try store.check()
            XCTAssertTrue(report.isSound, "round \(round): \(report.problems.prefix(3))")
            let n = try verifyChurn(store, context: "round \(round)")
            XCTAssertTrue(n == acked || n == acked + 1, "round \(round): file holds commit \(n), last acknowledged \(acked)")
            var content = try logicalContent(store)
            content["t"] = nil
            content["junk"] = nil
            XCTAssertEqual(content, expected, "round \(round)")
            lastAcked = n
            store.close()
        }
        XCTAssertGreaterThan(compactionsSeen, 0, "some compactions completed")
        print("\(mode): \(rounds) rounds, \(compactionsSeen) compactions acknowledged, \(killedMidCopy) kills while the copy was being written, \(killedInsideCommit) inside a commit")
        XCTAssertGreaterThan(killedInsideCommit, 0, "no kill landed between 'begin n' and 'committed n' (seed \(seed))")
        if mode == "compact" { XCTAssertGreaterThan(killedMidCopy, 0, "some kills landed while the compacted copy was being written") }
    }

    func testKilledDuringFullCompactionLeavesOriginalOrCompactedFile() throws {
        try crashRounds(mode: "compact", rounds: 30, seed: 7)
    }

    func testKilledDuringOnlineCompactionLeavesACommittedPrefix() throws {
        try crashRounds(mode: "compact-online", rounds: 30, seed: 11)
    }
}
