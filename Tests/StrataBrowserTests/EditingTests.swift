import XCTest
@testable import StrataBrowser
import StrataTooling

final class EditingTests: XCTestCase {
    private func value(_ harness: Harness, _ className: String, _ key: Int64, _ property: String) throws -> DisplayValue {
        let detail = try harness.source.object(ObjectRef(className: className, key: key))
        return detail.values[detail.properties.firstIndex { $0.name == property }!]
    }

    func testValidEditIsWrittenAndShown() throws {
        let harness = Harness()
        harness.press("l", "e", "C-u").type("Alicia 🌷").press("Enter")
        XCTAssertEqual(try value(harness, "Person", 0, "name"), .string("Alicia 🌷"))
        XCTAssertTrue(harness.lines[3].contains("Alicia 🌷"))
        XCTAssertEqual(harness.source.status().version, 1043)
        XCTAssertTrue(harness.app.log.last?.text.contains("v1043 by this browser") ?? false)
    }

    func testInvalidEditShowsMessageAndChangesNothing() throws {
        let harness = Harness()
        harness.press("l", "l", "e", "C-u").type("abc").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("'abc' is not a valid Int for age"), harness.lines[22])
        XCTAssertEqual(try value(harness, "Person", 0, "age"), .int(18))
        XCTAssertEqual(harness.source.status().version, 1042)
        XCTAssertTrue(harness.lines[3].contains("18"))
    }

    func testEditingALinkByPrimaryKey() throws {
        let harness = Harness()
        harness.press("l", "l", "l", "l", "l", "l", "e", "C-u").type("2").press("Enter")
        XCTAssertTrue(harness.lines[3].contains("→ 2 Bob Chen"), harness.lines[3])
        harness.press("e", "C-u").type("999").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("no Person with key 999"))
    }

    func testEscapeCancelsAnEdit() throws {
        let harness = Harness()
        harness.press("l", "e").type("zzz").press("Esc")
        XCTAssertEqual(try value(harness, "Person", 0, "name"), .string("Alice Martin"))
    }

    func testReadOnlyRefusesEveryEdit() {
        let harness = Harness(readOnly: true)
        for key in ["e", "a", "d", "c"] {
            harness.press(key)
            XCTAssertTrue(harness.lines[22].contains("read-only"), "\(key): \(harness.lines[22])")
            XCTAssertFalse(harness.text.contains("Confirm"))
        }
        XCTAssertTrue(harness.lines[23].contains("ro"))
        XCTAssertEqual(harness.source.status().version, 1042)
    }

    func testAddObjectPromptsFieldByField() {
        let harness = Harness()
        harness.press("a")
        XCTAssertTrue(harness.lines[22].contains("New Person 1/7 · id (Int, primary key)"), harness.lines[22])
        for answer in ["99", "Test 🙂", "", "", "2000-01-02", "1.5", "3"] {
            harness.type(answer).press("Enter")
        }
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }?.count.value, 25)
        XCTAssertTrue(harness.lines[1].hasSuffix("25/25"), harness.lines[1])
        XCTAssertTrue(harness.text.contains("Test 🙂"))
    }

    func testAddObjectWithDuplicatePrimaryKeyIsRefused() {
        let harness = Harness()
        harness.press("a")
        for answer in ["1", "Dup", "", "", "2000-01-02", "1", ""] { harness.type(answer).press("Enter") }
        XCTAssertTrue(harness.lines[22].contains("primary key 1 already exists"), harness.lines[22])
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }?.count.value, 24)
    }

    func testDeleteAsksForConfirmation() {
        let harness = Harness()
        harness.press("d")
        XCTAssertTrue(harness.text.contains("Delete Person 1 Alice Martin?"))
        harness.press("n")
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }?.count.value, 24)
        harness.press("d", "y")
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }?.count.value, 23)
        XCTAssertTrue(harness.lines[3].contains("Bob Chen"))
    }

    func testListItemsCanBeAddedAndRemoved() {
        let harness = Harness()
        harness.press("j", "j", "l", "l", "l", "l", "l", "l", "l", "Enter")  // Zoë's dogs
        XCTAssertTrue(harness.lines[1].hasSuffix("1/2"), harness.lines[1])
        harness.press("a").type("#5").press("Enter")
        XCTAssertTrue(harness.lines[1].hasSuffix("3/3"), harness.lines[1])
        XCTAssertTrue(harness.text.contains("旺财"))
        harness.press("d")
        XCTAssertTrue(harness.text.contains("Remove item 3"))
        harness.press("y")
        XCTAssertTrue(harness.lines[1].hasSuffix("/2"), harness.lines[1])
        XCTAssertFalse(harness.lines[3..<22].joined().contains("旺财"))
        XCTAssertTrue(harness.lines[22].contains("removed 旺财 from dogs"))
    }

    func testPrimitiveListItemsAreEditable() {
        let harness = Harness()
        harness.press("j", "j", "End", "h", "h", "Enter")  // Zoë's tags
        XCTAssertTrue(harness.lines[1].contains("tags"), harness.lines[1])
        harness.press("e", "C-u").type("edited").press("Enter")
        XCTAssertTrue(harness.text.contains("edited"))
    }
}
