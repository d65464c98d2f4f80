import Foundation

extension RealmFile {
    /// The keys of every object of `className`, in key order (one pass over the cluster leaves).
    package func objectKeys(in className: String) throws -> [Int64] {
        let t = try table(className)
        var out: [Int64] = []
        out.reserveCapacity(t.objectCount)
        for leaf in try t.leaves(bytes) {
            for local in 0..<leaf.count { out.append(try t.objectKey(bytes, leaf: leaf, local: local)) }
        }
        return out
    }

    /// Every value of one column of `className` in row order (one pass over the cluster
    /// leaves): the property or backlink column whose `RealmProperty.columnKey` is `columnKey`.
    /// The query layer reads a class this way instead of one object at a time.
    package func columnValues(columnKey: UInt64, in className: String) throws -> [RealmValue] {
        let t = try table(className)
        guard let c = t.columns.first(where: { $0.key.raw == columnKey }) else {
            throw RealmFileError.noSuchClass("\(className) column 0x\(String(columnKey, radix: 16))")
        }
        var out: [RealmValue] = []
        out.reserveCapacity(t.objectCount)
        for leaf in try t.leaves(bytes) {
            for local in 0..<leaf.count {
                out.append(try decoder.value(table: t, column: c, leafRef: leaf.ref, local: local))
            }
        }
        return out
    }
}

extension RealmFile {
    /// Tables written without the object store (no `class_` prefix, not internal).
    package var plainTables: [RealmClass] { otherTables.filter { $0.tableKind == .plainTable } }
    /// The object store's and sync's internal tables (`metadata`, `pk`, …).
    package var internalTables: [RealmClass] { otherTables.filter { $0.tableKind == .internalTable } }
    /// What the browser and the commands list as classes: the object-store classes, then the
    /// plain tables (named by their table names).
    package var browsableClasses: [RealmClass] { classes + plainTables }
}

extension RealmFile {
    /// Bytes in the free list (read from the free-list arrays only, without walking the file).
    package var freeListBytes: Int { freeExtents().reduce(0) { $0 &+ max(0, $1.length) } }
}
