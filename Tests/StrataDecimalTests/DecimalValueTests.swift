import XCTest
@testable import StrataDecimal

/// Known decimal128 vectors: values worked out by hand from the IEEE 754-2008 definitions
/// (34 digits, round-half-even, exponent -6176...6111) and realm-core's `to_string()` rules.
final class DecimalValueTests: XCTestCase {
    private func d(_ s: String, file: StaticString = #filePath, line: UInt = #line) -> DecimalValue {
        do { return try DecimalValue(parsing: s) } catch { XCTFail("\(s): \(error)", file: file, line: line); return .nan }
    }

    /// The parts of a value, for exact (not numeric) comparison.
    private func parts(_ v: DecimalValue) -> String { "\(v.kind) \(v.isNegative ? "-" : "+") \(v.coefficient) \(v.exponent)" }

    func testParsingKeepsCoefficientAndExponent() {
        XCTAssertEqual(parts(d("12.50")), "finite + 1250 -2")
        XCTAssertEqual(parts(d("-3e5")), "finite - 3 5")
        XCTAssertEqual(parts(d(".5")), "finite + 5 -1")
        XCTAssertEqual(parts(d("0.000")), "finite + 0 -3")
        XCTAssertEqual(parts(d("-0")), "finite - 0 0")
        XCTAssertEqual(parts(d("1E+6111")), "finite + 1 6111")
        XCTAssertEqual(parts(d("1E-6176")), "finite + 1 -6176")
        XCTAssertEqual(parts(d("9999999999999999999999999999999999")), "finite + 9999999999999999999999999999999999 0")
        XCTAssertEqual(parts(d("NaN")), "nan + 0 0")
        XCTAssertEqual(parts(d("-nan")), "nan - 0 0")
        XCTAssertEqual(parts(d("sNaN")), "signalingNaN + 0 0")
        XCTAssertEqual(parts(d("Inf")), "infinity + 0 0")
        XCTAssertEqual(parts(d("-Infinity")), "infinity - 0 0")
        XCTAssertEqual(parts(d("+INFINITY")), "infinity + 0 0")
    }

    func testParsingRoundsHalfEvenTo34Digits() {
        // 35 digits: the dropped 5 is a tie; ...34 is even and stays, ...35 is odd and goes up.
        XCTAssertEqual(parts(d("12345678901234567890123456789012345")), "finite + 1234567890123456789012345678901234 1")
        XCTAssertEqual(parts(d("12345678901234567890123456789012355")), "finite + 1234567890123456789012345678901236 1")
        // A tie broken by a later non-zero digit (far beyond the 38 digits kept while reading).
        XCTAssertEqual(parts(d("1234567890123456789012345678901234500000000001")), "finite + 1234567890123456789012345678901235 12")
        XCTAssertEqual(parts(d("0.99999999999999999999999999999999999")), "finite + 1000000000000000000000000000000000 -33")
        // Above the exponent range: folded into the coefficient while it fits, then infinity.
        XCTAssertEqual(parts(d("1E6112")), "finite + 10 6111")
        XCTAssertEqual(parts(d("1E6145")), "infinity + 0 0")
        XCTAssertEqual(parts(d("-1E99999")), "infinity - 0 0")
        XCTAssertEqual(parts(d("0E99999")), "finite + 0 6111")
        // Below it: rounded to the smallest exponent (ties to even), then zero.
        XCTAssertEqual(parts(d("5E-6177")), "finite + 0 -6176")
        XCTAssertEqual(parts(d("6E-6177")), "finite + 1 -6176")
        XCTAssertEqual(parts(d("15E-6177")), "finite + 2 -6176")
        XCTAssertEqual(parts(d("1E-99999")), "finite + 0 -6176")
    }

    func testParseErrorsSayWhatIsWrong() {
        func message(_ s: String) -> String {
            do { _ = try DecimalValue(parsing: s); return "parsed" } catch { return error.description }
        }
        XCTAssertEqual(message(""), "an empty text is not a decimal number: write digits such as 12.50, -3e5, NaN or Inf")
        XCTAssertTrue(message("1.2.3").hasPrefix("'1.2.3' is not a decimal number: unexpected '.' at position 4"), message("1.2.3"))
        XCTAssertTrue(message("abc").hasPrefix("'abc' is not a decimal number: unexpected 'a' at position 1"))
        XCTAssertTrue(message(" 1").hasPrefix("' 1' is not a decimal number: unexpected ' ' at position 1"))
        XCTAssertEqual(message("1e"), "'1e' is not a decimal number: the exponent after 'e' has no digits")
        XCTAssertEqual(message("-."), "'-.' is not a decimal number: it has no digits")
        XCTAssertTrue(message("--1").hasPrefix("'--1' is not a decimal number: unexpected '-' at position 2"))
        XCTAssertTrue(message("1e5x").hasPrefix("'1e5x' is not a decimal number: unexpected 'x' at position 4"))
    }

    func testPrintingAsRealmCore() {
        let cases: [(String, String)] = [
            ("12.50", "12.50"), ("0.25", "2.5E-1"), ("100", "100"), ("1E2", "1E2"), ("-0", "-0"),
            ("0.00", "0E-2"), ("1234.5678", "1234.5678"), ("-0.000001", "-1E-6"), ("1.5E-7", "1.5E-7"),
            ("1E+6111", "1E6111"), ("1E-6176", "1E-6176"), ("NaN", "NaN"), ("-NaN", "-NaN"),
            ("Infinity", "Inf"), ("-inf", "-Inf"), ("18446744073709551615", "18446744073709551615"),
            ("18446744073709551616", "+18446744073709551616E+0"),
            ("1234567890123456789012345678901234", "+1234567890123456789012345678901234E+0"),
            ("-1234567890123456789012345.678901234", "-1234567890123456789012345678901234E-9"),
            ("9.999999999999999999999999999999999E+6144", "+9999999999999999999999999999999999E+6111"),
        ]
        for (input, printed) in cases {
            let v = d(input)
            XCTAssertEqual(v.realmText, printed, input)
            // Printing then parsing gives back the same parts (exponent included).
            XCTAssertEqual(parts(d(v.realmText)), parts(v), input)
        }
        XCTAssertEqual(d("-0.000001").plainText(), "-0.000001")
        XCTAssertEqual(d("1E3").plainText(), "1000")
        XCTAssertNil(d("1E6111").plainText())
    }

    func testBID128Encoding() {
        XCTAssertTrue(d("1").bid128 == (1, 0x3040_0000_0000_0000))
        XCTAssertTrue(d("-0").bid128 == (0, 0xB040_0000_0000_0000))
        XCTAssertTrue(d("1E-6176").bid128 == (1, 0))
        XCTAssertTrue(d("NaN").bid128 == (0, 0x7C00_0000_0000_0000))
        XCTAssertTrue(d("-Inf").bid128 == (0, 0xF800_0000_0000_0000))
        for s in ["12.50", "-9999999999999999999999999999999999E-6176", "1E6111", "18446744073709551616", "0E-2", "Inf", "-NaN", "sNaN"] {
            let v = d(s)
            let (lo, hi) = v.bid128
            XCTAssertEqual(parts(DecimalValue(bidLow: lo, high: hi)), parts(v), s)
        }
        // realm-core's null (a NaN with payload 0xaa) reads as NaN; non-canonical forms as zero.
        XCTAssertTrue(DecimalValue(bidLow: 0xaa, high: 0x7C00_0000_0000_0000).isNaN)
        XCTAssertEqual(parts(DecimalValue(bidLow: .max, high: 0x3041_FFFF_FFFF_FFFF)), "finite + 0 0")
        XCTAssertTrue(DecimalValue(bidLow: 0, high: 0x6000_0000_0000_0000).isZero)
    }

    func testNumericComparisonAndHashing() {
        XCTAssertEqual(d("1.0"), d("1.00"))
        XCTAssertEqual(d("1.0").hashValue, d("1.00").hashValue)
        XCTAssertEqual(d("-0"), d("0E-5"))
        XCTAssertEqual(d("-0").hashValue, d("0E+7").hashValue)
        XCTAssertEqual(d("1E6111"), d("10000E6107"))
        XCTAssertEqual(Set([d("2.50"), d("2.5"), d("25E-1")]).count, 1)
        XCTAssertLessThan(d("9.99E6110"), d("1E6111"))
        XCTAssertLessThan(d("0"), d("1E-6176"))
        XCTAssertLessThan(d("-1E-6176"), d("-0"))
        XCTAssertLessThan(d("-Inf"), d("-9.999999999999999999999999999999999E+6144"))
        XCTAssertLessThan(d("9999999999999999999999999999999999E+6111"), d("Inf"))
        XCTAssertLessThan(d("0.3333333333333333333333333333333333"), d("0.3333333333333333333333333333333334"))
        // realm-core's order: NaN before everything, equal to itself; numbers unordered with it.
        XCTAssertLessThan(d("NaN"), d("-Inf"))
        XCTAssertEqual(d("NaN"), d("nan"))
        XCTAssertNotEqual(d("NaN"), d("-NaN"))
        XCTAssertNil(d("NaN").numericCompare(d("1")))
        XCTAssertEqual(["3", "-Inf", "NaN", "1.5", "-0", "Inf", "1E-6176"].map { d($0) }.sorted().map(\.realmText),
                       ["NaN", "-Inf", "-0", "1E-6176", "1.5", "3", "Inf"])
    }

    func testArithmeticKnownValues() {
        XCTAssertEqual((d("1") / d("3")).realmText, "+3333333333333333333333333333333333E-34")
        XCTAssertEqual((d("2") / d("3")).realmText, "+6666666666666666666666666666666667E-34")
        XCTAssertEqual((d("0.1") + d("0.2")).realmText, "3E-1")
        XCTAssertEqual(d("0.1") + d("0.2"), d("0.3"))
        XCTAssertEqual((d("9999999999999999999999999999999999") + d("1")).realmText, "+1000000000000000000000000000000000E+1")
        XCTAssertEqual((d("1") / d("8")).realmText, "1.25E-1")
        XCTAssertEqual((d("1.00") / d("1")).realmText, "1.00")
        XCTAssertEqual((d("6") / d("2")).realmText, "3")
        XCTAssertEqual((d("1.10") + d("2.205")).realmText, "3.305")
        XCTAssertEqual((d("2.205") - d("1.10")).realmText, "1.105")
        XCTAssertEqual((d("1.10") * d("2.205")).realmText, "2.42550")
        XCTAssertEqual((d("1") - d("1")).realmText, "0")
        XCTAssertEqual((d("-1") - d("-1")).realmText, "0", "x - x is +0")
        XCTAssertEqual((d("-0") + d("-0")).realmText, "-0")
        // An addend far below the 34th digit only decides rounding.
        XCTAssertEqual((d("1") + d("1E-40")).realmText, "+1000000000000000000000000000000000E-33")
        XCTAssertEqual((d("1") - d("1E-40")).realmText, "+1000000000000000000000000000000000E-33")
        XCTAssertEqual((d("1") - d("1E-34")).realmText, "+9999999999999999999999999999999999E-34")
        XCTAssertEqual((d("1E34") + d("5")).realmText, "+1000000000000000000000000000000000E+1", "tie to even")
        XCTAssertEqual((d("1E34") + d("15")).realmText, "+1000000000000000000000000000000002E+1", "tie to even, upwards")
        // 5.000…001 (34 digits) is just above the tie: rounds up; 10^34 - 5.000…001 = …994.999… → …995.
        XCTAssertEqual((d("1E34") + d("5.000000000000000000000000000000001")).realmText, "+1000000000000000000000000000000001E+1")
        XCTAssertEqual((d("1E34") - d("5.000000000000000000000000000000001")).realmText, "+9999999999999999999999999999999995E+0")
        // (10^34 - 1)^2 = 10^68 - 2·10^34 + 1, rounded down.
        let nines = d("9999999999999999999999999999999999")
        XCTAssertEqual((nines * nines).realmText, "+9999999999999999999999999999999998E+34")
        XCTAssertEqual((d("1234567890123456789012345678901234") * d("10")).realmText, "+1234567890123456789012345678901234E+1")
        // Overflow, division by zero, invalid operations.
        XCTAssertEqual((DecimalValue.greatestFiniteMagnitude * d("10")).realmText, "Inf")
        XCTAssertEqual((DecimalValue.greatestFiniteMagnitude + DecimalValue.greatestFiniteMagnitude).realmText, "Inf")
        XCTAssertEqual((d("-1E6111") * d("1E6111")).realmText, "-Inf")
        XCTAssertEqual((d("1") / d("0")).realmText, "Inf")
        XCTAssertEqual((d("-1") / d("0")).realmText, "-Inf")
        XCTAssertTrue((d("0") / d("0")).isNaN)
        XCTAssertTrue((d("Inf") - d("Inf")).isNaN)
        XCTAssertTrue((d("Inf") * d("0")).isNaN)
        XCTAssertEqual((d("Inf") + d("1")).realmText, "Inf")
        XCTAssertEqual((d("5") / d("Inf")).realmText, "0E-6176")
        XCTAssertFalse((d("sNaN") + d("1")).isSignalingNaN, "arithmetic gives quiet NaNs")
        // Underflow: halves of the smallest values round to even.
        XCTAssertEqual((d("1E-6176") / d("2")).realmText, "0E-6176")
        XCTAssertEqual((d("3E-6176") / d("2")).realmText, "2E-6176")
        XCTAssertEqual((d("1E-6000") * d("1E-6000")).realmText, "0E-6176")
    }

    func testConversions() {
        XCTAssertEqual(DecimalValue(0.1, significantDigits: 15).realmText, "1.00000000000000E-1")
        XCTAssertEqual(DecimalValue(9.99, significantDigits: 15), d("9.99"))
        XCTAssertEqual(DecimalValue(0.25, significantDigits: 15).realmText, "2.5E-1")
        XCTAssertEqual(DecimalValue(1.0, significantDigits: 15).realmText, "1")
        XCTAssertEqual(DecimalValue(-0.0, significantDigits: 15).realmText, "-0")
        XCTAssertEqual(DecimalValue(0.1, significantDigits: 34).realmText, "+1000000000000000055511151231257827E-34")
        XCTAssertEqual(DecimalValue(1e300, significantDigits: 15).realmText, "1.00000000000000E300")
        XCTAssertEqual(DecimalValue(Double.leastNonzeroMagnitude, significantDigits: 15).realmText, "4.94065645841247E-324")
        XCTAssertEqual(DecimalValue(Double.infinity, significantDigits: 15).realmText, "Inf")
        XCTAssertEqual(d("0.1").doubleValue, 0.1)
        XCTAssertEqual(d("1E6111").doubleValue, .infinity)
        XCTAssertEqual(d("-1E-6176").doubleValue, 0)
        XCTAssertEqual(d("-12.9").int64Truncated, -12)
        XCTAssertEqual(d("-9223372036854775808").int64Truncated, .min)
        XCTAssertNil(d("9223372036854775808").int64Truncated)
        XCTAssertNil(d("1.5").int64Exactly)
        XCTAssertEqual(d("2.000").int64Exactly, 2)
        XCTAssertEqual(DecimalValue(Int64.min).realmText, "-9223372036854775808")
        XCTAssertEqual(DecimalValue(integer: UInt128(10) * UInt128(10_000_000_000_000_000_000) * UInt128(10_000_000_000_000_000), exactly: true)?.realmText,
                       "+1000000000000000000000000000000000E+3", "10^36: only zeros dropped, so exact")
        XCTAssertNil(DecimalValue(integer: UInt128(10_000_000_000_000_000_000) * UInt128(10_000_000_000_000_000) + 1, exactly: true))
        XCTAssertEqual(DecimalValue(integer: UInt128(10_000_000_000_000_000_000) * UInt128(10_000_000_000_000_000) + 1, exactly: false)?.realmText,
                       "+1000000000000000000000000000000000E+2")
    }
}
