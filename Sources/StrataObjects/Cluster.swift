import Foundation
import StrataStorage

/// A cluster holds a range of objects of one class, column by column:
///
///     cluster block (kind 17): refs = [keys column, column 0, column 1, …],
///     bytes = u32 count, u32 columns, u32 flags (bit 0: keys are first key + row), u32 0, i64 first key
///
/// Each column is a column block (see `ColumnView`): reading one property of many objects
/// touches only that property's blocks. A class is a weighted B+tree `c/<Class>` whose entries
/// are clusters: key = a lower bound of the cluster's object keys (big-endian, sign flipped),
/// value = the owned cluster block, weight = its object count (so row n is found in O(log n)).
/// Invariant: tree key of cluster i <= every key in cluster i < tree key of cluster i+1.
struct StoredCluster {
    let block: GenericBlock
    let count: Int
    let columnCount: Int
    /// The key column, or nil when the cluster records that its keys are `firstKey + row`
    /// (dense keys, the common case for Int primary keys): the key block is then never read,
    /// which saves a random memory access per primary-key lookup.
    let keyColumn: ColumnView?
    /// The smallest key (0 in an empty cluster).
    let firstKey: Int64

    /// Bytes-section flag: keys are `firstKey + row` (firstKey at byte 16).
    static let denseKeysFlag: UInt32 = 1

    init(_ txn: Transaction, ref: BlockRef) throws {
        block = try txn.genericBlock(ref)
        let b = block.bytes
        guard block.view.kindByte == ObjectBlockKind.cluster, b.count >= 8, block.refCount >= 1 else {
            throw StorageError.corrupted(path: txn.path, detail: "block \(ref) is not a cluster")
        }
        let p = b.baseAddress!
        count = Int(p.getLE32(0))
        columnCount = block.refCount - 1
        if b.count >= 24, p.getLE32(8) & Self.denseKeysFlag != 0 {
            keyColumn = nil
            firstKey = Int64(bitPattern: p.getLE64(16))
            return
        }
        let keys: ColumnView
        do { keys = try ColumnView(try txn.genericBlock(block.ref(0))) } catch let e as StorageError { throw e } catch {
            throw StorageError.corrupted(path: txn.path, detail: "key column of cluster \(ref) is malformed")
        }
        guard keys.count == count, keys.layout == .int else {
            throw StorageError.corrupted(path: txn.path, detail: "cluster \(ref) has \(keys.count) keys for \(count) objects")
        }
        keyColumn = keys
        firstKey = count > 0 ? keys.int(0) : 0
    }

    /// Key of the object at `row`.
    @inline(__always) func key(_ row: Int) -> ObjKey {
        guard let keyColumn else { return firstKey &+ Int64(row) }
        return keyColumn.int(row)
    }

    func column(_ txn: Transaction, _ c: Int) throws -> ColumnView? {
        guard c < columnCount else { return nil }
        let ref = block.ref(c + 1)
        let g = try txn.genericBlock(ref)
        do {
            let v = try ColumnView(g)
            guard v.count == count else { throw ColumnView.Malformed() }
            return v
        } catch { throw StorageError.corrupted(path: txn.path, detail: "column block \(ref) is malformed") }
    }

    /// Asks for the first line of each column block of this cluster, all at once: the reads of
    /// a row that follow a lookup then do not wait for each block's header in turn.
    func prefetchColumns(_ txn: Transaction) {
        for c in 0..<columnCount { txn.prefetch(block.ref(c + 1)) }
    }

    /// Row of `key`, if present: arithmetic for dense keys; otherwise the row the key would
    /// have if dense, checked, then binary search.
    func row(of key: ObjKey) -> Int? {
        let guess = key &- firstKey
        guard let keys = keyColumn else { return guess >= 0 && guess < Int64(count) ? Int(guess) : nil }
        if guess >= 0, guess < Int64(count), keys.int(Int(guess)) == key { return Int(guess) }
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let k = keys.int(mid)
            if k < key { lo = mid + 1 } else if k == key { return mid } else { hi = mid }
        }
        return nil
    }
}

/// A column of a cluster being changed: still the committed block, or decoded.
enum ColumnState {
    case stored(BlockRef)
    case decoded(MutableColumn)
}

/// A cluster being changed by a write transaction. Columns are decoded only when they change
/// (an update of one property rewrites one column block).
final class MutableCluster {
    var keys: [Int64]
    var columns: [ColumnState]
    /// The committed key column while the keys are unchanged (reused at commit), else 0.
    var keysRef: BlockRef = 0
    init(keys: [Int64], columns: [ColumnState]) { self.keys = keys; self.columns = columns }
    var count: Int { keys.count }

    func row(of key: ObjKey) -> Int? {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] < key { lo = mid + 1 } else if keys[mid] == key { return mid } else { hi = mid }
        }
        return nil
    }
    func insertionRow(of key: ObjKey) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi { let mid = (lo + hi) >> 1; if keys[mid] < key { lo = mid + 1 } else { hi = mid } }
        return lo
    }
}

/// Tree keys of clusters: Int64 with the sign bit flipped, big-endian, so byte order = numeric order.
enum ClusterKey {
    @inline(__always) static func encode(_ k: Int64) -> [UInt8] {
        let u = UInt64(bitPattern: k) ^ (1 << 63)
        return withUnsafeBytes(of: u.bigEndian) { Array($0) }
    }
    @inline(__always) static func decode(_ b: [UInt8]) -> Int64 {
        guard b.count == 8 else { return 0 }
        let u = b.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        return Int64(bitPattern: u ^ (1 << 63))
    }
}
