import Foundation
import StrataDecimal

/// A 12-byte unique identifier, as MongoDB and Realm use: 4 bytes of seconds since 1970
/// (big-endian), 5 random bytes fixed per process, 3 bytes of a counter. Orders by creation time.
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The 12 bytes.
    public let bytes: [UInt8]

    private static let processRandom: [UInt8] = (0..<5).map { _ in UInt8.random(in: 0...255) }
    private static let counter = Counter()
    private final class Counter: @unchecked Sendable {
        let lock = NSLock(); var value = UInt32.random(in: 0..<0xFF_FFFF)
        func next() -> UInt32 { lock.lock(); defer { lock.unlock() }; value = (value &+ 1) & 0xFF_FFFF; return value }
    }

    /// A new, unique id.
    public static func generate() -> ObjectId {
        let secs = UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970))
        let c = counter.next()
        var b = withUnsafeBytes(of: secs.bigEndian) { Array($0) }
        b += processRandom
        b += [UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
        return ObjectId(uncheckedBytes: b)
    }

    /// A new, unique id (RealmSwift's spelling).
    public init() { self = ObjectId.generate() }

    init(uncheckedBytes: [UInt8]) { bytes = uncheckedBytes }

    /// From 12 bytes; nil when the count is wrong.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 12 else { return nil }
        self.bytes = bytes
    }

    /// From 24 hexadecimal digits.
    public init(string: String) throws {
        let s = Array(string.utf8)
        guard s.count == 24 else { throw ObjectIdError.invalid(string) }
        var out = [UInt8](); out.reserveCapacity(12)
        var i = 0
        while i < 24 {
            guard let hi = hexValue(s[i]), let lo = hexValue(s[i + 1]) else { throw ObjectIdError.invalid(string) }
            out.append(hi << 4 | lo); i += 2
        }
        bytes = out
    }

    /// The 24 lowercase hexadecimal digits of the identifier.
    public var stringValue: String { bytes.map { String(format: "%02x", $0) }.joined() }
    public var description: String { stringValue }
    /// The creation time encoded in the first four bytes.
    public var timestamp: Date {
        let secs = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        return Date(timeIntervalSince1970: TimeInterval(secs))
    }
    public static func < (a: ObjectId, b: ObjectId) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    public init(from decoder: Decoder) throws { try self.init(string: try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(stringValue) }
}

/// Why a string is not an ObjectId.
public enum ObjectIdError: Error, CustomStringConvertible, Sendable {
    /// The string is not 24 hexadecimal digits.
    /// The text (quoted in the message) is not a decimal number.
    case invalid(String)
    public var description: String {
        switch self { case .invalid(let s): return "'\(s)' is not an ObjectId: expected 24 hexadecimal digits" }
    }
}

@inline(__always) func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case 48...57: return c - 48
    case 97...102: return c - 87
    case 65...70: return c - 55
    default: return nil
    }
}

/// A 128-bit decimal number: an IEEE 754-2008 decimal128, as RealmSwift's `Decimal128` and
/// realm-core hold it — 34 significant digits, exponents -6176...6111, ±infinity, NaN and
/// negative zero. Arithmetic rounds half-even to 34 digits; values keep their exponent
/// (`"12.50"` prints as 12.50 and equals 12.5). Stored in a Strata file as its text
/// (`stringValue`).
public struct Decimal128: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, Codable {
    /// The decimal128 value (sign, coefficient, exponent or NaN/infinity) in StrataDecimal.
    package var storage: DecimalValue

    /// A decimal holding `storage`.
    package init(storage: DecimalValue) { self.storage = storage }

    /// The value as a Foundation `Decimal` (38 digits, exponent -128...127). Lossy outside
    /// that range: more than 38 digits or smaller exponents round half-even (down to 0),
    /// larger magnitudes and ±infinity give ±`Decimal.greatestFiniteMagnitude`, NaN gives
    /// `Decimal.nan`. Setting it stores the `Decimal` exactly.
    public var value: Decimal {
        get { Decimal128.foundationDecimal(storage) }
        set { self = Decimal128(newValue) }
    }

    /// A decimal holding `value` exactly (a Foundation `Decimal` NaN gives NaN).
    public init(_ value: Decimal) {
        if value.isNaN { storage = .nan; return }
        storage = (try? DecimalValue(parsing: value.description)) ?? .nan
    }

    /// The integer `v` (exact).
    public init(integerLiteral v: Int) { storage = DecimalValue(Int64(v)) }

    /// The double literal `v` as realm-core converts a double: its exact binary value rounded
    /// to 15 significant digits (exact when it has fewer), so `9.99` is 9.99000000000000 —
    /// equal to `"9.99"`.
    public init(floatLiteral v: Double) { storage = DecimalValue(v, significantDigits: 15) }

    /// A decimal holding the integer `number` (exact; RealmSwift's `init(number:)`).
    public init(number: Int) { storage = DecimalValue(Int64(number)) }

    /// Parses decimal text such as "12.50", "-3e5", "1E-6176", "NaN", "Inf" or "-Infinity".
    /// More than 34 significant digits round half-even; magnitudes beyond 10^6145 give
    /// ±infinity. Text that is not a number throws `DecimalError.invalid`, whose message says
    /// what is wrong.
    public init(string: String) throws {
        do { storage = try DecimalValue(parsing: string) } catch { throw DecimalError.invalid(string) }
    }

    /// The text realm-core's `Decimal128::to_string()` gives (RealmSwift's `stringValue`):
    /// "12.50", "1.5E-7", "1E2", "-0", "NaN", "-Inf"; coefficients of 20 digits or more as
    /// "+12345678901234567890E-3". `init(string:)` reads it back to the same value and exponent.
    public var stringValue: String { storage.realmText }

    /// Same as `stringValue`.
    public var description: String { storage.realmText }

    /// The nearest `Double` (±infinity or ±0 beyond Double's range; NaN for NaN).
    public var doubleValue: Double { storage.doubleValue }

    /// realm-core's order: numeric (1.0 == 1.00, -0 == 0, -Inf < every number < Inf), NaN
    /// before every number.
    public static func < (a: Decimal128, b: Decimal128) -> Bool { a.storage < b.storage }

    /// Numeric equality as realm-core's: 1.0 == 1.00 and -0 == 0; a NaN equals a NaN of the
    /// same sign.
    public static func == (a: Decimal128, b: Decimal128) -> Bool { a.storage == b.storage }

    /// Hashes the numeric value (equal decimals hash equally).
    public func hash(into hasher: inout Hasher) { storage.hash(into: &hasher) }

    /// Decodes from a string (as `init(string:)`).
    public init(from decoder: Decoder) throws { try self.init(string: try decoder.singleValueContainer().decode(String.self)) }
    /// Encodes as `stringValue`.
    public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(stringValue) }

    /// `v` converted to a Foundation `Decimal` (see `value`).
    private static func foundationDecimal(_ v: DecimalValue) -> Decimal {
        switch v.kind {
        case .nan, .signalingNaN: return .nan
        case .infinity: return v.isNegative ? -Decimal.greatestFiniteMagnitude : .greatestFiniteMagnitude
        case .finite: break
        }
        let n = v.normalized
        var c = n.coefficient, e = Int(n.exponent)
        if c == 0 { return 0 }  // Foundation has no negative zero (a negative empty Decimal is NaN)
        if e > 127 {
            let shift = e - 127
            guard digitCount(c) + shift <= 38 else { return v.isNegative ? -Decimal.greatestFiniteMagnitude : .greatestFiniteMagnitude }
            c *= tenToThe(shift); e = 127
        } else if e < -128 {
            let drop = -128 - e
            if drop > 38 { c = 0 } else {
                let p = tenToThe(drop)
                let (q, r) = c.quotientAndRemainder(dividingBy: p)
                c = q
                if r > p / 2 || (r == p / 2 && q & 1 == 1) { c += 1 }
            }
            e = -128
        }
        return Decimal(string: (v.isNegative ? "-" : "") + String(c) + "E" + String(e), locale: Locale(identifier: "en_US_POSIX")) ?? .nan
    }
}

/// Why text could not be read as a `Decimal128`.
public enum DecimalError: Error, CustomStringConvertible, Sendable {
    /// The text (quoted in the message) is not a decimal number.
    case invalid(String)
    /// What is wrong with the text and how decimals are written.
    public var description: String {
        switch self {
        case .invalid(let s):
            do { _ = try DecimalValue(parsing: s) } catch { return error.description }
            return "'\(s)' is not a decimal number"
        }
    }
}
