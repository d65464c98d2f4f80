import Foundation
import StrataDecimal
import StrataObjects

// SORT, DISTINCT and LIMIT over a sequence of objects.
//
// - SORT is stable and compares key by key; nulls sort first in ascending order (last in
//   descending), strings by code point, mixed values by type rank then value (see sortCompare).
// - DISTINCT keeps the first object of each combination of key values (equality as `==`, so
//   1 and 1.0 in a mixed property are the same value, but 'é' and 'e\u{301}' are not).
// - LIMIT(n) keeps the first n objects.
// Clauses apply in the order written.

extension QueryEvaluator {
    /// Applies SORT / DISTINCT / LIMIT clauses in order.
    package func applyOrdering(_ clauses: [BoundOrderingClause], to objects: [Access.Object]) -> [Access.Object] {
        var result = objects
        for clause in clauses {
            switch clause {
            case .sort(let keys): result = sorted(result, by: keys)
            case .distinct(let paths): result = distinct(result, by: paths)
            case .limit(let n): result = Array(result.prefix(n))
            }
        }
        return result
    }

    /// Stable sort by several keys.
    package func sorted(_ objects: [Access.Object], by keys: [BoundSortKey]) -> [Access.Object] {
        let decorated = objects.enumerated().map { (index, object) in
            (index: index, object: object, key: keys.map { value(of: $0.path, on: object) })
        }
        let ordered = decorated.sorted { a, b in
            for (k, key) in keys.enumerated() {
                let o = sortCompare(a.key[k], b.key[k])
                if o == .equal { continue }
                return key.ascending ? o == .less : o == .greater
            }
            return a.index < b.index
        }
        return ordered.map(\.object)
    }

    /// Keeps the first object of each distinct combination of values.
    package func distinct(_ objects: [Access.Object], by paths: [BoundKeyPath]) -> [Access.Object] {
        var seen = Set<[DistinctKey]>()
        var out: [Access.Object] = []
        for o in objects {
            let key = paths.map { DistinctKey(value(of: $0, on: o)) }
            if seen.insert(key).inserted { out.append(o) }
        }
        return out
    }
}

/// A hashable normal form of a value in which values that `==` considers equal coincide:
/// numbers equal to an Int64 become that integer, strings compare by UTF-8 bytes.
enum DistinctKey: Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case decimal(String)
    case string([UInt8])
    case data([UInt8])
    case date(QueryTimestamp)
    case objectId(QueryObjectId)
    case uuid(UUID)
    case object(QueryObjectRef)
    case list([DistinctKey])

    init(_ v: QueryValue) {
        switch v {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = DistinctKey.number(d)
        case .float(let f): self = DistinctKey.number(Double(f))
        case .decimal(let d):
            // Equal numbers give equal keys: integers as int, decimals that are exactly a double
            // as that double, others by their text without trailing zeros.
            if let i = d.storage.int64Exactly {
                self = .int(i)
            } else if d.isFinite, case let dbl = d.doubleValue, dbl.isFinite, DecimalValue(dbl, significantDigits: 34) == d.storage {
                self = DistinctKey.number(dbl)
            } else {
                self = .decimal(d.storage.normalized.realmText)
            }
        case .string(let s): self = .string(Array(s.utf8))
        case .data(let d): self = .data(d)
        case .date(let t): self = .date(t)
        case .objectId(let o): self = .objectId(o)
        case .uuid(let u): self = .uuid(u)
        case .object(let r): self = .object(r)
        case .list(let items): self = .list(items.map(DistinctKey.init))
        }
    }

    private static func number(_ d: Double) -> DistinctKey {
        if let i = Int64(exactly: d) { return .int(i) }
        return .double(d)
    }
}
