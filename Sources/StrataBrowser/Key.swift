/// A key press (or a terminal event) as the browser sees it, independent of the terminal.
package enum Key: Hashable, Sendable {
    /// A printable character (letters, digits, punctuation, any Unicode text).
    case character(Character)
    /// Control + a letter (`control("d")` is Ctrl-D).
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, backspace, delete, tab, backTab, escape
    /// The terminal was resized.
    case resize(columns: Int, rows: Int)

    /// Parses a compact key name for tests and scripts: `j`, `Enter`, `Esc`, `Up`, `C-d`,
    /// `PgDn`, `Tab`, `BS`, or any single character.
    package init?(name: String) {
        switch name {
        case "Enter": self = .enter
        case "Esc": self = .escape
        case "Tab": self = .tab
        case "BTab": self = .backTab
        case "BS": self = .backspace
        case "Del": self = .delete
        case "Up": self = .up
        case "Down": self = .down
        case "Left": self = .left
        case "Right": self = .right
        case "PgUp": self = .pageUp
        case "PgDn": self = .pageDown
        case "Home": self = .home
        case "End": self = .end
        case "Space": self = .character(" ")
        default:
            if name.hasPrefix("C-"), name.count == 3, let letter = name.last {
                self = .control(letter)
            } else if name.count == 1, let character = name.first {
                self = .character(character)
            } else {
                return nil
            }
        }
    }

    /// Keys for each character of `text` (for typing into prompts in tests).
    package static func typing(_ text: String) -> [Key] { text.map { .character($0) } }
}
