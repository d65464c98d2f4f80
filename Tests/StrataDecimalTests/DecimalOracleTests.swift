import XCTest
@testable import StrataDecimal

/// StrataDecimal against an independent implementation: vectors computed by Python's `decimal`
/// module in the IEEE 754 decimal128 context (see make_vectors.py), compared digit for digit
/// and exponent for exponent.
final class DecimalOracleTests: XCTestCase {
    private func parts(_ v: DecimalValue) -> String {
        v.isNaN ? "NaN" : "\(v.kind) \(v.isNegative ? "-" : "+") \(v.coefficient) \(v.exponent)"
    }

    private func parse(_ s: Substring, line: Int) -> DecimalValue? {
        do { return try DecimalValue(parsing: String(s)) } catch { XCTFail("vector \(line): '\(s)': \(error)"); return nil }
    }

    func testAgainstPythonDecimal128Context() throws {
        var counts: [String: Int] = [:]
        for (n, line) in decimalVectors.split(separator: "\n").enumerated() {
            let f = line.split(separator: " ")
            let op = String(f[0])
            counts[op, default: 0] += 1
            switch op {
            case "+", "-", "*", "/":
                guard let a = parse(f[1], line: n), let b = parse(f[2], line: n), let want = parse(f[3], line: n) else { continue }
                let got: DecimalValue
                switch op { case "+": got = a + b; case "-": got = a - b; case "*": got = a * b; default: got = a / b }
                XCTAssertEqual(parts(got), parts(want), "\(f[1]) \(op) \(f[2]) = \(f[3]), got \(got.realmText)")
            case "cmp":
                guard let a = parse(f[1], line: n), let b = parse(f[2], line: n) else { continue }
                let got = a.numericCompare(b).map(String.init) ?? "nan"
                XCTAssertEqual(got, String(f[3]), "compare \(f[1]) \(f[2])")
                if got == "0" { XCTAssertEqual(a.hashValue, b.hashValue, "equal values hash equally: \(f[1]) \(f[2])") }
            case "parse":
                guard let got = parse(f[1], line: n), let want = parse(f[2], line: n) else { continue }
                XCTAssertEqual(parts(got), parts(want), "parse \(f[1])")
                XCTAssertEqual(parts(try DecimalValue(parsing: got.realmText)), parts(got), "print/parse round trip of \(f[1])")
            case "double":
                let d = Double(bitPattern: UInt64(f[1], radix: 16)!)
                guard let want = parse(f[2], line: n), let e = parse(f[3], line: n) else { continue }
                XCTAssertEqual(DecimalValue(d, significantDigits: 34), want, "double \(d) to 34 digits")
                if !e.isNaN { XCTAssertEqual(e.doubleValue.bitPattern, UInt64(f[4], radix: 16)!, "\(f[3]) as a Double") }
            default:
                XCTFail("unknown vector \(line)")
            }
        }
        XCTAssertEqual(counts["cmp"], 800)
        XCTAssertGreaterThan(counts["double", default: 0], 500)
        XCTAssertEqual(counts["+", default: 0] + counts["-", default: 0] + counts["*", default: 0] + counts["/", default: 0], 3000)
    }
}
