import Foundation
import Strata
import XCTest

/// `strata import`: values are stored as written or refused (exit 4 with line and field), bad
/// JSON never traps, engine failures keep their exit code, `--create` makes a missing file and
/// only valid names.
final class ImportCommandTests: CLITestCase {
    /// An empty file with the all-types schema.
    func makeAllTypes() throws -> String {
        let file = path("all.strata")
        try AllTypes.create(file, objects: 0)
        return file
    }

    func assertRefused(_ file: String, _ className: String, _ input: String, name: String = "in.json",
                       _ expected: [String], line: UInt = #line) throws {
        let source = try write(input, to: name)
        let r = try StrataCLI.run(["import", file, "--class", className, source])
        XCTAssertEqual(r.code, 4, "\(input.prefix(200)): \(r.stderr)", line: line)
        for text in expected + ["nothing was imported"] where !r.stderr.contains(text) && !(text == "nothing was imported" && r.stderr.contains("invalid JSON")) {
            XCTFail("\(input.prefix(200)): '\(text)' missing from: \(r.stderr)", line: line)
        }
        XCTAssertEqual(try count(file, className), 0, "nothing was imported", line: line)
    }

    func testValuesThatWouldBeChangedAreRefusedWithLineAndField() throws {
        let file = try makeAllTypes()
        let cases: [(String, [String])] = [
            ("\"date\": \"2020-02-30\"", ["'2020-02-30'", "date", "29 days"]),
            ("\"date\": \"2021-13-01\"", ["'2021-13-01'", "date"]),
            ("\"date\": \"2020-01-01T25:00:00Z\"", ["'2020-01-01T25:00:00Z'", "date"]),
            ("\"date\": \"3000-01-01\"", ["outside the dates", "date"]),
            ("\"odate\": \"1500-06-01T00:00:00Z\"", ["outside the dates", "odate"]),
            ("\"d\": 1e400", ["'1e400'", "beyond the range of a Double", "d (double)"]),
            ("\"d\": -1e400", ["'-1e400'", "beyond the range"]),
            ("\"d\": 1e-400", ["too small", "d (double)"]),
            ("\"f\": 1e39", ["beyond the range of a Float", "f (float)"]),
            ("\"dec\": \"12345678901234567890123456789012345678901\"", ["41 significant digits", "34", "dec"]),
            ("\"dec\": 1.2345678901234567890123456789012345", ["35 significant digits", "dec"]),
            ("\"dec\": \"1e7000\"", ["'1e7000'", "beyond the range of a Decimal128", "dec"]),
            ("\"dec\": \"-5e-7000\"", ["too small for a Decimal128", "dec"]),
            ("\"any\": 1e400", ["beyond the range", "any"]),
            ("\"any\": {\"$date\": \"2019-02-29\"}", ["28 days", "any"]),
        ]
        for (field, expected) in cases {
            try assertRefused(file, "Thing", "[\n{\"id\": 1},\n{\"id\": 2, \(field)}\n]", ["line 3"] + expected)
        }
        // CSV fields go through the same checks.
        try assertRefused(file, "Thing", "id,date\n1,2020-01-01\n2,2020-02-30\n", name: "in.csv", ["line 3", "29 days"])
        // What is representable is still accepted.
        let ok = try write("[{\"id\": 1, \"date\": \"2020-02-29\", \"d\": 1e300, \"f\": \"Infinity\", \"dec\": \"1234567890123456789012345678901234\"}]", to: "ok.json")
        let r = try StrataCLI.run(["import", file, "--class", "Thing", ok])
        XCTAssertEqual(r.code, 0, r.stderr)
    }

    func testInvalidUTF8AndDuplicateKeysAndHeadersAreRefused() throws {
        let file = try makeAllTypes()
        var bytes = Array("[\n{\"id\": 1, \"s\": \"ok\"},\n{\"id\": 2, \"s\": \"A".utf8) + [0xFF, 0xFE] + Array("\"}\n]".utf8)
        try Data(bytes).write(to: dir.appendingPathComponent("bad.json"))
        var r = try StrataCLI.run(["import", file, "--class", "Thing", path("bad.json")])
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("line 3") && r.stderr.contains("not valid UTF-8"), r.stderr)
        bytes = Array("id,s\n1,caf".utf8) + [0xE9] + Array("\n".utf8)  // Latin-1 é
        try Data(bytes).write(to: dir.appendingPathComponent("bad.csv"))
        r = try StrataCLI.run(["import", file, "--class", "Thing", path("bad.csv")])
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("line 2") && r.stderr.contains("not valid UTF-8"), r.stderr)
        try assertRefused(file, "Thing", "[\n{\"id\": 1,\n \"s\": \"a\", \"s\": \"b\"}\n]", ["line 3", "\"s\" appears twice"])
        try assertRefused(file, "Thing", "id,s,s\n1,a,b\n", name: "dup.csv", ["line 1", "'s' twice"])
        XCTAssertEqual(try count(file, "Thing"), 0)
    }

    func testLoneSurrogatesAreErrorsNotTraps() throws {
        let file = try makeAllTypes()
        for text in ["\\uD800\\u0041", "\\uD800", "\\uDC00", "\\uDBFF\\uDBFF"] {
            try assertRefused(file, "Thing", "[{\"id\": 1, \"s\": \"x\(text)y\"}]", ["line 1", "surrogate"])
        }
        // Inside a CSV collection field (JSON text in a CSV field).
        let csv = "id,ostrings\n1,\"[\"\"\\uD800\\u0041\"\"]\"\n"
        try assertRefused(file, "Thing", csv, name: "s.csv", ["line 2", "ostrings", "surrogate"])
        // A proper pair is one character.
        let ok = try write("[{\"id\": 1, \"s\": \"\\uD83D\\uDE80\"}]", to: "ok.json")
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "Thing", ok]).code, 0)
    }

    func testDeeplyNestedJSONIsRefusedNotAStackOverflow() throws {
        let file = try makeAllTypes()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let r = try StrataCLI.run(["import", file, "--class", "Thing", try write(deep, to: "deep.json")])
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("nested more than 512 levels"), r.stderr)
        // Inside an object, in a mixed field, the same.
        let inObject = "[{\"id\": 1, \"any\": " + String(repeating: "{\"a\":", count: 5_000) + "1" + String(repeating: "}", count: 5_000) + "}]"
        let r2 = try StrataCLI.run(["import", file, "--class", "Thing", try write(inObject, to: "deep2.json")])
        XCTAssertEqual(r2.code, 4, r2.stderr)
    }

    func testDuplicatePrimaryKeyIsSaidWithTheLineAndTheKey() throws {
        let file = try makeDemo()
        let r = try StrataCLI.run(["import", file, "--class", "Person", try write("[\n{\"id\": 999999, \"name\": \"new\"},\n{\"id\": 1, \"name\": \"dup\"}\n]", to: "p.json")])
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("line 3: Person with id 1 already exists"), r.stderr)
        XCTAssertFalse(r.stderr.contains("update:"), "no Swift API advice on the command line: \(r.stderr)")
    }

    /// A write that fails in the engine is exit 7, not "bad import data". The file-size limit
    /// (`ulimit -f`, SIGXFSZ ignored so the write fails with EFBIG) stands in for a full disk:
    /// both reach the command as a storage I/O error.
    func testImportThatCannotBeWrittenExits7AndLosesNothing() throws {
        let file = try makeDemo()
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        let rows = (0..<4000).map { "{\"name\": \"Company \($0) \(String(repeating: "x", count: 300))\", \"country\": \"C\"}" }
        let input = try write("[\n" + rows.joined(separator: ",\n") + "\n]", to: "big.json")
        let before = try count(file, "Company")
        let r = try runShell("trap '' XFSZ; ulimit -f \((size + 64 * 1024) / 512);", ["import", file, "--class", "Company", input])
        XCTAssertEqual(r.code, 7, r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing was imported"), r.stderr)
        XCTAssertFalse(r.stderr.contains("line "), "not blamed on the data: \(r.stderr)")
        XCTAssertEqual(try StrataCLI.run(["check", file]).code, 0)
        XCTAssertEqual(try count(file, "Company"), before)
    }

    func testCreateMakesAMissingDatabaseFileAndWithoutItStaysAnError() throws {
        let input = try write("[{\"n\": 1, \"s\": \"a\"}, {\"n\": 2, \"s\": null}]", to: "c.json")
        let without = try StrataCLI.run(["import", path("new.strata"), "--class", "C", input])
        XCTAssertEqual(without.code, 3, without.stderr)
        XCTAssertTrue(without.stderr.contains("--create"), without.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new.strata")))
        let with = try StrataCLI.run(["import", path("new.strata"), "--class", "C", input, "--create"])
        XCTAssertEqual(with.code, 0, with.stderr)
        XCTAssertEqual(try count(path("new.strata"), "C"), 2)
        // A failed import into a file it would create leaves no file behind.
        let bad = try write("[{\"n\": 1}, {\"n\": \"x\"}]", to: "bad.json")
        XCTAssertEqual(try StrataCLI.run(["import", path("new2.strata"), "--class", "C", bad, "--create"]).code, 4)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new2.strata")))
    }

    /// A FIFO (a shell's `<(cat x.csv)` is one, as /dev/fd/N) is read to its end: it was
    /// "cannot read the input file" (exit 4).
    /// CSV on standard input (or in a file not named .csv) is read as JSON, and the error was
    /// "invalid JSON: unexpected text (expected null)"; it says why it was read as JSON and to
    /// add --format csv. Real JSON with an error gets no such hint.
    func testCSVReadAsJSONSaysToAddFormatCSV() throws {
        let file = try makeDemo()
        let csv = "name,country\nx,y\n"
        let piped = try StrataCLI.run(["import", file, "--class", "Company", "-"], input: Data(csv.utf8))
        XCTAssertEqual(piped.code, 4, piped.stderr)
        XCTAssertTrue(piped.stderr.contains("read as JSON because the input is standard input; for CSV add --format csv)"), piped.stderr)
        let named = try StrataCLI.run(["import", file, "--class", "Company", try write(csv, to: "companies.txt")])
        XCTAssertEqual(named.code, 4, named.stderr)
        XCTAssertTrue(named.stderr.contains("read as JSON because the name does not end in .csv; for CSV add --format csv)"), named.stderr)
        let json = try StrataCLI.run(["import", file, "--class", "Company", "-"], input: Data(#"[{"name": "x",}]"#.utf8))
        XCTAssertEqual(json.code, 4, json.stderr)
        XCTAssertFalse(json.stderr.contains("--format"), json.stderr)
        let works = try StrataCLI.run(["import", file, "--class", "Company", "--format", "csv", "-"], input: Data(csv.utf8))
        XCTAssertEqual(works.code, 0, works.stderr)
    }

    func testImportReadsAFIFO() throws {
        let file = try makeDemo()
        let before = try count(file, "Company")
        let fifo = path("in.csv")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let writer = Thread {
            // Written in pieces: the reader sees several short reads before the end.
            guard let h = FileHandle(forWritingAtPath: fifo) else { return }
            for piece in ["name,country\nFifo ", "One,NZ\n", "Fifo Two,FR\n"] {
                h.write(Data(piece.utf8))
                usleep(20_000)
            }
            try? h.close()
        }
        writer.start()
        let r = try StrataCLI.run(["import", file, "--class", "Company", fifo, "--format", "csv"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try count(file, "Company"), before + 2)
    }

    /// `--create` infers a number type only for text that reads back the same: leading zeros,
    /// `+`, integers beyond Int64 or that a Double would round stay text in CSV (they became
    /// 1234 and 9.223372036854776e+18); in JSON such an integer is refused, not rounded.
    func testCreateInfersTextForValuesANumberWouldChange() throws {
        let file = path("inf.strata")
        let csv = try write("zip,big,plus,d,odd,i,x\n01234,9223372036854775807,+5,1.5,nan,7,0x10\n00042,9223372036854775808,6,9007199254740993,1,-8,1\n", to: "inf.csv")
        let r = try StrataCLI.run(["import", file, "--class", "I", csv, "--create"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let db = try Database(path: file)
        defer { db.close() }
        let types = Dictionary(uniqueKeysWithValues: db.schema["I"]!.properties.map { ($0.name, $0.type) })
        XCTAssertEqual(types, ["zip": .string, "big": .string, "plus": .string, "d": .string, "odd": .string, "i": .int, "x": .string])
        let e = try StrataCLI.run(["export", file, "--class", "I", "--format", "csv"])
        XCTAssertEqual(e.code, 0, e.stderr)
        XCTAssertTrue(e.stdout.contains("01234,9223372036854775807,+5,1.5,nan,7,0x10"), e.stdout)
        XCTAssertTrue(e.stdout.contains("00042,9223372036854775808,6,9007199254740993,1,-8,1"), e.stdout)
        // Plain doubles are still doubles.
        let ok = try write("f\n1.5\n-2e3\n3\n", to: "ok.csv")
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "F", ok, "--create"]).code, 0)
        // JSON: a number is a number; one an Int cannot hold and a Double would round is refused.
        for (name, text) in [("j1.json", "[{\"n\": 1}, {\"n\": 9223372036854775808}]"), ("j2.json", "[{\"n\": 1.5}, {\"n\": 9007199254740993}]")] {
            let j = try StrataCLI.run(["import", path("j.strata"), "--class", "J", try write(text, to: name), "--create"])
            XCTAssertEqual(j.code, 4, j.stderr)
            XCTAssertTrue(j.stderr.contains("a Double would round it") && j.stderr.contains("'n'"), j.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("j.strata")))
        }
    }

    /// `--create` adds the class in the import's own transaction: a failed import leaves no
    /// class and no commit (it left an empty class and a migration commit).
    func testFailedCreateLeavesNoClassAndNoCommit() throws {
        let file = try makeDemo()
        let before = try StrataCLI.run(["info", file, "--json"]).object
        // Row 2's string is past the 16 MB limit: found while inserting, after the class was made.
        let long = try write("[{\"a\": 1, \"s\": \"x\"}, {\"a\": 2, \"s\": \"\(String(repeating: "y", count: 17 << 20))\"}]", to: "long.json")
        let r = try StrataCLI.run(["import", file, "--class", "Long", long, "--create"])
        XCTAssertEqual(r.code, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing was imported"), r.stderr)
        let after = try StrataCLI.run(["info", file, "--json"]).object
        XCTAssertEqual(after["version"] as? Int, before["version"] as? Int, "no commit")
        XCTAssertFalse((after["classes"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "Long" })
        // The same class with good data: created and filled in one commit.
        let good = try write("[{\"a\": 1, \"s\": \"x\"}]", to: "good.json")
        let ok = try StrataCLI.run(["import", file, "--class", "Long", good, "--create"])
        XCTAssertEqual(ok.code, 0, ok.stderr)
        XCTAssertEqual(try StrataCLI.run(["info", file, "--json"]).object["version"] as? Int, (before["version"] as? Int ?? 0) + 1)
        XCTAssertEqual(try count(file, "Long"), 1)
    }

    /// An empty input commits nothing and says so.
    func testEmptyInputCommitsNothing() throws {
        let file = try makeDemo()
        let before = try StrataCLI.run(["info", file, "--json"]).object
        for (text, name) in [("[]", "e.json"), ("name,country\n", "e.csv")] {
            let r = try StrataCLI.run(["import", file, "--class", "Company", try write(text, to: name)])
            XCTAssertEqual(r.code, 0, r.stderr)
            XCTAssertEqual(r.stdout, "imported 0 objects into Company (nothing to commit)\n")
        }
        XCTAssertEqual(try StrataCLI.run(["info", file, "--json"]).object["version"] as? Int, before["version"] as? Int)
    }

    func testCreateAcceptsOnlyNamesThatRealmAndSwiftAccept() throws {
        let file = try makeDemo()
        let badProperties = ["a b", "a\nb", "a/b", "1abc", "", String(repeating: "p", count: 64), "a-b"]
        for name in badProperties {
            let json = "[{\(jsonQuoted(name)): 1}]"
            let r = try StrataCLI.run(["import", file, "--class", "C", try write(json, to: "n.json"), "--create"])
            XCTAssertEqual(r.code, 4, "\(name.debugDescription): \(r.stderr)")
        }
        let csv = try write("ok,\"has space\"\n1,2\n", to: "n.csv")
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "C", csv, "--create"]).code, 4)
        let good = try write("[{\"ok_1\": 1, \(jsonQuoted(String(repeating: "p", count: 63))): 2, \"café\": 3}]", to: "g.json")
        for (className, code) in [("Bad Class", 4), ("Bad/Class", 4), (String(repeating: "C", count: 58), 4), (String(repeating: "C", count: 57), 0)] {
            let r = try StrataCLI.run(["import", file, "--class", className, good, "--create"])
            XCTAssertEqual(r.code, Int32(code), "\(className): \(r.stderr)")
        }
        let swift = try StrataCLI.run(["schema", file, "--swift"])
        XCTAssertTrue(swift.stdout.contains("@Persisted var café: Int"), swift.stdout)
    }

    func testBadRowFailsTheWholeImportWithItsLineNumber() throws {
        let file = try makeDemo(events: 2000)
        let before = try StrataCLI.run(["info", file, "--json"]).object
        let json = """
        [
        {"name": "Good Co", "country": "France"},
        {"name": "Also Good", "country": "Japan", "founded": "2020-02-02"},
        {"name": "Bad", "country": "X", "founded": "not a date"},
        {"name": "Never", "country": "Y"}
        ]
        """
        try Data(json.utf8).write(to: dir.appendingPathComponent("companies.json"))
        let r = try StrataCLI.run(["import", file, "--class", "Company", path("companies.json")])
        XCTAssertEqual(r.code, 4)
        XCTAssertTrue(r.stderr.contains("line 4"), r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing was imported"), r.stderr)
        let after = try StrataCLI.run(["info", file, "--json"]).object
        XCTAssertEqual(after["version"] as? Int, before["version"] as? Int, "nothing written")
        // Unknown property, wrong type, malformed JSON: each a line number and exit 4.
        for (text, line) in [("[\n{\"name\": \"A\", \"country\": \"B\", \"nope\": 1}\n]", 2), ("[{\"name\": 3, \"country\": \"B\"}]", 1),
                             ("[\n{\"name\": \"A\",\n \"country\": }\n]", 3)] {
            try Data(text.utf8).write(to: dir.appendingPathComponent("bad.json"))
            let bad = try StrataCLI.run(["import", file, "--class", "Company", path("bad.json")])
            XCTAssertEqual(bad.code, 4, text)
            XCTAssertTrue(bad.stderr.contains("line \(line)"), "\(text): \(bad.stderr)")
        }
        // A good import works, and --create makes a class from the data.
        try Data("[{\"name\": \"Good\", \"country\": \"Peru\"}]".utf8).write(to: dir.appendingPathComponent("good.json"))
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "Company", path("good.json")]).code, 0)
        try Data("city,population,capital\nLima,9751717,true\n\"São Paulo, SP\",12325232,false\nNowhere,,\n".utf8).write(to: dir.appendingPathComponent("cities.csv"))
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "City", path("cities.csv")]).code, 4, "no --create")
        let created = try StrataCLI.run(["import", file, "--class", "City", path("cities.csv"), "--create"])
        XCTAssertEqual(created.code, 0, created.stderr)
        let cities = try StrataCLI.run(["query", file, "City", "population > 10000000", "--json"])
        XCTAssertEqual((cities.json as? [[String: Any]])?.first?["city"] as? String, "São Paulo, SP")
        let schema = try StrataCLI.run(["schema", file, "--json"]).object
        let city = (schema["classes"] as? [[String: Any]])?.first { $0["name"] as? String == "City" }
        let types = (city?["properties"] as? [[String: Any]])?.map { "\($0["name"]!):\($0["type"]!):\(($0["optional"] as? Bool) ?? false)" }
        XCTAssertEqual(types, ["city:string:false", "population:int:true", "capital:bool:true"])
    }
}

/// A JSON string literal (for test inputs).
func jsonQuoted(_ s: String) -> String {
    let data = try! JSONSerialization.data(withJSONObject: [s])
    return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
}
