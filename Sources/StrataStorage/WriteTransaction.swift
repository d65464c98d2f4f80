#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The single write transaction (across threads and processes) that creates the next version.
///
/// Commit protocol (see docs/FORMAT.md): write every new block (never over a block that a
/// committed version still uses) → fdatasync → write the meta slot of the new version (the
/// slot not holding the newest durable version) → fdatasync → publish in the lock file.
/// A small commit syncs once instead: blocks, then the meta slot listing the runs it wrote with
/// their checksum → fdatasync (a slot whose runs do not match is not a version). A failure at any step rolls back: the file stays at the previous version.
public final class WriteTransaction: Transaction {
    package let base: MetaSlot
    // The hot state below is touched by every block read and write of the transaction, which
    // belongs to one thread and never accesses it overlapping: plain loads and stores, without
    // the runtime's exclusivity bookkeeping.
    @exclusivity(unchecked) var alloc: SpaceAllocator
    let label: String
    /// Live reader versions seen when the transaction began (sorted).
    public let readerVersions: [UInt64]

    // Staging: a contiguous run of new blocks, written with one pwrite.
    @exclusivity(unchecked) private var staging: UnsafeMutableRawPointer
    /// Set once the staging buffer went back to the store (the transaction ended).
    private var stagingReturned = false
    static let stagingCapacity = 4 << 20
    private var stagingCapacity: Int { Self.stagingCapacity }
    @exclusivity(unchecked) private var stagingStart: UInt64 = 0
    @exclusivity(unchecked) private var stagingCount = 0
    /// Bytes of blocks written by this transaction so far.
    @exclusivity(unchecked) public private(set) var bytesWritten = 0
    /// The byte runs written so far, in write order (merged when contiguous).
    @exclusivity(unchecked) private var writtenRuns: [ByteRun] = []
    /// The blocks written so far and their headers (offset, first and second 8 header bytes):
    /// recorded as verified once the commit is durable (`BlockVerdicts.recordWritten`).
    @exclusivity(unchecked) private var writtenHeaders: [(ref: BlockRef, h0: UInt64, h8: UInt64)] = []

    private func noteHeader(_ ref: BlockRef, _ p: UnsafeRawPointer) {
        writtenHeaders.append((ref, p.loadUnaligned(fromByteOffset: 0, as: UInt64.self), p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }
    /// A commit that wrote at most this many bytes (and at most `MetaSlot.maxUnsyncedRuns` runs)
    /// syncs once: opening checks its runs, so the bound keeps that check cheap.
    static let oneSyncLimit = 256 << 10
    /// Bytes the layer above announced it writes at commit (`expectWrites`), nil when it did not.
    private var expectedBytes: Int?

    /// The layer above tells how many bytes of blocks it is about to write for this commit (its
    /// changed data, before the trees, the history and the free list are written). The
    /// allocator then looks for one free extent that holds the whole commit — those bytes plus
    /// what this handle's recent commits wrote besides their announced bytes — so that a small
    /// commit is one contiguous run (and its sync touches the run and the meta slot only).
    package func expectWrites(bytes: Int) {
        expectedBytes = bytes
        let rest = store.recentCommitOverheads.max() ?? 0
        let estimate = UInt64(bytes + rest)
        guard estimate > 0, estimate <= UInt64(Self.oneSyncLimit) else { return }
        alloc.regionHint = (estimate + estimate / 8 + 4095) & ~4095
    }

    /// Optional description of the commit recorded in the history (what changed).
    public var note: [UInt8] = []
    /// A read transaction of this handle whose reader slot a successful commit hands to
    /// `continuedRead`, a read transaction of the version the commit created, while it still
    /// holds the writer lock (that version is then the newest, so the pin needs no re-check):
    /// the caller goes on reading exactly what it committed without looking up the newest
    /// version or claiming a slot (realm-core's commit-and-continue-as-read). `continuing` is
    /// ended by the hand-over; a failed commit leaves it as it was.
    package var continuing: ReadTransaction?
    /// See `continuing`; nil when the commit failed or `continuing` held no reader slot.
    package private(set) var continuedRead: ReadTransaction?
    /// Asked once the commit is published: false when no observer of this handle
    /// (`Store.addCommitObserver`) needs to hear of this commit now, because the committer
    /// tells everyone who does itself. This handle's watcher thread is then not woken (other
    /// handles and processes are, as always); its observers see the version at their next
    /// wake-up. Nil: they are woken.
    package var ownObserversNeedCommit: (() -> Bool)?
    /// The free list of `base` (full list or delta): the commit writes a delta over the same
    /// base when few entries changed (FreeListDelta.swift).
    private var storedList: FreeListCodec.State?
    /// Set when this commit moved blocks for compaction: it writes a full free list (a delta's
    /// base is not part of the block graph, so it must not stay behind in the space compaction
    /// empties).
    var relocatedBlocks = false
    /// Set by online compaction on its batches: no automatic step, and the commit truncates the
    /// file to its logical size (OnlineCompaction.swift).
    var isRelocationBatch = false { didSet { if isRelocationBatch { alloc.firstFitOnly = true } } }

    init(store: Store, label: String) throws {
        self.label = label
        // The writer lock was just taken (checking the lock file's size) and the file's size
        // read (`beginWrite`): neither is read again.
        base = try store.newestMeta(fileSize: store.knownFileSize, lockChecked: true)
        readerVersions = store.lock?.liveReaderVersions(sizeChecked: true) ?? []
        if let cached = store.committedFreeList, cached.version == base.version, cached.ref == base.freeListRef {
            storedList = cached.list
        } else if base.freeListRef != 0 {
            let scratch = PageArena()
            let (limit, path) = (base.logicalSize, store.path)
            storedList = FreeListCodec.State(try FreeListCodec.load(base.freeListRef, logicalSize: limit, path: path) { r in
                try store.blockView(r, limit: limit, arena: scratch, writer: true)
            })
        }
        alloc = SpaceAllocator(reusable: storedList?.reusable ?? [], held: storedList?.held ?? [], readers: readerVersions,
                               logicalSize: base.logicalSize, newVersion: base.version + 1, wholePages: store.crypto != nil)
        // Commits of a handle tend to be alike: look for room for one like the largest of the
        // last few, whole (`expectWrites` refines this when the layer above knows more).
        let last = UInt64(store.recentCommitBytes.max() ?? 0)
        if last > 0 && last <= UInt64(Self.oneSyncLimit) { alloc.regionHint = (last + last / 4 + 4095) & ~4095 }
        staging = store.takeStagingBuffer()
        super.init(store: store)
        catalogState = TreeState(name: "", root: base.catalogRef, weighted: false)
    }

    deinit {
        if !ended { ended = true; returnStaging(); store.endWrite() }
        if !stagingReturned { staging.deallocate() }
    }

    private func returnStaging() {
        guard !stagingReturned else { return }
        stagingReturned = true
        store.returnStagingBuffer(staging)
    }

    public override var version: UInt64 { base.version + 1 }
    override var isWritable: Bool { true }

    /// The end of the allocated area as this transaction has it now.
    public var logicalSize: UInt64 { alloc.logicalSize }

    override func block(_ ref: BlockRef) throws -> BlockView {
        if ended { throw StorageError.transactionEnded }
        if stagingCount > 0 && ref >= stagingStart && ref < stagingStart + UInt64(stagingCount) { try flushStaging() }
        return try store.blockView(ref, limit: alloc.logicalSize, arena: arena, writer: true, verify: verifiesChecksums)
    }

    override func release(_ ref: BlockRef) throws {
        let v = try block(ref)
        // A block born at this version was written by this transaction, so it lies in space
        // this transaction allocated: one in free space (or born later) was reached through
        // damage (a version's refs into the blocks of a commit that was cut short).
        if v.birth > version || (v.birth == version && alloc.overlapsFreeSpace(offset: ref, length: UInt64(v.length))) {
            throw StorageError.corrupted(path: path, detail: "block at offset \(ref) (\(v.length) bytes, written by version \(v.birth)) is reached from version \(base.version) but lies in its free space; nothing was written")
        }
        if v.birth == version { alloc.releaseUnseen(offset: ref, length: UInt64(v.length)) }
        else { alloc.releaseVisible(offset: ref, length: UInt64(v.length), birth: v.birth) }
    }

    override func releaseSubtree(_ ref: BlockRef) throws {
        var stack = [ref]
        var guardCount = 0
        while let r = stack.popLast() {
            guardCount += 1
            if guardCount > 100_000_000 { throw StorageError.corrupted(path: path, detail: "cycle among blocks") }
            let v = try block(r)
            switch v.kindByte {
            case BlockKind.leaf.rawValue, BlockKind.inner.rawValue:
                let n = try StoredNode(v, path: path)
                for i in 0..<n.count {
                    if n.isLeaf {
                        if let owned = (try? n.leafTreeValue(i))?.ownedRef { stack.append(owned) }
                    } else { stack.append(n.child(i)) }
                }
            case BlockKind.generic.rawValue...:
                let g = try genericBlock(r)
                for i in 0..<g.refCount where g.ref(i) != 0 { stack.append(g.ref(i)) }
            default: break
            }
            try release(r)
        }
    }

    override func writeBlock(kind: UInt8, payloadSize: Int, fill: (UnsafeMutableRawPointer) -> Void) throws -> BlockRef {
        try checkOpen()
        var length = BlockHeader.roundUp(BlockHeader.size + payloadSize)
        guard length <= BlockHeader.maxLength else { throw StorageError.valueTooLarge(size: payloadSize, limit: BlockHeader.maxLength) }
        let off: UInt64
        if kind == BlockKind.leaf.rawValue || kind == BlockKind.inner.rawValue {
            // Tree nodes tolerate slack after their payload: an encrypted file's allocator may
            // extend one to the end of its page rather than leave an unusable sliver free.
            let (o, l) = alloc.allocateNode(UInt64(length))
            off = o; length = Int(l)
        } else {
            off = alloc.allocate(UInt64(length))
        }
        bytesWritten += length
        let contiguous = stagingCount > 0 && stagingStart + UInt64(stagingCount) == off
        if !(contiguous && stagingCount + length <= stagingCapacity) { try flushStaging() }
        if length > stagingCapacity {
            let buf = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 8)
            defer { buf.deallocate() }
            memset(buf + BlockHeader.size + payloadSize, 0, length - BlockHeader.size - payloadSize)
            fill(buf + BlockHeader.size)
            BlockHeader.write(into: buf, length: length, kind: kind, birth: version)
            noteHeader(off, buf)
            try store.ensureFileSize(off + UInt64(length))
            try store.io.write(UnsafeRawBufferPointer(start: buf, count: length), at: off)
            noteWritten(off, length)
            return off
        }
        if stagingCount == 0 { stagingStart = off }
        let p = staging + stagingCount
        let padding = length - BlockHeader.size - payloadSize
        memset(p + length - padding, 0, padding)   // padding (and slack)
        fill(p + BlockHeader.size)
        BlockHeader.write(into: p, length: length, kind: kind, birth: version)
        noteHeader(off, p)
        stagingCount += length
        return off
    }

    /// Writes a generic block: `refs` (each 0 or an owned block) followed by `byteCount` bytes
    /// that `fill` writes. Returns its ref.
    package func writeGeneric(kind: UInt8 = BlockKind.generic.rawValue, refs: [BlockRef], byteCount: Int,
                             fill: (UnsafeMutableRawBufferPointer) -> Void) throws -> BlockRef {
        precondition(kind >= BlockKind.generic.rawValue, "generic blocks use kinds >= 16")
        return try writeBlock(kind: kind, payloadSize: GenericBlock.payloadSize(refs: refs.count, bytes: byteCount)) { p in
            p.putLE(UInt32(refs.count), at: 0); p.putLE(UInt32(0), at: 4)
            for (i, r) in refs.enumerated() { p.putLE(r, at: 8 + 8 * i) }
            fill(UnsafeMutableRawBufferPointer(start: p + 8 + 8 * refs.count, count: byteCount))
        }
    }

    /// Frees a block written by the layer above together with every block it owns.
    package func free(_ ref: BlockRef) throws { try checkOpen(); try releaseSubtree(ref) }

    /// Frees only this block, not what its refs point to (the caller keeps those in a new block).
    package func freeBlockOnly(_ ref: BlockRef) throws { try checkOpen(); try release(ref) }

    private func flushStaging() throws {
        guard stagingCount > 0 else { return }
        try store.ensureFileSize(stagingStart + UInt64(stagingCount))
        try store.io.write(UnsafeRawBufferPointer(start: staging, count: stagingCount), at: stagingStart)
        noteWritten(stagingStart, stagingCount)
        stagingCount = 0
    }

    /// Bytes written since the last writeback hint (`noteWritten`).
    @exclusivity(unchecked) private var unhintedBytes = 0
    /// A large transaction asks the kernel to start writing its pages each time it has written
    /// this many more bytes, so the disk works while the transaction still computes and the
    /// commit's sync waits only for the last part. (A hint: durability still comes only from the
    /// sync. Small commits write less than this and are not affected.)
    static let writebackHintBytes = 1 << 20

    private func noteWritten(_ offset: UInt64, _ length: Int) {
        unhintedBytes += length
        if unhintedBytes >= Self.writebackHintBytes {
            unhintedBytes = 0
            // Every dirty page of the file is this transaction's (each commit syncs): the whole
            // file (length 0: to its end).
            store.io.startWriteback(offset: 0, length: 0)
        }
        if let last = writtenRuns.last, last.end == offset { writtenRuns[writtenRuns.count - 1].length += UInt64(length) }
        else { writtenRuns.append(ByteRun(offset: offset, length: UInt64(length))) }
    }

    /// The runs holding the blocks this transaction wrote that are live in its version: what
    /// it wrote (sorted, merged), less the space free in the final list (blocks written and
    /// freed again by this transaction: later commits may reuse that space at once, so the
    /// runs of a version only ever cover bytes that version keeps), cut at the logical size.
    /// Only free-for-all space can lie in them (the other entries are blocks of earlier versions).
    private func liveWrittenRuns(logicalSize: UInt64) -> [ByteRun] {
        var merged: [ByteRun] = []
        for r in writtenRuns.sorted(by: { $0.offset < $1.offset }) {
            if let last = merged.last, r.offset <= last.end { merged[merged.count - 1].length = max(last.end, r.end) - last.offset }
            else { merged.append(r) }
        }
        var out: [ByteRun] = []
        for r in merged {
            var start = r.offset
            let end = min(r.end, logicalSize)
            guard start < end else { continue }
            for f in alloc.reusableRanges(in: start, end) {
                if f.offset > start { out.append(ByteRun(offset: start, length: f.offset - start)) }
                start = max(start, f.offset + f.length)
            }
            if start < end { out.append(ByteRun(offset: start, length: end - start)) }
        }
        return out
    }

    /// The tree named `name`, created (empty) when `create` is true and it does not exist.
    public func tree(_ name: String, create: Bool, weighted: Bool = false) throws -> BTree? {
        if let t = try tree(name) { return t }
        guard create else { return nil }
        guard !name.isEmpty, name.utf8.count <= NodeFormat.maxKey else { throw StorageError.keyTooLarge(size: name.utf8.count, limit: NodeFormat.maxKey) }
        let t = TreeState(name: name, root: 0, weighted: weighted)
        trees[name] = t
        try catalog.put(Array(name.utf8), value: .inline(CatalogEntry.encode(root: 0, weighted: weighted)))
        return BTree(state: t, ctx: self)
    }

    /// Deletes the tree `name` and frees all its blocks.
    public func dropTree(_ name: String) throws {
        guard let t = try tree(name) else { return }
        try t.removeAll()
        trees[name] = nil
        try catalog.delete(Array(name.utf8))
    }

    /// Commits: returns the new version once it is durable.
    @discardableResult
    public func commit() throws -> UInt64 {
        try checkOpen()
        do {
            try recordHistory()
            if store.options.automaticCompaction && !isRelocationBatch { try automaticCompactionStep() }
            for name in trees.keys.sorted() {
                let t = BTree(state: trees[name]!, ctx: self)
                guard t.modified else { continue }
                let root = try t.flush()
                try catalog.put(Array(name.utf8), value: .inline(CatalogEntry.encode(root: root, weighted: t.weighted)))
            }
            let catalogRef = try catalog.flush()
            let (flRef, list) = try writeFreeList()
            var meta = MetaSlot(version: version, catalogRef: catalogRef, freeListRef: flRef, logicalSize: alloc.logicalSize,
                                commitTime: LockFile.nowNanos(), committerPid: store.processID, flags: base.flags, keyCheck: base.keyCheck)
            let runs = liveWrittenRuns(logicalSize: alloc.logicalSize)
            // One sync for a small commit: its slot lists what it wrote (checked on open). An
            // encrypted file's runs are logical, their checksum covers the plaintext, and its
            // pages (with their IV pages) are written out before the slot.
            if bytesWritten <= Self.oneSyncLimit && runs.count <= MetaSlot.maxUnsyncedRuns {
                meta.unsyncedRuns = runs
                if let encrypted = store.encryptedIO {
                    meta.unsyncedChecksum = try MetaSlot.runChecksum(runs, reading: encrypted)
                    try zeroFillAhead()
                    try encrypted.writePending()
                } else {
                    let base = store.map.base
                    meta.unsyncedChecksum = MetaSlot.runChecksum(runs) { r in UnsafeRawBufferPointer(start: base + Int(r.offset), count: Int(r.length)) }
                    try zeroFillAhead()
                }
            } else {
                if bytesWritten <= Self.oneSyncLimit { try zeroFillAhead() }
                try store.io.sync()
            }
            let slotBytes = meta.encode(crypto: store.crypto)
            try slotBytes.withUnsafeBytes { try store.io.write($0, at: (version % 2) * MetaSlot.slotStride) }
            try store.io.sync()
            store.noteWrittenSlot(slotBytes, meta: meta, slot: Int(version % 2))
            // Durable: the blocks this commit wrote need no checksum when this handle reads them.
            for h in writtenHeaders {
                withUnsafeBytes(of: (h.h0, h.h8)) { store.verdicts.recordWritten(h.ref, header: $0.baseAddress!) }
            }
            if store.recentCommitBytes.count >= 4 { store.recentCommitBytes.removeFirst() }
            store.recentCommitBytes.append(bytesWritten)
            if let e = expectedBytes {
                if store.recentCommitOverheads.count >= 4 { store.recentCommitOverheads.removeFirst() }
                store.recentCommitOverheads.append(max(0, bytesWritten - e))
            }
            store.committedFreeList = (version, flRef, list)
            upgradeOlderSlot()
            // Durable. Give back a file tail nobody can see (still under the writer lock).
            shrinkFileTailAfterCommit()
            store.published(version: version, wakeOwnWatcher: ownObserversNeedCommit?() ?? true)
            if let r = continuing, r.store === store { continuing = nil; continuedRead = ReadTransaction(taking: r, at: meta) }
            // Publishing just checked the lock file's size: releasing the lock need not again.
            finish(lockFileChecked: true)
            return version
        } catch {
            abort()
            throw error
        }
    }

    /// After the first commit on a format-1 file: the other slot (the previous version, no
    /// longer needed now that this one is durable) is rewritten unchanged but for its format,
    /// so that a build reading format 1 only refuses the file ("unsupported format") instead of
    /// opening that previous version (older builds pass over a slot of a newer format and take
    /// the other one). Best effort: a torn rewrite only damages a slot that is not the newest,
    /// and the next commit's sync makes it durable.
    private func upgradeOlderSlot() {
        guard base.format < MetaSlot.formatVersion, base.version > 0 else { return }
        var old = base
        old.format = MetaSlot.formatVersion
        _ = try? old.encode(crypto: store.crypto).withUnsafeBytes { try store.io.write($0, at: (old.version % 2) * MetaSlot.slotStride) }
    }

    /// Writes the free list of the new version (docs/FORMAT.md, "Free list"): a delta of this
    /// commit's own changes over the list of `base` while the chain of deltas is shorter than
    /// `FreeListCodec.maxChain` (a small block, usually in the commit's run); else the chain
    /// folded into one delta over its base while that stays small; else a full list (the new
    /// base). Folding frees the chain's deltas, a full list frees the old base too; each new
    /// block is allocated before the final list is computed (the list does not list its own
    /// blocks).
    private func writeFreeList() throws -> (BlockRef, FreeListCodec.State) {
        try refuseDoubleFrees()
        if let old = storedList {
            if !isRelocationBatch, !relocatedBlocks, alloc.limit == nil, !alloc.firstFitOnly {
                let limit = FreeListCodec.deltaLimit(baseCount: old.base.entries.count)
                // A commit that changes many entries (a large delete turning thousands of held
                // extents free) folds instead: its own delta would be no smaller than the fold.
                let chainLimit = max(32, limit / 4)
                if old.chain.count < FreeListCodec.maxChain,
                   let (ref, n) = try writeDelta(over: old.head, listing: old.entries, estimate: min(old.headCount + 16, chainLimit),
                                                 limit: chainLimit, changes: { $0.listChanges() }) {
                    return (ref, FreeListCodec.State(reusable: alloc.reusable, held: alloc.held, base: old.base,
                                                     chain: old.chain + [ref], headCount: n))
                }
                // Fold the chain: one delta over the base, sized for the difference the list has
                // before the block is placed. (The chain's counts added up would overestimate it:
                // commits undo each other's changes.)
                for d in old.chain { try release(d) }
                var probe = alloc
                probe.finish()
                let estimate = FreeListCodec.diffCount(base: old.base.entries, list: probe.finalEntries()) + 4
                if let (ref, n) = try writeDelta(over: old.base.ref, listing: old.base.entries, estimate: estimate, limit: limit,
                                                 changes: { FreeListCodec.diff(base: old.base.entries, list: $0.finalEntries()) }) {
                    return (ref, FreeListCodec.State(reusable: alloc.reusable, held: alloc.held, base: old.base, chain: [ref], headCount: n))
                }
            } else {
                for d in old.chain { try release(d) }
            }
            try release(old.base.ref)
            try refuseDoubleFrees()
        }
        let upper = alloc.reusable.count + alloc.parked.count + alloc.held.count + alloc.freedNow.count + 1
        let length = BlockHeader.roundUp(BlockHeader.size + FreeListCodec.payloadSize(entries: upper))
        let ref = alloc.allocate(UInt64(length))
        alloc.finish()
        let entries = alloc.finalEntries()
        try writeListBlock(ref: ref, length: length, kind: BlockKind.freeList.rawValue) { p in FreeListCodec.encode(entries, into: p) }
        return (ref, FreeListCodec.State(reusable: alloc.reusable, held: alloc.held, base: (ref, entries), chain: [], headCount: 0))
    }

    /// Throws `corrupted` when a block was freed twice or is already free (see
    /// `SpaceAllocator.doublyFreed`): the commit is abandoned and nothing is written.
    private func refuseDoubleFrees() throws {
        guard let e = alloc.doublyFreed() else { return }
        throw StorageError.corrupted(path: path, detail: "block at offset \(e.offset) (\(e.length) bytes, written by version \(e.birth)) is reached twice in version \(base.version), or lies in free space; nothing was written")
    }

    /// Places a delta block sized for `estimate` entries, finishes the list and writes the block
    /// over `previous` (whose list is `previousEntries`) with the entries `changes` finds between
    /// that list and the final one, when they fit; otherwise tries once more at the size they
    /// need (placing a larger block changes at most three entries: it splits or shortens one
    /// extent, or stops a trailing one from being trimmed), as long as that is within `limit`.
    /// Returns the block and its entry count, or nil (the allocator then is as it was).
    private func writeDelta(over previous: BlockRef, listing previousEntries: @autoclosure () -> [FreeExtent],
                            estimate: Int, limit: Int,
                            changes: (SpaceAllocator) -> (removed: [FreeExtent], added: [FreeExtent])) throws -> (BlockRef, Int)? {
        var upper = estimate
        for _ in 0..<2 where upper <= limit {
            let length = BlockHeader.roundUp(BlockHeader.size + FreeListCodec.deltaPayloadSize(entries: upper))
            var trial = alloc
            let ref = trial.allocate(UInt64(length))
            trial.finish()
            let (removed, added) = changes(trial)
            let n = removed.count + added.count
            if n <= upper {
                alloc = trial
                assert(FreeListCodec.apply(base: previousEntries(), removed: removed, added: added, logicalSize: alloc.logicalSize)
                       == alloc.finalEntries(), "the free-list delta does not give the list")
                try writeListBlock(ref: ref, length: length, kind: BlockKind.freeListDelta.rawValue) { p in
                    FreeListCodec.encodeDelta(previous: previous, removed: removed, added: added, into: p)
                }
                return (ref, n)
            }
            upper = n + 4
        }
        return nil
    }

    /// Writes a free-list block of `length` bytes at `ref` (`encode` fills its payload), with
    /// the staged blocks when it follows them (the usual case: one pwrite for both).
    private func writeListBlock(ref: BlockRef, length: Int, kind: UInt8, encode: (UnsafeMutableRawPointer) -> Void) throws {
        func fill(_ p: UnsafeMutableRawPointer) {
            memset(p, 0, length)
            encode(p + BlockHeader.size)
            BlockHeader.write(into: p, length: length, kind: kind, birth: version)
            noteHeader(ref, p)
        }
        try store.ensureFileSize(max(ref + UInt64(length), alloc.logicalSize))
        if stagingCount > 0 && stagingStart + UInt64(stagingCount) == ref && stagingCount + length <= stagingCapacity {
            fill(staging + stagingCount)
            stagingCount += length
            try flushStaging()
        } else {
            try flushStaging()
            let buf = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 8)
            defer { buf.deallocate() }
            fill(buf)
            try store.io.write(UnsafeRawBufferPointer(start: buf, count: length), at: ref)
            noteWritten(ref, length)
        }
        bytesWritten += length
    }

    /// How far ahead of the allocated area a small commit writes zeros: a quarter of the
    /// allocated area, at least 64 KiB, at most 512 KiB, and never past the end of the file
    /// (the file does not grow for it). Written again when less than a quarter of it is left.
    static func zeroAhead(logicalSize: UInt64) -> UInt64 { min(512 << 10, max(64 << 10, (logicalSize / 4) & ~4095)) }

    /// Small commits: makes sure the file's blocks just past the allocated area
    /// are written (zeros), so the commits that continue there overwrite blocks the file system
    /// has already allocated. Writing into a sparse tail makes the sync allocate blocks and
    /// write the inode as well (measured: 0.25 ms instead of 0.13–0.15 ms for a page). The
    /// zeros go past the logical size of this version (and so of every version a reader can
    /// pin: bytes past it are free for all), are covered by this commit's sync, and losing
    /// them in a crash loses nothing.
    private func zeroFillAhead() throws {
        let logical = (alloc.logicalSize + 4095) & ~4095
        let ahead = Self.zeroAhead(logicalSize: logical)
        guard store.zeroedEnd < logical + ahead / 4 else { return }
        // Within the file as it is (its preallocated tail): the file does not grow for this.
        let from = max(store.zeroedEnd, logical), to = min(logical + ahead, store.knownFileSize & ~4095)
        guard to > from else { return }
        try store.io.writeZeros(from: from, to: to)
        store.zeroedEnd = to
    }

    /// Discards every change; the file stays at the version the transaction started from.
    public func abort() {
        if ended { return }
        finish()
    }

    private func finish(lockFileChecked: Bool = false) {
        ended = true
        // Pages of a rolled-back transaction must never reach the file (no-op after a commit).
        store.encryptedIO?.discardPending()
        arena.clear()
        trees.removeAll()
        catalogState = nil
        stagingCount = 0
        returnStaging()
        store.endWrite(lockFileChecked: lockFileChecked)
    }

    /// False once the transaction has committed or been cancelled.
    public var isActive: Bool { !ended }

    // MARK: history

    static let historyTree = "_history"
    static let historyLeafLimit = 1024

    private func recordHistory() throws {
        let limit = store.options.historyLimit
        guard limit > 0, let h = try tree(Self.historyTree, create: true) else { return }
        // Entries only append: leaves of 1 KiB instead of 4 make the leaf each commit rewrites
        // a quarter of the size on average.
        h.leafLimit = Self.historyLeafLimit
        var w = ByteWriter()
        w.u64(LockFile.nowNanos()); w.u32(store.processID); w.u32(0)
        w.u64(UInt64(bytesWritten))
        w.string(String(label.prefix(64)))
        w.lengthPrefixed(note.prefix(700))
        try h.put(HistoryKey.encode(version), bytes: w.bytes)
        // Keep the newest `limit` entries, trimming in batches (at `limit` + 1/8) so most
        // commits only append to the last leaf.
        let count = try h.totalWeight
        if count > UInt64(limit + max(1, limit / 8)) {
            var drop: [[UInt8]] = []
            try h.forEach { e in drop.append(e.key); return UInt64(drop.count) < count - UInt64(limit) }
            for k in drop { try h.delete(k) }
        }
    }
}

/// Big-endian version keys, so byte order is numeric order.
enum HistoryKey {
    static func encode(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
    static func decode(_ b: [UInt8]) -> UInt64 {
        guard b.count == 8 else { return 0 }
        return b.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
    }
}
