import StrataTooling

/// The frame around every screen: tab bar, status bar, message line and dialog boxes.
enum ChromeRenderer {
    static func tabBar(selected: BrowserScreen, theme: Theme, into buffer: inout CellBuffer, rect: Rect) {
        buffer.fill(rect, style: theme.tabInactive)
        var x = rect.x
        let compact = rect.width < 60
        for screen in BrowserScreen.allCases {
            let label = compact ? " \(screen.rawValue) \(screen.title.prefix(4)) " : " \(screen.rawValue) \(screen.title) "
            let style = screen == selected ? theme.tabActive : theme.tabInactive
            x += buffer.write(label, x: x, y: rect.y, maxWidth: rect.maxX - x, style: style)
            if x >= rect.maxX { break }
            x += buffer.write(" ", x: x, y: rect.y, maxWidth: rect.maxX - x, style: theme.tabInactive)
        }
        let hint = "? help  q quit"
        if rect.maxX - x > DisplayWidth.of(hint) + 1 {
            buffer.write(hint, x: rect.maxX - DisplayWidth.of(hint) - 1, y: rect.y, style: theme.dim)
        }
    }

    /// File, version, sizes, participants, mode, and the last compaction; parts are dropped
    /// from the least important end when the terminal is narrow. A `notice` (a newer commit
    /// to reload) takes the place of the sizes, so it stays visible.
    static func statusBar(info: FileInfo, status: FileStatus, lastCompaction: CompactionOutcome?, notice: String? = nil,
                          theme: Theme, into buffer: inout CellBuffer, rect: Rect) {
        buffer.fill(rect, style: theme.statusBar)
        let wide = rect.width >= 100
        var mode = info.modeDescription ?? (info.isReadOnly ? (wide ? "read-only" : "ro") : (wide ? "read-write" : "rw"))
        if info.isEncrypted { mode += wide ? " · encrypted" : " enc" }
        let sizes = wide
            ? "total \(Formatting.bytes(status.totalBytes)) · used \(Formatting.bytes(status.usedBytes)) · free \(Formatting.bytes(status.freeBytes))"
            : "\(Formatting.shortBytes(status.totalBytes)) total \(Formatting.shortBytes(status.usedBytes)) used \(Formatting.shortBytes(status.freeBytes)) free"
        let participants = wide ? "\(status.participants) process\(status.participants == 1 ? "" : "es")" : "\(status.participants) proc"
        var parts = [info.fileName, "v\(status.version)", notice ?? sizes, participants, mode]
        if let lastCompaction {
            let gain = lastCompaction.beforeBytes - lastCompaction.afterBytes
            parts.append(wide ? "compacted −\(Formatting.bytes(gain))" : "−\(Formatting.shortBytes(gain)) compacted")
        }
        // Too narrow: drop the least important parts (compaction note, then sizes, participants).
        let separator = wide ? " │ " : " │"
        var text = " " + parts.joined(separator: separator)
        for droppable in (notice == nil ? [5, 2, 3] : [5, 3, 4]) where DisplayWidth.of(text) > rect.width && droppable < parts.count {
            parts[droppable] = ""
            text = " " + parts.filter { !$0.isEmpty }.joined(separator: separator)
        }
        buffer.write(text, x: rect.x, y: rect.y, width: rect.width, style: theme.statusBar)
    }

    /// A bordered box centered in `area`, `width` columns wide and tall enough for `lines`
    /// (clipped to the area, the last line kept). Returns the inner rectangle.
    @discardableResult
    static func dialog(title: String, lines: [StyledLine], width: Int, theme: Theme, into buffer: inout CellBuffer,
                       area: Rect) -> Rect {
        let boxWidth = max(0, min(width + 4, area.width))
        let boxHeight = max(0, min(lines.count + 2, area.height))
        guard boxWidth >= 4, boxHeight >= 2 else {
            // No room for a box: show the first line at least.
            if let first = lines.first, area.height > 0 { first.draw(into: &buffer, x: area.x, y: area.y, width: area.width) }
            return Rect(x: area.x, y: area.y, width: area.width, height: min(1, area.height))
        }
        let box = Rect(x: area.x + (area.width - boxWidth) / 2, y: area.y + (area.height - boxHeight) / 2,
                       width: boxWidth, height: boxHeight)
        buffer.fill(box, style: theme.dialog)
        let horizontal = String(repeating: "─", count: box.width - 2)
        buffer.write("┌" + horizontal + "┐", x: box.x, y: box.y, style: theme.dialogBorder)
        buffer.write("└" + horizontal + "┘", x: box.x, y: box.maxY - 1, style: theme.dialogBorder)
        for y in box.y + 1..<box.maxY - 1 {
            buffer.write("│", x: box.x, y: y, style: theme.dialogBorder)
            buffer.write("│", x: box.maxX - 1, y: y, style: theme.dialogBorder)
        }
        if !title.isEmpty, box.width > 6 {
            buffer.write(" \(title) ", x: box.x + 2, y: box.y, maxWidth: box.width - 4, style: theme.title)
        }
        let inner = Rect(x: box.x + 2, y: box.y + 1, width: box.width - 4, height: box.height - 2)
        // Too short for every line (a small terminal): the last line, the dialog's keys, stays;
        // the text above is cut with "…" (the keys were cut and the dialog could not be answered
        // by what it showed).
        var shown = lines
        if lines.count > inner.height, inner.height >= 1, let keys = lines.last {
            shown = inner.height >= 2 ? Array(lines.prefix(inner.height - 2)) + [StyledLine("…", theme.dim), keys] : [keys]
        }
        LinesRenderer.draw(shown, scroll: 0, into: &buffer, rect: inner)
        return inner
    }

    /// Lines of wrapped text in one style.
    static func wrapped(_ text: String, width: Int, style: Style = .plain) -> [StyledLine] {
        TextLayout.wrap(text, width: width).map { StyledLine($0, style) }
    }

    /// `[██████████░░░░░░]` for a fraction.
    static func progressBar(_ fraction: Double, width: Int) -> String {
        let inner = max(0, width - 2)
        let filled = Int((max(0, min(1, fraction)) * Double(inner)).rounded())
        return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: inner - filled) + "]"
    }
}
