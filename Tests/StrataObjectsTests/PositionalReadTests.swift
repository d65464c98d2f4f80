import XCTest
import Foundation
@testable import StrataObjects
@testable import StrataStorage

/// Typed model for the positional-read property test (Int primary key = object key).
final class GapItem: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var v: Int
}

/// Positional access (`objectKey(at:)`, `objectKeys(from:count:)`, `Results[i]`) against a
/// plain sorted array of keys, with Int primary keys full of gaps (bulk appends starting far
/// above the last key, single inserts below, between and above, deletes that empty clusters),
/// read inside write transactions (where changed clusters are still decoded and the tree's
/// weights lag) and in read transactions after commit or abort.
final class PositionalReadTests: XCTestCase {
    static let gapSchema = Schema([
        ObjectSchema(className: "Item", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true),
            PropertySchema(name: "v", type: .int),
        ]),
    ])

    /// Every position (and a few past the end) read through both calls agrees with `model`.
    private func checkPositions(_ txn: DBTransaction, _ model: [ObjKey], seed: UInt64, step: Int, where place: String,
                                rng: inout SplitMix64, file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        let ctx = "seed \(seed) step \(step) \(place)"
        let n = try txn.count("Item")
        guard n == model.count else { XCTFail("\(ctx): count \(n), model \(model.count)", file: file, line: line); return false }
        // Single positions: all of them when small, else a random sample plus the edges.
        var probes = model.count <= 300 ? Array(0..<model.count) : (0..<200).map { _ in Int(rng.next() % UInt64(model.count)) }
        if !model.isEmpty { probes += [0, model.count - 1] }
        for i in probes {
            let k = try txn.objectKey("Item", at: i)
            guard k == model[i] else { XCTFail("\(ctx): objectKey(at: \(i)) = \(String(describing: k)), expected \(model[i])", file: file, line: line); return false }
            // The key must name a real object whose value is readable.
            guard case .int(let v) = try txn.value("Item", model[i], "v"), v == model[i] &* 3 else {
                XCTFail("\(ctx): object \(model[i]) reads a wrong value", file: file, line: line); return false
            }
        }
        for past in [model.count, model.count + 1, model.count + 5000] where try txn.objectKey("Item", at: past) != nil {
            XCTFail("\(ctx): objectKey(at: \(past)) beyond the end returned a key", file: file, line: line); return false
        }
        // Pages across cluster boundaries.
        for _ in 0..<6 {
            let start = model.isEmpty ? 0 : Int(rng.next() % UInt64(model.count + 10))
            let len = 1 + Int(rng.next() % 2500)
            let got = try txn.objectKeys("Item", from: start, count: len)
            let want = start < model.count ? Array(model[start..<min(model.count, start + len)]) : []
            guard got == want else {
                XCTFail("\(ctx): objectKeys(from: \(start), count: \(len)) returned \(got.count) keys, first difference at \(zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count))", file: file, line: line)
                return false
            }
        }
        return true
    }

    func testPositionalReadsWithGappedIntPrimaryKeysAgreeWithModel() throws {
        for seed: UInt64 in [18_05, 4242, 0xBADC0FFEE] {
            try runGappedKeys(seed: seed)
        }
    }

    private func runGappedKeys(seed: UInt64) throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("gaps.strata"), schema: Self.gapSchema)
        var rng = SplitMix64(seed: seed)
        func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        var model: [ObjKey] = [] // committed keys, sorted
        for step in 0..<40 {
            let w = try db.write()
            var keys = Set(model)
            var sorted: [ObjKey] { keys.sorted() }
            for _ in 0..<(1 + rand(8)) {
                switch rand(9) {
                case 0, 1:
                    // Bulk append far above the largest key (gaps inside and before).
                    let start = (keys.max() ?? 0) + 1 + Int64(rand(3) == 0 ? 1_000_000 : rand(5000))
                    let count = 1 + rand(1500)
                    var ks: [Int64] = []
                    var k = start
                    for _ in 0..<count { ks.append(k); k += Int64(rand(4) == 0 ? 1 + rand(50) : 1) }
                    try w.appendObjects("Item", count: count, columns: ["id": .ints(ks), "v": .ints(ks.map { $0 * 3 })])
                    keys.formUnion(ks)
                case 2, 3:
                    // Single inserts below, between and above existing keys.
                    for _ in 0..<(1 + rand(40)) {
                        let lo = (keys.min() ?? 0) - 2000, hi = (keys.max() ?? 0) + 3000
                        let k = lo + Int64(rand(Int(hi - lo)))
                        if keys.contains(k) { continue }
                        try w.insertRow("Item", [.int(k), .int(k * 3)])
                        keys.insert(k)
                    }
                case 4:
                    // Deletes: scattered keys, or a whole run (empties clusters).
                    let s = sorted
                    guard !s.isEmpty else { continue }
                    var gone: [Int64] = []
                    if rand(2) == 0 {
                        for _ in 0..<(1 + rand(60)) { gone.append(s[rand(s.count)]) }
                    } else {
                        let a = rand(s.count); gone = Array(s[a..<min(s.count, a + 1 + rand(1500))])
                    }
                    try w.delete("Item", keys: gone)
                    keys.subtract(gone)
                case 5:
                    // Updates make clusters dirty without changing counts.
                    let s = sorted
                    for _ in 0..<min(s.count, 1 + rand(20)) { let k = s[rand(s.count)]; try w.set("Item", k, "v", .int(k * 3)) }
                default:
                    guard try checkPositions(w, sorted, seed: seed, step: step, where: "inside the write", rng: &rng) else { w.abort(); return }
                }
            }
            guard try checkPositions(w, sorted, seed: seed, step: step, where: "before commit", rng: &rng) else { w.abort(); return }
            if rand(5) == 0 { w.abort() } else { try w.commit(); model = sorted }
            let r = try db.read()
            defer { r.end() }
            guard try checkPositions(r, model, seed: seed, step: step, where: "in a read transaction", rng: &rng) else { return }
        }
        assertSound(db)
    }

    /// `Results[i]` of a whole class inside a write (the same positional call) after inserts
    /// with gapped keys in that write.
    func testResultsSubscriptInsideWriteWithGappedKeys() throws {
        let seed: UInt64 = 1805
        var rng = SplitMix64(seed: seed)
        let fx = APIFixture()
        let realm = try Realm(configuration: fx.config("gaps.strata", types: [GapItem.self]))
        var model: [Int] = []
        try realm.write {
            for i in 0..<1500 { realm.add(GapItem(value: ["id": 1_000_000 + i * 7, "v": i])) ; model.append(1_000_000 + i * 7) }
        }
        try realm.write {
            for _ in 0..<300 {
                let k = Int(rng.next() % 3_000_000)
                if model.contains(k) { continue }
                realm.add(GapItem(value: ["id": k, "v": 0]))
                model.append(k)
            }
            model.sort()
            let results = realm.objects(GapItem.self)
            XCTAssertEqual(results.count, model.count, "seed \(seed)")
            for i in stride(from: 0, to: model.count, by: 7) {
                XCTAssertEqual(results[i].id, model[i], "seed \(seed): Results[\(i)] inside the write")
            }
        }
        let results = realm.objects(GapItem.self)
        for i in stride(from: 0, to: model.count, by: 7) { XCTAssertEqual(results[i].id, model[i], "seed \(seed): Results[\(i)] after commit") }
    }
}
