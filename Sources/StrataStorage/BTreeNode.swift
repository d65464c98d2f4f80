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

/// A node being modified by a write transaction.
///
/// Keys and inline values live in one byte buffer per node: decoding a stored node copies its
/// payload whole (one allocation, one memcpy) and records, per entry, where its key and value
/// lie in that copy (`Entry`, a plain struct: no allocation per entry). Keys and values set
/// later are appended to the buffer; when it is full, the live bytes are compacted into a new
/// one, so bytes of replaced values do not accumulate. Encoding writes the node format anew.
final class DirtyNode {
    enum Child { case stored(BlockRef), dirty(DirtyNode) }

    /// Where one entry's key and value lie. `valueOffset`/`valueLength`: an inline value's bytes
    /// in the buffer; a large value's length (`valueLength`) and block (`ref`); an owned block (`ref`).
    struct Entry {
        var keyOffset: Int32
        var keyLength: Int32
        var valueOffset: Int32 = 0
        var valueLength: UInt32 = 0
        var kind: NodeFormat.ValueKind = .inline
        var ref: BlockRef = 0
        /// Leaf: the entry's weight (1 when unweighted); inner: the child subtree's weight.
        var weight: UInt64

        var encodedValueSize: Int { kind == .inline ? Int(valueLength) : 8 }
    }

    let isLeaf: Bool
    let weighted: Bool
    // Read by every key comparison of a descent and written by every change: the node belongs
    // to one transaction (one thread) and is never accessed overlapping, so without the
    // runtime's exclusivity bookkeeping.
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    @exclusivity(unchecked) var children: [Child] = []     // inner
    @exclusivity(unchecked) var payloadBytes: Int = NodeFormat.headerBytes
    /// Key and inline-value bytes (`used` of `capacity`; nil while empty).
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var capacity = 0
    @exclusivity(unchecked) private var used = 0

    init(isLeaf: Bool, weighted: Bool) { self.isLeaf = isLeaf; self.weighted = weighted }
    deinit { buffer?.deallocate() }

    var count: Int { entries.count }
    var totalWeight: UInt64 { var w: UInt64 = 0; for e in entries { w &+= e.weight }; return w }
    var blockBytes: Int { BlockHeader.roundUp(BlockHeader.size + payloadBytes) }

    // MARK: reading

    /// The key of entry `i`, in place: valid until this node next changes.
    @inline(__always) func keyBytes(_ i: Int) -> UnsafeRawBufferPointer {
        let e = entries[i]
        return UnsafeRawBufferPointer(start: buffer.map { UnsafeRawPointer($0) + Int(e.keyOffset) }, count: Int(e.keyLength))
    }
    /// A copy of the key of entry `i`.
    func key(_ i: Int) -> [UInt8] { Array(keyBytes(i)) }
    /// Every key (copies; for checks and tests).
    var keys: [[UInt8]] { (0..<count).map { key($0) } }
    func weight(_ i: Int) -> UInt64 { entries[i].weight }
    func setWeight(_ i: Int, _ w: UInt64) { entries[i].weight = w }
    /// The value of leaf entry `i`.
    func value(_ i: Int) -> TreeValue {
        let e = entries[i]
        switch e.kind {
        case .inline:
            guard e.valueLength > 0, let b = buffer else { return .inline([]) }
            return .inline(Array(UnsafeRawBufferPointer(start: b + Int(e.valueOffset), count: Int(e.valueLength))))
        case .largeBlob: return .largeBlob(e.ref, length: Int(e.valueLength))
        case .owned: return .owned(e.ref)
        }
    }
    /// Every leaf value (copies; for checks and tests).
    var values: [TreeValue] { (0..<count).map { value($0) } }
    /// The block a leaf entry's value owns (large value or owned block), if any.
    func ownedRef(_ i: Int) -> BlockRef? { entries[i].kind == .inline ? nil : entries[i].ref }
    /// Points the large value or owned block of leaf entry `i` at `ref` (relocation).
    func setValueRef(_ i: Int, _ ref: BlockRef) {
        precondition(entries[i].kind != .inline, "an inline value has no block")
        entries[i].ref = ref
    }

    // MARK: buffer

    /// Makes room for `n` more bytes, compacting the live bytes into a new buffer when full.
    private func reserve(_ n: Int) {
        if used + n <= capacity { return }
        let (nb, cap, o) = Self.pack(&entries, from: buffer, extra: n)
        buffer?.deallocate()
        buffer = nb; capacity = cap; used = o
    }

    /// Bytes of the keys and inline values `es` refer to.
    private static func liveBytes(_ es: [Entry]) -> Int {
        var live = 0
        for e in es { live += Int(e.keyLength) + (e.kind == .inline ? Int(e.valueLength) : 0) }
        return live
    }

    /// Copies the keys and inline values `es` refer to (in `src`) into a new buffer with room for
    /// `extra` more bytes, and points `es` at the copies. Returns the buffer, its capacity and the
    /// bytes used.
    private static func pack(_ es: inout [Entry], from src: UnsafeMutableRawPointer?, extra: Int)
        -> (UnsafeMutableRawPointer, Int, Int) {
        let cap = max(256, 2 * (liveBytes(es) + extra))
        let nb = UnsafeMutableRawPointer.allocate(byteCount: cap, alignment: 8)
        var o = 0
        if let src {
            for i in es.indices {
                let kl = Int(es[i].keyLength)
                if kl > 0 { memcpy(nb + o, src + Int(es[i].keyOffset), kl) }
                es[i].keyOffset = Int32(o); o += kl
                if es[i].kind == .inline {
                    let vl = Int(es[i].valueLength)
                    if vl > 0 { memcpy(nb + o, src + Int(es[i].valueOffset), vl) }
                    es[i].valueOffset = Int32(o); o += vl
                }
            }
        }
        return (nb, cap, o)
    }

    /// Appends `bytes` to the buffer (room reserved) and returns their offset.
    private func append(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let o = used
        if bytes.count > 0 { memcpy(buffer! + o, bytes.baseAddress!, bytes.count) }
        used += bytes.count
        return Int32(o)
    }

    /// An entry for `key` and `value`, their bytes appended to the buffer.
    private func makeEntry(key: UnsafeRawBufferPointer, value: TreeValue?, weight: UInt64) -> Entry {
        var inlineCount = 0
        if case .inline(let b)? = value { inlineCount = b.count }
        reserve(key.count + inlineCount)
        var e = Entry(keyOffset: append(key), keyLength: Int32(key.count), weight: weight)
        switch value {
        case nil: break
        case .inline(let b)?:
            e.valueOffset = b.withUnsafeBytes { append($0) }
            e.valueLength = UInt32(b.count)
        case .largeBlob(let r, let len)?: e.kind = .largeBlob; e.ref = r; e.valueLength = UInt32(len)
        case .owned(let r)?: e.kind = .owned; e.ref = r
        }
        return e
    }

    // MARK: changing

    /// Inserts a leaf entry at `i`.
    func insertLeaf(at i: Int, key: [UInt8], value: TreeValue, weight: UInt64) {
        let e = key.withUnsafeBytes { makeEntry(key: $0, value: value, weight: weight) }
        entries.insert(e, at: i)
        payloadBytes += leafEntryBytes(e)
    }

    /// Replaces the value and weight of leaf entry `i`.
    func replaceValue(_ i: Int, _ value: TreeValue, weight: UInt64) {
        if case .inline(let b) = value { reserve(b.count) }   // may move every entry's bytes
        let oldSize = entries[i].encodedValueSize
        var e = entries[i]
        switch value {
        case .inline(let b):
            e.valueOffset = b.withUnsafeBytes { append($0) }
            e.valueLength = UInt32(b.count); e.kind = .inline; e.ref = 0
        case .largeBlob(let r, let len): e.kind = .largeBlob; e.ref = r; e.valueLength = UInt32(len)
        case .owned(let r): e.kind = .owned; e.ref = r; e.valueLength = 0
        }
        e.weight = weight
        payloadBytes += e.encodedValueSize - oldSize
        entries[i] = e
    }

    /// Inserts an inner entry at `i`.
    func insertInner(at i: Int, key: UnsafeRawBufferPointer, child: Child, weight: UInt64) {
        entries.insert(makeEntry(key: key, value: nil, weight: weight), at: i)
        children.insert(child, at: i)
        payloadBytes += Self.innerEntryBytes(keyCount: key.count)
    }

    /// Replaces the key of entry `i` (an inner node's separator).
    func setKey(_ i: Int, _ key: UnsafeRawBufferPointer) {
        let old = Int(entries[i].keyLength)
        reserve(key.count)
        entries[i].keyOffset = append(key)
        entries[i].keyLength = Int32(key.count)
        payloadBytes += key.count - old
    }

    /// Removes entry `i`.
    func remove(at i: Int) {
        let e = entries.remove(at: i)
        if isLeaf { payloadBytes -= leafEntryBytes(e) }
        else { children.remove(at: i); payloadBytes -= Self.innerEntryBytes(keyCount: Int(e.keyLength)) }
    }

    /// Appends every entry of `other` (a merge of two neighbours).
    func append(contentsOf other: DirtyNode) {
        reserve(Self.liveBytes(other.entries))
        for j in 0..<other.count {
            var e = other.entries[j]
            e.keyOffset = append(other.keyBytes(j))
            if e.kind == .inline, e.valueLength > 0, let b = other.buffer {
                e.valueOffset = append(UnsafeRawBufferPointer(start: b + Int(e.valueOffset), count: Int(e.valueLength)))
            }
            entries.append(e)
        }
        if !isLeaf { children += other.children }
        recomputeSize()
    }

    // MARK: sizes

    func leafEntryBytes(_ e: Entry) -> Int {
        4 + NodeFormat.leafEntryFixed + (weighted ? 8 : 0) + Int(e.keyLength) + e.encodedValueSize
    }
    static func innerEntryBytes(keyCount: Int) -> Int { NodeFormat.innerEntryFixed + keyCount }

    func recomputeSize() {
        var s = NodeFormat.headerBytes
        if isLeaf { for e in entries { s += leafEntryBytes(e) } }
        else { for e in entries { s += Self.innerEntryBytes(keyCount: Int(e.keyLength)) } }
        payloadBytes = s
    }

    // MARK: decoding and encoding

    static func decode(_ n: StoredNode, path: String) throws -> DirtyNode {
        let d = DirtyNode(isLeaf: n.isLeaf, weighted: n.weighted)
        // The payload is copied whole: entry offsets into it are offsets into the buffer.
        let size = n.size
        let b = UnsafeMutableRawPointer.allocate(byteCount: max(size, 8) + 256, alignment: 8)
        memcpy(b, n.p, size)
        d.buffer = b; d.capacity = max(size, 8) + 256; d.used = size
        var entries: [Entry] = []
        entries.reserveCapacity(n.count + 1)
        if !n.isLeaf { d.children.reserveCapacity(n.count + 1) }   // appended below, one per entry
        var total = NodeFormat.headerBytes
        let base = UnsafeRawPointer(n.p)
        do {
            var previous: UnsafeRawBufferPointer?
            for i in 0..<n.count {
                let stored = try n.key(i)
                if let previous, compareBytes(previous, stored) >= 0 { throw StoredNode.Bad() }
                previous = stored
                var e = Entry(keyOffset: Int32(stored.baseAddress! - base), keyLength: Int32(stored.count), weight: 1)
                if n.isLeaf {
                    let (kind, bytes) = try n.leafValue(i)
                    e.kind = kind
                    switch kind {
                    case .inline: e.valueOffset = Int32(bytes.baseAddress! - base); e.valueLength = UInt32(bytes.count)
                    case .largeBlob:
                        e.ref = bytes.baseAddress!.getLE(0, as: UInt64.self)
                        e.valueLength = n.p.getLE(try n.entryOffset(i) + 4, as: UInt32.self)
                    case .owned: e.ref = bytes.baseAddress!.getLE(0, as: UInt64.self)
                    }
                    e.weight = try n.leafWeight(i)
                    total += d.leafEntryBytes(e)
                } else {
                    e.weight = n.childWeight(i)
                    total += Self.innerEntryBytes(keyCount: stored.count)
                    d.children.append(.stored(n.child(i)))
                }
                entries.append(e)
            }
        } catch is StoredNode.Bad {
            throw StorageError.corrupted(path: path, detail: "tree node \(n.view.ref) is malformed")
        }
        d.entries = entries
        d.payloadBytes = total
        return d
    }

    /// Encodes this node (children must already have refs) into `out` (payload area).
    func encode(into out: UnsafeMutableRawPointer) {
        let n = entries.count
        out.putLE(UInt32(n), at: 0)
        out.putLE(UInt32(weighted ? 1 : 0), at: 4)
        let src = UnsafeRawPointer(buffer)
        entries.withUnsafeBufferPointer { es in
            if isLeaf {
                var o = 8 + 4 * n
                for i in 0..<n {
                    let e = es[i]
                    out.putLE(UInt32(o), at: 8 + 4 * i)
                    let kl = Int(e.keyLength)
                    out.putLE(UInt16(kl), at: o)
                    out.storeBytes(of: e.kind.rawValue, toByteOffset: o + 2, as: UInt8.self)
                    out.storeBytes(of: UInt8(0), toByteOffset: o + 3, as: UInt8.self)
                    out.putLE(UInt32(e.kind == .owned ? 8 : Int(e.valueLength)), at: o + 4)
                    o += NodeFormat.leafEntryFixed
                    if weighted { out.putLE(e.weight, at: o); o += 8 }
                    if kl > 0 { memcpy(out + o, src! + Int(e.keyOffset), kl) }
                    o += kl
                    if e.kind == .inline {
                        let vl = Int(e.valueLength)
                        if vl > 0 { memcpy(out + o, src! + Int(e.valueOffset), vl) }
                        o += vl
                    } else {
                        out.putLE(e.ref, at: o); o += 8
                    }
                }
            } else {
                var ko = 8 + NodeFormat.innerEntryFixed * n
                for i in 0..<n {
                    let e = es[i]
                    let at = 8 + NodeFormat.innerEntryFixed * i
                    guard case .stored(let r) = children[i] else { preconditionFailure("inner node encoded before its children") }
                    let kl = Int(e.keyLength)
                    out.putLE(r, at: at); out.putLE(e.weight, at: at + 8)
                    out.putLE(UInt32(ko), at: at + 16); out.putLE(UInt32(kl), at: at + 20)
                    if kl > 0 { memcpy(out + ko, src! + Int(e.keyOffset), kl) }
                    ko += kl
                }
            }
        }
    }

    /// A new node holding entries `range` of this one (bytes compacted into its own buffer).
    private func copy(_ range: Range<Int>) -> DirtyNode {
        let d = DirtyNode(isLeaf: isLeaf, weighted: weighted)
        d.entries = Array(entries[range])
        if !isLeaf { d.children = Array(children[range]) }
        (d.buffer, d.capacity, d.used) = Self.pack(&d.entries, from: buffer, extra: 0)
        d.recomputeSize()
        return d
    }

    /// Splits off the upper part into a new node and returns it. `appending` packs the left node
    /// full (sequential inserts leave dense nodes, as SQLite does for rowid appends).
    func split(appending: Bool) -> DirtyNode {
        var at: Int
        let n = entries.count
        if appending {
            at = n - 1
        } else {
            // Split at half of the bytes.
            var acc = NodeFormat.headerBytes
            at = 0
            while at < n - 1 {
                acc += isLeaf ? leafEntryBytes(entries[at]) : Self.innerEntryBytes(keyCount: Int(entries[at].keyLength))
                at += 1
                if acc >= payloadBytes / 2 { break }
            }
        }
        at = max(1, min(at, n - 1))
        let right = copy(at..<n)
        entries.removeSubrange(at...)
        if !isLeaf { children.removeSubrange(at...) }
        recomputeSize()
        return right
    }
}
