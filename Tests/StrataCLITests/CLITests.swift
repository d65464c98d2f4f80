import Foundation
import Strata
import StrataStorage
import XCTest

/// Every subcommand run as a process on generated files: JSON parsed and checked, exit codes of
/// each error case, export → import round trips, CSV quoting, a killed churn writer.
final class CLITests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = try makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// A small demo database (2,000 events: 1,800 after the demo's deletes).
    func makeDemo(_ name: String = "demo.strata") throws -> String {
        let file = path(name)
        let result = try StrataCLI.run(["demo", file, "--objects", "2000"])
        XCTAssertEqual(result.code, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("created"), result.stdout)
        return file
    }

    func testErrorExitCodes() throws {
        let file = try makeDemo()
        // Missing file: 3.
        var r = try StrataCLI.run(["info", path("missing.strata")])
        XCTAssertEqual(r.code, 3); XCTAssertTrue(r.stderr.contains("no such file"), r.stderr)
        // Not a database: 3.
        try Data("hello, not a database".utf8).write(to: dir.appendingPathComponent("foreign.txt"))
        r = try StrataCLI.run(["info", path("foreign.txt")])
        XCTAssertEqual(r.code, 3); XCTAssertTrue(r.stderr.contains("not a Strata database"), r.stderr)
        // Truncated: 3.
        let truncated = path("truncated.strata")
        try FileManager.default.copyItem(atPath: file, toPath: truncated)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: truncated))
        try handle.truncate(atOffset: 100)
        try handle.close()
        r = try StrataCLI.run(["check", truncated])
        XCTAssertEqual(r.code, 3, r.stderr)
        // Both meta slots damaged: 3.
        let damaged = path("damaged.strata")
        try FileManager.default.copyItem(atPath: file, toPath: damaged)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: damaged))
        for i in 16..<8192 { bytes[i] = 0x5A }
        try bytes.write(to: URL(fileURLWithPath: damaged))
        r = try StrataCLI.run(["info", damaged])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one line: \(r.stderr)")
        // Bad query: 4, with the position.
        r = try StrataCLI.run(["query", file, "Person", "age >> 3"])
        XCTAssertEqual(r.code, 4); XCTAssertTrue(r.stderr.contains("position"), r.stderr)
        r = try StrataCLI.run(["query", file, "Person", "nosuch == 3"])
        XCTAssertEqual(r.code, 4)
        r = try StrataCLI.run(["query", file, "Nope", "TRUEPREDICATE"])
        XCTAssertEqual(r.code, 4)
        // Existing copy destination: 5.
        r = try StrataCLI.run(["copy", file, file])
        XCTAssertEqual(r.code, 5); XCTAssertTrue(r.stderr.contains("already exists"), r.stderr)
        // Demo over an existing file: 5.
        r = try StrataCLI.run(["demo", file])
        XCTAssertEqual(r.code, 5)
        // Key files: malformed 6, unreadable 6, a key for an unencrypted file 6.
        r = try StrataCLI.run(["info", file, "--encryption-key-file", path("foreign.txt")])
        XCTAssertEqual(r.code, 6)
        r = try StrataCLI.run(["info", file, "--encryption-key-file", path("nokey")])
        XCTAssertEqual(r.code, 6)
        try Data(String(repeating: "ab", count: 64).utf8).write(to: dir.appendingPathComponent("key.hex"))
        r = try StrataCLI.run(["info", file, "--encryption-key-file", path("key.hex")])
        XCTAssertEqual(r.code, 6); XCTAssertTrue(r.stderr.lowercased().contains("not encrypted"), r.stderr)
        // Encrypt a copy, then every command needs the key; a wrong key is 6; decrypt back.
        r = try StrataCLI.run(["copy", file, path("enc.strata"), "--output-encryption-key-file", path("key.hex"), "--json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\"encrypted\":true") || r.stdout.contains("\"encrypted\": true"), r.stdout)
        r = try StrataCLI.run(["info", path("enc.strata")])
        XCTAssertEqual(r.code, 6, r.stderr)
        r = try StrataCLI.run(["info", path("enc.strata"), "--json", "--encryption-key-file", path("key.hex")])
        XCTAssertEqual(r.code, 0, r.stderr)
        let plainInfo = try StrataCLI.run(["info", file, "--json"])
        let encClasses = (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["classes"] as? [[String: Any]]
        let plainClasses = (try JSONSerialization.jsonObject(with: Data(plainInfo.stdout.utf8)) as? [String: Any])?["classes"] as? [[String: Any]]
        XCTAssertEqual(encClasses?.map { "\($0["name"]!) \($0["count"]!)" }, plainClasses?.map { "\($0["name"]!) \($0["count"]!)" })
        try Data(String(repeating: "cd", count: 64).utf8).write(to: dir.appendingPathComponent("wrong.hex"))
        r = try StrataCLI.run(["info", path("enc.strata"), "--encryption-key-file", path("wrong.hex")])
        XCTAssertEqual(r.code, 6, r.stderr)
        r = try StrataCLI.run(["check", path("enc.strata"), "--encryption-key-file", path("key.hex")])
        XCTAssertEqual(r.code, 0, r.stderr)
        r = try StrataCLI.run(["copy", path("enc.strata"), path("dec.strata"), "--decrypt", "--encryption-key-file", path("key.hex")])
        XCTAssertEqual(r.code, 0, r.stderr)
        r = try StrataCLI.run(["info", path("dec.strata"), "--json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        // Usage: 2.
        r = try StrataCLI.run(["info"])
        XCTAssertEqual(r.code, 2)
        r = try StrataCLI.run(["copy", file, path("x"), "--decrypt", "--output-encryption-key-file", path("key.hex")])
        XCTAssertEqual(r.code, 2)
        r = try StrataCLI.run(["export", file, "--format", "csv"])
        XCTAssertEqual(r.code, 2)
        r = try StrataCLI.run(["info", file, "--bogus"])
        XCTAssertEqual(r.code, 2)
        // Browsing without a terminal: 2.
        r = try StrataCLI.run([file])
        XCTAssertEqual(r.code, 2); XCTAssertTrue(r.stderr.contains("terminal"), r.stderr)
        // No trap or stack trace anywhere.
        XCTAssertFalse(r.stderr.contains("Fatal error"))
        // Help is complete and exits 0.
        r = try StrataCLI.run(["--help"])
        XCTAssertEqual(r.code, 0)
        for sub in ["info", "space", "versions", "check", "compact", "copy", "export", "import", "query", "schema", "demo", "bench"] {
            XCTAssertTrue(r.stdout.contains(sub), sub)
        }
    }

    func testExportImportRoundTripPreservesEveryValueOfEveryType() throws {
        let source = path("all.strata")
        try AllTypes.create(source, objects: 60)
        for format in ["json", "csv"] {
            let target = path("all-\(format).strata")
            try AllTypes.create(target, objects: 0)
            for className in ["Target", "Thing"] {
                let exported = try StrataCLI.run(["export", source, "--class", className, "--format", format, "--output", path("\(className).\(format)")])
                XCTAssertEqual(exported.code, 0, exported.stderr)
                let imported = try StrataCLI.run(["import", target, "--class", className, path("\(className).\(format)"), "--format", format])
                XCTAssertEqual(imported.code, 0, "\(format) \(className): \(imported.stderr)")
            }
            // The re-export is identical, and the values read through the library are equal.
            for className in ["Target", "Thing"] {
                let a = try StrataCLI.run(["export", source, "--class", className, "--format", format])
                let b = try StrataCLI.run(["export", target, "--class", className, "--format", format])
                XCTAssertEqual(a.code, 0)
                XCTAssertEqual(a.stdout, b.stdout, "\(format) \(className)")
            }
            try assertSameObjects(source, target)
        }
        // The whole-file JSON export parses and holds every top-level class.
        let all = try StrataCLI.run(["export", source])
        XCTAssertEqual(all.code, 0)
        let document = try XCTUnwrap(all.json as? [String: [Any]])
        XCTAssertEqual(Set(document.keys), ["Target", "Thing"])
        XCTAssertEqual(document["Thing"]?.count, 60)
    }

    /// Compares every value of every object (by primary key) of two files.
    func assertSameObjects(_ a: String, _ b: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let da = try Database(path: a), db = try Database(path: b)
        defer { da.close(); db.close() }
        let ra = try da.read(), rb = try db.read()
        defer { ra.end(); rb.end() }
        for os in AllTypes.schema.objectSchemas where !os.isEmbedded {
            XCTAssertEqual(try ra.count(os.className), try rb.count(os.className), file: file, line: line)
            for key in try ra.objectKeys(os.className) {
                let pk = try ra.value(os.className, key, os.primaryKeyProperty!.name)
                let other = try XCTUnwrap(try rb.find(os.className, primaryKey: pk), file: file, line: line)
                for p in os.storedProperties {
                    let x = try describe(ra, os.className, key, p), y = try describe(rb, os.className, other, p)
                    XCTAssertEqual(x, y, "\(os.className).\(p.name) of \(pk)", file: file, line: line)
                }
            }
        }
    }

    /// A comparable rendering of a property (links by primary key, embedded objects by value,
    /// NaN made comparable).
    func describe(_ t: DBTransaction, _ className: String, _ key: ObjKey, _ p: PropertySchema) throws -> String {
        func one(_ v: Value) throws -> String {
            switch v {
            case .object(let l):
                guard let target = t.schema[l.className] else { return "?" }
                if let pk = target.primaryKeyProperty { return "→" + (try t.value(l.className, l.key, pk.name)).description }
                let values = try t.values(l.className, l.key)
                return "{" + target.storedProperties.map { "\($0.name)=\(values[$0.name].map { String(reflecting: $0) } ?? "")" }.joined(separator: ",") + "}"
            case .double(let d) where d.isNaN: return "double(nan)"
            case .float(let f) where f.isNaN: return "float(nan)"
            case .date(let t): return "date(\(t.nanosecondsSince1970))"
            default: return String(reflecting: v)
            }
        }
        switch p.collection {
        case .single: return try one(try t.value(className, key, p.name))
        case .list, .set: return try t.list(className, key, p.name).map(one).joined(separator: "|")
        case .map: return try t.map(className, key, p.name).map { "\($0.key)=\(try one($0.value))" }.joined(separator: "|")
        }
    }

    func testCSVWithQuotesCommasNewlinesAndUnicode() throws {
        let file = path("csv.strata")
        let db = try Database(path: file, schema: Schema([ObjectSchema(className: "Note", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true),
            PropertySchema(name: "text", type: .string),
            PropertySchema(name: "maybe", type: .string, isOptional: true),
        ])]))
        db.close()
        var csv = "id,text,maybe\r\n"
        for (i, s) in AllTypes.tricky.enumerated() {
            csv += "\(i),\"\(s.replacingOccurrences(of: "\"", with: "\"\""))\",\(i % 2 == 0 ? "" : "\"\"")\r\n"
        }
        try Data(csv.utf8).write(to: dir.appendingPathComponent("notes.csv"))
        let r = try StrataCLI.run(["import", file, "--class", "Note", path("notes.csv")])
        XCTAssertEqual(r.code, 0, r.stderr)
        let check = try Database(path: file)
        let t = try check.read()
        for (i, s) in AllTypes.tricky.enumerated() {
            XCTAssertEqual(try t.value("Note", Int64(i), "text"), .string(s))
            XCTAssertEqual(try t.value("Note", Int64(i), "maybe"), i % 2 == 0 ? .null : .string(""), "null vs empty string")
        }
        t.end()
        check.close()
        // Export → import into a fresh file → the same CSV.
        let exported = try StrataCLI.run(["export", file, "--class", "Note", "--format", "csv"])
        XCTAssertEqual(exported.code, 0)
        XCTAssertTrue(exported.stdout.contains("\"comma, inside\""))
        XCTAssertTrue(exported.stdout.contains("\"quote \"\" inside\""))
        XCTAssertTrue(exported.stdout.contains("\"line\nbreak\""))
        XCTAssertTrue(exported.stdout.contains("東京 ラーメン"))
        let file2 = path("csv2.strata")
        let r2 = try StrataCLI.run(["import", file2, "--class", "Note", "-", "--format", "csv", "--create"], input: Data(exported.stdout.utf8))
        XCTAssertEqual(r2.code, 0, "--create makes the new file and the class: \(r2.stderr)")
        let again = try StrataCLI.run(["export", file2, "--class", "Note", "--format", "csv"])
        XCTAssertEqual(again.code, 0, again.stderr)
        XCTAssertEqual(again.stdout, exported.stdout, "the same CSV after export → import into a fresh file → export")
    }

}
