import Foundation
import XCTest
@testable import StrataQuery
@testable import StrataObjects
import StrataStorage

/// Counts of `age BETWEEN … AND name BEGINSWITH …` (the benchmark's count) and of BEGINSWITH
/// alone, answered by the scan kernels on the committed column blocks, against a naive
/// evaluation of every object: clusters whose string offsets are 16 and 32 bits wide, null and
/// empty names, prefixes of 1 to 12 bytes (the kernel's one-word compare and its memcmp tail),
/// rows at the very end of a block's data, and clusters changed in the open write transaction.
final class PrefixCountTests: XCTestCase {
    static let schema = Schema([ObjectSchema(className: "Item", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true),
        PropertySchema(name: "name", type: .string, isOptional: true),
        PropertySchema(name: "age", type: .int),
    ])])

    static let prefixes = ["B", "Bo", "Bob Smi", "Bob Smit", "Bob Smith", "Bob Smith-Jon", "x", "é", "Bé"]

    /// A name: mostly short (16-bit offsets), long in every third cluster (its data passes
    /// 64 KiB: 32-bit offsets), sometimes null or empty, often starting with a prefix above.
    static func name(_ i: Int, _ rng: inout SeededRNG) -> String? {
        let roll = Int.random(in: 0..<20, using: &rng)
        if roll == 0 { return nil }
        if roll == 1 { return "" }
        var s = prefixes.randomElement(using: &rng)!
        if roll < 6 { s = String(s.prefix(Int.random(in: 0...s.count, using: &rng))) }
        s += String(Int.random(in: 0..<1000, using: &rng))
        if (i / 1024) % 3 == 2 { s += String(repeating: "z", count: 80) }
        return s
    }

    func naiveCount(_ txn: DBTransaction, _ range: ClosedRange<Int64>?, _ prefix: String) throws -> Int {
        var n = 0
        for k in try txn.objectKeys("Item") {
            guard case .string(let s) = try txn.value("Item", k, "name"), s.utf8.starts(with: prefix.utf8) else { continue }
            if let range {
                guard case .int(let a) = try txn.value("Item", k, "age"), range.contains(a) else { continue }
            }
            n += 1
        }
        return n
    }

    func check(_ txn: DBTransaction, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for p in Self.prefixes {
            for range in [nil, 20...39, 0...99] as [ClosedRange<Int64>?] {
                let got: Int
                if let range {
                    got = try txn.count("Item", where: "age BETWEEN {$0, $1} AND name BEGINSWITH $2", range.lowerBound, range.upperBound, p)
                } else {
                    got = try txn.count("Item", where: "name BEGINSWITH $0", p)
                }
                XCTAssertEqual(got, try naiveCount(txn, range, p), "\(what): prefix \(p), ages \(String(describing: range))", file: file, line: line)
            }
        }
    }

    func testPrefixCountsMatchNaiveEvaluation() throws {
        let dir = ExecTempDir()
        let db = try Database(path: dir.path("p.strata"), options: StoreOptions(), schema: Self.schema)
        var rng = SeededRNG(seed: 16)
        let n = 5000
        let names = (0..<n).map { Self.name($0, &rng) }
        let w = try db.write()
        try w.appendObjects("Item", count: n, columns: [
            "id": .ints((0..<n).map { Int64($0) }),
            "name": .values(names.map { $0.map { Value.string($0) } ?? .null }),
            "age": .ints((0..<n).map { _ in Int64.random(in: 0..<100, using: &rng) }),
        ])
        try w.commit()

        let r = try db.read()
        // The blocks really have both offset widths (else the test would not cover them).
        var widths = Set<Int>()
        try r.forEachCluster("Item") { c in
            if let raw = try c.column("name").raw { widths.insert(raw.offsetSize) }
            return true
        }
        XCTAssertEqual(widths, [2, 4])
        try check(r, "committed")
        r.end()

        // Changed clusters are read from their decoded columns.
        let w2 = try db.write()
        for k in stride(from: 0, to: n, by: 7) { try w2.set("Item", Int64(k), "name", .string("Bob Smith \(k)")) }
        try w2.delete("Item", keys: stride(from: 3, to: n, by: 11).map { Int64($0) })
        try check(w2, "in the write transaction")
        try w2.commit()
        let r2 = try db.read()
        try check(r2, "after the commit")
        r2.end()
    }
}
