import Foundation
import StrataTooling

/// The Versions screen: current version, live readers (what each pins, for how long, how many
/// bytes it keeps from reuse; dead ones marked), recent commits.
enum VersionsScreenRenderer {
    static func lines(_ report: VersionsReport, now: Date, width: Int, theme: Theme) -> [StyledLine] {
        var lines: [StyledLine] = []
        let live = report.readers.filter(\.isAlive)
        let dead = report.readers.count - live.count
        var title = StyledLine()
        title.add("Current version \(report.currentVersion)", theme.title)
        if let oldest = live.map(\.pinnedVersion).min(), oldest < report.currentVersion {
            title.add("  ·  oldest pinned v\(oldest) (\(report.currentVersion - oldest) versions behind)", theme.text)
        }
        lines.append(title)
        if let unlisted = report.unlisted {
            // Not "0 live readers" above empty tables: nothing could be listed.
            return lines + [.blank] + ChromeRenderer.wrapped(unlisted, width: width, style: theme.text)
        }
        let pinnedTotal = live.map(\.bytesPinned).max() ?? 0
        lines.append(StyledLine("\(live.count) live reader\(live.count == 1 ? "" : "s")"
                                + (dead > 0 ? ", \(dead) dead" : "")
                                + (pinnedTotal > 0 ? "; the oldest keeps \(Formatting.bytes(pinnedTotal)) of freed pages from reuse" : ""), theme.text))
        // Shown only while someone holds it: a writer that stopped holding it blocks every other.
        if let holder = report.writeLockHolder {
            lines.append(StyledLine("Write lock held by \(holder)" + (holder.isAlive ? "" : " (dead)"), holder.isAlive ? theme.text : theme.error))
        }
        lines.append(.blank)
        lines.append(StyledLine("Readers", theme.title))
        let threadWidth = max(8, min(28, width - 7 - 9 - 11 - 12 - 6 - 5))
        var header = StyledLine()
        header.add("pid", theme.header, width: 7, alignment: .right)
        header.add(" ")
        header.add("thread", theme.header, width: threadWidth)
        header.add(" ")
        header.add("pinned", theme.header, width: 8, alignment: .right)
        header.add(" ")
        header.add("for", theme.header, width: 10, alignment: .right)
        header.add(" ")
        header.add("bytes pinned", theme.header, width: 12, alignment: .right)
        header.add(" ")
        header.add("state", theme.header, width: 5)
        lines.append(header)
        for reader in report.readers {
            let style = reader.isAlive ? theme.text : theme.dead
            var line = StyledLine()
            line.add(String(reader.pid), style, width: 7, alignment: .right)
            line.add(" ")
            line.add(reader.threadLabel, style, width: threadWidth)
            line.add(" ")
            line.add("v\(reader.pinnedVersion)", reader.pinnedVersion < report.currentVersion && reader.isAlive ? theme.error : style,
                     width: 8, alignment: .right)
            line.add(" ")
            line.add(Formatting.duration(max(0, now.timeIntervalSince(reader.since))), style, width: 10, alignment: .right)
            line.add(" ")
            line.add(reader.isAlive ? Formatting.bytes(reader.bytesPinned) : "—", style, width: 12, alignment: .right)
            line.add(" ")
            line.add(reader.isAlive ? "live" : "DEAD", reader.isAlive ? theme.text : theme.error, width: 5)
            lines.append(line)
        }
        lines.append(.blank)
        lines.append(StyledLine("Recent commits (UTC)", theme.title))
        let wide = width >= 100
        var commitHeader = StyledLine()
        commitHeader.add("version", theme.header, width: 8, alignment: .right)
        commitHeader.add(" ")
        commitHeader.add("time", theme.header, width: wide ? 19 : 8)
        commitHeader.add(" ")
        commitHeader.add("pid", theme.header, width: 7, alignment: .right)
        commitHeader.add(" ")
        commitHeader.add("what changed", theme.header)
        lines.append(commitHeader)
        for commit in report.commits {
            var line = StyledLine()
            line.add("v\(commit.version)", theme.number, width: 8, alignment: .right)
            line.add(" ")
            line.add(wide ? Formatting.dateTime(commit.time) : Formatting.time(commit.time), theme.date, width: wide ? 19 : 8)
            line.add(" ")
            line.add(String(commit.pid), theme.text, width: 7, alignment: .right)
            line.add(" ")
            line.add(commit.summary, theme.text)
            lines.append(line)
        }
        return lines
    }
}
