import XCTest
@testable import StrataBrowser

final class LiveUpdateTests: XCTestCase {
    func testACommitFromAnotherProcessUpdatesMarksAndLogs() {
        let harness = Harness()
        XCTAssertTrue(harness.lines[4].contains("Bob Chen"))
        XCTAssertTrue(harness.lines[4].contains("25"))
        harness.source.simulateExternalCommit()
        XCTAssertTrue(harness.lines[4].contains("25"), "nothing changes before the poll (snapshot)")
        harness.app.processChanges()
        let row = harness.lines[4]
        XCTAssertTrue(row.contains("26"), row)
        XCTAssertTrue(row.contains("│•  2"), "the changed row is marked: \(row)")
        XCTAssertFalse(harness.lines[3].contains("•"))
        XCTAssertTrue(harness.lines[23].contains("v1043"))
        XCTAssertEqual(harness.app.log.last?.text, "v1043 by pid 4242: Person: 1 modified (age)")
        XCTAssertEqual(harness.app.millisecondsUntilNextTimedEvent(), 1500)
        // The mark goes away on a later frame.
        harness.clock.advance(1)
        XCTAssertTrue(harness.lines[4].contains("•"))
        harness.clock.advance(1)
        XCTAssertFalse(harness.lines[4].contains("•"))
        XCTAssertNil(harness.app.millisecondsUntilNextTimedEvent())
    }

    func testInsertedRowsUpdateCountsAndTheCursorStaysOnItsObject() {
        let harness = Harness()
        harness.press("h", "j", "l", "l", "s", "G")  // Dog sorted by name; cursor on the last (ポチ? the largest name)
        let cursorLine = harness.lines[1]
        XCTAssertTrue(cursorLine.hasSuffix("20/20"), cursorLine)
        let lastName = harness.frame.textLines().first { $0.contains("旺财") }
        XCTAssertNotNil(lastName)
        harness.source.simulateExternalCommit()  // Person
        harness.source.simulateExternalCommit()  // Dog "Fido 20" inserted
        harness.app.processChanges()
        XCTAssertTrue(harness.lines[1].hasSuffix("21/21"), "same object, one row further: \(harness.lines[1])")
        XCTAssertTrue(harness.text.contains("Dog          21") || harness.text.contains(" Dog") , harness.text)
        harness.press("g")
        XCTAssertTrue(harness.text.contains("Fido 20"))
        XCTAssertEqual(harness.app.log.suffix(2).map(\.text), ["v1043 by pid 4242: Person: 1 modified (age)", "v1044 by pid 4242: Dog: 1 inserted"])
    }

    func testDetailAndReportsRefresh() {
        let harness = Harness()
        harness.press("j", "Enter")
        XCTAssertTrue(harness.text.contains(" 25 "))
        harness.source.simulateExternalCommit()
        harness.app.processChanges()
        XCTAssertTrue(harness.text.contains(" 26 "), harness.text)
        harness.press("2")
        XCTAssertTrue(harness.text.contains("Current version 1043"))
        XCTAssertTrue(harness.text.contains("Person: 1 modified (age)"))
        harness.source.simulateExternalCommit()
        harness.app.processChanges()
        XCTAssertTrue(harness.text.contains("Current version 1044"), "the shown report follows commits")
    }

    func testTheTenMillionClassFollowsCommits() {
        let harness = Harness()
        harness.press("h", "j", "j", "l")
        for _ in 0..<3 { harness.source.simulateExternalCommit() }
        harness.app.processChanges()
        XCTAssertTrue(harness.lines[1].hasSuffix("1/10,001,000"), harness.lines[1])
        XCTAssertTrue(harness.lines[5].contains("•"), "Event 2 was modified: \(harness.lines[5])")
    }
}
