import Foundation
import StrataStorage
import StrataObjects
import StrataQuery

/// Text formats shared by every screen: values, byte counts, numbers, dates, durations.
/// Dates are shown in UTC so the same file reads the same everywhere (and tests are stable).
package enum Formatting {
    /// `text` safe to print in a table on a terminal: a newline as `⏎`, other control
    /// characters (C0 and DEL) as their Unicode control pictures (`␛` for ESC, `␉` for a tab,
    /// `␀` for NUL), C1 controls as `�`. Stored text reaching the terminal raw could move the
    /// cursor, recolour or clear the screen, or break the columns.
    package static func visibleText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out.append("⏎")
            case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("␡")
            case 0x80..<0xA0: out.append("�")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    /// `1,234,567`.
    package static func number<T: BinaryInteger>(_ value: T) -> String { QuantityText.grouped(value) }

    /// `512B`, `4.0K`, `12.3M`, `1.5G`: for the status bar on narrow terminals.
    package static func shortBytes(_ value: Int64) -> String {
        QuantityText.bytes(value, units: ["B", "K", "M", "G", "T"], separator: "")
    }

    /// A row count in at most 7 columns: `12,345`, `123k`, `10.0M` (`≈` marks an estimate).
    package static func compactCount(_ count: RowCount) -> String {
        let value = count.value
        let text: String
        if value < 100_000 { text = number(value) }
        else if value < 1_000_000 { text = "\(value / 1000)k" }
        else { text = String(format: value < 100_000_000 ? "%.1fM" : "%.0fM", Double(value) / 1_000_000) }
        return (count.isEstimate ? "≈" : "") + text
    }

    /// A row count, `≈` marking an estimate.
    package static func count(_ count: RowCount) -> String {
        (count.isEstimate ? "≈" : "") + number(count.value)
    }

    /// `512 B`, `4.0 KiB`, `12.3 MiB`, `1.50 GiB`.
    package static func bytes(_ value: Int64) -> String {
        QuantityText.bytes(value)
    }


    /// `42%` of `part` in `whole` (0 when `whole` is 0).
    package static func percent(_ part: Int64, of whole: Int64) -> String {
        guard whole > 0 else { return "0%" }
        return "\(Int((Double(part) * 100 / Double(whole)).rounded()))%"
    }

    /// `2024-05-01 12:30:05` (UTC).
    package static func dateTime(_ date: Date) -> String {
        utcDateTimeText(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// `2024-05-01 12:30:05` (UTC) of a stored date, to the second (rounded down).
    package static func dateTime(_ t: Timestamp) -> String { utcDateTimeText(secondsSince1970: t.seconds) }

    /// `2024-05-01 12:30:05` (UTC) of whole seconds since 1970.
    package static func dateTime(secondsSince1970 seconds: Int64) -> String { utcDateTimeText(secondsSince1970: seconds) }

    /// `2024-05-01T12:30:05.123456789Z`: every stored digit, as the edit prompt and import read it
    /// back (StrataStorage's ISO formatter).
    package static func isoDateTime(seconds: Int64, nanoseconds: Int64) -> String { iso8601Text(seconds: seconds, nanoseconds: nanoseconds) }

    /// `12:30:05` (UTC).
    package static func time(_ date: Date) -> String {
        let parts = civil(date)
        return String(format: "%02lld:%02lld:%02lld", parts.hour, parts.minute, parts.second)
    }

    /// A measured duration to a tenth of a millisecond below 10 ms (`0.6 ms`, `9.4 ms`), else as
    /// `duration` (the phases of an operation, where whole milliseconds would read as nothing).
    package static func timing(_ seconds: Double) -> String {
        seconds < 0.01 ? String(format: "%.1f ms", seconds * 1000) : duration(seconds)
    }

    /// `850 ms`, `42 s`, `3 m 20 s`, `2 h 14 m`, `3 d 4 h`.
    package static func duration(_ seconds: Double) -> String {
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        if seconds < 10 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds)
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) m \(whole % 60) s" }
        if whole < 86400 { return "\(whole / 3600) h \(whole % 3600 / 60) m" }
        return "\(whole / 86400) d \(whole % 86400 / 3600) h"
    }

    /// Calendar fields of a date in UTC (StrataStorage's civil calendar; no time zone database).
    private static func civil(_ date: Date) -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
        civilFields(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
