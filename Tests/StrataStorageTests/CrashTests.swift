import XCTest
import Foundation
@testable import StrataStorage

/// A writer process is killed with SIGKILL at random moments, many times. Every reopen must
/// pass the integrity check and hold exactly the state after some commit n, where n is at least
/// the last acknowledged commit (and at most one more: the commit in flight).
final class CrashTests: XCTestCase {
    func churnValue(_ i: Int) -> [UInt8] {
        let len = (i * 7919) % 3000
        return (0..<len).map { UInt8(truncatingIfNeeded: $0 &+ i) }
    }

    func testKilledWriterLeavesACommittedPrefix() throws {
        let dir = TempDir()
        let path = dir.path("crash.strata")
        let exe = productsDirectory.appendingPathComponent("StrataTestWriter")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: exe.path), "StrataTestWriter not built")
        var rng = SplitMix64(seed: 42)
        let rounds = ProcessInfo.processInfo.environment["STRATA_CRASH_ROUNDS"].flatMap(Int.init) ?? 60
        var lastAcked = 0
        for round in 0..<rounds {
            let child = try ChildProcess(executable: exe, arguments: ["churn", path, "\(round)"])
            // Let it commit a little, then kill at a random moment.
            _ = child.waitForLine { $0.hasPrefix("committed") }
            usleep(useconds_t(rng.next() % 30_000))
            child.kill9()
            let acked = child.lines.compactMap { l -> Int? in
                let parts = l.split(separator: " "); return parts.count == 3 ? Int(parts[2]) : nil
            }.max() ?? lastAcked
            XCTAssertGreaterThanOrEqual(acked, lastAcked)
            // Reopen and verify.
            let store = try Store(path: path)
            let report = try store.check()
            XCTAssertTrue(report.isSound, "round \(round): \(report.problems.prefix(3))")
            let r = try store.beginRead()
            let t = try XCTUnwrap(try r.tree("t"))
            let counterBytes = try XCTUnwrap(try t.getBytes(Array("counter".utf8)))
            let n = Int(counterBytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
            XCTAssertTrue(n == acked || n == acked + 1, "round \(round): file holds commit \(n), last acknowledged \(acked)")
            var expected = Set((max(1, n - 49)...n).map { "n\($0)" })
            expected.insert("counter")
            let keys = Set(try t.entries().map { String(decoding: $0.key, as: UTF8.self) })
            XCTAssertEqual(keys, expected, "round \(round)")
            for i in max(1, n - 49)...n { XCTAssertEqual(try t.getBytes(Array("n\(i)".utf8)), churnValue(i)) }
            lastAcked = n
            r.end()
            store.close()
        }
        XCTAssertGreaterThan(lastAcked, rounds, "the writer made progress")
    }
}
