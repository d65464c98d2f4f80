import Foundation
import StrataObjects
#if canImport(Glibc)
import Glibc
#endif

// Per-cluster evaluation of a `ScanPlan` into bitmasks: bit `i` of word `i >> 6` stands for
// row `i` of the cluster. Every function computes `out = candidates ∧ test`, writing all
// `words` words of `out`; bits at or beyond the cluster's row count are never set.

/// A stack of row masks for one cluster size (reused across clusters).
final class MaskArena {
    private var masks: [UnsafeMutablePointer<UInt64>] = []
    private var capacityWords = 16
    private(set) var words = 0
    private var top = 0

    deinit { for m in masks { m.deallocate() } }

    /// Prepares for a cluster of `rows` rows (all masks must have been released).
    func reset(rows: Int) {
        words = (rows + 63) >> 6
        top = 0
        if words > capacityWords {
            for m in masks { m.deallocate() }
            masks.removeAll()
            capacityWords = words
        }
    }

    /// A fresh mask (contents undefined). Masks are released in reverse order with `pop`.
    func push() -> UnsafeMutablePointer<UInt64> {
        if top == masks.count { masks.append(.allocate(capacity: capacityWords)) }
        let p = masks[top]
        top += 1
        return p
    }

    func pop() { top -= 1 }
}

@inline(__always) func maskIsEmpty(_ m: UnsafePointer<UInt64>, _ words: Int) -> Bool {
    for w in 0..<words where m[w] != 0 { return false }
    return true
}

@inline(__always) func maskCount(_ m: UnsafePointer<UInt64>, _ words: Int) -> Int {
    var n = 0
    for w in 0..<words { n &+= m[w].nonzeroBitCount }
    return n
}

/// Sets the first `rows` bits.
@inline(__always) func maskFill(_ m: UnsafeMutablePointer<UInt64>, rows: Int) {
    let words = (rows + 63) >> 6
    for w in 0..<words { m[w] = ~0 }
    if rows & 63 != 0 { m[words - 1] = (1 << UInt64(rows & 63)) &- 1 }
}

/// Calls `body` with each set row of `m`, in order.
@inline(__always) func forEachRow(_ m: UnsafePointer<UInt64>, _ words: Int, _ body: (Int) throws -> Void) rethrows {
    for w in 0..<words {
        var bits = m[w]
        while bits != 0 {
            let b = bits.trailingZeroBitCount
            try body(w << 6 | b)
            bits &= bits &- 1
        }
    }
}

/// The columns of one cluster, fetched once each when a leaf first needs them.
final class ClusterColumns {
    var cluster: ClusterSnapshot?
    var names: [String] = []
    var accessors: [ColumnAccessor?] = []
    var raws: [RawColumn?] = []
    var fetched: [Bool] = []
    /// Column index of each name in the class (-1 until first resolved): the scan reads one
    /// class, so each name is looked up once, not once per cluster.
    var indexes: [Int] = []

    func reset(_ c: ClusterSnapshot, names: [String]) {
        cluster = c
        if self.names != names {
            self.names = names
            accessors = Array(repeating: nil, count: names.count)
            raws = Array(repeating: nil, count: names.count)
            fetched = Array(repeating: false, count: names.count)
            indexes = Array(repeating: -1, count: names.count)
        } else {
            for i in 0..<fetched.count { fetched[i] = false }
        }
    }

    @inline(__always) func fetch(_ slot: Int) throws {
        if fetched[slot] { return }
        if indexes[slot] < 0 { indexes[slot] = try cluster!.columnIndex(names[slot]) }
        let a = try cluster!.column(at: indexes[slot])
        accessors[slot] = a
        raws[slot] = a.raw
        fetched[slot] = true
    }
}

/// Evaluates compiled predicates on clusters.
final class ClusterEvaluator {
    let plan: ScanPlan
    let className: String
    let arena = MaskArena()
    let columns = ClusterColumns()
    let access: DBObjectAccess?
    let evaluator: QueryEvaluator<DBObjectAccess>?
    var rows = 0
    /// 64 bytes for the int kernels.
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
    deinit { scratch.deallocate() }
    /// Objects given to the reference evaluator.
    var fallbackEvaluations = 0
    /// Objects whose links were read to build link-path sets.
    var linkPathObjectsRead = 0
    /// Per `linkPath` leaf: the queried objects that reach a matching object (see `linkPathSet`).
    var linkPathSets: [Int: KeySet] = [:]
    /// Checked every few hundred objects evaluated one by one, and per cluster of a link-path set.
    var cancellation: QueryCancellation?

    let txn: DBTransaction
    /// Per `link.property` leaf: the target objects that satisfy its comparison.
    var linkSets: [Int: KeySet] = [:]
    var linkRowsEvaluated = 0
    var linkAccess: DBObjectAccess?
    /// Rows evaluated object by object before a link leaf reads the whole target column.
    nonisolated(unsafe) static var linkMapThreshold = 4096

    /// The objects of `className` for which `comparison` (a `link.property` comparison
    /// re-rooted at the target, see `ScanCompiler`) holds, scanned with the same kernels.
    func matchingTargets(_ className: String, _ comparison: BoundComparison) throws -> KeySet {
        guard case .path(let p) = comparison.left, p.steps.count == 2 else { return KeySet([]) }
        var c = comparison
        c.left = .path(BoundKeyPath(variable: nil, steps: [p.steps[1]], type: p.type, isToMany: false, text: p.text))
        let ex = QueryExecutor(txn)
        ex.cancellation = cancellation
        let keys = try ex.filter(.comparison(c), className: className)
        return KeySet(keys)
    }

    /// For a link-path leaf: the objects of the queried class from which the path reaches an
    /// object of the last class that satisfies the comparison (`ANY`, `NONE`), or that fails it
    /// (`ALL`). Computed backwards, one set per hop: the last class's matches come from a scan
    /// with the ordinary kernels; each earlier class keeps the objects with a link into the next
    /// set. Each object of each class on the path is read once per hop, whatever the
    /// collections' sizes (the per-object evaluation revisits shared targets once per path).
    func linkPathSet(_ leaf: LinkPathLeaf) throws -> KeySet {
        let lastClass = leaf.hops[leaf.hops.count - 1].target
        let ex = QueryExecutor(txn)
        ex.cancellation = cancellation
        var keys = try ex.filter(.comparison(leaf.lastComparison), className: lastClass)
        linkPathObjectsRead += ex.statistics.rowsScanned + ex.statistics.objectsVisited
        if leaf.mode == .all {
            // ALL holds unless some reached value fails: track the failing objects.
            let matching = KeySet(keys)
            var failing: [ObjKey] = []
            try txn.forEachCluster(lastClass) { c in
                try cancellation?.check()
                linkPathObjectsRead += c.count
                for r in 0..<c.count where !matching.contains(c.key(r)) { failing.append(c.key(r)) }
                return true
            }
            keys = failing
        }
        var current = KeySet(keys)
        var currentIsEmpty = keys.isEmpty
        for j in stride(from: leaf.hops.count - 1, through: 0, by: -1) {
            let source = j == 0 ? className : leaf.hops[j - 1].target
            let property = leaf.hops[j].property
            if currentIsEmpty { return KeySet([]) }
            guard let prop = txn.schema[source]?[property] else { return KeySet([]) }
            var reaching: [ObjKey] = []
            let target = current
            try txn.forEachCluster(source) { c in
                try cancellation?.check()
                linkPathObjectsRead += c.count
                if prop.collection == .single {
                    let col = try c.column(property)
                    for r in 0..<c.count where !col.isNull(r) && target.contains(col.int(r)) { reaching.append(c.key(r)) }
                } else {
                    for r in 0..<c.count {
                        let items = try c.collection(property, row: r)
                        if items.contains(where: { if case .object(let l) = $0 { return target.contains(l.key) } else { return false } }) {
                            reaching.append(c.key(r))
                        }
                    }
                }
                return true
            }
            current = KeySet(reaching)
            currentIsEmpty = reaching.isEmpty
        }
        return current
    }

    init(plan: ScanPlan, className: String, txn: DBTransaction) {
        self.txn = txn
        self.plan = plan
        self.className = className
        if plan.needsEvaluator {
            let a = DBObjectAccess(txn)
            access = a
            evaluator = QueryEvaluator(a)
        } else {
            access = nil
            evaluator = nil
        }
    }

    /// Starts a cluster: masks are sized for it and its columns will be fetched on demand.
    func begin(_ c: ClusterSnapshot) {
        rows = c.count
        arena.reset(rows: rows)
        columns.reset(c, names: plan.columns)
        if let access { access.prime(className, c) }
    }

    var words: Int { arena.words }

    /// out = cand ∧ node, on the current cluster.
    func eval(_ node: ScanNode, _ cand: UnsafePointer<UInt64>, _ out: UnsafeMutablePointer<UInt64>) throws {
        let words = self.words
        switch node {
        case .constant(let b):
            for w in 0..<words { out[w] = b ? cand[w] : 0 }
        case .and(let parts):
            for w in 0..<words { out[w] = cand[w] }
            let tmp = arena.push()
            defer { arena.pop() }
            for p in parts {
                if maskIsEmpty(out, words) { break }
                try eval(p, out, tmp)
                for w in 0..<words { out[w] = tmp[w] }
            }
        case .or(let parts):
            for w in 0..<words { out[w] = 0 }
            let remaining = arena.push()
            let tmp = arena.push()
            defer { arena.pop(); arena.pop() }
            for w in 0..<words { remaining[w] = cand[w] }
            for p in parts {
                if maskIsEmpty(remaining, words) { break }
                try eval(p, remaining, tmp)
                for w in 0..<words { out[w] |= tmp[w]; remaining[w] &= ~tmp[w] }
            }
        case .not(let inner):
            let tmp = arena.push()
            defer { arena.pop() }
            try eval(inner, cand, tmp)
            for w in 0..<words { out[w] = cand[w] & ~tmp[w] }
        case .leaf(let leaf):
            try evalLeaf(leaf, cand, out)
        }
    }

    private func evalLeaf(_ leaf: ScanLeaf, _ cand: UnsafePointer<UInt64>, _ out: UnsafeMutablePointer<UInt64>) throws {
        let words = self.words
        switch leaf {
        case .ints(let slot, let test):
            try columns.fetch(slot)
            if let raw = columns.raws[slot], raw.layout == .int {
                scanInts(raw, test, cand, out, words: words, rows: rows, scratch: scratch)
            } else {
                let col = columns.accessors[slot]!
                for w in 0..<words { out[w] = 0 }
                forEachRow(cand, words) { i in
                    if intMatches(col, i, test) { out[i >> 6] |= 1 << UInt64(i & 63) }
                }
            }
        case .doubles(let slot, let test, let matchNull):
            try columns.fetch(slot)
            scanDoubles(columns.accessors[slot]!, columns.raws[slot], test, matchNull, cand, out, words: words)
        case .bytes(let slot, let test, let matchNull):
            try columns.fetch(slot)
            scanBytes(columns.accessors[slot]!, columns.raws[slot], test, matchNull, cand, out, words: words)
        case .foldedBytes(let slot, let test, let matchNull, let op, let constant):
            try columns.fetch(slot)
            let col = columns.accessors[slot]!
            for w in 0..<words { out[w] = 0 }
            let constants = [constant]
            forEachRow(cand, words) { i in
                let hit: Bool
                if col.isNull(i) {
                    hit = matchNull
                } else {
                    let ascii: Bool? = col.withBytes(i) { b in
                        guard isASCII(b) else { return nil }
                        return foldedMatch(b, test)
                    }
                    hit = ascii ?? genericMatches(readQueryValue(col, i), op, .caseInsensitive, constants)
                }
                if hit { out[i >> 6] |= 1 << UInt64(i & 63) }
            }
        case .generic(let left, let op, let options, let right):
            for s in [left, right] { if case .column(let slot) = s { try columns.fetch(slot) } }
            for w in 0..<words { out[w] = 0 }
            forEachRow(cand, words) { i in
                if genericMatches(operand(left, i), op, options, operands(right, i)) { out[i >> 6] |= 1 << UInt64(i & 63) }
            }
        case .linkedValue(let slot, let target, let property, let op, let options, let right, let comparison, let leafId):
            try columns.fetch(slot)
            let col = columns.accessors[slot]!
            for w in 0..<words { out[w] = 0 }
            let setKey = leafId
            if linkSets[setKey] == nil, linkRowsEvaluated >= ClusterEvaluator.linkMapThreshold {
                linkSets[setKey] = try matchingTargets(target, comparison)
            }
            if let matching = linkSets[setKey] {
                // Targets that satisfy the comparison come from one scan of the target class.
                let nullMatches = genericMatches(.null, op, options, right)
                forEachRow(cand, words) { i in
                    if col.isNull(i) ? nullMatches : matching.contains(col.int(i)) { out[i >> 6] |= 1 << UInt64(i & 63) }
                }
            } else {
                // Few rows so far: read each target through the object access.
                let a = linkAccess ?? DBObjectAccess(txn)
                linkAccess = a
                var n = 0
                forEachRow(cand, words) { i in
                    n += 1
                    var v = QueryValue.null
                    if !col.isNull(i) {
                        let t = ObjectLink(className: target, key: col.int(i))
                        if (try? txn.exists(target, t.key)) == true { v = a.value(of: t, property: property) }
                    }
                    if genericMatches(v, op, options, right) { out[i >> 6] |= 1 << UInt64(i & 63) }
                }
                linkRowsEvaluated += n
            }
        case .linkPath(let leaf):
            for w in 0..<words { out[w] = 0 }
            guard let cluster = columns.cluster else { return }
            let set: KeySet
            if let s = linkPathSets[leaf.id] { set = s } else { set = try linkPathSet(leaf); linkPathSets[leaf.id] = set }
            // ANY: the object reaches a match; NONE / ALL: it reaches no match / no failure.
            let wantMember = leaf.mode == .any
            forEachRow(cand, words) { i in
                if set.contains(cluster.key(i)) == wantMember { out[i >> 6] |= 1 << UInt64(i & 63) }
            }
        case .fallback(let c):
            for w in 0..<words { out[w] = 0 }
            guard let evaluator, let cluster = columns.cluster else { return }
            let predicate = BoundPredicate.comparison(c)
            var n = 0
            try forEachRow(cand, words) { i in
                n += 1
                if n & 255 == 0 { try cancellation?.check() }
                if evaluator.matches(ObjectLink(className: className, key: cluster.key(i)), predicate) {
                    out[i >> 6] |= 1 << UInt64(i & 63)
                }
            }
            fallbackEvaluations += n
        }
    }

    @inline(__always) private func operand(_ o: GenericOperand, _ row: Int) -> QueryValue {
        switch o {
        case .column(let slot): return readQueryValue(columns.accessors[slot]!, row)
        case .value(let v): return v
        case .values(let vs): return vs.first ?? .null
        }
    }

    @inline(__always) private func operands(_ o: GenericOperand, _ row: Int) -> [QueryValue] {
        switch o {
        case .column(let slot): return [readQueryValue(columns.accessors[slot]!, row)]
        case .value(let v): return [v]
        case .values(let vs): return vs
        }
    }
}

/// `l op r` for single-valued left side, as the reference evaluator decides it.
func genericMatches(_ l: QueryValue, _ op: QueryOperator, _ options: QueryStringOptions, _ right: [QueryValue]) -> Bool {
    switch op {
    case .in:
        return right.contains { queryEquals(l, $0, options) }
    case .between:
        guard right.count == 2, let lo = queryCompare(l, right[0]), let hi = queryCompare(l, right[1]) else { return false }
        return lo != .less && hi != .greater
    default:
        return right.contains { queryTest(l, op, $0, options) }
    }
}

// MARK: ints

@inline(__always) func rawInt(_ raw: RawColumn, _ i: Int) -> Int64 {
    let p = raw.payload
    switch raw.width {
    case 0: return raw.base
    case 1: return raw.base &+ Int64((p.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1)
    case 8: return raw.base &+ Int64(p.load(fromByteOffset: i, as: UInt8.self))
    case 16: return raw.base &+ Int64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
    case 32: return raw.base &+ Int64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)))
    default: return Int64(littleEndian: p.loadUnaligned(fromByteOffset: i &* 8, as: Int64.self))
    }
}

@inline(__always) func rangesContain(_ t: IntTest, _ v: Int64) -> Bool {
    if let s = t.set { return s.contains(v) }
    for r in t.ranges where v >= r.lo && v <= r.hi { return true }
    return false
}

@inline(__always) func intMatches(_ col: ColumnAccessor, _ i: Int, _ t: IntTest) -> Bool {
    if col.isNull(i) { return t.matchNull }
    return rangesContain(t, col.int(i))
}

/// Word `w` of a null bitmap (zero when the column has none).
@inline(__always) func nullWord(_ nulls: UnsafePointer<UInt8>?, _ w: Int) -> UInt64 {
    guard let nulls else { return 0 }
    return UInt64(littleEndian: UnsafeRawPointer(nulls).loadUnaligned(fromByteOffset: w &* 8, as: UInt64.self))
}

/// ORs into `out` a bit for every row whose packed value p satisfies (p - lo) <= span
/// (unsigned). Each block of 64 rows is tested into 64 result bytes (a loop the compiler
/// vectorises), then packed 8 bytes at a time into bits with a multiply.
@inline(__always)
func scanPacked<T: FixedWidthInteger & UnsignedInteger>(_ type: T.Type, _ payload: UnsafeRawPointer, rows: Int,
                                                         lo: UInt64, span: UInt64, _ out: UnsafeMutablePointer<UInt64>,
                                                         scratch: UnsafeMutablePointer<UInt8>) {
    let p = payload.assumingMemoryBound(to: T.self)
    let lo = T(truncatingIfNeeded: lo), span = T(truncatingIfNeeded: span)
    var w = 0
    var i = 0
    let full = rows & ~63
    while i < full {
        let q = p + i
        for j in 0..<64 { scratch[j] = (T(littleEndian: q[j]) &- lo) <= span ? 1 : 0 }
        var bits: UInt64 = 0
        let sw = UnsafeRawPointer(scratch)
        for k in 0..<8 {
            let x = sw.loadUnaligned(fromByteOffset: k &* 8, as: UInt64.self)
            bits |= ((x &* 0x0102_0408_1020_4080) >> 56) << UInt64(k &* 8)
        }
        out[w] |= bits
        w &+= 1
        i &+= 64
    }
    if i < rows {
        var bits: UInt64 = 0
        for j in 0..<(rows &- i) {
            let v = T(littleEndian: p[i &+ j])
            bits |= UInt64((v &- lo) <= span ? 1 : 0) &<< UInt64(j)
        }
        out[w] |= bits
    }
}

/// 64 packed bits starting at row 64·w of a width-1 column (reads only bytes that exist).
@inline(__always) func bitWord(_ payload: UnsafeRawPointer, _ w: Int, rows: Int) -> UInt64 {
    let remaining = rows - w * 64
    if remaining >= 64 { return UInt64(littleEndian: payload.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)) }
    var x: UInt64 = 0
    let bytes = (remaining + 7) / 8
    for b in 0..<bytes { x |= UInt64(payload.load(fromByteOffset: w * 8 + b, as: UInt8.self)) << UInt64(8 * b) }
    return x
}

func scanInts(_ raw: RawColumn, _ t: IntTest, _ cand: UnsafePointer<UInt64>, _ out: UnsafeMutablePointer<UInt64>, words: Int, rows: Int,
              scratch: UnsafeMutablePointer<UInt8>) {
    // Sparse candidates, or an IN set: test row by row.
    let dense = t.set == nil && maskCount(cand, words) * 8 >= rows
    if !dense {
        for w in 0..<words { out[w] = 0 }
        forEachRow(cand, words) { i in
            let isNull = raw.nulls.map { $0[i >> 3] & (1 << UInt8(i & 7)) != 0 } ?? false
            if isNull ? t.matchNull : rangesContain(t, rawInt(raw, i)) { out[i >> 6] |= 1 << UInt64(i & 63) }
        }
        return
    }
    for w in 0..<words { out[w] = 0 }
    switch raw.width {
    case 0:
        if rangesContain(t, raw.base) { maskFill(out, rows: rows) }
    case 1:
        let m0 = rangesContain(t, raw.base), m1 = rangesContain(t, raw.base &+ 1)
        if m0 || m1 {
            for w in 0..<words {
                let bits = bitWord(raw.payload, w, rows: rows)
                out[w] = m0 && m1 ? ~0 : (m1 ? bits : ~bits)
            }
            if rows & 63 != 0 { out[words - 1] &= (1 << UInt64(rows & 63)) &- 1 }
        }
    case 8, 16, 32:
        let maxPacked = Int64((UInt64(1) << UInt64(raw.width)) - 1)
        for r in t.ranges {
            // Into packed space: p = v - base, clipped to what the width can hold.
            let lo = r.lo.subtractingReportingOverflow(raw.base)
            let hi = r.hi.subtractingReportingOverflow(raw.base)
            let plo: Int64 = (lo.overflow ? (r.lo < raw.base ? 0 : Int64.max) : Swift.max(lo.partialValue, 0))
            let phi: Int64 = (hi.overflow ? (r.hi < raw.base ? -1 : maxPacked) : Swift.min(hi.partialValue, maxPacked))
            if plo > phi || plo > maxPacked || phi < 0 { continue }
            let span = UInt64(phi - plo)
            switch raw.width {
            case 8: scanPacked(UInt8.self, raw.payload, rows: rows, lo: UInt64(plo), span: span, out, scratch: scratch)
            case 16: scanPacked(UInt16.self, raw.payload, rows: rows, lo: UInt64(plo), span: span, out, scratch: scratch)
            default: scanPacked(UInt32.self, raw.payload, rows: rows, lo: UInt64(plo), span: span, out, scratch: scratch)
            }
        }
    default:
        for r in t.ranges {
            scanPacked(UInt64.self, raw.payload, rows: rows, lo: UInt64(bitPattern: r.lo),
                       span: UInt64(bitPattern: r.hi &- r.lo), out, scratch: scratch)
        }
    }
    // Null rows store 0: replace their bits by matchNull.
    if raw.nulls != nil {
        for w in 0..<words {
            let n = nullWord(raw.nulls, w)
            out[w] = (out[w] & ~n) | (t.matchNull ? n : 0)
        }
        if rows & 63 != 0 { out[words - 1] &= (1 << UInt64(rows & 63)) &- 1 }
    }
    for w in 0..<words { out[w] &= cand[w] }
}

// MARK: doubles

@inline(__always) func doubleMatches(_ d: Double, _ t: DoubleTest) -> Bool {
    switch t {
    case .never: return false
    case .equal(let c): return d == c
    case .notEqual(let c): return !(d == c)
    case .less(let c): return d < c
    case .lessOrEqual(let c): return d <= c
    case .greater(let c): return d > c
    case .greaterOrEqual(let c): return d >= c
    case .between(let lo, let hi): return d >= lo && d <= hi
    case .among(let cs): return cs.contains { $0 == d }
    }
}

func scanDoubles(_ col: ColumnAccessor, _ raw: RawColumn?, _ t: DoubleTest, _ matchNull: Bool,
                 _ cand: UnsafePointer<UInt64>, _ out: UnsafeMutablePointer<UInt64>, words: Int) {
    for w in 0..<words { out[w] = 0 }
    if let raw, raw.layout == .double || raw.layout == .float {
        let isDouble = raw.layout == .double
        let p = raw.payload
        forEachRow(cand, words) { i in
            let isNull = raw.nulls.map { $0[i >> 3] & (1 << UInt8(i & 7)) != 0 } ?? false
            let hit: Bool
            if isNull {
                hit = matchNull
            } else {
                let d = isDouble ? Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)))
                                 : Double(Float(bitPattern: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))))
                hit = doubleMatches(d, t)
            }
            if hit { out[i >> 6] |= 1 << UInt64(i & 63) }
        }
        return
    }
    forEachRow(cand, words) { i in
        if col.isNull(i) ? matchNull : doubleMatches(col.double(i), t) { out[i >> 6] |= 1 << UInt64(i & 63) }
    }
}

// MARK: bytes

/// True when the `m` bytes at `needle` occur in the `n` bytes at `hay` (memchr + memcmp).
@inline(__always) func findBytes(_ hay: UnsafeRawPointer, _ n: Int, _ needle: UnsafeRawPointer, _ m: Int) -> Bool {
    if m == 0 { return true }
    let first = Int32(needle.load(as: UInt8.self))
    var start = 0
    while n - start >= m {
        guard let hit = memchr(hay + start, first, n - start - m + 1) else { return false }
        let at = UnsafeRawPointer(hit) - hay
        if memcmp(hay + at, needle, m) == 0 { return true }
        start = at + 1
    }
    return false
}

@inline(__always) func compareRaw(_ a: UnsafeRawPointer?, _ n: Int, _ b: [UInt8]) -> Int {
    let m = Swift.min(n, b.count)
    if m > 0, let a {
        let c = b.withUnsafeBytes { memcmp(a, $0.baseAddress!, m) }
        if c != 0 { return c < 0 ? -1 : 1 }
    }
    return n == b.count ? 0 : (n < b.count ? -1 : 1)
}

@inline(__always) func equalRaw(_ a: UnsafeRawPointer?, _ n: Int, _ b: [UInt8]) -> Bool {
    guard n == b.count else { return false }
    if n == 0 { return true }
    return b.withUnsafeBytes { memcmp(a!, $0.baseAddress!, n) } == 0
}

@inline(__always) func bytesMatch(_ a: UnsafeRawPointer?, _ n: Int, _ t: BytesTest) -> Bool {
    switch t {
    case .never: return false
    case .always: return true
    case .equal(let b): return equalRaw(a, n, b)
    case .notEqual(let b): return !equalRaw(a, n, b)
    case .less(let b): return compareRaw(a, n, b) < 0
    case .lessOrEqual(let b): return compareRaw(a, n, b) <= 0
    case .greater(let b): return compareRaw(a, n, b) > 0
    case .greaterOrEqual(let b): return compareRaw(a, n, b) >= 0
    case .between(let lo, let hi): return compareRaw(a, n, lo) >= 0 && compareRaw(a, n, hi) <= 0
    case .among(let bs): return bs.contains { equalRaw(a, n, $0) }
    case .beginsWith(let b):
        guard n >= b.count else { return false }
        if b.isEmpty { return true }
        return b.withUnsafeBytes { memcmp(a!, $0.baseAddress!, b.count) } == 0
    case .endsWith(let b):
        guard n >= b.count else { return false }
        if b.isEmpty { return true }
        return b.withUnsafeBytes { memcmp(a! + (n - b.count), $0.baseAddress!, b.count) } == 0
    case .contains(let b):
        if b.isEmpty { return true }
        guard n >= b.count else { return false }
        return b.withUnsafeBytes { findBytes(a!, n, $0.baseAddress!, b.count) }
    }
}

func scanBytes(_ col: ColumnAccessor, _ raw: RawColumn?, _ t: BytesTest, _ matchNull: Bool,
               _ cand: UnsafePointer<UInt64>, _ out: UnsafeMutablePointer<UInt64>, words: Int) {
    for w in 0..<words { out[w] = 0 }
    if let raw, raw.layout == .bytes {
        let data = raw.data, size = raw.dataSize
        // Fast prefix test: the needle's first 8 bytes as a masked word compare.
        if case .beginsWith(let needle) = t, !needle.isEmpty {
            scanPrefix(raw, needle, cand, out, words: words)
            return
        }
        forEachRow(cand, words) { i in
            let hit: Bool
            if let nulls = raw.nulls, nulls[i >> 3] & (1 << UInt8(i & 7)) != 0 {
                hit = matchNull
            } else {
                var s = raw.offset(i)
                var e = raw.offset(i &+ 1)
                if !(s <= e && e <= size) { s = 0; e = 0 }
                hit = bytesMatch(data + s, e - s, t)
            }
            if hit { out[i >> 6] |= 1 << UInt64(i & 63) }
        }
        return
    }
    forEachRow(cand, words) { i in
        let hit = col.isNull(i) ? matchNull : col.withBytes(i) { bytesMatch($0.baseAddress, $0.count, t) }
        if hit { out[i >> 6] |= 1 << UInt64(i & 63) }
    }
}

/// BEGINSWITH on a committed bytes column: rows whose bytes start with `needle` (null rows
/// never match). Needles of up to 8 bytes compare one masked 64-bit load where the row's data
/// has 8 readable bytes; longer needles compare the first 8 bytes and then memcmp the rest.
func scanPrefix(_ raw: RawColumn, _ needle: [UInt8], _ cand: UnsafePointer<UInt64>, _ out: UnsafeMutablePointer<UInt64>, words: Int) {
    if raw.offsetSize == 2 { scanPrefix(UInt16.self, raw, needle, cand, out, words: words) }
    else { scanPrefix(UInt32.self, raw, needle, cand, out, words: words) }
}

/// `scanPrefix` for offsets of type `T`: the offsets are read straight from the block (no call
/// per row), and the loop has no branch on the data, so the loads of several rows overlap.
@inline(__always)
private func scanPrefix<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ raw: RawColumn, _ needle: [UInt8], _ cand: UnsafePointer<UInt64>,
                                                                 _ out: UnsafeMutablePointer<UInt64>, words: Int) {
    let data = raw.data, size = raw.dataSize
    let offsets = raw.payload
    let stride = MemoryLayout<T>.size
    let nn = needle.count
    let head = min(nn, 8)
    var word: UInt64 = 0
    for b in 0..<head { word |= UInt64(needle[b]) << UInt64(8 * b) }
    let mask: UInt64 = head == 8 ? ~0 : (UInt64(1) << UInt64(8 * head)) &- 1
    needle.withUnsafeBytes { nb in
        let np = nb.baseAddress!
        for w in 0..<words {
            var bits = cand[w]
            var hits: UInt64 = 0
            if let nulls = raw.nulls { bits &= ~nullWord(nulls, w) }
            while bits != 0 {
                let b = bits.trailingZeroBitCount
                bits &= bits &- 1
                let i = w &<< 6 | b
                let s = Int(T(littleEndian: offsets.loadUnaligned(fromByteOffset: i &* stride, as: T.self)))
                let e = Int(T(littleEndian: offsets.loadUnaligned(fromByteOffset: (i &+ 1) &* stride, as: T.self)))
                let inBounds = s <= e && e <= size
                let a = data + (inBounds ? s : 0)
                let long = inBounds && e &- s >= nn
                var ok: Bool
                if s &+ 8 <= size {
                    let v = UInt64(littleEndian: a.loadUnaligned(as: UInt64.self))
                    ok = (v & mask == word) && long
                } else {
                    ok = long && memcmp(a, np, head) == 0
                }
                if nn > 8 && ok { ok = memcmp(a + 8, np + 8, nn &- 8) == 0 }
                hits |= UInt64(ok ? 1 : 0) &<< UInt64(b)
            }
            out[w] = hits
        }
    }
}

// MARK: ASCII case folding

@inline(__always) func isASCII(_ b: UnsafeRawBufferPointer) -> Bool {
    guard let p = b.baseAddress else { return true }
    let n = b.count
    var i = 0
    while i &+ 8 <= n {
        if p.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
        i &+= 8
    }
    while i < n { if p.load(fromByteOffset: i, as: UInt8.self) >= 0x80 { return false }; i &+= 1 }
    return true
}

@inline(__always) func asciiLower(_ c: UInt8) -> UInt8 { c &- 65 < 26 ? c | 0x20 : c }

/// `fold(row) op needle` for an ASCII row and an already folded ASCII needle.
@inline(__always) func foldedEqual(_ p: UnsafeRawPointer, _ at: Int, _ needle: [UInt8]) -> Bool {
    for k in 0..<needle.count where asciiLower(p.load(fromByteOffset: at &+ k, as: UInt8.self)) != needle[k] { return false }
    return true
}

func foldedMatch(_ b: UnsafeRawBufferPointer, _ t: BytesTest) -> Bool {
    let n = b.count
    guard let p = b.baseAddress else {
        switch t {
        case .equal(let x): return x.isEmpty
        case .notEqual(let x): return !x.isEmpty
        case .beginsWith(let x), .endsWith(let x), .contains(let x): return x.isEmpty
        default: return false
        }
    }
    switch t {
    case .equal(let x): return n == x.count && foldedEqual(p, 0, x)
    case .notEqual(let x): return !(n == x.count && foldedEqual(p, 0, x))
    case .beginsWith(let x): return n >= x.count && foldedEqual(p, 0, x)
    case .endsWith(let x): return n >= x.count && foldedEqual(p, n - x.count, x)
    case .contains(let x):
        if x.isEmpty { return true }
        var i = 0
        while i + x.count <= n {
            if foldedEqual(p, i, x) { return true }
            i += 1
        }
        return false
    default: return false
    }
}

/// A set of object keys: a bitmap over the key range when the keys are dense, else a hash set.
struct KeySet {
    private var base: Int64 = 0
    private var bits: [UInt64] = []
    private var set: Set<ObjKey>? = nil

    /// `keys` in ascending order.
    init(_ keys: [ObjKey]) {
        guard let first = keys.first, let last = keys.last else { return }
        let (span, overflow) = last.subtractingReportingOverflow(first)
        if !overflow, span / 64 <= Int64(keys.count) * 4 + 1024 {
            base = first
            bits = [UInt64](repeating: 0, count: Int(span / 64) + 1)
            for k in keys { let o = Int(k - first); bits[o >> 6] |= 1 << UInt64(o & 63) }
        } else {
            set = Set(keys)
        }
    }

    @inline(__always) func contains(_ k: ObjKey) -> Bool {
        if let set { return set.contains(k) }
        let (o, overflow) = k.subtractingReportingOverflow(base)
        guard !overflow, o >= 0, o < Int64(bits.count) * 64 else { return false }
        return bits[Int(o) >> 6] & (1 << UInt64(o & 63)) != 0
    }
}
