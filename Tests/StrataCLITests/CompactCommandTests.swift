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

    /// The tail that file growth preallocated (as much again as the file, up to 8 MiB, after a small commit on a compacted file)
    /// is what `space` promises; online compaction gives it back even when no block has to move
    /// (it gave back 0 B).
    func testOnlineCompactionGivesBackTheGrowthTailThatSpacePromises() throws {
        let file = try makeDemo(events: 2000)
        XCTAssertEqual(try StrataCLI.run(["compact", file]).code, 0)
        let compacted = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let input = try write("[{\"name\": \"x\", \"country\": \"y\"}]", to: "c.json")
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "Company", input]).code, 0)
        let grown = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertGreaterThanOrEqual(grown - compacted, 1 << 19, "the commit preallocated a growth tail")
        let space = try StrataCLI.run(["space", file, "--json"])
        let promised = try XCTUnwrap(space.object["totalBytes"] as? Int) - (try XCTUnwrap(space.object["compactedBytes"] as? Int))
        XCTAssertGreaterThanOrEqual(promised, 1 << 19, space.stdout)
        let online = try StrataCLI.run(["compact", file, "--online", "--json"])
        XCTAssertEqual(online.code, 0, online.stderr)
        let after = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertEqual(online.object["afterBytes"] as? Int, after)
        XCTAssertLessThan(after, compacted + (64 << 10), online.stdout)
        XCTAssertGreaterThanOrEqual(grown - after, promised - (64 << 10), "online compaction gives back what space promised")
        XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0)
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "Company", input]).code, 0, "the file grows again as usual")
        XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0)
    }
}
