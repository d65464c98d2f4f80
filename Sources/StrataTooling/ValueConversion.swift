import Foundation
import StrataStorage
import StrataObjects
import StrataQuery

/// Conversions between the engine's values and schema and what the browser, the query layer and
/// the command line use. Shared by ``DatabaseDataSource`` and the `strata` executable.
package enum ValueConversion {
    // MARK: Schema

    /// How the browser describes a property of the engine's schema.
    package static func describe(_ p: PropertySchema, in schema: Schema) -> PropertyDescription {
        let type: ValueType
        switch p.type {
        case .bool: type = .bool
        case .int: type = .int
        case .float: type = .float
        case .double: type = .double
        case .string: type = .string
        case .data: type = .data
        case .date: type = .date
        case .objectId: type = .objectId
        case .uuid: type = .uuid
        case .decimal128: type = .decimal128
        case .mixed: type = .mixed
        case .object, .linkingObjects: type = .object
        }
        let kind: PropertyKind
        if p.type == .linkingObjects {
            kind = .backlinks
        } else {
            switch p.collection {
            case .list: kind = .list
            case .set: kind = .set
            case .map: kind = .map
            case .single:
                if p.type == .object {
                    kind = schema[p.objectClassName ?? ""]?.isEmbedded == true ? .embedded : .link
                } else {
                    kind = .value
                }
            }
        }
        return PropertyDescription(name: p.name, type: type, kind: kind, targetClass: p.objectClassName,
                                   isOptional: p.isOptional || (p.type == .object && p.collection == .single),
                                   isIndexed: p.isIndexed, isPrimaryKey: p.isPrimaryKey)
    }

    /// The query layer's view of a schema (for binding RQL).
    package static func querySchema(_ schema: Schema) -> QuerySchema { QuerySchema(schema) }

    /// A value as the query evaluator compares it.
    package static func queryValue(_ v: Value) -> QueryValue { QueryValue(v) }

    // MARK: Text

    /// `2024-05-01T12:30:05.123Z`: ISO 8601 in UTC with as many fraction digits as the stored
    /// nanoseconds need (at least milliseconds), so it parses back to the same stored value.
    package static func isoDate(_ date: Date) -> String {
        // The engine's own conversion: the text is exactly the stored nanoseconds.
        let ns = Value.storedNanoseconds(date)
        guard ns != Int64.min, ns != Int64.max else { return Value.iso8601(date) }
        var seconds = ns / 1_000_000_000
        var fraction = ns % 1_000_000_000
        if fraction < 0 { fraction += 1_000_000_000; seconds -= 1 }
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let (year, month, day) = civilFromDays(days)
        var digits = String(format: "%09lld", fraction)
        while digits.count > 3, digits.hasSuffix("0") { digits.removeLast() }
        let yearText = year >= 0 && year <= 9999 ? String(format: "%04lld", year) : String(year)
        return String(format: "%@-%02lld-%02lldT%02lld:%02lld:%02lld.%@Z", yearText, month, day,
                      secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, digits)
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS[.fraction]]`, with `T` or a space, an optional
    /// `Z` or `±HH:MM` offset (UTC when absent), nanosecond precision.
    package static func parseDate(_ text: String) -> Date? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces))
        var offsetSeconds = 0
        if s.hasSuffix("Z") || s.hasSuffix("z") {
            s = s.dropLast()
        } else if s.count > 16, let signIndex = s.lastIndex(where: { $0 == "+" || $0 == "-" }),
                  s.distance(from: s.startIndex, to: signIndex) > 10 {
            let zone = s[s.index(after: signIndex)...].split(separator: ":").compactMap { Int($0) }
            guard zone.count == 2 || (zone.count == 1 && s[s.index(after: signIndex)...].count == 4) else { return nil }
            let minutes = zone.count == 2 ? zone[0] * 60 + zone[1] : (zone[0] / 100) * 60 + zone[0] % 100
            offsetSeconds = (s[signIndex] == "-" ? -1 : 1) * minutes * 60
            s = s[..<signIndex]
        }
        let parts = s.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard let dayPart = parts.first, parts.count <= 2 else { return nil }
        var dayText = Substring(dayPart)
        var negativeYear = false
        if dayText.hasPrefix("-") { negativeYear = true; dayText = dayText.dropFirst() }
        let ymdText = dayText.split(separator: "-", omittingEmptySubsequences: false)
        guard ymdText.count == 3, ymdText.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let ymd = ymdText.compactMap { Int($0) }
        guard ymd.count == 3, (1...12).contains(ymd[1]), (1...31).contains(ymd[2]) else { return nil }
        let yearValue = negativeYear ? -ymd[0] : ymd[0]
        var hms = [0, 0, 0]
        var nanos: Int64 = 0
        if parts.count == 2 {
            var timeText = Substring(parts[1])
            if let dot = timeText.firstIndex(where: { $0 == "." || $0 == "," }) {
                let fraction = timeText[timeText.index(after: dot)...]
                guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                nanos = Int64(fraction + String(repeating: "0", count: 9 - fraction.count)) ?? 0
                timeText = timeText[..<dot]
            }
            let fields = timeText.split(separator: ":").compactMap { Int($0) }
            guard fields.count >= 2, fields.count <= 3, fields[0] < 24, fields[1] < 60, (fields.count < 3 || fields[2] < 60) else { return nil }
            for (index, field) in fields.enumerated() { hms[index] = field }
        }
        let days = daysFromCivil(Int64(yearValue), Int64(ymd[1]), Int64(ymd[2]))
        let seconds = days * 86400 + Int64(hms[0] * 3600 + hms[1] * 60 + hms[2] - offsetSeconds)
        let (total, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow, total.addingReportingOverflow(nanos).overflow == false else {
            return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1e9)
        }
        return Value.date(fromStoredNanoseconds: total + nanos)
    }

    /// Lowercase hex of bytes.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Bytes from hex digits (nil when not an even number of hex digits).
    package static func bytes(hex text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = hexValue(chars[i]), let lo = hexValue(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }

    /// The shortest text of a float or double that reads back to the same value.
    package static func numberText(_ v: Value) -> String {
        switch v {
        case .float(let f): return f.isFinite ? "\(f)" : (f.isNaN ? "NaN" : f > 0 ? "Infinity" : "-Infinity")
        case .double(let d): return d.isFinite ? "\(d)" : (d.isNaN ? "NaN" : d > 0 ? "Infinity" : "-Infinity")
        default: return v.description
        }
    }
}
