import Foundation
import Strata
import XCTest

/// `strata demo`: option checks, --seconds bounds every sleep, concurrent churn writers, and a
/// build that leaves nothing behind when it fails.
final class DemoCommandTests: CLITestCase {
    func testNonsenseRatesAndSecondsAreRefused() throws {
        for args in [["--rate", "nan"], ["--rate", "-1"], ["--rate", "0"], ["--rate", "inf"], ["--seconds", "nan"], ["--seconds", "-2"]] {
            let r = try StrataCLI.run(["demo", path("x.strata"), "--churn"] + args)
            XCTAssertEqual(r.code, 2, "\(args): \(r.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.strata")), "\(args): nothing created")
        }
    }

    /// `--rate 0.01 --seconds 2` used to sleep the whole 100 s interval. The process must end on
    /// its own well before that (a generous deadline, not a timing measurement).
    func testSecondsEndsTheRunEvenWhenTheIntervalIsLonger() throws {
        let file = try makeDemo()
        let churn = Process()
        churn.executableURL = StrataCLI.binary
        churn.arguments = ["demo", file, "--churn", "--rate", "0.01", "--seconds", "1"]
        churn.standardOutput = FileHandle.nullDevice
        churn.standardError = FileHandle.nullDevice
        try churn.run()
        let deadline = Date().addingTimeInterval(60)
        while churn.isRunning && Date() < deadline { usleep(50_000) }
        let stillRunning = churn.isRunning
        if stillRunning { churn.terminate() }
        churn.waitUntilExit()
        XCTAssertFalse(stillRunning, "still sleeping after 60 s with --seconds 1")
        XCTAssertEqual(churn.terminationStatus, 0)
    }

    /// Starts `strata args…`, waits until a file whose name starts with `prefix` appears in the
    /// test directory, sends `signal` and waits for the end: the process ends by that signal and
    /// no hidden temporary remains (they accumulated: only SIGPIPE was handled).
    func assertInterruptLeavesNoTemporary(_ args: [String], prefix: String, signal: Int32, line: UInt = #line) throws {
        func hidden() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix(".") } }
        guard try interrupt(args, signal: signal, timeout: 60, settle: 100_000, when: { hidden().contains { $0.hasPrefix(prefix) } }, line: line) else {
            throw XCTSkip("\(args) ended before it could be interrupted")
        }
        XCTAssertEqual(hidden(), [], "\(args): temporaries left behind", line: line)
    }

    func testInterruptedDemoAndExportLeaveNoTemporaryFiles() throws {
        try assertInterruptLeavesNoTemporary(["demo", path("x.strata"), "--objects", "2000000"], prefix: ".x.strata.demo-tmp", signal: SIGINT)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.strata")))
        let file = try makeDemo(events: 200_000)
        let out = try write("old\n", to: "big.json")
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            try assertInterruptLeavesNoTemporary(["export", file, "--class", "Event", "--output", out], prefix: ".big.json.", signal: signal)
            XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "old\n", "the old output is intact")
        }
    }

    /// Two churn writers on one file: each reads the next id inside its write transaction, so
    /// neither dies on a duplicate primary key.
    func testConcurrentChurnWritersDoNotCollideOnPrimaryKeys() throws {
        let file = try makeDemo()
        let results = (0..<2).map { _ in LockedData() }
        let codes = LockedCodes()
        let group = DispatchGroup()
        for i in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                let r = try? StrataCLI.run(["demo", file, "--churn", "--rate", "100", "--seconds", "3"])
                results[i].set(Data((r?.stderr ?? "did not run").utf8))
                codes.set(i, r?.code ?? -1)
                group.leave()
            }
        }
        group.wait()
        for i in 0..<2 {
            XCTAssertEqual(codes.get(i), 0, String(decoding: results[i].get(), as: UTF8.self))
        }
        XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0)
    }

    /// Issue 18 item 5: people imported with ids from 1,000,000 (none of 1...count left), then
    /// `demo --churn`: it used to link new events to Person ids 1...count and die with "no object
    /// of class 'Person' with key N". Events now link to people picked among those that exist.
    func testChurnAfterPeopleWithGappedIdsWereImported() throws {
        let file = try makeDemo(events: 200)
        do {
            let db = try Database(path: file)
            let w = try db.write(label: "test")
            let count = try w.count("Person")
            var keys: [ObjKey] = []
            for i in 0..<count { if let k = try w.objectKey("Person", at: i) { keys.append(k) } }
            try w.delete("Person", keys: keys)
            _ = try w.commit()
            db.close()
        }
        let rows = (0..<30).map { #"{"id": \#(1_000_000 + $0 * 7), "name": "P\#($0)", "score": 1.5, "active": true}"# }
        let input = try write("[\n" + rows.joined(separator: ",\n") + "\n]\n", to: "people.json")
        let imported = try StrataCLI.run(["import", file, "--class", "Person", input])
        XCTAssertEqual(imported.code, 0, imported.stderr)
        let churn = try StrataCLI.run(["demo", file, "--churn", "--rate", "200", "--seconds", "2"])
        XCTAssertEqual(churn.code, 0, churn.stderr)
        XCTAssertTrue(churn.stdout.contains("committed version"), churn.stdout)
        XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0)
    }

    /// A build that fails (the file-size limit stands in for a full disk) leaves no file, so the
    /// next `strata demo` does not find a half-built database.
    func testAFailedBuildLeavesNoFile() throws {
        let r = try runShell("trap '' XFSZ; ulimit -f 512;", ["demo", path("new.strata")])
        XCTAssertEqual(r.code, 7, r.stderr)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        XCTAssertEqual(left, [], "nothing left behind: \(left)")
        XCTAssertEqual(try StrataCLI.run(["demo", path("new.strata"), "--objects", "100"]).code, 0)
    }

    func testChurnStopsAfterSecondsWithIncreasingVersions() throws {
        let file = path("churn.strata")
        let r = try StrataCLI.run(["demo", file, "--objects", "500", "--churn", "--rate", "50", "--seconds", "1"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("created") == true)
        let versions = lines.compactMap { $0.hasPrefix("committed version ") ? Int($0.dropFirst(18)) : nil }
        XCTAssertFalse(versions.isEmpty, "at least one commit")
        XCTAssertEqual(versions, versions.sorted(), "one increasing version per line")
        XCTAssertEqual(Set(versions).count, versions.count)
    }

    /// With a key the demo database is created encrypted (the key was ignored before: the file
    /// came out plain, and --churn then refused it), churns, and opens only with that key.
    func testDemoWithAKeyCreatesAnEncryptedDatabase() throws {
        let file = path("enc.strata"), keyFile = path("key.hex")
        try String(repeating: "3c", count: 64).write(toFile: keyFile, atomically: true, encoding: .utf8)
        let r = try StrataCLI.run(["demo", file, "--objects", "300", "--churn", "--rate", "100", "--seconds", "0.5",
                                   "--encryption-key-file", keyFile])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("created \(file): demo database with 300 events ("), r.stdout)
        XCTAssertTrue(r.stdout.contains(", encrypted) in "), r.stdout)
        XCTAssertTrue(r.stdout.contains("committed version "), r.stdout)
        let plain = try StrataCLI.run(["info", file])
        XCTAssertNotEqual(plain.code, 0)
        XCTAssertTrue(plain.stderr.contains("encrypt"), plain.stderr)
        let info = try StrataCLI.run(["check", file, "--encryption-key-file", keyFile])
        XCTAssertEqual(info.code, 0, info.stderr + info.stdout)
    }

    func testDemoChurnKilledWithSIGKILLLeavesACleanFile() throws {
        let file = try makeDemo(events: 2000)
        for round in 0..<3 {
            let churn = Process()
            churn.executableURL = StrataCLI.binary
            churn.arguments = ["demo", file, "--churn", "--rate", "200"]
            let out = Pipe()
            churn.standardOutput = out
            churn.standardError = FileHandle.nullDevice
            try churn.run()
            var text = ""
            let deadline = Date().addingTimeInterval(20)
            while text.components(separatedBy: "committed version ").count < 6 + round * 3, Date() < deadline {
                text += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            }
            kill(churn.processIdentifier, SIGKILL)
            churn.waitUntilExit()
            text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let versions = text.split(separator: "\n").compactMap { $0.hasPrefix("committed version ") ? Int($0.dropFirst(18)) : nil }
            XCTAssertGreaterThanOrEqual(versions.count, 5)
            XCTAssertEqual(versions, versions.sorted(), "one increasing version per line")
            let check = try StrataCLI.run(["check", file])
            XCTAssertEqual(check.code, 0, check.stdout + check.stderr)
            let info = try StrataCLI.run(["info", file, "--json"])
            XCTAssertGreaterThanOrEqual(info.object["version"] as? Int ?? 0, versions.last ?? .max, "every acknowledged commit is durable")
        }
    }
}

final class LockedCodes: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [Int: Int32] = [:]
    func set(_ i: Int, _ c: Int32) { lock.lock(); codes[i] = c; lock.unlock() }
    func get(_ i: Int) -> Int32? { lock.lock(); defer { lock.unlock() }; return codes[i] }
}
