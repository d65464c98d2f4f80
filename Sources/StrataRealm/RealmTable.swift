import Foundation

/// One table of the group: its top array decoded (spec, column keys, cluster root, primary key,
/// flags) and, on first use, the list of its cluster leaves so rows are found by index without
/// reading any other leaf.
final class RealmTable: @unchecked Sendable {
    /// One cluster leaf: rows `firstRow ..< firstRow + count`, keys = `keyOffset` + local key.
    struct Leaf {
        let ref: Int
        let firstRow: Int
        let count: Int
        let keyOffset: Int64
        /// Ref of the ArrayUnsigned of local keys, or nil when keys are compact (0..<count).
        let keysRef: Int?
    }

    let index: Int
    let name: String
    let key: Int64
    let topRef: Int
    let clusterRoot: Int?
    let columns: [RealmColumn]
    let primaryKeyColumn: UInt64
    let hasPrimaryKeySlot: Bool
    let flags: Int64
    let searchIndexed: Set<Int>
    let objectCount: Int
    let specRef: Int

    private let lock = NSLock()
    private var cachedLeaves: [Leaf]?

    var isEmbedded: Bool { flags & 3 == 1 }
    var isAsymmetric: Bool { flags & 3 == 2 }

    init(index: Int, name: String, topRef: Int, bytes: RealmBytes, tableKeyToIndex: (Int64) -> Int?, rawKey: Int64) throws {
        self.index = index
        self.name = name
        self.topRef = topRef
        self.key = rawKey
        let top = try RealmNode(bytes, ref: topRef)
        guard top.hasRefs, top.count >= 3 else { throw RealmFileError.corrupt("table \"\(name)\" has a malformed top array") }
        guard let spec = try top.child(0) else { throw RealmFileError.corrupt("table \"\(name)\" has no spec") }
        specRef = spec.ref
        clusterRoot = try top.ref(2)
        // Slot 11: the primary key's ColKey, tagged (ColKey 0 is a valid key in old files; "none" is ColKey null).
        let pkRaw: Int64? = top.count > 11 ? try top.int(11) : nil
        hasPrimaryKeySlot = (pkRaw ?? 0) & 1 == 1
        primaryKeyColumn = UInt64(bitPattern: (pkRaw ?? 0) >> 1)
        flags = top.count > 12 ? (try top.int(12)) >> 1 : 0
        let oppTables = top.count > 7 ? try top.child(7) : nil
        let oppCols = top.count > 8 ? try top.child(8) : nil

        guard spec.count >= 2, let types = try spec.child(0), let names = try spec.child(1) else {
            throw RealmFileError.corrupt("table \"\(name)\" has a malformed spec")
        }
        guard spec.count > 5, let colKeys = try spec.child(5) else {
            throw RealmFileError.corrupt("table \"\(name)\" has no column keys (a file older than format 10?)")
        }
        let enumKeys = spec.count > 4 ? try spec.child(4) : nil
        // The spec has one type and one column key per column (backlinks included) and a name per
        // public column; a ColKey's leaf index has 16 bits. Checked before anything is decoded, so
        // a damaged count (up to 2^24, with no bytes behind it at width 0) costs nothing.
        guard colKeys.count == types.count, colKeys.count <= 1 << 16 else {
            throw RealmFileError.corrupt("table \"\(name)\" has \(colKeys.count) column keys (node \(colKeys.ref)) but \(types.count) column types (node \(types.ref))")
        }
        let nameCount = try RealmStrings.count(names)
        guard nameCount <= colKeys.count else {
            throw RealmFileError.corrupt("table \"\(name)\" has \(nameCount) column names (node \(names.ref)) but \(colKeys.count) columns")
        }
        var indexed = Set<Int>()
        if top.count > 4, let si = try top.child(4) {
            for i in 0..<min(si.count, colKeys.count) where try si.ref(i) != nil { indexed.insert(i) }
        }
        searchIndexed = indexed
        let nameList = try RealmStrings.shortArray(names)
        var cols: [RealmColumn] = []
        cols.reserveCapacity(colKeys.count)
        for i in 0..<colKeys.count {
            let ck = RealmColumnKey(raw: UInt64(bitPattern: try colKeys.int(i)))
            guard let ctype = RealmColumnType(rawValue: ck.typeRaw) else {
                throw RealmFileError.corrupt("table \"\(name)\" column \(i) has unknown type \(ck.typeRaw)")
            }
            let specType = i < types.count ? try types.int(i) : 0
            var target: Int? = nil
            var opposite: UInt64 = 0
            let li = ck.leafIndex
            if ctype == .link || ctype == .linkList || ctype == .backlink || ctype == .typedLink {
                if let ot = oppTables, li < ot.count {
                    let tk = try ot.int(li)
                    if ctype != .typedLink { target = tableKeyToIndex(tk) }
                }
                if let oc = oppCols, li < oc.count { opposite = UInt64(bitPattern: try oc.int(li)) }
            }
            var enumRef: Int? = nil
            if let ek = enumKeys, i < ek.count { enumRef = try ek.ref(i) }
            cols.append(RealmColumn(
                name: i < nameList.count ? (nameList[i] ?? "") : "",
                key: ck, type: ctype, dictionaryKeyType: Int((specType >> 16) & 0xff),
                enumKeysRef: enumRef, targetTable: target, oppositeColumnKey: opposite))
        }
        columns = cols
        // Object count: the root's size without walking the tree.
        if let root = clusterRoot {
            let r = try RealmNode(bytes, ref: root)
            if r.isInner {
                guard r.count >= 3 else { throw RealmFileError.corrupt("table \"\(name)\": cluster inner node too small") }
                objectCount = Int(clamping: try r.tagged(2))
            } else {
                objectCount = try RealmTable.leafCount(r)
            }
            guard objectCount >= 0 else { throw RealmFileError.corrupt("table \"\(name)\": negative object count") }
        } else {
            objectCount = 0
        }
    }

    static func leafCount(_ leaf: RealmNode) throws -> Int {
        guard leaf.count >= 1 else { throw RealmFileError.corrupt("cluster leaf at \(leaf.ref) has no key slot") }
        let v = try leaf.int(0)
        if v & 1 == 1 { return Int(v >> 1) }
        if v == 0 { return 0 }
        let keys = try RealmNode(leaf.bytes, ref: Int(v))
        return keys.count
    }

    /// The leaves of the cluster tree in key order (built once; cycles and depth checked).
    func leaves(_ bytes: RealmBytes) throws -> [Leaf] {
        lock.lock(); defer { lock.unlock() }
        if let cachedLeaves { return cachedLeaves }
        var out: [Leaf] = []
        var seen = Set<Int>()
        var row = 0
        if let root = clusterRoot {
            try walk(bytes, ref: root, offset: 0, depth: 0, seen: &seen, row: &row, into: &out)
        }
        guard row == objectCount else {
            throw RealmFileError.corrupt("table \"\(name)\" says \(objectCount) objects but its leaves hold \(row)")
        }
        cachedLeaves = out
        return out
    }

    private func walk(_ bytes: RealmBytes, ref: Int, offset: Int64, depth: Int, seen: inout Set<Int>, row: inout Int, into out: inout [Leaf]) throws {
        guard depth < 32 else { throw RealmFileError.corrupt("table \"\(name)\": cluster tree deeper than 32 levels") }
        guard seen.insert(ref).inserted else { throw RealmFileError.corrupt("table \"\(name)\": node \(ref) is reached twice (a cycle)") }
        let node = try RealmNode(bytes, ref: ref)
        guard node.hasRefs else { throw RealmFileError.corrupt("table \"\(name)\": cluster node \(ref) has no refs") }
        if node.isInner {
            guard node.count >= 3 else { throw RealmFileError.corrupt("cluster inner node \(ref) too small") }
            let keys = try node.child(0)
            let sub = try node.tagged(1)
            guard sub >= 0, sub < 8 else { throw RealmFileError.corrupt("cluster inner node \(ref) has depth \(sub)") }
            let shift = Int64(sub) * 8
            for i in 0..<(node.count - 3) {
                var childOffset: Int64
                if let keys {
                    childOffset = try keys.int(i)
                } else {
                    childOffset = Int64(i) << shift
                }
                childOffset = offset &+ childOffset
                guard let c = try node.ref(i + 3) else { throw RealmFileError.corrupt("cluster inner node \(ref) has a null child") }
                try walk(bytes, ref: c, offset: childOffset, depth: depth + 1, seen: &seen, row: &row, into: &out)
            }
        } else {
            guard node.count >= 1 else { throw RealmFileError.corrupt("cluster leaf \(ref) is empty") }
            let v = try node.int(0)
            var n: Int
            var keysRef: Int? = nil
            if v & 1 == 1 {
                n = Int(v >> 1)
            } else if v == 0 {
                n = 0
            } else {
                keysRef = Int(v)
                n = try RealmNode(bytes, ref: Int(v)).count
            }
            guard n >= 0, n <= 1 << 24 else { throw RealmFileError.corrupt("cluster leaf \(ref) has \(n) objects") }
            out.append(Leaf(ref: ref, firstRow: row, count: n, keyOffset: offset, keysRef: keysRef))
            row = row &+ n
        }
    }

    /// The leaf holding row `row`, and the row's index inside it.
    func locate(_ bytes: RealmBytes, row: Int) throws -> (Leaf, Int) {
        let ls = try leaves(bytes)
        guard row >= 0, row < objectCount else { throw RealmFileError.objectIndexOutOfRange(index: row, count: objectCount) }
        var lo = 0, hi = ls.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if ls[mid].firstRow <= row { lo = mid } else { hi = mid - 1 }
        }
        guard lo < ls.count else { throw RealmFileError.objectIndexOutOfRange(index: row, count: objectCount) }
        let leaf = ls[lo]
        let local = row - leaf.firstRow
        guard local >= 0, local < leaf.count else { throw RealmFileError.corrupt("table \"\(name)\": row \(row) not in its leaf") }
        return (leaf, local)
    }

    func objectKey(_ bytes: RealmBytes, leaf: Leaf, local: Int) throws -> Int64 {
        if let kr = leaf.keysRef {
            let keys = try RealmNode(bytes, ref: kr)
            return leaf.keyOffset &+ Int64(bitPattern: try keys.unsigned(local))
        }
        return leaf.keyOffset &+ Int64(local)
    }

    /// The row of object `key`, or nil if there is no such object.
    func row(_ bytes: RealmBytes, forKey key: Int64) throws -> Int? {
        let ls = try leaves(bytes)
        // Leaves are in key order: the last leaf whose first key is <= key.
        var lo = 0, hi = ls.count - 1
        var found: Int? = nil
        while lo <= hi {
            let mid = (lo + hi) / 2
            let first = ls[mid].count > 0 ? try objectKey(bytes, leaf: ls[mid], local: 0) : ls[mid].keyOffset
            if first <= key { found = mid; lo = mid + 1 } else { hi = mid - 1 }
        }
        guard let li = found else { return nil }
        let leaf = ls[li]
        var a = 0, b = leaf.count - 1
        while a <= b {
            let m = (a + b) / 2
            let k = try objectKey(bytes, leaf: leaf, local: m)
            if k == key { return leaf.firstRow + m }
            if k < key { a = m + 1 } else { b = m - 1 }
        }
        return nil
    }
}
