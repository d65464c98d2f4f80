import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Files a command must refuse, and how: the right exit code, a message that says what to do,
/// and nothing written — no lock file beside a file that is not a database, no database made of
/// an empty file, no directory created, no byte of a damaged file rewritten.
final class FileRefusalCommandTests: CLITestCase {
    static let realmFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("StrataRealmTests/Fixtures")

    /// Runs `strata args…` as a user file modes apply to: as nobody (setpriv) when the test runs
    /// as root, which ignores them; stderr only.
    private func runAsNobody(_ args: [String], in directory: URL? = nil) throws -> StrataCLI.Result {
        guard getuid() == 0 else { return try StrataCLI.run(args, in: directory) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("running as root without setpriv") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", StrataCLI.binary.path] + args
        if let directory { process.currentDirectoryURL = directory }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return StrataCLI.Result(code: process.terminationStatus, stdout: "", stderr: String(decoding: data, as: UTF8.self))
    }

    private func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }
    private func bytes(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file)) }

    func testEmptyAndForeignFilesAreRefusedWithoutWritingAnything() throws {
        let empty = path("empty.strata")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        let text = try write(String(repeating: "not a database\n", count: 1000), to: "notes.txt")
        let before = try listing()
        for file in [empty, text] {
            for args in [["compact", file], ["compact", "--online", file], ["import", file, "--class", "X", "-"]] {
                let r = try StrataCLI.run(args, input: Data(#"[{"a": 1}]"#.utf8))
                XCTAssertEqual(r.code, 3, "\(args): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("not a Strata database"), r.stderr)
            }
        }
        XCTAssertEqual(try listing(), before, "no lock file, no temporary")
        XCTAssertEqual(try bytes(empty).count, 0, "the empty file stays empty")
    }

    func testOnlineCompactionOfADamagedFileLeavesEveryByte() throws {
        let file = try damagedDemo()
        let before = try bytes(file)
        let r = try StrataCLI.run(["compact", "--online", file])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("fails its checksum") && r.stderr.contains("compaction refused"), r.stderr)
        XCTAssertEqual(try bytes(file), before)
    }

    func testCommandsRefuseANewFileInAMissingDirectory() throws {
        let demo = try makeDemo()
        let realm = path("all-types.realm")
        try FileManager.default.copyItem(atPath: Self.realmFixtures.appendingPathComponent("all-types.realm").path, toPath: realm)
        let before = try listing()
        let missing = path("missing/deeper")
        for (args, input) in [(["demo", missing + "/d.strata", "--objects", "10"], nil),
                              (["copy", demo, missing + "/c.strata"], nil),
                              (["import", missing + "/i.strata", "--create", "--class", "X", "-"], Data(#"[{"a": 1}]"#.utf8)),
                              (["convert", realm, missing + "/r.strata", "--allow-loss"], nil),
                              // export --output exited 7 ("cannot create the output file (No such file or directory)").
                              (["export", demo, "--output", missing + "/e.json"], nil)] as [([String], Data?)] {
            let r = try StrataCLI.run(args, input: input)
            XCTAssertEqual(r.code, 3, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("no such directory; create it first"), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try listing(), before, "no directory or file was created")
    }

    /// An empty path for a new file named the current directory: `copy SRC ''` wrote the whole
    /// copy before its link failed (exit 7), `export --output ''` tried to replace the directory.
    /// Both are a bad command line (exit 2), refused before any work.
    func testAnEmptyPathForANewFileIsRefused() throws {
        let demo = try makeDemo()
        let before = try listing()
        for args in [["copy", demo, ""], ["export", demo, "--output", ""], ["demo", ""], ["import", "", "--class", "X", "-", "--create"]] {
            let r = try StrataCLI.run(args, input: Data(#"[{"a": 1}]"#.utf8), in: dir)
            XCTAssertEqual(r.code, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("the new file's path is empty; give a file name"), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try listing(), before, "nothing was created")
    }

    /// A new file in a directory this user cannot write: exit 5 naming the directory as given
    /// (copy and export exited 7; import --create, demo and convert named a lock file and
    /// suggested --read-only for a file that does not exist), nothing created.
    func testNewFileInAnUnwritableDirectoryIsRefusedWithExit5NamingTheDirectory() throws {
        let demo = try makeDemo()
        chmod(demo, 0o644)
        let csv = try write("a\n1\n", to: "in.csv")
        let realm = path("all-types.realm")
        try FileManager.default.copyItem(atPath: RealmFileCommandTests.fixtures.appendingPathComponent("all-types.realm").path, toPath: realm)
        chmod(realm, 0o644)
        let locked = dir.appendingPathComponent("rofs")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        chmod(dir.path, 0o755)
        chmod(locked.path, 0o555)
        defer { chmod(locked.path, 0o755) }
        func run(_ args: [String]) throws -> StrataCLI.Result { try runAsNobody(args, in: dir) }
        for args in [["copy", "demo.strata", "rofs/c.strata"], ["export", "demo.strata", "--class", "Company", "--output", "rofs/e.json"],
                     ["import", "rofs/i.strata", "--class", "I", "in.csv", "--create"], ["demo", "rofs/x.strata"],
                     ["convert", "all-types.realm", "rofs/r.strata"]] {
            let r = try run(args)
            XCTAssertEqual(r.code, 5, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr, "strata: cannot create files in rofs (permission denied); choose a writable directory\n", "\(args)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked.path), [], "nothing created")
    }

    /// compact was told of the browser's `--read-only`, which it does not have: it says what it
    /// needs and where this user lacks it.
    func testNotWritableDatabaseIsRefusedWithExit5AndWhatCompactNeeds() throws {
        let demo = try makeDemo()
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        let file = locked.appendingPathComponent("d.strata").path
        try FileManager.default.copyItem(atPath: demo, toPath: file)
        chmod(file, 0o444)
        chmod(locked.path, 0o555)
        defer { chmod(locked.path, 0o755) }
        func run(_ args: [String]) throws -> StrataCLI.Result { try runAsNobody(args) }
        for args in [["compact", file], ["compact", "--online", file]] {
            let r = try run(args)
            XCTAssertEqual(r.code, 5, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("permission denied") && r.stderr.contains("strata compact writes the database, so it needs write permission on the file, its lock file (\(file).lock) and the directory (\(locked.path))")
                          && r.stderr.contains("this user lacks it on the file and the directory"), r.stderr)
            XCTAssertFalse(r.stderr.contains("--read-only"), r.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: locked.path), ["d.strata"], "no lock file")
        XCTAssertEqual(try run(["info", file]).code, 0, "reading needs no write permission")
    }

    func testRealmCompanionFilesAndWrongKindsOfFileGetClearRefusals() throws {
        let realm = path("all-types.realm")
        try FileManager.default.copyItem(atPath: Self.realmFixtures.appendingPathComponent("all-types.realm").path, toPath: realm)
        // realm-core's lock file beside it is one of the Realm file's own files.
        let lock = try write("realm-core lock", to: "all-types.realm.lock")
        let export = try StrataCLI.run(["export", realm, "--output", lock])
        XCTAssertEqual(export.code, 5, export.stderr)
        XCTAssertEqual(String(decoding: try bytes(lock), as: UTF8.self), "realm-core lock")

        let versions = try StrataCLI.run(["versions", realm])
        XCTAssertEqual(versions.code, 5, versions.stderr)
        XCTAssertTrue(versions.stderr.contains("is a Realm file") && versions.stderr.contains("strata info"), versions.stderr)

        let keyFile = try write(String(repeating: "ab", count: 64), to: "key.hex")
        let info = try StrataCLI.run(["info", realm, "--encryption-key-file", keyFile])
        XCTAssertEqual(info.code, 6, info.stderr)
        XCTAssertTrue(info.stderr.contains("not encrypted"), info.stderr)

        let demo = try makeDemo()
        let convert = try StrataCLI.run(["convert", demo, path("c.strata")])
        XCTAssertEqual(convert.code, 3, convert.stderr)
        XCTAssertTrue(convert.stderr.contains("is a Strata database, not a Realm file"), convert.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("c.strata")))
    }
}
