// Decimal text: parsing ("12.50", "-3e5", "1E-6176", "NaN", "Inf", "-Infinity") with
// round-half-even to 34 digits, and printing as realm-core's `Decimal128::to_string()` does.

/// Why text is not a decimal128 number.
package enum DecimalParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is empty.
    case empty
    /// A character that cannot appear at this position (the text and the 0-based offset).
    case unexpectedCharacter(String, offset: Int)
    /// There are no digits in the number.
    case noDigits(String)
    /// The exponent after `e`/`E` has no digits.
    case missingExponentDigits(String)

    package var description: String {
        switch self {
        case .empty:
            return "an empty text is not a decimal number: write digits such as 12.50, -3e5, NaN or Inf"
        case let .unexpectedCharacter(s, offset):
            let chars = Array(s)
            let c = offset < chars.count ? String(chars[offset]) : "end"
            return "'\(s)' is not a decimal number: unexpected '\(c)' at position \(offset + 1) (write digits with an optional sign, one '.', and an exponent such as e-5; or NaN, Inf, Infinity)"
        case let .noDigits(s):
            return "'\(s)' is not a decimal number: it has no digits"
        case let .missingExponentDigits(s):
            return "'\(s)' is not a decimal number: the exponent after 'e' has no digits"
        }
    }
}

extension DecimalValue {
    /// Parses decimal text: an optional sign, digits with at most one '.', an optional exponent
    /// (`e`/`E`, optional sign, digits); or NaN, sNaN, Inf, Infinity (any case, optional sign).
    /// More than 34 significant digits round half-even; exponents beyond the range round to
    /// ±infinity or towards zero, as IEEE 754 decimal128 does.
    package init(parsing text: String) throws(DecimalParseError) {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { throw .empty }
        var i = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") { negative = bytes[0] == UInt8(ascii: "-"); i = 1 }
        // Words.
        if i < bytes.count, !(bytes[i] >= 48 && bytes[i] <= 57) && bytes[i] != UInt8(ascii: ".") {
            let word = String(decoding: bytes[i...], as: UTF8.self).lowercased()
            switch word {
            case "nan": self = negative ? DecimalValue.nan.negated : .nan; return
            case "snan": self = negative ? DecimalValue.signalingNaN.negated : .signalingNaN; return
            case "inf", "infinity": self = .infinity(negative: negative); return
            default: throw .unexpectedCharacter(text, offset: Self.characterOffset(text, byte: i))
            }
        }
        // Digits: keep the first 38 significant ones; later ones only move the exponent and
        // make the value inexact (sticky).
        var coefficient: UInt128 = 0
        var kept = 0, dropped = 0, fractionDigits = 0, sawDigit = false, sawPoint = false, sticky = false
        while i < bytes.count {
            let b = bytes[i]
            if b >= 48 && b <= 57 {
                sawDigit = true
                let d = UInt128(b - 48)
                if sawPoint { fractionDigits += 1 }
                if kept < 38 {
                    if coefficient != 0 || d != 0 { coefficient = coefficient * 10 + d; kept += 1 }
                } else {
                    dropped += 1
                    if d != 0 { sticky = true }
                }
            } else if b == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        if !sawDigit {
            if i < bytes.count { throw .unexpectedCharacter(text, offset: Self.characterOffset(text, byte: i)) }
            throw .noDigits(text)
        }
        var exponent = 0
        if i < bytes.count {
            guard bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") else {
                throw .unexpectedCharacter(text, offset: Self.characterOffset(text, byte: i))
            }
            i += 1
            var expNegative = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { expNegative = bytes[i] == UInt8(ascii: "-"); i += 1 }
            var expDigits = 0
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                // Anything beyond a million is far outside the range; stop growing there.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] - 48) }
                expDigits += 1; i += 1
            }
            if expDigits == 0 {
                if i < bytes.count { throw .unexpectedCharacter(text, offset: Self.characterOffset(text, byte: i)) }
                throw .missingExponentDigits(text)
            }
            if i < bytes.count { throw .unexpectedCharacter(text, offset: Self.characterOffset(text, byte: i)) }
            if expNegative { exponent = -exponent }
        }
        // The sticky flag must be carried as an extra low digit when the kept digits do not
        // already lose at least one digit to rounding; 38 kept digits always do (34 remain).
        self = DecimalValue.rounded(negative: negative, coefficient: coefficient, exponent: exponent - fractionDigits + dropped, sticky: sticky)
    }

    private static func characterOffset(_ text: String, byte: Int) -> Int {
        String(decoding: Array(text.utf8)[..<byte], as: UTF8.self).count
    }

    /// The text realm-core's `Decimal128::to_string()` prints for this value: "NaN", "-NaN",
    /// "Inf", "-Inf"; coefficients below 2^64 as digits with the decimal point moved left by the
    /// exponent (as far as one digit before it) and the rest as `E<exponent>` ("12.50",
    /// "1.5E-7", "1E+2" is printed "1E2"); larger coefficients as the Intel library prints them
    /// ("+1234…E-5", sign and exponent sign always written).
    package var realmText: String {
        switch kind {
        case .nan, .signalingNaN: return isNegative ? "-NaN" : "NaN"
        case .infinity: return isNegative ? "-Inf" : "Inf"
        case .finite: break
        }
        if coefficient >> 64 != 0 {
            return (isNegative ? "-" : "+") + String(coefficient) + "E" + (exponent >= 0 ? "+" : "") + String(exponent)
        }
        var out = isNegative ? "-" : ""
        let digits = Array(String(UInt64(coefficient)).utf8)
        var before = digits.count
        var exp = Int(exponent)
        while before > 1 && exp != 0 { before -= 1; exp += 1 }
        out += String(decoding: digits[..<before], as: UTF8.self)
        if before < digits.count { out += "." + String(decoding: digits[before...], as: UTF8.self) }
        if exp != 0 { out += "E" + String(exp) }
        return out
    }

    /// Plain decimal notation without an exponent ("1234.50", "0.000001", "-0"), or nil when
    /// that would take more than `maxLength` characters. NaN and infinities as in `realmText`.
    package func plainText(maxLength: Int = 60) -> String? {
        guard kind == .finite else { return realmText }
        var digits = String(coefficient)
        let e = Int(exponent)
        let sign = isNegative ? "-" : ""
        if e >= 0 {
            guard digits.count + e + 1 <= maxLength else { return nil }
            if coefficient != 0 { digits += String(repeating: "0", count: e) }
            return sign + digits
        }
        let frac = -e
        guard Swift.max(digits.count, frac + 1) + 2 <= maxLength else { return nil }
        if digits.count <= frac { digits = String(repeating: "0", count: frac - digits.count + 1) + digits }
        let cut = digits.index(digits.endIndex, offsetBy: -frac)
        return sign + digits[..<cut] + "." + digits[cut...]
    }
}
