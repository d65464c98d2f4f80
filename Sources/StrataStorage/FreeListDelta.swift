/// Free-list deltas (format 2, chains since format 4; docs/FORMAT.md "Free list"): a commit
/// that changes few entries of the free list writes only how its list differs from the list of
/// an earlier version instead of rewriting the whole list. The meta slot's free-list ref names
/// either a full list (kind 3) or a delta (kind 4):
///
///     u64 previous ref (a full list, kind 3, or a delta, kind 4), u64 removed count,
///     u64 added count, removed × entry, added × entry   (entry: u64 offset, length, birth, freed)
///
/// The list a delta stands for is the list of its previous block less `removed` (each exactly
/// one of its entries) plus `added`, sorted by offset. Following previous refs from a version's
/// delta reaches a full list (the *base*) after at most `maxChain` deltas; every block of the
/// chain is live in that version. A small commit writes a delta of its own changes over the
/// version's list (the chain grows by one small block); every `maxChain` commits the chain is
/// folded into one delta over the base, and past `deltaLimit` a full list is written again.
extension FreeListCodec {
    static let deltaHeaderSize = 24

    static func deltaPayloadSize(entries: Int) -> Int { deltaHeaderSize + entries * entrySize }

    /// The most deltas between a version's free-list ref and its full list (format 4). Opening a
    /// list applies each of them in turn (a merge over the list per delta).
    static let maxChain = 16

    /// A free list as a version stores it: its entries, and the blocks holding it.
    struct Stored {
        /// The entries of the version, sorted by offset.
        var entries: [FreeExtent]
        /// The full list the entries were read from or derived from (its ref and entries): the
        /// block itself when the version stores a full list, the chain's base otherwise.
        var base: (ref: BlockRef, entries: [FreeExtent])
        /// The deltas from the base to the version's list, oldest first (empty for a full list).
        var chain: [BlockRef] = []
        /// The entries the newest delta holds (0 for a full list).
        var headCount = 0
        /// The newest delta (the meta slot's free-list ref), when the version stores a delta.
        var delta: BlockRef? { chain.last }
        /// The blocks the list occupies (live in the version, not listed in it).
        var blocks: [BlockRef] { [base.ref] + chain }
    }

    /// Reads the free list at `ref` (a full list, or a chain of deltas over one) through `block`.
    static func load(_ ref: BlockRef, logicalSize: UInt64, path: String,
                     block: (BlockRef) throws -> BlockView) throws -> Stored {
        // Newest first: each delta's entries, down to the full list.
        var deltas: [(ref: BlockRef, removed: [FreeExtent], added: [FreeExtent])] = []
        var at = ref
        while true {
            let v = try block(at)
            if v.kindByte == BlockKind.freeList.rawValue { break }
            guard v.kindByte == BlockKind.freeListDelta.rawValue else {
                if deltas.isEmpty { throw StorageError.corrupted(path: path, detail: "free list block \(at) has kind \(v.kindByte)") }
                throw StorageError.corrupted(path: path, detail: "free list delta at \(deltas.last!.ref): its previous block \(at) has kind \(v.kindByte)")
            }
            guard deltas.count < maxChain else {
                throw StorageError.corrupted(path: path, detail: "free list at \(ref) chains more than \(maxChain) deltas")
            }
            var r = ByteReader(v.payload)
            let previous: BlockRef, removed: [FreeExtent], added: [FreeExtent]
            do {
                previous = try r.u64()
                let nr = try r.u64(), na = try r.u64()
                guard nr <= UInt64(r.remaining / entrySize), na <= UInt64(r.remaining / entrySize) - nr else { throw ByteReader.OutOfBounds() }
                func read(_ n: UInt64) throws -> [FreeExtent] {
                    var out: [FreeExtent] = []; out.reserveCapacity(Int(n))
                    for _ in 0..<n { out.append(FreeExtent(offset: try r.u64(), length: try r.u64(), birth: try r.u64(), freed: try r.u64())) }
                    return out
                }
                removed = try read(nr); added = try read(na)
            } catch is ByteReader.OutOfBounds {
                throw StorageError.corrupted(path: path, detail: "free list delta block at \(at) is truncated")
            }
            // A chain only reaches back to blocks written earlier, and each block once.
            guard previous != at, previous >= MetaSlot.dataStart, previous < logicalSize,
                  !deltas.contains(where: { $0.ref == previous }) else {
                throw StorageError.corrupted(path: path, detail: "free list delta at \(at) names previous block \(previous)")
            }
            deltas.append((at, removed, added))
            at = previous
        }
        // The base and the older deltas were written by earlier versions, whose allocated area
        // may have reached further (a later version gave a free tail back): their lists are
        // checked against the whole file; the version's own list, against its size.
        let baseEntries = try decode(try block(at), logicalSize: deltas.isEmpty ? logicalSize : .max / 2, path: path)
        var entries = baseEntries
        for (i, d) in deltas.enumerated().reversed() {
            guard let next = apply(base: entries, removed: d.removed, added: d.added, logicalSize: i == 0 ? logicalSize : .max / 2) else {
                throw StorageError.corrupted(path: path, detail: "free list delta at \(d.ref) does not fit the list before it")
            }
            entries = next
        }
        return Stored(entries: entries, base: (at, baseEntries), chain: deltas.reversed().map(\.ref),
                      headCount: deltas.first.map { $0.removed.count + $0.added.count } ?? 0)
    }

    /// What a write transaction needs of its base version's free list: the entries split as
    /// the allocator takes them, and how the version stores it (base and chain), so a small
    /// commit's list costs what it changes.
    struct State {
        /// The free-for-all extents and the other entries (each sorted by offset).
        var reusable: [(offset: UInt64, length: UInt64)]
        var held: [FreeExtent]
        /// The full list the version's list derives from (`Stored.base`).
        var base: (ref: BlockRef, entries: [FreeExtent])
        /// The deltas from the base to the version's list, oldest first.
        var chain: [BlockRef]
        /// The entries the newest delta holds (0 for a full list): the next commit's estimate.
        var headCount: Int
        /// The newest delta, when the version stores a delta.
        var delta: BlockRef? { chain.last }
        /// The block the version's free-list ref names: the newest delta, else the base.
        var head: BlockRef { chain.last ?? base.ref }

        init(reusable: [(offset: UInt64, length: UInt64)], held: [FreeExtent], base: (ref: BlockRef, entries: [FreeExtent]),
             chain: [BlockRef], headCount: Int) {
            self.reusable = reusable; self.held = held; self.base = base
            self.chain = chain; self.headCount = headCount
        }

        /// The version's entries as one list sorted by offset (a pass over the list).
        var entries: [FreeExtent] { SpaceAllocator.entries(reusable: reusable, held: held) }

        init(_ stored: Stored) {
            (reusable, held) = SpaceAllocator.split(stored.entries)
            base = stored.base; chain = stored.chain; headCount = stored.headCount
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

    static func encodeDelta(previous base: BlockRef, removed: [FreeExtent], added: [FreeExtent], into p: UnsafeMutableRawPointer) {
        p.putLE(base, at: 0); p.putLE(UInt64(removed.count), at: 8); p.putLE(UInt64(added.count), at: 16)
        var o = deltaHeaderSize
        for e in removed + added {
            p.putLE(e.offset, at: o); p.putLE(e.length, at: o + 8); p.putLE(e.birth, at: o + 16); p.putLE(e.freed, at: o + 24)
            o += entrySize
        }
    }

    /// A chain is folded into one delta over the base while that delta holds at most this many
    /// entries for a base of `baseCount`; past it the commit writes a full list again (the new base).
    static func deltaLimit(baseCount: Int) -> Int { max(32, baseCount / 4) }
}
