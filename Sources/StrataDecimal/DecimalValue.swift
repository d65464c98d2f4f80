// An IEEE 754-2008 decimal128 value, as realm-core stores and computes with it: a sign, a
// coefficient of at most 34 decimal digits and an exponent in -6176...6111, or an infinity, or
// a NaN. This module holds the one implementation of decimal128 used by Strata's `Decimal128`
// (StrataObjects), the query layer and the Realm file reader: parsing, realm-core's printing,
// the BID128 encoding, numeric comparison and hashing, and arithmetic with round-half-even.

/// A decimal128 value. Finite values keep their exponent (12.50 and 12.5 are equal but print
/// differently, as in realm-core); `==` and `hash(into:)` are numeric.
package struct DecimalValue: Sendable {
    /// What kind of value this is.
    package enum Kind: UInt8, Sendable {
        /// A number: `coefficient × 10^exponent`.
        case finite
        /// Positive or negative infinity (by `isNegative`).
        case infinity
        /// A quiet NaN.
        case nan
        /// A signaling NaN (only read from a BID128 word or parsed from "sNaN").
        case signalingNaN
    }

    /// The largest coefficient: 10^34 - 1.
    package static let maxCoefficient: UInt128 = 9_999_999_999_999_999_999_999_999_999_999_999
    /// Significant digits of a decimal128.
    package static let precision = 34
    /// The smallest exponent (of the coefficient's last digit).
    package static let minExponent = -6176
    /// The largest exponent.
    package static let maxExponent = 6111

    /// The kind of value.
    package let kind: Kind
    /// The sign (also of zeros, infinities and NaNs).
    package let isNegative: Bool
    /// The coefficient of a finite value (at most 34 digits); 0 otherwise.
    package let coefficient: UInt128
    /// The exponent of a finite value; 0 otherwise.
    package let exponent: Int32

    /// A finite value from parts already in range (coefficient ≤ 10^34 - 1, exponent in
    /// -6176...6111); use `rounded(...)` for parts that may not be.
    package init(isNegative: Bool, coefficient: UInt128, exponent: Int) {
        precondition(coefficient <= DecimalValue.maxCoefficient && exponent >= DecimalValue.minExponent && exponent <= DecimalValue.maxExponent,
                     "decimal128 parts out of range")
        kind = .finite; self.isNegative = isNegative; self.coefficient = coefficient; self.exponent = Int32(exponent)
    }

    private init(kind: Kind, isNegative: Bool) {
        self.kind = kind; self.isNegative = isNegative; coefficient = 0; exponent = 0
    }

    /// Positive zero (exponent 0).
    package static let zero = DecimalValue(isNegative: false, coefficient: 0, exponent: 0)
    /// A quiet NaN.
    package static let nan = DecimalValue(kind: .nan, isNegative: false)
    /// A signaling NaN.
    package static let signalingNaN = DecimalValue(kind: .signalingNaN, isNegative: false)
    /// Positive infinity.
    package static let infinity = DecimalValue(kind: .infinity, isNegative: false)
    /// Infinity with the given sign.
    package static func infinity(negative: Bool) -> DecimalValue { DecimalValue(kind: .infinity, isNegative: negative) }
    /// The largest finite value, 9.999…9 (34 nines) × 10^6144.
    package static let greatestFiniteMagnitude = DecimalValue(isNegative: false, coefficient: maxCoefficient, exponent: maxExponent)
    /// The smallest positive value, 1 × 10^-6176.
    package static let leastNonzeroMagnitude = DecimalValue(isNegative: false, coefficient: 1, exponent: minExponent)

    /// True for quiet and signaling NaNs.
    package var isNaN: Bool { kind == .nan || kind == .signalingNaN }
    /// True for a signaling NaN.
    package var isSignalingNaN: Bool { kind == .signalingNaN }
    /// True for ±infinity.
    package var isInfinite: Bool { kind == .infinity }
    /// True for finite values.
    package var isFinite: Bool { kind == .finite }
    /// True for a zero of either sign and any exponent.
    package var isZero: Bool { kind == .finite && coefficient == 0 }

    /// The same value with the sign flipped (also for zeros, infinities and NaNs).
    package var negated: DecimalValue {
        DecimalValue(kind: kind, isNegative: !isNegative, coefficient: coefficient, exponent: exponent)
    }
    /// The same value with a positive sign.
    package var magnitude: DecimalValue {
        isNegative ? negated : self
    }

    private init(kind: Kind, isNegative: Bool, coefficient: UInt128, exponent: Int32) {
        self.kind = kind; self.isNegative = isNegative; self.coefficient = coefficient; self.exponent = exponent
    }

    // MARK: Rounding

    /// The value `(-1)^negative × coefficient × 10^exponent`, rounded half-even to 34 digits
    /// and into the exponent range: too large gives ±infinity, too small rounds towards the
    /// smallest exponent (subnormal) and then to zero. `sticky` says the exact value is a little
    /// more (in magnitude) than `coefficient` — digits already dropped below it were not all zero.
    package static func rounded(negative: Bool, coefficient: UInt128, exponent: Int, sticky: Bool = false) -> DecimalValue {
        var c = coefficient, e = exponent
        let n = digitCount(c)
        let drop = Swift.max(n - precision, minExponent - e, 0)
        if drop > 0 {
            if drop >= 39 {
                // Every digit goes and the rest is below half a unit: rounds to zero.
                c = 0
            } else {
                let p = tenToThe(drop)
                let (q, r) = c.quotientAndRemainder(dividingBy: p)
                let half = p / 2
                c = q
                if r > half || (r == half && (sticky || q & 1 == 1)) { c += 1 }
            }
            e += drop
            if c > maxCoefficient { c /= 10; e += 1 }
        }
        if e > maxExponent {
            if c == 0 { e = maxExponent }
            else {
                let shift = e - maxExponent
                if digitCount(c) + shift > precision { return .infinity(negative: negative) }
                c *= tenToThe(shift); e = maxExponent
            }
        }
        return DecimalValue(isNegative: negative, coefficient: c, exponent: e)
    }

    /// The same value with the coefficient's trailing zeros moved into the exponent (as far as
    /// the exponent range allows); NaNs and infinities unchanged.
    package var normalized: DecimalValue {
        guard kind == .finite else { return self }
        if coefficient == 0 { return DecimalValue(isNegative: isNegative, coefficient: 0, exponent: 0) }
        var c = coefficient, e = Int(exponent)
        while e < DecimalValue.maxExponent {
            let (q, r) = c.quotientAndRemainder(dividingBy: 10)
            if r != 0 { break }
            c = q; e += 1
        }
        return DecimalValue(isNegative: isNegative, coefficient: c, exponent: e)
    }
}

// MARK: - Helpers on 128-bit coefficients

private let powersOf10: [UInt128] = {
    var p: [UInt128] = [1]
    for _ in 1...38 { p.append(p.last! * 10) }
    return p
}()

/// 10^n for n in 0...38.
@inline(__always) package func tenToThe(_ n: Int) -> UInt128 { powersOf10[n] }

/// The number of decimal digits of `c` (1 for zero).
package func digitCount(_ c: UInt128) -> Int {
    // Start from the bit length (1233/4096 is just under log10(2)): at most one digit short.
    var d = ((128 - c.leadingZeroBitCount) * 1233) >> 12
    while d <= 38 && c >= powersOf10[d] { d += 1 }
    return Swift.max(d, 1)
}
