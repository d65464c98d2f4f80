import Foundation
import StrataStorage

/// The objects of one class within one transaction: locating, reading and (in a write
/// transaction) changing them. Changed clusters are kept decoded until commit (`flush`).
final class ClassTable {
    unowned let txn: DBTransaction
    let schema: ObjectSchema
    let columns: [PropertySchema]
    let treeName: String
    private var treeCache: BTree?
    /// Clusters changed in this transaction, by tree key.
    var dirty: [Int64: MutableCluster] = [:]
    /// The rightmost cluster, when known: appends with larger keys go straight there.
    private var tail: (treeKey: Int64, lastKey: ObjKey)?
    /// Next object key for classes without an Int primary key (loaded lazily).
    private var nextKey: ObjKey?
    var nextKeyDirty = false
    /// Object count changes not yet reflected in the tree's weights.
    private var weightsStale = false

    /// Column index by property name.
    let columnByName: [String: Int]
    /// Columns with a secondary index (not an Int primary key, which is the object key).
    let indexedColumns: [Int]
    /// Columns linking to embedded objects (deleted with their parent).
    lazy var embeddedLinkColumns: [Int] = columns.indices.filter { c in
        columns[c].type == .object && columns[c].objectClassName.map { txn.schema[$0]?.isEmbedded == true } == true
    }
    /// Column of the primary key, if any.
    let pkColumn: Int?
    /// Objects inserted / modified / deleted in this transaction.
    var changeCounts = DBTransaction.ChangeCounts()
    /// The keys this transaction inserted, deleted and modified (the commit's change record).
    var recorder = ClassChangeRecorder()
    /// True in a read transaction: committed clusters cannot change, so `readSingle` may keep
    /// the last cluster it read (`lastRead`).
    let isReadOnly: Bool
    /// Read transactions: the cluster of the last `readSingle` and its column views (made once,
    /// then reloaded in place).
    private var lastRead: ReadCache?
    /// `lastRead` unretained: the typed reads neither retain nor release it.
    private var lastReadRef: Unmanaged<ReadCache>?
    /// Sink of the loads a `RowFetch` issues (a stored result, so the compiler keeps them).
    fileprivate var fetchSink: UInt64 = 0
    /// The typed API's property index → column map of one model class (see `typedColumn`).
    private var typedColumns: (info: AnyObject, columns: [Int])?

    init(txn: DBTransaction, layout: ClassLayout) {
        self.txn = txn
        self.storage = txn.storage
        self.schema = layout.schema
        self.columns = layout.columns
        self.treeName = layout.treeName
        columnByName = layout.columnByName
        indexedColumns = layout.indexedColumns
        pkColumn = layout.pkColumn
        usesPrimaryKeyAsObjectKey = layout.usesPrimaryKeyAsObjectKey
        columnTypes = layout.columnTypes
        isReadOnly = !txn.isWritable
    }

    /// True when `key` is certainly absent because it is larger than every key (appending).
    func isBeyondLastKey(_ key: ObjKey) -> Bool {
        if let tl = tail { return key > tl.lastKey && dirty[tl.treeKey] != nil }
        return false
    }

    /// `txn.storage`, kept here: reading it through the unowned `txn` took the runtime's
    /// checked unowned load (an atomic increment and decrement) on every cluster read.
    let storage: Transaction
    var write: WriteTransaction { txn.storage as! WriteTransaction }
    /// An Int primary key is the object key itself.
    let usesPrimaryKeyAsObjectKey: Bool
    /// Per column: its type (avoids copying `PropertySchema` in hot loops).
    let columnTypes: [PropertyType]

    func tree(create: Bool) throws -> BTree? {
        if let t = treeCache { return t }
        if create, let w = txn.storage as? WriteTransaction {
            treeCache = try w.tree(treeName, create: true, weighted: true)
        } else {
            treeCache = try storage.tree(treeName)
        }
        return treeCache
    }

    // MARK: counting and positions

    /// Number of objects (O(1) from the tree's root weights).
    func count() throws -> Int {
        try syncWeights()
        guard let t = try tree(create: false) else { return 0 }
        return Int(try t.totalWeight)
    }

    /// Brings the tree's weights up to date with the dirty clusters (before positional reads).
    func syncWeights() throws {
        guard weightsStale, let t = try tree(create: false) else { return }
        for (tk, c) in dirty where c.count > 0 {
            guard let e = try t.get(ClusterKey.encode(tk)) else { continue }
            try t.put(ClusterKey.encode(tk), value: e, weight: UInt64(c.count), releasingOld: false)
        }
        weightsStale = false
    }

    /// The cluster holding position `index` (in key order), and the row within it.
    func locate(index: Int) throws -> (treeKey: Int64, row: Int)? {
        try syncWeights()
        guard index >= 0, let t = try tree(create: false), let (e, start) = try t.entry(atWeight: UInt64(index)) else { return nil }
        return (ClusterKey.decode(e.key), index - Int(start))
    }

    /// The cluster that holds (or would hold) `key`.
    private func clusterEntry(for key: ObjKey) throws -> (treeKey: Int64, value: TreeValue)? {
        guard let t = try tree(create: false) else { return nil }
        if let e = try t.floor(ClusterKey.encode(key)) { return (ClusterKey.decode(e.key), e.value) }
        return nil
    }

    /// The cluster holding `key` and its row (one tree search), or nil.
    func locateCluster(key: ObjKey) throws -> (ClusterRead, Int)? {
        if let c = lastLocated, key >= c.treeKey, key <= c.lastKey, dirty[c.treeKey] == nil {
            return c.cluster.row(of: key).map { (.stored(c.cluster), $0) }
        }
        guard let (tk, value) = try clusterEntry(for: key) else { return nil }
        if let m = dirty[tk] { return m.row(of: key).map { (.dirty(m), $0) } }
        guard case .owned(let ref) = value else { return nil }
        let s = try StoredCluster(storage, ref: ref)
        if s.count > 0 { lastLocated = (tk, s, s.key(s.count - 1), ref) }
        return s.row(of: key).map { (.stored(s), $0) }
    }

    /// Where `key` lives: its cluster's tree key and row, or nil when there is no such object.
    /// A key within the committed cluster of the previous call is found without a tree search
    /// (checks of keys in order, as before a bulk delete).
    func locate(key: ObjKey) throws -> (treeKey: Int64, row: Int)? {
        if let c = lastLocated, key >= c.treeKey, key <= c.lastKey, dirty[c.treeKey] == nil {
            return c.cluster.row(of: key).map { (c.treeKey, $0) }
        }
        guard let (tk, value) = try clusterEntry(for: key) else { return nil }
        if let m = dirty[tk] { return m.row(of: key).map { (tk, $0) } }
        guard case .owned(let ref) = value else { return nil }
        let s = try StoredCluster(storage, ref: ref)
        if s.count > 0 { lastLocated = (tk, s, s.key(s.count - 1), ref) }
        return s.row(of: key).map { (tk, $0) }
    }

    /// The committed cluster `locate(key:)` found last, with its tree key and last key. Every
    /// key in `treeKey...lastKey` lies in it while the cluster is not changed in this
    /// transaction: `makeMutable` and `flush` clear it (a tree entry is only added, removed or
    /// re-keyed for a changed cluster, or beyond the last key).
    private var lastLocated: (treeKey: Int64, cluster: StoredCluster, lastKey: ObjKey, ref: BlockRef)?

    static func isAscending(_ keys: [ObjKey]) -> Bool {
        keys.withUnsafeBufferPointer { b in
            for i in b.indices.dropFirst() where b[i - 1] >= b[i] { return false }
            return true
        }
    }

    func exists(_ key: ObjKey) throws -> Bool {
        if isReadOnly { return try readLocate(key) != nil }
        return try locate(key: key) != nil
    }

    // MARK: reading

    /// Access to one cluster for reading, whether committed or being changed.
    enum ClusterRead {
        case stored(StoredCluster)
        case dirty(MutableCluster)
        var count: Int { switch self { case .stored(let s): return s.count; case .dirty(let m): return m.count } }
        func key(_ row: Int) -> ObjKey { switch self { case .stored(let s): return s.key(row); case .dirty(let m): return m.keys[row] } }
    }

    func cluster(_ treeKey: Int64) throws -> ClusterRead {
        if let m = dirty[treeKey] { return .dirty(m) }
        guard let t = try tree(create: false), let v = try t.get(ClusterKey.encode(treeKey)), case .owned(let ref) = v else {
            throw StorageError.corrupted(path: storage.path, detail: "cluster \(treeKey) of class '\(schema.className)' is missing")
        }
        return .stored(try StoredCluster(storage, ref: ref))
    }

    /// The first and last clusters in key order. Found by key, not by weight: inside a write the
    /// weights of changed clusters lag (new clusters start at weight 0) until `syncWeights`, so a
    /// weight-based "last" or "first" could name the wrong cluster.
    func firstClusterEntry(_ t: BTree) throws -> TreeEntry? {
        var first: TreeEntry? = nil
        try t.forEach { first = $0; return false }
        return first
    }
    func lastClusterEntry(_ t: BTree) throws -> TreeEntry? {
        try t.floor(ClusterKey.encode(Int64.max))
    }

    /// Calls `body` for every cluster in key order.
    func forEachCluster(_ body: (ClusterRead) throws -> Bool) throws {
        guard let t = try tree(create: false) else { return }
        try t.forEach { e in
            let tk = ClusterKey.decode(e.key)
            if let m = dirty[tk] { return m.count == 0 ? true : try body(.dirty(m)) }
            guard case .owned(let ref) = e.value else { return true }
            return try body(.stored(try StoredCluster(storage, ref: ref)))
        }
    }

    /// All object keys in order (for small classes and tests).
    func allKeys() throws -> [ObjKey] {
        var out: [ObjKey] = []
        try forEachCluster { c in for r in 0..<c.count { out.append(c.key(r)) }; return true }
        return out
    }

    func columnIndex(_ property: String) throws -> Int {
        guard let i = columnByName[property] else {
            throw ObjectError.unknownProperty(className: schema.className, property: property)
        }
        return i
    }

    /// The value of a single-valued property of the object at (cluster, row).
    func value(_ c: ClusterRead, row: Int, column: Int) throws -> Value {
        let p = columns[column]
        switch c {
        case .stored(let s):
            guard let v = try s.column(storage, column) else { return defaultValue(p) }
            return ValueCodec.read(v, row, type: p.type, target: p.objectClassName)
        case .dirty(let m):
            switch m.columns[column] {
            case .decoded(let col): return ValueCodec.read(col, row, type: p.type, target: p.objectClassName)
            case .stored(let ref):
                if ref == 0 { return defaultValue(p) }
                let v = try columnView(ref)
                return ValueCodec.read(v, row, type: p.type, target: p.objectClassName)
            }
        }
    }

    func columnView(_ ref: BlockRef) throws -> ColumnView {
        do { return try ColumnView(try storage.genericBlock(ref)) }
        catch let e as StorageError { throw e }
        catch { throw StorageError.corrupted(path: storage.path, detail: "column block \(ref) is malformed") }
    }

    func defaultValue(_ p: PropertySchema) -> Value {
        if p.isOptional || p.type == .mixed || p.type == .object { return .null }
        switch p.type {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data([])
        case .date: return .date(Timestamp(nanosecondsSince1970: 0))
        case .objectId: return .objectId(ObjectId(uncheckedBytes: [UInt8](repeating: 0, count: 12)))
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .decimal128: return .decimal(0)
        default: return .null
        }
    }

    /// The collection slot (list/set/map) of the object at (cluster, row).
    func collectionSlot(_ c: ClusterRead, row: Int, column: Int) throws -> CollectionSlot {
        switch c {
        case .stored(let s):
            guard let v = try s.column(storage, column) else { return .stored(0) }
            return .stored(v.ref(row))
        case .dirty(let m):
            switch m.columns[column] {
            case .decoded(let col): return col.layout == .refs ? col.refs[row] : .stored(0)
            case .stored(let ref): return ref == 0 ? .stored(0) : .stored(try columnView(ref).ref(row))
            }
        }
    }

    // MARK: typed reads

    /// The committed cluster read last and the column views read from it so far. One per
    /// table, reloaded when a read leaves the cluster (no allocation per cluster). Its fields
    /// are used only by the transaction's thread (the core's confinement), so they skip the
    /// dynamic exclusivity checks.
    private final class ReadCache {
        @exclusivity(unchecked) private(set) var cluster: StoredCluster?
        /// Keys of the cluster (an empty range before the first load).
        @exclusivity(unchecked) private(set) var firstKey: ObjKey = 1
        @exclusivity(unchecked) private(set) var lastKey: ObjKey = 0
        /// Keys are `firstKey + row`: the row of a key in range is arithmetic.
        @exclusivity(unchecked) private(set) var isDense = false
        let columnCount: Int
        /// Per column: 0 = not read yet, 1 = `views[c]` holds its view, 2 = not in the cluster.
        let state: UnsafeMutablePointer<UInt8>
        let views: UnsafeMutablePointer<ColumnView>
        init(columns: Int) {
            columnCount = columns
            state = .allocate(capacity: Swift.max(columns, 1))
            state.initialize(repeating: 0, count: Swift.max(columns, 1))
            views = .allocate(capacity: Swift.max(columns, 1))   // trivial values, set when read
        }
        deinit { state.deallocate(); views.deallocate() }
        func load(_ c: StoredCluster) {
            cluster = c; firstKey = c.key(0); lastKey = c.key(c.count - 1); isDense = c.keyColumn == nil
            state.update(repeating: 0, count: columnCount)
        }
        /// Row of `key`, which lies in `firstKey...lastKey`.
        @inline(__always) func row(_ key: ObjKey) -> Int? {
            if isDense { return Int(key &- firstKey) }
            return sparseRow(key)
        }
        /// `row` of a cluster with a key column: a binary search (kept out of the inlined reads).
        @inline(never) func sparseRow(_ key: ObjKey) -> Int? { cluster!.row(of: key) }
        /// The view of `column`, read on first use (nil: not in the cluster).
        @inline(__always) func view(_ column: Int, _ storage: Transaction) throws -> ColumnView? {
            switch state[column] {
            case 1: return views[column]
            case 2: return nil
            default:
                guard let v = try cluster!.column(storage, column) else { state[column] = 2; return nil }
                (views + column).initialize(to: v)
                state[column] = 1
                return v
            }
        }
    }

    /// Column of each property of a typed class (`propertyNames`, declaration order), -1 for
    /// properties that are not single stored values of a fixed type (links, mixed, collections,
    /// linking objects: those take `DBTransaction.value`). Cached per class.
    func typedColumn(_ info: AnyObject, _ index: Int, propertyNames: () -> [String]) -> Int {
        // The class info is held (not its identity): a freed info's address could be reused.
        if let m = typedColumns, m.info === info { return m.columns[index] }
        let cols = propertyNames().map { name -> Int in
            guard let c = columnByName[name] else { return -1 }
            let p = columns[c]
            return p.collection == .single && p.type != .object && p.type != .mixed && p.type != .linkingObjects ? c : -1
        }
        typedColumns = (info, cols)
        return cols[index]
    }

    /// The value of column `column` (a single value that is not a link) of the object `key`, or
    /// nil when there is no such object: one tree search, none when the key lies in the cluster
    /// of the previous read (reading objects in key order, or several properties of one object).
    func readSingle(key: ObjKey, column: Int) throws -> Value? {
        if isReadOnly {
            guard let (r, row) = try readLocate(key) else { return nil }
            return try r._withUnsafeGuaranteedRef { try cachedValue($0, row: row, column: column) }
        }
        guard let (cl, row) = try locateCluster(key: key) else { return nil }
        return try value(cl, row: row, column: column)
    }

    /// Read transactions: the cluster and row of `key` through `lastRead` (a primary-key
    /// lookup followed by property reads searches the tree once).
    private func readLocate(_ key: ObjKey) throws -> (Unmanaged<ReadCache>, Int)? {
        if let r = lastReadRef {
            let inRange: Int?? = r._withUnsafeGuaranteedRef { c in key >= c.firstKey && key <= c.lastKey ? .some(c.row(key)) : nil }
            if let row = inRange { return row.map { (r, $0) } }
        }
        // The 8-byte-key search (no key array per lookup); read transactions have no dirty clusters.
        guard let t = try tree(create: false), let e = try t.floor8(UInt64(bitPattern: key) ^ (1 << 63)),
              case .owned(let ref) = e.value else { return nil }
        let s = try StoredCluster(storage, ref: ref)
        guard let row = s.row(of: key) else { return nil }
        s.prefetchColumns(storage)
        let r: Unmanaged<ReadCache>
        if let l = lastReadRef { r = l } else {
            let c = ReadCache(columns: columns.count)
            lastRead = c
            r = Unmanaged.passUnretained(c); lastReadRef = r
        }
        r._withUnsafeGuaranteedRef { $0.load(s) }
        return (r, row)
    }

    /// Read transactions: the view of `column` and the row of `key` when `key` lies in the
    /// cluster of the previous read and that column was read there (no tree search, no
    /// decoding); nil otherwise (then `loadReadView` reads them).
    @inline(__always)
    func lastReadView(key: ObjKey, column: Int) -> (view: ColumnView, row: Int)? {
        guard let r = lastReadRef else { return nil }
        return r._withUnsafeGuaranteedRef { c in
            guard key >= c.firstKey, key <= c.lastKey, c.state[column] == 1, let row = c.row(key) else { return nil }
            return (c.views[column], row)
        }
    }

    /// Read transactions: reads the cluster of `key` and the view of `column` into the cache
    /// (`lastReadView` then finds them) without decoding a value. False when there is no such
    /// object or the column is not in its cluster.
    func loadReadView(key: ObjKey, column: Int) throws -> Bool {
        guard isReadOnly, let (r, _) = try readLocate(key) else { return false }
        let storage = self.storage
        return try r._withUnsafeGuaranteedRef { try $0.view(column, storage) } != nil
    }

    @inline(__always)
    private func cachedValue(_ c: ReadCache, row: Int, column: Int) throws -> Value {
        guard let view = try c.view(column, storage) else { return defaultValue(columns[column]) }
        return ValueCodec.read(view, row, type: columnTypes[column], target: nil)
    }

    // MARK: changing

    private func makeMutable(_ treeKey: Int64) throws -> MutableCluster {
        if let m = dirty[treeKey] { return m }
        // The committed cluster `locate` just found (a `set` after `exists`): no second search.
        if let c = lastLocated, c.treeKey == treeKey { return try makeMutable(treeKey, ref: c.ref, stored: c.cluster) }
        guard let t = try tree(create: true), let v = try t.get(ClusterKey.encode(treeKey)), case .owned(let ref) = v else {
            throw StorageError.corrupted(path: storage.path, detail: "cluster \(treeKey) of class '\(schema.className)' is missing")
        }
        return try makeMutable(treeKey, ref: ref, stored: StoredCluster(storage, ref: ref))
    }

    /// `makeMutable` for the committed cluster block `ref` (read as `s`) the caller has already
    /// found in the tree under `treeKey` in this transaction (no second tree search).
    private func makeMutable(_ treeKey: Int64, ref: BlockRef, stored s: StoredCluster) throws -> MutableCluster {
        if let m = dirty[treeKey] { return m }
        lastLocated = nil
        let keys: [Int64]
        if s.keyColumn == nil {
            // Dense keys: `firstKey + row`, filled in one loop (no per-row check of the key column).
            let n = s.count, first = s.firstKey
            keys = [Int64](unsafeUninitializedCapacity: n) { b, made in
                for i in 0..<n { b[i] = first &+ Int64(i) }
                made = n
            }
        } else {
            keys = (0..<s.count).map { s.key($0) }
        }
        var cols: [ColumnState] = []
        for c in 0..<columns.count { cols.append(.stored(c < s.columnCount ? s.block.ref(c + 1) : 0)) }
        // The cluster block is rewritten at commit; its key column and other columns are
        // reused unless they change.
        try write.freeBlockOnly(ref)
        // Columns of the file beyond the schema's (a migration removed them) go away.
        if s.columnCount > columns.count { for c in columns.count..<s.columnCount { try write.free(s.block.ref(c + 1)) } }
        let m = MutableCluster(keys: keys, columns: cols)
        m.keysRef = s.block.ref(0)
        dirty[treeKey] = m
        return m
    }

    /// The keys of `m` are about to change: its committed key column is freed (written anew at commit).
    private func keysWillChange(_ m: MutableCluster) throws {
        if m.keysRef != 0 { try write.freeBlockOnly(m.keysRef); m.keysRef = 0 }
    }

    /// Decodes column `c` of a mutable cluster (freeing its old block) and returns it.
    func decodedColumn(_ m: MutableCluster, _ c: Int) throws -> MutableColumn {
        switch m.columns[c] {
        case .decoded(let col): return col
        case .stored(let ref):
            let col: MutableColumn
            if ref == 0 {
                // A column added by a migration: default values.
                col = MutableColumn.empty(ColumnLayout.of(columns[c]), fixedWidth: ColumnLayout.fixedWidth(columns[c].type))
                for _ in 0..<m.count { ValueCodec.append(defaultValue(columns[c]), to: col, type: columns[c].type) }
            } else {
                col = MutableColumn(try columnView(ref))
                try write.freeBlockOnly(ref)
            }
            m.columns[c] = .decoded(col)
            return col
        }
    }

    /// Allocates the key of a new object (Int primary key: the key itself).
    func newKey(primaryKey: Value?) throws -> ObjKey {
        if usesPrimaryKeyAsObjectKey {
            if case .int(let i)? = primaryKey { return i }
            return Int64.min // nil primary key of an optional Int
        }
        if nextKey == nil {
            let meta = try txn.metaTree(create: false)
            if let b = try meta?.getBytes(Array(("next/" + schema.className).utf8)), b.count == 8 {
                nextKey = b.withUnsafeBytes { Int64(bitPattern: $0.baseAddress!.getLE64(0)) }
            } else {
                // Files written before the counter existed: continue after the largest key.
                var last: ObjKey = -1
                if let t = try tree(create: false), try t.totalWeight > 0 {
                    try forEachCluster { c in if c.count > 0 { last = max(last, c.key(c.count - 1)) }; return true }
                }
                nextKey = last + 1
            }
        }
        let k = nextKey!
        nextKey = k + 1
        nextKeyDirty = true
        return k
    }

    /// Inserts an object with `key` and column values (already coerced, in column order).
    func insert(key: ObjKey, values: [Value]) throws {
        let t = try tree(create: true)!
        weightsStale = true
        recorder.insert(key)
        // Fast path: appending after the last object of the rightmost cluster.
        if let tl = tail, key > tl.lastKey, let m = dirty[tl.treeKey] {
            try insertRow(m, row: m.count, key: key, values: values)
            tail = (tl.treeKey, key)
            try splitIfNeeded(tl.treeKey, m, appending: true)
            return
        }
        if try t.totalWeight == 0 && dirty.isEmpty {
            let m = MutableCluster(keys: [], columns: columns.map { p in .decoded(MutableColumn.empty(ColumnLayout.of(p), fixedWidth: ColumnLayout.fixedWidth(p.type))) })
            try t.put(ClusterKey.encode(key), value: .inline([]), weight: 1)
            dirty[key] = m
            try insertRow(m, row: 0, key: key, values: values)
            tail = (key, key)
            return
        }
        var treeKey: Int64
        if let (tk, _) = try clusterEntry(for: key) {
            treeKey = tk
        } else {
            // Below every cluster: the first cluster takes the key as its new lower bound.
            guard let first = try firstClusterEntry(t) else {
                throw StorageError.corrupted(path: storage.path, detail: "class '\(schema.className)' has no clusters")
            }
            let oldKey = ClusterKey.decode(first.key)
            let m = try makeMutable(oldKey)
            try t.delete(first.key, releasingOld: false)
            try t.put(ClusterKey.encode(key), value: .inline([]), weight: UInt64(m.count))
            dirty[oldKey] = nil
            dirty[key] = m
            if tail?.treeKey == oldKey { tail = (key, tail!.lastKey) }
            treeKey = key
        }
        let m = try makeMutable(treeKey)
        let row = m.insertionRow(of: key)
        if row < m.count && m.keys[row] == key {
            throw ObjectError.duplicatePrimaryKey(className: schema.className, value: String(key))
        }
        try insertRow(m, row: row, key: key, values: values)
        // Is this the rightmost cluster? Then later appends can skip the search.
        if row == m.count - 1, let last = try lastClusterEntry(t), ClusterKey.decode(last.key) == treeKey {
            tail = (treeKey, key)
        }
        try splitIfNeeded(treeKey, m, appending: row == m.count - 1)
    }

    private func insertRow(_ m: MutableCluster, row: Int, key: ObjKey, values: [Value]) throws {
        let types = columnTypes
        let append = row == m.count
        for c in 0..<types.count {
            let col: MutableColumn
            if case .decoded(let d) = m.columns[c] { col = d } else { col = try decodedColumn(m, c) }
            if append { ValueCodec.append(values[c], to: col, type: types[c]) }
            else { ValueCodec.insert(values[c], at: row, into: col, type: types[c]) }
        }
        try keysWillChange(m)
        m.keys.insert(key, at: row)
    }

    private func splitIfNeeded(_ treeKey: Int64, _ m: MutableCluster, appending: Bool) throws {
        guard m.count > ObjectLimits.clusterCapacity else { return }
        let at = appending ? m.count - 1 : m.count / 2
        var rightCols: [ColumnState] = []
        for c in 0..<columns.count { rightCols.append(.decoded(try decodedColumn(m, c).split(at: at))) }
        try keysWillChange(m)
        let rightKeys = Array(m.keys[at...])
        m.keys.removeSubrange(at...)
        let right = MutableCluster(keys: rightKeys, columns: rightCols)
        let rk = rightKeys[0]
        try tree(create: true)!.put(ClusterKey.encode(rk), value: .inline([]), weight: UInt64(right.count))
        dirty[rk] = right
        if tail?.treeKey == treeKey { tail = (rk, tail!.lastKey) }
    }

    /// Sets one single-valued property (value already coerced).
    func set(key: ObjKey, column: Int, value: Value) throws {
        guard let (tk, row) = try locate(key: key) else { throw ObjectError.noSuchObject(className: schema.className, key: key) }
        recorder.modify(key, column: column)
        let m = try makeMutable(tk)
        ValueCodec.set(value, at: row, in: try decodedColumn(m, column), type: columns[column].type)
    }

    /// Replaces a collection (list/set/map) of an object.
    func setCollection(key: ObjKey, column: Int, _ value: CollectionValue) throws {
        guard let (tk, row) = try locate(key: key) else { throw ObjectError.noSuchObject(className: schema.className, key: key) }
        recorder.modify(key, column: column)
        let m = try makeMutable(tk)
        let col = try decodedColumn(m, column)
        guard col.layout == .refs else { return }
        if case .stored(let old) = col.refs[row], old != 0 { try write.free(old) }
        col.refs[row] = .dirty(value)
    }

    /// Removes an object. Returns its column values (for index maintenance and cascades).
    func delete(key: ObjKey) throws { try delete(keys: [key]) }

    /// True when `key` is greater than every object key of the class.
    func isBeyondAll(_ key: ObjKey) throws -> Bool {
        if let tl = tail, dirty[tl.treeKey] != nil { return key > tl.lastKey }
        guard let t = try tree(create: false), let last = try lastClusterEntry(t) else { return true }
        let tk = ClusterKey.decode(last.key)
        switch try cluster(tk) {
        case .stored(let s): return s.count == 0 || key > s.key(s.count - 1)
        case .dirty(let m): return m.count == 0 || key > m.keys[m.count - 1]
        }
    }

    /// Appends objects with increasing keys above every existing key, filling clusters straight
    /// from the column arrays (columns not given take defaults).
    func appendBulk(keys: [ObjKey], columns given: [Int: BulkColumn]) throws {
        let t = try tree(create: true)!
        weightsStale = true
        for k in keys { recorder.insert(k) }
        var start = 0
        let n = keys.count
        // Fill the last cluster first: the tail open in this transaction, else the rightmost
        // cluster of the tree (so appends of a few objects per transaction share clusters).
        var target: (Int64, MutableCluster)? = nil
        if let tl = tail, let m = dirty[tl.treeKey] {
            if m.count < ObjectLimits.clusterCapacity { target = (tl.treeKey, m) }
        } else if n > 0, let last = try lastClusterEntry(t) {
            let tk = ClusterKey.decode(last.key)
            let c = try cluster(tk)
            if c.count > 0, c.count < ObjectLimits.clusterCapacity, c.key(c.count - 1) < keys[0] { target = (tk, try makeMutable(tk)) }
        }
        while start < n {
            let m: MutableCluster
            let tk: Int64
            if let (k, existing) = target { m = existing; tk = k; target = nil }
            else {
                m = MutableCluster(keys: [], columns: columns.map { p in .decoded(MutableColumn.empty(ColumnLayout.of(p), fixedWidth: ColumnLayout.fixedWidth(p.type))) })
                tk = keys[start]
                try t.put(ClusterKey.encode(tk), value: .inline([]), weight: 0)
                dirty[tk] = m
            }
            let take = min(ObjectLimits.clusterCapacity - m.count, n - start)
            let range = start..<(start + take)
            for c in 0..<columns.count {
                let col = try decodedColumn(m, c)
                let p = columns[c]
                switch given[c] {
                case .ints(let a)? where col.layout == .int: col.appendInts(a[range])
                case .ints(let a)?: for i in range { col.appendRow(int: a[i], isNull: false) }
                case .doubles(let a)? where col.layout == .double: col.appendDoubles(a[range])
                case .doubles(let a)?: for i in range { col.appendRow(double: a[i], isNull: false) }
                case .bools(let a)? where col.layout == .int: col.appendInts(a[range].lazy.map { $0 ? 1 : 0 })
                case .bools(let a)?: for i in range { col.appendRow(int: a[i] ? 1 : 0, isNull: false) }
                case .strings(let a)? where col.layout == .bytes: col.appendStrings(a[range])
                case .strings(let a)?: for i in range { col.appendStringRow(a[i]) }
                case .values(let a)?: for i in range { ValueCodec.append(a[i], to: col, type: p.type) }
                case nil: let d = defaultValue(p); for _ in range { ValueCodec.append(d, to: col, type: p.type) }
                }
            }
            try keysWillChange(m)
            m.keys.append(contentsOf: keys[range])
            tail = (tk, m.keys[m.count - 1])
            start += take
        }
    }

    /// Removes several objects, rewriting each affected cluster once. The keys are sorted and
    /// walked cluster by cluster: one tree search per cluster, a search inside the cluster per
    /// key. Every key is checked before anything changes (a missing one throws, nothing removed).
    func delete(keys: [ObjKey]) throws {
        let sorted = Self.isAscending(keys) ? keys : keys.sorted()
        // Per cluster: the rows to remove, and the committed block when not yet changed in this
        // transaction (made mutable from it without searching the tree again).
        var groups: [(treeKey: Int64, rows: [Int], stored: (ref: BlockRef, cluster: StoredCluster)?)] = []
        var i = 0
        while i < sorted.count {
            guard let (tk, value) = try clusterEntry(for: sorted[i]) else { throw ObjectError.noSuchObject(className: schema.className, key: sorted[i]) }
            let read: ClusterRead
            var stored: (ref: BlockRef, cluster: StoredCluster)? = nil
            if let m = dirty[tk] { read = .dirty(m) } else {
                guard case .owned(let ref) = value else { throw ObjectError.noSuchObject(className: schema.className, key: sorted[i]) }
                let s = try StoredCluster(storage, ref: ref)
                read = .stored(s)
                stored = (ref, s)
            }
            let last = read.count > 0 ? read.key(read.count - 1) : Int64.min
            var rows: [Int] = []
            repeat {
                let key = sorted[i]
                let row: Int?
                switch read {
                case .stored(let s): row = s.row(of: key)
                case .dirty(let m): row = m.row(of: key)
                }
                guard let row else { throw ObjectError.noSuchObject(className: schema.className, key: key) }
                if rows.last != row { rows.append(row) }
                i += 1
            } while i < sorted.count && sorted[i] <= last
            groups.append((tk, rows, stored))
        }
        for k in sorted { recorder.delete(k) }
        weightsStale = true
        for (tk, rows, stored) in groups {
            let m = try stored.map { try makeMutable(tk, ref: $0.ref, stored: $0.cluster) } ?? makeMutable(tk)
            // Which rows go, for columns already decoded (built only when one is).
            var removeFlags: [Bool]? = nil
            func remove() -> [Bool] {
                if let f = removeFlags { return f }
                var f = [Bool](repeating: false, count: m.count)
                for r in rows { f[r] = true }
                removeFlags = f
                return f
            }
            // The runs of kept rows.
            var runs: [Range<Int>] = []
            var start = 0
            for r in rows {
                if r > start { runs.append(start..<r) }
                start = r + 1
            }
            if start < m.count { runs.append(start..<m.count) }
            for c in 0..<columns.count {
                switch m.columns[c] {
                case .stored(0):
                    // A column added by a migration reads as defaults for however many rows.
                    continue
                case .stored(let ref) where runs.isEmpty:
                    // Every row goes: the block and the collections it owns.
                    try write.free(ref)
                    m.columns[c] = .stored(0)
                    continue
                case .stored(let ref):
                    // Copied straight from the stored block into a new one: no decoding.
                    let v = try columnView(ref)
                    if v.count == m.count, let f = FilteredColumn(v, runs: runs) {
                        if v.layout == .refs { for r in rows where v.ref(r) != 0 { try write.free(v.ref(r)) } }
                        let newRef = try write.writeGeneric(kind: ObjectBlockKind.column, refs: f.refs, byteCount: f.size) { f.encode(into: $0) }
                        try write.freeBlockOnly(ref)
                        m.columns[c] = .stored(newRef)
                        continue
                    }
                case .decoded: break
                }
                let col = try decodedColumn(m, c)
                if col.layout == .refs {
                    for r in rows { if case .stored(let ref) = col.refs[r], ref != 0 { try write.free(ref) } }
                }
                col.removeRows(remove())
            }
            try keysWillChange(m)
            let keptCount = m.count - rows.count
            m.keys = m.keys.withUnsafeBufferPointer { all in
                [Int64](unsafeUninitializedCapacity: keptCount) { b, made in
                    var o = 0
                    for r in runs {
                        (b.baseAddress! + o).initialize(from: all.baseAddress! + r.lowerBound, count: r.count)
                        o += r.count
                    }
                    made = o
                }
            }
            if m.count == 0 {
                try tree(create: true)!.delete(ClusterKey.encode(tk), releasingOld: false)
                dirty[tk] = nil
                if tail?.treeKey == tk { tail = nil }
            }
        }
    }

    /// Writes every changed cluster; called by the commit.
    func flush() throws {
        guard !dirty.isEmpty || nextKeyDirty else { return }
        let t = try tree(create: true)!
        for tk in dirty.keys.sorted() {
            let m = dirty[tk]!
            if m.count == 0 { continue }
            var refs: [BlockRef] = []
            refs.append(m.keysRef != 0 ? m.keysRef : try writeColumn(MutableColumn.ints(m.keys)))
            for c in 0..<columns.count {
                switch m.columns[c] {
                case .stored(let r):
                    if r != 0 { refs.append(r) } else { refs.append(try writeColumn(try decodedColumn(m, c))) }
                case .decoded(let col): refs.append(try writeColumn(col))
                }
            }
            let count = UInt32(m.count), ncols = UInt32(columns.count)
            // Keys are sorted and unique: dense exactly when last - first == count - 1.
            let first = m.keys[0]
            let flags: UInt32 = m.keys[m.count - 1] &- first == Int64(m.count - 1) ? StoredCluster.denseKeysFlag : 0
            let ref = try write.writeGeneric(kind: ObjectBlockKind.cluster, refs: refs, byteCount: 24) { b in
                b.baseAddress!.storeBytes(of: count.littleEndian, toByteOffset: 0, as: UInt32.self)
                b.baseAddress!.storeBytes(of: ncols.littleEndian, toByteOffset: 4, as: UInt32.self)
                b.baseAddress!.storeBytes(of: flags.littleEndian, toByteOffset: 8, as: UInt32.self)
                b.baseAddress!.storeBytes(of: UInt32(0), toByteOffset: 12, as: UInt32.self)
                b.baseAddress!.storeBytes(of: first.littleEndian, toByteOffset: 16, as: Int64.self)
            }
            try t.put(ClusterKey.encode(tk), value: .owned(ref), weight: UInt64(m.count), releasingOld: false)
        }
        dirty.removeAll()
        flushSizes.removeAll()
        tail = nil
        lastLocated = nil
        weightsStale = false
        if nextKeyDirty, let k = nextKey {
            try txn.metaTree(create: true)!.put(Array(("next/" + schema.className).utf8), bytes: withUnsafeBytes(of: k.littleEndian) { Array($0) })
            nextKeyDirty = false
        }
    }

    /// About how many bytes `flush` writes: the blocks of the changed columns and clusters
    /// (collections and split nodes aside). Sizes the storage's allocation region.
    /// The encoded sizes `estimatedFlushBytes` computed, kept for the `flush` that follows it
    /// (packing an int column is a pass over its rows). Each entry holds its column, so no
    /// other column can take its identifier, and the row count it was computed at.
    private var flushSizes: [ObjectIdentifier: (column: MutableColumn, count: Int, size: (size: Int, width: Int, base: Int64))] = [:]

    func estimatedFlushBytes() -> Int {
        var n = 0
        flushSizes.removeAll()
        for m in dirty.values where m.count > 0 {
            if m.keysRef == 0 { n += 48 + 8 * m.count }
            for c in m.columns {
                guard case .decoded(let col) = c else { continue }
                let size = col.encodedSize()
                flushSizes[ObjectIdentifier(col)] = (col, col.count, size)
                n += 32 + size.size + (col.layout == .refs ? 8 * col.count : 0)
            }
            n += 64 + 8 * m.columns.count
        }
        return n
    }

    /// Writes a column block (collections first: each dirty collection becomes its own block).
    func writeColumn(_ col: MutableColumn, kind: UInt8 = ObjectBlockKind.column) throws -> BlockRef {
        var refs: [BlockRef] = []
        if col.layout == .refs {
            refs = try col.refs.map { slot in
                switch slot {
                case .stored(let r): return r
                case .dirty(let cv): return try writeCollection(cv)
                }
            }
        }
        var known: (size: Int, width: Int, base: Int64)?
        if let k = flushSizes.removeValue(forKey: ObjectIdentifier(col)), k.count == col.count { known = k.size }
        let (size, width, base) = known ?? col.encodedSize()
        return try write.writeGeneric(kind: kind, refs: refs, byteCount: size) { b in col.encode(into: b, width: width, base: base) }
    }

    /// A collection block: list/set elements as one column block, or a map as [keys, values].
    func writeCollection(_ cv: CollectionValue) throws -> BlockRef {
        if cv.elements.count == 0 && (cv.mapKeys?.isEmpty ?? true) { return 0 }
        if let keys = cv.mapKeys {
            let k = try writeColumn(MutableColumn.strings(keys), kind: ObjectBlockKind.collection)
            let v = try writeColumn(cv.elements, kind: ObjectBlockKind.collection)
            return try write.writeGeneric(kind: ObjectBlockKind.map, refs: [k, v], byteCount: 0) { _ in }
        }
        return try writeColumn(cv.elements, kind: ObjectBlockKind.collection)
    }
}

/// Fetches the values of one object in several columns together, before they are read (after a
/// primary-key lookup): `touch` each column's view at the object's row (the memory holding the
/// value is loaded), then `finish` loads the first byte of the variable-length value (a string
/// or data) whose offset that gave. The loads of different columns then overlap instead of each
/// read waiting for memory in turn. Reads nothing the caller would not; errors are left to the
/// reads that follow (which report them); values read after it are the same as without it. The
/// one implementation for the typed reads (`RealmCore.fetchRow`) and the dynamic ones
/// (`ClusterSnapshot.rowFetch()` with the accessors the caller reads next).
package struct RowFetch {
    private let table: ClassTable
    private var sink: UInt64 = 0
    private var byteView: (ColumnView, Int)? = nil

    init(_ table: ClassTable) { self.table = table }

    @inline(__always) mutating func touch(_ v: ColumnView, _ row: Int) {
        guard row < v.count else { return }
        sink &+= v.touch(row)
        if v.layout == .bytes { byteView = (v, row) }
    }
    /// Touches `column`'s value at `row` (a column decoded in the write is in memory already).
    @inline(__always) package mutating func touch(_ column: ColumnAccessor, _ row: Int) {
        if case .view(let v) = column.source { touch(v, row) }
    }
    /// Loads the bytes of the last string or data value touched (one per lookup is the common
    /// case; others are read as they come) and keeps what was loaded (so no load is dropped).
    package mutating func finish() {
        if let (v, row) = byteView, v.byteOffset(row) < v.byteOffset(row + 1) { sink &+= UInt64(v.bytes(row).first ?? 0) }
        table.fetchSink = sink
    }
}

extension ColumnView {
    /// Loads the memory holding row `i`'s value (for a bytes column: its offset), for
    /// `RowFetch`; returns something of it so the load is kept.
    @inline(__always) fileprivate func touch(_ i: Int) -> UInt64 {
        switch layout {
        case .int:
            switch width {
            case 8: return UInt64(payload.load(fromByteOffset: i, as: UInt8.self))
            case 16: return UInt64(payload.load(fromByteOffset: i * 2, as: UInt8.self))
            case 32: return UInt64(payload.load(fromByteOffset: i * 4, as: UInt8.self))
            case 64: return UInt64(payload.load(fromByteOffset: i * 8, as: UInt8.self))
            case 1: return UInt64(payload.load(fromByteOffset: i >> 3, as: UInt8.self))
            default: return 0
            }
        case .float: return UInt64(payload.load(fromByteOffset: i * 4, as: UInt8.self))
        case .double: return UInt64(payload.load(fromByteOffset: i * 8, as: UInt8.self))
        case .bytes: return UInt64(payload.load(fromByteOffset: i * offsetSize, as: UInt8.self))
        case .fixed: return UInt64(payload.load(fromByteOffset: i * width, as: UInt8.self))
        case .refs: return 0
        }
    }
}
