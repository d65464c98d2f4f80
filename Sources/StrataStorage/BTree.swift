#if canImport(Glibc)
import Glibc
#endif

/// The mutable state of one tree within one transaction.
final class TreeState {
    let name: String
    let weighted: Bool
    // Read by every operation on the tree (one transaction, one thread, never overlapping).
    @exclusivity(unchecked) var root: DirtyNode.Child?
    @exclusivity(unchecked) var modified = false
    /// Leaves split above this many bytes (block size; at most `NodeFormat.maxNodeBytes`).
    @exclusivity(unchecked) var leafLimit = NodeFormat.maxNodeBytes
    init(name: String, root: BlockRef, weighted: Bool) {
        self.name = name; self.weighted = weighted
        self.root = root == 0 ? nil : .stored(root)
    }
}

/// What a tree needs from the transaction it lives in.
protocol TreeContext: AnyObject {
    var path: String { get }
    /// A bounds-checked view of a committed (or already flushed) block.
    func block(_ ref: BlockRef) throws -> BlockView
    /// Whether writes are allowed (a write transaction).
    var isWritable: Bool { get }
    /// Frees one block (tree node, or a large-value blob).
    func release(_ ref: BlockRef) throws
    /// Frees a generic block and every block its refs own.
    func releaseSubtree(_ ref: BlockRef) throws
    /// Allocates and writes a block; `fill` writes the payload.
    func writeBlock(kind: UInt8, payloadSize: Int, fill: (UnsafeMutableRawPointer) -> Void) throws -> BlockRef
}

/// One entry of a tree, as returned by lookups and iteration.
public struct TreeEntry: Equatable, Sendable {
    /// The entry's key.
    public var key: [UInt8]
    package var value: TreeValue
    /// The entry's weight (1 in unweighted trees).
    public var weight: UInt64
}

/// A copy-on-write B+tree of byte keys and values, optionally weighted (each entry carries a
/// weight; inner nodes keep subtree sums, so `entry(atWeight:)` finds the entry covering a
/// position in O(log n): the object layer stores clusters weighted by their object count).
///
/// In a read transaction the tree reads nodes straight from the mapping. In a write
/// transaction a node is decoded into a `DirtyNode` the first time it changes (its old block
/// is freed with its birth version) and encoded into a new block at commit.
public final class BTree {
    /// The tree's state, owned by its transaction (handles share it; no reference cycle).
    let state: TreeState
    /// The transaction: a handle keeps it alive.
    let ctx: TreeContext
    /// The tree's name in the catalog.
    public var name: String { state.name }
    /// Whether entries carry weights (inner nodes then keep subtree sums).
    public var weighted: Bool { state.weighted }
    var root: DirtyNode.Child? { get { state.root } set { state.root = newValue } }
    /// True once the tree changed in this transaction.
    var modified: Bool { get { state.modified } set { state.modified = newValue } }

    /// The size (block bytes, 256 to `NodeFormat.maxNodeBytes`) above which a leaf splits, for
    /// this transaction. A log that only appends (keys in increasing order) rewrites its last
    /// leaf at every commit: smaller leaves make each commit write fewer bytes (with a larger
    /// root). Nodes written before keep their size; the format is unchanged.
    package var leafLimit: Int {
        get { state.leafLimit }
        set { state.leafLimit = min(NodeFormat.maxNodeBytes, max(256, newValue)) }
    }

    init(state: TreeState, ctx: TreeContext) {
        self.state = state
        self.ctx = ctx
    }

    enum NodeRef {
        case s(StoredNode), d(DirtyNode)
        var count: Int { switch self { case .s(let n): return n.count; case .d(let n): return n.count } }
        var isLeaf: Bool { switch self { case .s(let n): return n.isLeaf; case .d(let n): return n.isLeaf } }
    }

    func node(_ c: DirtyNode.Child) throws -> NodeRef {
        switch c {
        case .dirty(let d): return .d(d)
        case .stored(let r): return .s(try StoredNode(try ctx.block(r), path: ctx.path))
        }
    }

    private func corrupt(_ detail: String) -> StorageError { .corrupted(path: ctx.path, detail: "tree '\(name)': \(detail)") }

    /// Lower bound: the first index whose key is >= `key`, and whether it is equal.
    func search(_ n: NodeRef, _ key: UnsafeRawBufferPointer) throws -> (Int, Bool) {
        var lo = 0, hi = n.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let c: Int
            switch n {
            case .s(let s):
                do { c = compareBytes(try s.key(mid), key) } catch { throw corrupt("node \(s.view.ref) is malformed") }
            case .d(let d): c = compareBytes(d.keyBytes(mid), key)
            }
            if c < 0 { lo = mid + 1 } else if c == 0 { return (mid, true) } else { hi = mid }
        }
        return (lo, false)
    }

    /// `search` for an 8-byte key: keys of 8 bytes compare as big-endian integers (no memcmp);
    /// other lengths fall back to byte order.
    func search8(_ n: NodeRef, _ key: UInt64, _ keyBytes: UnsafeRawBufferPointer) throws -> (Int, Bool) {
        guard case .s(let s) = n else { return try search(n, keyBytes) }
        var lo = 0, hi = s.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let k: UnsafeRawBufferPointer
            do { k = try s.key(mid) } catch { throw corrupt("node \(s.view.ref) is malformed") }
            let c: Int
            if k.count == 8 {
                let v = UInt64(bigEndian: k.loadUnaligned(as: UInt64.self))
                c = v < key ? -1 : (v == key ? 0 : 1)
            } else {
                c = compareBytes(k, keyBytes)
            }
            if c < 0 { lo = mid + 1 } else if c == 0 { return (mid, true) } else { hi = mid }
        }
        return (lo, false)
    }

    private func childIndex(_ n: NodeRef, _ key: UnsafeRawBufferPointer) throws -> Int {
        let (i, eq) = try search(n, key)
        return eq ? i : max(0, i - 1)
    }

    private func child(_ n: NodeRef, _ i: Int) -> DirtyNode.Child {
        switch n { case .s(let s): return .stored(s.child(i)); case .d(let d): return d.children[i] }
    }

    private func keyArray(_ n: NodeRef, _ i: Int) throws -> [UInt8] {
        switch n {
        case .s(let s): do { return Array(try s.key(i)) } catch { throw corrupt("node \(s.view.ref) is malformed") }
        case .d(let d): return d.key(i)
        }
    }

    private func leafEntry(_ n: NodeRef, _ i: Int) throws -> TreeEntry {
        switch n {
        case .s(let s):
            do { return TreeEntry(key: Array(try s.key(i)), value: try s.leafTreeValue(i), weight: try s.leafWeight(i)) }
            catch { throw corrupt("node \(s.view.ref) is malformed") }
        case .d(let d): return TreeEntry(key: d.key(i), value: d.value(i), weight: d.weight(i))
        }
    }

    private func weightOf(_ n: NodeRef, _ i: Int) throws -> UInt64 {
        switch n {
        case .s(let s): if s.isLeaf { do { return try s.leafWeight(i) } catch { throw corrupt("node \(s.view.ref) is malformed") } } else { return s.childWeight(i) }
        case .d(let d): return d.weight(i)
        }
    }

    // MARK: reading

    /// The value stored under `key`.
    package func get(_ key: [UInt8]) throws -> TreeValue? {
        try key.withUnsafeBytes { try get($0) }
    }

    package func get(_ key: UnsafeRawBufferPointer) throws -> TreeValue? {
        guard var c = root else { return nil }
        var depth = 0
        while true {
            let n = try node(c)
            if n.isLeaf {
                let (i, eq) = try search(n, key)
                return eq ? try leafEntry(n, i).value : nil
            }
            if n.count == 0 { throw corrupt("empty inner node") }
            c = child(n, try childIndex(n, key))
            depth += 1
            if depth > 64 { throw corrupt("tree deeper than 64 levels (a cycle?)") }
        }
    }

    /// The bytes of the value under `key` (inline or large), read without copying where possible.
    public func getBytes(_ key: [UInt8]) throws -> [UInt8]? {
        guard let v = try get(key) else { return nil }
        return try bytes(of: v)
    }

    /// The bytes a value holds (for `.owned`, the generic block's raw bytes section).
    package func bytes(of v: TreeValue) throws -> [UInt8] {
        switch v {
        case .inline(let b): return b
        case .largeBlob(let r, let len):
            let g = try dataBlock(r)
            guard g.bytes.count >= len else { throw corrupt("large value at \(r) is shorter than recorded") }
            return Array(g.bytes.prefix(len))
        case .owned(let r): return Array(try dataBlock(r).bytes)
        }
    }

    /// The generic block at `r`; one too short for its refs section is damage (`corrupted`).
    private func dataBlock(_ r: BlockRef) throws -> GenericBlock {
        let v = try ctx.block(r)
        do { return try GenericBlock(v) } catch {
            throw corrupt("data block \(r) is malformed: its refs section does not fit its \(v.length) bytes")
        }
    }

    /// The entry with the greatest key <= `key`.
    public func floor(_ key: [UInt8]) throws -> TreeEntry? {
        guard var c = root else { return nil }
        var best: TreeEntry? = nil
        for _ in 0..<64 {
            let n = try node(c)
            if n.isLeaf {
                let (i, eq) = try key.withUnsafeBytes { try search(n, $0) }
                if eq { return try leafEntry(n, i) }
                if i > 0 { return try leafEntry(n, i - 1) }
                return best
            }
            let (i, eq) = try key.withUnsafeBytes { try search(n, $0) }
            let ci = eq ? i : i - 1
            if ci < 0 { return best } // key is below everything
            c = child(n, ci)
            _ = best; best = nil
        }
        throw corrupt("tree deeper than 64 levels")
    }

    /// The value of the entry with the greatest key <= `key`, and that key, for trees whose keys
    /// are 8 bytes (the object layer's cluster trees): one descent, no allocation.
    package func floor8(_ key: UInt64) throws -> (key: UInt64, value: TreeValue)? {
        guard var c = root else { return nil }
        var be = key.bigEndian
        return try withUnsafeBytes(of: &be) { k in
            for _ in 0..<64 {
                let n = try node(c)
                let (i, eq) = try search8(n, key, k)
                let idx = eq ? i : i - 1
                if idx < 0 { return nil }
                if n.isLeaf {
                    switch n {
                    case .s(let st):
                        do {
                            let kb = try st.leafKey(idx)
                            guard kb.count == 8 else { return nil }
                            return (UInt64(bigEndian: kb.loadUnaligned(as: UInt64.self)), try st.leafTreeValue(idx))
                        } catch { throw corrupt("node \(st.view.ref) is malformed") }
                    case .d(let d):
                        let kb = d.keyBytes(idx)
                        guard kb.count == 8 else { return nil }
                        return (UInt64(bigEndian: kb.loadUnaligned(as: UInt64.self)), d.value(idx))
                    }
                }
                c = child(n, idx)
            }
            throw corrupt("tree deeper than 64 levels")
        }
    }

    /// Sum of all entry weights (the number of entries when unweighted).
    public var totalWeight: UInt64 {
        get throws {
            guard let r = root else { return 0 }
            switch try node(r) {
            case .d(let d): return d.totalWeight
            case .s(let s): do { return try s.totalWeight } catch { throw corrupt("node \(s.view.ref) is malformed") }
            }
        }
    }

    /// The entry covering position `w` (0-based) in weight order, and the position where it starts.
    public func entry(atWeight w: UInt64) throws -> (entry: TreeEntry, start: UInt64)? {
        guard var c = root else { return nil }
        var base: UInt64 = 0
        var rem = w
        for _ in 0..<64 {
            let n = try node(c)
            var i = 0
            while i < n.count {
                let wt = try weightOf(n, i)
                if rem < wt { break }
                rem -= wt; base += wt; i += 1
            }
            if i == n.count { return nil }
            if n.isLeaf { return (try leafEntry(n, i), base) }
            c = child(n, i)
        }
        throw corrupt("tree deeper than 64 levels")
    }

    /// Calls `body` for each entry with key >= `from` (all when nil), in key order, until it returns false.
    public func forEach(from: [UInt8]? = nil, _ body: (TreeEntry) throws -> Bool) throws {
        guard let r = root else { return }
        _ = try walk(r, from: from, depth: 0, body)
    }

    private func walk(_ c: DirtyNode.Child, from: [UInt8]?, depth: Int, _ body: (TreeEntry) throws -> Bool) throws -> Bool {
        if depth > 64 { throw corrupt("tree deeper than 64 levels") }
        let n = try node(c)
        var start = 0
        if let f = from {
            start = try f.withUnsafeBytes { n.isLeaf ? try search(n, $0).0 : try childIndex(n, $0) }
        }
        if n.isLeaf {
            for i in start..<n.count where i >= 0 { if try !body(try leafEntry(n, i)) { return false } }
        } else {
            for i in start..<n.count {
                if try !walk(child(n, i), from: i == start ? from : nil, depth: depth + 1, body) { return false }
            }
        }
        return true
    }

    /// All entries (for tests and small trees).
    public func entries() throws -> [TreeEntry] {
        var out: [TreeEntry] = []
        try forEach { out.append($0); return true }
        return out
    }

    // MARK: writing

    private func requireWritable() throws {
        guard ctx.isWritable else { throw StorageError.readOnly(path: ctx.path) }
    }

    /// Makes the node behind `c` dirty (decoding a stored node and freeing its block).
    private func dirty(_ c: DirtyNode.Child) throws -> DirtyNode {
        switch c {
        case .dirty(let d): return d
        case .stored(let r):
            let s = try StoredNode(try ctx.block(r), path: ctx.path)
            let d = try DirtyNode.decode(s, path: ctx.path)
            try ctx.release(r)
            return d
        }
    }

    /// Stores `bytes` under `key`, inline when small, else in a large-value block.
    public func put(_ key: [UInt8], bytes: [UInt8], weight: UInt64 = 1) throws {
        if bytes.count > NodeFormat.maxInlineValue {
            guard bytes.count <= BlockHeader.maxLength - 64 else { throw StorageError.valueTooLarge(size: bytes.count, limit: BlockHeader.maxLength - 64) }
            let ref = try ctx.writeBlock(kind: BlockKind.generic.rawValue, payloadSize: GenericBlock.payloadSize(refs: 0, bytes: bytes.count)) { p in
                p.putLE(UInt32(0), at: 0); p.putLE(UInt32(0), at: 4)
                bytes.withUnsafeBytes { _ = memcpy(p + 8, $0.baseAddress!, bytes.count) }
            }
            try put(key, value: .largeBlob(ref, length: bytes.count), weight: weight)
        } else {
            try put(key, value: .inline(bytes), weight: weight)
        }
    }

    /// Stores `value` under `key`, replacing any previous value. With `releasingOld` (the
    /// default) the previous value's blocks are freed; pass false when the caller has already
    /// taken care of them (the object layer reuses unchanged columns of a replaced cluster).
    package func put(_ key: [UInt8], value: TreeValue, weight: UInt64 = 1, releasingOld: Bool = true) throws {
        try requireWritable()
        guard key.count <= NodeFormat.maxKey else { throw StorageError.keyTooLarge(size: key.count, limit: NodeFormat.maxKey) }
        if case .inline(let b) = value, b.count > NodeFormat.maxInlineValue {
            throw StorageError.valueTooLarge(size: b.count, limit: NodeFormat.maxInlineValue)
        }
        let w = weighted ? weight : 1
        modified = true
        guard let r = root else {
            let leaf = DirtyNode(isLeaf: true, weighted: weighted)
            leaf.insertLeaf(at: 0, key: key, value: value, weight: w)
            root = .dirty(leaf)
            return
        }
        let rootNode = try dirty(r)
        root = .dirty(rootNode)
        if let right = try insert(rootNode, key, value, w, releasingOld: releasingOld, depth: 0) {
            let newRoot = DirtyNode(isLeaf: false, weighted: weighted)
            newRoot.insertInner(at: 0, key: rootNode.keyBytes(0), child: .dirty(rootNode), weight: rootNode.totalWeight)
            newRoot.insertInner(at: 1, key: right.keyBytes(0), child: .dirty(right), weight: right.totalWeight)
            root = .dirty(newRoot)
        }
    }

    /// Inserts into a dirty subtree; returns a new right sibling when the node split.
    private func insert(_ n: DirtyNode, _ key: [UInt8], _ value: TreeValue, _ w: UInt64, releasingOld: Bool, depth: Int) throws -> DirtyNode? {
        if depth > 64 { throw corrupt("tree deeper than 64 levels") }
        let (i, eq) = try key.withUnsafeBytes { try search(.d(n), $0) }
        if n.isLeaf {
            if eq {
                if releasingOld, let old = n.ownedRef(i), old != value.ownedRef {
                    if n.entries[i].kind == .owned { try ctx.releaseSubtree(old) } else { try ctx.release(old) }
                }
                n.replaceValue(i, value, weight: w)
            } else {
                n.insertLeaf(at: i, key: key, value: value, weight: w)
            }
            if n.blockBytes > state.leafLimit && n.count > 1 { return n.split(appending: i == n.count - 1) }
            return nil
        }
        let ci = eq ? i : max(0, i - 1)
        let c = try dirty(n.children[ci])
        n.children[ci] = .dirty(c)
        if ci == 0 && !eq && i == 0 {
            // New smallest key: the separator of child 0 follows it.
            key.withUnsafeBytes { n.setKey(0, $0) }
        }
        let right = try insert(c, key, value, w, releasingOld: releasingOld, depth: depth + 1)
        n.setWeight(ci, c.totalWeight)
        if let right {
            n.insertInner(at: ci + 1, key: right.keyBytes(0), child: .dirty(right), weight: right.totalWeight)
            if n.blockBytes > NodeFormat.maxNodeBytes && n.count > 2 { return n.split(appending: ci + 1 == n.count - 1) }
        }
        return nil
    }

    /// Removes `key`; returns false when it was absent. Frees the value's blocks.
    @discardableResult
    public func delete(_ key: [UInt8], releasingOld: Bool = true) throws -> Bool {
        try requireWritable()
        guard let r = root else { return false }
        // Look first, so a miss does not copy the path.
        if try get(key) == nil { return false }
        modified = true
        let rootNode = try dirty(r)
        root = .dirty(rootNode)
        _ = try remove(rootNode, key, releasingOld: releasingOld, depth: 0)
        // Shrink the root.
        while let cur = root, case .dirty(let d) = cur {
            if d.count == 0 { root = nil; break }
            if !d.isLeaf && d.count == 1 { root = d.children[0]; continue }
            break
        }
        return true
    }

    /// Removes several keys, in any order (absent ones are skipped); returns how many were
    /// removed. Frees the values' blocks like `delete`. Without `delete`'s look-up before each
    /// removal, and in key order (sorted here), so consecutive removals share the path already
    /// copied: removing many entries (a bulk delete's index entries) costs one descent each.
    @discardableResult
    public func delete(keys unsorted: [[UInt8]], releasingOld: Bool = true) throws -> Int {
        try requireWritable()
        guard let r = root, !unsorted.isEmpty else { return 0 }
        let keys = unsorted.sorted { a, b in a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in compareBytes(pa, pb) < 0 } } }
        modified = true
        let rootNode = try dirty(r)
        root = .dirty(rootNode)
        var removed = 0
        for k in keys {
            if rootNode.count == 0 { break }
            if try remove(rootNode, k, releasingOld: releasingOld, depth: 0) { removed += 1 }
        }
        while let cur = root, case .dirty(let d) = cur {
            if d.count == 0 { root = nil; break }
            if !d.isLeaf && d.count == 1 { root = d.children[0]; continue }
            break
        }
        return removed
    }

    private func remove(_ n: DirtyNode, _ key: [UInt8], releasingOld: Bool, depth: Int) throws -> Bool {
        if depth > 64 { throw corrupt("tree deeper than 64 levels") }
        let (i, eq) = try key.withUnsafeBytes { try search(.d(n), $0) }
        if n.isLeaf {
            guard eq else { return false }
            if releasingOld, let old = n.ownedRef(i) {
                if n.entries[i].kind == .owned { try ctx.releaseSubtree(old) } else { try ctx.release(old) }
            }
            n.remove(at: i)
            return true
        }
        let ci = eq ? i : max(0, i - 1)
        let c = try dirty(n.children[ci])
        n.children[ci] = .dirty(c)
        guard try remove(c, key, releasingOld: releasingOld, depth: depth + 1) else { return false }
        n.setWeight(ci, c.totalWeight)
        if c.count == 0 {
            n.remove(at: ci)
            return true
        }
        if compareBytes(n.keyBytes(ci), c.keyBytes(0)) != 0 { n.setKey(ci, c.keyBytes(0)) }
        // Merge an underfull child into a neighbour when both fit in one node.
        let limit = c.isLeaf ? state.leafLimit : NodeFormat.maxNodeBytes
        if c.blockBytes < limit / 4 && n.count > 1 {
            let li = ci > 0 ? ci - 1 : ci
            let left = try dirty(n.children[li]), right = try dirty(n.children[li + 1])
            n.children[li] = .dirty(left); n.children[li + 1] = .dirty(right)
            if left.blockBytes + right.blockBytes - BlockHeader.size - NodeFormat.headerBytes <= limit {
                left.append(contentsOf: right)
                n.remove(at: li + 1)
                n.setWeight(li, left.totalWeight)
            }
        }
        return true
    }

    /// Removes every entry, freeing all nodes and owned blocks.
    public func removeAll() throws {
        try requireWritable()
        if let r = root { try freeSubtree(r); modified = true }
        root = nil
    }

    private func freeSubtree(_ c: DirtyNode.Child) throws {
        let n = try node(c)
        for i in 0..<n.count {
            if n.isLeaf {
                let e = try leafEntry(n, i)
                switch e.value {
                case .inline: break
                case .largeBlob(let r, _): try ctx.release(r)
                case .owned(let r): try ctx.releaseSubtree(r)
                }
            } else {
                try freeSubtree(child(n, i))
            }
        }
        if case .stored(let r) = c { try ctx.release(r) }
    }

    /// Writes every dirty node and returns the root ref (0 when empty).
    func flush() throws -> BlockRef {
        guard let r = root else { return 0 }
        let ref = try flush(r)
        root = .stored(ref)
        return ref
    }

    private func flush(_ c: DirtyNode.Child) throws -> BlockRef {
        switch c {
        case .stored(let r): return r
        case .dirty(let d):
            if !d.isLeaf {
                for i in 0..<d.children.count { d.children[i] = .stored(try flush(d.children[i])) }
            }
            return try ctx.writeBlock(kind: d.isLeaf ? BlockKind.leaf.rawValue : BlockKind.inner.rawValue, payloadSize: d.payloadBytes) { p in
                d.encode(into: p)
            }
        }
    }

    /// The committed root, when nothing is dirty.
    var storedRoot: BlockRef? {
        guard let r = root else { return 0 }
        if case .stored(let ref) = r { return ref }
        return nil
    }
}
