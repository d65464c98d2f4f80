/// Free-list deltas (format 2, docs/FORMAT.md "Free list"): a commit that changes few entries of
/// the free list writes only how its list differs from a full list an earlier commit wrote (the
/// *base*), instead of rewriting the whole list. The meta slot's free-list ref names either a
/// full list (kind 3) or a delta (kind 4):
///
///     u64 base ref (a full list, kind 3), u64 removed count, u64 added count,
///     removed × entry, added × entry          (entry: u64 offset, length, birth, freed)
///
/// The list of the version is the base's entries less `removed` (each exactly one of them) plus
/// `added`, sorted by offset. Both the base block and the delta block are live in that version.
extension FreeListCodec {
    static let deltaHeaderSize = 24

    static func deltaPayloadSize(entries: Int) -> Int { deltaHeaderSize + entries * entrySize }

    /// A free list as a version stores it: its entries, and the blocks holding it.
    struct Stored {
        /// The entries of the version, sorted by offset.
        var entries: [FreeExtent]
        /// The full list the entries were read from or derived from (its ref and entries): the
        /// block itself when the version stores a full list, the delta's base otherwise.
        var base: (ref: BlockRef, entries: [FreeExtent])
        /// The delta block, when the version stores a delta.
        var delta: BlockRef?
        /// The delta's entries: those of the base the version does not have, and those it adds
        /// (each sorted by offset; empty for a full list).
        var removed: [FreeExtent] = [], added: [FreeExtent] = []
        /// The blocks the list occupies (live in the version, not listed in it).
        var blocks: [BlockRef] { delta.map { [base.ref, $0] } ?? [base.ref] }
    }

    /// Reads the free list at `ref` (a full list or a delta over one) through `block`.
    static func load(_ ref: BlockRef, logicalSize: UInt64, path: String,
                     block: (BlockRef) throws -> BlockView) throws -> Stored {
        let v = try block(ref)
        if v.kindByte == BlockKind.freeList.rawValue {
            let entries = try decode(v, logicalSize: logicalSize, path: path)
            return Stored(entries: entries, base: (ref, entries), delta: nil)
        }
        guard v.kindByte == BlockKind.freeListDelta.rawValue else {
            throw StorageError.corrupted(path: path, detail: "free list block \(ref) has kind \(v.kindByte)")
        }
        var r = ByteReader(v.payload)
        let baseRef: BlockRef, removed: [FreeExtent], added: [FreeExtent]
        do {
            baseRef = try r.u64()
            let nr = try r.u64(), na = try r.u64()
            guard nr <= UInt64(r.remaining / entrySize), na <= UInt64(r.remaining / entrySize) - nr else { throw ByteReader.OutOfBounds() }
            func read(_ n: UInt64) throws -> [FreeExtent] {
                var out: [FreeExtent] = []; out.reserveCapacity(Int(n))
                for _ in 0..<n { out.append(FreeExtent(offset: try r.u64(), length: try r.u64(), birth: try r.u64(), freed: try r.u64())) }
                return out
            }
            removed = try read(nr); added = try read(na)
        } catch is ByteReader.OutOfBounds {
            throw StorageError.corrupted(path: path, detail: "free list delta block at \(ref) is truncated")
        }
        guard baseRef != ref, baseRef >= MetaSlot.dataStart, baseRef < logicalSize else {
            throw StorageError.corrupted(path: path, detail: "free list delta at \(ref) names base \(baseRef)")
        }
        let bv = try block(baseRef)
        guard bv.kindByte == BlockKind.freeList.rawValue else {
            throw StorageError.corrupted(path: path, detail: "free list delta at \(ref): its base \(baseRef) has kind \(bv.kindByte)")
        }
        // The base was written by an earlier version, whose allocated area may have reached
        // further (this version gave a free tail back): its entries are checked against the
        // whole file; the list they give after the delta, against this version's size.
        let baseEntries = try decode(bv, logicalSize: .max / 2, path: path)
        guard let entries = apply(base: baseEntries, removed: removed, added: added, logicalSize: logicalSize) else {
            throw StorageError.corrupted(path: path, detail: "free list delta at \(ref) does not fit its base \(baseRef)")
        }
        return Stored(entries: entries, base: (baseRef, baseEntries), delta: ref, removed: removed, added: added)
    }

    /// What a write transaction needs of its base version's free list: the entries split as
    /// the allocator takes them, and the delta over the base (a commit's own changes are
    /// folded into it: `compose`), so a small commit's list costs what it changes.
    struct State {
        /// The free-for-all extents and the other entries (each sorted by offset).
        var reusable: [(offset: UInt64, length: UInt64)]
        var held: [FreeExtent]
        /// The full list the version's list derives from (`Stored.base`).
        var base: (ref: BlockRef, entries: [FreeExtent])
        /// The delta block, when the version stores a delta.
        var delta: BlockRef?
        /// The version's list is `base` less `removed` plus `added` (each sorted by offset).
        var removed: [FreeExtent], added: [FreeExtent]

        init(reusable: [(offset: UInt64, length: UInt64)], held: [FreeExtent], base: (ref: BlockRef, entries: [FreeExtent]),
             delta: BlockRef?, removed: [FreeExtent], added: [FreeExtent]) {
            self.reusable = reusable; self.held = held; self.base = base; self.delta = delta
            self.removed = removed; self.added = added
        }

        /// The version's entries as one list sorted by offset (a pass over the list).
        var entries: [FreeExtent] { SpaceAllocator.entries(reusable: reusable, held: held) }

        init(_ stored: Stored) {
            (reusable, held) = SpaceAllocator.split(stored.entries)
            base = stored.base; delta = stored.delta; removed = stored.removed; added = stored.added
        }
    }

    /// Folds one commit's changes into a delta: the list `base - removed + added` loses the
    /// entries `dropping` (each in it) and gains `adding` (none in it); afterwards `removed` and
    /// `added` describe the new list over the same base (an entry dropped that the delta had
    /// added leaves `added`; an entry gained that the base has leaves `removed`).
    static func compose(removed: inout [FreeExtent], added: inout [FreeExtent], dropping: [FreeExtent], adding: [FreeExtent]) {
        func lowerBound(_ list: [FreeExtent], _ offset: UInt64) -> Int { partitionPoint(list.count) { list[$0].offset < offset } }
        for e in dropping {
            let i = lowerBound(added, e.offset)
            if i < added.count && added[i] == e { added.remove(at: i) } else { removed.insert(e, at: lowerBound(removed, e.offset)) }
        }
        for e in adding {
            let i = lowerBound(removed, e.offset)
            if i < removed.count && removed[i] == e { removed.remove(at: i) } else { added.insert(e, at: lowerBound(added, e.offset)) }
        }
    }

    /// `base` less `removed` plus `added` (all sorted by offset), or nil when a removed entry is
    /// not in the base or the result is not a sorted, disjoint list inside the allocated area.
    static func apply(base: [FreeExtent], removed: [FreeExtent], added: [FreeExtent], logicalSize: UInt64) -> [FreeExtent]? {
        var out: [FreeExtent] = []
        out.reserveCapacity(base.count - min(base.count, removed.count) + added.count)
        var i = 0, j = 0, k = 0
        var lastEnd = MetaSlot.dataStart
        func push(_ e: FreeExtent) -> Bool {
            guard e.offset >= lastEnd, e.length > 0, e.offset % 8 == 0, e.length % 8 == 0,
                  e.offset + e.length <= logicalSize, e.birth <= e.freed else { return false }
            lastEnd = e.offset + e.length
            out.append(e)
            return true
        }
        while i < base.count || k < added.count {
            if i < base.count && j < removed.count && base[i] == removed[j] { i += 1; j += 1; continue }
            if j < removed.count && i < base.count && removed[j].offset < base[i].offset { return nil }
            if i < base.count && (k == added.count || base[i].offset < added[k].offset) {
                if !push(base[i]) { return nil }
                i += 1
            } else {
                if !push(added[k]) { return nil }
                k += 1
            }
        }
        return j == removed.count ? out : nil
    }

    /// The entries of `base` not in `list` and of `list` not in `base` (both sorted by offset,
    /// offsets unique within each).
    static func diff(base: [FreeExtent], list: [FreeExtent]) -> (removed: [FreeExtent], added: [FreeExtent]) {
        var removed: [FreeExtent] = [], added: [FreeExtent] = []
        var i = 0, j = 0
        while i < base.count || j < list.count {
            if j == list.count || (i < base.count && base[i].offset < list[j].offset) { removed.append(base[i]); i += 1 }
            else if i == base.count || list[j].offset < base[i].offset { added.append(list[j]); j += 1 }
            else {
                if base[i] != list[j] { removed.append(base[i]); added.append(list[j]) }
                i += 1; j += 1
            }
        }
        return (removed, added)
    }

    /// The number of entries `diff` would return, without building them.
    static func diffCount(base: [FreeExtent], list: [FreeExtent]) -> Int {
        var n = 0, i = 0, j = 0
        while i < base.count || j < list.count {
            if j == list.count || (i < base.count && base[i].offset < list[j].offset) { n += 1; i += 1 }
            else if i == base.count || list[j].offset < base[i].offset { n += 1; j += 1 }
            else { if base[i] != list[j] { n += 2 }; i += 1; j += 1 }
        }
        return n
    }

    static func encodeDelta(base: BlockRef, removed: [FreeExtent], added: [FreeExtent], into p: UnsafeMutableRawPointer) {
        p.putLE(base, at: 0); p.putLE(UInt64(removed.count), at: 8); p.putLE(UInt64(added.count), at: 16)
        var o = deltaHeaderSize
        for e in removed + added {
            p.putLE(e.offset, at: o); p.putLE(e.length, at: o + 8); p.putLE(e.birth, at: o + 16); p.putLE(e.freed, at: o + 24)
            o += entrySize
        }
    }

    /// A delta is written while it holds at most this many entries for a base of `baseCount`;
    /// past it the commit writes a full list again (the new base).
    static func deltaLimit(baseCount: Int) -> Int { max(32, baseCount / 4) }
}
