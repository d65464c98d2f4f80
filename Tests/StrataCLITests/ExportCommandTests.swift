import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata export`: where --output may and may not write (the database, its lock file and
/// temporaries are refused with exit 5; they are never unlinked or replaced).
final class ExportCommandTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func makeDemo() throws -> String {
        let file = path("demo.strata")
        let r = try StrataCLI.run(["demo", file, "--objects", "300"])
        XCTAssertEqual(r.code, 0, r.stderr)
        return file
    }

    func identity(_ path: String) -> (dev: UInt, ino: UInt, size: Int64, mode: UInt32)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (UInt(st.st_dev), UInt(st.st_ino), Int64(st.st_size), st.st_mode & S_IFMT)
    }

    func assertRefused(_ file: String, output: String, _ message: String, line: UInt = #line) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let r = try StrataCLI.run(["export", file, "--output", output])
        XCTAssertEqual(r.code, 5, "\(message): \(r.stderr)", line: line)
        XCTAssertTrue(r.stderr.contains("nothing was written"), r.stderr, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before, "\(message): the database is unchanged", line: line)
        let check = try StrataCLI.run(["check", file])
        XCTAssertEqual(check.code, 0, "\(message): \(check.stdout)\(check.stderr)", line: line)
    }

    /// `--output people.csv` wrote JSON into a .csv file (which import then read as CSV and
    /// refused); the format follows the name as import's does, --format still decides, and a
    /// .csv name without --class says where CSV came from.
    func testOutputNamedCSVIsWrittenAsCSVAndImportsBack() throws {
        let file = try makeDemo()
        let csv = path("people.csv")
        let r = try StrataCLI.run(["export", file, "--class", "Company", "--output", csv])
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("name,country,founded,website\n"), String(text.prefix(200)))
        let copy = path("copy.strata")
        XCTAssertEqual(try StrataCLI.run(["import", copy, "--class", "Company", "--create", csv]).code, 0)
        let asJSON = try StrataCLI.run(["export", file, "--class", "Company", "--format", "json", "--output", csv])
        XCTAssertEqual(asJSON.code, 0, asJSON.stderr)
        XCTAssertTrue(try String(contentsOfFile: csv, encoding: .utf8).hasPrefix("["))
        let whole = try StrataCLI.run(["export", file, "--output", path("all.csv")])
        XCTAssertEqual(whole.code, 2, whole.stderr)
        XCTAssertTrue(whole.stderr.contains("taken from the output's .csv name"), whole.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("all.csv")))
    }

    func testExportOntoTheDatabaseItselfIsRefused() throws {
        let file = try makeDemo()
        try assertRefused(file, output: file, "the database")
        // The same file by another spelling, and through a hard link.
        try assertRefused(file, output: dir.path + "/./demo.strata", "the database by another path")
        XCTAssertEqual(link(file, path("hard.strata")), 0)
        try assertRefused(file, output: path("hard.strata"), "a hard link to the database")
    }

    func testExportOntoASymlinkToTheDatabaseIsRefused() throws {
        let file = try makeDemo()
        try FileManager.default.createSymbolicLink(atPath: path("alias.json"), withDestinationPath: file)
        try assertRefused(file, output: path("alias.json"), "a symlink to the database")
        XCTAssertEqual(identity(path("alias.json"))?.mode, S_IFLNK, "the symlink is still a symlink")
    }

    func testExportOntoTheLockFileIsRefusedAndTheLockFileKept() throws {
        let file = try makeDemo()
        let lock = file + ".lock"
        // A writer keeps the file (and its lock file) open meanwhile, as in the reported case.
        let churn = Process()
        churn.executableURL = StrataCLI.binary
        churn.arguments = ["demo", file, "--churn", "--rate", "5", "--seconds", "60"]
        let out = Pipe()
        churn.standardOutput = out
        churn.standardError = FileHandle.nullDevice
        try churn.run()
        defer { churn.terminate(); churn.waitUntilExit() }
        _ = out.fileHandleForReading.availableData  // the first commit
        let before = try XCTUnwrap(identity(lock), "the lock file exists while a writer has the file open")
        let r = try StrataCLI.run(["export", file, "--output", lock])
        XCTAssertEqual(r.code, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing was written"), r.stderr)
        let after = try XCTUnwrap(identity(lock))
        XCTAssertEqual(after.ino, before.ino, "the lock file was not replaced")
        XCTAssertEqual(after.size, before.size, "the lock file was not truncated")
        churn.terminate()
        churn.waitUntilExit()
        XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0)
        // Without a running process, the lock file's name is refused all the same.
        try assertRefused(file, output: lock, "the lock file by name")
        // The compaction temporary is the database's too, even before it exists.
        try assertRefused(file, output: file + ".compact-tmp", "the compaction temporary")
        XCTAssertNil(identity(file + ".compact-tmp"), "nothing was created")
    }

    func testExportReplacesAnExistingRegularFileOnceComplete() throws {
        let file = try makeDemo()
        let out = path("out.json")
        try Data(String(repeating: "old content that is longer than nothing\n", count: 10_000).utf8).write(to: URL(fileURLWithPath: out))
        XCTAssertEqual(chmod(out, 0o600), 0)
        try FileManager.default.createSymbolicLink(atPath: path("alias.json"), withDestinationPath: "out.json")
        let r = try StrataCLI.run(["export", file, "--class", "Company", "--output", path("alias.json")])
        XCTAssertEqual(r.code, 0, r.stderr)
        let companies = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [Any]
        XCTAssertEqual(companies?.count, 10, "the old content is replaced")
        XCTAssertEqual(identity(path("alias.json"))?.mode, S_IFLNK, "the symlink is kept, its target replaced")
        var st = stat()
        XCTAssertEqual(stat(out, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600, "the file's permissions are kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["alias.json", "demo.strata", "demo.strata.lock", "out.json"].filter {
            FileManager.default.fileExists(atPath: path($0)) }, "no temporary left")
    }

    /// An export that fails part-way (the file-size limit standing in for a full disk) leaves
    /// the output file's previous content and no temporary (it left a truncated file).
    func testAFailedExportKeepsThePreviousOutput() throws {
        let file = try makeDemo()
        let out = path("out.json")
        let previous = Data("previous export\n".utf8)
        try previous.write(to: URL(fileURLWithPath: out))
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let quoted = [StrataCLI.binary.path, "export", file, "--output", out].map { "'\($0)'" }.joined(separator: " ")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "trap '' XFSZ; ulimit -f 64; exec \(quoted) 2>/dev/null"]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 7)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), previous)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), listing, "no temporary left")
        // A new output file that fails is not created at all.
        p.arguments = ["-c", "trap '' XFSZ; ulimit -f 64; exec \(quoted.replacingOccurrences(of: "out.json", with: "new.json")) 2>/dev/null"]
        let q = Process()
        q.executableURL = p.executableURL
        q.arguments = p.arguments
        try q.run()
        q.waitUntilExit()
        XCTAssertEqual(q.terminationStatus, 7)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new.json")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), listing)
    }

    func testExportIntoAFIFOWritesThroughItAndKeepsTheFIFO() throws {
        let file = try makeDemo()
        let fifo = path("pipe")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let received = LockedData()
        let reader = Thread {
            // A plain blocking open + read: waits for the writer, reads to its close.
            let fd = open(fifo, O_RDONLY)
            var data = Data()
            var chunk = [UInt8](repeating: 0, count: 65536)
            while fd >= 0 {
                let n = read(fd, &chunk, chunk.count)
                if n <= 0 { break }
                data.append(contentsOf: chunk[0..<n])
            }
            if fd >= 0 { close(fd) }
            received.set(data)
        }
        reader.start()
        let r = try StrataCLI.run(["export", file, "--class", "Company", "--output", fifo])
        XCTAssertEqual(r.code, 0, r.stderr)
        let deadline = Date().addingTimeInterval(30)
        while received.get().isEmpty && Date() < deadline { usleep(10_000) }
        XCTAssertEqual((try? JSONSerialization.jsonObject(with: received.get()) as? [Any])?.count, 10)
        XCTAssertEqual(identity(fifo)?.mode, S_IFIFO, "the FIFO is still a FIFO")
        // /dev/null (a character device) is written to, never replaced.
        XCTAssertEqual(try StrataCLI.run(["export", file, "--output", "/dev/null"]).code, 0)
        XCTAssertEqual(identity("/dev/null")?.mode, S_IFCHR)
    }

    func testExportIntoADirectoryIsRefused() throws {
        let file = try makeDemo()
        try FileManager.default.createDirectory(atPath: path("adir"), withIntermediateDirectories: false)
        let r = try StrataCLI.run(["export", file, "--output", path("adir")])
        XCTAssertEqual(r.code, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("directory"), r.stderr)
    }

    /// A memory bound is a measurement, not a unit test: opt in with STRATA_PERF_TESTS=1 (the
    /// release bench is where performance is tracked).
    func testExportStreamsWithBoundedMemory() throws {
        guard ProcessInfo.processInfo.environment["STRATA_PERF_TESTS"] == "1" else {
            throw XCTSkip("a memory measurement: runs only with STRATA_PERF_TESTS=1")
        }
        let file = path("big.strata")
        let demo = try StrataCLI.run(["demo", file, "--objects", "30000"])
        XCTAssertEqual(demo.code, 0, demo.stderr)
        let small = try peakMemory(["export", file, "--class", "Event", "--output", path("e1.json")], limitEvents: true)
        let out = try Data(contentsOf: dir.appendingPathComponent("e1.json"))
        XCTAssertGreaterThan(out.count, 2_500_000)
        // The export is several MB; the process's peak memory must stay well below the data it wrote
        // plus the mapped file (a non-streaming export would hold every object string).
        XCTAssertLessThan(small, 120 << 20, "peak RSS \(small)")
    }

    /// Peak resident memory (bytes) of a strata run, from /proc.
    func peakMemory(_ args: [String], limitEvents: Bool) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" \"$@\" & pid=$!; peak=0; while kill -0 $pid 2>/dev/null; do v=$(awk '/VmHWM/ {print $2}' /proc/$pid/status 2>/dev/null); [ -n \"$v\" ] && peak=$v; sleep 0.02; done; wait $pid; echo $peak",
                             StrataCLI.binary.path] + args
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let kb = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "0") ?? 0
        return kb * 1024
    }
}
