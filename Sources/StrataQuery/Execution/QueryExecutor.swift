import Foundation
import StrataObjects

/// What the last operations of a `QueryExecutor` did, for tests and diagnostics.
package struct QueryStatistics: Hashable, Sendable {
    /// Clusters whose columns were scanned.
    package var clustersScanned = 0
    /// Rows of those clusters that were candidates.
    package var rowsScanned = 0
    /// Index or primary-key lookups made instead of scanning.
    package var indexLookups = 0
    /// Objects handed to the reference evaluator (for comparisons the scans do not handle).
    package var fallbackEvaluations = 0
    /// Objects reached by following links: by the reference evaluator (each target it reads,
    /// after removing repeats per hop) and by link-path sets (each object whose links were read,
    /// once per hop). Bounded by hops × objects per evaluated object, resp. per query.
    package var objectsVisited = 0
    package init() {}
}

/// Runs bound queries against one `DBTransaction` by scanning columns cluster by cluster.
///
/// - Filtering: the predicate is compiled into per-cluster column tests (see `ScanPlan`);
///   when a top-level AND clause is `property == constant` (or `IN {…}`) on the primary key or
///   an indexed property, the index gives the candidates and only their clusters are read.
/// - SORT / DISTINCT / LIMIT follow the reference evaluator: stable sort, nulls first when
///   ascending, multi-key; DISTINCT keeps the first object of each combination; clauses apply
///   in the order written.
/// - Results are object keys, in key order unless sorted, or in the order of the `among` keys
///   they were filtered from.
///
/// The executor reads through the transaction and holds no state between calls other than
/// `statistics`. It belongs to the transaction's thread.
package final class QueryExecutor {
    package let txn: DBTransaction
    package var statistics = QueryStatistics()
    /// When set, scans check it before each cluster and every few hundred objects evaluated one
    /// by one, and throw `QueryError.cancelled` once it is cancelled (see `QueryCancellation`).
    package var cancellation: QueryCancellation?

    package init(_ txn: DBTransaction, cancellation: QueryCancellation? = nil) {
        self.txn = txn
        self.cancellation = cancellation
    }

    // MARK: compiling

    /// The query schema of the transaction's schema.
    package var querySchema: QuerySchema { QuerySchema(txn.schema) }

    /// Parses and binds `text` against the transaction's schema. `arguments` are Swift values
    /// (see `QueryArguments.convert`).
    package func compile(_ text: String, className: String, arguments: [Any] = []) throws(QueryError) -> BoundQuery {
        try RQL.compile(text, schema: querySchema, className: className, arguments: QueryArguments.convert(arguments))
    }

    private func objectSchema(_ className: String) throws -> ObjectSchema {
        guard let os = txn.schema[className] else {
            throw QueryError(kind: .unknownClass, message: "Unknown class '\(className)'")
        }
        return os
    }

    // MARK: running

    /// The keys of the objects matching the query, after its SORT / DISTINCT / LIMIT.
    /// With `among`, only those objects are considered and their order is kept (before any
    /// SORT).
    package func run(_ query: BoundQuery, among keys: [ObjKey]? = nil) throws -> [ObjKey] {
        // LIMIT before any SORT/DISTINCT can stop the scan early.
        var scanLimit: Int? = nil
        if case .limit(let n)? = query.ordering.first { scanLimit = n }
        let matched = try filter(query.predicate, className: query.className, among: keys, limit: scanLimit)
        return try applyOrdering(query.ordering, to: matched, className: query.className)
    }

    /// Parses, binds and runs a query string.
    package func run(_ text: String, className: String, arguments: [Any] = [], among keys: [ObjKey]? = nil) throws -> [ObjKey] {
        try run(compile(text, className: className, arguments: arguments), among: keys)
    }

    /// The number of objects the query yields (after SORT / DISTINCT / LIMIT).
    package func count(_ query: BoundQuery, among keys: [ObjKey]? = nil) throws -> Int {
        let needsKeys = query.ordering.contains { if case .distinct = $0 { return true } else { return false } }
        if needsKeys { return try run(query, among: keys).count }
        var n = try count(query.predicate, className: query.className, among: keys)
        for case .limit(let l) in query.ordering { n = min(n, l) }
        return n
    }

    /// The number of objects matching a predicate (no keys are materialised).
    package func count(_ predicate: BoundPredicate, className: String, among keys: [ObjKey]? = nil) throws -> Int {
        _ = try objectSchema(className)
        if keys == nil, case .constant(true) = predicate { return try txn.count(className) }
        var n = 0
        try scan(predicate, className: className, among: keys) { _, mask, words in
            n += maskCount(mask, words)
            return true
        }
        return n
    }

    /// The keys of the objects matching a predicate, in key order (or in the order of `among`),
    /// at most `limit` of them.
    package func filter(_ predicate: BoundPredicate, className: String, among keys: [ObjKey]? = nil, limit: Int? = nil) throws -> [ObjKey] {
        if let limit, limit <= 0 { return [] }
        if let keys, !isAscending(keys) {
            // Scan in key order, then keep the input order.
            var hits = Set<ObjKey>()
            try scan(predicate, className: className, among: keys) { c, mask, words in
                forEachRow(mask, words) { hits.insert(c.key($0)) }
                return true
            }
            var out = keys.filter { hits.contains($0) }
            if let limit, out.count > limit { out.removeSubrange(limit...) }
            return out
        }
        var out: [ObjKey] = []
        try scan(predicate, className: className, among: keys) { c, mask, words in
            forEachRow(mask, words) { out.append(c.key($0)) }
            if let limit, out.count >= limit { out.removeSubrange(limit...); return false }
            return true
        }
        return out
    }

    private func isAscending(_ keys: [ObjKey]) -> Bool {
        var i = 1
        while i < keys.count { if keys[i - 1] >= keys[i] { return false }; i += 1 }
        return true
    }

    // MARK: the scan

    /// Calls `visit` with each cluster that has matches and the mask of its matching rows,
    /// until it returns false.
    func scan(_ predicate: BoundPredicate, className: String, among keys: [ObjKey]?,
              _ visit: (ClusterSnapshot, UnsafePointer<UInt64>, Int) throws -> Bool) throws {
        let os = try objectSchema(className)
        let plan = ScanCompiler.compile(predicate, schema: os)
        if case .constant(false) = plan.root { return }
        var candidates = keys
        if let fromIndex = try indexCandidates(predicate, os, among: keys?.count) {
            if let keys {
                let wanted = Set(keys)
                candidates = fromIndex.filter { wanted.contains($0) }
            } else {
                candidates = fromIndex
            }
        }
        let ev = ClusterEvaluator(plan: plan, className: className, txn: txn)
        ev.cancellation = cancellation
        defer {
            statistics.fallbackEvaluations += ev.fallbackEvaluations
            statistics.objectsVisited += ev.linkPathObjectsRead + (ev.access?.objectsReached ?? 0)
        }

        func run(_ c: ClusterSnapshot, _ fill: (UnsafeMutablePointer<UInt64>) -> Void) throws -> Bool {
            try cancellation?.check()
            ev.begin(c)
            let words = ev.words
            let cand = ev.arena.push()
            let out = ev.arena.push()
            defer { ev.arena.pop(); ev.arena.pop() }
            fill(cand)
            let n = maskCount(cand, words)
            if n == 0 { return true }
            statistics.clustersScanned += 1
            statistics.rowsScanned += n
            try ev.eval(plan.root, cand, out)
            if maskIsEmpty(out, words) { return true }
            return try visit(c, out, words)
        }

        guard var sorted = candidates else {
            try txn.forEachCluster(className) { c in
                try run(c) { maskFill($0, rows: c.count) }
            }
            return
        }
        // Candidate keys: visit their clusters in key order.
        if !isAscending(sorted) { sorted.sort() }
        var i = 0
        while i < sorted.count {
            guard let (c, _) = try txn.locateObject(className, sorted[i]) else { i += 1; continue }
            let last = c.lastKey
            var j = i
            while j < sorted.count, sorted[j] <= last { j += 1 }
            let range = i..<j
            i = j
            let keepGoing = try run(c) { mask in
                for w in 0..<((c.count + 63) >> 6) { mask[w] = 0 }
                for k in range { if let r = c.row(of: sorted[k]) { mask[r >> 6] |= 1 << UInt64(r & 63) } }
            }
            if !keepGoing { return }
        }
    }

    /// At most this many `among` keys are evaluated directly instead of intersected with an
    /// index lookup, which reads every object with the value: a change notification or the
    /// browser placing a changed object runs the query on one or two objects at a time, and a
    /// lookup of `kind == 'purchase'` among 135,000 events read 17,000 keys for each.
    static let smallAmong = 256

    /// Candidate keys from an index when a top-level AND clause is `property == constant` or
    /// `property IN {…}` on the primary key or an indexed property; nil when none is usable
    /// (and for a secondary index when the query runs among at most ``smallAmong`` objects).
    func indexCandidates(_ predicate: BoundPredicate, _ os: ObjectSchema, among: Int? = nil) throws -> [ObjKey]? {
        for clause in predicate.conjuncts {
            guard case .comparison(let c) = clause, c.quantifier == nil, c.options.isEmpty else { continue }
            var property: String
            var values: [QueryValue]
            if let (p, v) = c.propertyEqualsConstant {
                property = p
                values = [v]
            } else if c.op == .in, case .path(let path) = c.left, let p = path.directProperty, case .values(let vs) = c.right {
                property = p
                values = vs
            } else {
                continue
            }
            guard let prop = os[property] else { continue }
            let intKey = prop.isPrimaryKey && prop.type == .int
            guard intKey || ((among ?? .max) > Self.smallAmong && txn.hasIndex(os.className, property)) else { continue }
            var engineValues: [Value] = []
            var usable = true
            for v in values {
                guard let ev = indexValue(v, prop) else { usable = false; break }
                if let ev { engineValues.append(ev) }
            }
            guard usable else { continue }
            var keys: [ObjKey] = []
            for v in engineValues {
                statistics.indexLookups += 1
                if intKey {
                    // The key is the primary key; the scan skips keys with no object.
                    if case .int(let k) = v { keys.append(k) }
                } else {
                    keys.append(contentsOf: try txn.indexLookup(os.className, property, v))
                }
            }
            keys.sort()
            var unique: [ObjKey] = []
            unique.reserveCapacity(keys.count)
            for k in keys where unique.last != k { unique.append(k) }
            return unique
        }
        return nil
    }

    /// The engine value an index stores for a constant compared with `prop`: `.some(nil)` when
    /// the constant can never equal a value of the property, nil when the index cannot answer.
    private func indexValue(_ v: QueryValue, _ prop: PropertySchema) -> Value?? {
        switch (prop.type, v) {
        case (_, .null): return prop.isOptional ? .some(.null) : .some(nil)
        case (.int, .int(let i)): return .some(.int(i))
        case (.bool, .bool(let b)): return .some(.bool(b))
        case (.string, .string(let s)): return .some(.string(s))
        case (.objectId, .objectId(let o)): return ObjectId(bytes: o.bytes).map { .some(.objectId($0)) } ?? nil
        case (.uuid, .uuid(let u)): return .some(.uuid(u))
        default: return nil
        }
    }

    // MARK: aggregates

    /// `min`, `max`, `sum` or `avg` of a property over the objects matching a predicate (or
    /// `count` of its non-null values), with the reference evaluator's result types: sums of
    /// Int are Int, of Double/Float are Double, of Decimal128 are decimal; averages are Double
    /// (decimal for Decimal128); min/max keep the property's type; empty min/max/avg are null.
    package func aggregate(_ op: QueryAggregate, property: String, className: String,
                          where predicate: BoundPredicate = .constant(true), among keys: [ObjKey]? = nil) throws -> QueryValue {
        let os = try objectSchema(className)
        guard let prop = os[property], prop.collection == .single, prop.isStored else {
            throw QueryError(kind: .unknownProperty, message: "Cannot aggregate '\(property)': class '\(className)' has no such single-valued property")
        }
        switch (op, prop.type) {
        case (.count, _), (.size, _): break
        case (.min, .int), (.min, .double), (.min, .float), (.min, .decimal128), (.min, .date), (.min, .mixed),
             (.max, .int), (.max, .double), (.max, .float), (.max, .decimal128), (.max, .date), (.max, .mixed),
             (.sum, .int), (.sum, .double), (.sum, .float), (.sum, .decimal128), (.sum, .mixed),
             (.avg, .int), (.avg, .double), (.avg, .float), (.avg, .decimal128), (.avg, .mixed):
            break
        default:
            throw QueryError(kind: .typeMismatch, message: "Cannot compute @\(op.rawValue) of \(prop.typeDescription) property '\(className).\(property)'")
        }
        var acc = Aggregator(op: op, type: prop.type)
        try scan(predicate, className: className, among: keys) { c, mask, words in
            let col = try c.column(property)
            if op == .sum, prop.type == .int, maskCount(mask, words) == c.count {
                acc.addIntSum(col.sumInts(), nonNull: col.hasNoNulls ? c.count : nil)
                return true
            }
            if prop.type == .int || prop.type == .date {
                if let raw = col.raw, raw.layout == .int {
                    forEachRow(mask, words) { i in
                        if let n = raw.nulls, n[i >> 3] & (1 << UInt8(i & 7)) != 0 { return }
                        acc.addInt(rawInt(raw, i))
                    }
                } else {
                    forEachRow(mask, words) { i in if !col.isNull(i) { acc.addInt(col.int(i)) } }
                }
            } else if prop.type == .double || prop.type == .float {
                forEachRow(mask, words) { i in if !col.isNull(i) { acc.addDouble(col.double(i)) } }
            } else {
                forEachRow(mask, words) { i in acc.add(readQueryValue(col, i)) }
            }
            return true
        }
        return acc.result
    }

    // MARK: ordering

    /// Applies SORT / DISTINCT / LIMIT clauses in order.
    package func applyOrdering(_ clauses: [BoundOrderingClause], to keys: [ObjKey], className: String) throws -> [ObjKey] {
        var result = keys
        for (index, clause) in clauses.enumerated() {
            switch clause {
            case .sort(let sortKeys):
                // SORT then LIMIT(k): select the first k without sorting everything.
                var limit: Int? = nil
                if let next = clauses.dropFirst(index + 1).first, case .limit(let k) = next { limit = k }
                result = try sorted(result, className: className, by: sortKeys, limit: limit)
            case .distinct(let paths): result = try distinct(result, className: className, by: paths)
            case .limit(let n): if result.count > n { result.removeSubrange(max(n, 0)...) }
            }
        }
        return result
    }

    /// Stable sort by several keys (nulls first ascending, last descending).
    /// With `limit`, only the first `limit` objects of the sorted order are returned.
    package func sorted(_ keys: [ObjKey], className: String, by sortKeys: [BoundSortKey], limit: Int? = nil) throws -> [ObjKey] {
        guard keys.count > 1, !sortKeys.isEmpty else { return limit.map { Array(keys.prefix(max($0, 0))) } ?? keys }
        let columns = try sortKeys.map { try SortColumn(values: pathValues($0.path, className: className, keys: keys)) }
        let ascending = sortKeys.map(\.ascending)
        func before(_ a: Int, _ b: Int) -> Bool {
            for k in 0..<columns.count {
                let o = columns[k].compare(a, b)
                if o == 0 { continue }
                return ascending[k] ? o < 0 : o > 0
            }
            return a < b
        }
        if let limit, limit < keys.count / 8 {
            // Bounded insertion: keep the best `limit` positions in order.
            guard limit > 0 else { return [] }
            var best: [Int] = []
            best.reserveCapacity(limit + 1)
            for i in 0..<keys.count {
                if best.count == limit, !before(i, best[limit - 1]) { continue }
                var lo = 0, hi = best.count
                while lo < hi { let mid = (lo + hi) / 2; if before(i, best[mid]) { hi = mid } else { lo = mid + 1 } }
                best.insert(i, at: lo)
                if best.count > limit { best.removeLast() }
            }
            return best.map { keys[$0] }
        }
        var order = Array(0..<keys.count)
        order.sort(by: before)
        if let limit, order.count > limit { order.removeSubrange(max(limit, 0)...) }
        return order.map { keys[$0] }
    }

    /// Keeps the first object of each distinct combination of values.
    package func distinct(_ keys: [ObjKey], className: String, by paths: [BoundKeyPath]) throws -> [ObjKey] {
        guard !paths.isEmpty else { return keys }
        let columns = try paths.map { try pathValues($0, className: className, keys: keys) }
        var seen = Set<[DistinctKey]>()
        var out: [ObjKey] = []
        for (i, k) in keys.enumerated() {
            if seen.insert(columns.map { DistinctKey($0[i]) }).inserted { out.append(k) }
        }
        return out
    }

    /// The value of a single-valued path for each key (in the keys' order).
    func pathValues(_ path: BoundKeyPath, className: String, keys: [ObjKey]) throws -> [QueryValue] {
        if let name = path.directProperty {
            return try columnValues(name, className: className, keys: keys)
        }
        let evaluator = QueryEvaluator(DBObjectAccess(txn))
        return keys.map { evaluator.value(of: path, on: ObjectLink(className: className, key: $0)) }
    }

    /// Values of one column for `keys`, read cluster by cluster in key order.
    func columnValues(_ property: String, className: String, keys: [ObjKey]) throws -> [QueryValue] {
        var out = [QueryValue](repeating: .null, count: keys.count)
        let order = isAscending(keys) ? Array(keys.indices) : keys.indices.sorted { keys[$0] < keys[$1] }
        var i = 0
        while i < order.count {
            guard let (c, _) = try txn.locateObject(className, keys[order[i]]) else { i += 1; continue }
            let col = try c.column(property)
            let last = c.lastKey
            while i < order.count, keys[order[i]] <= last {
                if let r = c.row(of: keys[order[i]]) { out[order[i]] = readQueryValue(col, r) }
                i += 1
            }
        }
        return out
    }
}

/// Sort keys of one column, typed where that makes comparisons cheap. Comparisons follow
/// `sortCompare`: nulls first, NaN before other numbers, strings by UTF-8 bytes.
struct SortColumn {
    enum Storage {
        /// Int, Bool (0/1) and Date (nanoseconds) values.
        case ints([Int64], [Bool])
        case doubles([Double], [Bool])
        case strings([[UInt8]?])
        case values([QueryValue])
    }
    let storage: Storage

    init(values: [QueryValue]) {
        var kind = 0  // 0: undecided, 1: ints, 2: doubles, 3: strings, 4: mixed
        for v in values {
            let k: Int
            switch v {
            case .null: continue
            case .int, .bool: k = 1
            case .date(let t): k = t.nanosecondsSince1970 == nil ? 4 : 1
            case .double, .float: k = 2
            case .string: k = 3
            default: k = 4
            }
            if kind == 0 { kind = k } else if kind != k { kind = 4 }
            if kind == 4 { break }
        }
        // Bools and ints never share a column unless mixed; mixed columns use `values`.
        if kind == 1, values.contains(where: { if case .bool = $0 { return true } else { return false } }),
           values.contains(where: { if case .bool = $0 { return false } else { return !$0.isNull } }) {
            kind = 4
        }
        switch kind {
        case 0, 1:
            var ints: [Int64] = [], nulls: [Bool] = []
            ints.reserveCapacity(values.count); nulls.reserveCapacity(values.count)
            for v in values {
                switch v {
                case .int(let i): ints.append(i); nulls.append(false)
                case .bool(let b): ints.append(b ? 1 : 0); nulls.append(false)
                case .date(let t): ints.append(t.nanosecondsSince1970 ?? 0); nulls.append(false)
                default: ints.append(0); nulls.append(true)
                }
            }
            storage = .ints(ints, nulls)
        case 2:
            var ds: [Double] = [], nulls: [Bool] = []
            ds.reserveCapacity(values.count); nulls.reserveCapacity(values.count)
            for v in values {
                switch v {
                case .double(let d): ds.append(d); nulls.append(false)
                case .float(let f): ds.append(Double(f)); nulls.append(false)
                default: ds.append(0); nulls.append(true)
                }
            }
            storage = .doubles(ds, nulls)
        case 3:
            storage = .strings(values.map { if case .string(let s) = $0 { return Array(s.utf8) } else { return nil } })
        default:
            storage = .values(values)
        }
    }

    /// -1, 0 or 1 in the reference evaluator's sort order.
    @inline(__always) func compare(_ a: Int, _ b: Int) -> Int {
        switch storage {
        case .ints(let v, let n):
            if n[a] || n[b] { return n[a] == n[b] ? 0 : (n[a] ? -1 : 1) }
            return v[a] < v[b] ? -1 : (v[a] == v[b] ? 0 : 1)
        case .doubles(let v, let n):
            if n[a] || n[b] { return n[a] == n[b] ? 0 : (n[a] ? -1 : 1) }
            let x = v[a], y = v[b]
            if x.isNaN || y.isNaN { return x.isNaN == y.isNaN ? 0 : (x.isNaN ? -1 : 1) }
            return x < y ? -1 : (x == y ? 0 : 1)
        case .strings(let v):
            switch (v[a], v[b]) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?):
                let m = Swift.min(x.count, y.count)
                if m > 0 {
                    let c = x.withUnsafeBytes { xp in y.withUnsafeBytes { yp in memcmp(xp.baseAddress!, yp.baseAddress!, m) } }
                    if c != 0 { return c < 0 ? -1 : 1 }
                }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        case .values(let v):
            return sortCompare(v[a], v[b]).rawValue
        }
    }
}

/// Accumulates min / max / sum / avg like the reference evaluator's collection operators.
struct Aggregator {
    let op: QueryAggregate
    let type: PropertyType
    private var intSum: Int64 = 0
    private var intMin = Int64.max, intMax = Int64.min
    private var doubleSum = 0.0
    private var doubleMin: Double? = nil, doubleMax: Double? = nil
    private var n = 0
    private var values: [QueryValue] = []

    init(op: QueryAggregate, type: PropertyType) {
        self.op = op
        self.type = type
    }

    mutating func addIntSum(_ sum: Int64, nonNull: Int?) {
        intSum &+= sum
        n += nonNull ?? 1
    }

    @inline(__always) mutating func addInt(_ v: Int64) {
        intSum &+= v
        if v < intMin { intMin = v }
        if v > intMax { intMax = v }
        n += 1
    }

    @inline(__always) mutating func addDouble(_ d: Double) {
        doubleSum += d
        n += 1
        if !d.isNaN {
            if doubleMin == nil || d < doubleMin! { doubleMin = d }
            if doubleMax == nil || d > doubleMax! { doubleMax = d }
        }
    }

    mutating func add(_ v: QueryValue) {
        if v.isNull { return }
        n += 1
        if op != .count && op != .size { values.append(v) }
    }

    var result: QueryValue {
        if op == .count || op == .size { return .int(Int64(n)) }
        switch type {
        case .int:
            switch op {
            case .sum: return .int(intSum)
            case .min: return n == 0 ? .null : .int(intMin)
            case .max: return n == 0 ? .null : .int(intMax)
            default: return n == 0 ? .null : .double(Double(intSum) / Double(n))
            }
        case .date:
            switch op {
            case .min: return n == 0 ? .null : .date(QueryTimestamp(nanosecondsSince1970: intMin))
            case .max: return n == 0 ? .null : .date(QueryTimestamp(nanosecondsSince1970: intMax))
            default: return .null
            }
        case .double, .float:
            switch op {
            case .sum: return .double(doubleSum)
            case .min: return doubleMin.map { type == .float ? .float(Float($0)) : .double($0) } ?? .null
            case .max: return doubleMax.map { type == .float ? .float(Float($0)) : .double($0) } ?? .null
            default: return n == 0 ? .null : .double(doubleSum / Double(n))
            }
        default:
            return reduceValues(op, values, decimal: type == .decimal128)
        }
    }
}

/// The reference evaluator's reduction of non-null values (decimal and mixed properties).
func reduceValues(_ op: QueryAggregate, _ values: [QueryValue], decimal: Bool) -> QueryValue {
    reduceAggregate(op, values, type: decimal ? .decimal : .any)
}
