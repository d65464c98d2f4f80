// decimal128 arithmetic as IEEE 754-2008 defines it (round-half-even to 34 digits): exact
// results keep the ideal exponent (min of the operands' for + and -, the sum for ×, the
// difference for ÷ when the quotient is exact), overflow gives ±infinity, 0/0 and ∞-∞ give NaN,
// x/0 gives ±infinity.

extension DecimalValue {
    /// `a + b`.
    package static func + (a: DecimalValue, b: DecimalValue) -> DecimalValue { add(a, b, negateB: false) }
    /// `a - b`.
    package static func - (a: DecimalValue, b: DecimalValue) -> DecimalValue { add(a, b, negateB: true) }

    private static func add(_ a: DecimalValue, _ b0: DecimalValue, negateB: Bool) -> DecimalValue {
        if a.isNaN { return a.quieted }
        if b0.isNaN { return b0.quieted }
        let b = negateB ? b0.negated : b0
        if a.isInfinite || b.isInfinite {
            if a.isInfinite && b.isInfinite && a.isNegative != b.isNegative { return .nan }
            return a.isInfinite ? a : b
        }
        // Order so that `hi` has the larger exponent.
        let (hi, lo) = a.exponent >= b.exponent ? (a, b) : (b, a)
        let d = Int(hi.exponent) - Int(lo.exponent)
        let nHi = digitCount(hi.coefficient)
        var cHi = hi.coefficient, cLo = lo.coefficient, exp = Int(lo.exponent), sticky = false
        if hi.coefficient == 0 {
            // 0 + x: x at the smaller exponent (exact).
            cHi = 0
        } else if nHi + d <= 38 {
            cHi *= tenToThe(d)
        } else {
            // Keep 37 digits of `hi`; `lo` lies entirely below the rounding digit: its digits
            // only decide rounding (sticky).
            let k = 37 - nHi
            cHi *= tenToThe(k)
            exp = Int(hi.exponent) - k
            let shift = d - k
            if shift >= 39 { sticky = cLo != 0; cLo = 0 }
            else {
                let (q, r) = cLo.quotientAndRemainder(dividingBy: tenToThe(shift))
                cLo = q; sticky = r != 0
            }
        }
        if hi.isNegative == lo.isNegative {
            return rounded(negative: hi.isNegative, coefficient: cHi + cLo, exponent: exp, sticky: sticky)
        }
        // Opposite signs: subtract the smaller coefficient from the larger.
        if cHi == cLo && !sticky {
            // Exact zero: +0 in round-half-even (-0 only when both are negative, handled above).
            return rounded(negative: false, coefficient: 0, exponent: exp)
        }
        if cHi > cLo || (cHi == cLo && sticky) {
            // hi - (lo' + fraction) = (hi - lo' - 1) + (1 - fraction)
            let c = sticky ? cHi - cLo - 1 : cHi - cLo
            return rounded(negative: hi.isNegative, coefficient: c, exponent: exp, sticky: sticky)
        }
        // |lo| > |hi|: only possible without sticky (sticky means hi dominates).
        return rounded(negative: lo.isNegative, coefficient: cLo - cHi, exponent: exp)
    }

    /// `a × b`.
    package static func * (a: DecimalValue, b: DecimalValue) -> DecimalValue {
        if a.isNaN { return a.quieted }
        if b.isNaN { return b.quieted }
        let negative = a.isNegative != b.isNegative
        if a.isInfinite || b.isInfinite {
            if a.isZero || b.isZero { return .nan }
            return .infinity(negative: negative)
        }
        let exp = Int(a.exponent) + Int(b.exponent)
        let (high, low) = a.coefficient.multipliedFullWidth(by: b.coefficient)
        return roundedWide(negative: negative, high: high, low: low, exponent: exp, sticky: false)
    }

    /// `a ÷ b`: x/0 is ±infinity (0/0 is NaN); exact quotients keep the exponent closest to
    /// `a.exponent - b.exponent`.
    package static func / (a: DecimalValue, b: DecimalValue) -> DecimalValue {
        if a.isNaN { return a.quieted }
        if b.isNaN { return b.quieted }
        let negative = a.isNegative != b.isNegative
        switch (a.isInfinite, b.isInfinite) {
        case (true, true): return .nan
        case (true, false): return .infinity(negative: negative)
        case (false, true): return rounded(negative: negative, coefficient: 0, exponent: minExponent)
        default: break
        }
        let ideal = Int(a.exponent) - Int(b.exponent)
        if b.isZero { return a.isZero ? .nan : .infinity(negative: negative) }
        if a.isZero { return rounded(negative: negative, coefficient: 0, exponent: ideal) }
        // Scale the dividend so the quotient has at least 35 digits: at most 71 digits, which
        // fits 256 bits, and the quotient stays below 10^38.
        let s = 37 + digitCount(b.coefficient) - digitCount(a.coefficient)
        let (high, low) = scaled(a.coefficient, by: s)
        let (q, r) = b.coefficient.dividingFullWidth((high, low))
        var c = q, e = ideal - s
        if r == 0 {
            // Exact: move trailing zeros into the exponent up to the ideal one.
            while e < ideal, c % 10 == 0 { c /= 10; e += 1 }
        }
        return rounded(negative: negative, coefficient: c, exponent: e, sticky: r != 0)
    }

    /// The same NaN made quiet (arithmetic on a signaling NaN gives a quiet one).
    private var quieted: DecimalValue { kind == .signalingNaN ? (isNegative ? DecimalValue.nan.negated : .nan) : self }

    /// `c × 10^s` as a 256-bit number (high, low); s in 0...76 with a small enough `c`.
    private static func scaled(_ c: UInt128, by s: Int) -> (UInt128, UInt128) {
        var high: UInt128 = 0, low = c, left = s
        while left > 0 {
            let step = Swift.min(left, 38)
            let m = tenToThe(step)
            let (lh, ll) = low.multipliedFullWidth(by: m)
            high = high * m + lh
            low = ll
            left -= step
        }
        return (high, low)
    }

    /// Rounds a 256-bit coefficient (high, low) × 10^exponent to a decimal128.
    private static func roundedWide(negative: Bool, high: UInt128, low: UInt128, exponent: Int, sticky: Bool) -> DecimalValue {
        if high == 0 { return rounded(negative: negative, coefficient: low, exponent: exponent, sticky: sticky) }
        // Divide by the smallest 10^k above `high`: the quotient fits 128 bits and keeps at
        // least 38 digits, so the remainder only matters as sticky.
        var k = 1
        while k < 38 && tenToThe(k) <= high { k += 1 }
        let (q, r) = tenToThe(k).dividingFullWidth((high, low))
        return rounded(negative: negative, coefficient: q, exponent: exponent + k, sticky: sticky || r != 0)
    }
}

// MARK: - Conversions

extension DecimalValue {
    /// Exactly `value`.
    package init(_ value: Int64) {
        self.init(isNegative: value < 0, coefficient: UInt128(value.magnitude), exponent: 0)
    }

    /// Exactly `value`.
    package init(_ value: UInt64) {
        self.init(isNegative: false, coefficient: UInt128(value), exponent: 0)
    }

    /// `value` rounded half-even to 34 digits (exact up to 34 digits); nil when it has more
    /// significant digits and `exactly` is set.
    package init?<T: BinaryInteger>(integer value: T, exactly: Bool) {
        let negative = value < 0
        let m = value.magnitude
        if let c = UInt128(exactly: m) {
            let v = DecimalValue.rounded(negative: negative, coefficient: c, exponent: 0)
            if exactly && (v.coefficient != c || v.exponent != 0) {
                // Exact if only trailing zeros were dropped.
                guard v.isFinite, v.coefficient * tenToThe(Int(v.exponent)) == c else { return nil }
            }
            self = v
            return
        }
        // More than 128 bits: go through the digits.
        guard let v = try? DecimalValue(parsing: String(value)) else { return nil }
        if exactly {
            guard v.isFinite, String(value).trimmingLeadingMinus.hasPrefix(String(v.coefficient)),
                  String(value).trimmingLeadingMinus.dropFirst(String(v.coefficient).count).allSatisfy({ $0 == "0" }) else { return nil }
        }
        self = v
    }

    /// The exact binary value of `value` rounded half-even to `digits` significant digits (34 at
    /// most), with trailing zeros removed when the exact value has at most that many digits.
    /// realm-core converts doubles with 15 digits (`Decimal128(double)`), so 0.1 becomes
    /// 0.100000000000000 and 9.99 stays 9.99000000000000.
    package init(_ value: Double, significantDigits digits: Int) {
        if value.isNaN { self = .nan; return }
        if value.isInfinite { self = .infinity(negative: value < 0); return }
        let negative = value.sign == .minus
        if value == 0 { self = DecimalValue(isNegative: negative, coefficient: 0, exponent: 0); return }
        // value = m × 2^e exactly.
        let m = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
        let e = Int(value.isNormal ? value.exponentBitPattern : 1) - 1075
        var big = BigDigits(m)
        var exp10 = 0
        if e >= 0 { big.multiply(byPowerOf2: e) } else { big.multiply(byPowerOf5: -e); exp10 = e }
        var text = big.decimalString
        // Trailing zeros into the exponent.
        while text.count > 1, text.last == "0" { text.removeLast(); exp10 += 1 }
        let keep = Swift.min(Swift.max(digits, 1), DecimalValue.precision)
        if text.count <= keep {
            self = DecimalValue.rounded(negative: negative, coefficient: UInt128(text)!, exponent: exp10)
            return
        }
        let drop = text.count - keep
        let head = UInt128(text.prefix(keep))!
        let rest = text.dropFirst(keep)
        let first = rest.first!
        let tail = rest.dropFirst().contains { $0 != "0" }
        var c = head
        if first > "5" || (first == "5" && (tail || c & 1 == 1)) { c += 1 }
        var ex = exp10 + drop
        if c == tenToThe(keep) { c /= 10; ex += 1 }
        self = DecimalValue.rounded(negative: negative, coefficient: c, exponent: ex)
    }

    /// The nearest `Double` (correctly rounded; beyond Double's range ±infinity or ±0).
    package var doubleValue: Double {
        switch kind {
        case .nan, .signalingNaN: return isNegative ? -Double.nan : .nan
        case .infinity: return isNegative ? -.infinity : .infinity
        case .finite: return Double((isNegative ? "-" : "") + String(coefficient) + "e" + String(exponent)) ?? .nan
        }
    }

    /// The value truncated towards zero as an `Int64`; nil for NaN, infinities and values
    /// outside Int64's range.
    package var int64Truncated: Int64? {
        guard kind == .finite else { return nil }
        var c = coefficient
        let e = Int(exponent)
        if e < 0 { c = -e > 38 ? 0 : c / tenToThe(-e) }
        else if e > 0 {
            if c == 0 { return 0 }
            if digitCount(c) + e > 20 { return nil }
            c *= tenToThe(e)
        }
        if isNegative {
            if c == UInt128(Int64.max) + 1 { return .min }
            guard let v = Int64(exactly: c) else { return nil }
            return -v
        }
        return Int64(exactly: c)
    }

    /// The value as an `Int64` when it is an integer in range; nil otherwise.
    package var int64Exactly: Int64? {
        guard let i = int64Truncated, DecimalValue(i) == self else { return nil }
        return i
    }
}

private extension String {
    var trimmingLeadingMinus: Substring { first == "-" ? dropFirst() : Substring(self) }
}

/// A non-negative integer of any size (little-endian 32-bit limbs), just enough to write a
/// double's exact binary value in decimal.
private struct BigDigits {
    var limbs: [UInt32]

    init(_ v: UInt64) { limbs = [UInt32(truncatingIfNeeded: v), UInt32(truncatingIfNeeded: v >> 32)] }

    mutating func multiply(bySmall f: UInt32) {
        var carry: UInt64 = 0
        for i in limbs.indices {
            let p = UInt64(limbs[i]) * UInt64(f) + carry
            limbs[i] = UInt32(truncatingIfNeeded: p); carry = p >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    mutating func multiply(byPowerOf2 n: Int) {
        var left = n
        while left > 0 { let s = Swift.min(left, 31); multiply(bySmall: 1 << UInt32(s)); left -= s }
    }

    mutating func multiply(byPowerOf5 n: Int) {
        var left = n
        while left > 0 {
            let s = Swift.min(left, 13)  // 5^13 < 2^32
            var f: UInt32 = 1
            for _ in 0..<s { f *= 5 }
            multiply(bySmall: f); left -= s
        }
    }

    var decimalString: String {
        var parts: [UInt32] = []
        var n = limbs
        while n.last == 0 { n.removeLast() }
        while !n.isEmpty {
            var rem: UInt64 = 0
            for i in n.indices.reversed() {
                let cur = rem << 32 | UInt64(n[i])
                n[i] = UInt32(cur / 1_000_000_000); rem = cur % 1_000_000_000
            }
            parts.append(UInt32(rem))
            while n.last == 0 { n.removeLast() }
        }
        guard let top = parts.popLast() else { return "0" }
        var s = String(top)
        for p in parts.reversed() { let t = String(p); s += String(repeating: "0", count: 9 - t.count) + t }
        return s
    }
}
