/// Where the bytes of a Realm file go: per class and column, free list, history.
package struct RealmSpaceReport: Sendable {
    package struct ColumnSpace: Sendable {
        package let name: String
        /// Bytes of the column's leaves (and the collections they own) across all clusters.
        package let bytes: Int
        /// Bytes of the column's search index, if any.
        package let indexBytes: Int
    }
    package struct ClassSpace: Sendable {
        package let name: String
        package let objectCount: Int
        /// Everything reachable from the table's top array.
        package let totalBytes: Int
        /// Cluster nodes themselves (key arrays and the per-leaf arrays of column refs).
        package let clusterBytes: Int
        package let columns: [ColumnSpace]
        /// An object-store class, a plain realm-core table or an internal table.
        package let kind: RealmTableKind
    }
    package struct FreeBucket: Sendable {
        /// Extents of `minSize ..< 2 * minSize` bytes (a power of two).
        package let minSize: Int
        package let extents: Int
        package let bytes: Int
    }
    package let fileSize: Int
    package let classes: [ClassSpace]
    /// Free-list bytes grouped by extent size.
    package let freeBySize: [FreeBucket]
    /// Free-list bytes grouped by the commit version that freed them (nil: unversioned).
    package let freeByVersion: [(version: Int64?, bytes: Int)]
    package let freeBytes: Int
    /// Bytes of the history (top slot 8) — in-Realm or sync history.
    package let historyBytes: Int
    /// What writing a compacted copy would give back: free space plus unreachable bytes.
    package let reclaimableBytes: Int
}

extension RealmFile {
    /// Bytes of the sub-tree at `ref`, each node counted once (a shared `seen` keeps totals honest).
    func subtreeBytes(_ ref: Int, seen: inout Set<Int>) -> Int {
        var total = 0
        var stack = [ref]
        while let r = stack.popLast() {
            guard seen.insert(r).inserted, let node = try? RealmNode(bytes, ref: r) else { continue }
            total &+= node.byteSize
            guard node.hasRefs, node.width > 0 else { continue } // width 0: every element is 0, no refs
            for i in 0..<node.count {
                let v = node.uncheckedInt(i)
                if v > 0, v & 1 == 0, v < Int64(bytes.count) { stack.append(Int(v)) }
            }
        }
        return total
    }

    /// Space accounting: bytes per class and column, free list by extent size and version, history.
    package func spaceReport() throws -> RealmSpaceReport {
        var seen = Set<Int>()
        var classSpaces: [RealmSpaceReport.ClassSpace] = []
        for t in tables {
            let tableTop = try RealmNode(bytes, ref: t.topRef)
            var colBytes = [Int](repeating: 0, count: t.columns.count)
            var idxBytes = [Int](repeating: 0, count: t.columns.count)
            var clusterBytes = 0
            var tableSeen = Set<Int>()
            for leaf in try t.leaves(bytes) {
                let node = try RealmNode(bytes, ref: leaf.ref)
                clusterBytes &+= node.byteSize
                tableSeen.insert(leaf.ref)
                if let k = leaf.keysRef { clusterBytes &+= subtreeBytes(k, seen: &tableSeen) }
                for (ci, c) in t.columns.enumerated() where c.leafIndex &+ 1 < node.count {
                    if let r = try node.ref(c.leafIndex &+ 1) { colBytes[ci] &+= subtreeBytes(r, seen: &tableSeen) }
                }
            }
            if tableTop.count > 4, let si = try tableTop.child(4) {
                for (ci, c) in t.columns.enumerated() where c.leafIndex < si.count {
                    if let r = try si.ref(c.leafIndex) { idxBytes[ci] = subtreeBytes(r, seen: &tableSeen) }
                }
            }
            // Inner cluster nodes and the rest of the table (spec, top) count toward the total.
            let rest = subtreeBytes(t.topRef, seen: &tableSeen)
            seen.formUnion(tableSeen)
            let total = colBytes.reduce(0, &+) &+ idxBytes.reduce(0, &+) &+ clusterBytes &+ rest
            let name = t.name.hasPrefix("class_") ? String(t.name.dropFirst(6)) : t.name
            classSpaces.append(.init(name: name, objectCount: t.objectCount, totalBytes: total, clusterBytes: clusterBytes,
                                     columns: t.columns.enumerated().map { .init(name: $1.name.isEmpty ? "(backlinks)" : $1.name, bytes: colBytes[$0], indexBytes: idxBytes[$0]) },
                                     kind: RealmTableKind(tableName: t.name)))
        }
        let extents = freeExtents()
        var bySize: [Int: (Int, Int)] = [:]
        var byVersion: [Int64?: Int] = [:]
        var freeBytes = 0
        for e in extents where e.length > 0 {
            var bucket = 8
            while bucket &* 2 <= e.length && bucket < 1 << 40 { bucket &*= 2 }
            let cur = bySize[bucket] ?? (0, 0)
            bySize[bucket] = (cur.0 + 1, cur.1 &+ e.length)
            byVersion[e.version, default: 0] &+= e.length
            freeBytes &+= e.length
        }
        var history = 0
        if top.count > 8, let h = try top.ref(8) { var hs = Set<Int>(); history = subtreeBytes(h, seen: &hs) }
        let structure = checkStructure()
        return RealmSpaceReport(
            fileSize: bytes.count, classes: classSpaces,
            freeBySize: bySize.keys.sorted().map { .init(minSize: $0, extents: bySize[$0]?.0 ?? 0, bytes: bySize[$0]?.1 ?? 0) },
            freeByVersion: byVersion.keys.sorted { ($0 ?? -1) < ($1 ?? -1) }.map { ($0, byVersion[$0] ?? 0) },
            freeBytes: freeBytes, historyBytes: history,
            reclaimableBytes: freeBytes &+ structure.unaccountedBytes)
    }
}
