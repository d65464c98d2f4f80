/// The eight basic terminal colors (every color terminal has them).
public enum TerminalColor: Int, Hashable, Sendable, CaseIterable {
    case black = 0, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell is drawn. `nil` colors mean the terminal's default.
public struct Style: Hashable, Sendable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool
    public var dim: Bool

    public init(foreground: TerminalColor? = nil, background: TerminalColor? = nil, bold: Bool = false,
                reverse: Bool = false, underline: Bool = false, dim: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// The same style with colors removed (monochrome terminals, `NO_COLOR`).
    public var withoutColors: Style {
        var copy = self
        copy.foreground = nil
        copy.background = nil
        return copy
    }

    /// This style with the attributes of `other` added (colors of `other` win when set).
    public func merged(with other: Style) -> Style {
        Style(foreground: other.foreground ?? foreground, background: other.background ?? background,
              bold: bold || other.bold, reverse: reverse || other.reverse,
              underline: underline || other.underline, dim: dim || other.dim)
    }
}
