import XCTest
@testable import StrataBrowser
import StrataTooling

final class NavigationTests: XCTestCase {
    /// The text of the breadcrumb line (row 1 of the Data screen).
    private func breadcrumb(_ harness: Harness) -> String {
        let line = harness.lines[1]
        guard let bar = line.firstIndex(of: "│") else { return line }
        return String(line[line.index(after: bar)...])
    }

    func testArrowsAndVimKeysMoveTheCursor() {
        let harness = Harness()
        XCTAssertTrue(breadcrumb(harness).hasSuffix("1/24"))
        harness.press("j", "Down")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("3/24"))
        harness.press("k")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("2/24"))
        harness.press("G")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("24/24"))
        harness.press("g")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("1/24"))
        harness.press("C-d")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("10/24"), breadcrumb(harness))
        harness.press("C-u")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("1/24"))
        harness.press("PgDn")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("20/24"), breadcrumb(harness))
        harness.press("PgUp")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("1/24"))
    }

    func testTheCursorCellIsHighlightedAndMovesWithHAndL() {
        let harness = Harness(environment: ["NO_COLOR": "1"])
        func cursorText() -> String {
            let frame = harness.frame
            var text = ""
            for x in 20..<frame.width where frame[x, 3].style == Theme.monochrome.cursorCell { text += frame[x, 3].text }
            return text.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertEqual(cursorText(), "1")
        harness.press("l")
        XCTAssertEqual(cursorText(), "Alice Martin")
        harness.press("Right", "h")
        XCTAssertEqual(cursorText(), "Alice Martin")
    }

    func testSidebarSelectsClasses() {
        let harness = Harness()
        harness.press("h", "k", "k")
        XCTAssertTrue(breadcrumb(harness).contains("Dog"), breadcrumb(harness))
        XCTAssertTrue(harness.text.contains("Rex"))
        harness.press("l", "j")
        XCTAssertTrue(breadcrumb(harness).hasSuffix("2/36"), breadcrumb(harness))
    }

    func testEnterFollowsALinkAndBackspaceGoesBack() {
        let harness = Harness()
        harness.press("j", "End", "h")  // José's employer
        XCTAssertTrue(harness.text.contains("→ "), harness.text)
        harness.press("Enter")
        XCTAssertTrue(breadcrumb(harness).hasPrefix("Person › "), breadcrumb(harness))
        XCTAssertTrue(harness.text.contains("Société Générale de Logiciels"), harness.text)
        harness.press("BS", "g", "j", "j", "Home")
        for _ in 0..<9 { harness.press("l") }
        // Zoë's dogs: open the list, then a dog; Backspace walks the path back.
        harness.press("Enter")
        XCTAssertTrue(breadcrumb(harness).hasPrefix("Person › dogs"), breadcrumb(harness))
        XCTAssertTrue(harness.text.contains("breed"))
        harness.press("Enter")
        XCTAssertTrue(breadcrumb(harness).contains("› dogs › "), breadcrumb(harness))
        harness.press("BS")
        XCTAssertTrue(breadcrumb(harness).hasPrefix("Person › dogs"), breadcrumb(harness))
        harness.press("BS")
        XCTAssertTrue(breadcrumb(harness).hasPrefix("Person "))
        XCTAssertFalse(breadcrumb(harness).contains("›"))
        XCTAssertTrue(breadcrumb(harness).hasSuffix("3/24"), "the table keeps its cursor")
        harness.press("BS")
        XCTAssertTrue(harness.lines[22].contains("already at the class table"), harness.lines[22])
    }

    func testEnterOpensEmbeddedObjectAndMap() {
        let harness = Harness()
        for _ in 0..<8 { harness.press("l") }
        harness.press("Enter")  // Alice's address
        XCTAssertTrue(breadcrumb(harness).contains("Person › "), breadcrumb(harness))
        XCTAssertTrue(harness.text.contains("street"), harness.text)
        XCTAssertTrue(harness.text.contains("city"))
        harness.press("BS", "l", "l", "l", "Enter")  // settings (a map)
        XCTAssertTrue(breadcrumb(harness).contains("settings"), breadcrumb(harness))
        XCTAssertTrue(harness.text.contains("theme"), harness.text)
        XCTAssertTrue(harness.text.contains("dark"))
    }

    func testBacklinksListObjectsLinkingHere() {
        let harness = Harness()
        harness.open("Dog")
        harness.press("j", "j", "j", "b")  // the fourth dog, Luna: José's
        XCTAssertTrue(breadcrumb(harness).contains("Dog › backlinks of"), breadcrumb(harness))
        XCTAssertTrue(harness.text.contains("via property"), harness.text)
        XCTAssertTrue(harness.text.contains("dogs"))
        harness.press("Enter")
        XCTAssertTrue(breadcrumb(harness).contains("backlinks of"), breadcrumb(harness))
        XCTAssertTrue(harness.text.contains("José Álvarez"), harness.text)
    }

    func testTabAndNumberKeysSwitchScreens() {
        let harness = Harness()
        harness.press("Tab")
        XCTAssertEqual(harness.app.screen, .versions)
        harness.press("BTab")
        XCTAssertEqual(harness.app.screen, .data)
        for (key, screen) in [("3", BrowserScreen.space), ("4", .log), ("5", .compaction), ("1", .data), ("2", .versions)] {
            harness.press(key)
            XCTAssertEqual(harness.app.screen, screen)
        }
        harness.press("Tab", "Tab", "Tab", "Tab")
        XCTAssertEqual(harness.app.screen, .data)
    }

    func testReportScreensScrollAndClamp() {
        for screen in ["2", "3"] {
            let harness = Harness(rows: 12)
            harness.press(screen)
            let top = harness.lines
            harness.press("G")
            let bottom = harness.lines
            XCTAssertNotEqual(top, bottom, "screen \(screen) scrolls")
            harness.press("k")
            XCTAssertNotEqual(harness.lines, bottom, "one line up from the end moves at once")
            harness.press("g")
            XCTAssertEqual(harness.lines, top)
        }
    }

    func testHelpOverlayListsEveryKeyAndCloses() {
        let harness = Harness()
        harness.press("?")
        let text = harness.text
        for key in ["Tab", "hjkl", "g  G", "Ctrl-d", "PgDn", "Enter", "Backspace", "/", "e ", "a ", "d ", "b ", "s ", "c ", "q ", "Esc"] {
            XCTAssertTrue(text.contains(key), "help lists \(key)")
        }
        harness.press("Esc")
        XCTAssertFalse(harness.text.contains("Keys"))
    }

    func testQuitIsImmediateWithoutPendingEdit() {
        let harness = Harness()
        harness.press("q")
        XCTAssertTrue(harness.app.shouldQuit)
    }

    func testQuitAsksWhenAnEditIsPending() {
        let harness = Harness()
        harness.press("l", "e", "q")  // q is text in the prompt
        XCTAssertFalse(harness.app.shouldQuit)
        harness.press("C-c")
        XCTAssertTrue(harness.text.contains("An edit is pending"))
        harness.press("n")
        XCTAssertFalse(harness.app.shouldQuit)
        harness.press("C-c", "y")
        XCTAssertTrue(harness.app.shouldQuit)
    }
}
