import XCTest
@testable import StrataBrowser

/// Text typed into prompts arrives one Unicode scalar per key (as the terminal delivers it);
/// scalars that merge into one Character — a combining accent, a flag's two regional
/// indicators, a ZWJ sequence — must not trap the prompt, and editing keys keep working.
final class PromptInputTests: XCTestCase {
    /// One key per Unicode scalar, as `NcursesBackend` delivers typed text.
    private func typeScalars(_ text: String, into prompt: inout Prompt) {
        for scalar in text.unicodeScalars { XCTAssertTrue(prompt.edit(.character(Character(scalar)))) }
    }

    func testCombiningAccentThenAnyKey() {
        var prompt = Prompt(purpose: .filter(className: "Person"), label: "/")
        typeScalars("e\u{301}x", into: &prompt)
        XCTAssertEqual(prompt.text, "e\u{301}x")
        XCTAssertEqual(prompt.cursor, 2)
        for key in [Key.left, .backspace, .right, .delete, .home, .delete, .end, .backspace] { _ = prompt.edit(key) }
        XCTAssertEqual(prompt.text, "")
        XCTAssertEqual(prompt.cursor, 0)
    }

    func testFlagAndZWJSequencesAreOneCharacter() {
        var prompt = Prompt(purpose: .filter(className: "Person"), label: "/")
        typeScalars("🇫🇷a👨‍👩‍👧b", into: &prompt)
        XCTAssertEqual(prompt.text, "🇫🇷a👨‍👩‍👧b")
        XCTAssertEqual(prompt.cursor, 4)
        _ = prompt.edit(.left)
        _ = prompt.edit(.backspace)  // the family emoji goes as one
        XCTAssertEqual(prompt.text, "🇫🇷ab")
        XCTAssertEqual(prompt.cursor, 2)
    }

    func testAccentTypedInTheMiddleMergesWithTheCharacterBefore() {
        var prompt = Prompt(purpose: .filter(className: "Person"), label: "/", text: "cafe!")
        _ = prompt.edit(.left)
        typeScalars("\u{301}", into: &prompt)
        XCTAssertEqual(prompt.text, "cafe\u{301}!")
        XCTAssertEqual(prompt.cursor, 4)
        typeScalars("?", into: &prompt)
        XCTAssertEqual(prompt.text, "cafe\u{301}?!")
    }

    func testCombiningCharactersAndEmojiInEveryPromptOfTheBrowser() {
        // The filter prompt, an edit prompt and the add-object prompt, drawn after every key.
        for opening in [["/"], ["l", "e"], ["a"]] {
            let harness = Harness()
            for key in opening { harness.press(key) }
            for scalar in "e\u{301}🇫🇷👍🏽x\u{308}".unicodeScalars {
                harness.app.handle(.character(Character(scalar)))
                _ = harness.frame
            }
            for key in ["Left", "Left", "BS", "Right", "Del", "Home", "End", "C-u"] {
                harness.press(key)
                _ = harness.frame
            }
            harness.press("Esc")
            _ = harness.frame
        }
    }
}
