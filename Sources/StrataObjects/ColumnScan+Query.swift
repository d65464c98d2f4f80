import Foundation

/// The raw layout of a committed column block, for tight scan loops in the query engine
/// (`ColumnAccessor.raw`). Everything points into the mapped file and is valid while the
/// transaction that produced it lives; nothing is copied.
///
/// - `nulls`: a bitmap, bit `i` (byte `i >> 3`, bit `i & 7`) set when row `i` is null; its size
///   is padded to a multiple of 8 bytes, so it can be read 64 rows at a time.
/// - int layout: row `i` is `base + packed(i)` with `width` bits per row (0, 1, 8, 16, 32 little
///   endian unsigned), or the raw Int64 when `width` is 64 (then `base` is 0). A null row
///   stores 0.
/// - float / double: `count` little-endian IEEE values at `payload`.
/// - bytes (string, data, decimal128, mixed): `count + 1` offsets of `offsetSize` bytes (2 or 4,
///   little endian) at `payload` — read them with `offset(_:)` — then the data at `data`; row `i`
///   is `data[offset(i) ..< offset(i + 1)]`.
/// - Integer columns stored as an arithmetic sequence (dense keys) have no raw form.
/// - fixed (objectId, uuid): `width` bytes per row at `payload`.
package struct RawColumn {
    package enum Layout: Sendable { case int, float, double, bytes, fixed }
    package let layout: Layout
    package let count: Int
    package let nulls: UnsafePointer<UInt8>?
    package let payload: UnsafeRawPointer
    package let width: Int
    package let base: Int64
    /// Start of the data section (bytes layout), else `payload`.
    package let data: UnsafeRawPointer
    /// Size of the data section (bytes layout), else 0.
    package let dataSize: Int
    /// Size of one offset of the bytes layout (2 or 4).
    package let offsetSize: Int

    /// Offset `i` of the bytes layout.
    @inline(__always) package func offset(_ i: Int) -> Int {
        offsetSize == 2 ? Int(UInt16(littleEndian: payload.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
                        : Int(UInt32(littleEndian: payload.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)))
    }
}

extension ColumnAccessor {
    /// The raw layout when this column is a committed block (not one decoded for change in
    /// the current write transaction, and present in the cluster).
    package var raw: RawColumn? {
        guard case .view(let v) = source else { return nil }
        if v.layout == .int && v.width == ColumnView.sequenceWidth { return nil }
        let layout: RawColumn.Layout
        switch v.layout {
        case .int: layout = .int
        case .float: layout = .float
        case .double: layout = .double
        case .bytes: layout = .bytes
        case .fixed: layout = .fixed
        case .refs: return nil
        }
        var data = v.payload
        var dataSize = 0
        if layout == .bytes {
            data = v.payload + (v.count + 1) * v.offsetSize
            dataSize = v.payloadSize - (v.count + 1) * v.offsetSize
        }
        return RawColumn(layout: layout, count: v.count, nulls: v.nulls, payload: v.payload, width: v.width,
                         base: v.base, data: data, dataSize: dataSize, offsetSize: v.offsetSize)
    }

    /// True when no row of the column can be null (a committed column without a null bitmap,
    /// or a decoded one without null flags).
    package var hasNoNulls: Bool {
        switch source {
        case .view(let v): return v.nulls == nil
        case .mutable(let m): return m.nulls == nil
        case .absent(let d): return !d.isNull
        }
    }
}

extension ClusterSnapshot {
    /// The key of the first object of the cluster (clusters are never empty).
    package var firstKey: ObjKey { cluster.key(0) }
    /// The key of the last object of the cluster.
    package var lastKey: ObjKey { cluster.key(cluster.count - 1) }

    /// The row of `key` in this cluster, or nil (binary search).
    package func row(of key: ObjKey) -> Int? {
        switch cluster {
        case .stored(let s): return s.row(of: key)
        case .dirty(let m): return m.row(of: key)
        }
    }

    /// True when the cluster is the committed block (not changed by this write transaction).
    package var isCommitted: Bool {
        if case .stored = cluster { return true }
        return false
    }
}

extension DBTransaction {
    /// The cluster holding the object `key` and its row, with one B+tree descent (where
    /// `clusterOf` makes two) and a direct probe for dense keys before the binary search.
    /// Used by the query engine for primary-key and index lookups.
    package func locateObject(_ className: String, _ key: ObjKey) throws -> (ClusterSnapshot, Int)? {
        let t = try table(className)
        guard let tree = try t.tree(create: false),
              let e = try tree.floor8(UInt64(bitPattern: key) ^ (1 << 63)) else { return nil }
        let tk = Int64(bitPattern: e.key ^ (1 << 63))
        if !t.dirty.isEmpty, let m = t.dirty[tk] {
            guard let row = m.row(of: key) else { return nil }
            return (ClusterSnapshot(table: t, cluster: .dirty(m)), row)
        }
        guard case .owned(let ref) = e.value else { return nil }
        let s = try StoredCluster(storage, ref: ref)
        guard let row = s.row(of: key) else { return nil }
        s.prefetchColumns(storage)   // the caller reads columns of this row next
        return (ClusterSnapshot(table: t, cluster: .stored(s)), row)
    }
}
