// The BID128 encoding (IEEE 754-2008 binary integer decimal, as realm-core and the Intel
// decimal library store decimal128): two little-endian 64-bit words.

extension DecimalValue {
    /// Decodes a BID128 value from its low and high 64-bit words. A coefficient above
    /// 10^34 - 1, and the "large" coefficient form (bits 62-61 set), are non-canonical and read
    /// as zero, as IEEE 754 requires; a NaN's payload is not kept.
    package init(bidLow low: UInt64, high: UInt64) {
        let negative = high >> 63 == 1
        if (high >> 58) & 0x1f == 0x1f {
            self = (high >> 57) & 1 == 1 ? DecimalValue.signalingNaN : DecimalValue.nan
            if negative { self = self.negated }
            return
        }
        if (high >> 58) & 0x1f == 0x1e { self = .infinity(negative: negative); return }
        if (high >> 61) & 3 == 3 {
            self.init(isNegative: negative, coefficient: 0, exponent: Swift.min(Int((high >> 47) & 0x3fff) - 6176, DecimalValue.maxExponent))
            return
        }
        let exponent = Int((high >> 49) & 0x3fff) - 6176
        let c = UInt128(high & 0x1_ffff_ffff_ffff) << 64 | UInt128(low)
        // A biased exponent above 12287 cannot occur in the small form (14 bits hold up to 16383).
        guard exponent <= DecimalValue.maxExponent else { self.init(isNegative: negative, coefficient: 0, exponent: DecimalValue.maxExponent); return }
        self.init(isNegative: negative, coefficient: c <= DecimalValue.maxCoefficient ? c : 0, exponent: exponent)
    }

    /// The BID128 encoding: (low word, high word).
    package var bid128: (low: UInt64, high: UInt64) {
        let sign: UInt64 = isNegative ? 1 << 63 : 0
        switch kind {
        case .nan: return (0, sign | 0x7c00_0000_0000_0000)
        case .signalingNaN: return (0, sign | 0x7e00_0000_0000_0000)
        case .infinity: return (0, sign | 0x7800_0000_0000_0000)
        case .finite:
            let biased = UInt64(Int(exponent) + 6176)
            return (UInt64(truncatingIfNeeded: coefficient), sign | biased << 49 | UInt64(truncatingIfNeeded: coefficient >> 64))
        }
    }
}

// MARK: - Comparison and hashing

extension DecimalValue: Equatable, Hashable, Comparable {
    /// Numeric order of two numbers (zeros of either sign are equal; -Inf < finite < +Inf), or
    /// nil when either is a NaN.
    package func numericCompare(_ other: DecimalValue) -> Int? {
        if isNaN || other.isNaN { return nil }
        let a = self, b = other
        let aZero = a.isZero, bZero = b.isZero
        if aZero && bZero { return 0 }
        // Signs (a zero counts as neither).
        let aSign = aZero ? 0 : (a.isNegative ? -1 : 1), bSign = bZero ? 0 : (b.isNegative ? -1 : 1)
        if aSign != bSign { return aSign < bSign ? -1 : 1 }
        let m = DecimalValue.compareMagnitudes(a, b)
        return aSign < 0 ? -m : m
    }

    /// Compares |a| and |b| of two non-NaN, non-zero or zero values with equal signs.
    private static func compareMagnitudes(_ a: DecimalValue, _ b: DecimalValue) -> Int {
        switch (a.kind == .infinity, b.kind == .infinity) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        default: break
        }
        let da = digitCount(a.coefficient), db = digitCount(b.coefficient)
        let adjA = Int(a.exponent) + da, adjB = Int(b.exponent) + db
        if adjA != adjB { return adjA < adjB ? -1 : 1 }
        // Same magnitude order: bring both to the same number of digits (at most 34).
        var x = a.coefficient, y = b.coefficient
        if da < db { x *= tenToThe(db - da) } else if db < da { y *= tenToThe(da - db) }
        return x == y ? 0 : (x < y ? -1 : 1)
    }

    /// realm-core's `Decimal128::compare`: numeric order, NaNs before every number, NaNs among
    /// themselves by their encoding (so the order is total, as sorting needs).
    package func realmCompare(_ other: DecimalValue) -> Int {
        if let c = numericCompare(other) { return c }
        switch (isNaN, other.isNaN) {
        case (true, true):
            let x = bid128, y = other.bid128
            if x.high != y.high { return x.high < y.high ? -1 : 1 }
            return x.low == y.low ? 0 : (x.low < y.low ? -1 : 1)
        case (true, false): return -1
        default: return 1
        }
    }

    /// Numeric equality, as realm-core's `Decimal128::operator==`: 1.0 == 1.00, -0 == 0; a NaN
    /// equals a NaN of the same sign and kind only.
    package static func == (a: DecimalValue, b: DecimalValue) -> Bool { a.realmCompare(b) == 0 }

    /// realm-core's order (`realmCompare`): NaNs first, then by value.
    package static func < (a: DecimalValue, b: DecimalValue) -> Bool { a.realmCompare(b) < 0 }

    /// Hashes the numeric value (equal values hash equally whatever their exponents).
    package func hash(into hasher: inout Hasher) {
        switch kind {
        case .nan, .signalingNaN: hasher.combine(kind == .nan ? 1 : 2); hasher.combine(isNegative)
        case .infinity: hasher.combine(3); hasher.combine(isNegative)
        case .finite:
            if coefficient == 0 { hasher.combine(0); return }
            // Strip trailing zeros without the exponent limit, so every cohort member agrees.
            var c = coefficient, e = Int(exponent)
            while c % 10 == 0 { c /= 10; e += 1 }
            hasher.combine(4); hasher.combine(isNegative); hasher.combine(c); hasher.combine(e)
        }
    }
}
