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
        let version = harness.source.status().version
        harness.press("l", "e", "C-u").type("Alicia 🌷").press("Enter")
        XCTAssertEqual(try value(harness, "Person", 1, "name"), .string("Alicia 🌷"))
        XCTAssertTrue(harness.lines[3].contains("Alicia 🌷"))
        XCTAssertEqual(harness.source.status().version, version + 1)
        XCTAssertTrue(harness.app.log.last?.text.contains("v\(version + 1) by this browser") ?? false, harness.app.log.last?.text ?? "")
    }

    func testInvalidEditShowsMessageAndChangesNothing() throws {
        let harness = Harness()
        let version = harness.source.status().version
        let age = try value(harness, "Person", 1, "age")
        harness.press("l", "l", "l", "e", "C-u").type("abc").press("Enter")
        XCTAssertTrue(harness.lines[21].contains("'abc' is not an Int for age"), harness.lines[21])
        XCTAssertEqual(try value(harness, "Person", 1, "age"), age)
        XCTAssertEqual(harness.source.status().version, version)
    }

    /// A refused value keeps its prompt open with the text as typed and the reason above it
    /// (the prompt closed and the next `e` showed the stored value: the typing was lost).
    func testRefusedEditKeepsThePromptAndTheTypedText() throws {
        let harness = Harness()
        let version = harness.source.status().version
        harness.press("l", "l", "l", "l", "e", "C-u").type("2024-02-30").press("Enter")  // birthday
        XCTAssertNotNil(harness.app.prompt, "the prompt stays open")
        XCTAssertTrue(harness.lines[21].contains("2024-02 has 29 days"), harness.lines[21])
        XCTAssertTrue(harness.lines[22].contains("Person.birthday (Date?): 2024-02-30"), harness.lines[22])
        XCTAssertEqual(harness.source.status().version, version)
        // Correct the typo in place: Backspace twice, "29".
        harness.press("BS", "BS").type("29").press("Enter")
        XCTAssertNil(harness.app.prompt)
        XCTAssertEqual(try value(harness, "Person", 1, "birthday"), .date(seconds: 1_709_164_800, nanoseconds: 0))
        XCTAssertEqual(harness.source.status().version, version + 1)
        // A list item and a link target that do not exist are refused the same way.
        harness.press("End", "h", "e", "C-u").type("#999").press("Enter")  // employer
        XCTAssertTrue(harness.lines[22].contains("#999"), harness.lines[22])
        XCTAssertTrue(harness.lines[21].contains("999"), harness.lines[21])
        harness.press("Esc")
        XCTAssertNil(harness.app.prompt, "Esc still cancels")
    }

    func testEditingALinkByPrimaryKey() throws {
        let harness = Harness()
        harness.press("End", "h", "e", "C-u").type("#2").press("Enter")  // employer
        XCTAssertEqual(try value(harness, "Person", 1, "employer").linkedObject, ObjectRef(className: "Company", key: 2),
                       harness.lines[22])
        harness.press("e", "C-u").type("#999").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("999"), harness.lines[22])
        XCTAssertEqual(try value(harness, "Person", 1, "employer").linkedObject, ObjectRef(className: "Company", key: 2))
    }

    func testEscapeCancelsAnEdit() throws {
        let harness = Harness()
        harness.press("l", "e").type("zzz").press("Esc")
        XCTAssertEqual(try value(harness, "Person", 1, "name"), .string("Alice Martin"))
    }

    /// Read-only without a lock file (none is created): the browser still counts itself (the
    /// status bar said "0 processes").
    func testReadOnlyStatusBarCountsThisProcess() {
        let harness = Harness(columns: 120, readOnly: true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.url.path + ".lock"), "no lock file was created")
        XCTAssertTrue(harness.lines[23].contains("│ 1 process │"), harness.lines[23])
        XCTAssertTrue(harness.lines[23].contains("read-only"), harness.lines[23])
        let narrow = Harness(columns: 80, readOnly: true)
        XCTAssertTrue(narrow.lines[23].contains("1 proc"), narrow.lines[23])
    }

    func testReadOnlyRefusesEveryEdit() {
        let harness = Harness(readOnly: true)
        let version = harness.source.status().version
        for key in ["e", "a", "d", "c"] {
            harness.press(key)
            XCTAssertTrue(harness.lines[22].contains("read-only"), "\(key): \(harness.lines[22])")
            XCTAssertFalse(harness.text.contains("Confirm"))
        }
        XCTAssertTrue(harness.lines[23].contains("ro"))
        XCTAssertEqual(harness.source.status().version, version)
    }

    func testAddObjectPromptsFieldByField() {
        let harness = Harness()
        harness.press("a")
        XCTAssertTrue(harness.lines[22].contains("New Person 1/"), harness.lines[22])
        XCTAssertTrue(harness.lines[22].contains("id (Int, primary key)"), harness.lines[22])
        for answer in ["99", "Test 🙂", "", "", "2000-01-02", "1.5", "true", "", "", "", "", ""] where harness.app.prompt != nil {
            harness.type(answer).press("Enter")
        }
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }?.count.value, 25)
        XCTAssertTrue(harness.lines[1].hasSuffix("25/25"), harness.lines[1])
        XCTAssertTrue(harness.text.contains("Test 🙂"))
    }

    /// A value that does not parse is refused at its field (the parser the create uses): the
    /// form stays there with the error above it and the text kept, and the fields entered
    /// before are kept too (it was refused after the last field, and everything was lost).
    func testAddObjectRefusesABadValueAtItsFieldAndKeepsTheForm() {
        let harness = Harness()
        harness.press("a")
        for answer in ["99", "Test 🙂", "", ""] { harness.type(answer).press("Enter") }
        XCTAssertTrue(harness.lines[22].contains("New Person 5/"), harness.lines[22])
        harness.type("1999-13-45").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("New Person 5/"), "still on the date: \(harness.lines[22])")
        XCTAssertTrue(harness.lines[22].contains("1999-13-45"), "the text is kept: \(harness.lines[22])")
        XCTAssertTrue(harness.lines[21].hasPrefix("✗ "), harness.lines[21])
        XCTAssertTrue(harness.lines[21].contains("1999-13-45"), harness.lines[21])
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }?.count.value, 24, "nothing written")
        harness.press("C-u").type("2000-01-02").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("New Person 6/"), harness.lines[22])
        XCTAssertFalse(harness.lines[21].hasPrefix("✗ "), "the error goes with the field: \(harness.lines[21])")
        for answer in ["1.5", "true", "", "", "", "", ""] where harness.app.prompt != nil {
            harness.type(answer).press("Enter")
        }
        XCTAssertNil(harness.app.prompt)
        XCTAssertEqual(harness.source.classes().first { $0.name == "Person" }?.count.value, 25)
        XCTAssertTrue(harness.text.contains("Test 🙂"), "the fields before the bad one were kept")
    }

    /// A primary key already taken is refused at its own field (the first), which stays open
    /// with the error; nothing is written.
    func testAddObjectWithDuplicatePrimaryKeyIsRefused() {
        let harness = Harness()
        harness.press("a")
        harness.type("1").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("New Person 1/"), harness.lines[22])
        XCTAssertTrue(harness.lines[21].contains("already has an object with id 1"), harness.lines[21])
        harness.press("C-u").type("900").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("New Person 2/"), harness.lines[22])
        harness.press("Esc")
        XCTAssertNil(harness.app.prompt)
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
        XCTAssertTrue(harness.lines[3].contains("José Álvarez"))
    }

    func testListItemsCanBeAddedAndRemoved() {
        let harness = Harness()
        harness.press("j", "j")
        for _ in 0..<9 { harness.press("l") }
        harness.press("Enter")  // Zoë's dogs: Nala and Ødin
        XCTAssertTrue(harness.lines[1].hasSuffix("1/2"), harness.lines[1])
        harness.press("a").type("#5").press("Enter")  // the sixth dog, Fido
        XCTAssertTrue(harness.lines[1].hasSuffix("3/3"), harness.lines[1] + "\n" + harness.lines[22])
        XCTAssertTrue(harness.text.contains("Fido"))
        harness.press("d")
        XCTAssertTrue(harness.text.contains("Remove item 3"), harness.text)
        harness.press("y")
        XCTAssertTrue(harness.lines[1].hasSuffix("/2"), harness.lines[1])
        XCTAssertFalse(harness.lines[3..<22].joined().contains("Fido"))
        XCTAssertTrue(harness.lines[22].contains("removed Fido from dogs"), harness.lines[22])
    }

    func testPrimitiveListItemsAreEditable() {
        let harness = Harness()
        harness.press("j", "j")
        for _ in 0..<10 { harness.press("l") }
        harness.press("Enter")  // Zoë's tags (a set)
        XCTAssertTrue(harness.lines[1].contains("tags"), harness.lines[1])
        harness.press("e", "C-u").type("edited").press("Enter")
        XCTAssertTrue(harness.text.contains("edited"))
    }
}
