import Foundation
import Strata
import StrataTooling
import XCTest
@testable import strata

/// The import/export codecs and schema inference of `Transfer.swift`, without a process.
final class TransferCodecTests: XCTestCase {
    func parse(_ text: String) throws -> JNode { try JSONParser.parseDocument(Array(text.utf8)) }

    func testJSONParserKeepsNumberTextAndElementLines() throws {
        guard case .array(let items, let lines) = try parse("[\n {\"a\": 1.50, \"b\": \"x\\u00e9\\n\"},\n\n {\"a\": -2e3}\n]") else { return XCTFail("not an array") }
        XCTAssertEqual(lines, [2, 4])
        guard case .object(let fields) = items[0] else { return XCTFail("not an object") }
        XCTAssertEqual(fields.map(\.0), ["a", "b"])
        if case .number(let t) = fields[0].1 { XCTAssertEqual(t, "1.50", "the number's text is kept") } else { XCTFail("a number") }
        XCTAssertEqual(fields[1].1.stringValue, "xé\n")
        XCTAssertEqual(try parse("\"\\ud83d\\ude80\"").stringValue, "🚀", "a surrogate pair")
    }

    func testJSONParserErrorsNameTheLine() {
        for (text, line) in [("[1,\n2,\n]", 3), ("{\"a\" 1}", 1), ("[\"open", 1), ("[1] x", 1)] {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertTrue(String(describing: error).hasPrefix("line \(line):"), "\(text): \(error)")
            }
        }
    }

    func testCSVParserQuotesLineBreaksAndRecordLines() throws {
        let records = try CSV.parse(Array("\u{FEFF}a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\n,\"\"\n".utf8))
        XCTAssertEqual(records.map(\.line), [1, 2, 4])
        XCTAssertEqual(records[0].fields.map(\.text), ["a", "b"])
        XCTAssertEqual(records[1].fields.map(\.text), ["x, \"y\"", "two\nlines"])
        XCTAssertEqual(records[2].fields.map(\.text), ["", ""])
        XCTAssertEqual(records[2].fields.map(\.quoted), [false, true], "null (empty) and empty string (\"\") differ")
        XCTAssertThrowsError(try CSV.parse(Array("a\n\"open\n".utf8)))
        XCTAssertThrowsError(try CSV.parse(Array("a\nx\"y\n".utf8)))
    }

    func testCSVQuoteRoundTripsThroughTheParser() throws {
        for s in AllTypes.tricky where !s.isEmpty {
            let record = try CSV.parse(Array((CSV.quote(s, force: false) + "\n").utf8))
            XCTAssertEqual(record.first?.fields.first?.text, s, s)
        }
        XCTAssertEqual(CSV.quote("", force: true), "\"\"")
        XCTAssertEqual(CSV.quote("plain", force: false), "plain")
        XCTAssertEqual(CSV.quote(" pad", force: false), "\" pad\"")
    }

    func testJSONQuoteEscapesControlCharacters() throws {
        let s = "a\"b\\c\nd\u{1}e\u{7F}"
        let quoted = JSON.quote(s)
        XCTAssertEqual(quoted, "\"a\\\"b\\\\c\\nd\\u0001e\\u007f\"")
        XCTAssertEqual(try parse(quoted).stringValue, s)
    }

    func testSchemaInferenceFromJSON() throws {
        guard case .array(let rows, _) = try parse("""
        [{"id": 1, "name": "a", "score": 1.5, "ok": true, "tags": ["x"], "note": null},
         {"id": 2, "name": "b", "score": 2, "ok": false, "tags": []}]
        """) else { return XCTFail("array") }
        let os = try SchemaInference.infer(className: "T", json: rows)
        let described = os.properties.map { "\($0.name):\($0.type):\($0.collection == .list ? "list" : "single"):\($0.isOptional)" }
        XCTAssertEqual(described, ["id:int:single:false", "name:string:single:false", "score:double:single:false",
                                   "ok:bool:single:false", "tags:string:list:false", "note:string:single:true"])
        guard case .array(let mixed, _) = try parse("[{\"v\": 1}, {\"v\": \"x\"}]") else { return XCTFail("array") }
        XCTAssertThrowsError(try SchemaInference.infer(className: "T", json: mixed))
    }

    func testSchemaInferenceFromCSV() throws {
        let records = try CSV.parse(Array("n,x,flag,s\n1,1.5,true,a\n2,,false,\"\"\n".utf8))
        let os = try SchemaInference.infer(className: "C", csvHeader: records[0].fields.map(\.text), records: Array(records.dropFirst()))
        XCTAssertEqual(os.properties.map { "\($0.name):\($0.type):\($0.isOptional)" }, ["n:int:false", "x:double:true", "flag:bool:false", "s:string:false"])
    }
}
