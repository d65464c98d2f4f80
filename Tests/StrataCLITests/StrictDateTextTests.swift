import Foundation
import Strata
import StrataStorage
import XCTest

/// Date text is read strictly as the ISO 8601 form README documents (the form export writes):
/// `2020-1-1`, a `+` year, a `,` fraction and the like were accepted as dates.
final class StrictDateTextTests: CLITestCase {
    static let refused = [
        "2020-1-1", "2020-01-1", "20-01-01", "+2020-01-01", "-2020-01-01", "02020-01-01", "2020-01-01T12:00:00,5Z",
        "2020-01-01T1:00Z", "2020-01-01T12:0", "2020-01-01T12:00:0", "2020-01-01T12:00:00.Z", "2020-01-01T12:00:00.1234567891Z",
        "2020-01-01T12:00.5Z", "2020-01-01T12:00:00+0200", "2020-01-01T12:00:00+02", "2020-01-01T12:00:00+2:00",
        "2020-01-01t12:00:00Z", "2020-01-01T12:00:00z", "2020-01-01Z", "2020-01-01+02:00", "2020-01-01T", "2020-01-01T12",
        "2020/01/01", "2020-01-01T12:00:00ZZ", "2020-01-01T12:00:00Z+01:00", "２０２０-01-01",
    ]

    static let accepted: [(String, String)] = [
        ("2020-01-01", "2020-01-01T00:00:00.000Z"),
        ("2020-01-01T12:30", "2020-01-01T12:30:00.000Z"),
        ("2020-01-01 12:30:05", "2020-01-01T12:30:05.000Z"),
        ("2020-01-01T12:30:05.5Z", "2020-01-01T12:30:05.500Z"),
        ("2020-01-01T12:30:05.123456789Z", "2020-01-01T12:30:05.123456789Z"),
        ("2020-01-01T14:30:05+02:00", "2020-01-01T12:30:05.000Z"),
        ("2020-01-01T08:00:05.25-04:30", "2020-01-01T12:30:05.250Z"),
        (" 2020-01-01T12:30Z ", "2020-01-01T12:30:00.000Z"),
    ]

    func testTheParserReadsOnlyTheDocumentedForm() throws {
        for text in Self.refused {
            XCTAssertThrowsError(try parseISO8601(text), text) { XCTAssertEqual($0 as? ISO8601TextError, .format, text) }
        }
        for (text, expected) in Self.accepted {
            let parsed = try parseISO8601(text)
            XCTAssertEqual(iso8601Text(seconds: parsed.seconds, nanoseconds: parsed.nanoseconds), expected, text)
        }
        // Well-formed but impossible: said as such, not as a format error.
        XCTAssertThrowsError(try parseISO8601("2020-13-01")) { XCTAssertEqual($0 as? ISO8601TextError, .month(13)) }
        XCTAssertThrowsError(try parseISO8601("2021-02-29")) { XCTAssertEqual($0 as? ISO8601TextError, .day(year: 2021, month: 2, days: 28)) }
        XCTAssertThrowsError(try parseISO8601("2020-01-01T24:00Z")) { XCTAssertEqual($0 as? ISO8601TextError, .timeOfDay) }
        XCTAssertThrowsError(try parseISO8601("2020-01-01T12:00+24:00")) { XCTAssertEqual($0 as? ISO8601TextError, .timeOfDay) }
    }

    func testImportRefusesLenientDatesNamingTheForm() throws {
        let file = path("all.strata")
        try AllTypes.create(file, objects: 0)
        for text in ["2020-1-1", "+2020-01-01", "2020-01-01T12:00:00,5Z", "2020-01-01T12:00:00+0200"] {
            for (format, input) in [("json", "[{\"id\": 1, \"date\": \"\(text)\"}]"), ("csv", "id,date\n1,\"\(text)\"\n")] {
                let source = try write(input, to: "in.\(format)")
                let r = try StrataCLI.run(["import", file, "--class", "Thing", source])
                XCTAssertEqual(r.code, 4, "\(format) \(text): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("'\(text)' is not a date"), r.stderr)
                XCTAssertTrue(r.stderr.contains("YYYY-MM-DD"), "names the expected form: \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("nothing was imported"), r.stderr)
            }
            // An AnyRealmValue's tagged date too.
            let tagged = try write("[{\"id\": 1, \"date\": \"2020-01-01\", \"any\": {\"$date\": \"\(text)\"}}]", to: "tagged.json")
            let r = try StrataCLI.run(["import", file, "--class", "Thing", tagged])
            XCTAssertEqual(r.code, 4, "$date \(text): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("YYYY-MM-DD"), r.stderr)
        }
        let input = "[" + Self.accepted.enumerated().map { "{\"id\": \($0.offset), \"date\": \"\($0.element.0)\"}" }.joined(separator: ",") + "]"
        let r = try StrataCLI.run(["import", file, "--class", "Thing", try write(input, to: "good.json")])
        XCTAssertEqual(r.code, 0, r.stderr)
        let export = try StrataCLI.run(["export", file, "--class", "Thing"])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
        for row in rows {
            let id = try XCTUnwrap(row["id"] as? Int)
            XCTAssertEqual(row["date"] as? String, Self.accepted[id].1, Self.accepted[id].0)
        }
    }
}
