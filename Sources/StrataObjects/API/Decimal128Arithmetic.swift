import Foundation
import StrataDecimal

// RealmSwift's `Decimal128` API on Strata's Decimal128: literals, conversions, arithmetic.
// Arithmetic is IEEE 754-2008 decimal128 arithmetic (StrataDecimal): round-half-even to 34
// significant digits, overflow to ±infinity, x/0 = ±infinity, 0/0 = NaN, as realm-core's.

extension Decimal128: ExpressibleByStringLiteral {
    /// Zero (RealmSwift's `Decimal128()`).
    public init() { self.init(storage: DecimalValue(Int64(0))) }

    /// A decimal from a string literal (`@Persisted var price: Decimal128 = "9.99"`). A literal
    /// that is not a decimal number gives NaN, as RealmSwift's does.
    public init(stringLiteral value: String) {
        self = (try? Decimal128(string: value)) ?? .nan
    }

    /// Converts an integer, floating-point number, `Decimal`, `NSNumber`, `String` or
    /// `Decimal128`. Another type, or a string that is not a number, stops the program with a
    /// message (RealmSwift's `init(value:)`). Doubles convert as `init(floatLiteral:)` does.
    public init(value: Any) {
        switch unwrapAny(value) {
        case let d as Decimal128: self = d
        case let d as Decimal: self.init(d)
        case let i as Int: self.init(number: i)
        case let i as Int64: self.init(storage: DecimalValue(i))
        case let i as Int32: self.init(number: Int(i))
        case let i as Int16: self.init(number: Int(i))
        case let i as Int8: self.init(number: Int(i))
        case let u as UInt: self.init(storage: DecimalValue(UInt64(u)))
        case let u as UInt64: self.init(storage: DecimalValue(u))
        case let d as Double: self.init(floatLiteral: d)
        case let f as Float: self.init(floatLiteral: Double(f))
        case let n as NSNumber: self.init(number: n)
        case let s as String:
            do { self = try Decimal128(string: s) } catch { strataProgrammerError("\(error)") }
        default:
            strataProgrammerError("cannot convert a value of type \(type(of: value)) to Decimal128: pass an integer, a floating-point number, a Decimal, an NSNumber or a String")
        }
    }

    /// Converts an `NSNumber`: integers exactly, floating-point numbers as `init(floatLiteral:)`
    /// (15 significant digits, as realm-core converts doubles), booleans as 0 or 1.
    public init(number: NSNumber) {
        switch String(cString: number.objCType) {
        case "d", "f": self.init(floatLiteral: number.doubleValue)
        case "Q", "L", "I", "S", "C": self.init(storage: DecimalValue(number.uint64Value))
        default: self.init(storage: DecimalValue(number.int64Value))
        }
    }

    /// The smallest value: -infinity, as RealmSwift's (realm-core's `numeric_limits::lowest`).
    public static var min: Decimal128 { Decimal128(storage: .infinity(negative: true)) }
    /// The largest value: +infinity, as RealmSwift's.
    public static var max: Decimal128 { Decimal128(storage: .infinity) }
    /// Same as `min` (RealmSwift's Objective-C name).
    public static var minimumDecimalNumber: Decimal128 { min }
    /// Same as `max` (RealmSwift's Objective-C name).
    public static var maximumDecimalNumber: Decimal128 { max }
    /// The largest finite value, 9.999999999999999999999999999999999E+6144.
    public static var greatestFiniteMagnitude: Decimal128 { Decimal128(storage: .greatestFiniteMagnitude) }
    /// The smallest positive value, 1E-6176.
    public static var leastNonzeroMagnitude: Decimal128 { Decimal128(storage: .leastNonzeroMagnitude) }
    /// A quiet NaN (not a number).
    public static var nan: Decimal128 { Decimal128(storage: .nan) }
    /// Positive infinity.
    public static var infinity: Decimal128 { Decimal128(storage: .infinity) }

    /// True when the value is not a number (a string literal that did not parse, 0/0, ∞-∞).
    public var isNaN: Bool { storage.isNaN }
    /// True for a signaling NaN (read from a file or parsed from "sNaN"; arithmetic gives
    /// quiet NaNs).
    public var isSignaling: Bool { storage.isSignalingNaN }
    /// Same as `isSignaling`.
    public var isSignalingNaN: Bool { storage.isSignalingNaN }
    /// True for ±infinity.
    public var isInfinite: Bool { storage.isInfinite }
    /// True for finite values (not NaN, not infinite).
    public var isFinite: Bool { storage.isFinite }
    /// True for a zero of either sign.
    public var isZero: Bool { storage.isZero }
    /// True when the sign is negative (also for -0, -Inf and -NaN).
    public var isSignMinus: Bool { storage.isNegative }
}

extension Decimal128: SignedNumeric {
    /// Exactly `source`, or nil when it has more than 34 significant digits (trailing zeros
    /// aside).
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let v = DecimalValue(integer: source, exactly: true) else { return nil }
        self.init(storage: v)
    }
    /// The absolute value (exact: only the sign changes).
    public var magnitude: Decimal128 { Decimal128(storage: storage.magnitude) }
    /// The sum, rounded half-even to 34 digits.
    public static func + (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(storage: a.storage + b.storage) }
    /// The difference, rounded half-even to 34 digits.
    public static func - (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(storage: a.storage - b.storage) }
    /// The product, rounded half-even to 34 digits; beyond the range ±infinity.
    public static func * (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(storage: a.storage * b.storage) }
    /// Adds in place.
    public static func += (a: inout Decimal128, b: Decimal128) { a = a + b }
    /// Subtracts in place.
    public static func -= (a: inout Decimal128, b: Decimal128) { a = a - b }
    /// Multiplies in place.
    public static func *= (a: inout Decimal128, b: Decimal128) { a = a * b }
    /// The quotient, rounded half-even to 34 digits: x/0 is ±infinity, 0/0 is NaN.
    public static func / (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(storage: a.storage / b.storage) }
    /// Divides in place (x/0 is ±infinity, 0/0 is NaN).
    public static func /= (a: inout Decimal128, b: Decimal128) { a = a / b }
    /// The value with its sign flipped.
    public static prefix func - (a: Decimal128) -> Decimal128 { Decimal128(storage: a.storage.negated) }
    /// Flips the sign in place (exact).
    public mutating func negate() { storage = storage.negated }
}

extension Decimal128: Strideable {
    /// `other - self`.
    public func distance(to other: Decimal128) -> Decimal128 { other - self }
    /// `self + n`.
    public func advanced(by n: Decimal128) -> Decimal128 { self + n }
}

extension ObjectId: ExpressibleByStringLiteral {
    /// An id from 24 hexadecimal digits; a literal that is not one stops the program with a
    /// message (RealmSwift's `ObjectId("...")`).
    public init(stringLiteral value: String) { self.init(value) }

    /// An id from 24 hexadecimal digits; a string that is not one stops the program with a
    /// message. Use `init(string:)` to get an error instead.
    public init(_ string: String) {
        do { try self.init(string: string) } catch { strataProgrammerError("\(error)") }
    }

    /// An id built from its parts (RealmSwift's `init(timestamp:machineId:processId:)`):
    /// 4 bytes of seconds since 1970, 3 bytes of `machineId`, 2 bytes of `processId` (each
    /// truncated to its width), then 3 bytes of this process's counter.
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let secs = UInt32(truncatingIfNeeded: Int64(timestamp.timeIntervalSince1970))
        var b = withUnsafeBytes(of: secs.bigEndian) { Array($0) }
        b += [UInt8(truncatingIfNeeded: machineId >> 16), UInt8(truncatingIfNeeded: machineId >> 8), UInt8(truncatingIfNeeded: machineId)]
        b += [UInt8(truncatingIfNeeded: processId >> 8), UInt8(truncatingIfNeeded: processId)]
        b += Array(ObjectId.generate().bytes[9..<12])
        self.init(uncheckedBytes: b)
    }
}
