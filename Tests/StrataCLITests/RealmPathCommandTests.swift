import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Paths named `.realm` that are not Realm files, and new files named `.realm`.
final class RealmPathCommandTests: CLITestCase {
    /// Runs `strata args…`; a command still running after `seconds` is killed and fails the test.
    func runWithin(_ seconds: TimeInterval, _ args: [String], line: UInt = #line) throws -> (code: Int32, stderr: String) {
        let p = Process()
        p.executableURL = StrataCLI.binary
        p.arguments = args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            XCTFail("\(args) still ran after \(seconds) s", line: line)
            return (-1, "")
        }
        return (p.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// A FIFO named `.realm` went to the Realm reader, whose open waited for a writer forever;
    /// it is refused at once as a Strata path is, and a missing path or a directory named
    /// `.realm` is said as such (not "cannot open X: No such file or directory").
    func testAFIFOMissingFileOrDirectoryNamedRealmIsRefusedAtOnce() throws {
        let fifo = path("pipe.realm")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for command in ["info", "schema", "space", "check", "export"] {
            let r = try runWithin(30, [command, fifo])
            XCTAssertEqual(r.code, 3, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("pipe.realm is not a regular file (a FIFO, socket or device), not a Realm file"), r.stderr)
        }
        let query = try runWithin(30, ["query", fifo, "Item", "TRUEPREDICATE"])
        XCTAssertEqual(query.code, 3, query.stderr)

        let missing = try StrataCLI.run(["info", path("missing.realm")])
        XCTAssertEqual(missing.code, 3, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("missing.realm: no such file; check the path"), missing.stderr)
        XCTAssertFalse(missing.stderr.contains("demo"), "no demo database is made at a .realm name: \(missing.stderr)")

        try FileManager.default.createDirectory(atPath: path("folder.realm"), withIntermediateDirectories: false)
        let folder = try StrataCLI.run(["schema", path("folder.realm")])
        XCTAssertEqual(folder.code, 3, folder.stderr)
        XCTAssertTrue(folder.stderr.contains("folder.realm is a directory, not a Realm file"), folder.stderr)
    }

    /// `demo x.realm`, `convert a.realm b.realm`, `copy db b.realm` and `import --create
    /// new.realm` made Strata databases that no command could open again (a `.realm` name is
    /// read as a Realm file: "is a Strata database, not a Realm file"); copy and import said the
    /// new path was "a Realm file opened read-only". They are refused before anything is made.
    func testNoStrataDatabaseIsCreatedUnderARealmName() throws {
        let source = try makeDemo(events: 100)
        let realm = path("history.realm")
        try FileManager.default.copyItem(atPath: RealmFileCommandTests.fixtures.appendingPathComponent("history.realm").path, toPath: realm)
        let rows = try write(#"[{"a": 1}]"#, to: "rows.json")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        for args in [["demo", path("new.realm"), "--objects", "10"], ["convert", realm, path("new.realm")],
                     ["copy", source, path("new.realm")], ["import", path("new.realm"), "--class", "X", rows, "--create"]] {
            let r = try StrataCLI.run(args)
            XCTAssertEqual(r.code, 5, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("new.realm: a .realm name is read as a Realm file, and strata writes Strata databases; name the new file \(path("new")).strata instead"), r.stderr)
            XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)), before, "\(args): nothing made")
        }
        // The .strata name it suggests works.
        XCTAssertEqual(try StrataCLI.run(["convert", realm, path("new.strata")]).code, 0)
        // An existing Realm file as copy's destination: never overwritten, said so.
        let copy = try StrataCLI.run(["copy", source, realm])
        XCTAssertEqual(copy.code, 5, copy.stderr)
        XCTAssertTrue(copy.stderr.contains("already exists; copy never overwrites a file"), copy.stderr)
    }
}
