import StrataTooling

/// One screen cell: a grapheme cluster, how many columns it takes, and its style.
package struct Cell: Hashable, Sendable {
    /// The grapheme drawn here; empty for the right half of a wide character.
    package var text: String
    /// 1 for normal cells, 2 for the left half of a wide character, 0 for its right half.
    package var width: Int
    package var style: Style

    package init(text: String, width: Int, style: Style) {
        self.text = text
        self.width = width
        self.style = style
    }

    /// A blank cell.
    package static func blank(_ style: Style = .plain) -> Cell { Cell(text: " ", width: 1, style: style) }
}

/// A rectangle of the screen.
package struct Rect: Hashable, Sendable {
    package var x: Int, y: Int, width: Int, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    package var maxX: Int { x + width }
    package var maxY: Int { y + height }
    package var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The rectangle shrunk by `by` on every side.
    package func inset(_ by: Int) -> Rect { Rect(x: x + by, y: y + by, width: width - 2 * by, height: height - 2 * by) }
}

/// The grid every screen renders into; terminal backends only copy it to the screen.
///
/// Invariant: a wide character at column `x` has `width == 2` at `x` and a continuation cell
/// (`width == 0`, empty text) at `x + 1`, always on the same row. Writing over either half of a
/// wide character blanks the other half, so no half-character can ever reach the terminal.
package struct CellBuffer: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown (a prompt being edited), or `nil` to hide it.
    package var cursor: (x: Int, y: Int)? {
        get { cursorX.map { ($0, cursorY) } }
        set { cursorX = newValue?.x; cursorY = newValue?.y ?? 0 }
    }
    private var cursorX: Int?
    private var cursorY = 0

    package init(width: Int, height: Int, style: Style = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank(style), count: self.width * self.height)
    }

    package subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// The whole buffer as a rectangle.
    package var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// Fills a rectangle with blanks of `style`.
    package mutating func fill(_ rect: Rect, style: Style = .plain) {
        for y in max(0, rect.y)..<min(height, rect.maxY) where rect.x < width {
            for x in max(0, rect.x)..<min(width, rect.maxX) { set(x, y, .blank(style)) }
        }
    }

    /// Writes `text` at (x, y), clipped to `maxWidth` columns and to the buffer; a wide character
    /// that does not fit whole is replaced by spaces. Control characters are drawn as symbols.
    /// Returns the number of columns written.
    @discardableResult
    package mutating func write(_ text: String, x: Int, y: Int, maxWidth: Int? = nil, style: Style = .plain) -> Int {
        guard y >= 0, y < height else { return 0 }
        let limit = min(width, x + (maxWidth ?? width))
        var column = x
        for character in text {
            let (shown, columns) = Self.visible(character)
            if columns == 0 {
                // A lone combining mark: attach it to the previous cell.
                if column > 0, column - 1 < width, column - 1 >= x { appendCombining(shown, x: column - 1, y: y) }
                continue
            }
            if column + columns > limit {
                while column < limit { if column >= 0 { set(column, y, .blank(style)) }; column += 1 }
                break
            }
            if column >= 0 {
                set(column, y, Cell(text: shown, width: columns, style: style))
                if columns == 2 { set(column + 1, y, Cell(text: "", width: 0, style: style)) }
            }
            column += columns
        }
        return max(0, column - x)
    }

    /// Writes `text` fitted to exactly `width` columns: truncated with `…` when too long (never
    /// splitting a wide character), padded with spaces by `alignment` when short.
    package mutating func write(_ text: String, x: Int, y: Int, width: Int, style: Style = .plain,
                               alignment: TextAlignment = .left) {
        guard width > 0 else { return }
        write(TextLayout.fit(text, width: width, alignment: alignment), x: x, y: y, maxWidth: width, style: style)
    }

    /// Changes the style of existing cells (keeping their text).
    package mutating func restyle(_ rect: Rect, _ transform: (Style) -> Style) {
        for y in max(0, rect.y)..<min(height, rect.maxY) where rect.x < width {
            for x in max(0, rect.x)..<min(width, rect.maxX) { cells[y * width + x].style = transform(cells[y * width + x].style) }
        }
    }

    /// Removes every color (monochrome terminals).
    package mutating func stripColors() {
        for index in cells.indices { cells[index].style = cells[index].style.withoutColors }
    }

    /// Sets one cell, keeping the wide-character invariant.
    private mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let index = y * width + x
        let old = cells[index]
        if old.width == 2, x + 1 < width, cell.width != 2 { cells[index + 1] = .blank(cells[index + 1].style) }
        if old.width == 0, x > 0, cells[index - 1].width == 2 { cells[index - 1] = .blank(cells[index - 1].style) }
        if cell.width == 2, x + 1 >= width {
            cells[index] = .blank(cell.style)  // no room for the right half
            return
        }
        cells[index] = cell
    }

    private mutating func appendCombining(_ mark: String, x: Int, y: Int) {
        var target = x
        if cells[y * width + target].width == 0, target > 0 { target -= 1 }
        cells[y * width + target].text += mark
    }

    /// Replaces characters a terminal would interpret (newline, tab, escape …) by visible ones.
    private static func visible(_ character: Character) -> (String, Int) {
        if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 {
            switch scalar.value {
            case 0x0A, 0x0D: return ("↵", 1)
            case 0x09: return (" ", 1)
            case 0..<0x20, 0x7F..<0xA0: return ("�", 1)
            default: break
            }
        }
        return (String(character), DisplayWidth.of(character))
    }

    // MARK: Snapshots

    /// The text of each row (wide characters once, continuation cells omitted), trailing
    /// spaces kept so columns line up in golden files.
    package func textLines() -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where self[x, y].width != 0 { line += self[x, y].text }
            return line
        }
    }

    /// The style of each cell as one character: `R` reverse, `B` bold, `U` underline, `d` dim,
    /// `.` plain; colored cells use lowercase `r`/`b`/`u` for the attributes and `c` when only a
    /// color is set. Wide characters contribute one character per column.
    package func styleLines() -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width {
                let style = self[x, y].style
                let colored = style.foreground != nil || style.background != nil
                let symbol: Character
                if style.reverse { symbol = colored ? "r" : "R" }
                else if style.bold { symbol = colored ? "b" : "B" }
                else if style.underline { symbol = colored ? "u" : "U" }
                else if style.dim { symbol = "d" }
                else { symbol = colored ? "c" : "." }
                line.append(symbol)
            }
            return line
        }
    }
}

/// Horizontal placement of text in a field.
package enum TextAlignment: Sendable {
    case left, right, center
}
