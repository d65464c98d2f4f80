#if canImport(Glibc)
import Glibc
#endif
import CStrataSupport

/// What the catalog (the tree of named trees) stores for each tree: its root and whether it is
/// weighted. Inline value: u64 root ref, u32 flags (bit 0 weighted), u32 0.
enum CatalogEntry {
    static func encode(root: BlockRef, weighted: Bool) -> [UInt8] {
        var w = ByteWriter(capacity: 16)
        w.u64(root); w.u32(weighted ? 1 : 0); w.u32(0)
        return w.bytes
    }
    static func decode(_ v: TreeValue, path: String, name: String) throws -> (root: BlockRef, weighted: Bool) {
        guard case .inline(let b) = v, b.count == 16 else {
            throw StorageError.corrupted(path: path, detail: "catalog entry for '\(name)' is malformed")
        }
        return b.withUnsafeBytes { p in (p.baseAddress!.getLE(0, as: UInt64.self), p.baseAddress!.getLE(8, as: UInt32.self) & 1 != 0) }
    }
}

/// A view of one version of the database: named B+trees reached through the catalog.
/// Base class of `ReadTransaction` and `WriteTransaction`; belongs to one thread at a time.
public class Transaction: TreeContext {
    /// The store this transaction reads.
    public let store: Store
    @exclusivity(unchecked) var catalogState: TreeState!
    @exclusivity(unchecked) var trees: [String: TreeState] = [:]
    /// The catalog: tree name → (root, flags).
    var catalog: BTree { BTree(state: catalogState, ctx: self) }
    // `ended`, `verifiesChecksums` and `ReadTransaction.meta` are read by every block read:
    // plain loads, without the runtime's exclusivity bookkeeping (never accessed overlapping).
    @exclusivity(unchecked) var ended = false
    /// Keeps decrypted pages behind this transaction's views alive (encrypted files only; see
    /// `PageArena` for the lifetime rule).
    let arena = PageArena()
    /// Whether block reads verify checksums (on first read per block, see `BlockVerdicts`).
    /// Off only for the integrity check, which reports damage rather than stopping at it.
    @exclusivity(unchecked) var verifiesChecksums = true

    init(store: Store) { self.store = store }

    /// The database file's path.
    public var path: String { store.path }
    var isWritable: Bool { false }
    /// The version this transaction reads (for a write transaction: the version it will create).
    public var version: UInt64 { fatalError("abstract") }

    func block(_ ref: BlockRef) throws -> BlockView { fatalError("abstract") }
    /// Starts bringing the first bytes of block `ref` into the CPU cache without waiting (a
    /// hint: nothing is read or checked; no-op where blocks are not read in place).
    package func prefetch(_ ref: BlockRef) {}
    func release(_ ref: BlockRef) throws { throw StorageError.readOnly(path: path) }
    func releaseSubtree(_ ref: BlockRef) throws { throw StorageError.readOnly(path: path) }
    func writeBlock(kind: UInt8, payloadSize: Int, fill: (UnsafeMutableRawPointer) -> Void) throws -> BlockRef {
        throw StorageError.readOnly(path: path)
    }

    func checkOpen() throws { if ended { throw StorageError.transactionEnded } }

    /// The tree named `name`, or nil when it does not exist.
    public func tree(_ name: String) throws -> BTree? {
        try checkOpen()
        if let t = trees[name] { return BTree(state: t, ctx: self) }
        guard let v = try catalog.get(Array(name.utf8)) else { return nil }
        let (root, weighted) = try CatalogEntry.decode(v, path: path, name: name)
        let t = TreeState(name: name, root: root, weighted: weighted)
        trees[name] = t
        return BTree(state: t, ctx: self)
    }

    /// Names of all trees in this version, sorted.
    public func treeNames() throws -> [String] {
        try checkOpen()
        var names = Set<String>()
        try catalog.forEach { names.insert(String(decoding: $0.key, as: UTF8.self)); return true }
        if isWritable { for (n, _) in trees { names.insert(n) } }
        return names.sorted()
    }

    /// The root block of a tree as committed in this version (0 when empty or absent).
    package func committedRoot(of name: String) throws -> (root: BlockRef, weighted: Bool)? {
        guard let v = try catalog.get(Array(name.utf8)) else { return nil }
        return try CatalogEntry.decode(v, path: path, name: name)
    }

    /// A bounds-checked view of a generic block (refs + bytes) written by the layer above.
    package func genericBlock(_ ref: BlockRef) throws -> GenericBlock {
        let v = try block(ref)
        guard v.kindByte >= BlockKind.generic.rawValue else {
            throw StorageError.corrupted(path: path, detail: "block \(ref) is not a data block (kind \(v.kindByte))")
        }
        do { return try GenericBlock(v) } catch {
            throw StorageError.corrupted(path: path, detail: "data block \(ref) is malformed")
        }
    }
}

/// A snapshot of one committed version. It pins that version in a reader slot of the lock file,
/// so no writer (in any process) reuses the space it can see, until `end()` or `refresh()`.
public final class ReadTransaction: Transaction {
    @exclusivity(unchecked) package private(set) var meta: MetaSlot
    var slot: Int?
    let label: String

    init(store: Store, label: String) throws {
        self.label = label
        var s: Int? = nil
        meta = try store.pinNewest(slot: &s, label: label)
        slot = s
        super.init(store: store)
        catalogState = TreeState(name: "", root: meta.catalogRef, weighted: false)
    }

    /// Takes over `previous`'s reader slot (ending `previous`), pinned at `committed`: the
    /// version this handle's writer has just made durable and published, still holding the
    /// writer lock (see `WriteTransaction.continuing`). Nil when `previous` belongs to another
    /// handle, has ended or holds no slot in a file with a lock file.
    init?(taking previous: ReadTransaction, at committed: MetaSlot) {
        guard !previous.ended else { return nil }
        let s = previous.slot
        if let lock = previous.store.lock {
            guard let s else { return nil }
            lock.updateReader(s, version: committed.version)
        }
        previous.slot = nil
        previous.end()
        label = previous.label
        meta = committed
        slot = s
        super.init(store: previous.store)
        catalogState = TreeState(name: "", root: committed.catalogRef, weighted: false)
    }

    public override var version: UInt64 { meta.version }

    override func block(_ ref: BlockRef) throws -> BlockView {
        if ended { throw StorageError.transactionEnded }
        return try store.blockView(ref, limit: meta.logicalSize, arena: arena, verify: verifiesChecksums)
    }
    /// Unencrypted files are read in place from the mapping: prefetches the block's first line
    /// (`block` checks the reference when it is read).
    override package func prefetch(_ ref: BlockRef) {
        guard store.crypto == nil, ref < meta.logicalSize else { return }
        strata_prefetch(store.map.base + Int(ref))
    }

    /// Advances to the newest version. Returns true when the version changed.
    @discardableResult
    public func refresh() throws -> Bool {
        let old = meta.version
        var s = slot
        meta = try store.pinNewest(slot: &s, label: label)
        slot = s
        ended = false
        if meta.version != old {
            arena.clear()
            trees.removeAll()
            catalogState = TreeState(name: "", root: meta.catalogRef, weighted: false)
        }
        return meta.version != old
    }

    /// Releases the pinned version. The transaction can be revived with `refresh()`.
    public func end() {
        if let s = slot { store.unpin(slot: s) }
        slot = nil
        ended = true
        trees.removeAll()
        arena.clear()
    }

    deinit { if let s = slot { store.unpin(slot: s) } }
}
