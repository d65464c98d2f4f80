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
}
