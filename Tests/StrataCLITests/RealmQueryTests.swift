import Foundation
import StrataTooling
import XCTest

/// RQL over `.realm` files (issue 14): `strata query` and the browser's filter and sort run the
/// query layer over the reader. Every expected answer is computed here from realm-core's JSON
/// oracle (all-types.json), never from the reader.
final class RealmQueryTests: CLITestCase {
    static let fixtures = RealmFileCommandTests.fixtures

    func fixture(_ name: String) throws -> String {
        let target = path(name)
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent(name).path, toPath: target)
        return target
    }

    /// The oracle's objects of a class (`$key`, property values, `$backlinks`).
    func objects(_ className: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("all-types.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let classes = try XCTUnwrap(json["classes"] as? [String: [String: Any]])
        return try XCTUnwrap(classes[className]?["objects"] as? [[String: Any]])
    }

    /// `strata query FILE CLASS QUERY --json`: the `_id` of each object, in order.
    func queryIds(_ file: String, _ className: String, _ query: String, line: UInt = #line) throws -> [String] {
        let r = try StrataCLI.run(["query", file, className, query, "--json"])
        XCTAssertEqual(r.code, 0, r.stderr, line: line)
        let array = try XCTUnwrap(r.json as? [[String: Any]], r.stdout, line: line)
        return array.map { "\($0["_id"] ?? "nil")" }
    }

    func ids(_ objects: [[String: Any]]) -> [String] { objects.map { "\($0["_id"] ?? "nil")" } }

    func int(_ v: Any?) -> Int? { (v as? NSNumber).map(\.intValue) }

    func testFilterSortLimitDistinctMatchTheOracle() throws {
        let file = try fixture("all-types.realm")
        let big = try objects("Big")
        // A scalar filter with a string operator, sorted descending and limited.
        let expected = big.filter { int($0["medium"])! > 1_000_000 && ($0["shortStr"] as! String).hasPrefix("s1") }
            .sorted { int($0["medium"])! > int($1["medium"])! }.prefix(7)
        XCTAssertFalse(expected.isEmpty)
        XCTAssertEqual(try queryIds(file, "Big", "medium > 1000000 AND shortStr BEGINSWITH 's1' SORT(medium DESC) LIMIT(7)"), ids(Array(expected)))
        // DISTINCT keeps the first object (key order) of each value.
        var seen = Set<Bool>()
        let distinct = big.filter { seen.insert($0["flag"] as! Bool).inserted }
        XCTAssertEqual(try queryIds(file, "Big", "TRUEPREDICATE DISTINCT(flag)"), ids(distinct))
        // Counting without --json: the footer says how many.
        let count = try StrataCLI.run(["query", file, "Big", "nibble == 3"])
        XCTAssertEqual(count.code, 0, count.stderr)
        let n = big.filter { int($0["nibble"]) == 3 }.count
        XCTAssertTrue(count.stdout.hasSuffix("(\(n) object\(n == 1 ? "" : "s"))\n"), count.stdout)
    }

    func testKeyPathsThroughLinksListsAndBacklinks() throws {
        let file = try fixture("all-types.realm")
        let all = try objects("AllTypes")
        let targets = Dictionary(uniqueKeysWithValues: try objects("LinkTarget").map { ($0["_id"] as! String, $0) })
        // To-one link, then a property of the target.
        let viaLink = all.filter { ($0["objectCol"] as? String).flatMap { int(targets[$0]?["value"]) }.map { $0 >= 1 } ?? false }
        XCTAssertEqual(try queryIds(file, "AllTypes", "objectCol.value >= 1"), ids(viaLink))
        // ANY over a list of links, and @count of a list of ints.
        let anyList = all.filter { (($0["objectList"] as? [String]) ?? []).contains { targets[$0]?["name"] as? String == "target 2" } }
        XCTAssertEqual(try queryIds(file, "AllTypes", "ANY objectList.name == 'target 2'"), ids(anyList))
        let counted = all.filter { (($0["intList"] as? [Any]) ?? []).count >= 3 }
        XCTAssertEqual(try queryIds(file, "AllTypes", "intList.@count >= 3"), ids(counted))
        let anyInt = all.filter { (($0["intList"] as? [Any]) ?? []).contains { int($0)! > 100 } }
        XCTAssertEqual(try queryIds(file, "AllTypes", "ANY intList > 100"), ids(anyInt))
        // Backlinks (realm-core stores them; the oracle lists them under $backlinks).
        let linked = try objects("LinkTarget").filter { (($0["$backlinks"] as? [String: [Any]])?["Big.target"]?.count ?? 0) > 100 }
        XCTAssertEqual(try queryIds(file, "LinkTarget", "@links.Big.target.@count > 100"), ids(linked))
        // Embedded objects through a to-one path.
        let embedded = all.filter { (($0["embeddedCol"] as? [String: Any])?["value"]).flatMap(int).map { $0 > 100 } ?? false }
        XCTAssertEqual(try queryIds(file, "AllTypes", "embeddedCol.value > 100"), ids(embedded))
    }

    func testDecimalsTimestampsAndErrorsMatchStrataFiles() throws {
        let file = try fixture("all-types.realm")
        let all = try objects("AllTypes")
        // Decimal128 sign from realm-core's text (values beyond Foundation's range included).
        func positive(_ text: String) -> Bool {
            let mantissa = text.uppercased().split(separator: "E").first ?? ""
            return !text.hasPrefix("-") && !text.lowercased().contains("nan") && mantissa.contains { $0 >= "1" && $0 <= "9" }
        }
        XCTAssertEqual(try queryIds(file, "AllTypes", "decimalCol > 0"), ids(all.filter { positive($0["decimalCol"] as! String) }))
        // Dates before 1970 (negative nanoseconds) compare exactly.
        let before = all.filter { ($0["dateCol"] as! String) < "1970-01-01" }
        XCTAssertEqual(try queryIds(file, "AllTypes", "dateCol < T0:0"), ids(before))
        // A bad query: the same message and exit code as for a Strata file.
        let bad = try StrataCLI.run(["query", file, "AllTypes", "intCol >"])
        XCTAssertEqual(bad.code, 4, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("bad query: Invalid query at position 9: expected a value after '>'"), bad.stderr)
        let unknown = try StrataCLI.run(["query", file, "AllTypes", "nope == 1"])
        XCTAssertTrue(unknown.stderr.contains("Unknown property 'nope' on class 'AllTypes'"), unknown.stderr)
    }

    func testBrowserFilterAndSortOnARealmFile() throws {
        let file = try fixture("all-types.realm")
        let big = try objects("Big")
        let source = try RealmFileDataSource(path: file)
        let expected = big.filter { int($0["tiny"]) == 1 && int($0["nibble"])! < 4 }
        XCTAssertEqual(try source.count(className: "Big", filter: "tiny == 1 AND nibble < 4").value, expected.count)
        // Sorted by a string column descending (code point order), then by _id for ties (stable).
        let sorted = expected.sorted { a, b in
            let x = a["shortStr"] as! String, y = b["shortStr"] as! String
            return x != y ? Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) == false : int(a["_id"])! < int(b["_id"])!
        }
        let rows = try source.rows(className: "Big", filter: "tiny == 1 AND nibble < 4", sort: SortSpec(property: "shortStr", ascending: false), range: 0..<5)
        XCTAssertEqual(rows.map { $0.ref?.key }, sorted.prefix(5).map { int($0["$key"]).map(Int64.init) })
        // The cursor keeps its object: position in the filtered, sorted results.
        let third = try XCTUnwrap(rows[2].ref)
        XCTAssertEqual(try source.position(of: third, filter: "tiny == 1 AND nibble < 4", sort: SortSpec(property: "shortStr", ascending: false)), 2)
        // A list sorts by its number of items.
        let byCount = try source.rows(className: "Big", filter: nil, sort: SortSpec(property: "intList", ascending: false), range: 0..<1)
        let longest = big.max { (($0["intList"] as? [Any])?.count ?? 0) < (($1["intList"] as? [Any])?.count ?? 0) }
        XCTAssertEqual(byCount.first?.ref?.key, int(longest?["$key"]).map(Int64.init))
        // A bad filter is a BrowserError with the 0-based position, as for Strata files.
        XCTAssertThrowsError(try source.count(className: "Big", filter: "tiny >")) { error in
            XCTAssertEqual((error as? BrowserError)?.position, 6)
        }
    }
}
