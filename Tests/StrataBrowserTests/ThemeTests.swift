import XCTest
@testable import StrataBrowser

/// `Resources/themes/*.json`: both themes parse, `NO_COLOR` selects the monochrome one, and bad
/// theme files are refused with what to fix.
final class ThemeTests: XCTestCase {
    func testBundledThemesParse() throws {
        XCTAssertEqual(Theme.bundledNames, ["default", "monochrome"])
        for name in Theme.bundledNames {
            XCTAssertNoThrow(try Theme(json: try XCTUnwrap(StrataBrowserResources.files["themes/\(name).json"])), name)
        }
        XCTAssertEqual(Theme.colored.tabActive, Style(foreground: .black, background: .cyan, bold: true))
        XCTAssertEqual(Theme.colored.error, Style(foreground: .red, bold: true))
    }

    func testMonochromeHasNoColorsAndNoColorSelectsIt() {
        let monochrome = Theme.monochrome
        for (name, path) in Theme.elements {
            XCTAssertNil(monochrome[keyPath: path].foreground, name)
            XCTAssertNil(monochrome[keyPath: path].background, name)
        }
        XCTAssertEqual(Theme.forEnvironment(["NO_COLOR": "1"]).cursorCell, monochrome.cursorCell)
        XCTAssertEqual(Theme.forEnvironment([:]).cursorCell, Theme.colored.cursorCell)
        XCTAssertNotEqual(Theme.colored.cursorCell, monochrome.cursorCell)
        // The distinctions that matter survive without color.
        XCTAssertNotEqual(monochrome.cursorCell, monochrome.text)
        XCTAssertNotEqual(monochrome.null, monochrome.text)
        XCTAssertNotEqual(monochrome.marked, monochrome.text)
    }

    func testBadThemeFilesAreRefused() throws {
        let styles = Theme.elements.keys.map { "\"\($0)\": \"plain\"" }
        XCTAssertNoThrow(try Theme(json: "{\"styles\": {\(styles.joined(separator: ", "))}}"))
        XCTAssertThrowsError(try Theme(json: "{\"styles\": {\(styles.dropFirst().joined(separator: ", "))}}")) {
            XCTAssertTrue("\($0)".contains("no style for"), "\($0)")
        }
        XCTAssertThrowsError(try Theme(json: "{\"styles\": {\((styles + ["\"sparkle\": \"bold\""]).joined(separator: ", "))}}")) {
            XCTAssertTrue("\($0)".contains("sparkle"), "\($0)")
        }
        XCTAssertEqual(try Style(spec: "yellow on blue bold dim"), Style(foreground: .yellow, background: .blue, bold: true, dim: true))
        XCTAssertThrowsError(try Style(spec: "purple")) { XCTAssertTrue("\($0)".contains("purple"), "\($0)") }
        XCTAssertThrowsError(try Style(spec: "red on")) { XCTAssertTrue("\($0)".contains("'on' needs a color"), "\($0)") }
    }
}
