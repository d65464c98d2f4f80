import XCTest
@testable import StrataStorage

/// The write transaction's node representation (`DirtyNode`: the stored payload copied whole,
/// entries located in it, new keys and values appended and compacted when the buffer fills)
/// against a plain model, within long transactions (nodes stay dirty through many changes),
/// and the node format: every node a commit wrote decodes and re-encodes to the same bytes.
final class DirtyNodeTests: XCTestCase {
    /// Compares every entry, and positional and floor access, with the model.
    private func assertMatches(_ t: BTree, _ model: [[UInt8]: (value: [UInt8], weight: UInt64)], _ context: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let keys = model.keys.sorted { $0.lexicographicallyPrecedes($1) }
        let entries = try t.entries()
        XCTAssertEqual(entries.map(\.key), keys, context, file: file, line: line)
        guard entries.map(\.key) == keys else { return }
        var position: UInt64 = 0
        for (i, e) in entries.enumerated() {
            XCTAssertEqual(try t.bytes(of: e.value), model[e.key]!.value, "\(context): value of entry \(i)", file: file, line: line)
            XCTAssertEqual(e.weight, t.weighted ? model[e.key]!.weight : 1, "\(context): weight of entry \(i)", file: file, line: line)
            if i % 7 == 0 {
                XCTAssertEqual(try t.entry(atWeight: position)?.entry.key, e.key, "\(context): entry at weight \(position)", file: file, line: line)
                XCTAssertEqual(try t.floor(e.key + [0])?.key, e.key, "\(context): floor", file: file, line: line)
            }
            position += e.weight
        }
        XCTAssertEqual(try t.totalWeight, position, context, file: file, line: line)
    }

    /// Random puts (new keys, replaced values of every size class: empty, small, near the
    /// inline limit, large values in their own blocks), deletes (merging nodes) and weight
    /// changes, many per transaction, on an unweighted and a weighted tree; checked against
    /// the model inside each transaction, after each commit and after reopening.
    func testRandomChangesInLongTransactionsAgainstModel() throws {
        let dir = TempDir()
        let path = dir.path("dn.strata")
        var rng = SplitMix64(seed: 0xD17_7E5)
        var models: [String: [[UInt8]: (value: [UInt8], weight: UInt64)]] = ["u": [:], "w": [:]]
        do {
            let store = try Store(path: path)
            for round in 0..<12 {
                let w = try store.beginWrite()
                for name in ["u", "w"] {
                    let t = try XCTUnwrap(try w.tree(name, create: true, weighted: name == "w"))
                    // Small leaves on one tree in some rounds (more splits and merges).
                    if name == "u" && round % 3 != 2 { t.leafLimit = 512 }
                    var model = models[name]!
                    let ops = round % 4 == 3 ? 6000 : 900
                    for op in 0..<ops {
                        let r = rng.next() % 100
                        // Few distinct keys: the same entries are replaced over and over (the
                        // buffer compacts); some rounds add many keys (splits).
                        let k = Array(String(format: "k%05d", Int(rng.next() % (round % 2 == 0 ? 400 : 3000))).utf8)
                        if r < 70 {
                            let sizeClass = rng.next() % 10
                            let len = sizeClass == 0 ? 0 : (sizeClass == 1 ? 1000 + Int(rng.next() % 25) : (sizeClass == 2 ? 1100 + Int(rng.next() % 3000) : Int(rng.next() % 40)))
                            let v = (0..<len).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                            let weight = rng.next() % 5 + 1
                            try t.put(k, bytes: v, weight: weight)
                            model[k] = (v, weight)
                        } else {
                            let existed = try t.delete(k)
                            XCTAssertEqual(existed, model[k] != nil, "round \(round) op \(op): delete of an absent key")
                            model[k] = nil
                        }
                        if op % 450 == 449 { try assertMatches(t, model, "tree \(name), round \(round), op \(op)") }
                    }
                    models[name] = model
                    try assertMatches(t, model, "tree \(name), round \(round), before commit")
                }
                try w.commit()
                let r = try store.beginRead()
                for name in ["u", "w"] { try assertMatches(try XCTUnwrap(try r.tree(name)), models[name]!, "tree \(name), round \(round), committed") }
                r.end()
                if round % 4 == 0 { assertSound(store) }
            }
            assertSound(store)
            store.close()
        }
        let store = try Store(path: path)
        let r = try store.beginRead()
        for name in ["u", "w"] { try assertMatches(try XCTUnwrap(try r.tree(name)), models[name]!, "tree \(name), reopened") }
    }

    /// The history tree (one entry appended per commit, the oldest trimmed) keeps leaves of at
    /// most `WriteTransaction.historyLeafLimit` bytes, so each commit rewrites a small last
    /// leaf; every commit stays listed, newest first.
    func testHistoryLeavesStaySmall() throws {
        let dir = TempDir()
        var options = StoreOptions()
        options.historyLimit = 300
        let store = try Store(path: dir.path("h.strata"), options: options)
        for i in 0..<700 {
            let w = try store.beginWrite(label: "commit \(i)")
            try w.tree("t", create: true)!.put(key(i), bytes: [UInt8(i & 0xff)])
            try w.commit()
        }
        let r = try store.beginRead()
        var leaves = 0, largest = 0
        func walk(_ ref: BlockRef) throws {
            let view = try r.block(ref)
            let node = try StoredNode(view, path: r.path)
            if node.isLeaf { leaves += 1; largest = max(largest, view.length) }
            else { for i in 0..<node.count { try walk(node.child(i)) } }
        }
        try walk(try XCTUnwrap(try r.committedRoot(of: WriteTransaction.historyTree)).root)
        r.end()
        XCTAssertLessThanOrEqual(largest, WriteTransaction.historyLeafLimit)
        XCTAssertGreaterThan(leaves, 10)
        let commits = try store.recentCommits(limit: 1000)
        XCTAssertGreaterThanOrEqual(commits.count, 300)
        XCTAssertEqual(commits.first?.label, "commit 699")
        XCTAssertEqual(commits.map(\.version), commits.map(\.version).sorted(by: >))
        assertSound(store)
    }

    /// Every node of a committed tree, decoded and encoded again, gives its stored payload byte
    /// for byte (the representation does not change the format), for leaves and inner nodes,
    /// weighted and not, with inline, large and owned values.
    func testDecodeEncodeRoundTripKeepsStoredBytes() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("rt.strata"))
        let w = try store.beginWrite()
        var rng = SplitMix64(seed: 42)
        for name in ["plain", "weighted"] {
            let t = try XCTUnwrap(try w.tree(name, create: true, weighted: name == "weighted"))
            for i in 0..<4000 {
                let len = i % 97 == 0 ? 2000 : Int(rng.next() % 30)
                try t.put(key(Int(rng.next() % 100_000)), bytes: (0..<len).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, weight: UInt64(i % 9 + 1))
            }
            for i in 0..<50 {
                let owned = try w.writeGeneric(refs: [], byteCount: 16) { b in for j in 0..<16 { b[j] = UInt8(i) } }
                try t.put(Array("owned\(i)".utf8), value: .owned(owned))
            }
        }
        try w.commit()
        let r = try store.beginRead()
        var nodes = 0, inner = 0
        func walk(_ ref: BlockRef) throws {
            let view = try r.block(ref)
            let stored = try StoredNode(view, path: r.path)
            let d = try DirtyNode.decode(stored, path: r.path)
            XCTAssertEqual(d.blockBytes, view.length, "size of node \(ref)")
            let out = UnsafeMutableRawPointer.allocate(byteCount: d.payloadBytes, alignment: 8)
            defer { out.deallocate() }
            d.encode(into: out)
            XCTAssertEqual(Array(UnsafeRawBufferPointer(start: out, count: d.payloadBytes)),
                           Array(UnsafeRawBufferPointer(start: stored.p, count: d.payloadBytes)), "node \(ref) re-encodes differently")
            nodes += 1
            if !stored.isLeaf { inner += 1; for i in 0..<stored.count { try walk(stored.child(i)) } }
        }
        for name in ["plain", "weighted"] { try walk(try XCTUnwrap(try r.committedRoot(of: name)).root) }
        XCTAssertGreaterThan(inner, 1)
        XCTAssertGreaterThan(nodes, 40)
    }
}
