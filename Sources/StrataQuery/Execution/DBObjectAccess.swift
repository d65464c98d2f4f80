import Foundation
import StrataObjects

/// The reference evaluator's view of a `DBTransaction`: objects are `ObjectLink`s (class and
/// key). The query engine uses it for what its column scans do not handle (link paths,
/// collections, subqueries, backlinks, mixed values, `[c]`/`[d]`), and tests use it as the
/// reference to compare the engine with.
///
/// Reads go through a small cache: the cluster of the last object read and its columns, so
/// evaluating many objects of one cluster in key order costs one cluster lookup. Backlinks
/// are answered from a reverse map built once per (origin class, property) and transaction.
/// Read errors (which only a damaged file produces) read as null / empty.
package struct DBObjectAccess: QueryObjectAccess {
    package typealias Object = ObjectLink

    package let txn: DBTransaction
    let cache: Cache

    final class Cache {
        var className = ""
        var cluster: ClusterSnapshot?
        var firstKey: ObjKey = 0, lastKey: ObjKey = -1
        var columns: [String: ColumnAccessor] = [:]
        /// (origin class, property) → target key → origin keys (once per reference).
        var backlinks: [String: [ObjKey: [ObjKey]]] = [:]
        /// Objects returned by link, list, map and backlink reads (the executor's `objectsVisited`).
        var objectsReached = 0
    }

    /// Objects this access has returned through links so far.
    var objectsReached: Int { cache.objectsReached }

    package init(_ txn: DBTransaction) {
        self.txn = txn
        self.cache = Cache()
    }

    /// Makes `cluster` the cached one (the engine does this for the cluster it is scanning).
    func prime(_ className: String, _ cluster: ClusterSnapshot) {
        guard cluster.count > 0 else { return }
        cache.className = className
        cache.cluster = cluster
        cache.firstKey = cluster.firstKey
        cache.lastKey = cluster.lastKey
        cache.columns.removeAll(keepingCapacity: true)
    }

    /// The column of `property` and the row of `object`, through the cache.
    func locate(_ object: ObjectLink, _ property: String) -> (ColumnAccessor, Int)? {
        if !(cache.className == object.className && object.key >= cache.firstKey && object.key <= cache.lastKey) {
            guard let (c, _) = try? txn.locateObject(object.className, object.key) else { return nil }
            prime(object.className, c)
        }
        guard let c = cache.cluster, let row = c.row(of: object.key) else { return nil }
        if let col = cache.columns[property] { return (col, row) }
        guard let col = try? c.column(property) else { return nil }
        cache.columns[property] = col
        return (col, row)
    }

    package func value(of object: ObjectLink, property: String) -> QueryValue {
        guard let (col, row) = locate(object, property) else { return .null }
        let v = readQueryValue(col, row)
        if case .object(let r) = v, (try? txn.exists(r.className, r.key)) != true { return .null }
        return v
    }

    package func link(of object: ObjectLink, property: String) -> ObjectLink? {
        guard let (col, row) = locate(object, property), !col.isNull(row),
              let target = col.property.objectClassName else { return nil }
        let key = col.int(row)
        guard (try? txn.exists(target, key)) == true else { return nil }
        cache.objectsReached += 1
        return ObjectLink(className: target, key: key)
    }

    package func objects(of object: ObjectLink, property: String) -> [ObjectLink] {
        guard let items = try? txn.list(object.className, object.key, property) else { return [] }
        cache.objectsReached += items.count
        return items.compactMap { if case .object(let l) = $0 { return l } else { return nil } }
    }

    package func values(of object: ObjectLink, property: String) -> [QueryValue] {
        guard let items = try? txn.list(object.className, object.key, property) else { return [] }
        return items.map(QueryValue.init)
    }

    package func map(of object: ObjectLink, property: String) -> [(key: String, value: QueryValue)] {
        guard let entries = try? txn.map(object.className, object.key, property) else { return [] }
        return entries.map { (key: $0.key, value: QueryValue($0.value)) }
    }

    package func objectMap(of object: ObjectLink, property: String) -> [(key: String, value: ObjectLink?)] {
        guard let entries = try? txn.map(object.className, object.key, property) else { return [] }
        cache.objectsReached += entries.count
        return entries.map { e in
            if case .object(let l) = e.value { return (key: e.key, value: l) }
            return (key: e.key, value: nil)
        }
    }

    package func backlinks(of object: ObjectLink, originClass: String, property: String) -> [ObjectLink] {
        let map = reverseMap(originClass, property)
        cache.objectsReached += map[object.key]?.count ?? 0
        return (map[object.key] ?? []).map { ObjectLink(className: originClass, key: $0) }
    }

    package func backlinkCount(of object: ObjectLink) -> Int {
        var n = 0
        for (cls, prop) in txn.incomingLinks(object.className) {
            n += reverseMap(cls, prop)[object.key]?.count ?? 0
        }
        return n
    }

    package func reference(of object: ObjectLink) -> QueryObjectRef {
        QueryObjectRef(className: object.className, key: object.key)
    }

    /// Target key → origin keys, once per reference, for links, lists, sets and maps of links.
    private func reverseMap(_ originClass: String, _ property: String) -> [ObjKey: [ObjKey]] {
        let id = originClass + "\u{0}" + property
        if let m = cache.backlinks[id] { return m }
        var m: [ObjKey: [ObjKey]] = [:]
        if let p = txn.schema[originClass]?[property], p.type == .object {
            try? txn.forEachCluster(originClass) { c in
                if p.collection == .single {
                    guard let col = try? c.column(property) else { return true }
                    for r in 0..<c.count where !col.isNull(r) { m[col.int(r), default: []].append(c.key(r)) }
                } else {
                    for r in 0..<c.count {
                        let origin = c.key(r)
                        let items: [Value]
                        if p.collection == .map {
                            items = ((try? txn.map(originClass, origin, property)) ?? []).map(\.value)
                        } else {
                            items = (try? c.collection(property, row: r)) ?? []
                        }
                        for case .object(let l) in items { m[l.key, default: []].append(origin) }
                    }
                }
                return true
            }
        }
        cache.backlinks[id] = m
        return m
    }
}

/// The query value of row `row` of a column, exactly as stored (dates to the nanosecond).
func readQueryValue(_ col: ColumnAccessor, _ row: Int) -> QueryValue {
    if col.isNull(row) { return .null }
    switch col.propertyType {
    case .bool: return .bool(col.int(row) != 0)
    case .int: return .int(col.int(row))
    case .date: return .date(QueryTimestamp(nanosecondsSince1970: col.int(row)))
    case .float: return .float(Float(col.double(row)))
    case .double: return .double(col.double(row))
    case .string: return .string(col.withBytes(row) { String(decoding: $0, as: UTF8.self) })
    case .data: return .data(col.withBytes(row) { Array($0) })
    case .objectId: return col.withBytes(row) { QueryObjectId(bytes: Array($0)) }.map { .objectId($0) } ?? .null
    case .object:
        return .object(QueryObjectRef(className: col.property.objectClassName ?? "", key: col.int(row)))
    case .mixed:
        // Dates inside mixed values: read the stored nanoseconds (tag 7, then Int64 LE).
        let ns: Int64? = col.withBytes(row) { b in
            guard b.count == 9, b[0] == 7 else { return nil }
            return Int64(littleEndian: b.loadUnaligned(fromByteOffset: 1, as: Int64.self))
        }
        if let ns { return .date(QueryTimestamp(nanosecondsSince1970: ns)) }
        return QueryValue(col.value(row))
    default:
        return QueryValue(col.value(row))
    }
}
