import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The root command in-process (captured output): unknown subcommands, paths that are not
/// database files, key files.
final class StrataCommandTests: CLITestCase {
    func testUnknownSubcommandSuggestsTheNearest() {
        for (args, suggestion) in [(["infoo", "db.strata"], "info"), (["chek", "x"], "check"), (["exprt", "a", "--class", "C"], "export"), (["infoo"], "info")] {
            let r = runInProcess(args)
            XCTAssertEqual(r.code, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("unknown subcommand '\(args[0])' (did you mean '\(suggestion)'?)"), "\(args): \(r.stderr)")
        }
        let far = runInProcess(["zzzzzzzz", "db"])
        XCTAssertEqual(far.code, 2)
        XCTAssertTrue(far.stderr.contains("unknown subcommand 'zzzzzzzz'"), far.stderr)
        XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
    }

    func testASymlinkLoopIsNamedAsSuch() throws {
        XCTAssertEqual(symlink(path("b"), path("a")), 0)
        XCTAssertEqual(symlink(path("a"), path("b")), 0)
        let r = runInProcess(["info", path("a")])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("too many levels of symbolic links"), r.stderr)
        XCTAssertFalse(r.stderr.contains("no such file"), r.stderr)
    }

    /// A FIFO as the database is refused at once (opening it would block forever).
    func testAFIFOIsNotOpenedAsADatabase() throws {
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        let r = runInProcess(["info", path("fifo")])
        XCTAssertEqual(r.code, 3)
        XCTAssertTrue(r.stderr.contains("not a regular file"), r.stderr)
    }

    func testAKeyFileWithOneBadCharacterNamesIt() throws {
        let file = try makeDemo()
        var hex = String(repeating: "ab", count: 64)
        hex.replaceSubrange(hex.index(hex.startIndex, offsetBy: 40)...hex.index(hex.startIndex, offsetBy: 40), with: "g")
        let key = try write(hex + "\n", to: "key.hex")
        let r = runInProcess(["info", file, "--encryption-key-file", key])
        XCTAssertEqual(r.code, 6)
        XCTAssertTrue(r.stderr.contains("character 41") && r.stderr.contains("\"g\""), r.stderr)
        XCTAssertFalse(r.stderr.contains("129 bytes"), r.stderr)
        let short = runInProcess(["info", file, "--encryption-key-file", try write(String(repeating: "ab", count: 30), to: "short.hex")])
        XCTAssertEqual(short.code, 6)
        XCTAssertTrue(short.stderr.contains("60 hex digits"), short.stderr)
    }

    /// Each read-only report fails with exit 7 when its output cannot be written.
    func testReportsExit7WhenTheOutputCannotBeWritten() throws {
        let file = try makeDemo()
        for command in [["info"], ["check"], ["schema"], ["versions"], ["space"], ["info", "--json"], ["schema", "--swift"],
                        ["query", "--json"], ["export"]] {
            var args = [command[0], file] + command.dropFirst()
            if command[0] == "query" { args.insert(contentsOf: ["Person", "TRUEPREDICATE"], at: 2) }
            let r = try runShell("", args, redirect: "> /dev/full")
            XCTAssertEqual(r.code, 7, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("No space left on device"), "\(command): \(r.stderr)")
        }
    }

    func testNegativeLimitsAreRefused() throws {
        let file = try makeDemo()
        for args in [["versions", file, "--limit=-1"], ["query", file, "Person", "TRUEPREDICATE", "--limit=-1"]] {
            let r = runInProcess(args)
            XCTAssertEqual(r.code, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--limit must be zero or more"), r.stderr)
        }
        let zero = runInProcess(["query", file, "Person", "TRUEPREDICATE", "--limit", "0"])
        XCTAssertEqual(zero.code, 0, zero.stderr)
        XCTAssertTrue(zero.stdout.contains("(0 objects)"), zero.stdout)
    }

    /// A negative number written as its own argument (`--limit -1`) is the option's value, and
    /// gets the option's own message (it was "Missing value for '--limit <limit>'").
    func testNegativeNumbersAsSeparateArgumentsReachTheirChecks() throws {
        let file = try makeDemo()
        let cases: [([String], String)] = [
            (["versions", file, "--limit", "-1"], "--limit must be zero or more"),
            (["query", file, "Person", "TRUEPREDICATE", "--limit", "-1"], "--limit must be zero or more"),
            (["demo", path("n.strata"), "--objects", "-5"], "--objects must not be negative"),
            (["demo", path("n.strata"), "--rate", "-1"], "--rate must be a positive number"),
            (["demo", path("n.strata"), "--seconds", "-1"], "--seconds must be a number of seconds"),
            (["bench", "--notify-changes", "-1"], "--notify-changes must be zero or more"),
            (["bench", "--objects", "-5"], "objects must be at least 10"),
            (["bench", "--commits", "-1"], "commits must be at least 1 (it is -1)"),
            (["bench", "--lookups", "-1"], "lookups must be at least 1 (it is -1)"),
            // No commits or lookups timed: their ratios would compare nothing (they printed 4.02, NO).
            (["bench", "--commits", "0"], "commits must be at least 1 (it is 0)"),
            (["bench", "--lookups", "0"], "lookups must be at least 1 (it is 0)"),
            (["bench", "--repetitions", "-1"], "repetitions must be at least 1"),
        ]
        for (args, message) in cases {
            let r = try StrataCLI.run(args)
            XCTAssertEqual(r.code, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("Missing value"), "\(args): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("n.strata")))
        // A value is still required.
        let missing = try StrataCLI.run(["versions", file, "--limit"])
        XCTAssertEqual(missing.code, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("Missing value for '--limit"), missing.stderr)
        let two = try StrataCLI.run(["versions", file, "--limit", "2"])
        XCTAssertEqual(two.code, 0, two.stderr)
    }
}
