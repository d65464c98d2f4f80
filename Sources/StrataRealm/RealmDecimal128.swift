/// An IEEE-754 decimal128 (BID encoding) as stored by realm-core. `description` prints it as
/// realm-core's `Decimal128::to_string()` does, so values compare exactly with realm's own output.
package struct RealmDecimal128: Sendable, Hashable, CustomStringConvertible {
    /// Low and high 64-bit words of the BID128 encoding.
    package let low: UInt64
    package let high: UInt64

    package init(low: UInt64, high: UInt64) { self.low = low; self.high = high }

    /// Realm's null decimal: a NaN with payload 0xaa.
    package var isNull: Bool { low == 0xaa && high == 0x7c00_0000_0000_0000 }

    /// Decodes a BID32 word (format-24 narrow leaves).
    init(bid32 w: UInt32) {
        let sign = w >> 31 == 1
        if (w >> 26) & 0x1f == 0x1f { self.init(low: 0, high: (sign ? 1 << 63 : 0) | 0x7c00_0000_0000_0000); return }
        if (w >> 26) & 0x1f == 0x1e { self.init(low: 0, high: (sign ? 1 << 63 : 0) | 0x7800_0000_0000_0000); return }
        var coef: UInt64, exp: Int
        if (w >> 29) & 3 == 3 {
            exp = Int((w >> 21) & 0xff); coef = UInt64(0x80_0000 | (w & 0x1f_ffff))
        } else {
            exp = Int((w >> 23) & 0xff); coef = UInt64(w & 0x7f_ffff)
        }
        self.init(sign: sign, coefficient: coef, exponent: exp &- 101)
    }

    /// Decodes a BID64 word.
    init(bid64 w: UInt64) {
        let sign = w >> 63 == 1
        if (w >> 58) & 0x1f == 0x1f { self.init(low: 0, high: (sign ? 1 << 63 : 0) | 0x7c00_0000_0000_0000); return }
        if (w >> 58) & 0x1f == 0x1e { self.init(low: 0, high: (sign ? 1 << 63 : 0) | 0x7800_0000_0000_0000); return }
        var coef: UInt64, exp: Int
        if (w >> 61) & 3 == 3 {
            exp = Int((w >> 51) & 0x3ff); coef = (1 << 53) | (w & 0x7_ffff_ffff_ffff)
        } else {
            exp = Int((w >> 53) & 0x3ff); coef = w & 0x1f_ffff_ffff_ffff
        }
        self.init(sign: sign, coefficient: coef, exponent: exp &- 398)
    }

    init(sign: Bool, coefficient: UInt64, exponent: Int) {
        let biased = UInt64(truncatingIfNeeded: exponent &+ 6176) & 0x3fff
        self.init(low: coefficient, high: (sign ? 1 << 63 : 0) | (biased << 49))
    }

    var sign: Bool { high >> 63 == 1 }
    var isNaN: Bool { (high >> 58) & 0x1f == 0x1f }
    var isInfinite: Bool { (high >> 58) & 0x1f == 0x1e }

    /// (coefficient high, coefficient low, exponent); the large form is non-canonical in BID128 → 0.
    var unpacked: (UInt64, UInt64, Int) {
        if (high >> 61) & 3 == 3 {
            return (0, 0, Int((high >> 47) & 0x3fff) &- 6176)
        }
        let exp = Int((high >> 49) & 0x3fff) &- 6176
        let hi = high & 0x1_ffff_ffff_ffff
        // Coefficients above 10^34 - 1 are non-canonical and read as 0.
        if hi > 0x1_ed09_bead_87c0 || (hi == 0x1_ed09_bead_87c0 && low > 0x378d_8e63_ffff_ffff) { return (0, 0, exp) }
        return (hi, low, exp)
    }

    package var description: String {
        if isNull { return "NULL" }
        let (hi, lo, exp0) = unpacked
        if isNaN || isInfinite {
            if hi == 0 { return (sign ? "-" : "") + (isNaN ? "NaN" : "Inf") }
            return (sign ? "-" : "+") + (isNaN ? "NaN" : "Inf")
        }
        if hi != 0 {
            // bid128_to_string: explicit signs, all digits, exponent always printed.
            let digits = RealmDecimal128.decimalDigits(hi: hi, lo: lo)
            return (sign ? "-" : "+") + digits + "E" + (exp0 >= 0 ? "+" : "") + String(exp0)
        }
        var out = sign ? "-" : ""
        let digits = Array(String(lo))
        var before = digits.count
        var exp = exp0
        while before > 1 && exp != 0 { before -= 1; exp += 1 }
        out += String(digits[0..<before])
        if before < digits.count { out += "." + String(digits[before...]) }
        if exp != 0 { out += "E" + String(exp) }
        return out
    }

    /// Decimal digits of the 128-bit unsigned integer hi:lo.
    static func decimalDigits(hi: UInt64, lo: UInt64) -> String {
        var h = hi, l = lo
        var chunks: [UInt64] = []
        let base: UInt64 = 10_000_000_000_000_000_000 // 10^19
        while h != 0 || l != 0 {
            // divide (h:l) by 10^19
            let (qh, rh) = h.quotientAndRemainder(dividingBy: base)
            let (ql, rl) = base.dividingFullWidth((rh, l))
            chunks.append(rl)
            h = qh; l = ql
        }
        if chunks.isEmpty { return "0" }
        var s = String(chunks.removeLast())
        for c in chunks.reversed() {
            let t = String(c)
            s += String(repeating: "0", count: 19 - t.count) + t
        }
        return s
    }
}
