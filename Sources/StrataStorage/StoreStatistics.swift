/// Space figures of the newest version, computed from the free list in O(free list), never by
/// walking the data (so the browser's status bar stays cheap on large files).
public struct SpaceStatistics: Sendable {
    /// The version the figures describe (the newest).
    public var version: UInt64
    /// Size of the file on disk.
    public var totalBytes: UInt64
    /// End of the allocated area (the rest of the file is preallocated growth).
    public var logicalBytes: UInt64
    /// Bytes of the newest version's live data (blocks reachable from it, plus the meta slots).
    public var usedBytes: UInt64
    /// Free bytes: free-list extents plus the preallocated tail.
    public var freeBytes: UInt64
    /// Free bytes still visible to some pinned reader (not reusable yet).
    public var lockedBytes: UInt64
    /// Every free extent, in file order.
    public var freeExtents: [FreeExtent]
    /// Every reader slot in use, live or stale.
    public var readers: [ReaderInfo]
    /// For each live reader slot: the bytes its pin keeps from reuse.
    public var pinnedBytesByReader: [Int: UInt64]
    /// The process holding the write lock when the figures were taken (nil: nobody writes).
    public var writeLockHolder: WriteLockHolder? = nil
}

/// One commit as recorded in the history tree.
public struct CommitRecord: Sendable, Equatable {
    /// The version the commit created.
    public var version: UInt64
    /// When it committed (nanoseconds since 1970).
    public var time: UInt64
    /// The committing process.
    public var pid: UInt32
    /// Bytes the commit wrote (blocks and meta slot).
    public var bytesWritten: UInt64
    /// The writer's label (`StoreOptions.label`, or its process name).
    public var label: String
    /// Bytes the layer above attached to the commit (the object layer records what changed).
    public var note: [UInt8]
}

extension Store {
    /// Space figures of the newest version (cheap: reads the free list only).
    public func spaceStatistics() throws -> SpaceStatistics {
        let txn = try beginRead(label: "stats")
        defer { txn.end() }
        let meta = txn.meta
        var entries: [FreeExtent] = []
        if meta.freeListRef != 0 {
            entries = try FreeListCodec.load(meta.freeListRef, logicalSize: meta.logicalSize, path: path) { try txn.block($0) }.entries
        }
        let allReaders = readers().filter { $0.slot != txn.slot }
        let live = allReaders.filter(\.isAlive).map(\.version).sorted()
        let total = try fileSize()
        var free: UInt64 = 0, locked: UInt64 = 0
        for e in entries {
            free += e.length
            if !e.isReusable(readers: live) { locked += e.length }
        }
        var pinned: [Int: UInt64] = [:]
        for r in allReaders where r.isAlive {
            pinned[r.slot] = entries.filter { !$0.isFreeForAll && $0.birth <= r.version && r.version < $0.freed }.reduce(0) { $0 + $1.length }
        }
        let used = meta.logicalSize - free
        return SpaceStatistics(version: meta.version, totalBytes: total, logicalBytes: meta.logicalSize, usedBytes: used,
                               freeBytes: free + (total > meta.logicalSize ? total - meta.logicalSize : 0), lockedBytes: locked,
                               freeExtents: entries, readers: allReaders, pinnedBytesByReader: pinned,
                               writeLockHolder: writeLockHolder)
    }

    /// The newest `limit` commits, newest first.
    public func recentCommits(limit: Int = 50) throws -> [CommitRecord] {
        let txn = try beginRead(label: "history")
        defer { txn.end() }
        guard let h = try txn.tree(WriteTransaction.historyTree) else { return [] }
        var out: [CommitRecord] = []
        try h.forEach { e in
            let bytes = try h.bytes(of: e.value)
            try bytes.withUnsafeBytes { raw in
                var r = ByteReader(raw)
                do {
                    let time = try r.u64(), pid = try r.u32(); _ = try r.u32()
                    let written = try r.u64(), label = try r.string(), note = try r.lengthPrefixed()
                    out.append(CommitRecord(version: HistoryKey.decode(e.key), time: time, pid: pid, bytesWritten: written, label: label, note: note))
                } catch { throw StorageError.corrupted(path: path, detail: "history entry is malformed") }
            }
            return true
        }
        return Array(out.reversed().prefix(limit))
    }

    /// Bytes per tree (walks every block: proportional to the data).
    public func treeSizes() throws -> [String: UInt64] {
        let txn = try beginRead(label: "sizes")
        defer { txn.end() }
        txn.verifiesChecksums = false
        var w = BlockWalker(txn: txn)
        w.verifyChecksums = false
        w.walkAll(catalogRoot: txn.meta.catalogRef)
        return w.perTree
    }
}
