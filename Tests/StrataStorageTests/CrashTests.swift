import XCTest
import Foundation
@testable import StrataStorage

/// A writer process is killed with SIGKILL at random moments, many times. Every reopen must
/// pass the integrity check and hold exactly the state after some commit n, where n is at least
/// the last acknowledged commit (and at most one more: the commit in flight).
///
/// SIGKILL keeps the page cache: what a killed process wrote stays in the file. So these loops
/// test atomicity (a commit cut off anywhere leaves the previous version or the new one, never
/// a mix); the power-loss tests (FaultInjectionTests, EncryptionTests) are the durability proof.
final class CrashTests: XCTestCase {
    func testKilledWriterLeavesACommittedPrefix() throws {
        try runChurnCrashLoop(mode: "churn", options: StoreOptions(), defaultRounds: 60, seed: 42)
    }
}

extension XCTestCase {
    /// Kills a `StrataTestWriter` churn child with SIGKILL at random moments, `rounds` times; each
    /// reopen must pass the integrity check and hold exactly the state after commit n, with n the
    /// last acknowledged commit or the one in flight. Shared by the plain and encrypted tests.
    func runChurnCrashLoop(mode: String, options: StoreOptions, defaultRounds: Int, seed: UInt64,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = TempDir()
        let path = dir.path("crash.strata")
        let exe = try requireTestWriter()
        var rng = SplitMix64(seed: seed)
        let rounds = ProcessInfo.processInfo.environment["STRATA_CRASH_ROUNDS"].flatMap(Int.init) ?? defaultRounds
        var lastAcked = 0
        var killedInsideCommit = 0
        for round in 0..<rounds {
            let child = try ChildProcess(executable: exe, arguments: [mode, path, "\(round)"])
            // Let it commit a little, then kill at a random moment.
            _ = child.waitForLine { $0.hasPrefix("committed") }
            usleep(useconds_t(rng.next() % 30_000))
            child.kill9()
            // The child must have died of the kill (a writer that stopped on an error would
            // leave a "committed prefix" trivially), and count the kills that cut a commit.
            XCTAssertTrue(child.diedOfSIGKILL, "round \(round): the writer ended by \(child.process.terminationReason == .exit ? "exit" : "signal") \(child.process.terminationStatus), not SIGKILL (seed \(seed))", file: file, line: line)
            if child.killedInsideCommit { killedInsideCommit += 1 }
            let acked = child.lines.compactMap { l -> Int? in
                let parts = l.split(separator: " "); return parts.count == 3 ? Int(parts[2]) : nil
            }.max() ?? lastAcked
            XCTAssertGreaterThanOrEqual(acked, lastAcked, file: file, line: line)
            let store = try Store(path: path, options: options)
            let report = try store.check()
            XCTAssertTrue(report.isSound, "round \(round): \(report.problems.prefix(3))", file: file, line: line)
            let r = try store.beginRead()
            let t = try XCTUnwrap(try r.tree("t"), file: file, line: line)
            let counterBytes = try XCTUnwrap(try t.getBytes(Array("counter".utf8)), file: file, line: line)
            let n = Int(counterBytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
            XCTAssertTrue(n == acked || n == acked + 1, "round \(round): file holds commit \(n), last acknowledged \(acked)", file: file, line: line)
            var expected = Set((max(1, n - 49)...n).map { "n\($0)" })
            expected.insert("counter")
            let keys = Set(try t.entries().map { String(decoding: $0.key, as: UTF8.self) })
            XCTAssertEqual(keys, expected, "round \(round)", file: file, line: line)
            for i in max(1, n - 49)...n {
                XCTAssertEqual(try t.getBytes(Array("n\(i)".utf8)), churnValue(i), file: file, line: line)
            }
            lastAcked = n
            r.end()
            store.close()
        }
        XCTAssertGreaterThan(lastAcked, rounds, "the writer made progress", file: file, line: line)
        XCTAssertGreaterThan(killedInsideCommit, 0, "no kill landed between 'begin n' and 'committed n' in \(rounds) rounds (seed \(seed))", file: file, line: line)
        print("\(mode): \(rounds) rounds, \(killedInsideCommit) kills inside a commit")
    }
}

/// The value `StrataTestWriter churn` stores under key "n<i>" (keep in step with its `churnValue`).
func churnValue(_ i: Int) -> [UInt8] {
    let len = (i * 7919) % 3000
    return (0..<len).map { UInt8(truncatingIfNeeded: $0 &+ i) }
}
