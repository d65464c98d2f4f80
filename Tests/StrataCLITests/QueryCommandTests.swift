import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata query` as a process.
final class QueryCommandTests: CLITestCase {
    func testQueryTableAndJSON() throws {
        let file = try makeDemo(events: 2000)
        let json = try StrataCLI.run(["query", file, "Person", "age >= 30 SORT(age DESC)", "--json", "--limit", "5"])
        XCTAssertEqual(json.code, 0, json.stderr)
        let people = try XCTUnwrap(json.json as? [[String: Any]])
        XCTAssertEqual(people.count, 5)
        let ages = people.map { $0["age"] as! Int }
        XCTAssertEqual(ages, ages.sorted(by: >))
        let table = try StrataCLI.run(["query", file, "Event", "kind == 'purchase'", "--limit", "3"])
        XCTAssertEqual(table.code, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("purchase"))
        XCTAssertTrue(table.stdout.contains("(3 objects)"))
    }

    /// Control characters in a stored string reached the terminal raw from the table (an ESC
    /// sequence recoloured it, a CR or tab broke the columns); they are shown as symbols, and
    /// the JSON keeps the exact value.
    func testTableShowsControlCharactersAsSymbols() throws {
        let file = try makeDemo()
        let input = try write(#"[{"name":"evil\u001b[31mRED\u001b[0m\tbell\u0007\r\u0000x\u009b2J\nend","country":"ctl"}]"#, to: "c.json")
        XCTAssertEqual(try StrataCLI.run(["import", file, "--class", "Company", input]).code, 0)
        let table = try StrataCLI.run(["query", file, "Company", "country == 'ctl'"])
        XCTAssertEqual(table.code, 0, table.stderr)
        XCTAssertNil(table.stdout.unicodeScalars.first { $0.value < 0x20 && $0 != "\n" || (0x7F..<0xA0).contains($0.value) },
                     table.stdout.debugDescription)
        XCTAssertTrue(table.stdout.contains("evil␛[31mRED␛[0m␉bell␇␍␀x�2J⏎end"), table.stdout)
        let json = try StrataCLI.run(["query", file, "Company", "country == 'ctl'", "--json"])
        let objects = try XCTUnwrap(json.json as? [[String: Any]])
        XCTAssertEqual(objects.first?["name"] as? String, "evil\u{1B}[31mRED\u{1B}[0m\tbell\u{07}\r\u{00}x\u{9B}2J\nend")
    }
}
