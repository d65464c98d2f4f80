import StrataTooling

/// The Space screen: a used/locked/free bar against the total, bytes per class, column and
/// index, free space by extent size and by the version that freed it, and one sentence on
/// what compaction would give back.
enum SpaceScreenRenderer {
    /// The summary lines (always on top, not scrolled).
    static func header(_ report: SpaceReport, width: Int, theme: Theme) -> [StyledLine] {
        var totals = StyledLine()
        totals.add("Total \(Formatting.bytes(report.totalBytes))", theme.title)
        totals.add("  used \(Formatting.bytes(report.usedBytes)) (\(Formatting.percent(report.usedBytes, of: report.totalBytes)))", theme.barUsed)
        totals.add("  free \(Formatting.bytes(report.freeBytes))", theme.text)
        totals.add("  locked \(Formatting.bytes(report.lockedBytes))", theme.barLocked)
        var lines = [totals, bar(report, width: width, theme: theme)]
        var legend = StyledLine()
        legend.add("█", theme.barUsed); legend.add(" used  ")
        legend.add("▓", theme.barLocked); legend.add(" locked (free, pinned by readers)  ")
        legend.add("░", theme.barFree); legend.add(" free")
        lines.append(legend)
        lines += ChromeRenderer.wrapped(sentence(report), width: width, style: theme.text)
        return lines
    }

    /// What compaction would give back, in one sentence.
    static func sentence(_ report: SpaceReport) -> String {
        let gain = max(0, report.totalBytes - report.compactedBytes)
        guard gain > 0 else { return "The file is compact: compaction would give back nothing." }
        var text = "Compaction would give back \(Formatting.bytes(gain)) (\(Formatting.percent(gain, of: report.totalBytes)) of the file), "
            + "shrinking it from \(Formatting.bytes(report.totalBytes)) to \(Formatting.bytes(report.compactedBytes))"
        if report.lockedBytes > 0 {
            text += "; with readers still pinning \(Formatting.bytes(report.lockedBytes)), online compaction would give back "
                + "\(Formatting.bytes(max(0, report.freeBytes - report.lockedBytes)))"
        }
        return text + "."
    }

    static func bar(_ report: SpaceReport, width: Int, theme: Theme) -> StyledLine {
        let inner = max(0, width - 2)
        let total = Double(max(1, report.totalBytes))
        let used = Int((Double(report.usedBytes) / total * Double(inner)).rounded())
        let locked = min(inner - used, Int((Double(report.lockedBytes) / total * Double(inner)).rounded()))
        let free = max(0, inner - used - locked)
        var line = StyledLine()
        line.add("[", theme.text)
        line.add(String(repeating: "█", count: used), theme.barUsed)
        line.add(String(repeating: "▓", count: locked), theme.barLocked)
        line.add(String(repeating: "░", count: free), theme.barFree)
        line.add("]", theme.text)
        return line
    }

    /// Bytes per class, then per column and index.
    static func classLines(_ report: SpaceReport, width: Int, theme: Theme) -> [StyledLine] {
        var lines = [StyledLine("Live bytes by class · column · index", theme.title)]
        let bytesWidth = 10
        let nameWidth = max(4, width - bytesWidth - 1)
        for space in report.classes.sorted(by: { $0.totalBytes > $1.totalBytes }) {
            var line = StyledLine()
            line.add(space.name, theme.header, width: nameWidth)
            line.add(" ")
            line.add(Formatting.bytes(space.totalBytes), theme.number, width: bytesWidth, alignment: .right)
            lines.append(line)
            for column in space.columns {
                var columnLine = StyledLine()
                columnLine.add("  " + column.name, theme.text, width: nameWidth)
                columnLine.add(" ")
                columnLine.add(Formatting.bytes(column.bytes), theme.text, width: bytesWidth, alignment: .right)
                lines.append(columnLine)
            }
            for index in space.indexes {
                var indexLine = StyledLine()
                indexLine.add("  index " + index.name, theme.dim, width: nameWidth)
                indexLine.add(" ")
                indexLine.add(Formatting.bytes(index.bytes), theme.dim, width: bytesWidth, alignment: .right)
                lines.append(indexLine)
            }
        }
        return lines
    }

    /// Free space by extent size and by freeing version.
    static func freeLines(_ report: SpaceReport, width: Int, theme: Theme) -> [StyledLine] {
        var lines = [StyledLine("Free space by extent size", theme.title)]
        let labelWidth = max(4, width - 10 - 10 - 2)
        for bucket in report.freeBySize {
            var line = StyledLine()
            let label = bucket.maxBytes.map { "\(Formatting.bytes(bucket.minBytes))–\(Formatting.bytes($0))" }
                ?? "≥ \(Formatting.bytes(bucket.minBytes))"
            line.add(label, theme.text, width: labelWidth)
            line.add(" ")
            line.add("\(Formatting.number(bucket.extents)) ext", theme.dim, width: 10, alignment: .right)
            line.add(" ")
            line.add(Formatting.bytes(bucket.bytes), theme.number, width: 10, alignment: .right)
            lines.append(line)
        }
        lines.append(.blank)
        lines.append(StyledLine("Free space by the version that freed it", theme.title))
        for freed in report.freeByVersion.reversed() {
            var line = StyledLine()
            line.add("v\(freed.version)", theme.text, width: labelWidth)
            line.add(" ")
            line.add(freed.isLocked ? "locked" : "reusable", freed.isLocked ? theme.barLocked : theme.dim, width: 10, alignment: .right)
            line.add(" ")
            line.add(Formatting.bytes(freed.bytes), theme.number, width: 10, alignment: .right)
            lines.append(line)
        }
        return lines
    }

    /// Draws the screen; returns the scroll offset actually used (clamped to the content).
    @discardableResult
    static func draw(_ report: SpaceReport, scroll: Int, theme: Theme, into buffer: inout CellBuffer, rect: Rect) -> Int {
        let top = header(report, width: rect.width, theme: theme)
        let headerHeight = min(rect.height, top.count + 1)
        LinesRenderer.draw(top, scroll: 0, into: &buffer, rect: Rect(x: rect.x, y: rect.y, width: rect.width, height: headerHeight))
        let body = Rect(x: rect.x, y: rect.y + headerHeight, width: rect.width, height: rect.height - headerHeight)
        guard !body.isEmpty else { return 0 }
        if rect.width >= 80 {
            // Side by side: classes left, free space right; they scroll together.
            let leftWidth = (rect.width - 3) / 2
            let left = classLines(report, width: leftWidth, theme: theme)
            let right = freeLines(report, width: rect.width - leftWidth - 3, theme: theme)
            let offset = max(0, min(scroll, max(left.count, right.count) - body.height))
            for y in body.y..<body.maxY { buffer.write("│", x: rect.x + leftWidth + 1, y: y, style: theme.dim) }
            LinesRenderer.draw(Array(left.dropFirst(min(offset, left.count))), scroll: 0, into: &buffer,
                               rect: Rect(x: rect.x, y: body.y, width: leftWidth, height: body.height))
            LinesRenderer.draw(Array(right.dropFirst(min(offset, right.count))), scroll: 0, into: &buffer,
                               rect: Rect(x: rect.x + leftWidth + 3, y: body.y, width: rect.width - leftWidth - 3, height: body.height))
            return offset
        } else {
            let lines = classLines(report, width: rect.width, theme: theme) + [.blank] + freeLines(report, width: rect.width, theme: theme)
            return LinesRenderer.draw(lines, scroll: scroll, into: &buffer, rect: body)
        }
    }
}
