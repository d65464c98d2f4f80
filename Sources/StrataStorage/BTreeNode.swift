/// On-disk B+tree node formats and their bounds-checked decoders.
///
/// Leaf payload:
///
///     u32 count, u32 flags (bit 0: weighted)
///     count × u32 entry offset (from payload start), in key order
///     entries: u16 key length, u8 value kind, u8 0, u32 value length,
///              [u64 weight when weighted], key bytes, then the value:
///              kind 0 inline bytes · kind 1 u64 ref of a generic block holding a large value
///              · kind 2 u64 ref of an owned generic block (a subtree of the layer above)
///
/// Inner payload:
///
///     u32 count, u32 flags
///     count × (u64 child ref, u64 subtree weight, u32 key offset, u32 key length)
///     key bytes; key i is the smallest key in child i
///
/// Invariants: keys strictly increase (byte order); every node but the root holds at least one
/// entry; an inner node's weight for a child equals the sum of the weights below it (entries
/// weigh 1 in unweighted trees), which gives O(log n) positional access.
enum NodeFormat {
    static let maxNodeBytes = 4096
    static let maxKey = 1024
    static let maxInlineValue = 1024
    static let leafEntryFixed = 8
    static let innerEntryFixed = 24
    static let headerBytes = 8

    enum ValueKind: UInt8 { case inline = 0, largeBlob = 1, owned = 2 }
}

/// A tree value as stored in a leaf.
package enum TreeValue: Equatable, Sendable {
    /// Bytes stored in the leaf itself.
    case inline([UInt8])
    /// A large value in its own block (`length` bytes of payload after the generic header).
    case largeBlob(BlockRef, length: Int)
    /// A block owned by this entry, meaning assigned by the layer above; freed and copied with it.
    case owned(BlockRef)

    var encodedValueSize: Int {
        switch self { case .inline(let b): return b.count; case .largeBlob, .owned: return 8 }
    }
    var kind: NodeFormat.ValueKind {
        switch self { case .inline: return .inline; case .largeBlob: return .largeBlob; case .owned: return .owned }
    }
    /// The owned block, if any, that goes away with this value.
    var ownedRef: BlockRef? {
        switch self { case .inline: return nil; case .largeBlob(let r, _): return r; case .owned(let r): return r }
    }
}

/// A read-only view of a stored node, with every access bounds-checked.
struct StoredNode {
    let view: BlockView
    let isLeaf: Bool
    let count: Int
    let weighted: Bool
    let p: UnsafeRawPointer      // payload start
    let size: Int                // payload size

    init(_ view: BlockView, path: String) throws {
        self.view = view
        let kind = view.kindByte
        guard kind == BlockKind.leaf.rawValue || kind == BlockKind.inner.rawValue, view.length >= BlockHeader.size + 8 else {
            throw StorageError.corrupted(path: path, detail: "block \(view.ref) is not a tree node (kind \(kind))")
        }
        isLeaf = kind == BlockKind.leaf.rawValue
        p = view.payload.baseAddress!
        size = view.payload.count
        count = Int(p.getLE(0, as: UInt32.self))
        weighted = p.getLE(4, as: UInt32.self) & 1 != 0
        let per = isLeaf ? 4 : NodeFormat.innerEntryFixed
        guard count <= (size - 8) / per else {
            throw StorageError.corrupted(path: path, detail: "tree node \(view.ref) claims \(count) entries")
        }
    }

    struct Bad: Error {}

    // Leaf accessors.
    @inline(__always) func entryOffset(_ i: Int) throws -> Int {
        let o = Int(p.getLE(8 + 4 * i, as: UInt32.self))
        guard o >= 8 + 4 * count, o + NodeFormat.leafEntryFixed <= size else { throw Bad() }
        return o
    }
    @inline(__always) func leafKey(_ i: Int) throws -> UnsafeRawBufferPointer {
        let o = try entryOffset(i)
        let kl = Int(p.getLE(o, as: UInt16.self))
        let ko = o + NodeFormat.leafEntryFixed + (weighted ? 8 : 0)
        guard ko + kl <= size else { throw Bad() }
        return UnsafeRawBufferPointer(start: p + ko, count: kl)
    }
    func leafWeight(_ i: Int) throws -> UInt64 {
        guard weighted else { return 1 }
        let o = try entryOffset(i)
        guard o + 16 <= size else { throw Bad() }
        return p.getLE(o + 8, as: UInt64.self)
    }
    func leafValue(_ i: Int) throws -> (kind: NodeFormat.ValueKind, bytes: UnsafeRawBufferPointer) {
        let o = try entryOffset(i)
        let kl = Int(p.getLE(o, as: UInt16.self))
        guard let kind = NodeFormat.ValueKind(rawValue: p.load(fromByteOffset: o + 2, as: UInt8.self)) else { throw Bad() }
        let vl = Int(p.getLE(o + 4, as: UInt32.self))
        let vo = o + NodeFormat.leafEntryFixed + (weighted ? 8 : 0) + kl
        let stored = kind == .inline ? vl : 8
        guard vo + stored <= size else { throw Bad() }
        if kind == .largeBlob { _ = vl } // length kept in the entry
        return (kind, UnsafeRawBufferPointer(start: p + vo, count: stored))
    }
    func leafTreeValue(_ i: Int) throws -> TreeValue {
        let (kind, b) = try leafValue(i)
        switch kind {
        case .inline: return .inline(Array(b))
        case .largeBlob:
            let o = try entryOffset(i)
            return .largeBlob(b.baseAddress!.getLE(0, as: UInt64.self), length: Int(p.getLE(o + 4, as: UInt32.self)))
        case .owned: return .owned(b.baseAddress!.getLE(0, as: UInt64.self))
        }
    }

    // Inner accessors.
    @inline(__always) func child(_ i: Int) -> BlockRef { p.getLE(8 + NodeFormat.innerEntryFixed * i, as: UInt64.self) }
    @inline(__always) func childWeight(_ i: Int) -> UInt64 { p.getLE(16 + NodeFormat.innerEntryFixed * i, as: UInt64.self) }
    @inline(__always) func innerKey(_ i: Int) throws -> UnsafeRawBufferPointer {
        let e = 8 + NodeFormat.innerEntryFixed * i
        let ko = Int(p.getLE(e + 16, as: UInt32.self)), kl = Int(p.getLE(e + 20, as: UInt32.self))
        guard ko >= 8 + NodeFormat.innerEntryFixed * count, kl <= NodeFormat.maxKey, ko + kl <= size else { throw Bad() }
        return UnsafeRawBufferPointer(start: p + ko, count: kl)
    }
    func key(_ i: Int) throws -> UnsafeRawBufferPointer { isLeaf ? try leafKey(i) : try innerKey(i) }
    var totalWeight: UInt64 {
        get throws {
            var w: UInt64 = 0
            for i in 0..<count { w &+= isLeaf ? try leafWeight(i) : childWeight(i) }
            return w
        }
    }
}

/// Lexicographic comparison of byte strings (memcmp order, shorter prefix first).
@inline(__always) func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let n = min(a.count, b.count)
    if n > 0 {
        let c = memcmp(a.baseAddress!, b.baseAddress!, n)
        if c != 0 { return Int(c) }
    }
    return a.count < b.count ? -1 : (a.count > b.count ? 1 : 0)
}

#if canImport(Glibc)
import Glibc
#endif

/// A node being modified by a write transaction (decoded into Swift arrays).
final class DirtyNode {
    enum Child { case stored(BlockRef), dirty(DirtyNode) }
    let isLeaf: Bool
    let weighted: Bool
    var keys: [[UInt8]] = []
    var values: [TreeValue] = []   // leaf
    var children: [Child] = []     // inner
    var weights: [UInt64] = []     // leaf: per entry (1 when unweighted); inner: per child subtree
    var payloadBytes: Int = NodeFormat.headerBytes

    init(isLeaf: Bool, weighted: Bool) { self.isLeaf = isLeaf; self.weighted = weighted }

    var count: Int { keys.count }
    var totalWeight: UInt64 { weights.reduce(0, &+) }
    var blockBytes: Int { BlockHeader.roundUp(BlockHeader.size + payloadBytes) }

    func leafEntryBytes(key: [UInt8], value: TreeValue) -> Int {
        4 + NodeFormat.leafEntryFixed + (weighted ? 8 : 0) + key.count + value.encodedValueSize
    }
    static func innerEntryBytes(key: [UInt8]) -> Int { NodeFormat.innerEntryFixed + key.count }

    func recomputeSize() {
        var s = NodeFormat.headerBytes
        if isLeaf { for i in 0..<keys.count { s += leafEntryBytes(key: keys[i], value: values[i]) } }
        else { for k in keys { s += Self.innerEntryBytes(key: k) } }
        payloadBytes = s
    }

    static func decode(_ n: StoredNode, path: String) throws -> DirtyNode {
        let d = DirtyNode(isLeaf: n.isLeaf, weighted: n.weighted)
        d.keys.reserveCapacity(n.count + 1)
        d.weights.reserveCapacity(n.count + 1)
        if n.isLeaf { d.values.reserveCapacity(n.count + 1) } else { d.children.reserveCapacity(n.count + 1) }
        // The size is summed in the same pass (as `recomputeSize` would), and keys are compared
        // where they are stored (memcmp), before each is copied.
        var size = NodeFormat.headerBytes
        do {
            var previous: UnsafeRawBufferPointer?
            for i in 0..<n.count {
                let stored = try n.key(i)
                if let previous, compareBytes(previous, stored) >= 0 { throw StoredNode.Bad() }
                previous = stored
                let k = Array(stored)
                d.keys.append(k)
                if n.isLeaf {
                    let v = try n.leafTreeValue(i)
                    size += d.leafEntryBytes(key: k, value: v)
                    d.values.append(v)
                    d.weights.append(try n.leafWeight(i))
                } else {
                    size += Self.innerEntryBytes(key: k)
                    d.children.append(.stored(n.child(i)))
                    d.weights.append(n.childWeight(i))
                }
            }
        } catch is StoredNode.Bad {
            throw StorageError.corrupted(path: path, detail: "tree node \(n.view.ref) is malformed")
        }
        d.payloadBytes = size
        return d
    }

    /// Encodes this node (children must already have refs) into `out` (payload area).
    func encode(into out: UnsafeMutableRawPointer) {
        out.putLE(UInt32(keys.count), at: 0)
        out.putLE(UInt32(weighted ? 1 : 0), at: 4)
        if isLeaf {
            var o = 8 + 4 * keys.count
            for i in 0..<keys.count {
                out.putLE(UInt32(o), at: 8 + 4 * i)
                let k = keys[i], v = values[i]
                out.putLE(UInt16(k.count), at: o)
                out.storeBytes(of: v.kind.rawValue, toByteOffset: o + 2, as: UInt8.self)
                out.storeBytes(of: UInt8(0), toByteOffset: o + 3, as: UInt8.self)
                var vlen = 0
                switch v { case .inline(let b): vlen = b.count; case .largeBlob(_, let l): vlen = l; case .owned: vlen = 8 }
                out.putLE(UInt32(vlen), at: o + 4)
                o += NodeFormat.leafEntryFixed
                if weighted { out.putLE(weights[i], at: o); o += 8 }
                k.withUnsafeBytes { if $0.count > 0 { memcpy(out + o, $0.baseAddress!, $0.count) } }
                o += k.count
                switch v {
                case .inline(let b): b.withUnsafeBytes { if $0.count > 0 { memcpy(out + o, $0.baseAddress!, $0.count) } }; o += b.count
                case .largeBlob(let r, _), .owned(let r): out.putLE(r, at: o); o += 8
                }
            }
        } else {
            var ko = 8 + NodeFormat.innerEntryFixed * keys.count
            for i in 0..<keys.count {
                let e = 8 + NodeFormat.innerEntryFixed * i
                guard case .stored(let r) = children[i] else { preconditionFailure("inner node encoded before its children") }
                out.putLE(r, at: e); out.putLE(weights[i], at: e + 8)
                out.putLE(UInt32(ko), at: e + 16); out.putLE(UInt32(keys[i].count), at: e + 20)
                keys[i].withUnsafeBytes { if $0.count > 0 { memcpy(out + ko, $0.baseAddress!, $0.count) } }
                ko += keys[i].count
            }
        }
    }

    /// Splits off the upper part into a new node and returns it. `appending` packs the left node
    /// full (sequential inserts leave dense nodes, as SQLite does for rowid appends).
    func split(appending: Bool) -> DirtyNode {
        let right = DirtyNode(isLeaf: isLeaf, weighted: weighted)
        var at: Int
        if appending {
            at = keys.count - 1
        } else {
            // Split at half of the bytes.
            var acc = NodeFormat.headerBytes
            at = 0
            while at < keys.count - 1 {
                acc += isLeaf ? leafEntryBytes(key: keys[at], value: values[at]) : Self.innerEntryBytes(key: keys[at])
                at += 1
                if acc >= payloadBytes / 2 { break }
            }
        }
        at = max(1, min(at, keys.count - 1))
        right.keys = Array(keys[at...]); keys.removeSubrange(at...)
        right.weights = Array(weights[at...]); weights.removeSubrange(at...)
        if isLeaf { right.values = Array(values[at...]); values.removeSubrange(at...) }
        else { right.children = Array(children[at...]); children.removeSubrange(at...) }
        recomputeSize(); right.recomputeSize()
        return right
    }
}
