/// The result of `Store.check()`.
public struct IntegrityReport: Sendable {
    /// The version that was checked (the newest).
    public var version: UInt64
    /// How many blocks are reachable from that version.
    public var blocks = 0
    /// Bytes in those blocks.
    public var liveBytes: UInt64 = 0
    /// Bytes in the free list and the preallocated tail.
    public var freeBytes: UInt64 = 0
    /// Free bytes still visible to pinned readers (not reusable yet).
    public var lockedBytes: UInt64 = 0
    /// End of the allocated area.
    public var logicalSize: UInt64 = 0
    /// Size of the file on disk.
    public var fileSize: UInt64 = 0
    /// Each named tree and the number of entries it holds.
    public var trees: [String: UInt64] = [:]
    /// Every piece of damage found, one sentence each naming the block (empty when sound).
    public var problems: [String] = []
    /// Findings that are not damage to the version checked (a one-sync commit a power loss cut
    /// short, so the file is at the version before it).
    public var notes: [String] = []
    /// True when no problem was found.
    public var isSound: Bool { problems.isEmpty }
}

/// Walks every block reachable from one version and checks, like bbolt's `tx.Check`:
/// checksums and structure of every block; each block reached exactly once; no block overlaps
/// another or a free extent; every byte of [dataStart, logicalSize) is either live or free
/// (nothing leaked). Also used for per-tree space accounting.
struct BlockWalker {
    let txn: Transaction
    var extents: [(offset: UInt64, length: UInt64, owner: Int)] = []
    var owners: [String] = []
    var verifyChecksums = true
    var perTree: [String: UInt64] = [:]
    let maxProblems = 100
    /// Problems in the order found; the same finding again only counts (`found`).
    private var found: [(text: String, times: Int)] = []
    private var foundIndex: [String: Int] = [:]
    /// Problems past `maxProblems` (counted, not listed).
    private(set) var unlisted = 0
    /// Blocks that could not be read, by the error (one damaged page, or an encrypted page that
    /// fails its authentication, makes every block on it unreadable): one problem each, with
    /// the trees that reach them and how many blocks.
    private var unreadable: [String: (problem: Int, owners: [String], blocks: Int)] = [:]
    /// Offsets of the blocks that could not be read (their bytes are not leaks).
    private(set) var unreadableRefs: [BlockRef] = []

    init(txn: Transaction) { self.txn = txn }

    mutating func problem(_ s: String) {
        if let i = foundIndex[s] { found[i].times += 1; return }
        guard found.count < maxProblems else { unlisted += 1; return }
        foundIndex[s] = found.count
        found.append((s, 1))
    }

    /// Every problem once; one found several times says how often.
    var problems: [String] {
        found.map { $0.times > 1 ? "\($0.text) (found \($0.times) times)" : $0.text }
    }

    /// A block that could not be read: one problem per distinct error, naming its trees and blocks.
    private mutating func unreadableBlock(_ ref: BlockRef, owner: Int, error: Error) {
        unreadableRefs.append(ref)
        let detail = "\(error)"
        if var u = unreadable[detail] {
            u.blocks += 1
            if !u.owners.contains(owners[owner]) { u.owners.append(owners[owner]) }
            unreadable[detail] = u
            found[u.problem].text = "\(u.owners.joined(separator: ", ")): \(u.blocks) blocks unreadable: \(detail)"
            return
        }
        guard found.count < maxProblems else { unlisted += 1; return }
        unreadable[detail] = (found.count, [owners[owner]], 1)
        found.append(("\(owners[owner]): \(detail)", 1))
    }

    /// Visits one block; returns its view when it is sound enough to descend into.
    mutating func visit(_ ref: BlockRef, owner: Int, tree: String) -> BlockView? {
        let v: BlockView
        do { v = try txn.block(ref) } catch { unreadableBlock(ref, owner: owner, error: error); return nil }
        extents.append((ref, UInt64(v.length), owner))
        perTree[tree, default: 0] += UInt64(v.length)
        if verifyChecksums && !v.checksumIsValid { problem("\(owners[owner]): block \(ref) fails its checksum") }
        if v.birth > txn.version { problem("\(owners[owner]): block \(ref) is born at version \(v.birth), after \(txn.version)") }
        return v
    }

    mutating func walkGeneric(_ ref: BlockRef, owner: Int, tree: String, depth: Int) {
        guard depth < 64 else { problem("\(owners[owner]): blocks nested deeper than 64 levels"); return }
        guard let v = visit(ref, owner: owner, tree: tree) else { return }
        switch v.kindByte {
        case BlockKind.leaf.rawValue, BlockKind.inner.rawValue:
            walkTree(ref: ref, alreadyVisited: v, owner: owner, tree: tree, depth: depth)
        case BlockKind.generic.rawValue...:
            guard let g = try? GenericBlock(v) else { problem("\(owners[owner]): data block \(ref) is malformed"); return }
            for i in 0..<g.refCount where g.ref(i) != 0 { walkGeneric(g.ref(i), owner: owner, tree: tree, depth: depth + 1) }
        default:
            problem("\(owners[owner]): block \(ref) has unexpected kind \(v.kindByte)")
        }
    }

    /// Walks a B+tree, checking order, separators and weights. Returns (first key, total weight).
    @discardableResult
    mutating func walkTree(ref: BlockRef, alreadyVisited: BlockView? = nil, owner: Int, tree: String, depth: Int) -> ([UInt8]?, UInt64) {
        guard depth < 64 else { problem("\(owners[owner]): tree deeper than 64 levels"); return (nil, 0) }
        guard let v = alreadyVisited ?? visit(ref, owner: owner, tree: tree) else { return (nil, 0) }
        let d: DirtyNode
        do { d = try DirtyNode.decode(try StoredNode(v, path: txn.path), path: txn.path) }
        catch { problem("\(owners[owner]): \(error)"); return (nil, 0) }
        if d.count == 0 && depth > 0 { problem("\(owners[owner]): empty node \(ref)") }
        if d.isLeaf {
            for i in 0..<d.count {
                switch d.value(i) {
                case .inline: break
                case .largeBlob(let r, let len):
                    if let bv = visit(r, owner: owner, tree: tree) {
                        if let g = try? GenericBlock(bv) { if g.bytes.count < len { problem("\(owners[owner]): large value \(r) shorter than recorded") } }
                        else { problem("\(owners[owner]): large value \(r) malformed") }
                    }
                case .owned(let r): walkGeneric(r, owner: owner, tree: tree, depth: depth + 1)
                }
                if !d.weighted && d.weight(i) != 1 { problem("\(owners[owner]): unweighted entry with weight \(d.weight(i))") }
            }
            return (d.count > 0 ? d.key(0) : nil, d.totalWeight)
        }
        for i in 0..<d.count {
            guard case .stored(let c) = d.children[i] else { continue }
            let unreadableBefore = unreadableRefs.count
            let (first, w) = walkTree(ref: c, owner: owner, tree: tree, depth: depth + 1)
            // A subtree with unreadable blocks (already a problem) cannot be weighed.
            if unreadableRefs.count != unreadableBefore { continue }
            if let first, first != d.key(i) { problem("\(owners[owner]): separator \(i) of node \(ref) is not the smallest key of its child") }
            if w != d.weight(i) { problem("\(owners[owner]): weight of child \(i) of node \(ref) is \(d.weight(i)), subtree holds \(w)") }
        }
        return (d.count > 0 ? d.key(0) : nil, d.totalWeight)
    }

    /// Walks the catalog and every tree.
    mutating func walkAll(catalogRoot: BlockRef) {
        owners.append("catalog")
        if catalogRoot != 0 { walkTree(ref: catalogRoot, owner: 0, tree: "(catalog)", depth: 0) }
        do {
            try txn.catalog.forEach { e in
                let name = String(decoding: e.key, as: UTF8.self)
                let (root, _) = try CatalogEntry.decode(e.value, path: txn.path, name: name)
                owners.append("tree '\(name)'")
                perTree[name, default: 0] += 0
                if root != 0 { walkTree(ref: root, owner: owners.count - 1, tree: name, depth: 0) }
                return true
            }
        } catch { problem("catalog: \(error)") }
    }
}

extension Store {
    /// Checks the newest version (see `BlockWalker`). Never throws for damage it can describe:
    /// damage is listed in `problems`; it throws only when the file cannot be opened at all.
    public func check() throws -> IntegrityReport {
        let txn = try beginRead(label: "check")
        defer { txn.end() }
        txn.verifiesChecksums = false   // the walker checks every block and lists the damage
        let meta = txn.meta
        var report = IntegrityReport(version: meta.version)
        report.logicalSize = meta.logicalSize
        report.fileSize = try fileSize()
        // Newer slots that opening passes over, read while no writer is writing one: a damaged
        // slot is a problem, a one-sync commit cut short is a note (see StoreWarning).
        var slotProblems: [String] = []
        for w in settledMetaSlotWarnings() where w.openedVersion == meta.version {
            if w.isDamage { slotProblems.append(w.description) } else { report.notes.append(w.description) }
        }
        var w = BlockWalker(txn: txn)
        w.walkAll(catalogRoot: meta.catalogRef)
        // Free list.
        w.owners.append("free list")
        let flOwner = w.owners.count - 1
        var entries: [FreeExtent] = []
        if meta.freeListRef != 0 {
            // A full list, or a delta and its base: each block visited (accounted) once.
            var visited: Set<BlockRef> = []
            struct Unreadable: Error {}
            do {
                entries = try FreeListCodec.load(meta.freeListRef, logicalSize: meta.logicalSize, path: path) { r in
                    if visited.contains(r) { return try txn.block(r) }
                    visited.insert(r)
                    guard let v = w.visit(r, owner: flOwner, tree: "(free list)") else { throw Unreadable() }
                    return v
                }.entries
            } catch is Unreadable {
            } catch { w.problem("free list: \(error)") }
        }
        let readers = readers().filter(\.isAlive).map(\.version).sorted()
        for e in entries {
            w.extents.append((e.offset, e.length, flOwner))
            report.freeBytes += e.length
            if !e.isReusable(readers: readers) { report.lockedBytes += e.length }
        }
        // Overlaps and leaks.
        w.extents.sort { $0.offset < $1.offset }
        var cursor = MetaSlot.dataStart
        // Bytes between accounted blocks that hold a block that could not be read are that
        // block (reported above), not a leak.
        let unreadableRefs = w.unreadableRefs.sorted()
        func holdsUnreadable(_ start: UInt64, _ end: UInt64) -> Bool {
            var lo = 0, hi = unreadableRefs.count
            while lo < hi { let mid = (lo + hi) / 2; if unreadableRefs[mid] < start { lo = mid + 1 } else { hi = mid } }
            return lo < unreadableRefs.count && unreadableRefs[lo] < end
        }
        var leaks: [(start: UInt64, end: UInt64)] = []
        for e in w.extents {
            if e.offset < cursor {
                w.problem("\(w.owners[e.owner]): bytes [\(e.offset), \(e.offset + e.length)) overlap other data or are reached twice")
            } else if e.offset > cursor && !holdsUnreadable(cursor, e.offset) {
                leaks.append((cursor, e.offset))
            }
            cursor = max(cursor, e.offset + e.length)
        }
        if cursor > meta.logicalSize { w.problem("data extends to \(cursor), past the logical size \(meta.logicalSize)") }
        else if cursor < meta.logicalSize && !holdsUnreadable(cursor, meta.logicalSize) { leaks.append((cursor, meta.logicalSize)) }
        if unreadableRefs.isEmpty || leaks.isEmpty {
            for l in leaks { w.problem("bytes [\(l.start), \(l.end)) are neither live nor free (leaked)") }
        } else {
            // Blocks below an unreadable one cannot be reached: their bytes look leaked. One
            // problem, not one per block of the lost subtrees.
            let bytes = leaks.reduce(0) { $0 + $1.end - $1.start }
            w.problem("\(QuantityText.grouped(bytes)) bytes in \(leaks.count) range\(leaks.count == 1 ? "" : "s") (from [\(leaks[0].start), \(leaks[0].end))) are neither live nor free: most likely blocks below the unreadable ones, which cannot be reached")
        }
        report.blocks = w.extents.count - entries.count
        report.liveBytes = w.extents.filter { $0.owner != flOwner }.reduce(0) { $0 + $1.length }
        report.trees = w.perTree
        report.problems = slotProblems + w.problems
        if w.unlisted > 0 { report.problems.append("… and \(w.unlisted) more problems (not listed)") }
        return report
    }
}
