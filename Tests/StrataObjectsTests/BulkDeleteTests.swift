import XCTest
import Foundation
@testable import StrataObjects
@testable import StrataStorage

/// Deleting many objects in one transaction: the kept rows of each cluster are copied straight
/// from the stored column blocks (`FilteredColumn`), for every column layout, packing width and
/// null bitmap, mixed with inserts, updates and further deletes in the same transaction, and
/// checked against a model, against readers of older versions, and after compaction.
final class BulkDeleteTests: XCTestCase {
    private static func prop(_ name: String, _ type: PropertyType, _ coll: CollectionKind = .single, optional: Bool = false,
                             target: String? = nil, pk: Bool = false, indexed: Bool = false) -> PropertySchema {
        PropertySchema(name: name, type: type, collection: coll, isOptional: optional, objectClassName: target, isPrimaryKey: pk, isIndexed: indexed)
    }

    static let schema = Schema([
        ObjectSchema(className: "Row", properties: [
            prop("id", .int, pk: true),
            prop("flag", .bool),
            prop("small", .int),
            prop("big", .int, optional: true),
            prop("f", .float),
            prop("d", .double, optional: true),
            prop("s", .string, indexed: true),
            prop("blob", .data),
            prop("oid", .objectId, optional: true),
            prop("nums", .int, .list),
            prop("m", .int, .map),
        ]),
        ObjectSchema(className: "Ref", properties: [
            prop("id", .int, pk: true),
            prop("one", .object, optional: true, target: "Row"),
            prop("many", .object, .list, target: "Row"),
        ]),
    ])

    struct RowModel: Equatable {
        var values: [String: Value]
        var nums: [Int64]
        var m: [String: Int64]
    }

    struct RefModel: Equatable { var one: ObjKey?; var many: [ObjKey] }

    private static func randomRow(_ id: Int64, _ rng: inout SplitMix64) -> RowModel {
        func r(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let blobLength = r(4) == 0 ? 0 : 60 + r(120)
        let blob = (0..<blobLength).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let big: Value = r(5) == 0 ? .null : .int(Int64(bitPattern: rng.next()) >> Int64(r(60)))
        let oid: Value = r(3) == 0 ? .null : .objectId(ObjectId(bytes: (0..<12).map { _ in UInt8(truncatingIfNeeded: rng.next()) })!)
        var m: [String: Int64] = [:]
        for _ in 0..<r(3) { m["k\(r(5))"] = Int64(r(100)) }
        return RowModel(values: [
            "id": .int(id), "flag": .bool(r(2) == 0), "small": .int(Int64(r(200))), "big": big,
            "f": .float(Float(r(1000)) / 8), "d": r(4) == 0 ? .null : .double(Double(r(100_000)) / 16),
            "s": .string(["", "a", "Bé", "李四", "🐙x"][r(5)] + String(r(50))), "blob": .data(blob), "oid": oid,
        ], nums: (0..<r(4)).map { _ in Int64(r(1000)) - 500 }, m: m)
    }

    private func create(_ w: DBTransaction, _ row: RowModel) throws {
        let k = try w.create("Row", values: row.values)
        if !row.nums.isEmpty { try w.setList("Row", k, "nums", row.nums.map { .int($0) }) }
        if !row.m.isEmpty { try w.setMap("Row", k, "m", row.m.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }) }
    }

    private func assertMatches(_ r: DBTransaction, _ rows: [ObjKey: RowModel], _ refs: [ObjKey: RefModel], _ note: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try r.count("Row"), rows.count, note, file: file, line: line)
        XCTAssertEqual(try r.objectKeys("Row"), rows.keys.sorted(), note, file: file, line: line)
        for (k, m) in rows {
            XCTAssertTrue(try r.exists("Row", k), note, file: file, line: line)
            for (name, v) in m.values {
                XCTAssertEqual(try r.value("Row", k, name), v, "\(note): Row \(k).\(name)", file: file, line: line)
            }
            XCTAssertEqual(try r.list("Row", k, "nums"), m.nums.map { .int($0) }, "\(note): Row \(k).nums", file: file, line: line)
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: try r.map("Row", k, "m").map { ($0.key, $0.value) }), m.m.mapValues { .int($0) },
                           "\(note): Row \(k).m", file: file, line: line)
            XCTAssertTrue(try r.indexLookup("Row", "s", m.values["s"]!).contains(k), "\(note): index of Row \(k)", file: file, line: line)
        }
        // The index holds exactly the live rows.
        var byName: [Value: [ObjKey]] = [:]
        for (k, m) in rows { byName[m.values["s"]!, default: []].append(k) }
        for (v, ks) in byName { XCTAssertEqual(try r.indexLookup("Row", "s", v).sorted(), ks.sorted(), "\(note): index of \(v)", file: file, line: line) }
        for (k, m) in refs {
            XCTAssertEqual(try r.value("Ref", k, "one"), m.one.map { .object(ObjectLink(className: "Row", key: $0)) } ?? .null, note, file: file, line: line)
            XCTAssertEqual(try r.list("Ref", k, "many"), m.many.map { .object(ObjectLink(className: "Row", key: $0)) }, note, file: file, line: line)
        }
    }

    /// Random transactions of bulk deletes (up to whole clusters, sorted or not, with repeats),
    /// inserts into the gaps, updates of surviving rows and second deletes in the same
    /// transaction; some aborted. After each: the new version equals the model, a reader that
    /// began before the transaction still sees the previous model, and the file checks sound.
    func testRandomBulkDeletesAgainstModel() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("b.strata"), schema: Self.schema)
        var rng = SplitMix64(seed: 16)
        func r(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var rows: [ObjKey: RowModel] = [:]
        var refs: [ObjKey: RefModel] = [:]
        do {
            let w = try db.write()
            for id in 0..<Int64(3000) { let row = Self.randomRow(id * 2, &rng); try create(w, row); rows[id * 2] = row }
            for id in 0..<Int64(40) {
                let one = rows.keys.sorted()[r(rows.count)]
                let many = (0..<r(5)).map { _ in rows.keys.sorted()[r(rows.count)] }
                _ = try w.create("Ref", values: ["id": .int(id), "one": .object(ObjectLink(className: "Row", key: one))])
                try w.setList("Ref", id, "many", many.map { .object(ObjectLink(className: "Row", key: $0)) })
                refs[id] = RefModel(one: one, many: many)
            }
            try w.commit()
        }
        for step in 0..<24 {
            let older = try db.read()
            let (oldRows, oldRefs) = (rows, refs)
            var rows2 = rows, refs2 = refs
            let w = try db.write()
            for _ in 0..<(1 + r(3)) {
                switch r(5) {
                case 0, 1:
                    // A random share of the rows, unsorted and with repeats.
                    let share = [1, 5, 20, 60, 95][r(5)]
                    var gone = rows2.keys.filter { _ in r(100) < share }
                    gone.shuffle(using: &rng)
                    if let first = gone.first { gone.append(first) }
                    try w.delete("Row", keys: gone)
                    for k in gone { rows2[k] = nil }
                case 2:
                    // A contiguous key range (whole clusters, cluster prefixes and suffixes).
                    let sorted = rows2.keys.sorted()
                    guard !sorted.isEmpty else { continue }
                    let lo = r(sorted.count), n = r(1500)
                    let gone = Array(sorted[lo..<min(sorted.count, lo + n)])
                    try w.delete("Row", keys: gone)
                    for k in gone { rows2[k] = nil }
                case 3:
                    // Inserts, some into the gaps left by deletes.
                    for _ in 0..<r(200) {
                        let id = Int64(r(7000))
                        if rows2[id] != nil { continue }
                        let row = Self.randomRow(id, &rng)
                        try create(w, row)
                        rows2[id] = row
                    }
                default:
                    // Updates of surviving rows (after deletes in this transaction, the cluster's
                    // columns are blocks this transaction wrote).
                    for k in rows2.keys.sorted() where r(30) == 0 {
                        let v = Self.randomRow(k, &rng)
                        try w.set("Row", k, "small", v.values["small"]!)
                        try w.set("Row", k, "s", v.values["s"]!)
                        try w.setList("Row", k, "nums", v.nums.map { .int($0) })
                        rows2[k]!.values["small"] = v.values["small"]; rows2[k]!.values["s"] = v.values["s"]; rows2[k]!.nums = v.nums
                    }
                }
            }
            for (k, ref) in refs2 {
                refs2[k] = RefModel(one: ref.one.flatMap { rows2[$0] != nil ? $0 : nil }, many: ref.many.filter { rows2[$0] != nil })
            }
            try assertMatches(w, rows2, refs2, "step \(step), inside the write")
            if r(6) == 0 { w.abort() } else {
                try w.commit()
                let before = older.version
                // The change record (what notifications read) names every deleted object.
                let gone = rows.keys.filter { rows2[$0] == nil }
                let reader = try db.read()
                let change = try reader.changes(since: before)?["Row"]
                if !gone.isEmpty, !(change?.rewritten ?? false) {
                    let ranges = try XCTUnwrap(change, "step \(step): \(gone.count) deletions recorded").deleted.ranges
                    for k in gone { XCTAssertTrue(ranges.contains { $0.contains(k) }, "step \(step): deletion of \(k) recorded") }
                }
                reader.end()
                rows = rows2; refs = refs2
            }
            try assertMatches(older, oldRows, oldRefs, "step \(step), reader of the older version")
            older.end()
            let now = try db.read()
            try assertMatches(now, rows, refs, "step \(step), after the commit")
            now.end()
            if step % 6 == 5 { assertSound(db) }
        }
        assertSound(db)
        _ = try db.store.compact()
        assertSound(db)
        let r = try db.read()
        try assertMatches(r, rows, refs, "after compaction")
        r.end()
    }

    /// `FilteredColumn` gives the same rows as decoding the column and removing rows, for every
    /// layout and packing width, with and without nulls, for random sets of kept runs.
    func testFilteredColumnEqualsDecodedRemoval() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("f.strata"), schema: Self.schema)
        let w = try db.write()
        defer { w.abort() }
        let t = try w.table("Row")
        var rng = SplitMix64(seed: 5)
        func r(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        for trial in 0..<400 {
            let n = 1 + r(trial % 3 == 0 ? 1100 : 40)
            let withNulls = r(2) == 0
            let col: MutableColumn
            switch trial % 9 {
            case 0: col = .ints((0..<n).map { Int64(1000 + $0) })                          // sequence
            case 1: col = .ints((0..<n).map { _ in Int64(r(2)) })                          // width 1
            case 2: col = .ints((0..<n).map { _ in Int64(r(3)) * 40_000 - 7 })             // width 32
            case 3: col = .ints((0..<n).map { _ in Int64(bitPattern: rng.next()) })         // width 64
            case 4: col = .ints((0..<n).map { _ in 42 })                                   // width 0
            case 5:
                col = MutableColumn(layout: .double)
                for _ in 0..<n { col.appendRow(double: Double(r(1000)) / 3, isNull: false) }
            case 6:
                col = MutableColumn(layout: .float)
                for _ in 0..<n { col.appendRow(float: Float(r(1000)) / 3, isNull: false) }
            case 7:
                col = MutableColumn(layout: .bytes)                                        // u16 or u32 offsets
                let long = r(2) == 0
                for _ in 0..<n { col.appendRow(bytes: (0..<r(long ? 300 : 6)).map { _ in UInt8(r(256)) }, isNull: false) }
            default:
                col = MutableColumn.empty(.fixed, fixedWidth: 12)
                for _ in 0..<n { col.appendRow(bytes: (0..<12).map { _ in UInt8(r(256)) }, isNull: false) }
            }
            if withNulls { col.nulls = (0..<n).map { _ in r(4) == 0 } }
            let view = try t.columnView(try t.writeColumn(col))
            var remove = (0..<n).map { _ in r(100) < [3, 30, 90][trial % 3] }
            if trial % 11 == 0 { remove = (0..<n).map { $0 >= n / 2 } }                    // one run kept
            var runs: [Range<Int>] = []
            var start = -1
            for i in 0..<n {
                if remove[i] { if start >= 0 { runs.append(start..<i); start = -1 } } else if start < 0 { start = i }
            }
            if start >= 0 { runs.append(start..<n) }
            let f = try XCTUnwrap(FilteredColumn(view, runs: runs))
            let ref = try (w.storage as! WriteTransaction).writeGeneric(kind: ObjectBlockKind.column, refs: f.refs, byteCount: f.size) { f.encode(into: $0) }
            let got = try t.columnView(ref)
            col.removeRows(remove)
            XCTAssertEqual(got.count, col.count, "trial \(trial)")
            for i in 0..<col.count {
                let isNull = col.nulls?[i] == true
                XCTAssertEqual(got.isNull(i), isNull, "trial \(trial) row \(i)")
                if isNull { continue }
                switch col.layout {
                case .int: XCTAssertEqual(got.int(i), col.ints[i], "trial \(trial) row \(i)")
                case .float: XCTAssertEqual(got.float(i), col.floats[i], "trial \(trial) row \(i)")
                case .double: XCTAssertEqual(got.double(i), col.doubles[i], "trial \(trial) row \(i)")
                case .bytes: col.withBytes(i) { XCTAssertEqual(Array(got.bytes(i)), Array($0), "trial \(trial) row \(i)") }
                case .fixed: col.withBytes(i) { XCTAssertEqual(Array(got.fixed(i)), Array($0), "trial \(trial) row \(i)") }
                case .refs: break
                }
            }
            if col.layout == .int && col.nulls == nil {
                XCTAssertEqual(got.sumInts(), col.ints.reduce(0, &+), "trial \(trial)")
            }
        }
    }
}
