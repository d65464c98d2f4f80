import Foundation
import XCTest
@testable import StrataQuery
import StrataObjects

/// Every scalar type through parse → bind → evaluate, on a one-class store.
final class ScalarTypesTests: XCTestCase {
    let schema = QuerySchema([
        QueryClass("T", [
            QueryProperty("f", .float), QueryProperty("bin", .data), QueryProperty("oid", .objectId),
            QueryProperty("u", .uuid), QueryProperty("m", .any), QueryProperty("dec", .decimal),
            QueryProperty("d", .date, optional: true), QueryProperty("s", .string),
            QueryProperty("ms", .set(.any)),
        ]),
    ])

    let oids = ["000000000000000000000001", "507f1f77bcf86cd799439011", "ffffffffffffffffffffffff"].map { QueryObjectId(hex: $0)! }
    let uuids = ["00000000-0000-0000-0000-000000000001", "137DECC8-B300-4954-A233-F89909F4FD89", "F0000000-0000-0000-0000-000000000000"].map { UUID(uuidString: $0)! }

    func store() -> DictionaryStore {
        let mixed: [QueryValue] = [.int(1), .string("one"), .data([1])]
        let strings = ["ab", "AB", "äb"]
        let sets: [[QueryValue]] = [[.int(1), .double(2.5)], [.string("x")], []]
        var rows: [[String: DictionaryStore.Field]] = []
        for i in 0..<3 {
            var row: [String: DictionaryStore.Field] = [:]
            row["f"] = .value(.float(Float(i) + 0.5))
            row["bin"] = .value(.data([UInt8(i), 1, 2]))
            row["oid"] = .value(.objectId(oids[i]))
            row["u"] = .value(.uuid(uuids[i]))
            row["m"] = .value(mixed[i])
            row["dec"] = .value(.decimal(Decimal128(number: i) / 4))
            let date = QueryValue.date(QueryTimestamp(seconds: 1_704_103_200 + Int64(i) * 86_400, nanoseconds: Int64(i)))
            row["d"] = .value(i == 2 ? .null : date)
            row["s"] = .value(.string(strings[i]))
            row["ms"] = .values(sets[i])
            rows.append(row)
        }
        return DictionaryStore(classes: ["T": rows], schema: schema)
    }

    func run(_ q: String, _ args: [QueryValue] = [], file: StaticString = #filePath, line: UInt = #line) -> [Int] {
        let s = store()
        do {
            let bound = try RQL.compile(q, schema: schema, className: "T", arguments: args)
            return QueryEvaluator(s).run(bound, over: s.all("T")).map(\.index)
        } catch {
            XCTFail("\(q): \(error)", file: file, line: line)
            return [-1]
        }
    }

    func testFloat() {
        XCTAssertEqual(run("f > 1"), [1, 2])
        XCTAssertEqual(run("f == 1.5"), [1])
        XCTAssertEqual(run("f BETWEEN {0.5, 1.5}"), [0, 1])
        XCTAssertEqual(run("f IN {2.5, 7}"), [2])
    }

    func testBinary() {
        XCTAssertEqual(run(#"bin == B64"AAEC""#), [0])
        XCTAssertEqual(run(#"bin BEGINSWITH B64"AQ==""#), [1])
        XCTAssertEqual(run("bin ENDSWITH $0", [.data([1, 2])]), [0, 1, 2])
        XCTAssertEqual(run("bin CONTAINS '\\u0001\\u0002'"), [0, 1, 2], "a string constant is compared as UTF-8 bytes")
        XCTAssertEqual(run("bin.@size == 3"), [0, 1, 2])
    }

    func testObjectIdAndUUID() {
        XCTAssertEqual(run("oid == oid(507f1f77bcf86cd799439011)"), [1])
        XCTAssertEqual(run("oid > oid(507f1f77bcf86cd799439011)"), [2])
        XCTAssertEqual(run("oid != $0", [.objectId(oids[0])]), [1, 2])
        XCTAssertEqual(run("u == uuid(137decc8-b300-4954-a233-f89909f4fd89)"), [1])
        XCTAssertEqual(run("u < uuid(137decc8-b300-4954-a233-f89909f4fd89)"), [0])
    }

    func testDecimalAndDates() {
        XCTAssertEqual(run("dec >= decimal128(0.25)"), [1, 2])
        XCTAssertEqual(run("dec < 0.3"), [0, 1])
        XCTAssertEqual(run("dec == 0"), [0])
        XCTAssertEqual(run("d == T2024-01-01@10:00:00"), [0])
        XCTAssertEqual(run("d > T2024-01-02@10:00:00"), [1], "nanoseconds count")
        XCTAssertEqual(run("d == nil"), [2])
        XCTAssertEqual(run("d BETWEEN {2024-01-01@00:00:00, 2024-12-31@00:00:00}"), [0, 1])
    }

    func testMixed() {
        XCTAssertEqual(run("m == 1"), [0])
        XCTAssertEqual(run("m == 1.0"), [0])
        XCTAssertEqual(run("m == 'one'"), [1])
        XCTAssertEqual(run("m BEGINSWITH 'o'"), [1])
        XCTAssertEqual(run("m > 0"), [0], "only numbers are ordered against numbers")
        XCTAssertEqual(run("m == B64\"AQ==\""), [2])
        XCTAssertEqual(run("m.@size == 3"), [1])
        XCTAssertEqual(run("ms == 2.5"), [0])
        XCTAssertEqual(run("ms.@sum == 3.5"), [0])
        XCTAssertEqual(run("ms.@max == 2.5"), [0])
        XCTAssertEqual(run("ms.@count == 0"), [2])
        XCTAssertEqual(run("ANY ms == 'x'"), [1])
    }

    func testStringsInOrder() {
        XCTAssertEqual(run("s ==[c] 'ab'"), [0, 1])
        XCTAssertEqual(run("s ==[d] 'ab'"), [0, 2])
        XCTAssertEqual(run("s ==[cd] 'AB'"), [0, 1, 2])
        XCTAssertEqual(run("s > 'Z'"), [0, 2])
        XCTAssertEqual(run("s.@size == 3"), [2], "@size counts UTF-8 bytes")
        XCTAssertEqual(run("TRUEPREDICATE SORT(s ASC)"), [1, 0, 2])
        XCTAssertEqual(run("TRUEPREDICATE SORT(m DESC)"), [2, 1, 0], "mixed: binary > string > number")
        XCTAssertEqual(run("TRUEPREDICATE SORT(d DESC)"), [1, 0, 2])
    }
}
