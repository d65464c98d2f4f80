/// The eight basic terminal colors (every color terminal has them).
package enum TerminalColor: Int, Hashable, Sendable, CaseIterable {
    case black = 0, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell is drawn. `nil` colors mean the terminal's default.
package struct Style: Hashable, Sendable {
    package var foreground: TerminalColor?
    package var background: TerminalColor?
    package var bold: Bool
    package var reverse: Bool
    package var underline: Bool
    package var dim: Bool

    package init(foreground: TerminalColor? = nil, background: TerminalColor? = nil, bold: Bool = false,
                reverse: Bool = false, underline: Bool = false, dim: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
    }

    /// The terminal's default look.
    package static let plain = Style()

    /// The same style with colors removed (monochrome terminals, `NO_COLOR`).
    package var withoutColors: Style {
        var copy = self
        copy.foreground = nil
        copy.background = nil
        return copy
    }

    /// This style with the attributes of `other` added (colors of `other` win when set).
    package func merged(with other: Style) -> Style {
        Style(foreground: other.foreground ?? foreground, background: other.background ?? background,
              bold: bold || other.bold, reverse: reverse || other.reverse,
              underline: underline || other.underline, dim: dim || other.dim)
    }
}
