import Foundation
import Strata
import StrataStorage
import XCTest

/// Runs the built `strata` executable (it sits next to the test bundle) as a process.
enum StrataCLI {
    struct Result {
        var code: Int32
        var stdout: String
        var stderr: String
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
        var object: [String: Any] { (json as? [String: Any]) ?? [:] }
    }

    /// The build products directory: the `.xctest` bundle's parent (on Linux the test binary
    /// itself is the `.xctest`).
    static var productsDirectory: URL {
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? Bundle.main.executablePath ?? CommandLine.arguments[0])
        return executable.deletingLastPathComponent()
    }

    static var binary: URL { productsDirectory.appendingPathComponent("strata") }

    /// Runs `strata args…` to completion (stdin from `/dev/null` or `input`).
    @discardableResult
    static func run(_ args: [String], input: Data? = nil, environment: [String: String]? = nil, in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        if let input { inp.fileHandleForWriting.write(input) }
        try inp.fileHandleForWriting.close()
        // Read both pipes concurrently so a large output cannot block the child.
        let errData = LockedData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(code: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// A fresh temporary directory per test.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A class with a property of every type (single, optional, list, set, map), a link target
/// with a primary key, and an embedded class: for the export → import round trip.
enum AllTypes {
    static let schema = Schema([
        ObjectSchema(className: "Target", properties: [
            PropertySchema(name: "code", type: .string, isPrimaryKey: true),
            PropertySchema(name: "n", type: .int),
        ]),
        ObjectSchema(className: "Inner", properties: [
            PropertySchema(name: "label", type: .string),
            PropertySchema(name: "amount", type: .double, isOptional: true),
        ], isEmbedded: true),
        ObjectSchema(className: "Thing", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true),
            PropertySchema(name: "b", type: .bool), PropertySchema(name: "ob", type: .bool, isOptional: true),
            PropertySchema(name: "i", type: .int), PropertySchema(name: "oi", type: .int, isOptional: true),
            PropertySchema(name: "f", type: .float), PropertySchema(name: "of", type: .float, isOptional: true),
            PropertySchema(name: "d", type: .double), PropertySchema(name: "od", type: .double, isOptional: true),
            PropertySchema(name: "s", type: .string), PropertySchema(name: "os", type: .string, isOptional: true),
            PropertySchema(name: "data", type: .data), PropertySchema(name: "odata", type: .data, isOptional: true),
            PropertySchema(name: "date", type: .date), PropertySchema(name: "odate", type: .date, isOptional: true),
            PropertySchema(name: "oid", type: .objectId), PropertySchema(name: "ooid", type: .objectId, isOptional: true),
            PropertySchema(name: "uuid", type: .uuid), PropertySchema(name: "ouuid", type: .uuid, isOptional: true),
            PropertySchema(name: "dec", type: .decimal128), PropertySchema(name: "odec", type: .decimal128, isOptional: true),
            PropertySchema(name: "any", type: .mixed, isOptional: true),
            PropertySchema(name: "link", type: .object, isOptional: true, objectClassName: "Target"),
            PropertySchema(name: "inner", type: .object, isOptional: true, objectClassName: "Inner"),
            PropertySchema(name: "ints", type: .int, collection: .list),
            PropertySchema(name: "ostrings", type: .string, collection: .list, isOptional: true),
            PropertySchema(name: "dates", type: .date, collection: .list),
            PropertySchema(name: "links", type: .object, collection: .list, objectClassName: "Target"),
            PropertySchema(name: "inners", type: .object, collection: .list, objectClassName: "Inner"),
            PropertySchema(name: "tagset", type: .string, collection: .set),
            PropertySchema(name: "scores", type: .double, collection: .map),
            PropertySchema(name: "anys", type: .mixed, collection: .list, isOptional: true),
        ]),
    ])

    static let tricky = ["plain", "comma, inside", "quote \" inside", "line\nbreak", "crlf\r\nend", "  spaces  ", "東京 ラーメン", "emoji 🚀👩‍👩‍👧",
                         "accents é à ñ ø", "", "tab\there", "backslash \\ and \\n literal", "\"quoted\"", "combining e\u{301}"]

    /// Creates a file with the schema; with `objects > 0`, fills it.
    static func create(_ path: String, objects: Int) throws {
        let db = try Database(path: path, schema: schema)
        defer { db.close() }
        guard objects > 0 else { return }
        let w = try db.write()
        for t in 0..<5 { try w.create("Target", values: ["code": .string("T\(t) ü"), "n": .int(Int64(t))]) }
        let anys: [Value] = [.null, .bool(true), .int(-7), .double(2.5), .double(3), .string("42"), .string("x"), .data([0, 1, 255]),
                             .date(Date(timeIntervalSince1970: 1_700_000_000.123)), .objectId(try ObjectId(string: "65b2a1d3000000000000abcd")),
                             .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .decimal(try Decimal128(string: "1234.5678")),
                             .float(1.25), .double(.nan), .double(-.infinity)]
        for i in 0..<objects {
            let s = tricky[i % tricky.count]
            let key = try w.create("Thing", values: [
                "id": .int(Int64(i)), "b": .bool(i % 2 == 0), "ob": i % 3 == 0 ? .null : .bool(i % 3 == 1),
                "i": .int(i == 1 ? Int64.max : i == 2 ? Int64.min : Int64(i * 1_000_003)), "oi": i % 4 == 0 ? .null : .int(Int64(-i)),
                "f": .float(i == 3 ? .nan : Float(i) / 3), "of": i % 2 == 0 ? .null : .float(.infinity),
                "d": .double(i == 4 ? -.infinity : Double(i) / 7 + 1e-300), "od": i % 5 == 0 ? .null : .double(Double(i) * 1e20),
                "s": .string(s), "os": i % 3 == 2 ? .null : .string(tricky[(i + 5) % tricky.count]),
                "data": .data((0..<(i % 20)).map { UInt8(truncatingIfNeeded: $0 * 37 + i) }), "odata": i % 2 == 0 ? .null : .data([]),
                "date": .date(Date(timeIntervalSince1970: Double(i) * 86_400.123456789 - 1e9)),
                "odate": i % 2 == 0 ? .null : .date(Date(timeIntervalSince1970: -86_400 * 365 * 100)),
                "oid": .objectId(try ObjectId(string: String(format: "65b2a1d3%016x", i))), "ooid": i % 2 == 0 ? .null : .objectId(try ObjectId(string: "000000000000000000000001")),
                "uuid": .uuid(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", i))!), "ouuid": i % 2 == 1 ? .null : .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
                "dec": .decimal(try Decimal128(string: "\(i).\(i)5")), "odec": i % 2 == 0 ? .null : .decimal(try Decimal128(string: "-0.000001")),
                "any": anys[i % anys.count],
                "link": i % 3 == 0 ? .null : .object(StrataObjects.ObjectLink(className: "Target", key: try w.find("Target", primaryKey: .string("T\(i % 5) ü"))!)),
            ], embedded: i % 2 == 0 ? ["inner": ["label": .string("inner \(s)"), "amount": i % 4 == 0 ? .null : .double(Double(i))]] : [:])
            try w.setList("Thing", key, "ints", (0..<(i % 4)).map { .int(Int64($0 * i)) })
            try w.setList("Thing", key, "ostrings", (0..<(i % 3)).map { $0 == 1 ? .null : .string(tricky[($0 + i) % tricky.count]) })
            try w.setList("Thing", key, "dates", [.date(Date(timeIntervalSince1970: Double(i)))])
            try w.setList("Thing", key, "links", try (0..<(i % 3)).map { .object(StrataObjects.ObjectLink(className: "Target", key: try w.find("Target", primaryKey: .string("T\(($0 + i) % 5) ü"))!)) })
            for j in 0..<(i % 3) { try w.setEmbedded("Thing", key, "inners", ["label": .string("item \(j) \(s)"), "amount": .double(Double(j))]) }
            try w.setList("Thing", key, "tagset", (0..<(i % 3)).map { .string(["a", "b,c", "d\"e"][$0]) })
            try w.setMap("Thing", key, "scores", (0..<(i % 3)).map { ("k\($0) \(s)", .double(Double($0) + 0.5)) })
            try w.setList("Thing", key, "anys", [anys[(i + 1) % anys.count], anys[(i + 7) % anys.count]])
        }
        try w.commit()
    }
}

/// A test case with a fresh temporary directory and helpers to make databases in it.
class CLITestCase: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws { dir = try makeTemporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Starts `strata args…`, waits (up to `timeout` s) until `ready()` holds, lets it run
    /// `settle` µs more, sends `signal` and waits for the end, which must come by that signal.
    /// Returns false when the command ended before it could be interrupted.
    func interrupt(_ args: [String], signal: Int32, timeout: TimeInterval = 120, settle: useconds_t = 20_000,
                   when ready: () -> Bool, line: UInt = #line) throws -> Bool {
        let p = Process()
        p.executableURL = StrataCLI.binary
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline && !ready() { usleep(500) }
        guard p.isRunning else { return false }
        XCTAssertTrue(ready(), "\(args): not ready to interrupt after \(timeout) s", line: line)
        usleep(settle)
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal, "\(args) ends by the signal", line: line)
        XCTAssertEqual(p.terminationStatus, signal, "\(args)", line: line)
        return true
    }

    /// A small demo database (`events` events: 90% left after the demo's deletes).
    func makeDemo(_ name: String = "demo.strata", events: Int = 300) throws -> String {
        let file = path(name)
        let r = try StrataCLI.run(["demo", file, "--objects", String(events)])
        XCTAssertEqual(r.code, 0, r.stderr)
        return file
    }

    /// A small demo database with one flipped byte inside a stored value: a company name,
    /// stored once, in the Company class's only cluster, whose block then fails its checksum.
    func damagedDemo() throws -> String {
        let file = try makeDemo()
        let marker = "Société Générale de Logiciels"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let range = try XCTUnwrap(bytes.range(of: Data(marker.utf8)), "the value is stored as written")
        XCTAssertNil(bytes[range.upperBound...].range(of: Data(marker.utf8)), "stored once")
        bytes[range.lowerBound + 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: file))
        return file
    }

    func write(_ text: String, to name: String) throws -> String {
        try Data(text.utf8).write(to: dir.appendingPathComponent(name))
        return path(name)
    }

    /// Runs `strata args…` through `sh` with a shell prefix (`ulimit -f N`, a redirection).
    func runShell(_ prefix: String, _ args: [String], redirect: String = "") throws -> StrataCLI.Result {
        let quoted = ([StrataCLI.binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(prefix) exec \(quoted) \(redirect)"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errData = LockedData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData.set(err.fileHandleForReading.readDataToEndOfFile()); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return StrataCLI.Result(code: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                                stderr: String(decoding: errData.get(), as: UTF8.self))
    }

    /// The number of objects of a class (through the engine).
    func count(_ file: String, _ className: String) throws -> Int {
        let db = try Database(path: file)
        defer { db.close() }
        let t = try db.read()
        defer { t.end() }
        return try t.schema[className] == nil ? 0 : t.count(className)
    }
}

/// Starts `StrataTestWriter hold FILE LABEL` (a process that takes the write lock and keeps it)
/// and waits until it holds the lock.
func startWriteLockHolder(_ file: String, label: String) throws -> Process {
    let exe = StrataCLI.productsDirectory.appendingPathComponent("StrataTestWriter")
    guard FileManager.default.fileExists(atPath: exe.path) else {
        if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("StrataTestWriter not built (CI is set)") }
        throw XCTSkip("StrataTestWriter not built")
    }
    let p = Process()
    p.executableURL = exe
    p.arguments = ["hold", file, label]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    // Its first line is "holding V" once the lock is taken.
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("holding") {
        let chunk = out.fileHandleForReading.availableData
        if chunk.isEmpty { XCTFail("the holder exited before taking the lock"); break }
        seen.append(chunk)
    }
    return p
}

/// Ends a holder started by `startWriteLockHolder` (SIGKILL: the kernel frees its lock).
func stopWriteLockHolder(_ p: Process) {
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
}
