import XCTest
import Foundation
@testable import StrataObjects

/// Int8/Int16/Int32 properties refuse loosely typed values that do not fit (never truncated).
final class IntegerRangeTests: XCTestCase {
    func testOutOfRangeValuesAreRefusedNotTruncated() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config(types: [AllTypes.self, APerson.self]))
        try realm.write {
            XCTAssertThrowsError(try realm.tryCreate(AllTypes.self, value: ["key": "a", "i8": 300])) {
                XCTAssertEqual("\($0)", "'AllTypes.i8' holds Int8 values (-128...127), not 300: give a value in that range, or declare the property with a wider type (Int)")
            }
            XCTAssertThrowsError(try realm.tryCreate(AllTypes.self, value: ["key": "b", "i32": 3_000_000_000])) {
                guard case .integerOutOfRange(_, 3_000_000_000, "Int32", -2_147_483_648, 2_147_483_647) = $0 as? ObjectError else { return XCTFail("\($0)") }
            }
            XCTAssertThrowsError(try realm.tryCreate(AllTypes.self, value: ["key": "c", "oi8": -129])) {
                guard case .integerOutOfRange("'AllTypes.oi8'", -129, "Int8", _, _) = $0 as? ObjectError else { return XCTFail("\($0)") }
            }
            // The limits themselves fit.
            let o = try realm.tryCreate(AllTypes.self, value: ["key": "d", "i8": -128, "i16": 32767, "i32": Int64(Int32.min), "oi8": 127])
            XCTAssertEqual(o.i8, -128); XCTAssertEqual(o.i16, 32767); XCTAssertEqual(o.i32, Int32.min); XCTAssertEqual(o.oi8, 127)
            // An update of an existing object (the setter path of KVC) is checked too.
            XCTAssertThrowsError(try realm.tryCreate(AllTypes.self, value: ["key": "d", "i16": 70000], update: .modified)) {
                guard case .integerOutOfRange("'AllTypes.i16'", 70000, "Int16", -32768, 32767) = $0 as? ObjectError else { return XCTFail("\($0)") }
            }
            XCTAssertEqual(o.i16, 32767)
        }
        XCTAssertEqual(realm.objects(AllTypes.self).count, 1)
        let stored = try realm.database.read()
        XCTAssertEqual(try stored.objectKeys("AllTypes").map { try stored.value("AllTypes", $0, "i8") }, [.int(-128)])
        stored.end()
        // An unmanaged object through tryAdd: `init(value:)`-style values refused the same way.
        let u = AllTypes()
        XCTAssertThrowsError(try u._rlmSetValue(1 << 40, at: u._rlmClassInfo.nameToIndex["i32"]!)) {
            guard case .integerOutOfRange("'AllTypes.i32'", 1 << 40, "Int32", _, _) = $0 as? ObjectError else { return XCTFail("\($0)") }
        }
    }

    /// The dynamic API of a realm that declares the class checks the declared Swift type too.
    func testDynamicAPIChecksTheDeclaredRange() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config(types: [AllTypes.self, APerson.self]))
        try realm.write {
            let o = realm.dynamicCreate("AllTypes", value: ["key": "k", "i8": 127, "i64": Int64.max, "intList": [1 << 40]])
            XCTAssertThrowsError(try o.setDynamicValue(300, forKey: "i8")) {
                XCTAssertEqual("\($0)", "'AllTypes.i8' holds Int8 values (-128...127), not 300: give a value in that range, or declare the property with a wider type (Int)")
            }
            XCTAssertThrowsError(try o.setDynamicValue(-40_000, forKey: "i16")) {
                guard case .integerOutOfRange("'AllTypes.i16'", -40_000, "Int16", _, _) = $0 as? ObjectError else { return XCTFail("\($0)") }
            }
            XCTAssertThrowsError(try o.setDynamicValue(1 << 31, forKey: "oi8")) {
                guard case .integerOutOfRange("'AllTypes.oi8'", 1 << 31, "Int8", _, _) = $0 as? ObjectError else { return XCTFail("\($0)") }
            }
            try o.setDynamicValue(-128, forKey: "i8")
            try o.setDynamicValue(1 << 50, forKey: "i")   // Int and List<Int> hold any Int64
        }
        let typed = try XCTUnwrap(realm.object(ofType: AllTypes.self, forPrimaryKey: "k"))
        XCTAssertEqual(typed.i8, -128); XCTAssertEqual(typed.i, 1 << 50); XCTAssertEqual(Array(typed.intList), [1 << 40])
    }
}
