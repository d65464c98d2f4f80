import Foundation
import StrataStorage
import XCTest
@testable import strata
#if canImport(Glibc)
import Glibc
#endif

/// Messages that say what to do on the command line, and failures that leave nothing behind
/// (a QA pass over the CLI).
final class CLIAdviceTests: CLITestCase {
    private func listing() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }
    private func bytes(_ file: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file)) }

    /// A copy of the demo cut to `size` bytes (past both meta slots, short of the recorded size).
    private func truncatedDemo(_ name: String = "cut.strata", size: UInt64 = 20_000) throws -> String {
        let demo = try makeDemo("whole.strata")
        let file = path(name)
        try FileManager.default.copyItem(atPath: demo, toPath: file)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.truncate(atOffset: size)
        try handle.close()
        return file
    }

    /// The engine's message named its API (writeCopy); the command line names copy's option.
    func testAKeyForAnUnencryptedFileNamesCopysOptionNotTheAPI() throws {
        let file = try makeDemo()
        let key = try write(String(repeating: "ab", count: 64), to: "key.hex")
        for args in [["info", file, "--encryption-key-file", key], ["compact", file, "--encryption-key-file", key]] {
            let r = try StrataCLI.run(args)
            XCTAssertEqual(r.code, 6, "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("writeCopy"), r.stderr)
            XCTAssertTrue(r.stderr.contains("without --encryption-key-file")
                          && r.stderr.contains("strata copy \(file) NEW --output-encryption-key-file K"), r.stderr)
        }
        // API users keep the engine's wording.
        XCTAssertTrue(StorageError.notEncrypted(path: "x").description.contains("writeCopy"))
    }

    /// "wrong encryption key" alone did not say what to do.
    func testAWrongKeySaysWhichOptionGivesTheKeyAndThatTheFileIsUnchanged() throws {
        let key = try write(String(repeating: "ab", count: 64), to: "key.hex")
        let other = try write(String(repeating: "cd", count: 64), to: "other.hex")
        let file = path("enc.strata")
        XCTAssertEqual(try StrataCLI.run(["demo", file, "--objects", "30", "--encryption-key-file", key]).code, 0)
        let before = try bytes(file)
        for args in [["info", file, "--encryption-key-file", other], ["compact", file, "--encryption-key-file", other]] {
            let r = try StrataCLI.run(args)
            XCTAssertEqual(r.code, 6, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("wrong encryption key") && r.stderr.contains("the file is unchanged")
                          && r.stderr.contains("--encryption-key-file K"), r.stderr)
        }
        XCTAssertEqual(try bytes(file), before)
    }

    /// check strips its own "Run 'strata check'", and took "and restore from a copy" with it.
    func testCheckOfATruncatedFileKeepsTheRestoreAdvice() throws {
        let file = try truncatedDemo()
        let r = try StrataCLI.run(["check", file])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("corrupted") && r.stderr.contains("Restore from a copy"), r.stderr)
        XCTAssertFalse(r.stderr.contains("strata check"), r.stderr)
        XCTAssertEqual(withoutCheckAdvice("x: damaged. Run 'strata check' and restore from a copy"), "x: damaged. Restore from a copy")
        XCTAssertEqual(withoutCheckAdvice("block N fails its checksum; run 'strata check'"), "block N fails its checksum")
    }

    /// ArgumentParser's sentence ends in a period: "'csv'.; see 'strata --help'".
    func testABadOptionValueIsOneSentenceWithoutDoublePunctuation() throws {
        let file = try makeDemo()
        let r = try StrataCLI.run(["export", file, "--format", "xml"])
        XCTAssertEqual(r.code, 2, r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("'json' and 'csv'; see 'strata --help'\n"), r.stderr)
        XCTAssertEqual(appendingClause("a.", "b"), "a; b")
        XCTAssertEqual(appendingClause("a;  ", "b"), "a; b")
        XCTAssertEqual(appendingClause("a (x)", "b"), "a (x); b")
        XCTAssertEqual(appendingClause("", "b"), "b")
    }

    /// A missing or damaged database is reported before the input is read (exit 3, not the
    /// input's exit 4); with --create a missing database is made, so the input is what fails.
    func testImportChecksTheDatabaseBeforeTheInput() throws {
        let bad = try write("not json at all", to: "bad.json")
        var r = try StrataCLI.run(["import", path("missing.strata"), "--class", "X", bad])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("no such file"), r.stderr)
        let cut = try truncatedDemo()
        r = try StrataCLI.run(["import", cut, "--class", "X", bad])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("corrupted"), r.stderr)
        r = try StrataCLI.run(["import", path("new.strata"), "--class", "X", bad, "--create"])
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new.strata")))
        r = try StrataCLI.run(["import", path("missing.strata"), "--class", "X", "-"], input: Data("not json".utf8))
        XCTAssertEqual(r.code, 3, r.stderr)
    }

    /// A command that opened a file for writing and failed (truncated, damaged, wrong key) left
    /// the lock file it created beside it; one that was there before stays.
    func testAFailedCommandLeavesNoLockFileItCreated() throws {
        let cut = try truncatedDemo()
        let damaged = try damagedDemo()
        let key = try write(String(repeating: "ab", count: 64), to: "key.hex")
        let other = try write(String(repeating: "cd", count: 64), to: "other.hex")
        let enc = path("enc.strata")
        XCTAssertEqual(try StrataCLI.run(["demo", enc, "--objects", "30", "--encryption-key-file", key]).code, 0)
        let input = try write(#"[{"a": 1}]"#, to: "in.json")
        let before = try listing()
        XCTAssertFalse(before.contains { $0.hasSuffix(".lock") }, "\(before)")
        for args in [["compact", cut], ["compact", "--online", cut], ["compact", damaged], ["import", cut, "--class", "X", input],
                     ["compact", enc, "--encryption-key-file", other], ["import", enc, "--class", "X", input, "--encryption-key-file", other],
                     ["demo", cut, "--churn", "--seconds", "1"]] {
            let r = try StrataCLI.run(args)
            XCTAssertNotEqual(r.code, 0, "\(args)")
            XCTAssertEqual(try listing(), before, "\(args): \(r.stderr)")
        }
        // A lock file that was there before is left alone.
        let lock = try write("", to: "cut.strata.lock")
        XCTAssertEqual(try StrataCLI.run(["compact", cut]).code, 3)
        XCTAssertTrue(FileManager.default.fileExists(atPath: lock))
        // A command that succeeds keeps its lock file (the database's, as after any write).
        XCTAssertEqual(try StrataCLI.run(["compact", enc, "--encryption-key-file", key]).code, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: enc + ".lock"))
    }

    /// A lock file some process uses is not removed, even one this process made.
    func testALockFileInUseIsNotRemoved() throws {
        let file = try makeDemo()
        let lock = file + ".lock"
        XCTAssertFalse(FileManager.default.fileExists(atPath: lock))
        let db = try Store(path: file)
        CreatedLockFiles.noteCreated(for: file, existedBefore: false)
        XCTAssertEqual(CreatedLockFiles.removeUnused(), [], "the handle holds it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: lock))
        db.close()
        CreatedLockFiles.noteCreated(for: file, existedBefore: false)
        XCTAssertEqual(CreatedLockFiles.removeUnused(), [lock])
        XCTAssertFalse(FileManager.default.fileExists(atPath: lock))
    }

    /// Standard output cannot be taken back: the error says the export there is incomplete.
    /// `--output FILE` leaves nothing (no file, no temporary).
    func testAnExportOfADamagedFileSaysTheOutputIsIncomplete() throws {
        let file = try damagedDemo()
        let r = try StrataCLI.run(["export", file])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertFalse(r.stdout.isEmpty, "the part before the damaged block was written")
        XCTAssertTrue(r.stderr.contains("fails its checksum") && r.stderr.contains("the export on standard output is incomplete (it stops after \(r.stdout.utf8.count) bytes)"),
                      r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        let before = try listing()
        let named = try StrataCLI.run(["export", file, "--output", path("out.json")])
        XCTAssertEqual(named.code, 3, named.stderr)
        XCTAssertFalse(named.stderr.contains("incomplete"), named.stderr)
        XCTAssertEqual(try listing(), before, "no output file, no temporary")
    }
}
