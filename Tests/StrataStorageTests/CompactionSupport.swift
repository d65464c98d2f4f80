import XCTest
import Foundation
@testable import StrataStorage

/// The logical content of one version: every tree's entries with their values resolved
/// (inline and large bytes; owned generic blocks as their bytes followed by their children's
/// contents, recursively), so two files can be compared independent of where blocks lie.
typealias LogicalContent = [String: [[UInt8]: [UInt8]]]

func deepBytes(_ txn: Transaction, _ ref: BlockRef) throws -> [UInt8] {
    let g = try txn.genericBlock(ref)
    var out = Array(g.bytes)
    for i in 0..<g.refCount {
        let r = g.ref(i)
        out += r == 0 ? [0] : [1] + (try deepBytes(txn, r))
    }
    return out
}

func logicalContent(_ store: Store, includeHistory: Bool = false) throws -> LogicalContent {
    let r = try store.beginRead(label: "compare")
    defer { r.end() }
    var out: LogicalContent = [:]
    for name in try r.treeNames() where includeHistory || name != "_history" {
        guard let t = try r.tree(name) else { continue }
        var d: [[UInt8]: [UInt8]] = [:]
        try t.forEach { e in
            switch e.value {
            case .owned(let ref): d[e.key] = [2] + (try deepBytes(r, ref))
            default: d[e.key] = try t.bytes(of: e.value)
            }
            return true
        }
        out[name] = d
    }
    return out
}

/// Deterministic value bytes: some inline, some large (over 1024 bytes: a large-value block).
func testValue(_ i: Int, _ salt: Int = 0, length: Int? = nil) -> [UInt8] {
    let len = length ?? ((i &* 7919 &+ salt &* 31) % 2600)
    return (0..<len).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i &+ salt) }
}

/// Writes an owned generic block holding `i` plus two nested children (exercises ref rewriting
/// below tree leaves).
func writeOwnedChain(_ w: WriteTransaction, _ i: Int) throws -> BlockRef {
    let grandchild = try w.writeGeneric(refs: [], byteCount: 64) { b in for j in 0..<64 { b[j] = UInt8(truncatingIfNeeded: i &+ j) } }
    let child1 = try w.writeGeneric(refs: [grandchild, 0], byteCount: 16) { b in for j in 0..<16 { b[j] = UInt8(truncatingIfNeeded: i &* 3 &+ j) } }
    let child2 = try w.writeGeneric(refs: [], byteCount: 2000) { b in for j in 0..<2000 { b[j] = UInt8(truncatingIfNeeded: i &+ j &* 7) } }
    return try w.writeGeneric(refs: [child1, child2], byteCount: 8) { b in for j in 0..<8 { b[j] = UInt8(truncatingIfNeeded: i >> (j * 8)) } }
}

func storeOptions(automaticCompaction: Bool = false) -> StoreOptions {
    var o = StoreOptions()
    o.automaticCompaction = automaticCompaction
    return o
}

/// Fills trees "a" (inline and large values), "b" (owned generic chains) with `count` entries.
@discardableResult
func populate(_ store: Store, count: Int, salt: Int = 0) throws -> UInt64 {
    var i = 0
    var v: UInt64 = 0
    while i < count {
        let w = try store.beginWrite()
        let a = try w.tree("a", create: true)!
        let b = try w.tree("b", create: true)!
        for _ in 0..<min(500, count - i) {
            try a.put(key(i), bytes: testValue(i, salt))
            if i % 10 == 0 { try b.put(key(i), value: .owned(try writeOwnedChain(w, i + salt))) }
            i += 1
        }
        v = try w.commit()
    }
    return v
}

/// Deletes the entries of "a" and "b" for which `drop(i)` holds.
func deleteWhere(_ store: Store, count: Int, _ drop: (Int) -> Bool) throws {
    var i = 0
    while i < count {
        let w = try store.beginWrite()
        let a = try w.tree("a")!
        let b = try w.tree("b")!
        for _ in 0..<min(2000, count - i) {
            if drop(i) { try a.delete(key(i)); try b.delete(key(i)) }
            i += 1
        }
        try w.commit()
    }
}
