import StrataTooling

/// The Log screen: commits seen from other processes, compaction results, errors; newest first.
enum LogScreenRenderer {
    static func lines(_ log: [LogEntry], width: Int, theme: Theme) -> [StyledLine] {
        var lines = [StyledLine("Log (newest first)", theme.title)]
        if log.isEmpty { lines.append(StyledLine("nothing yet", theme.dim)) }
        for entry in log.reversed() {
            var line = StyledLine()
            line.add(Formatting.time(entry.time), theme.date, width: 8)
            line.add("  ")
            let style: Style
            switch entry.kind {
            case .commit: style = theme.number
            case .compaction: style = theme.title
            case .error: style = theme.error
            case .info: style = theme.dim
            }
            line.add(entry.kind.rawValue, style, width: 10)
            line.add(" ")
            line.add(entry.text, entry.kind == .error ? theme.error : theme.text)
            lines.append(line)
        }
        return lines
    }
}
