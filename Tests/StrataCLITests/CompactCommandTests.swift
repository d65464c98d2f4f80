import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata compact` as a process.
final class CompactCommandTests: CLITestCase {
    func testCompactFullThenOnline() throws {
        let file = try makeDemo(events: 2000)
        let compact = try StrataCLI.run(["compact", file, "--json"])
        XCTAssertEqual(compact.code, 0, compact.stderr)
        XCTAssertEqual(compact.object["mode"] as? String, "full")
        XCTAssertLessThan(compact.object["afterBytes"] as! Int, compact.object["beforeBytes"] as! Int)
        let phases = try XCTUnwrap(compact.object["phases"] as? [String: Any], "the JSON names where a full compaction's time went")
        for key in ["copySeconds", "syncSeconds", "replaceSeconds"] { XCTAssertNotNil(phases[key] as? Double, key) }
        XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0)
        let online = try StrataCLI.run(["compact", file, "--online"])
        XCTAssertEqual(online.code, 0, online.stderr)
        XCTAssertTrue(online.stdout.contains("online"))
        let full = try StrataCLI.run(["compact", file])
        XCTAssertEqual(full.code, 0, full.stderr)
        XCTAssertTrue(full.stdout.contains("  copy ") && full.stdout.contains(", sync ") && full.stdout.contains("rename and switch"), full.stdout)
    }

    func testCompactFallsBackToOnlineWhenAnotherProcessHasTheFileOpen() throws {
        let file = try makeDemo(events: 2000)
        let churn = Process()
        churn.executableURL = StrataCLI.binary
        churn.arguments = ["demo", file, "--churn", "--rate", "20", "--seconds", "30"]
        let out = Pipe()
        churn.standardOutput = out
        churn.standardError = FileHandle.nullDevice
        try churn.run()
        defer { churn.terminate(); churn.waitUntilExit() }
        _ = out.fileHandleForReading.availableData  // the first commit
        let r = try StrataCLI.run(["compact", file, "--json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.object["mode"] as? String, "online")
        XCTAssertEqual(r.object["fallback"] as? Bool, true)
        XCTAssertTrue(r.stderr.contains("compacting online instead"), r.stderr)
    }
}
