import StrataDecimal

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

    /// The value as a decimal128 (StrataDecimal); a NaN's payload (and so realm's null) reads
    /// as NaN.
    package var decimalValue: DecimalValue { DecimalValue(bidLow: low, high: high) }

    /// realm-core's `Decimal128::to_string()` text ("NULL" for realm's null), printed by the one
    /// decimal128 implementation (StrataDecimal).
    package var description: String { isNull ? "NULL" : decimalValue.realmText }
}
