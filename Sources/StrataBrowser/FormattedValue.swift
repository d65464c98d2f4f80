import Foundation
import StrataTooling

/// How a ``DisplayValue`` looks in a table cell or the detail view.
package struct FormattedValue: Hashable, Sendable {
    package enum Role: Sendable { case text, number, date, identifier, link, collection, null }
    package var text: String
    package var role: Role
    package var alignment: TextAlignment
}

extension DisplayValue {
    /// The cell text, its styling role and alignment (numbers right-aligned).
    package var formatted: FormattedValue {
        switch self {
        case .null: FormattedValue(text: "null", role: .null, alignment: .left)
        case .bool(let value): FormattedValue(text: value ? "true" : "false", role: .number, alignment: .left)
        case .int(let value): FormattedValue(text: String(value), role: .number, alignment: .right)
        case .double(let value): FormattedValue(text: Self.format(value), role: .number, alignment: .right)
        case .decimal(let text): FormattedValue(text: text, role: .number, alignment: .right)
        case .string(let text): FormattedValue(text: text, role: .text, alignment: .left)
        case .data(let count, let prefix):
            FormattedValue(text: Self.dataText(count: count, prefix: prefix), role: .identifier, alignment: .left)
        case .date(let seconds, _): FormattedValue(text: Formatting.dateTime(secondsSince1970: seconds), role: .date, alignment: .left)
        case .objectId(let hex): FormattedValue(text: hex, role: .identifier, alignment: .left)
        case .uuid(let uuid): FormattedValue(text: uuid.uuidString.lowercased(), role: .identifier, alignment: .left)
        case .link(let link): FormattedValue(text: "→ " + link.label, role: .link, alignment: .left)
        case .embedded(let link): FormattedValue(text: "{" + link.label + "}", role: .link, alignment: .left)
        case .collection(let count, let elementType):
            FormattedValue(text: "[\(count) \(elementType)]", role: .collection, alignment: .left)
        }
    }

    /// The object this value leads to (link or embedded), if any.
    package var linkedObject: ObjectRef? {
        switch self {
        case .link(let link), .embedded(let link): link.ref
        default: nil
        }
    }

    /// Text to pre-fill an edit prompt with (the value as typed, not as displayed).
    package var editText: String {
        switch self {
        case .null: ""
        case .string(let text): text
        case .link(let link): link.label.split(separator: " ").first.map(String.init) ?? ""
        // Every stored digit, so Enter on an unchanged prompt writes the same value back (the
        // cell shows a date to the second and a Double to six digits).
        case .date(let seconds, let nanoseconds): Formatting.isoDateTime(seconds: seconds, nanoseconds: nanoseconds)
        case .double(let value): value.isNaN ? "NaN" : value.isInfinite ? (value > 0 ? "Infinity" : "-Infinity") : "\(value)"
        default: formatted.text
        }
    }

    /// `<12 B 0a1b2c3d…>`: size and the first bytes in hex.
    private static func dataText(count: Int, prefix: [UInt8]) -> String {
        let hex = prefix.prefix(8).map { String(format: "%02x", $0) }.joined()
        return "<\(Formatting.bytes(Int64(count))) \(hex)\(count > 8 ? "…" : "")>"
    }

    private static func format(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return String(value) }
        if value == value.rounded(), abs(value) < 1e15 { return String(format: "%.1f", value) }
        var text = String(format: "%.6g", value)
        if text.contains("e") { return text }
        if text.contains(".") { while text.hasSuffix("0") { text.removeLast() } }
        return text
    }
}

extension Theme {
    /// The style of a formatted value's role.
    package func style(for role: FormattedValue.Role) -> Style {
        switch role {
        case .text: text
        case .number: number
        case .date: date
        case .identifier: identifier
        case .link: link
        case .collection: collection
        case .null: null
        }
    }
}
