import Foundation
import StrataObjects

/// A point in time with nanosecond precision, the way Realm stores dates: whole seconds since
/// 1970-01-01 00:00:00 UTC plus a nanosecond part.
///
/// Invariant: `nanoseconds` is always normalised into `0..<1_000_000_000`, so comparing
/// `(seconds, nanoseconds)` lexicographically orders timestamps by time.
public struct QueryTimestamp: Hashable, Comparable, Sendable {
    /// Seconds since 1970 (negative before).
    public let seconds: Int64
    /// Nanoseconds within the second, 0 ..< 1,000,000,000 (normalised by the initializer).
    public let nanoseconds: Int32

    /// Creates a timestamp; any nanosecond value (also negative, Realm's same-sign convention) is
    /// carried into `seconds` so the stored form is normalised.
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        let carry = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        var s = seconds.addingReportingOverflow(carry.quotient).partialValue
        var n = carry.remainder
        if n < 0 { n += 1_000_000_000; s = s.subtractingReportingOverflow(1).partialValue }
        self.seconds = s
        self.nanoseconds = Int32(n)
    }

    /// The timestamp nearest to a Foundation `Date`.
    public init(_ date: Date) {
        let t = date.timeIntervalSince1970
        guard t.isFinite else { self.init(seconds: t > 0 ? Int64.max : Int64.min); return }
        let whole = t.rounded(.down)
        let clamped = max(min(whole, 9.2e18), -9.2e18)
        self.init(seconds: Int64(clamped), nanoseconds: Int64(((t - whole) * 1e9).rounded()))
    }

    /// The Foundation `Date` for this timestamp (sub-microsecond precision may be lost).
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    public static func < (a: QueryTimestamp, b: QueryTimestamp) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
}

/// A 12-byte MongoDB/Realm ObjectId.
public struct QueryObjectId: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Always exactly 12 bytes.
    public let bytes: [UInt8]

    /// Creates an ObjectId from exactly 12 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 12 else { return nil }
        self.bytes = bytes
    }

    /// Parses 24 hexadecimal digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 24 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(12)
        var i = 0
        while i < 24 {
            guard let hi = hexDigitValue(digits[i]), let lo = hexDigitValue(digits[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        bytes = out
    }

    /// The 24 lower-case hexadecimal digits.
    public var hex: String { bytes.map { hexByte($0) }.joined() }
    public var description: String { hex }

    public static func < (a: QueryObjectId, b: QueryObjectId) -> Bool {
        a.bytes.lexicographicallyPrecedes(b.bytes)
    }
}

/// A reference to a stored object: its class and an engine-defined key.
public struct QueryObjectRef: Hashable, Sendable, CustomStringConvertible {
    /// The class of the object.
    public var className: String
    /// The object's key within its class.
    public var key: Int64
    /// A reference to object `key` of `className`.
    public init(className: String, key: Int64) {
        self.className = className
        self.key = key
    }
    public var description: String { "\(className)#\(key)" }
}

/// A value a query compares: a literal, an argument (`$0`), or a property value read from an
/// object. `list` is only used for arguments (`IN $0`) and never appears as a property value.
public enum QueryValue: Hashable, Sendable {
    /// nil.
    case null
    /// A Bool.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A Double.
    case double(Double)
    /// A Float.
    case float(Float)
    /// A String.
    case string(String)
    /// Binary data.
    case data([UInt8])
    /// A timestamp.
    case date(QueryTimestamp)
    /// An ObjectId.
    case objectId(QueryObjectId)
    /// A UUID.
    case uuid(UUID)
    /// A decimal number (IEEE 754 decimal128).
    case decimal(Decimal128)
    /// An object.
    case object(QueryObjectRef)
    /// A list of values (arguments of `IN $0` only).
    case list([QueryValue])

    /// Convenience: an `Int` value.
    public static func int(_ v: Int) -> QueryValue { .int(Int64(v)) }
    /// Convenience: a Foundation `Date` value.
    public static func date(_ d: Date) -> QueryValue { .date(QueryTimestamp(d)) }

    /// True for `.null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// True for int, float, double and decimal values.
    public var isNumeric: Bool {
        switch self {
        case .int, .double, .float, .decimal: return true
        default: return false
        }
    }

    /// The scalar type of the value, or nil for null, objects and lists.
    package var scalarType: QueryPropertyType? {
        switch self {
        case .null, .list: return nil
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .float: return .float
        case .string: return .string
        case .data: return .data
        case .date: return .date
        case .objectId: return .objectId
        case .uuid: return .uuid
        case .decimal: return .decimal
        case .object(let ref): return .link(ref.className)
        }
    }
}

func hexDigitValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

func hexByte(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
}
