import XCTest
@testable import StrataBrowser
import StrataTooling

/// Commits from a second handle on the file (as another process would make them) reach the
/// browser through the engine's commit observer and `pollChanges()`.
final class LiveUpdateTests: XCTestCase {
    func testACommitFromAnotherHandleUpdatesMarksAndLogs() {
        let harness = Harness()
        XCTAssertTrue(harness.lines[4].contains("José"), harness.lines[4])
        let version = harness.externalAgeChange(person: 2, age: 99)
        XCTAssertFalse(harness.lines[4].contains(" 99"), "nothing changes before the poll (snapshot)")
        harness.app.processChanges()
        let row = harness.lines[4]
        XCTAssertTrue(row.contains(" 99"), row)
        XCTAssertTrue(row.contains("•"), "the changed row is marked: \(row)")
        XCTAssertFalse(harness.lines[3].contains("•"))
        XCTAssertTrue(harness.lines[23].contains("v\(version)"), harness.lines[23])
        XCTAssertEqual(harness.app.log.last?.text, "v\(version) by pid \(RecordingDataSource.stablePid): Person: 1 modified (age)")
        XCTAssertEqual(harness.app.millisecondsUntilNextTimedEvent(), 1500)
        // The mark goes away on a later frame.
        harness.clock.advance(1)
        XCTAssertTrue(harness.lines[4].contains("•"))
        harness.clock.advance(1)
        XCTAssertFalse(harness.lines[4].contains("•"))
        XCTAssertNil(harness.app.millisecondsUntilNextTimedEvent())
    }

    /// The "filter: … — N objects" message follows another process's commit as the title's
    /// count does (it kept the count of the moment of filtering while the title changed).
    func testTheFilterMessageCountFollowsACommitFromAnotherHandle() throws {
        let harness = Harness()
        harness.press("/").type("age > 50").press("Enter")
        let n = try harness.database.count(className: "Person", filter: "age > 50").value
        XCTAssertTrue(harness.lines[22].contains("filter: age > 50 — \(n) objects"), harness.lines[22])
        harness.externalCommit { w in
            _ = try w.create("Person", values: ["id": .int(100), "name": .string("Old Newcomer"), "age": .int(90),
                                                "score": .double(1), "active": .bool(true)])
        }
        harness.app.processChanges()
        XCTAssertTrue(harness.lines[1].hasSuffix("1/\(n + 1)"), harness.lines[1])
        XCTAssertTrue(harness.lines[22].contains("filter: age > 50 — \(n + 1) objects"), harness.lines[22])
        // Another message is left alone.
        harness.press("j")
        harness.externalAgeChange(person: 1, age: 10)
        harness.app.processChanges()
        XCTAssertFalse(harness.lines[22].contains("filter:"), harness.lines[22])
    }

    /// An object's detail view after another process deleted it: `e` opened a prompt on its
    /// last values, `d` asked to delete it again, Enter followed its old links. Each now says it
    /// was deleted and how to go back; nothing is written.
    func testADetailViewOfAnObjectDeletedElsewhereOffersNothingToEdit() throws {
        let harness = Harness()
        harness.press("Enter")  // Person 1's detail
        XCTAssertTrue(harness.lines[1].contains("Person ›"), harness.lines[1])
        let version = harness.externalCommit { try $0.delete("Person", keys: [1]) }
        harness.app.processChanges()
        XCTAssertTrue(harness.lines[1].hasSuffix("deleted"), harness.lines[1])
        for key in ["e", "d", "Enter", "b"] {
            harness.press(key)
            XCTAssertNil(harness.app.prompt, key)
            XCTAssertNil(harness.app.overlay, key)
            XCTAssertTrue(harness.lines[22].contains("does not exist (deleted?): Backspace goes back"), "\(key): \(harness.lines[22])")
            XCTAssertTrue(harness.lines[1].hasSuffix("deleted"), "\(key): still the deleted object's view: \(harness.lines[1])")
        }
        XCTAssertEqual(harness.source.status().version, version)
        harness.press("BS")
        XCTAssertTrue(harness.lines[1].contains("│Person"), harness.lines[1])
    }

    /// The Log is newest first: scrolled down to older entries, each commit from another
    /// process slid them one line down under the reader. The view stays on them; at the top it
    /// still shows the newest.
    func testAScrolledLogStaysOnItsEntriesAsCommitsArrive() {
        let harness = Harness()
        for age in 0..<40 {
            harness.externalAgeChange(person: 2, age: Int64(age))
            harness.app.processChanges()
        }
        harness.press("4", "j", "j", "j", "j", "j")
        let shown = Array(harness.lines[2..<10])
        harness.externalAgeChange(person: 3, age: 77)
        harness.externalAgeChange(person: 4, age: 78)
        harness.app.processChanges()
        XCTAssertEqual(Array(harness.lines[2..<10]), shown, "the same entries where they were")
        harness.press("g")
        XCTAssertTrue(harness.lines[2].contains("Person: 1 modified (age)"), harness.lines[2])
        let newest = harness.lines[2]
        harness.externalAgeChange(person: 5, age: 79)
        harness.app.processChanges()
        XCTAssertNotEqual(harness.lines[2], newest, "at the top, the newest entry shows")
    }

    /// The Versions screen scrolled down to older commits: each new commit slid them down under
    /// the reader (newest first). The view stays on them; j still scrolls.
    func testAScrolledVersionsScreenStaysOnItsCommitsAsCommitsArrive() {
        let harness = Harness(rows: 16)
        for age in 0..<30 { harness.externalAgeChange(person: 2, age: Int64(age)) }
        harness.app.processChanges()
        harness.press("2")
        for _ in 0..<8 { harness.press("j") }
        let shown = Array(harness.lines[2..<12])
        XCTAssertTrue(shown.contains { $0.contains("Person: 1 modified (age)") }, shown.joined(separator: "\n"))
        harness.externalAgeChange(person: 3, age: 77)
        harness.externalAgeChange(person: 4, age: 78)
        harness.app.processChanges()
        XCTAssertEqual(Array(harness.lines[2..<12]), shown, "the same commits where they were")
        harness.press("j")
        XCTAssertEqual(harness.lines[2], shown[1], "j scrolls one line")
    }

    /// An edit prompt open while another process deletes its object: Enter says it no longer
    /// exists and closes the prompt (a refused value reopens its prompt, which here could only
    /// be refused again).
    func testAnEditOfAnObjectDeletedMeanwhileClosesItsPrompt() throws {
        let harness = Harness()
        harness.press("l", "e", "C-u").type("Renamed")
        XCTAssertNotNil(harness.app.prompt)
        let version = harness.externalCommit { try $0.delete("Person", keys: [1]) }
        harness.press("Enter")
        XCTAssertNil(harness.app.prompt, harness.lines[22])
        XCTAssertTrue(harness.lines[22].contains("deleted"), harness.lines[22])
        harness.app.processChanges()
        XCTAssertEqual(harness.source.status().version, version)
    }

    func testInsertedRowsUpdateCountsAndTheCursorStaysOnItsObject() {
        let harness = Harness()
        harness.press("l", "s", "G")  // Person sorted by name; cursor on the last name
        XCTAssertTrue(harness.lines[1].hasSuffix("24/24"), harness.lines[1])
        let last = harness.lines.first { $0.contains("▸") || $0.contains("Ömer") }
        XCTAssertNotNil(last)
        harness.externalAgeChange()
        harness.externalCommit { w in
            _ = try w.create("Person", values: ["id": .int(100), "name": .string("Aaron Newcomer"), "score": .double(1), "active": .bool(true)])
        }
        harness.app.processChanges()
        XCTAssertTrue(harness.lines[1].hasSuffix("25/25"), "same object, one row further: \(harness.lines[1])")
        harness.press("g")
        XCTAssertTrue(harness.text.contains("Aaron Newcomer"), harness.text)
        XCTAssertEqual(harness.app.log.suffix(2).map { $0.text.components(separatedBy: ": ").dropFirst().joined(separator: ": ") },
                       ["Person: 1 modified (age)", "Person: 1 inserted"])
    }

    func testDetailAndReportsRefresh() {
        let harness = Harness()
        harness.press("j", "Enter")
        harness.externalAgeChange(person: 2, age: 99)
        harness.app.processChanges()
        XCTAssertTrue(harness.text.contains(" 99"), harness.text)
        harness.press("2")
        let version = harness.source.status().version
        XCTAssertTrue(harness.text.contains("Current version \(version)"), harness.text)
        XCTAssertTrue(harness.text.contains("Person: 1 modified (age)"))
        harness.externalAgeChange(person: 3, age: 98)
        harness.app.processChanges()
        XCTAssertTrue(harness.text.contains("Current version \(version + 1)"), "the shown report follows commits")
    }

    func testTheLargeClassFollowsCommits() {
        let harness = Harness()
        harness.open("Event")
        let count = TestDatabase.events - TestDatabase.events / 10
        harness.externalCommit { w in try w.set("Event", 2, "value", .double(-1)) }
        harness.externalCommit { w in try w.delete("Event", 3) }
        harness.app.processChanges()
        XCTAssertTrue(harness.lines[1].hasSuffix("1/\(Formatting.number(count - 1))"), harness.lines[1])
        XCTAssertTrue(harness.lines[4].contains("•"), "Event 2 was modified: \(harness.lines[4])")
    }
}
