import StrataTooling

/// Fitting text into columns by display width.
package enum TextLayout {
    /// `text` cut to at most `width` columns with a trailing `…` when it was longer; a wide
    /// character that would straddle the cut is dropped (the gap is padded instead).
    package static func truncate(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = DisplayWidth.of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"  // `fit` pads the column a dropped wide character leaves
    }

    /// `text` truncated to `width` and padded with spaces to exactly `width` columns.
    package static func fit(_ text: String, width: Int, alignment: TextAlignment = .left) -> String {
        guard width > 0 else { return "" }
        let cut = truncate(text, width: width)
        let gap = width - DisplayWidth.of(cut)
        guard gap > 0 else { return cut }
        switch alignment {
        case .left: return cut + String(repeating: " ", count: gap)
        case .right: return String(repeating: " ", count: gap) + cut
        case .center:
            let left = gap / 2
            return String(repeating: " ", count: left) + cut + String(repeating: " ", count: gap - left)
        }
    }

    /// Splits `text` into lines of at most `width` columns, breaking at spaces where possible.
    package static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let wordWidth = DisplayWidth.of(word)
            if lineWidth > 0, lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if lineWidth > 0 { line += " "; lineWidth += 1 }
            if wordWidth > width {
                // A word longer than a line: hard-break it.
                for character in word {
                    let columns = DisplayWidth.of(character)
                    if lineWidth + columns > width { lines.append(line); line = ""; lineWidth = 0 }
                    line.append(character)
                    lineWidth += columns
                }
            } else {
                line += word
                lineWidth += wordWidth
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
