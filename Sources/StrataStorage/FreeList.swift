/// One run of free bytes. `birth`/`freed` record the versions between which the bytes were
/// live: they were written by the commit of `birth` and dropped by the commit of `freed`, so
/// exactly versions [birth, freed-1] can still see them. `birth == 0 && freed == 0` marks
/// space that no present or future reader can see ("free for all").
public struct FreeExtent: Equatable, Sendable {
    /// Where the extent starts in the file.
    public var offset: UInt64
    /// Its length in bytes.
    public var length: UInt64
    /// The version whose commit wrote these bytes (0 when free for all).
    public var birth: UInt64
    /// The version whose commit dropped them (0 when free for all).
    public var freed: UInt64
    /// True when no present or future reader can see these bytes, so any commit may reuse them.
    public var isFreeForAll: Bool { freed == 0 }
    /// An extent of `length` bytes at `offset`, live for versions `birth` through `freed - 1`.
    public init(offset: UInt64, length: UInt64, birth: UInt64, freed: UInt64) {
        self.offset = offset; self.length = length; self.birth = birth; self.freed = freed
    }

    /// The reuse rule (see docs/FORMAT.md): the extent may be reused when no live reader holds
    /// a version in [birth, freed-1]. New readers always start at the newest version, which is
    /// >= freed, so once reusable an extent stays reusable.
    public func isReusable(readers sortedVersions: [UInt64]) -> Bool {
        if isFreeForAll { return true }
        // First reader version >= birth.
        let lo = partitionPoint(sortedVersions.count) { sortedVersions[$0] < birth }
        return lo == sortedVersions.count || sortedVersions[lo] >= freed
    }
}

/// The persistent free list: one block of kind `.freeList` holding u64 count then
/// `count` entries of (offset, length, birth, freed), each a u64, sorted by offset.
enum FreeListCodec {
    static let entrySize = 32

    static func payloadSize(entries: Int) -> Int { 8 + entries * entrySize }

    static func encode(_ entries: [FreeExtent], into p: UnsafeMutableRawPointer) {
        p.putLE(UInt64(entries.count), at: 0)
        var o = 8
        for e in entries {
            p.putLE(e.offset, at: o); p.putLE(e.length, at: o + 8); p.putLE(e.birth, at: o + 16); p.putLE(e.freed, at: o + 24)
            o += entrySize
        }
    }

    static func decode(_ view: BlockView, logicalSize: UInt64, path: String) throws -> [FreeExtent] {
        var r = ByteReader(view.payload)
        do {
            let n = try r.u64()
            guard n <= UInt64(r.remaining / entrySize) else { throw ByteReader.OutOfBounds() }
            var out = [FreeExtent](); out.reserveCapacity(Int(n))
            var lastEnd = MetaSlot.dataStart
            for _ in 0..<n {
                let e = FreeExtent(offset: try r.u64(), length: try r.u64(), birth: try r.u64(), freed: try r.u64())
                guard e.offset >= lastEnd, e.length > 0, e.offset % 8 == 0, e.length % 8 == 0,
                      e.offset + e.length <= logicalSize, e.birth <= e.freed else {
                    throw StorageError.corrupted(path: path, detail: "free list entry at \(e.offset) (+\(e.length)) is out of order or out of range")
                }
                lastEnd = e.offset + e.length
                out.append(e)
            }
            return out
        } catch is ByteReader.OutOfBounds {
            throw StorageError.corrupted(path: path, detail: "free list block at \(view.ref) is truncated")
        }
    }
}

/// Hands out space to one write transaction.
///
/// At the start of the transaction the persistent free list is split, with the live reader
/// versions, into extents reusable now (kept sorted by offset, allocated first-fit from the
/// lowest offset so data drifts toward the start of the file) and extents still visible to
/// some reader (held). Blocks freed by this transaction that earlier versions can see are
/// recorded with `freed = newVersion`; blocks both written and freed by this transaction are
/// reusable at once.
struct SpaceAllocator {
    private(set) var reusable: [(offset: UInt64, length: UInt64)] = []
    private(set) var held: [FreeExtent] = []
    private(set) var freedNow: [FreeExtent] = []
    private(set) var logicalSize: UInt64
    let newVersion: UInt64
    /// Allocations must end at or below this offset when set (online compaction).
    var limit: UInt64?
    /// Clean-page rule (encrypted files): the rest of the last page of the allocated area, which
    /// this transaction may not allocate (the page holds bytes a committed version can see). It
    /// stays free (written back as free for all). The unaligned ends of reusable extents are
    /// never allocated either (`pageInterior`), but they stay in `reusable`.
    private(set) var parked: [(offset: UInt64, length: UInt64)] = []
    /// The list of the base version as the transaction found it: its free-for-all entries and
    /// the others (both sorted by offset). `listChanges` compares the final list with it.
    let startReusable: [(offset: UInt64, length: UInt64)]
    let startHeld: [FreeExtent]
    /// Offset ranges (closed: an entry ending at `lo` or starting at `hi` touches one) outside
    /// which the list is the one the transaction started from: every change to `reusable`,
    /// `held`, `freedNow` or the trimmed end records the range it covers.
    private(set) var touched: [(lo: UInt64, hi: UInt64)] = []

    /// The base version's list split into its free-for-all extents and the others (both sorted
    /// by offset), as `init` takes it.
    static func split(_ entries: [FreeExtent]) -> (reusable: [(offset: UInt64, length: UInt64)], held: [FreeExtent]) {
        var reusable: [(offset: UInt64, length: UInt64)] = [], held: [FreeExtent] = []
        reusable.reserveCapacity(entries.count)
        for e in entries { if e.isFreeForAll { reusable.append((e.offset, e.length)) } else { held.append(e) } }
        return (reusable, held)
    }

    /// - Parameters:
    ///   - reusable, held: the base version's list (`split`): free-for-all extents, and entries
    ///     still visible to the versions between their birth and their freeing. Entries no live
    ///     reader can see any more join the reusable ones.
    ///   - wholePages: encrypted files. Every page this transaction writes must hold no
    ///     byte any committed version can see (pages are re-encrypted whole, and a torn page write
    ///     must only damage dead pages): only the page-aligned interior of reusable extents is
    ///     allocatable, and allocation from the end starts on a page boundary.
    init(reusable: [(offset: UInt64, length: UInt64)], held: [FreeExtent], readers: [UInt64], logicalSize: UInt64,
         newVersion: UInt64, wholePages: Bool = false) {
        self.logicalSize = logicalSize
        self.newVersion = newVersion
        self.wholePages = wholePages
        startReusable = reusable
        startHeld = held
        self.reusable = reusable
        coalesceReusable()
        // Entries no live reader can see any more (usually all those the previous commit
        // freed) join the reusable extents in one merge: inserting them one by one copied the
        // list (shared with `startReusable`) and then shifted it once per entry.
        var stillHeld: [FreeExtent] = [], nowReusable: [(offset: UInt64, length: UInt64)] = []
        for e in held {
            if e.isReusable(readers: readers) { nowReusable.append((e.offset, e.length)) } else { stillHeld.append(e) }
        }
        self.held = nowReusable.isEmpty ? held : stillHeld
        if !nowReusable.isEmpty { insertReusable(sorted: nowReusable) }
        if wholePages {
            // The extents stay whole: each allocation uses only the page-aligned interior of the
            // extent it takes from (`pageInterior`), so the list is not split and rejoined per
            // transaction (that was O(free list) per commit).
            let page = UInt64(PageLayout.pageSize)
            let alignedEnd = (logicalSize + page - 1) & ~(page - 1)
            if alignedEnd > logicalSize {
                parked.append((logicalSize, alignedEnd - logicalSize)); touch(logicalSize, alignedEnd)
                self.logicalSize = alignedEnd
            }
        }
    }

    /// Records that the list may change within `lo...hi`.
    /// A range overlapping the last one recorded widens it instead (consecutive allocations
    /// from one extent touch it again and again): `listChanges` merges overlapping ranges anyway.
    @inline(__always) private mutating func touch(_ lo: UInt64, _ hi: UInt64) {
        if let last = touched.last, lo <= last.hi, last.lo <= hi {
            touched[touched.count - 1] = (min(lo, last.lo), max(hi, last.hi))
        } else {
            touched.append((lo, hi))
        }
    }

    /// Sorts `reusable` and merges touching extents (recording each merge). A list this code
    /// wrote is already coalesced: one pass that finds nothing to do.
    private mutating func coalesceReusable() {
        var clean = true
        for i in reusable.indices.dropFirst() where reusable[i - 1].offset + reusable[i - 1].length >= reusable[i].offset { clean = false; break }
        if clean { return }
        reusable.sort { $0.offset < $1.offset }
        var out: [(offset: UInt64, length: UInt64)] = []
        out.reserveCapacity(reusable.count)
        for r in reusable {
            if let last = out.last, last.offset + last.length == r.offset {
                out[out.count - 1].length += r.length
                touch(last.offset, r.offset + r.length)
            } else { out.append(r) }
        }
        reusable = out
        spaceAdded()
    }

    /// Adds free-for-all space (sorted in, merged with the extents it touches).
    private mutating func insertReusable(offset: UInt64, length: UInt64) {
        let lo = firstExtent(atOrAfter: offset)
        reusable.insert((offset, length), at: lo)
        spaceAdded()
        var i = lo
        if i + 1 < reusable.count, reusable[i].offset + reusable[i].length == reusable[i + 1].offset {
            reusable[i].length += reusable[i + 1].length; reusable.remove(at: i + 1)
        }
        if i > 0, reusable[i - 1].offset + reusable[i - 1].length == reusable[i].offset {
            reusable[i - 1].length += reusable[i].length; reusable.remove(at: i); i -= 1
        }
        touch(reusable[i].offset, reusable[i].offset + reusable[i].length)
    }

    /// Adds free-for-all extents (sorted by offset, disjoint from the list) in one pass: the
    /// extents between two added ones are copied in bulk (found by binary search), each added
    /// one joins the extents it touches, and every extent that took one in is recorded as touched.
    private mutating func insertReusable(sorted add: [(offset: UInt64, length: UInt64)]) {
        var out: [(offset: UInt64, length: UInt64)] = []
        out.reserveCapacity(reusable.count + add.count)
        var gained: [Int] = []   // indices in `out` of the extents that took in an added one
        reusable.withUnsafeBufferPointer { r in
            var i = 0
            for e in add {
                let p = partitionPoint(from: i, r.count) { r[$0].offset < e.offset }
                if p > i { out.append(contentsOf: UnsafeBufferPointer(rebasing: r[i..<p])) }
                i = p
                if let last = out.last, last.offset + last.length == e.offset { out[out.count - 1].length += e.length }
                else { out.append(e) }
                while i < r.count, out[out.count - 1].offset + out[out.count - 1].length == r[i].offset {
                    out[out.count - 1].length += r[i].length; i += 1
                }
                if gained.last != out.count - 1 { gained.append(out.count - 1) }
            }
            if i < r.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: r[i...])) }
        }
        for g in gained { touch(out[g].offset, out[g].offset + out[g].length) }
        reusable = out
        spaceAdded()
    }

    var reusableBytes: UInt64 { reusable.reduce(0) { $0 + $1.length } + parked.reduce(0) { $0 + $1.length } }

    /// Encrypted files: see `init`. Also, a block of at most one page never straddles a page
    /// boundary, so reading it needs one decrypted page and no contiguous copy.
    let wholePages: Bool

    /// Where the previous allocation ended (ordinary transactions): the next one continues
    /// there when it fits, so the blocks of a commit form few contiguous runs and a one-sync
    /// commit syncs few places (docs/FORMAT.md, "Commit protocol").
    private var cursor: UInt64?
    /// When the cursor cannot continue, look first for a free extent of at least this many
    /// bytes (an estimate of what the commit still writes), so the rest of it stays contiguous.
    /// 0: plain first fit.
    var regionHint: UInt64 = 0
    /// Plain first fit for the rest of the transaction (compaction: every block goes as low as
    /// it fits, contiguity does not matter).
    var firstFitOnly = false
    /// Set when a search for a `regionHint` extent failed and all holes together are small.
    private var holesAreFew = false
    /// Holes "add up to little" below `logicalSize / fewHolesDivisor`: a commit no hole holds
    /// then continues at the logical end as one run instead of spreading over the largest holes.
    /// Each further place a commit writes costs its sync about 0.015-0.02 ms on the disks
    /// measured (the run and the slot: 2 places instead of 3-4 for commits of ~18 KB at 200k
    /// objects, 0.24-0.25 -> 0.19 ms), paid for with free space: holes may reach a quarter of
    /// the file before commits fill them piecemeal (automatic compaction starts at two thirds).
    static let fewHolesDivisor: UInt64 = 4
    /// Encrypted files keep an eighth: their runs are pages plus IV pages, and continuing at the
    /// end measured no faster (0.32-0.33 ms against 0.36-0.38 ms at 200k objects).
    static let fewHolesDivisorEncrypted: UInt64 = 8

    /// Returns the offset of `length` bytes (a multiple of 8). Ordinary transactions continue
    /// right after the previous allocation when the free extent there has room; otherwise (and
    /// always under a `limit`: compaction) first fit from the lowest offset — preferring an
    /// extent of `regionHint` bytes — else from the end of the allocated area.
    mutating func allocate(_ length: UInt64) -> UInt64 {
        let o = place(length)
        if wholePages { noteClean(o, length) }
        return o
    }

    /// `allocate` without recording the clean pages.
    private mutating func place(_ length: UInt64) -> UInt64 {
        if wholePages && length <= UInt64(PageLayout.pageSize) {
            // Encrypted files: continue after the previous block too (in the same extent, or at
            // the next page boundary in it), so a commit's pages stay contiguous.
            let ordinary = limit == nil && !firstFitOnly
            if ordinary, let c = cursor, let o = allocateInOnePage(length, at: c) { cursor = o + length; return o }
            // A new run: where the whole commit fits, as for larger blocks.
            if ordinary && regionHint > length, let start = regionStart(want: regionHint, length: length),
               let o = allocateInOnePage(length, at: start) { cursor = o + length; return o }
            let o = allocateInOnePage(length)
            if ordinary { cursor = o + length }
            return o
        }
        guard limit == nil && !firstFitOnly else { return allocateFirstFit(length) }
        if let c = cursor {
            if c == logicalSize {
                logicalSize += length; cursor = logicalSize
                return c
            }
            let lo = firstExtent(atOrAfter: c)
            // Right after this transaction's previous block: the extent from its start (the
            // page before it is this transaction's), to the end of its interior.
            if lo < reusable.count, reusable[lo].offset == c, c + length <= pageInterior(reusable[lo]).hi {
                take(lo, at: c, length)
                cursor = c + length
                return c
            }
        }
        let want = max(length, regionHint)
        if want > length, let start = regionStart(want: want, length: length) {
            if start == logicalSize {
                logicalSize += length; cursor = logicalSize
                return start
            }
            take(extent(containing: start), at: start, length)
            cursor = start + length
            return start
        }
        let off = allocateFirstFit(length)
        cursor = off + length
        return off
    }

    /// Where a new run of a commit should start: the start of a reusable extent (for encrypted
    /// files, whose page-aligned interior is all that is reusable) or the logical end. Best fit:
    /// the smallest extent that holds `want` bytes (the whole commit), so larger ones stay whole
    /// for larger commits. No hole holds it and the holes add up to little (`fewHolesDivisor`):
    /// the end of the allocated area — contiguous, and the runs later commits free there
    /// coalesce into holes that do hold a commit. Otherwise the largest extent that holds the
    /// block (first fit would scatter the commit over the smallest). Nil: first fit.
    private mutating func regionStart(want: UInt64, length: UInt64) -> UInt64? {
        // The scans read the extents through one buffer pointer (a commit runs them over the
        // whole list each time it starts a run; element access would check exclusivity each time).
        let whole = wholePages
        if want <= largestReusableBound {
            listScans += 1
            var top = LargestExtents()
            let (best, largest, total) = reusable.withUnsafeBufferPointer { r -> (Int, UInt64, UInt64) in
                var largest: UInt64 = 0, total: UInt64 = 0, best = -1, bestLength = UInt64.max
                let page = UInt64(PageLayout.pageSize)
                for i in 0..<r.count {
                    // Encrypted files: whole pages only (what an allocation can use), so the
                    // holes add up to what later commits can reuse. An extent shorter than a
                    // page holds none (skipped without working out its pages).
                    let full = r[i].length
                    largest = max(largest, full)
                    if whole && full < page { continue }
                    let l = whole ? Self.interiorLength(r[i]) : full
                    total += l
                    if l >= want && l < bestLength { best = i; bestLength = l }
                    top.offer(r[i], usable: l)
                }
                return (best, largest, total)
            }
            largestExtents = top
            if best >= 0 { return pageInterior(reusable[best]).lo }
            largestReusableBound = largest
            holesAreFew = total < logicalSize / (whole ? Self.fewHolesDivisorEncrypted : Self.fewHolesDivisor)
        }
        if holesAreFew { return logicalSize }
        if let known = largestKnown(holding: length) {
            assert(known == largestByScan(holding: length).index, "the largest extents kept from the last scan answered \(String(describing: known)), a scan \(String(describing: largestByScan(holding: length).index))")
            return known.map { pageInterior(reusable[$0]).lo }
        }
        let (found, top) = largestByScan(holding: length)
        listScans += 1
        largestExtents = top
        return found.map { pageInterior(reusable[$0]).lo }
    }

    /// The first extent with the most usable bytes, when it holds `length`, found by scanning
    /// the whole list; and the largest extents for the runs that follow (`largestKnown`).
    private func largestByScan(holding length: UInt64) -> (index: Int?, top: LargestExtents) {
        let whole = wholePages
        var top = LargestExtents()
        let found = reusable.withUnsafeBufferPointer { r -> Int in
            var best = -1, bestLength: UInt64 = 0
            for i in 0..<r.count {
                let l = whole ? Self.interiorLength(r[i]) : r[i].length
                if l >= length && (best < 0 || l > bestLength) { best = i; bestLength = l }
                top.offer(r[i], usable: l)
            }
            return best
        }
        return (found >= 0 ? found : nil, top)
    }

    /// The extents with the most usable bytes (`interiorLength` for encrypted files) as of the
    /// last full scan of `regionStart`, and a bound on every other extent's. Between scans
    /// extents only shrink or split — every change that adds reusable space (`spaceAdded`)
    /// drops this — so an extent with more usable bytes than `others` is a piece of one of them.
    private var largestExtents: LargestExtents?
    /// Whole-list scans `regionStart` made (the runs of one commit reuse the first one's).
    private(set) var listScans = 0

    /// The index of the extent with the most usable bytes (the lowest offset among equals) when
    /// it has at least `length`; `.some(nil)` when no extent has; nil when `largest` cannot
    /// tell (not known, or an extent it does not list may be as large) and the list must be
    /// scanned. The same answer as a scan of the whole list.
    private func largestKnown(holding length: UInt64) -> Int?? {
        guard let largest = largestExtents else { return nil }
        var best = -1, bestLength: UInt64 = 0
        for c in largest.extents {
            // The pieces of `c` left now (an allocation from its middle splits it).
            var i = partitionPoint(reusable.count) { reusable[$0].offset + reusable[$0].length <= c.offset }
            while i < reusable.count && reusable[i].offset < c.end {
                let l = wholePages ? Self.interiorLength(reusable[i]) : reusable[i].length
                if l > bestLength || (l == bestLength && best >= 0 && reusable[i].offset < reusable[best].offset) { best = i; bestLength = l }
                i += 1
            }
        }
        if bestLength > largest.others { return .some(bestLength >= length ? best : nil) }
        if max(bestLength, largest.others) < length { return .some(nil) }
        return nil
    }

    /// The index of the first reusable extent whose offset is at least `offset` (binary search:
    /// `reusable` is sorted by offset).
    private func firstExtent(atOrAfter offset: UInt64) -> Int {
        partitionPoint(reusable.count) { reusable[$0].offset < offset }
    }

    /// Takes `length` bytes at `o` out of reusable extent `i` (which holds them); what is left
    /// before and after stays reusable.
    private mutating func take(_ i: Int, at o: UInt64, _ length: UInt64) {
        let r = reusable[i]
        let end = r.offset + r.length
        touch(r.offset, end)
        if o == r.offset {
            if r.length == length { reusable.remove(at: i) } else { reusable[i] = (r.offset + length, r.length - length) }
        } else if o + length == end {
            reusable[i] = (r.offset, o - r.offset)
        } else {
            reusable[i] = (r.offset, o - r.offset)
            reusable.insert((o + length, end - o - length), at: i + 1)
        }
    }

    /// The index of the reusable extent that holds `offset`.
    private func extent(containing offset: UInt64) -> Int {
        let i = partitionPoint(reusable.count) { reusable[$0].offset + reusable[$0].length <= offset }
        precondition(i < reusable.count && reusable[i].offset <= offset, "no reusable extent holds offset \(offset)")
        return i
    }

    /// The part of reusable extent `r` this transaction may allocate. Ordinary files: all of it.
    /// Encrypted files (`wholePages`, the clean-page rule): its whole pages, and its part of a
    /// page this transaction already allocated in (`cleanPages`); a page the extent shares with
    /// bytes a committed version can see is never written.
    @inline(__always) private func pageInterior(_ r: (offset: UInt64, length: UInt64)) -> (lo: UInt64, hi: UInt64) {
        guard wholePages else { return (r.offset, r.offset + r.length) }
        let page = UInt64(PageLayout.pageSize)
        let end = r.offset + r.length
        let lo = r.offset & (page - 1) == 0 || isClean(r.offset / page) ? r.offset : (r.offset + page - 1) & ~(page - 1)
        let hi = end & (page - 1) == 0 || isClean(end / page) ? end : end & ~(page - 1)
        return (lo, max(lo, hi))
    }

    /// Encrypted files: pages this transaction allocated in. Such a page held no byte of a
    /// committed version when it was first allocated in (the clean-page rule), and a
    /// transaction never makes free bytes live again, so all of it may be allocated.
    private var cleanPages: [UInt64] = []
    @inline(__always) private func isClean(_ pageNumber: UInt64) -> Bool { cleanPages.contains(pageNumber) }
    private mutating func noteClean(_ offset: UInt64, _ length: UInt64) {
        let page = UInt64(PageLayout.pageSize)
        for p in [offset / page, (offset + length - 1) / page] where !cleanPages.contains(p) {
            if cleanPages.count == 32 { cleanPages.removeFirst() }   // a hint: forgetting one only costs space
            cleanPages.append(p)
        }
    }

    /// The bytes of whole pages in extent `r` (encrypted files: what an allocation can use).
    @inline(__always) private static func interiorLength(_ r: (offset: UInt64, length: UInt64)) -> UInt64 {
        let page = UInt64(PageLayout.pageSize)
        let lo = (r.offset + page - 1) & ~(page - 1), hi = (r.offset + r.length) & ~(page - 1)
        return hi > lo ? hi - lo : 0
    }

    /// First fit from the lowest offset, else from the end of the allocated area.
    private mutating func allocateFirstFit(_ length: UInt64) -> UInt64 {
        if length <= largestReusableBound {
            var largest: UInt64 = 0
            for i in 0..<reusable.count {
                let r = reusable[i]
                let (lo, hi) = pageInterior(r)
                if let lim = limit, lo + length > lim { break }
                if hi - lo >= length {
                    take(i, at: lo, length)
                    return lo
                }
                largest = max(largest, r.length)
            }
            // Nothing fits: remember it so the next large requests skip the scan.
            if limit == nil { largestReusableBound = largest }
        }
        if let lim = limit, logicalSize + length > lim { limitExceeded = true }
        let off = logicalSize
        logicalSize += length
        return off
    }

    /// Tail of a page smaller than this left behind a tree node is given to the node as slack
    /// (encrypted files): free slivers that small would only clutter the free list.
    static let absorbedTail: UInt64 = 512

    /// Allocates a tree node: as `allocate`, but in an encrypted file a node that would leave
    /// less than `absorbedTail` free bytes at the end of its page (in the same free extent, or
    /// at the logical end) is extended to the end of the page. Returns the offset and length.
    mutating func allocateNode(_ length: UInt64) -> (offset: UInt64, length: UInt64) {
        guard wholePages && length <= UInt64(PageLayout.pageSize) else { return (allocate(length), length) }
        let page = UInt64(PageLayout.pageSize)
        let o = allocate(length)
        let pageEnd = (o & ~(page - 1)) + page
        let tail = pageEnd - (o + length)
        guard tail > 0, tail < Self.absorbedTail else { return (o, length) }
        if o + length == logicalSize {
            if let lim = limit, pageEnd > lim { return (o, length) }
            logicalSize = pageEnd
            if cursor != nil { cursor = pageEnd }
            return (o, length + tail)
        }
        // The bytes after the node: the start of a reusable extent (what the split left)?
        let lo = firstExtent(atOrAfter: o + length)
        guard lo < reusable.count, reusable[lo].offset == o + length, reusable[lo].length >= tail else { return (o, length) }
        touch(reusable[lo].offset, reusable[lo].offset + reusable[lo].length)
        if reusable[lo].length == tail { reusable.remove(at: lo) } else { reusable[lo] = (pageEnd, reusable[lo].length - tail) }
        if cursor != nil { cursor = pageEnd }
        return (o, length + tail)
    }

    /// `allocateInOnePage` right at `c` (the end of the previous allocation): in the reusable
    /// extent starting there, or at the logical end, at `c` or the next page boundary when the
    /// block would cross one (the skipped bytes stay free). Nil when it does not fit there.
    private mutating func allocateInOnePage(_ length: UInt64, at c: UInt64) -> UInt64? {
        let page = UInt64(PageLayout.pageSize)
        let o = (c & (page - 1)) + length > page ? (c + page - 1) & ~(page - 1) : c
        if c == logicalSize {
            if o > c { reusable.append((c, o - c)); spaceAdded(); touch(c, o) }
            logicalSize = o + length
            return o
        }
        // `c` is the end of this transaction's previous block (an extent starting there may be
        // used from its start) or a page boundary inside an extent (`regionStart`).
        let lo = partitionPoint(reusable.count) { reusable[$0].offset + reusable[$0].length <= c }
        guard lo < reusable.count, reusable[lo].offset <= c else { return nil }
        let r = reusable[lo]
        let end = r.offset + r.length
        let usable = pageInterior(r)
        guard c >= usable.lo, o + length <= usable.hi else { return nil }
        touch(r.offset, end)
        var parts: [(offset: UInt64, length: UInt64)] = []
        if o > r.offset { parts.append((r.offset, o - r.offset)) }
        if o + length < end { parts.append((o + length, end - o - length)) }
        reusable.replaceSubrange(lo...lo, with: parts)
        return o
    }

    /// `allocate` for a block of at most one page in an encrypted file: first fit at the lowest
    /// offset where the block does not cross a page boundary. Skipped bytes stay free.
    private mutating func allocateInOnePage(_ length: UInt64) -> UInt64 {
        let page = UInt64(PageLayout.pageSize)
        @inline(__always) func placed(_ o: UInt64) -> UInt64 { (o & (page - 1)) + length > page ? (o + page - 1) & ~(page - 1) : o }
        if length <= largestReusableBound {
            var largest: UInt64 = 0
            for i in 0..<reusable.count {
                let r = reusable[i]
                let end = r.offset + r.length
                let usable = pageInterior(r)
                let o = placed(usable.lo)
                if let lim = limit, o + length > lim { break }
                if o + length <= usable.hi {
                    touch(r.offset, end)
                    var parts: [(offset: UInt64, length: UInt64)] = []
                    if o > r.offset { parts.append((r.offset, o - r.offset)) }
                    if o + length < end { parts.append((o + length, end - o - length)) }
                    reusable.replaceSubrange(i...i, with: parts)
                    return o
                }
                largest = max(largest, r.length)
            }
            if limit == nil { largestReusableBound = largest }
        }
        let o = placed(logicalSize)
        if o > logicalSize {
            // The rest of the last page stays free (this transaction owns that page).
            reusable.append((logicalSize, o - logicalSize))
            touch(logicalSize, o)
            spaceAdded()
        }
        if let lim = limit, o + length > lim { limitExceeded = true }
        logicalSize = o + length
        return o
    }

    /// An upper bound of the longest reusable extent (kept so big requests skip a futile scan).
    private var largestReusableBound: UInt64 = .max

    /// Called wherever reusable space is added (an extent appears or grows): the bounds and the
    /// largest extents found by earlier scans no longer hold.
    @inline(__always) private mutating func spaceAdded() {
        largestReusableBound = .max
        largestExtents = nil
    }
    /// Set when an allocation under `limit` had to go past it.
    var limitExceeded = false

    /// Space of a block written and freed by this same transaction: reusable at once.
    mutating func releaseUnseen(offset: UInt64, length: UInt64) {
        if offset + length == logicalSize { touch(offset, logicalSize); logicalSize = offset; return }
        insertReusable(offset: offset, length: length)
    }

    /// A block that earlier versions can still see: reusable once no reader is in [birth, newVersion-1].
    mutating func releaseVisible(offset: UInt64, length: UInt64, birth: UInt64) {
        freedNow.append(FreeExtent(offset: offset, length: length, birth: birth, freed: newVersion))
        touch(offset, offset + length)
    }

    /// Settles the list to persist: parked space rejoins the reusable extents (free for all
    /// from now on), free-for-all space at the end of the allocated area is given back to the
    /// logical size, and the blocks freed now join `held` (adjacent ones with the same birth
    /// merged). Called once, after the last allocation.
    mutating func finish() {
        // The parked end of the last page rejoins the list (and is given back below when
        // nothing follows it); `init` recorded its range as touched.
        for p in parked { insertReusable(offset: p.offset, length: p.length) }
        parked.removeAll()
        while let last = reusable.last, last.offset + last.length == logicalSize {
            touch(last.offset, logicalSize)
            logicalSize = last.offset
            reusable.removeLast()
        }
        guard !freedNow.isEmpty else { return }
        freedNow.sort { $0.offset < $1.offset }
        var merged: [FreeExtent] = []
        for e in freedNow {
            if let last = merged.last, last.offset + last.length == e.offset, last.birth == e.birth {
                merged[merged.count - 1].length += e.length
            } else { merged.append(e) }
        }
        freedNow.removeAll()
        held = Self.mergeByOffset(held, merged)
    }

    /// Two lists sorted by offset, as one.
    private static func mergeByOffset(_ a: [FreeExtent], _ b: [FreeExtent]) -> [FreeExtent] {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        var out: [FreeExtent] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].offset < b[j].offset) { out.append(a[i]); i += 1 } else { out.append(b[j]); j += 1 }
        }
        return out
    }

    /// The whole list after `finish`: reusable space as free for all, and the held entries,
    /// sorted by offset.
    func finalEntries() -> [FreeExtent] { Self.entries(reusable: reusable, held: held) }

    /// Free-for-all extents and other entries (each sorted by offset) as one list.
    static func entries(reusable: [(offset: UInt64, length: UInt64)], held: [FreeExtent]) -> [FreeExtent] {
        mergeByOffset(reusable.map { FreeExtent(offset: $0.offset, length: $0.length, birth: 0, freed: 0) }, held)
    }

    /// How the list after `finish` differs from the one the transaction started from: the
    /// entries it no longer has and the entries it gained (each sorted by offset). Only the
    /// touched ranges are compared, so the cost follows the changes, not the list's length.
    func listChanges() -> (removed: [FreeExtent], added: [FreeExtent]) {
        guard !touched.isEmpty else { return ([], []) }
        // Ranges touched all over the list (a large commit): one linear pass over both lists.
        if touched.count > 64 && touched.count > (startReusable.count + startHeld.count) / 8 {
            return FreeListCodec.diff(base: Self.entries(reusable: startReusable, held: startHeld), list: finalEntries())
        }
        var windows = touched.sorted { $0.lo < $1.lo }
        var n = 0
        for w in windows.dropFirst() {
            if w.lo <= windows[n].hi { windows[n].hi = max(windows[n].hi, w.hi) } else { n += 1; windows[n] = w }
        }
        windows.removeSubrange((n + 1)...)
        let before = Self.touching(windows, startReusable, startHeld)
        let after = Self.touching(windows, reusable, held)
        return FreeListCodec.diff(base: before, list: after)
    }

    /// The entries of a list (free-for-all extents and others, each sorted by offset) that
    /// touch one of `windows` (sorted, disjoint), sorted by offset, each once.
    private static func touching(_ windows: [(lo: UInt64, hi: UInt64)], _ free: [(offset: UInt64, length: UInt64)],
                                 _ others: [FreeExtent]) -> [FreeExtent] {
        var out: [FreeExtent] = []
        out.reserveCapacity(2 * windows.count + 8)
        var i = 0, j = 0
        for w in windows {
            // First entry ending at or after the window (entries are disjoint: ends ascend too).
            i = partitionPoint(from: i, free.count) { free[$0].offset + free[$0].length < w.lo }
            while i < free.count && free[i].offset <= w.hi {
                out.append(FreeExtent(offset: free[i].offset, length: free[i].length, birth: 0, freed: 0)); i += 1
            }
            // An entry touching two windows is taken by the first: step back only past it.
            if i > 0 && free[i - 1].offset + free[i - 1].length > w.hi { i -= 1 }
            j = partitionPoint(from: j, others.count) { others[$0].offset + others[$0].length < w.lo }
            while j < others.count && others[j].offset <= w.hi { out.append(others[j]); j += 1 }
            if j > 0 && others[j - 1].offset + others[j - 1].length > w.hi { j -= 1 }
        }
        out.sort { $0.offset < $1.offset }
        var unique: [FreeExtent] = []
        unique.reserveCapacity(out.count)
        for e in out where unique.last != e { unique.append(e) }
        return unique
    }

    /// The free-for-all space within `offset ..< offset + length` (reusable extents, sorted).
    func reusableRanges(in offset: UInt64, _ end: UInt64) -> ArraySlice<(offset: UInt64, length: UInt64)> {
        let lo = partitionPoint(reusable.count) { reusable[$0].offset + reusable[$0].length <= offset }
        var k = lo
        while k < reusable.count && reusable[k].offset < end { k += 1 }
        return reusable[lo..<k]
    }

    /// Entries that would be written if the transaction committed now (for statistics).
    var pendingFreedCount: Int { freedNow.count }

    /// A block this transaction freed twice, or that the free list already holds: the version's
    /// blocks reach it twice, or reach free space (damage whose checksums hold). Persisting such
    /// a list would hand out live bytes again. O(k log n) for k blocks freed now.
    func doublyFreed() -> FreeExtent? {
        var end: UInt64 = 0
        for e in freedNow.sorted(by: { $0.offset < $1.offset }) {
            if e.offset < end || overlapsFreeSpace(offset: e.offset, length: e.length) { return e }
            end = e.offset + e.length
        }
        return nil
    }

    /// Whether `[offset, offset + length)` overlaps an extent of the list (reusable, parked or
    /// held): a live block never does. O(log n).
    func overlapsFreeSpace(offset: UInt64, length: UInt64) -> Bool {
        let end = offset + length
        let i = partitionPoint(reusable.count) { reusable[$0].offset + reusable[$0].length <= offset }
        if i < reusable.count, reusable[i].offset < end { return true }
        let j = partitionPoint(held.count) { held[$0].offset + held[$0].length <= offset }
        if j < held.count, held[j].offset < end { return true }
        return parked.contains { $0.offset < end && offset < $0.offset + $0.length }
    }
}

/// The first index in `from..<count` whose element is not `before` the target (binary search:
/// `before` holds for a prefix of the range and not after it). The one search of the free-list
/// code (sorted extents, reader versions).
@inline(__always) func partitionPoint(from start: Int = 0, _ count: Int, _ before: (Int) -> Bool) -> Int {
    var lo = start, hi = count
    while lo < hi { let mid = (lo + hi) / 2; if before(mid) { lo = mid + 1 } else { hi = mid } }
    return lo
}

/// The extents with the most usable bytes seen by a scan (`count` of them, most first, the
/// lower offset first among equals) and the most usable bytes of any other (`others`).
struct LargestExtents {
    static let count = 8
    private(set) var extents: [(offset: UInt64, end: UInt64, usable: UInt64)] = []
    /// Kept one longer than `count`: its last entry bounds all the extents not listed.
    private var extra: UInt64 = 0
    var others: UInt64 { extra }

    init() { extents.reserveCapacity(Self.count + 1) }

    /// Offers an extent (in offset order, so an equal one offered later ranks after).
    @inline(__always) mutating func offer(_ r: (offset: UInt64, length: UInt64), usable: UInt64) {
        guard usable > extra || (usable > 0 && extents.count < Self.count) else { return }
        insert((r.offset, r.offset + r.length, usable))
    }

    private mutating func insert(_ e: (offset: UInt64, end: UInt64, usable: UInt64)) {
        var i = extents.count
        while i > 0 && extents[i - 1].usable < e.usable { i -= 1 }
        extents.insert(e, at: i)
        if extents.count > Self.count { extra = max(extra, extents.removeLast().usable) }
    }
}
