import Foundation

// RealmSwift's `Decimal128` API on Strata's Decimal128: literals, conversions, arithmetic.
// Arithmetic is Foundation `Decimal` arithmetic (38 significant digits, exponent -128...127);
// RealmSwift's IEEE 754-2008 decimal128 has 34 digits and a wider exponent.

extension Decimal128: ExpressibleByStringLiteral {
    /// A decimal from a string literal (`@Persisted var price: Decimal128 = "9.99"`). A literal
    /// that is not a decimal number gives NaN, as RealmSwift's does.
    public init(stringLiteral value: String) {
        self = (try? Decimal128(string: value)) ?? Decimal128(Decimal.nan)
    }

    /// Converts an integer, floating-point number, `Decimal`, `NSNumber`, `String` or
    /// `Decimal128`. Another type, or a string that is not a number, stops the program with a
    /// message (RealmSwift's `init(value:)`).
    public init(value: Any) {
        switch unwrapAny(value) {
        case let d as Decimal128: self = d
        case let d as Decimal: self.init(d)
        case let i as Int: self.init(Decimal(i))
        case let i as Int64: self.init(Decimal(i))
        case let i as Int32: self.init(Decimal(Int(i)))
        case let i as Int16: self.init(Decimal(Int(i)))
        case let i as Int8: self.init(Decimal(Int(i)))
        case let u as UInt: self.init(Decimal(u))
        case let d as Double: self.init(Decimal(d))
        case let f as Float: self.init(Decimal(Double(f)))
        case let n as NSNumber: self.init(number: n)
        case let s as String:
            guard let d = try? Decimal128(string: s) else { strataProgrammerError("'\(s)' is not a decimal number") }
            self = d
        default:
            strataProgrammerError("cannot convert a value of type \(type(of: value)) to Decimal128: pass an integer, a floating-point number, a Decimal, an NSNumber or a String")
        }
    }

    /// Converts an `NSNumber` (never lossy for integers; floating-point numbers keep their
    /// shortest decimal representation).
    public init(number: NSNumber) { self.init(number.decimalValue) }

    /// The smallest value Strata's Decimal128 represents.
    public static var min: Decimal128 { Decimal128(Decimal.leastFiniteMagnitude) }
    /// The largest value Strata's Decimal128 represents.
    public static var max: Decimal128 { Decimal128(Decimal.greatestFiniteMagnitude) }

    /// True when the value is not a number (a string that did not parse, 0/0).
    public var isNaN: Bool { value.isNaN }
    /// True for a signaling NaN; Foundation's decimals have none, so always false.
    public var isSignaling: Bool { false }
    /// Same as `isSignaling`.
    public var isSignalingNaN: Bool { false }
}

extension Decimal128: SignedNumeric {
    /// Exactly `source`, or nil when it has more than 38 significant digits.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let i = Int64(exactly: source) else {
            let d = Decimal(string: "\(source)")
            guard let d, d.description == "\(source)" else { return nil }
            self.init(d); return
        }
        self.init(Decimal(i))
    }
    /// The absolute value.
    public var magnitude: Decimal128 { Decimal128(value < 0 ? -value : value) }
    public static func + (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(a.value + b.value) }
    public static func - (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(a.value - b.value) }
    public static func * (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(a.value * b.value) }
    public static func += (a: inout Decimal128, b: Decimal128) { a = a + b }
    public static func -= (a: inout Decimal128, b: Decimal128) { a = a - b }
    public static func *= (a: inout Decimal128, b: Decimal128) { a = a * b }
    /// Division; dividing by zero gives NaN.
    public static func / (a: Decimal128, b: Decimal128) -> Decimal128 { Decimal128(a.value / b.value) }
    /// Divides in place; dividing by zero gives NaN.
    public static func /= (a: inout Decimal128, b: Decimal128) { a = a / b }
    public static prefix func - (a: Decimal128) -> Decimal128 { Decimal128(-a.value) }
    /// Flips the sign in place.
    public mutating func negate() { value = -value }
}

extension Decimal128: Strideable {
    /// Equal values (stated here so Strideable's distance-based `==` is not used; it would recurse).
    public static func == (a: Decimal128, b: Decimal128) -> Bool { a.value == b.value }
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
