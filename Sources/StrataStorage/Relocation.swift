#if canImport(Glibc)
import Glibc
#endif

/// Relocation: the step online and automatic compaction repeat inside ordinary write
/// transactions. Every live block lying (partly) above a target offset is copied into space
/// below it (the allocator's `limit`), and the path above it is copied too (copy-on-write up to
/// the tree root, then the catalog at commit). Old blocks are freed with their birth versions
/// like any other change, so readers of older versions keep seeing theirs; once nothing live
/// lies above the target and no reader can see the tail, the commit gives the tail back
/// (the logical size drops) and the file is truncated.
///
/// The work is bounded per transaction (bytes moved, blocks visited) and resumes from a cursor
/// (tree name, key), so other writers interleave between batches.
struct Relocator {
    let txn: WriteTransaction
    let target: UInt64
    let byteBudget: UInt64
    let visitBudget: Int
    var copier: BlockCopier<TransactionBlockSink>

    init(txn: WriteTransaction, target: UInt64, byteBudget: UInt64, visitBudget: Int) {
        self.txn = txn; self.target = target; self.byteBudget = byteBudget; self.visitBudget = visitBudget
        let version = txn.version
        copier = BlockCopier(sink: TransactionBlockSink(txn: txn), path: txn.path, source: { [unowned txn] in try txn.block($0) }) { ref, length, birth in
            // Blocks written by this transaction already sit where the allocator could put them.
            ref + UInt64(length) > target && birth != version
        }
    }

    var exhausted: Bool { copier.bytesCopied >= byteBudget || copier.blocksVisited >= visitBudget }

    private func corrupt(_ ref: BlockRef) -> StorageError { .corrupted(path: txn.path, detail: "tree node \(ref) is malformed") }

    /// Index of the child of `n` whose subtree holds `key` (0 when `key` is below all).
    private func childIndex(_ n: StoredNode, _ key: [UInt8]) throws -> Int {
        var lo = 0, hi = n.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let c: Int
            do { c = try key.withUnsafeBytes { compareBytes(try n.key(mid), $0) } } catch { throw corrupt(n.view.ref) }
            if c <= 0 { lo = mid + 1 } else { hi = mid }
        }
        return max(0, lo - 1)
    }

    /// Relocates within the stored subtree at `ref`, starting at `from`. Returns the ref the
    /// parent must point to and, when the budget ran out, the key to resume at.
    mutating func relocateStored(_ ref: BlockRef, from: [UInt8]?, depth: Int) throws -> (BlockRef, resume: [UInt8]?) {
        guard depth < 64 else { throw StorageError.corrupted(path: txn.path, detail: "tree deeper than 64 levels at \(ref)") }
        let v = try txn.block(ref)
        let n = try StoredNode(v, path: txn.path)
        if n.isLeaf {
            // A leaf moves as a unit with its values (the copier checks each one).
            return (try copier.copy(ref), nil)
        }
        copier.blocksVisited += 1
        var start = 0
        if let from { start = try childIndex(n, from) }
        var changes: [(Int, BlockRef)] = []
        var resume: [UInt8]? = nil
        for i in start..<n.count {
            if exhausted {
                do { resume = Array(try n.key(i)) } catch { throw corrupt(ref) }
                break
            }
            let child = n.child(i)
            let (newChild, r) = try relocateStored(child, from: i == start ? from : nil, depth: depth + 1)
            if newChild != child { changes.append((i, newChild)) }
            if let r { resume = r; break }
        }
        guard !changes.isEmpty || copier.shouldMove(ref, v.length, v.birth) else { return (ref, resume) }
        let payload = v.payload
        let newRef = try copier.sink.place(kind: v.kindByte, payloadSize: payload.count) { p in
            memcpy(p, payload.baseAddress!, payload.count)
            for (i, r) in changes { p.putLE(r, at: 8 + NodeFormat.innerEntryFixed * i) }
        }
        try copier.sink.retire(ref)
        copier.bytesCopied += UInt64(v.length)
        return (newRef, resume)
    }

    /// Relocates below a node already modified by this transaction (it is written at commit,
    /// below the limit when space allows); its stored children and values may lie above.
    mutating func relocateDirty(_ d: DirtyNode, from: [UInt8]?, depth: Int) throws -> [UInt8]? {
        guard depth < 64 else { throw StorageError.corrupted(path: txn.path, detail: "tree deeper than 64 levels") }
        var start = 0
        if let from {
            start = from.withUnsafeBytes { f in (0..<d.count).first { compareBytes(d.keyBytes($0), f) >= 0 } } ?? d.count
            if !d.isLeaf && (start == d.count || d.key(start) != from) { start = max(0, start - 1) }
        }
        for i in start..<d.count {
            if exhausted { return d.key(i) }
            if d.isLeaf {
                if let r = d.ownedRef(i) {
                    let nr = try copier.copy(r)
                    if nr != r { d.setValueRef(i, nr) }
                }
                continue
            }
            switch d.children[i] {
            case .dirty(let c):
                if let r = try relocateDirty(c, from: i == start ? from : nil, depth: depth + 1) { return r }
            case .stored(let c):
                let (nc, r) = try relocateStored(c, from: i == start ? from : nil, depth: depth + 1)
                if nc != c { d.children[i] = .stored(nc) }
                if let r { return r }
            }
        }
        return nil
    }

    /// Relocates one tree (or the catalog's own nodes), from `from`. Returns the resume key when
    /// the budget ran out.
    mutating func relocate(tree state: TreeState, from: [UInt8]?) throws -> [UInt8]? {
        switch state.root {
        case nil: return nil
        case .dirty(let d)?: return try relocateDirty(d, from: from, depth: 0)
        case .stored(let r)?:
            let (nr, resume) = try relocateStored(r, from: from, depth: 0)
            if nr != r { state.root = .stored(nr); state.modified = true }
            return resume
        }
    }
}

extension WriteTransaction {
    /// One batch of relocation (see `Relocator`): moves live blocks lying above `target` below it,
    /// starting at `cursor`, until about `byteBudget` bytes moved or `visitBudget` blocks were
    /// visited. New blocks go where the allocator puts them: first fit from the lowest offset,
    /// i.e. below the target whenever a hole there fits (a hard `limit` would push a block that
    /// fits nowhere below onto the end of the file instead of into a hole above the target).
    /// Returns the bytes moved and whether the pass reached the end of the data (then `cursor`
    /// is reset to the start).
    func relocate(above target: UInt64, cursor: inout RelocationCursor, byteBudget: UInt64,
                  visitBudget: Int = .max) throws -> (bytesMoved: UInt64, passFinished: Bool) {
        try checkOpen()
        alloc.firstFitOnly = true
        var r = Relocator(txn: self, target: target, byteBudget: byteBudget, visitBudget: visitBudget)
        let names = try treeNames()
        for name in names {
            if let t = cursor.tree, name < t { continue }
            guard let tree = try tree(name) else { continue }
            let from = name == cursor.tree ? cursor.key : nil
            if let resume = try r.relocate(tree: tree.state, from: from) {
                cursor = RelocationCursor(tree: name, key: resume)
                return (r.copier.bytesCopied, false)
            }
            if r.exhausted, let next = names.first(where: { $0 > name }) {
                cursor = RelocationCursor(tree: next, key: nil)
                return (r.copier.bytesCopied, false)
            }
        }
        // The catalog's own nodes (its entries are updated at commit for trees that moved).
        var whole = Relocator(txn: self, target: target, byteBudget: .max, visitBudget: .max)
        _ = try whole.relocate(tree: catalogState, from: nil)
        cursor = RelocationCursor()
        return (r.copier.bytesCopied + whole.copier.bytesCopied, true)
    }
}
