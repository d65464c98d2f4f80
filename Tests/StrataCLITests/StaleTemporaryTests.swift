import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A command killed with SIGKILL (no handler runs) leaves its temporary beside the destination.
/// Export's was `.NAME.XXXXXX`, which nothing could tell from another export's, so every killed
/// export left one more; its name now carries the writer's pid, and the next export (copy's
/// salvage database, the demo's hidden database) to the same destination removes those whose
/// writer no longer runs, and only those.
final class StaleTemporaryTests: CLITestCase {
    func names() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []) }

    /// The pid of a process that has ended (and been reaped).
    func deadPid() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        let pid = p.processIdentifier
        XCTAssertEqual(kill(pid, 0), -1)
        return pid
    }

    /// A child that has ended and is not reaped yet (a zombie: `kill(pid, 0)` still finds it);
    /// `waitpid` it afterwards.
    func zombiePid() throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&pid, "/bin/true", nil, nil, argv, nil), 0)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), stat.contains(") Z ") { break }
            usleep(1000)
        }
        XCTAssertEqual(kill(pid, 0), 0, "a zombie still answers kill(pid, 0)")
        return pid
    }

    func touch(_ name: String) throws { try Data("partial".utf8).write(to: dir.appendingPathComponent(name)) }

    func testAKilledExportsTemporaryIsRemovedByTheNextExport() throws {
        let file = try makeDemo(events: 100_000)
        let output = path("out.json")
        var killed = false
        // A real SIGKILL while the temporary is being written.
        func temporaries() -> [String] { names().filter { $0.hasPrefix(".out.json.export-") } }
        killed = try interrupt(["export", file, "--output", output], signal: SIGKILL, settle: 0, when: { !temporaries().isEmpty })
        if killed {
            XCTAssertEqual(temporaries().count, 1, "SIGKILL leaves the temporary: \(names())")
            XCTAssertFalse(names().contains("out.json"))
        }
        // Made by hand as well: a dead writer's (removed), a running one's (this test's: kept),
        // and names strata cannot prove its own (kept).
        let dead = try deadPid()
        let zombie = try zombiePid()
        defer { var status: Int32 = 0; waitpid(zombie, &status, 0) }
        let mine = getpid()
        let kept: Set = [".out.json.export-\(mine)-AbC123", ".out.json.ABCDEF", ".out.json.export-\(dead)-toolong1",
                         ".out.json.export-\(dead)", ".other.json.export-\(dead)-abcdef", "out.json.export-\(dead)-abcdef"]
        for name in kept.union([".out.json.export-\(dead)-abcdef", ".out.json.export-\(zombie)-x1Y2z3"]) { try touch(name) }
        let before = names()
        let r = try StrataCLI.run(["export", file, "--class", "Company", "--output", output])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(temporaries().allSatisfy { kept.contains($0) }, "\(names())")
        XCTAssertEqual(names(), before.filter { !$0.hasPrefix(".out.json.export-") || kept.contains($0) }.union(["out.json"]))
        XCTAssertTrue(kept.isSubset(of: names()))
    }

    func testAKilledSalvageCopyAndDemoBuildAreRemovedByTheNextOne() throws {
        let dead = try deadPid()
        let file = try makeDemo()
        let stale = ["copy.strata.salvage-\(dead)", "copy.strata.salvage-\(dead).lock", ".new.strata.demo-tmp-\(dead)", ".new.strata.demo-tmp-\(dead).lock"]
        let kept = ["copy.strata.salvage-\(getpid())", "copy.strata.salvage-\(dead).bak", ".new.strata.demo-tmp-\(getpid()).lock"]
        for name in stale + kept { try touch(name) }
        XCTAssertEqual(try StrataCLI.run(["copy", file, path("copy.strata")]).code, 0)
        XCTAssertEqual(try StrataCLI.run(["demo", path("new.strata"), "--objects", "100"]).code, 0)
        for name in stale { XCTAssertFalse(names().contains(name), "\(name) is removed") }
        for name in kept { XCTAssertTrue(names().contains(name), "\(name) is kept") }
    }
}
