import StrataStorage

/// A value read from a Realm file. Mixed values use the same cases (a Mixed holding an int is
/// `.int`); links carry the target class name and object key, so embedded objects and link
/// targets are resolved through `RealmFile.object(withKey:in:)`.
package indirect enum RealmValue: Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case binary([UInt8])
    /// Seconds and nanoseconds since 1970 (they share a sign, as in realm-core).
    case timestamp(seconds: Int64, nanoseconds: Int32)
    case objectId(RealmObjectId)
    case uuid(RealmUUID)
    case decimal128(RealmDecimal128)
    /// A link (or typed link, or a link held in a Mixed) to object `key` of class `className`.
    case link(className: String, key: Int64)
    case list([RealmValue])
    case set([RealmValue])
    case dictionary([RealmDictionaryEntry])

    package var isNull: Bool { if case .null = self { return true } else { return false } }

    package var description: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .float(f): return "\(f)"
        case let .double(d): return "\(d)"
        case let .string(s): return s
        case let .binary(b): return "<\(b.count) bytes>"
        case let .timestamp(s, n): return RealmTimestampFormat.iso8601(seconds: s, nanoseconds: n)
        case let .objectId(o): return o.description
        case let .uuid(u): return u.description
        case let .decimal128(d): return d.description
        case let .link(c, k): return "\(c)[key \(k)]"
        case let .list(v): return "[" + v.map(\.description).joined(separator: ", ") + "]"
        case let .set(v): return "{" + v.map(\.description).joined(separator: ", ") + "}"
        case let .dictionary(e): return "{" + e.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// One key/value pair of a Realm dictionary (keys are strings, or ints in files that use int keys).
package struct RealmDictionaryEntry: Sendable {
    package let key: String
    package let value: RealmValue
}

/// A 12-byte BSON ObjectId.
package struct RealmObjectId: Sendable, Hashable, CustomStringConvertible {
    package let bytes: [UInt8]
    package var description: String { RealmHex.lower(bytes) }
}

/// A 16-byte UUID, printed in canonical lower-case form.
package struct RealmUUID: Sendable, Hashable, CustomStringConvertible {
    package let bytes: [UInt8]
    package var description: String {
        let h = RealmHex.lower(bytes)
        guard h.count == 32 else { return h }
        let c = Array(h)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }
}

enum RealmHex {
    static func lower(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// ISO-8601 UTC text of a realm timestamp with 9 fraction digits, as realm-core's tools print it.
package enum RealmTimestampFormat {
    package static func iso8601(seconds: Int64, nanoseconds: Int32) -> String {
        iso8601Text(seconds: seconds, nanoseconds: Int64(nanoseconds), minimumFractionDigits: 9)   // StrataStorage's calendar
    }

}
