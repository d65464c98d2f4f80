#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Online and automatic compaction: relocation (Relocation.swift) in ordinary write
/// transactions, then giving back the file's tail. Nothing here needs exclusivity: other
/// handles and processes keep reading and writing; each batch is one commit with the usual
/// crash safety, and other writers run between batches.
extension Store {
    /// The offset compaction relocates data below: the used bytes plus slack for fragmentation
    /// and for the blocks the relocating commits themselves write. `attempt` widens the slack
    /// when a pass could not get everything below.
    static func compactionTarget(used: UInt64, attempt: Int = 0) -> UInt64 {
        let slack = max(used / 16, 256 << 10) * UInt64(attempt + 1)
        return (used + slack + 4095) & ~4095
    }

    /// Compacts while other processes read and write the file.
    ///
    /// Chooses a target (≈ used bytes plus slack), then in batches (one write transaction each,
    /// bounded work, so other writers interleave) copies every block lying above the target into
    /// free space below it, rewriting the parents up to the root. Old blocks are freed with their
    /// birth versions, so readers of older versions are unaffected. Once nothing live lies above
    /// the target and no reader can see the tail, a commit lowers the logical size and the file
    /// is truncated. When a reader still pins a version that sees the tail, the result reports
    /// `pendingTailBytes` and the readers; a later commit gives the tail back once they end.
    @discardableResult
    public func compactOnline(progress: CompactionProgressHandler? = nil) throws -> CompactionResult {
        if options.readOnly { throw StorageError.readOnly(path: path) }
        let started = DispatchTime.now()
        try refuseDamagedMetaSlot(settledMetaSlotWarnings())
        // Relocation commits its batches as it goes: damage met halfway would come after the
        // first batches were written. So the whole version is checked first, and a damaged file
        // is left as it is (full compaction finds damage while copying, before it replaces anything).
        let report = try check()
        if let first = report.problems.first {
            let more = report.problems.count > 1 ? " (and \(report.problems.count - 1) more problems)" : ""
            throw StorageError.corrupted(path: path, detail: first + more + "; compaction refused, as it would make that loss permanent")
        }
        let before = try fileSize()
        var moved: UInt64 = 0
        var s = try spaceStatistics()
        var target = Store.compactionTarget(used: s.usedBytes)
        let total = max(1, s.liveBytes(above: target))
        progress?(CompactionProgress(bytesDone: 0, bytesTotal: total))
        var previousLogical = UInt64.max
        for attempt in 0..<5 {
            target = Store.compactionTarget(used: s.usedBytes, attempt: attempt)
            if s.logicalBytes <= target { break }
            if s.liveBytes(above: target) > 0 {
                var cursor = RelocationCursor()
                var finished = false
                while !finished {
                    let w = try beginWrite(label: "compact-online")
                    w.isRelocationBatch = true
                    do {
                        let step = try w.relocate(above: target, cursor: &cursor, byteBudget: 8 << 20, visitBudget: 100_000)
                        moved += step.bytesMoved
                        finished = step.passFinished
                        try w.commit()
                    } catch { w.abort(); throw error }
                    progress?(CompactionProgress(bytesDone: min(moved, total), bytesTotal: total))
                }
            }
            // Blocks freed by the batches become reusable in the next transaction (when no
            // reader pins them); the commit then lowers the logical size and truncates.
            for _ in 0..<2 { try commitTrim() }
            s = try spaceStatistics()
            if s.logicalBytes <= target { break }
            // Only free (pinned) space left above the target, or no progress: stop here.
            if s.liveBytes(above: target) == 0 || s.logicalBytes >= previousLogical { break }
            previousLogical = s.logicalBytes
        }
        progress?(CompactionProgress(bytesDone: total, bytesTotal: total))
        try giveBackGrowthTail()
        s = try spaceStatistics()
        let tailStart = min(target, s.logicalBytes)
        var pending: UInt64 = 0
        var pinning: [ReaderInfo] = []
        if s.logicalBytes > target {
            let held = s.freeExtents.filter { !$0.isFreeForAll && $0.offset + $0.length > tailStart }
            pending = held.reduce(0) { $0 + $1.length }
            pinning = s.readers.filter { r in r.isAlive && held.contains { $0.birth <= r.version && r.version < $0.freed } }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return CompactionResult(beforeBytes: before, afterBytes: try fileSize(), seconds: seconds, version: s.version,
                                bytesMoved: moved, pendingTailBytes: pending, pinningReaders: pinning)
    }

    /// Truncates the file to its logical size (rounded up to 4 KiB) under the writer lock: the
    /// tail past it is what file growth preallocated (`StoreOptions.growthStep`), part of no
    /// version, so no reader can see it. Nothing is committed. Online compaction gives it back
    /// even when no block had to move (`space` counts it in what compaction gives back).
    private func giveBackGrowthTail() throws {
        let w = try beginWrite(label: "compact-online")
        defer { w.abort() }
        let keep = (w.alloc.logicalSize + 4095) & ~4095
        if try fileSize() > keep { try shrinkFile(to: keep) }
    }

    /// An empty commit that lets relocated space become reusable, lowers the logical size and
    /// truncates the file.
    private func commitTrim() throws {
        let w = try beginWrite(label: "compact-online")
        w.isRelocationBatch = true
        try w.commit()
    }
}

extension SpaceStatistics {
    /// Live bytes of the newest version lying (partly) above `offset`: what relocation to
    /// `offset` has to move.
    public func liveBytes(above offset: UInt64) -> UInt64 {
        guard logicalBytes > offset else { return 0 }
        var free: UInt64 = 0
        for e in freeExtents where e.offset + e.length > offset {
            free += e.offset + e.length - max(e.offset, offset)
        }
        let span = logicalBytes - offset
        return span > free ? span - free : 0
    }
}

extension WriteTransaction {
    /// Bytes in the free list as this transaction would write it (reusable, held and freed now).
    var freeListBytes: UInt64 {
        alloc.reusableBytes + alloc.held.reduce(0) { $0 + $1.length }
            + alloc.freedNow.reduce(0) { $0 + $1.length }
    }

    /// Automatic compaction, run by `commit()` before the dirty trees are written: when the file
    /// is at least 1 MiB and free space exceeds twice the used data, relocate a bounded amount
    /// (≤ 256 KiB moved, ≤ 512 blocks visited) from above the target, resuming where this
    /// handle's previous step stopped. The cost per commit is bounded; the space comes back over
    /// many commits (the tail is truncated by `shrinkFileTailAfterCommit`).
    func automaticCompactionStep() throws {
        // Under the writer lock the file's size changes only through this handle, which keeps
        // it (`beginWrite` read it): no fstat per commit.
        let fileSize = store.knownFileSize
        guard fileSize >= 1 << 20 else { return }
        let logical = alloc.logicalSize
        let listed = freeListBytes
        let used = logical > listed ? logical - listed : logical
        let free = listed + (fileSize > logical ? fileSize - logical : 0)
        guard free > 2 * used else { return }
        let target = Store.compactionTarget(used: used)
        guard logical > target else { return }
        var cursor = store.compactionState.autoCursor
        relocatedBlocks = true
        _ = try relocate(above: target, cursor: &cursor, byteBudget: Self.automaticByteBudget, visitBudget: Self.automaticVisitBudget)
        store.compactionState.autoCursor = cursor
    }

    /// Bytes moved per commit by automatic compaction at most (plus one leaf's values).
    static let automaticByteBudget: UInt64 = 256 << 10
    /// Blocks visited per commit by automatic compaction at most.
    static let automaticVisitBudget = 512

    /// After a durable commit, still holding the writer lock: truncates the file when its tail
    /// past the logical size is no longer needed. Safe against readers in any process: the
    /// logical size only drops over space that was free for all (no live reader can see it), and
    /// readers never touch bytes outside the blocks their version reaches.
    ///
    /// Relocation batches truncate to the logical size. Otherwise (automatic compaction) the
    /// tail is cut only when it exceeds what geometric growth would have preallocated, so growth
    /// and shrinking never alternate.
    func shrinkFileTailAfterCommit() {
        guard isRelocationBatch || store.options.automaticCompaction else { return }
        let size = store.knownFileSize
        let logical = alloc.logicalSize
        if isRelocationBatch {
            let keep = (logical + 4095) & ~4095
            if size > keep { try? store.shrinkFile(to: keep) }
        } else {
            let keep = (logical + 0xFFFF) & ~0xFFFF
            if size > keep + max(1 << 20, min(keep, store.options.growthStep)) { try? store.shrinkFile(to: keep) }
        }
    }
}
