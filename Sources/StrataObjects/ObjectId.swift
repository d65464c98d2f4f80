import Foundation

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

/// A 128-bit decimal number (RealmSwift's `Decimal128`), held as a Foundation `Decimal`
/// (38 significant digits) and stored as its canonical string.
public struct Decimal128: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, Codable {
    /// The value as a Foundation `Decimal`.
    public var value: Decimal
    /// A decimal holding `value`.
    public init(_ value: Decimal) { self.value = value }
    public init(integerLiteral v: Int) { value = Decimal(v) }
    public init(floatLiteral v: Double) { value = Decimal(v) }
    /// A decimal holding the integer `number` (RealmSwift's `init(number:)`).
    public init(number: Int) { value = Decimal(number) }
    /// Parses a decimal string such as "12.50" or "-3e5".
    public init(string: String) throws {
        guard let d = Decimal(string: string, locale: Locale(identifier: "en_US_POSIX")), !d.isNaN || string.lowercased() == "nan" else {
            throw DecimalError.invalid(string)
        }
        value = d
    }
    public var description: String { NSDecimalNumber(decimal: value).stringValue }
    /// The nearest `Double`.
    public var doubleValue: Double { NSDecimalNumber(decimal: value).doubleValue }
    public static func < (a: Decimal128, b: Decimal128) -> Bool { a.value < b.value }
    public init(from decoder: Decoder) throws { try self.init(string: try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: Encoder) throws { var c = encoder.singleValueContainer(); try c.encode(description) }
}

/// Why text could not be read as a `Decimal128`.
public enum DecimalError: Error, CustomStringConvertible, Sendable {
    /// The text (quoted in the message) is not a decimal number.
    case invalid(String)
    public var description: String { if case .invalid(let s) = self { return "'\(s)' is not a decimal number" }; return "" }
}
