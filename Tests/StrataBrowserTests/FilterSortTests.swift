import XCTest
@testable import StrataBrowser

final class FilterSortTests: XCTestCase {
    func testFilterWithAQuery() {
        let harness = Harness()
        harness.press("/").type("age > 50").press("Enter")
        XCTAssertTrue(harness.lines[1].contains("│Person [age > 50]"), harness.lines[1])
        XCTAssertTrue(harness.lines[1].hasSuffix("1/9"), harness.lines[1])
        XCTAssertTrue(harness.lines[22].contains("9 objects"))
    }

    func testFilterErrorShowsPositionAndKeepsThePreviousView() {
        let harness = Harness()
        harness.press("/").type("age > 50").press("Enter", "j")
        let before = harness.lines
        harness.press("/", "C-u").type("age > 50 AND nmae == 'x'").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("query error at 14: unknown property 'nmae'"), harness.lines[22])
        XCTAssertEqual(Array(harness.lines[0..<22]), Array(before[0..<22]), "the view is unchanged")
        harness.press("/", "C-u").type("age >").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("expected a value"), harness.lines[22])
    }

    func testEmptyFilterClears() {
        let harness = Harness()
        harness.press("/").type("name BEGINSWITH[c] 'a'").press("Enter")
        XCTAssertTrue(harness.lines[1].hasSuffix("1/3"), harness.lines[1])
        harness.press("/", "C-u", "Enter")
        XCTAssertTrue(harness.lines[1].hasSuffix("1/24"))
    }

    func testSortTogglesAndKeepsTheCursorObject() {
        let harness = Harness()
        harness.press("l", "s")
        XCTAssertTrue(harness.lines[2].contains("name ▲"), harness.lines[2])
        XCTAssertTrue(harness.lines[1].contains("name ▲"))
        // The cursor stays on Alice; the first row is the smallest name.
        XCTAssertTrue(harness.text.contains("Alice Martin"))
        harness.press("g")
        XCTAssertTrue(harness.lines[3].contains("Alice Martin"), harness.lines[3])
        harness.press("s", "g")
        XCTAssertTrue(harness.lines[2].contains("name ▼"))
        XCTAssertTrue(harness.lines[3].contains("🐶 Dog Lover"), harness.lines[3])
    }

    func testSortErrorKeepsTheOrder() {
        let harness = Harness()
        harness.press("h", "j", "j", "l", "l", "s")  // Event by kind: not supported by the fake
        XCTAssertTrue(harness.lines[22].contains("sorts the generated Event class by id only"), harness.lines[22])
        XCTAssertFalse(harness.lines[2].contains("▲"))
        harness.press("h", "s", "s")
        XCTAssertTrue(harness.lines[2].contains("id ▼"))
        XCTAssertTrue(harness.lines[3].contains("1  9999999│"), harness.lines[3])
    }
}
