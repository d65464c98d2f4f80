import Foundation
import StrataTooling

/// How ``FakeDataSource`` stores a property value (links by target object key).
enum FakeStoredValue: Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case objectId(String)
    case uuid(UUID)
    case data([UInt8])
    /// Key of an object of the property's target class (links and embedded objects).
    case object(Int64)
    /// List or set items.
    case list([FakeStoredValue])
    /// Map entries sorted by key.
    case map([String: FakeStoredValue])

    var isNull: Bool { if case .null = self { true } else { false } }

    var collectionCount: Int {
        switch self {
        case .list(let items): items.count
        case .map(let entries): entries.count
        default: 0
        }
    }

    /// Total order used by sorting and comparisons: null first, then by value.
    static func compare(_ a: FakeStoredValue, _ b: FakeStoredValue) -> ComparisonResult {
        func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
            x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        }
        switch (a, b) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.int(let x), .int(let y)): return order(x, y)
        case (.int(let x), .double(let y)): return order(Double(x), y)
        case (.double(let x), .int(let y)): return order(x, Double(y))
        case (.double(let x), .double(let y)): return order(x, y)
        case (.bool(let x), .bool(let y)): return order(x ? 1 : 0, y ? 1 : 0)
        case (.string(let x), .string(let y)): return order(x, y)
        case (.date(let x), .date(let y)): return order(x, y)
        case (.objectId(let x), .objectId(let y)): return order(x, y)
        case (.uuid(let x), .uuid(let y)): return order(x.uuidString, y.uuidString)
        case (.object(let x), .object(let y)): return order(x, y)
        case (.data(let x), .data(let y)): return order(x.count, y.count)
        default: return order(a.collectionCount, b.collectionCount)
        }
    }

    /// Parses typed text for a property, as the edit prompt sends it. Links are resolved by
    /// the caller (`resolveLink` maps a primary key or `#key` to an object key).
    static func parse(_ text: String, for property: PropertyDescription, elementOnly: Bool = false,
                      resolveLink: (String) -> Int64?) throws -> FakeStoredValue {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let optional = property.isOptional && !elementOnly
        if trimmed == "null" || (trimmed.isEmpty && property.type != .string) {
            if optional { return .null }
            throw BrowserError("\(property.name) is required (\(property.typeDescription))")
        }
        if trimmed.isEmpty, property.type == .string { return optional ? .null : .string("") }
        func invalid() -> BrowserError {
            BrowserError("'\(trimmed)' is not a valid \(property.type == .object ? (property.targetClass ?? "object") : property.type.displayName) for \(property.name)")
        }
        switch property.type {
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: throw invalid()
            }
        case .int:
            guard let value = Int64(trimmed) else { throw invalid() }
            return .int(value)
        case .float, .double, .decimal128:
            guard let value = Double(trimmed), value.isFinite else { throw invalid() }
            return .double(value)
        case .string, .mixed:
            guard text.utf8.count <= 16 << 20 else { throw BrowserError("a String is limited to 16 MB") }
            return .string(text)
        case .date:
            guard let date = parseDate(trimmed) else {
                throw BrowserError("'\(trimmed)' is not a date; use YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC)")
            }
            return .date(date)
        case .objectId:
            let hex = trimmed.lowercased()
            guard hex.count == 24, hex.allSatisfy(\.isHexDigit) else {
                throw BrowserError("'\(trimmed)' is not an ObjectId (24 hex digits)")
            }
            return .objectId(hex)
        case .uuid:
            guard let uuid = UUID(uuidString: trimmed) else { throw invalid() }
            return .uuid(uuid)
        case .data:
            let hex = Array(trimmed.lowercased())
            guard hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else {
                throw BrowserError("'\(trimmed)' is not hex bytes (Data)")
            }
            return .data(stride(from: 0, to: hex.count, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! })
        case .object:
            guard let key = resolveLink(trimmed) else {
                throw BrowserError("no \(property.targetClass ?? "object") with key \(trimmed)")
            }
            return .object(key)
        }
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DD HH:MM[:SS]`, UTC.
    static func parseDate(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard let dayPart = parts.first, parts.count <= 2 else { return nil }
        let ymd = dayPart.split(separator: "-").compactMap { Int($0) }
        guard ymd.count == 3, (1...12).contains(ymd[1]), (1...31).contains(ymd[2]) else { return nil }
        var hms = [0, 0, 0]
        if parts.count == 2 {
            let fields = parts[1].split(separator: ":").compactMap { Int($0) }
            guard fields.count >= 2, fields.count <= 3, fields[0] < 24, fields[1] < 60, (fields.count < 3 || fields[2] < 60) else { return nil }
            for (index, field) in fields.enumerated() { hms[index] = field }
        }
        // Days from civil (proleptic Gregorian).
        let year = ymd[1] <= 2 ? ymd[0] - 1 : ymd[0]
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let month = ymd[1]
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + ymd[2] - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: Double(days * 86400 + hms[0] * 3600 + hms[1] * 60 + hms[2]))
    }
}
