import XCTest
import Foundation
@testable import StrataObjects

/// `RowFetch` (the row fetch after a primary-key lookup that the dynamic reads, through
/// `ClusterSnapshot.rowFetch()`, and the typed reads share) only touches memory: the values read after it
/// are the values read without it, in every column layout (ints of each packing width, with
/// and without nulls, bools, floats, doubles, strings and data with nulls and empty values,
/// dates, UUIDs, mixed), in stored clusters and in the changed clusters of a write.
final class RowFetchTests: XCTestCase {
    private static let properties: [PropertySchema] = [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true),
        PropertySchema(name: "small", type: .int),
        PropertySchema(name: "wide", type: .int),
        PropertySchema(name: "maybeInt", type: .int, isOptional: true),
        PropertySchema(name: "flag", type: .bool),
        PropertySchema(name: "maybeFlag", type: .bool, isOptional: true),
        PropertySchema(name: "f", type: .float),
        PropertySchema(name: "d", type: .double),
        PropertySchema(name: "name", type: .string),
        PropertySchema(name: "maybeName", type: .string, isOptional: true),
        PropertySchema(name: "blob", type: .data, isOptional: true),
        PropertySchema(name: "when", type: .date),
        PropertySchema(name: "uuid", type: .uuid, isOptional: true),
        PropertySchema(name: "any", type: .mixed, isOptional: true),
    ]

    private static func values(_ i: Int64) -> [String: Value] {
        [
            "id": .int(i), "small": .int(i % 100), "wide": .int(i &* 0x1_0000_0001 - (1 << 40)),
            "maybeInt": i % 3 == 0 ? .null : .int(-i), "flag": .bool(i % 2 == 0),
            "maybeFlag": i % 5 == 0 ? .null : .bool(i % 3 == 1), "f": .float(Float(i) / 4),
            "d": .double(Double(i) * 1.5), "name": .string(i % 7 == 0 ? "" : "name \(i) " + String(repeating: "x", count: Int(i % 40))),
            "maybeName": i % 4 == 0 ? .null : .string("m\(i)"),
            "blob": i % 6 == 0 ? .null : .data((0..<UInt8(i % 20)).map { $0 &+ UInt8(truncatingIfNeeded: i) }),
            "when": .date(Date(timeIntervalSince1970: Double(i) * 3600)),
            "uuid": i % 2 == 0 ? .null : .uuid(UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", i))!),
            "any": i % 3 == 0 ? .null : i % 3 == 1 ? .int(i) : .string("any \(i)"),
        ]
    }

    /// Every present key (and a few missing ones), each column read after a fetch of all
    /// columns, of one column and of none, against the general read (`DBTransaction.value`).
    private func check(_ t: DBTransaction, keys: [Int64], file: StaticString = #filePath, line: UInt = #line) throws {
        let names = Self.properties.map(\.name)
        let columns = try names.map { try t.columnIndex("C", $0) }
        for (n, key) in keys.enumerated() {
            let expected = try names.map { try t.value("C", key, $0) }
            // Fetched: every column, one column, none.
            for fetched in [Array(columns.indices), [n % columns.count], []] {
                guard let (c, row) = try t.locateObject("C", key) else { return XCTFail("key \(key) not found", file: file, line: line) }
                let accessors = try columns.map { try c.column(at: $0) }
                var fetch = c.rowFetch()
                for p in fetched { fetch.touch(accessors[p], row) }
                fetch.finish()
                for p in columns.indices {
                    XCTAssertEqual(accessors[p].value(row), expected[p], "key \(key) \(names[p]) fetched \(fetched)", file: file, line: line)
                }
            }
        }
    }

    func testValuesReadAfterTheFetchEqualValuesReadWithout() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("f.strata"), schema: Schema([ObjectSchema(className: "C", properties: Self.properties)]))
        let n: Int64 = 2500
        let w = try db.write()
        for i in 0..<n { _ = try w.create("C", values: Self.values(i)) }
        try w.commit()

        let r = try db.read()
        try check(r, keys: Array(0..<n))
        XCTAssertNil(try r.locateObject("C", n + 5))
        r.end()

        // Inside a write: changed (dirty) clusters hold decoded and stored columns side by side.
        let w2 = try db.write()
        for i in stride(from: Int64(0), to: n, by: 97) {
            try w2.set("C", i, "name", .string("changed \(i)"))
            try w2.set("C", i, "maybeInt", i % 2 == 0 ? .null : .int(i * 1000))
        }
        try check(w2, keys: Array(0..<n))
        w2.abort()
        assertSound(db)
    }
}
