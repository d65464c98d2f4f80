import Foundation
import Strata
import StrataStorage
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The write lock held by another process (`info` shows the holder; a writing command says
/// whom it waits for) and a damaged newer meta slot (`info` warns, `check` fails) — issue 18
/// items 13 and 4.
final class WriteLockTests: CLITestCase {
    func startHolder(_ file: String, label: String) throws -> Process { try startWriteLockHolder(file, label: label) }

    func stop(_ p: Process) { stopWriteLockHolder(p) }

    func testInfoShowsTheWriteLockHolder() throws {
        let file = try makeDemo()
        let free = try StrataCLI.run(["info", file])
        XCTAssertEqual(free.code, 0, free.stderr)
        XCTAssertTrue(free.stdout.contains("Write lock    free"), free.stdout)

        let holder = try startHolder(file, label: "lock-test")
        defer { stop(holder) }
        let text = try StrataCLI.run(["info", file])
        XCTAssertEqual(text.code, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("Write lock    held by pid \(holder.processIdentifier) (lock-test) since "), text.stdout)
        let json = try StrataCLI.run(["info", file, "--json"])
        XCTAssertEqual(json.code, 0, json.stderr)
        let lock = try XCTUnwrap(json.object["writeLock"] as? [String: Any], json.stdout)
        XCTAssertEqual(lock["pid"] as? Int, Int(holder.processIdentifier))
        XCTAssertEqual(lock["label"] as? String, "lock-test")
        XCTAssertEqual(lock["alive"] as? Bool, true)
        XCTAssertNotNil(lock["since"] as? String)
    }

    /// `import` against a stopped holder says whom it waits for (once, on stderr), keeps
    /// waiting, and completes when the holder goes away.
    func testImportSaysWhomItWaitsForAndCompletesWhenTheLockIsFreed() throws {
        let file = try makeDemo()
        let input = try write(#"[{"n": 1}, {"n": 2}]"#, to: "notes.json")
        let holder = try startHolder(file, label: "lock-test")
        defer { stop(holder) }

        let errPath = path("import.stderr")
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let importer = Process()
        importer.executableURL = StrataCLI.binary
        importer.arguments = ["import", file, "--class", "Note", input, "--create"]
        importer.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        importer.standardOutput = FileHandle.nullDevice
        try importer.run()
        defer { if importer.isRunning { kill(importer.processIdentifier, SIGKILL) } }

        let expected = "waiting for the write lock held by pid \(holder.processIdentifier) (lock-test) since "
        var stderrText = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            stderrText = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            if stderrText.contains(expected) { break }
            usleep(50_000)
        }
        XCTAssertTrue(stderrText.contains(expected), "stderr: \(stderrText)")
        XCTAssertTrue(stderrText.contains("; press Ctrl-C to give up"), stderrText)
        XCTAssertTrue(importer.isRunning, "import keeps waiting")

        stop(holder)
        importer.waitUntilExit()
        XCTAssertEqual(importer.terminationStatus, 0, (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        let finalErr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        XCTAssertEqual(finalErr.components(separatedBy: "waiting for the write lock").count - 1, 1, "said once: \(finalErr)")
        XCTAssertEqual(try count(file, "Note"), 2)
    }

    /// A demo file whose newest meta slot has one damaged byte (its commit time): it opens at the
    /// older version. Returns (slot, claimed version, opened version).
    func damageNewestMetaSlot(_ file: String) throws -> (Int, UInt64, UInt64) {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        func version(_ slot: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[slot * Int(MetaSlot.slotStride) + 16 + $1]) << (8 * UInt64($1)) }
        }
        let newest = version(0) > version(1) ? 0 : 1
        let claimed = version(newest), opened = version(1 - newest)
        bytes[newest * Int(MetaSlot.slotStride) + 48] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return (newest, claimed, opened)
    }

    func testDamagedNewestMetaSlotIsAWarningInInfoAndAProblemInCheck() throws {
        let file = try makeDemo()
        let (slot, claimed, opened) = try damageNewestMetaSlot(file)
        let message = "meta slot \(slot) claims version \(claimed) and fails its checksum; opened at version \(opened)"

        let info = try StrataCLI.run(["info", file])
        XCTAssertEqual(info.code, 0, info.stderr)
        XCTAssertTrue(info.stdout.contains("warning: " + message), info.stdout)
        let json = try StrataCLI.run(["info", file, "--json"])
        XCTAssertEqual(json.code, 0, json.stderr)
        let warnings = try XCTUnwrap(json.object["warnings"] as? [String], json.stdout)
        XCTAssertTrue(warnings.contains { $0.hasPrefix(message) }, "\(warnings)")

        let check = try StrataCLI.run(["check", file])
        XCTAssertEqual(check.code, 1, check.stdout + check.stderr)
        XCTAssertTrue((check.stdout + check.stderr).contains(message), check.stdout + check.stderr)
    }

    func testSoundFileHasNoWarnings() throws {
        let file = try makeDemo()
        let json = try StrataCLI.run(["info", file, "--json"])
        XCTAssertEqual(json.code, 0, json.stderr)
        XCTAssertEqual((json.object["warnings"] as? [String])?.count, 0, json.stdout)
        XCTAssertTrue(json.object["writeLock"] is NSNull, json.stdout)
    }
}
