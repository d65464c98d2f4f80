import Foundation
import XCTest
import Strata

/// A model with every way to hold a Decimal128.
final class DecimalBox: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var amount: Decimal128
    @Persisted var optional: Decimal128?
    @Persisted var history: List<Decimal128>
    @Persisted var any: AnyRealmValue
}

/// Decimal128 as RealmSwift's: an IEEE 754-2008 decimal128 (34 digits, exponent -6176...6111,
/// NaN, ±infinity, -0), kept exactly through a Strata file and ordered by the query language.
final class DecimalCompatTests: XCTestCase {
    /// Values beyond Foundation's Decimal (exponent -128...127, 38 digits) and the special ones.
    static let extremes: [String] = [
        "1E+6111", "1E-6176", "-0", "NaN", "Inf", "-Inf", "9.999999999999999999999999999999999E+6144",
        "1234567890123456789012345678901234", "-0.000000000000000000000000000000001234567890123456789012345678901234",
        "12.50", "0.1",
    ]

    func testRealmSwiftMembers() throws {
        XCTAssertEqual(Decimal128(), 0, "RealmSwift's Decimal128() is zero")
        XCTAssertEqual(Decimal128().stringValue, "0")
        XCTAssertEqual(Decimal128("12.50").stringValue, "12.50", "the exponent is kept")
        XCTAssertEqual(Decimal128("12.50"), Decimal128("12.5"))
        XCTAssertEqual(Decimal128("12.50").hashValue, Decimal128("12.5").hashValue)
        XCTAssertEqual(try Decimal128(string: "1E-6176").stringValue, "1E-6176")
        XCTAssertEqual(try Decimal128(string: "-0").stringValue, "-0")
        XCTAssertEqual(try Decimal128(string: "-0"), 0)
        XCTAssertTrue(try Decimal128(string: "Infinity").isInfinite)
        XCTAssertTrue(try Decimal128(string: "sNaN").isSignaling)
        XCTAssertFalse(Decimal128.nan.isSignaling)
        XCTAssertEqual(Decimal128.min.stringValue, "-Inf", "RealmSwift's min is realm-core's lowest(): -Inf")
        XCTAssertEqual(Decimal128.maximumDecimalNumber.stringValue, "Inf")
        XCTAssertEqual(Decimal128.minimumDecimalNumber, Decimal128.min)
        XCTAssertEqual(Decimal128.greatestFiniteMagnitude.stringValue, "+9999999999999999999999999999999999E+6111")
        XCTAssertEqual(Decimal128(number: NSNumber(value: 0.1)).stringValue, "1.00000000000000E-1", "doubles convert with 15 digits, as realm-core's")
        XCTAssertEqual(Decimal128(number: NSNumber(value: UInt64.max)).stringValue, "18446744073709551615")
        XCTAssertEqual(Decimal128(floatLiteral: 9.99), "9.99")
        XCTAssertNil(Decimal128(exactly: UInt128(10_000_000_000_000_000_000) * UInt128(10_000_000_000_000_000) + 1), "35 significant digits")
        XCTAssertEqual(Decimal128(exactly: Int64.min)?.stringValue, "-9223372036854775808")
        // Arithmetic to 34 digits.
        XCTAssertEqual((Decimal128(number: 1) / 3).stringValue, "+3333333333333333333333333333333333E-34")
        XCTAssertEqual(("9999999999999999999999999999999999" as Decimal128) + 1, "1E34")
        XCTAssertEqual((("9999999999999999999999999999999999" as Decimal128) + 1).stringValue, "+1000000000000000000000000000000000E+1")
        XCTAssertEqual((Decimal128(number: 1) / 0).stringValue, "Inf")
        XCTAssertEqual((Decimal128.greatestFiniteMagnitude * 10).stringValue, "Inf")
        XCTAssertEqual(("1E-6176" as Decimal128).magnitude.stringValue, "1E-6176", "exact, not through a Double")
        var n: Decimal128 = "1E6111"
        n.negate()
        XCTAssertEqual(n.stringValue, "-1E6111")
        // The Foundation view is lossy only outside Decimal's range.
        XCTAssertEqual(Decimal128("12.50").value, Decimal(string: "12.5"))
        XCTAssertEqual(Decimal128("1E-6176").value, 0)
        XCTAssertEqual(Decimal128("1E6111").value, Decimal.greatestFiniteMagnitude)
        XCTAssertTrue(Decimal128.nan.value.isNaN)
        var fromFoundation = Decimal128(0)
        fromFoundation.value = Decimal(string: "-3.25")!
        XCTAssertEqual(fromFoundation.stringValue, "-3.25")
        // Codable as the string.
        let json = try JSONEncoder().encode(["d": Decimal128("1E-6176")])
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"{"d":"1E-6176"}"#)
        XCTAssertEqual(try JSONDecoder().decode([String: Decimal128].self, from: json)["d"]?.stringValue, "1E-6176")
        // Errors say what is wrong.
        XCTAssertThrowsError(try Decimal128(string: "1.2.3")) { error in
            XCTAssertTrue("\(error)".hasPrefix("'1.2.3' is not a decimal number: unexpected '.' at position 4"), "\(error)")
        }
        XCTAssertTrue(("12,5" as Decimal128).isNaN, "a literal that is not a number is NaN, as RealmSwift's")
    }

    /// Text that earlier Strata builds stored (Foundation's `NSDecimalNumber.stringValue`) reads
    /// as the same number, so existing files keep their values.
    func testFoundationTextOfEarlierFilesReads() throws {
        for (text, realm) in [("1234.5678", "1234.5678"), ("-0.000001", "-1E-6"), ("100000000000000000000", "+100000000000000000000E+0"),
                              ("NaN", "NaN"), ("0", "0"), ("3.4028236692093846346337460743176821145e+38", "+3402823669209384634633746074317682E+5")] {
            let d = try Decimal128(string: text)
            XCTAssertEqual(d.stringValue, realm, text)
            if text != "NaN" && !text.contains("e+38") { XCTAssertEqual(d.value, Decimal(string: text), text) }
        }
    }

    func testExtremeValuesSurviveAFileTypedAndDynamic() throws {
        let dir = CompatDir()
        let config = dir.config("dec.strata", types: [DecimalBox.self])
        do {
            let realm = try Realm(configuration: config)
            try realm.write {
                for (i, s) in Self.extremes.enumerated() {
                    let box = DecimalBox()
                    box.id = i
                    box.amount = try Decimal128(string: s)
                    box.optional = i % 2 == 0 ? nil : try Decimal128(string: s)
                    box.history.append(objectsIn: [try Decimal128(string: s), "1E-6176"])
                    box.any = .decimal128(try Decimal128(string: s))
                    realm.add(box)
                }
                // The dynamic API stores the same way.
                realm.dynamicCreate("DecimalBox", value: ["id": 100, "amount": try Decimal128(string: "-1E+6111")] as [String: Any])
            }
        }
        let realm = try Realm(configuration: config)
        for (i, s) in Self.extremes.enumerated() {
            let box = try XCTUnwrap(realm.object(ofType: DecimalBox.self, forPrimaryKey: i))
            let expected = try Decimal128(string: s)
            XCTAssertEqual(box.amount.stringValue, expected.stringValue, s)
            XCTAssertEqual(box.optional?.stringValue, i % 2 == 0 ? nil : expected.stringValue, s)
            XCTAssertEqual(box.history.map(\.stringValue), [expected.stringValue, "1E-6176"], s)
            XCTAssertEqual(box.any.decimal128Value?.stringValue, expected.stringValue, s)
            let dyn = try XCTUnwrap(realm.dynamicObjects("DecimalBox").filter("id == %@", i).first)
            XCTAssertEqual((dyn["amount"] as? Decimal128)?.stringValue, expected.stringValue, s)
        }
        XCTAssertEqual(realm.object(ofType: DecimalBox.self, forPrimaryKey: 100)?.amount.stringValue, "-1E6111")
    }

    func testQueryLanguageFiltersAndSortsTheWholeRange() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config("q.strata", types: [DecimalBox.self]))
        try realm.write {
            for (i, s) in Self.extremes.enumerated() {
                realm.add(DecimalBox(value: ["id": i, "amount": try Decimal128(string: s)]))
            }
        }
        let all = realm.objects(DecimalBox.self)
        func ids(_ r: Results<DecimalBox>) -> [String] { r.map { Self.extremes[$0.id] } }
        XCTAssertEqual(Set(ids(all.filter("amount > decimal128(1E6000)"))), ["1E+6111", "Inf", "9.999999999999999999999999999999999E+6144"])
        XCTAssertEqual(Set(ids(all.filter("amount > 0 AND amount < decimal128(1E-6000)"))), ["1E-6176"])
        XCTAssertEqual(ids(all.filter("amount == decimal128(12.5)")), ["12.50"], "numeric equality")
        XCTAssertEqual(ids(all.filter("amount == 0")), ["-0"])
        XCTAssertEqual(ids(all.filter("amount == decimal128(-Inf)")), ["-Inf"])
        XCTAssertEqual(ids(all.filter("amount < decimal128(-1E6111)")), ["-Inf"])
        XCTAssertEqual(ids(all.filter("amount == %@", Decimal128("1E-6176"))), ["1E-6176"])
        XCTAssertEqual(ids(all.filter("amount == 0.1")), ["0.1"], "a double compares as realm-core converts it (15 digits)")
        XCTAssertEqual(all.filter("amount == decimal128(NaN)").count, 0, "NaN equals nothing in a comparison")
        XCTAssertEqual(ids(all.sorted(byKeyPath: "amount")),
                       ["NaN", "-Inf", "-0.000000000000000000000000000000001234567890123456789012345678901234", "-0", "1E-6176", "0.1", "12.50",
                        "1234567890123456789012345678901234", "1E+6111", "9.999999999999999999999999999999999E+6144", "Inf"])
        XCTAssertEqual(ids(all.filter("amount != decimal128(NaN)").sorted(byKeyPath: "amount", ascending: false)).first, "Inf")
        let sum: Decimal128 = all.filter("amount > 0 AND amount < 100").sum(ofProperty: "amount")
        XCTAssertEqual(sum.stringValue, "+1260000000000000000000000000000000E-32", "12.50 + 0.1 + 1E-6176, rounded to 34 digits")
    }
}
