import StrataTooling

/// A line of text made of styled spans, for the scrolling report screens and dialogs.
struct StyledLine {
    struct Span {
        var text: String
        var style: Style
        /// Fixed field width (padded/truncated), or `nil` to take the text's own width.
        var width: Int?
        var alignment: TextAlignment = .left
    }

    var spans: [Span] = []

    init(_ spans: [Span] = []) { self.spans = spans }

    init(_ text: String, _ style: Style = .plain) { spans = [Span(text: text, style: style)] }

    static let blank = StyledLine()

    /// The text of the spans, without padding.
    var text: String { spans.map(\.text).joined() }

    /// Appends a span; `width` pads or truncates it to a column.
    mutating func add(_ text: String, _ style: Style = .plain, width: Int? = nil, alignment: TextAlignment = .left) {
        spans.append(Span(text: text, style: style, width: width, alignment: alignment))
    }

    /// Draws the line at (x, y), clipped to `width` columns.
    func draw(into buffer: inout CellBuffer, x: Int, y: Int, width: Int) {
        var column = x
        for span in spans {
            let remaining = x + width - column
            guard remaining > 0 else { break }
            if let fieldWidth = span.width {
                let shown = min(fieldWidth, remaining)
                buffer.write(TextLayout.fit(span.text, width: fieldWidth, alignment: span.alignment), x: column, y: y,
                             maxWidth: shown, style: span.style)
                column += shown
            } else {
                let fitted = DisplayWidth.of(span.text) > remaining ? TextLayout.truncate(span.text, width: remaining) : span.text
                column += buffer.write(fitted, x: column, y: y, maxWidth: remaining, style: span.style)
            }
        }
    }
}

/// Draws a list of lines in a rectangle from a scroll offset (clamped so the last page is full).
enum LinesRenderer {
    /// Returns the offset actually used.
    @discardableResult
    static func draw(_ lines: [StyledLine], scroll: Int, into buffer: inout CellBuffer, rect: Rect) -> Int {
        let offset = max(0, min(scroll, lines.count - rect.height))
        for row in 0..<rect.height where offset + row < lines.count {
            lines[offset + row].draw(into: &buffer, x: rect.x, y: rect.y + row, width: rect.width)
        }
        return offset
    }
}
