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
    /// nanoseconds need (at least milliseconds), so it parses back to the same stored value
    /// (``Timestamp``'s text: StrataStorage's one calendar, no Double on the way).
    package static func isoDate(_ t: Timestamp) -> String { t.description }

    /// The ISO 8601 text of a Foundation date (commit and process times), to its nearest nanosecond.
    package static func isoDate(_ date: Date) -> String { Timestamp(date).description }

    /// A UUID as text: the canonical lower-case form realm-core writes (export, query output).
    package static func uuidText(_ u: UUID) -> String { u.uuidString.lowercased() }

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
