import Foundation
import Strata
import XCTest

/// Dates and the other values whose text is easy to get subtly wrong, through the real
/// executable: import → export round trips at the ends of the stored range and to the
/// nanosecond, Realm files' timestamps, floats and UUIDs exported as realm-core wrote them,
/// `convert` listing what a Strata file cannot hold, CSV empty fields.
final class DateValueTests: CLITestCase {
    static let fixtures = RealmFileCommandTests.fixtures

    func makeAllTypes() throws -> String {
        let file = path("all.strata")
        try AllTypes.create(file, objects: 0)
        return file
    }

    /// Imports one Thing object per date (JSON), exports them and returns `date` by id.
    func roundTrip(_ file: String, _ dates: [String], format: String) throws -> [Int: String] {
        let input: String
        if format == "json" {
            input = "[" + dates.enumerated().map { i, d in "{\"id\": \(i + 1), \"date\": \"\(d)\", \"dates\": [\"\(d)\"]}" }.joined(separator: ",\n") + "]"
        } else {
            input = "id,date\n" + dates.enumerated().map { i, d in "\(i + 1),\(d)" }.joined(separator: "\n") + "\n"
        }
        let source = try write(input, to: "in.\(format)")
        let r = try StrataCLI.run(["import", file, "--class", "Thing", source])
        XCTAssertEqual(r.code, 0, r.stderr)
        let out = try StrataCLI.run(["export", file, "--class", "Thing"])
        XCTAssertEqual(out.code, 0, out.stderr)
        let objects = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
        var byId: [Int: String] = [:]
        for o in objects {
            let id = try XCTUnwrap(o["id"] as? Int)
            byId[id] = o["date"] as? String
            if format == "json" { XCTAssertEqual((o["dates"] as? [String])?.first, byId[id], "the list element too") }
        }
        return byId
    }

    /// Bug 1 and 10: every date in the stored range is stored and exported exactly as written,
    /// to the nanosecond, the first and last nanosecond of the range included; no Double on the way.
    func testDatesAtTheEndsOfTheRangeAndToTheNanosecondRoundTrip() throws {
        let dates = [
            "2262-01-01T00:00:00.000Z", "2261-09-01T00:00:00.000Z", "1678-01-01T00:00:00.000Z", "2261-06-01T00:00:00.000Z",
            "2262-04-11T23:47:16.854775807Z", "1677-09-21T00:12:43.145224192Z",
            "1969-12-31T23:59:59.999Z", "2024-03-15T12:34:56.123456789Z", "1969-12-31T23:59:59.999999999Z",
            "1970-01-01T00:00:00.000000001Z", "1930-11-18T00:28:29.012345679Z", "2024-03-15T12:34:56.789012345Z",
        ]
        for format in ["json", "csv"] {
            let file = path("round-\(format).strata")
            try AllTypes.create(file, objects: 0)
            let got = try roundTrip(file, dates, format: format)
            for (i, d) in dates.enumerated() { XCTAssertEqual(got[i + 1], d, "\(format): \(d)") }
        }
        // The engine holds exactly those nanoseconds.
        let db = try Database(path: path("round-json.strata"))
        defer { db.close() }
        let t = try db.read()
        defer { t.end() }
        let last = try XCTUnwrap(try t.find("Thing", primaryKey: .int(5)))
        XCTAssertEqual(try t.value("Thing", last, "date"), .date(Timestamp.max))
        let first = try XCTUnwrap(try t.find("Thing", primaryKey: .int(6)))
        XCTAssertEqual(try t.value("Thing", first, "date"), .date(Timestamp.min))
    }

    /// Bug 1: one nanosecond past either end is refused with the range it can store, not moved.
    func testDatesJustOutsideTheRangeAreRefused() throws {
        let file = try makeAllTypes()
        for d in ["2262-04-11T23:47:16.854775808Z", "1677-09-21T00:12:43.145224191Z", "2262-04-12", "1677-09-21"] {
            let source = try write("[{\"id\": 1, \"date\": \"\(d)\"}]", to: "in.json")
            let r = try StrataCLI.run(["import", file, "--class", "Thing", source])
            XCTAssertEqual(r.code, 4, "\(d): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("'\(d)' is outside the dates Strata stores (1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z)"), r.stderr)
            XCTAssertEqual(try count(file, "Thing"), 0)
        }
    }

    /// Bug 9: a Realm file's export matches realm-core's own JSON for floats and doubles
    /// (NaN and infinities as "NaN", "Infinity", "-Infinity"), timestamps (every nanosecond,
    /// years 0001 and 9999) and UUIDs (lower case, as Strata files export them too).
    func testRealmExportMatchesTheOracleForDatesFloatsAndUUIDs() throws {
        let file = try XCTUnwrap(Optional(Self.fixtures.appendingPathComponent("all-types.realm").path))
        let r = try StrataCLI.run(["export", file, "--class", "AllTypes"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let got = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let oracleData = try Data(contentsOf: Self.fixtures.appendingPathComponent("all-types.json"))
        let oracle = try XCTUnwrap(try JSONSerialization.jsonObject(with: oracleData) as? [String: Any])
        let expected = try XCTUnwrap(((oracle["classes"] as? [String: Any])?["AllTypes"] as? [String: Any])?["objects"] as? [[String: Any]])
        let gotById = Dictionary(uniqueKeysWithValues: got.map { (($0["_id"] as? Int) ?? -1, $0) })
        /// The oracle's dates have nine fraction digits; Strata's text drops trailing zeros down to three.
        func normal(_ v: Any?, float: Bool) -> String {
            switch v {
            case let s as String:
                guard let dot = s.firstIndex(of: "."), s.hasSuffix("Z"), s.count > 20 else { return s }
                var fraction = String(s[s.index(after: dot)..<s.index(before: s.endIndex)])
                while fraction.count > 3, fraction.hasSuffix("0") { fraction.removeLast() }
                return String(s[..<dot]) + "." + fraction + "Z"
            case let n as NSNumber: return float ? String(Float(n.doubleValue)) : String(n.doubleValue)
            case nil, is NSNull: return "null"
            case let a as [Any]: return "[" + a.map { normal($0, float: float) }.joined(separator: ",") + "]"
            case let d as [String: Any]: return "{" + d.keys.sorted().map { "\($0):\(normal(d[$0], float: float))" }.joined(separator: ",") + "}"
            default: return "\(v!)"
            }
        }
        var compared = 0
        for o in expected {
            let id = try XCTUnwrap(o["_id"] as? Int)
            let g = try XCTUnwrap(gotById[id], "object \(id)")
            for (name, value) in o where ["date", "float", "double", "uuid"].contains(where: { name.lowercased().contains($0) }) && !name.contains("mixed") {
                let float = name.lowercased().contains("float")
                XCTAssertEqual(normal(g[name], float: float), normal(value, float: float), "AllTypes \(id).\(name)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 200)
        for text in ["\"nan\"", "\"inf\"", "\"-inf\"", "0001-01-03", "10000-01-01"] { XCTAssertFalse(r.stdout.contains(text), text) }
        XCTAssertTrue(r.stdout.contains("\"9999-12-31T23:59:59.999999999Z\"") && r.stdout.contains("\"0001-01-01T00:00:00.000Z\""))
    }

    /// Bug 9: Strata's own export writes UUIDs in the same lower-case form.
    func testStrataExportWritesUUIDsInLowerCase() throws {
        let file = try makeAllTypes()
        let source = try write("[{\"id\": 1, \"uuid\": \"3B241101-E2BB-4255-8CAF-4136C566A962\", \"any\": {\"$uuid\": \"3B241101-E2BB-4255-8CAF-4136C566A962\"}}]", to: "in.json")
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "Thing", source]).code, 0)
        let r = try StrataCLI.run(["export", file, "--class", "Thing"])
        XCTAssertTrue(r.stdout.contains("\"uuid\":\"3b241101-e2bb-4255-8caf-4136c566a962\""), r.stdout)
        XCTAssertTrue(r.stdout.contains("{\"$uuid\":\"3b241101-e2bb-4255-8caf-4136c566a962\"}"), r.stdout)
        XCTAssertFalse(r.stdout.contains("3B241101"), r.stdout)
        let q = try StrataCLI.run(["query", file, "Thing", "id == 1"])
        XCTAssertEqual(q.code, 0, q.stderr)
        XCTAssertTrue(q.stdout.contains("3b241101-e2bb-4255-8caf") && !q.stdout.contains("3B241101"), q.stdout)
    }

    /// Bug 2: `convert` stores every timestamp in Strata's range to the nanosecond; dates outside
    /// it and a set's -0.0 beside 0 are refused without --allow-loss and listed with it.
    func testConvertKeepsTimestampsExactlyAndListsWhatItCannotStore() throws {
        let realm = path("all-types.realm")
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("all-types.realm").path, toPath: realm)
        let out = path("at.strata")
        let refused = try StrataCLI.run(["convert", realm, out])
        XCTAssertEqual(refused.code, 5, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("× date outside the dates Strata stores"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("AllTypes.dateList of #1: 9999-12-31T23:59:59.999999999Z"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("AllTypes.dateList of #1: 0001-01-01T00:00:00.000000000Z"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("AllTypes.doubleSet of #1: -0.0"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        let r = try StrataCLI.run(["convert", realm, out, "--allow-loss"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("× set element equal to another in a Strata set"), r.stderr)
        let q = try StrataCLI.run(["query", out, "AllTypes", "_id == 1", "--json"])
        XCTAssertEqual(q.code, 0, q.stderr)
        let row = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(q.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertEqual(row["dateList"] as? [String], [
            "2024-03-15T12:34:56.789012345Z", "1969-12-31T23:59:58.500Z", "1969-12-31T23:59:59.999999999Z",
            "1900-01-01T00:00:00.000Z", "1970-01-01T00:00:01.000000001Z", "1930-11-18T00:28:29.012345679Z",
            "1970-01-01T00:00:00.000Z", "2024-03-15T12:34:56.789012345Z",
        ])
        XCTAssertEqual((row["doubleSet"] as? [Any])?.count, 11, "0 kept once, the -0.0 listed above")
    }

    /// Bug 8: in CSV an empty field is null: refused (line and column named) for a required
    /// Double, Bool, Int or date as null is in JSON, never stored as 0 or false; for a required
    /// String it is the empty string; for an optional property null.
    func testEmptyCSVFieldForARequiredNonStringIsRefused() throws {
        let file = try makeAllTypes()
        for (header, row, column, name) in [("id,s,d,b", "900020,,,", 3, "d"), ("id,b", "1,", 2, "b"), ("id,i", "1,", 2, "i"),
                                            ("id,date", "1,", 2, "date")] {
            let source = try write("\(header)\n\(row)\n", to: "in.csv")
            let r = try StrataCLI.run(["import", file, "--class", "Thing", source])
            XCTAssertEqual(r.code, 4, "\(header): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("line 2: column \(column) (\(name), "), r.stderr)
            XCTAssertTrue(r.stderr.contains("is not optional"), r.stderr)
            XCTAssertEqual(try count(file, "Thing"), 0)
        }
        let source = try write("id,s,os,od,ob\n7,,,,\n", to: "ok.csv")
        let r = try StrataCLI.run(["import", file, "--class", "Thing", source])
        XCTAssertEqual(r.code, 0, r.stderr)
        let db = try Database(path: file)
        defer { db.close() }
        let t = try db.read()
        defer { t.end() }
        let key = try XCTUnwrap(try t.find("Thing", primaryKey: .int(7)))
        XCTAssertEqual(try t.value("Thing", key, "s"), .string(""))
        XCTAssertEqual(try t.value("Thing", key, "os"), .null)
        XCTAssertEqual(try t.value("Thing", key, "od"), .null)
        XCTAssertEqual(try t.value("Thing", key, "ob"), .null)
    }

    /// Bug 20a: the help says what convert can and cannot store (every Decimal128 converts).
    func testConvertHelpNamesWhatCannotBeStored() throws {
        let r = try StrataCLI.run(["convert", "--help"])
        let help = r.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        XCTAssertFalse(help.contains("38 digits") || help.contains("±127"), help)
        XCTAssertTrue(help.contains("Every Decimal128 converts"), help)
        XCTAssertTrue(help.contains("dates outside"), help)
    }
}
