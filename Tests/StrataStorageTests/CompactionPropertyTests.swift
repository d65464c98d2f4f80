import XCTest
@testable import StrataStorage

/// Random transactions with automatic compaction relocating data during the same commits that
/// change it (dirty nodes, freed values, owned blocks), readers holding old versions, and
/// online compaction now and then: after every step the newest version equals an in-memory
/// model, every held snapshot still reads what it read when it began, and the integrity check
/// passes.
final class CompactionPropertyTests: XCTestCase {
    func testRandomTransactionsWithAutomaticAndOnlineCompaction() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("p.strata"), options: storeOptions(automaticCompaction: true))
        var rng = SplitMix64(seed: 0xA11CE)
        var model: LogicalContent = [:]
        var readers: [(ReadTransaction, LogicalContent)] = []
        var maxSize: UInt64 = 0
        var shrinks = 0
        var onlineRuns = 0
        let steps = 260
        for step in 0..<steps {
            let w = try store.beginWrite()
            var working = model
            let phase = (step / 40) % 2   // alternate growing and shrinking phases
            let ops = Int(rng.next() % 60) + 1
            for _ in 0..<ops {
                let name = ["x", "y"][Int(rng.next() % 2)]
                let k = Array("k\(rng.next() % 900)".utf8)
                let roll = rng.next() % 100
                if roll < (phase == 0 ? 75 : 15) {
                    if rng.next() % 8 == 0 {
                        let ref = try writeOwnedChain(w, Int(rng.next() % 10_000))
                        try w.tree(name, create: true)!.put(k, value: .owned(ref))
                        working[name, default: [:]][k] = [2] + (try deepBytes(w, ref))
                    } else {
                        let len = rng.next() % 3 == 0 ? Int(rng.next() % 9000) : Int(rng.next() % 200)
                        let v = (0..<len).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                        try w.tree(name, create: true)!.put(k, bytes: v)
                        working[name, default: [:]][k] = v
                    }
                } else if let t = try w.tree(name) {
                    XCTAssertEqual(try t.delete(k), working[name]?[k] != nil)
                    working[name]?[k] = nil
                }
            }
            if rng.next() % 12 == 0 { w.abort() } else { try w.commit(); model = working }

            let size = try store.fileSize()
            if size < maxSize { shrinks += 1 }
            maxSize = max(maxSize, size)
            if step % 37 == 36 { try store.compactOnline(); onlineRuns += 1 }
            if rng.next() % 15 == 0 { readers.append((try store.beginRead(), model.filter { !$0.value.isEmpty })) }
            if readers.count > 3 || (readers.count > 0 && rng.next() % 10 == 0) {
                let (r, expected) = readers.remove(at: Int(rng.next() % UInt64(readers.count)))
                XCTAssertEqual(try snapshot(r), expected, "step \(step): a held snapshot changed")
                r.end()
            }
            if step % 10 == 0 || step == steps - 1 {
                XCTAssertEqual(try logicalContent(store).filter { !$0.value.isEmpty }, model.filter { !$0.value.isEmpty }, "step \(step)")
                let report = try store.check()
                XCTAssertTrue(report.isSound, "step \(step): \(report.problems.prefix(3))")
                if !report.isSound { return }
            }
        }
        for (r, expected) in readers { XCTAssertEqual(try snapshot(r), expected); r.end() }
        XCTAssertGreaterThan(maxSize, 1 << 20, "the file got large enough for automatic compaction")
        XCTAssertGreaterThan(shrinks, 0, "the file shrank at some commit")
        XCTAssertGreaterThan(onlineRuns, 0)
    }

    func snapshot(_ r: ReadTransaction) throws -> LogicalContent {
        var out: LogicalContent = [:]
        for name in try r.treeNames() where name != "_history" {
            guard let t = try r.tree(name) else { continue }
            var d: [[UInt8]: [UInt8]] = [:]
            try t.forEach { e in
                if case .owned(let ref) = e.value { d[e.key] = [2] + (try deepBytes(r, ref)) } else { d[e.key] = try t.bytes(of: e.value) }
                return true
            }
            if !d.isEmpty { out[name] = d }
        }
        return out
    }
}
