import XCTest
@testable import StrataBrowser
import StrataTooling

/// `/` filters with the real query parser and executor; `s` sorts with the query layer's order.
final class FilterSortTests: XCTestCase {
    /// Number of Person objects the query selects, straight from the data source.
    private func expected(_ harness: Harness, _ query: String) throws -> Int {
        try harness.database.count(className: "Person", filter: query).value
    }

    func testFilterWithAQuery() throws {
        let harness = Harness()
        let n = try expected(harness, "age > 50")
        XCTAssertGreaterThan(n, 0)
        XCTAssertLessThan(n, 24)
        harness.press("/").type("age > 50").press("Enter")
        XCTAssertTrue(harness.lines[1].contains("│Person [age > 50]"), harness.lines[1])
        XCTAssertTrue(harness.lines[1].hasSuffix("1/\(n)"), harness.lines[1])
        XCTAssertTrue(harness.lines[22].contains("\(n) objects"), harness.lines[22])
    }

    func testFilterErrorShowsPositionAndKeepsThePreviousView() {
        let harness = Harness()
        harness.press("/").type("age > 50").press("Enter", "j")
        let before = harness.lines
        harness.press("/", "C-u").type("age > 50 AND nmae == 'x'").press("Enter")
        XCTAssertTrue(harness.lines[21].contains("query error"), harness.lines[21])
        XCTAssertTrue(harness.lines[21].contains("nmae"), harness.lines[21])
        harness.press("Esc")
        XCTAssertEqual(Array(harness.lines[0..<22]), Array(before[0..<22]), "the view is unchanged")
        harness.press("/", "C-u").type("age >").press("Enter")
        XCTAssertTrue(harness.lines[21].contains("query error"), harness.lines[21])
    }

    /// A query with an error comes back in its prompt as typed, the error above it (the prompt
    /// closed, and `/` reopened it on the previous filter: the typed query was lost).
    func testRefusedFilterKeepsThePromptAndTheTypedQuery() throws {
        let harness = Harness()
        harness.press("/").type("name BEGINSWITH 'A' AND agee > 30").press("Enter")
        XCTAssertTrue(harness.lines[21].contains("query error"), harness.lines[21])
        XCTAssertTrue(harness.lines[22].contains("(Realm Query Language): name BEGINSWITH 'A' AND agee > 30"), harness.lines[22])
        // Fix it in place: back over "e > 30", retype.
        for _ in 0..<6 { harness.press("BS") }
        harness.type(" > 30").press("Enter")
        XCTAssertNil(harness.app.prompt)
        let n = try expected(harness, "name BEGINSWITH 'A' AND age > 30")
        XCTAssertTrue(harness.lines[22].contains("\(n) objects"), harness.lines[22])
    }

    func testEmptyFilterClears() throws {
        let harness = Harness()
        let n = try expected(harness, "name BEGINSWITH[c] 'a'")
        harness.press("/").type("name BEGINSWITH[c] 'a'").press("Enter")
        XCTAssertTrue(harness.lines[1].hasSuffix("1/\(n)"), harness.lines[1])
        harness.press("/", "C-u", "Enter")
        XCTAssertTrue(harness.lines[1].hasSuffix("1/24"))
    }

    func testSortTogglesAndKeepsTheCursorObject() {
        let harness = Harness()
        harness.press("l", "s")
        XCTAssertTrue(harness.lines[2].contains("name ▲"), harness.lines[2])
        XCTAssertTrue(harness.lines[1].contains("name ▲"))
        // The cursor stays on Alice; the first row is the smallest name (code point order).
        XCTAssertTrue(harness.text.contains("Alice Martin"))
        harness.press("g")
        XCTAssertTrue(harness.lines[3].contains("Alice Martin"), harness.lines[3])
        harness.press("s", "g")
        XCTAssertTrue(harness.lines[2].contains("name ▼"))
        XCTAssertTrue(harness.lines[3].contains("😀 Sunny"), harness.lines[3])
    }

    func testSortByAColumnWithNullsPutsThemFirst() {
        let harness = Harness()
        harness.press("l", "l", "l", "s", "g")  // age: Person 9 has none
        XCTAssertTrue(harness.lines[2].contains("age ▲"), harness.lines[2])
        XCTAssertTrue(harness.lines[3].contains("null"), harness.lines[3])
    }
}

/// `s` orders a column exactly as RQL `SORT` does (one value ordering, the query layer's): NaN
/// before every number instead of "equal to everything", Int and Double by value.
final class SortOrderingTests: XCTestCase {
    func testSortMatchesTheQueryLayerWithNaN() throws {
        let harness = Harness()
        harness.externalCommit { w in
            try w.set("Person", 5, "score", .double(.nan))
            try w.set("Person", 7, "score", .double(.nan))
        }
        harness.app.processChanges()
        let spec = SortSpec(property: "score", ascending: true)
        let sorted = try harness.database.rows(className: "Person", filter: nil, sort: spec, range: 0..<24)
        let scores: [Double] = sorted.map { row in
            if case .double(let d) = row.values[5] { return d }
            XCTFail("score is a Double"); return 0
        }
        XCTAssertTrue(scores[0].isNaN && scores[1].isNaN, "NaN sorts first: \(scores)")
        XCTAssertEqual(Array(scores.dropFirst(2)), scores.dropFirst(2).sorted(), "the rest ascending: \(scores)")
        let viaQuery = try harness.database.rows(className: "Person", filter: "TRUEPREDICATE SORT(score ASC)", sort: nil, range: 0..<24)
        XCTAssertEqual(sorted.map(\.ref), viaQuery.map(\.ref))
        let descending = try harness.database.rows(className: "Person", filter: nil, sort: SortSpec(property: "score", ascending: false), range: 0..<24)
        let viaQueryDescending = try harness.database.rows(className: "Person", filter: "TRUEPREDICATE SORT(score DESC)", sort: nil, range: 0..<24)
        XCTAssertEqual(descending.map(\.ref), viaQueryDescending.map(\.ref))
    }
}
