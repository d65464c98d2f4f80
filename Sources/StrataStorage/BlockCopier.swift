#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// Where copied blocks go. Full compaction and `writeCopy` append them densely to a new file
/// (`DenseBlockWriter`); online and automatic compaction allocate them below a limit inside an
/// ordinary write transaction (`TransactionBlockSink`).
protocol BlockSink {
    /// Places a block of `kind` with `payloadSize` payload bytes, lets `fill` write the payload,
    /// stamps the header (length, kind, the sink's birth version, checksum) and returns its ref.
    mutating func place(kind: UInt8, payloadSize: Int, fill: (UnsafeMutableRawPointer) -> Void) throws -> BlockRef
    /// Places a copy of a block whose bytes do not change (no ref field moved). A new file may
    /// take it whole, header included (birth and checksum stay valid: nothing else needs the
    /// new birth there); a transaction re-stamps it like any block it writes.
    mutating func placeUnchanged(_ v: BlockView) throws -> BlockRef
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
        let newRef: BlockRef
        if fields.isEmpty {
            newRef = try sink.placeUnchanged(v)
        } else {
            newRef = try sink.place(kind: v.kindByte, payloadSize: payload.count) { p in
                memcpy(p, payload.baseAddress!, payload.count)
                for f in fields { p.putLE(f.ref, at: f.offset) }
            }
        }
        try sink.retire(ref)
        bytesCopied += UInt64(v.length)
        onCopied?(bytesCopied)
        return newRef
    }
}

/// A sink that writes blocks one after another from `MetaSlot.dataStart` into a `FileIO` (the
/// output of full compaction and `writeCopy`). Every byte goes through `output.write`, so an
/// encryption layer can wrap the output file.
///
/// The output is written in chunks of about `bufferSize` bytes by a background thread while the
/// copy goes on (the kernel's copy into the page cache, and for encrypted output the
/// encryption, overlap the reading and verifying of the next blocks). A chunk is a gathered
/// write: blocks whose ref fields changed are stamped into one of two buffers; blocks copied
/// whole are written straight from the source when `sourceIsStable` (a mapping of a pinned
/// version, which nothing modifies), else copied into the buffer too. Calls on `output` never
/// overlap: one chunk is in flight at a time, and direct writes wait for it.
struct DenseBlockWriter: BlockSink {
    let output: FileIO
    let birth: UInt64
    /// Blocks handed to `placeUnchanged` stay readable, unchanged, until the copy ends.
    let sourceIsStable: Bool
    /// The next free offset: the logical size of the copy once done.
    private(set) var end: UInt64 = MetaSlot.dataStart
    private var buffer: UnsafeMutableRawPointer
    private var spare: UnsafeMutableRawPointer
    private let capacity: Int
    private var used = 0
    /// The current chunk: consecutive byte ranges (in the buffer or the source), adjacent
    /// ranges merged; it starts at `bufferStart` in the output.
    private var parts: [UnsafeRawBufferPointer] = []
    private var chunkBytes = 0
    private var bufferStart: UInt64 = MetaSlot.dataStart
    private let background = BackgroundWriter()

    init(output: FileIO, birth: UInt64, sourceIsStable: Bool = false, bufferSize: Int = 1 << 20) {
        self.output = output; self.birth = birth; self.sourceIsStable = sourceIsStable
        capacity = bufferSize
        buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 8)
        spare = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 8)
    }

    /// Waits for the background write, then releases the buffers (call once, after `flush`, or
    /// after a failure: nothing is written to `output` afterwards).
    func deallocate() {
        _ = try? background.wait()
        buffer.deallocate(); spare.deallocate()
    }

    /// Adds `count` bytes at `p` to the current chunk.
    private mutating func append(_ p: UnsafeRawPointer, _ count: Int) {
        if let last = parts.last, last.baseAddress! + last.count == p {
            parts[parts.count - 1] = UnsafeRawBufferPointer(start: last.baseAddress, count: last.count + count)
        } else {
            parts.append(UnsafeRawBufferPointer(start: p, count: count))
        }
        chunkBytes += count
        end += UInt64(count)
    }

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
        if used + length > capacity || chunkBytes >= capacity { try submit() }
        let p = buffer + used
        memset(p + length - 8, 0, 8)
        fill(p + BlockHeader.size)
        BlockHeader.write(into: p, length: length, kind: kind, birth: birth)
        used += length
        append(p, length)
        return ref
    }

    /// The block's bytes as they are (its birth and checksum stay valid in the new file): the
    /// checksum, already verified on reading, is not computed again.
    mutating func placeUnchanged(_ v: BlockView) throws -> BlockRef {
        let ref = end
        if sourceIsStable {
            if chunkBytes >= capacity { try submit() }
            append(v.base, v.length)
            return ref
        }
        if v.length > capacity {
            try flush()
            try output.write(UnsafeRawBufferPointer(start: v.base, count: v.length), at: ref)
            end += UInt64(v.length)
            bufferStart = end
            return ref
        }
        if used + v.length > capacity || chunkBytes >= capacity { try submit() }
        memcpy(buffer + used, v.base, v.length)
        append(buffer + used, v.length)
        used += v.length
        return ref
    }

    mutating func retire(_ old: BlockRef) throws {}

    /// Hands the current chunk to the background writer (after the previous one is written)
    /// and continues in the other buffer.
    private mutating func submit() throws {
        try background.wait()
        if chunkBytes > 0 {
            background.run(BackgroundWriter.Job(output: output, parts: parts, at: bufferStart, count: chunkBytes))
            swap(&buffer, &spare)
        }
        parts.removeAll(keepingCapacity: true)
        used = 0
        chunkBytes = 0
        bufferStart = end
    }

    /// Writes what is pending and waits until it is written.
    mutating func flush() throws {
        try submit()
        try background.wait()
    }
}

/// One write at a time on a background queue; `wait` returns when it is done and rethrows its
/// error (the first one is kept: later writes do not run once one failed).
final class BackgroundWriter: @unchecked Sendable {
    private let queue = DispatchQueue(label: "strata.dense-copy.writer")
    private let idle = DispatchSemaphore(value: 1)
    private var failure: Error?

    /// A buffer to write (owned by the writer until `wait` returns).
    struct Job: @unchecked Sendable {
        let output: FileIO
        let parts: [UnsafeRawBufferPointer]
        let at: UInt64
        let count: Int
    }

    func run(_ job: Job) {
        idle.wait()
        queue.async { [self] in
            if failure == nil {
                do {
                    try job.output.write(parts: job.parts, at: job.at)
                    // The disk starts on this part while the next is copied; the final sync waits less.
                    job.output.startWriteback(offset: job.at, length: UInt64(job.count))
                } catch { failure = error }
            }
            idle.signal()
        }
    }

    func wait() throws {
        idle.wait()
        let f = failure
        idle.signal()
        if let f { throw f }
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
    mutating func placeUnchanged(_ v: BlockView) throws -> BlockRef {
        let payload = v.payload
        return try place(kind: v.kindByte, payloadSize: payload.count) { memcpy($0, payload.baseAddress!, payload.count) }
    }
    mutating func retire(_ old: BlockRef) throws { try txn.release(old) }
}
