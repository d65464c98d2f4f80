import Foundation
import XCTest

/// strata run with standard output or standard error closed (`>&-`, `2>&-`) or unwritable.
final class StandardDescriptorTests: CLITestCase {
    /// With descriptor 1 closed, the database's lock file (opened read-write when it exists)
    /// got number 1 and the export's JSON was written into it, under the other processes that
    /// coordinate through it. Closed descriptors are now held by `/dev/null` (read-only): the
    /// output fails as before (exit 7) and the lock file and database are untouched.
    func testAClosedStandardOutputIsNeverAFileTheCommandOpens() throws {
        let file = try makeDemo()
        // An import leaves the lock file beside the database, as an app using the file does.
        let rows = try write(#"[{"a": 1}]"#, to: "rows.json")
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "Extra", rows, "--create"]).code, 0)
        let lock = file + ".lock"
        XCTAssertTrue(FileManager.default.fileExists(atPath: lock))
        let lockSize = try FileManager.default.attributesOfItem(atPath: lock)[.size] as? Int
        for redirect in [">&-", ">&- 2>&-"] {
            for args in [["export", file], ["export", file, "--class", "Person", "--format", "csv"], ["info", file], ["compact", file, "--online"]] {
                let r = try runShell("", args, redirect: redirect)
                XCTAssertEqual(r.code, 7, "\(args) \(redirect): \(r.stderr)")
                let bytes = try Data(contentsOf: URL(fileURLWithPath: lock))
                XCTAssertEqual(bytes.count, lockSize, "\(args) \(redirect): the lock file keeps its size")
                for text in ["Acme", "\"Person\"", "Format ", "strata:"] {
                    XCTAssertNil(bytes.range(of: Data(text.utf8)), "\(args) \(redirect): \(text) was written into the lock file")
                }
                XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0, "\(args) \(redirect)")
            }
        }
    }

    /// A message to an unwritable standard error (`2>/dev/full`, `2>&-`) trapped in
    /// FileHandle.write (SIGILL, exit 132); the message is lost and the exit code is the
    /// command's own.
    func testAnUnwritableStandardErrorDoesNotCrash() throws {
        for redirect in ["2>/dev/full", "2>&-"] {
            let r = try runShell("", ["info", path("missing.strata")], redirect: redirect)
            XCTAssertEqual(r.code, 3, "\(redirect): \(r.stderr)")
            let usage = try runShell("", ["info", "--bogus"], redirect: redirect)
            XCTAssertEqual(usage.code, 2, redirect)
        }
    }
}

/// Arguments that are not valid UTF-8.
final class NonUTF8ArgumentTests: CLITestCase {
    /// Runs `strata` with `arguments`, shell words where `printf` expands `\377`.
    func run(_ arguments: String, after setup: String = "") throws -> StrataCLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd '\(dir.path)' && \(setup) exec '\(StrataCLI.binary.path)' \(arguments)"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return StrataCLI.Result(code: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Swift's CommandLine.arguments turns a byte that is not UTF-8 into U+FFFD: `info` of an
    /// existing `n\xff.strata` said "no such file", `demo z\xff.strata` created a file of
    /// another name, and a query searched for U+FFFD. Such an argument is refused (exit 2),
    /// naming it, and nothing is created.
    func testAnArgumentThatIsNotUTF8IsRefusedNotReplaced() throws {
        let file = try makeDemo(events: 50)
        // A copy named with the byte 0xFF (Latin-1 "ÿ"), which FileManager cannot name.
        XCTAssertEqual(try run("--help", after: #"cp '\#(file)' "$(printf 'n\377.strata')" &&"#).code, 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        for arguments in [#"info "$(printf 'n\377.strata')""#, #"demo "$(printf 'z\377.strata')" --objects 5"#,
                          #"query demo.strata Company "$(printf 'name == "\377"')""#, #"export demo.strata --class "$(printf '\377')""#] {
            let r = try run(arguments)
            XCTAssertEqual(r.code, 2, "\(arguments): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("is not valid UTF-8") && r.stderr.contains("rename the file"), r.stderr)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), before, "\(arguments): nothing made")
        }
        XCTAssertEqual(before.count, 2, "the database and its copy: \(before)")
        XCTAssertEqual(try run("info demo.strata").code, 0)
    }
}
