import Foundation
import StrataStorage

/// Read access to one column of one cluster, for scans (the query engine, aggregates,
/// export). Over a committed cluster it reads straight from the mapped file without copying;
/// over a cluster changed in the current write transaction it reads the decoded arrays.
package struct ColumnAccessor {
    enum Source { case view(ColumnView), mutable(MutableColumn), absent(Value) }
    let source: Source
    /// The class table and column index (not the schema itself: copying a `PropertySchema`,
    /// strings and all, per access showed in lookup profiles).
    let table: ClassTable
    let columnIndex: Int
    /// The property this column stores.
    package var property: PropertySchema { table.columns[columnIndex] }
    /// The type of the property this column stores.
    @inline(__always) package var propertyType: PropertyType { table.columns[columnIndex].type }
    package let count: Int

    /// True when row `i` is null.
    @inline(__always) package func isNull(_ i: Int) -> Bool {
        switch source {
        case .view(let v): return v.isNull(i)
        case .mutable(let m): return m.nulls?[i] == true
        case .absent(let d): return d.isNull
        }
    }

    /// Integer payload of row `i` (int, bool as 0/1, date as ns since 1970, link as object key).
    @inline(__always) package func int(_ i: Int) -> Int64 {
        switch source {
        case .view(let v): return v.int(i)
        case .mutable(let m): return m.layout == .int ? m.ints[i] : 0
        case .absent(let d): return ValueCodec.intValue(d)
        }
    }

    @inline(__always) package func double(_ i: Int) -> Double {
        switch source {
        case .view(let v): return v.layout == .float ? Double(v.float(i)) : v.double(i)
        case .mutable(let m):
            if m.layout == .double { return m.doubles[i] }
            if m.layout == .float { return Double(m.floats[i]) }
            return 0
        case .absent(let d): if case .double(let x) = d { return x }; if case .float(let f) = d { return Double(f) }; return 0
        }
    }

    /// The UTF-8 or raw bytes of row `i` (string, data), valid while the transaction lives.
    /// `body` receives a buffer that must not escape.
    @inline(__always) package func withBytes<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch source {
        case .view(let v): return try body(v.layout == .fixed ? v.fixed(i) : v.bytes(i))
        case .mutable(let m):
            if m.layout == .bytes || m.layout == .fixed { return try m.withBytes(i, body) }
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        case .absent: return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// The value of row `i` as the dynamic API reads it (links are not checked for liveness).
    package func value(_ i: Int) -> Value {
        switch source {
        case .view(let v): let p = property; return ValueCodec.read(v, i, type: p.type, target: p.objectClassName)
        case .mutable(let m): let p = property; return ValueCodec.read(m, i, type: p.type, target: p.objectClassName)
        case .absent(let d): return d
        }
    }

    /// Sum of the non-null integers of the column (vectorised over committed clusters).
    package func sumInts() -> Int64 {
        switch source {
        case .view(let v): return v.sumInts()
        default:
            var s: Int64 = 0
            for i in 0..<count where !isNull(i) { s &+= int(i) }
            return s
        }
    }

    /// For committed integer columns: the frame-of-reference base and bit width, so a scan can
    /// compare packed values directly. Nil otherwise.
    package var packedInts: (base: Int64, width: Int, payload: UnsafeRawPointer, hasNulls: Bool)? {
        if case .view(let v) = source, v.layout == .int, v.width != ColumnView.sequenceWidth { return (v.base, v.width, v.payload, v.nulls != nil) }
        return nil
    }
}

/// One cluster of a class, for scans.
package struct ClusterSnapshot {
    let table: ClassTable
    let cluster: ClassTable.ClusterRead

    /// Objects in this cluster.
    package var count: Int { cluster.count }
    /// Key of the object at `row`.
    package func key(_ row: Int) -> ObjKey { cluster.key(row) }

    /// The column of a single-valued stored property.
    package func column(_ property: String) throws -> ColumnAccessor {
        try column(at: try table.columnIndex(property))
    }

    /// The index of a stored property's column, for `column(at:)` (the same in every cluster
    /// of the class).
    package func columnIndex(_ property: String) throws -> Int { try table.columnIndex(property) }

    /// The column at index `c` of the class's stored properties (see `DBTransaction.columnIndex`).
    package func column(at c: Int) throws -> ColumnAccessor {
        guard c >= 0 && c < table.columns.count else { throw ObjectError.indexOutOfRange("columns of '\(table.schema.className)'", index: c, count: table.columns.count) }
        switch cluster {
        case .stored(let s):
            guard let v = try s.column(table.storage, c) else { return ColumnAccessor(source: .absent(table.defaultValue(table.columns[c])), table: table, columnIndex: c, count: s.count) }
            return ColumnAccessor(source: .view(v), table: table, columnIndex: c, count: s.count)
        case .dirty(let m):
            switch m.columns[c] {
            case .decoded(let col): return ColumnAccessor(source: .mutable(col), table: table, columnIndex: c, count: m.count)
            case .stored(let ref):
                if ref == 0 { return ColumnAccessor(source: .absent(table.defaultValue(table.columns[c])), table: table, columnIndex: c, count: m.count) }
                return ColumnAccessor(source: .view(try table.columnView(ref)), table: table, columnIndex: c, count: m.count)
            }
        }
    }

    /// A fetch of one object's values in the columns the caller reads next (after a lookup,
    /// `DBTransaction.locateObject`): `touch` each accessor (from `column(at:)`) at the row, then
    /// `finish`, then read; the reads then do not each wait for memory in turn.
    package func rowFetch() -> RowFetch { RowFetch(table) }

    /// The elements of a list/set property of the object at `row`.
    package func collection(_ property: String, row: Int) throws -> [Value] {
        let c = try table.columnIndex(property)
        let p = table.columns[c]
        let cv = try table.txn.decodeCollection(try table.collectionSlot(cluster, row: row, column: c), p)
        return (0..<cv.elements.count).map { ValueCodec.read(cv.elements, $0, type: p.type, target: p.objectClassName) }
    }
}

extension DBTransaction {
    /// The column index of a stored property, for `ClusterSnapshot.column(at:)` in hot loops.
    package func columnIndex(_ className: String, _ property: String) throws -> Int {
        try table(className).columnIndex(property)
    }

    /// Calls `body` for each cluster of `className` in key order until it returns false.
    package func forEachCluster(_ className: String, _ body: (ClusterSnapshot) throws -> Bool) throws {
        let t = try table(className)
        try t.forEachCluster { try body(ClusterSnapshot(table: t, cluster: $0)) }
    }

    /// The cluster holding the object `key` and its row, for reading several of its properties.
    package func clusterOf(_ className: String, _ key: ObjKey) throws -> (ClusterSnapshot, Int)? {
        try locateObject(className, key)
    }
}
