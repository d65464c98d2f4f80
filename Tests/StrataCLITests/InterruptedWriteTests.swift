import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A `strata copy` or `strata import --create` ended by SIGINT, SIGTERM or SIGHUP: the process
/// ends by that signal (the shell's 128+signal status) and leaves neither its temporary nor a
/// half-made destination behind. `copy` used to leave `DEST.writecopy-tmp` (only export and demo
/// removed their temporaries on a signal), and `import --create` an empty database without the
/// class it was importing into.
final class InterruptedWriteTests: CLITestCase {
    /// The names in the test directory.
    func names() -> Set<String> { Set((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []) }

    /// `interrupt` once `appears` exists.
    func interrupt(_ args: [String], when appears: String, signal: Int32, line: UInt = #line) throws -> Bool {
        try interrupt(args, signal: signal, when: { pathExists(appears) }, line: line)
    }

    func pathExists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    func testInterruptedCopyLeavesNoTemporaryAndNoDestination() throws {
        let source = try makeDemo(events: 200_000)
        // An encrypted copy takes longer: time to see the temporary and interrupt it.
        let key = dir.appendingPathComponent("copy.key")
        try Data((0..<64).map { UInt8($0 * 3 & 0xFF) }).write(to: key)
        let before = names()
        var interrupted = 0
        for signal in [SIGTERM, SIGINT, SIGHUP] {
            let destination = path("copy.strata")
            let args = ["copy", source, destination, "--output-encryption-key-file", key.path]
            guard try interrupt(args, when: destination + ".writecopy-tmp", signal: signal) else { continue }
            interrupted += 1
            XCTAssertEqual(names(), before, "signal \(signal): nothing left beside the source")
        }
        guard interrupted > 0 else { throw XCTSkip("every copy ended before it could be interrupted") }
        // The same copy, not interrupted, is made.
        let r = try StrataCLI.run(["copy", source, path("copy.strata"), "--output-encryption-key-file", key.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(names(), before.union(["copy.strata"]), "no temporary left after a copy either")
    }

    func testInterruptedImportCreateLeavesNoNewDatabase() throws {
        let rows = (0..<200_000).map { "{\"id\": \($0), \"name\": \"person \($0)\", \"score\": \(Double($0) / 8)}" }
        let input = try write("[" + rows.joined(separator: ",\n") + "]", to: "people.json")
        let file = path("new.strata")
        guard try interrupt(["import", file, "--class", "Person", input, "--create"], when: file, signal: SIGTERM) else {
            throw XCTSkip("the import ended before it could be interrupted")
        }
        XCTAssertEqual(names(), ["people.json"], "no database (or lock file) the import made and did not fill")

        // An existing database is left as it was: only the transaction is lost.
        let existing = try makeDemo("existing.strata")
        let before = try StrataCLI.run(["info", existing, "--json"]).object["version"] as? Int
        _ = try interrupt(["import", existing, "--class", "Imported", input, "--create"], when: existing, signal: SIGTERM)
        XCTAssertTrue(pathExists(existing), "an existing database is never removed")
        let after = try StrataCLI.run(["info", existing, "--json"])
        XCTAssertEqual(after.object["version"] as? Int, before, after.stdout)
        XCTAssertEqual(try StrataCLI.run(["check", existing]).code, 0)
    }
}
