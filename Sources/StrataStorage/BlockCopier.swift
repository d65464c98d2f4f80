#if canImport(Glibc)
import Glibc
#endif

/// Where copied blocks go. Full compaction and `writeCopy` append them densely to a new file
/// (`DenseBlockWriter`); online and automatic compaction allocate them below a limit inside an
/// ordinary write transaction (`TransactionBlockSink`).
protocol BlockSink {
    /// Places a block of `kind` with `payloadSize` payload bytes, lets `fill` write the payload,
    /// stamps the header (length, kind, the sink's birth version, checksum) and returns its ref.
    mutating func place(kind: UInt8, payloadSize: Int, fill: (UnsafeMutableRawPointer) -> Void) throws -> BlockRef
    /// Called after a block was copied elsewhere: the old block is no longer reachable from the
    /// version being built (relocation frees it with its birth version; a new file ignores it).
    mutating func retire(_ old: BlockRef) throws
}

/// Copies the block graph of one version: catalog tree → named trees → leaf values
/// (`.largeBlob` / `.owned`) → refs of generic blocks, recursively. Each block that moves is
/// copied byte for byte with its ref fields rewritten; its header gets the sink's birth version
/// and a new checksum. Children are copied before their parent (post-order), so a parent is
/// written once, with its final child refs, and a dense copy keeps the leaves of a tree in key
/// order next to each other.
///
/// Which blocks move is the caller's choice (`shouldMove`): everything for a full copy; only
/// blocks lying above a target offset for relocation. A block that does not move itself still
/// moves (is copied) when one of its children moved, because its ref fields change: that is the
/// copy-on-write of the path up to the root.
struct BlockCopier<Sink: BlockSink> {
    var sink: Sink
    /// A bounds-checked view of a block of the source version.
    let source: (BlockRef) throws -> BlockView
    /// Whether the block at `ref` (of `length` bytes, born at `birth`) must be copied.
    let shouldMove: (_ ref: BlockRef, _ length: Int, _ birth: UInt64) -> Bool
    let path: String
    /// Bytes of blocks copied so far.
    var bytesCopied: UInt64 = 0
    /// Blocks visited so far (moved or not).
    var blocksVisited = 0
    /// Called after each block copied (progress reporting).
    var onCopied: ((UInt64) -> Void)?
    /// Encrypted sources: the arena `source` fills. A block's decrypted pages are needed only
    /// while `copy` of that block runs, so each call releases what it (and its children)
    /// acquired: a copy holds the pages of one root-to-leaf path, not of the whole version.
    var scopedArena: PageArena?

    init(sink: Sink, path: String, source: @escaping (BlockRef) throws -> BlockView,
         shouldMove: @escaping (_ ref: BlockRef, _ length: Int, _ birth: UInt64) -> Bool) {
        self.sink = sink; self.path = path; self.source = source; self.shouldMove = shouldMove
    }

    private func corrupt(_ detail: String) -> StorageError { .corrupted(path: path, detail: detail) }

    /// One ref field inside a block: its byte offset in the payload, the block it points to,
    /// and whether that block is the root of a named tree (a catalog entry's value).
    private struct RefField { var offset: Int; var ref: BlockRef }

    /// Copies the subtree at `ref` where needed. Returns the ref of the block the parent must
    /// now point to (`ref` itself when nothing in the subtree moved).
    /// `catalog` is true for nodes of the catalog tree, whose inline values hold tree roots.
    mutating func copy(_ ref: BlockRef, catalog: Bool = false, depth: Int = 0) throws -> BlockRef {
        guard depth < 128 else { throw corrupt("blocks nested deeper than 128 levels below \(ref) (a cycle?)") }
        let mark = scopedArena?.mark()
        defer { if let mark { scopedArena?.release(to: mark) } }
        let v = try source(ref)
        blocksVisited += 1
        var fields: [RefField] = []
        switch v.kindByte {
        case BlockKind.leaf.rawValue, BlockKind.inner.rawValue:
            let n = try StoredNode(v, path: path)
            let payloadBase = v.payload.baseAddress!
            fields.reserveCapacity(n.count)
            for i in 0..<n.count {
                if !n.isLeaf {
                    fields.append(RefField(offset: 8 + NodeFormat.innerEntryFixed * i, ref: n.child(i)))
                    continue
                }
                let value: (kind: NodeFormat.ValueKind, bytes: UnsafeRawBufferPointer)
                do { value = try n.leafValue(i) } catch { throw corrupt("tree node \(ref) is malformed") }
                switch value.kind {
                case .largeBlob, .owned:
                    fields.append(RefField(offset: value.bytes.baseAddress! - payloadBase, ref: value.bytes.baseAddress!.getLE(0, as: UInt64.self)))
                case .inline where catalog:
                    guard value.bytes.count == 16 else { throw corrupt("catalog entry in node \(ref) is malformed") }
                    let root = value.bytes.baseAddress!.getLE(0, as: UInt64.self)
                    if root != 0 { fields.append(RefField(offset: value.bytes.baseAddress! - payloadBase, ref: root)) }
                case .inline: break
                }
            }
            // Children of inner catalog nodes are catalog nodes; values of catalog leaves are
            // roots of ordinary trees.
            let childCatalog = catalog && !n.isLeaf
            for i in 0..<fields.count {
                let newRef = try copy(fields[i].ref, catalog: childCatalog, depth: depth + 1)
                fields[i].ref = newRef == fields[i].ref ? 0 : newRef   // 0: unchanged
            }
        case BlockKind.generic.rawValue...:
            let g: GenericBlock
            do { g = try GenericBlock(v) } catch { throw corrupt("data block \(ref) is malformed") }
            for i in 0..<g.refCount where g.ref(i) != 0 {
                let old = g.ref(i)
                let newRef = try copy(old, depth: depth + 1)
                if newRef != old { fields.append(RefField(offset: 8 + 8 * i, ref: newRef)) }
            }
        default:
            throw corrupt("block \(ref) of kind \(v.kindByte) is not part of the data graph")
        }
        fields.removeAll { $0.ref == 0 }
        guard !fields.isEmpty || shouldMove(ref, v.length, v.birth) else { return ref }
        let payload = v.payload
        let newRef = try sink.place(kind: v.kindByte, payloadSize: payload.count) { p in
            memcpy(p, payload.baseAddress!, payload.count)
            for f in fields { p.putLE(f.ref, at: f.offset) }
        }
        try sink.retire(ref)
        bytesCopied += UInt64(v.length)
        onCopied?(bytesCopied)
        return newRef
    }
}

/// A sink that writes blocks one after another from `MetaSlot.dataStart`, through a large
/// buffer, into a `FileIO` (the output of full compaction and `writeCopy`). Every byte goes
/// through `output.write(_:at:)`, so an encryption layer can wrap the output file.
struct DenseBlockWriter: BlockSink {
    let output: FileIO
    let birth: UInt64
    /// The next free offset: the logical size of the copy once done.
    private(set) var end: UInt64 = MetaSlot.dataStart
    private let buffer: UnsafeMutableRawPointer
    private let capacity: Int
    private var used = 0
    private var bufferStart: UInt64 = MetaSlot.dataStart

    init(output: FileIO, birth: UInt64, bufferSize: Int = 1 << 20) {
        self.output = output; self.birth = birth
        capacity = bufferSize
        buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 8)
    }

    /// Releases the buffer (call once, after `flush`).
    func deallocate() { buffer.deallocate() }

    mutating func place(kind: UInt8, payloadSize: Int, fill: (UnsafeMutableRawPointer) -> Void) throws -> BlockRef {
        let length = BlockHeader.roundUp(BlockHeader.size + payloadSize)
        let ref = end
        if length > capacity {
            try flush()
            let big = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 8)
            defer { big.deallocate() }
            memset(big + length - 8, 0, 8)
            fill(big + BlockHeader.size)
            BlockHeader.write(into: big, length: length, kind: kind, birth: birth)
            try output.write(UnsafeRawBufferPointer(start: big, count: length), at: ref)
            end += UInt64(length)
            bufferStart = end
            return ref
        }
        if used + length > capacity { try flush() }
        let p = buffer + used
        memset(p + length - 8, 0, 8)
        fill(p + BlockHeader.size)
        BlockHeader.write(into: p, length: length, kind: kind, birth: birth)
        used += length
        end += UInt64(length)
        return ref
    }

    mutating func retire(_ old: BlockRef) throws {}

    /// Writes what the buffer holds.
    mutating func flush() throws {
        if used > 0 {
            try output.write(UnsafeRawBufferPointer(start: buffer, count: used), at: bufferStart)
            // The disk starts on this part while the next is copied; the final sync waits less.
            output.startWriteback(offset: bufferStart, length: UInt64(used))
        }
        used = 0
        bufferStart = end
    }
}

/// A sink that relocates blocks inside a write transaction: new blocks are allocated by the
/// transaction's allocator (below its `limit` when space allows) and old blocks are freed with
/// their birth version, exactly as any copy-on-write change frees them.
struct TransactionBlockSink: BlockSink {
    let txn: WriteTransaction
    mutating func place(kind: UInt8, payloadSize: Int, fill: (UnsafeMutableRawPointer) -> Void) throws -> BlockRef {
        try txn.writeBlock(kind: kind, payloadSize: payloadSize, fill: fill)
    }
    mutating func retire(_ old: BlockRef) throws { try txn.release(old) }
}
