import Foundation
import StrataStorage

/// Number formatting for the table (fixed digits, thousands separators), independent of locale.
enum BenchFormat {
    /// `value` with exactly `digits` digits after the point; "-" for nil or non-finite values.
    static func number(_ value: Double?, digits: Int) -> String {
        guard let value, value.isFinite else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    /// Seconds with 4 significant decimals, e.g. "1.2345".
    static func seconds(_ value: Double?) -> String {
        number(value, digits: 4)
    }

    /// An integer with "," between groups of three digits.
    static func grouped(_ value: Int) -> String { QuantityText.grouped(value) }

    /// Bytes in binary units, e.g. "45.3 MiB".
    static func bytes(_ value: Int) -> String { QuantityText.bytes(value) }

    /// `text` padded with spaces to `width` (on the left when `right` is true).
    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.count
        guard count < width else { return text }
        let spaces = String(repeating: " ", count: width - count)
        return right ? spaces + text : text + spaces
    }
}
