import Foundation
import StrataObjects

// A bound predicate compiled for column scans.
//
// Each comparison becomes a leaf that a cluster can answer from its columns:
// - `ints`: an int-layout column (Int, Bool, Date, to-one link) against constants, as a set of
//   inclusive ranges of stored integers plus whether null rows match. Scanned directly on the
//   frame-of-reference packed values.
// - `doubles`: a Double/Float column against numeric constants (IEEE comparisons give exactly
//   the reference semantics, NaN included).
// - `bytes`: a String/Data column against byte-string constants without [c]/[d] (equality,
//   ordering, BEGINSWITH/ENDSWITH/CONTAINS with memcmp/memmem on the mapped bytes).
// - `generic`: any other comparison of scalar properties of the object itself and constants
//   (mixed, decimal, ObjectId, UUID, [c]/[d], LIKE, property vs property): each candidate row's
//   values are read and compared with the reference functions.
// - `fallback`: everything else (link paths, collections, quantifiers, subqueries, backlinks):
//   the reference evaluator on each candidate object.
// AND, OR and NOT combine per-cluster bitmasks; AND narrows the candidates of its later
// (costlier) operands.

/// A compiled predicate.
indirect enum ScanNode {
    case constant(Bool)
    case and([ScanNode])
    case or([ScanNode])
    case not(ScanNode)
    case leaf(ScanLeaf)

    /// Rough cost of evaluating the node on one row, to order AND/OR operands.
    var cost: Int {
        switch self {
        case .constant: return 0
        case .and(let a), .or(let a): return a.reduce(0) { $0 + $1.cost }
        case .not(let n): return n.cost
        case .leaf(let l): return l.cost
        }
    }
}

/// A range-set test on stored integers.
struct IntTest {
    /// Inclusive, non-overlapping ranges in stored-integer space.
    var ranges: [(lo: Int64, hi: Int64)]
    /// For long IN lists: the exact set (then `ranges` is ignored).
    var set: Set<Int64>?
    /// Whether null rows match.
    var matchNull: Bool
}

enum DoubleTest {
    case never
    case equal(Double), notEqual(Double)
    case less(Double), lessOrEqual(Double), greater(Double), greaterOrEqual(Double)
    case between(Double, Double)
    case among([Double])
}

enum BytesTest {
    case never
    case always
    case equal([UInt8]), notEqual([UInt8])
    case less([UInt8]), lessOrEqual([UInt8]), greater([UInt8]), greaterOrEqual([UInt8])
    case between([UInt8], [UInt8])
    case among([[UInt8]])
    case beginsWith([UInt8]), endsWith([UInt8]), contains([UInt8])
}

/// One side of a generic comparison.
enum GenericOperand {
    case column(Int)
    case value(QueryValue)
    case values([QueryValue])
}

enum ScanLeaf {
    case ints(column: Int, IntTest)
    case doubles(column: Int, DoubleTest, matchNull: Bool)
    case bytes(column: Int, BytesTest, matchNull: Bool)
    case generic(left: GenericOperand, op: QueryOperator, options: QueryStringOptions, right: GenericOperand)
    /// `[c]` against an ASCII needle (after case folding): ASCII rows compare lower-cased bytes,
    /// other rows take the generic path with `constant`.
    case foldedBytes(column: Int, BytesTest, matchNull: Bool, op: QueryOperator, constant: QueryValue)
    /// `link.property op constants` through a to-one link: the target property's values are
    /// read once per query into a map (after a few objects went the per-object way).
    case linkedValue(link: Int, target: String, property: String, op: QueryOperator, options: QueryStringOptions,
                     right: [QueryValue], comparison: BoundComparison, id: Int)
    /// `ANY`/`NONE`/`ALL a.b.c.property op constants` where every step before the last follows a
    /// to-one or to-many link: answered with one set of objects per hop, computed backwards from
    /// the last class (see `ClusterEvaluator.linkPathSet`), so the work is about hops × objects
    /// instead of growing with the product of the collections' sizes.
    case linkPath(LinkPathLeaf)
    case fallback(BoundComparison)

    var cost: Int {
        switch self {
        case .ints: return 1
        case .doubles: return 2
        case .bytes: return 4
        case .foldedBytes: return 8
        case .generic: return 20
        case .linkedValue: return 40
        case .linkPath: return 60
        case .fallback: return 200
        }
    }
}

/// A compiled predicate and the columns it reads.
struct ScanPlan {
    var root: ScanNode
    /// Property names read by the leaves, by column slot.
    var columns: [String]
    /// True when some leaf needs the reference evaluator.
    var needsEvaluator: Bool
}

struct ScanCompiler {
    let schema: ObjectSchema
    var columns: [String] = []
    var needsEvaluator = false

    init(schema: ObjectSchema) { self.schema = schema }

    static func compile(_ p: BoundPredicate, schema: ObjectSchema) -> ScanPlan {
        var c = ScanCompiler(schema: schema)
        let root = c.node(p)
        return ScanPlan(root: root, columns: c.columns, needsEvaluator: c.needsEvaluator)
    }

    private mutating func slot(_ name: String) -> Int {
        if let i = columns.firstIndex(of: name) { return i }
        columns.append(name)
        return columns.count - 1
    }

    mutating func node(_ p: BoundPredicate) -> ScanNode {
        switch p {
        case .constant(let b): return .constant(b)
        case .not(let inner):
            let n = node(inner)
            if case .constant(let b) = n { return .constant(!b) }
            return .not(n)
        case .and(let parts):
            var out: [ScanNode] = []
            for part in parts {
                let n = node(part)
                if case .constant(let b) = n { if !b { return .constant(false) }; continue }
                if case .and(let inner) = n { out.append(contentsOf: inner) } else { out.append(n) }
            }
            if out.isEmpty { return .constant(true) }
            if out.count == 1 { return out[0] }
            return .and(out.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }.map(\.element))
        case .or(let parts):
            var out: [ScanNode] = []
            for part in parts {
                let n = node(part)
                if case .constant(let b) = n { if b { return .constant(true) }; continue }
                if case .or(let inner) = n { out.append(contentsOf: inner) } else { out.append(n) }
            }
            if out.isEmpty { return .constant(false) }
            if out.count == 1 { return out[0] }
            return .or(out.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }.map(\.element))
        case .comparison(let c):
            return .leaf(leaf(c))
        }
    }

    // MARK: comparisons

    /// A property of the queried object read from its own column: a scalar property, or a
    /// to-one link (compared as the target's key).
    private func directColumn(_ o: BoundOperand) -> (name: String, type: PropertyType)? {
        guard case .path(let p) = o, p.variable == nil, p.steps.count == 1, !p.isToMany else { return nil }
        let name: String
        switch p.steps[0] {
        case .value(let n, _): name = n
        case .link(let n, _): name = n
        default: return nil
        }
        guard let prop = schema[name], prop.collection == .single, prop.isStored else { return nil }
        return (name, prop.type)
    }

    private static func flipped(_ op: QueryOperator) -> QueryOperator? {
        switch op {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        default: return nil
        }
    }

    private mutating func leaf(_ c: BoundComparison) -> ScanLeaf {
        if let lp = linkPathLeaf(c) { return .linkPath(lp) }
        guard c.quantifier == nil else { return fallback(c) }
        // Normalise `constant op property` to `property op' constant` where the operator flips.
        var left = c.left, right = c.right, op = c.op
        if case .value = left, directColumn(right) != nil, let f = ScanCompiler.flipped(op) {
            swap(&left, &right)
            op = f
        }
        if let (name, type) = directColumn(left) {
            var constants: [QueryValue]? = nil
            switch right {
            case .value(let v): constants = [v]
            case .values(let vs): constants = vs
            default: break
            }
            if let constants, c.options.isEmpty, let fast = fastLeaf(name, type, op, constants) { return fast }
            if c.options == .caseInsensitive, type == .string, let constants, constants.count == 1,
               case .string(let needle) = constants[0], let folded = ScanCompiler.asciiFolded(needle) {
                let v = constants[0]
                let test: BytesTest?
                switch op {
                case .equal: test = .equal(folded)
                case .notEqual: test = .notEqual(folded)
                case .beginsWith: test = .beginsWith(folded)
                case .endsWith: test = .endsWith(folded)
                case .contains: test = .contains(folded)
                default: test = nil
                }
                if let test { return .foldedBytes(column: slot(name), test, matchNull: op == .notEqual, op: op, constant: v) }
            }
        }
        // `link.property op constants`: the target's values come from one column scan.
        if case .path(let p) = left, p.variable == nil, p.steps.count == 2,
           case .link(let linkName, let target) = p.steps[0], case .value(let property, _) = p.steps[1],
           let lp = schema[linkName], lp.collection == .single, lp.type == .object {
            switch right {
            case .value(let v):
                return .linkedValue(link: slot(linkName), target: target, property: property, op: op, options: c.options, right: [v], comparison: c, id: nextLinkLeaf())
            case .values(let vs):
                return .linkedValue(link: slot(linkName), target: target, property: property, op: op, options: c.options, right: vs, comparison: c, id: nextLinkLeaf())
            default: break
            }
        }
        // Generic: every operand is a column of the object itself or a constant.
        guard let l = genericOperand(left), let r = genericOperand(right) else { return fallback(c) }
        return .generic(left: l, op: op, options: c.options, right: r)
    }

    /// The case-folded UTF-8 of `s` when it is all ASCII (nil otherwise).
    static func asciiFolded(_ s: String) -> [UInt8]? {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: transform(s, .caseInsensitive))
        let bytes = Array(String(scalars).utf8)
        return bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
    }

    /// A to-many link path compared with constants, as a `LinkPathLeaf` (nil for other shapes).
    private mutating func linkPathLeaf(_ c: BoundComparison) -> LinkPathLeaf? {
        guard case .path(let p) = c.left, p.variable == nil, p.isToMany, p.steps.count >= 2 else { return nil }
        switch c.right { case .value, .values: break; default: return nil }
        var hops: [LinkPathLeaf.Hop] = []
        for step in p.steps.dropLast() {
            switch step {
            case .link(let property, let target): hops.append(.init(property: property, target: target))
            case .links(let property, let target): hops.append(.init(property: property, target: target))
            default: return nil
            }
        }
        guard case .value = p.steps[p.steps.count - 1] else { return nil }
        var last = c
        last.quantifier = nil
        last.left = .path(BoundKeyPath(variable: nil, steps: [p.steps[p.steps.count - 1]], type: p.type, isToMany: false, text: p.text))
        let mode: LinkPathLeaf.Mode
        switch c.quantifier {
        case nil, .anyOf?: mode = .any
        case .noneOf?: mode = .none
        case .allOf?: mode = .all
        }
        return LinkPathLeaf(hops: hops, lastComparison: last, mode: mode, id: nextLinkLeaf())
    }

    private var linkLeaves = 0
    private mutating func nextLinkLeaf() -> Int { linkLeaves += 1; return linkLeaves }

    private mutating func fallback(_ c: BoundComparison) -> ScanLeaf {
        needsEvaluator = true
        return .fallback(c)
    }

    private mutating func genericOperand(_ o: BoundOperand) -> GenericOperand? {
        switch o {
        case .value(let v): return .value(v)
        case .values(let vs): return .values(vs)
        case .path:
            guard let (name, type) = directColumn(o), type != .object else { return nil }
            return .column(slot(name))
        case .subqueryCount: return nil
        }
    }

    private mutating func fastLeaf(_ name: String, _ type: PropertyType, _ op: QueryOperator, _ constants: [QueryValue]) -> ScanLeaf? {
        switch type {
        case .int, .bool, .date, .object:
            guard let t = intTest(type, target: schema[name]?.objectClassName, op, constants) else { return nil }
            return .ints(column: slot(name), t)
        case .double, .float:
            guard let (t, n) = doubleTest(op, constants) else { return nil }
            return .doubles(column: slot(name), t, matchNull: n)
        case .string, .data:
            guard let (t, n) = bytesTest(type, op, constants) else { return nil }
            return .bytes(column: slot(name), t, matchNull: n)
        default:
            return nil
        }
    }

    /// The stored integer for a constant compared with an int-layout column; `.some(nil)` for
    /// null; `nil` when the constant has no stored-integer form (then the generic leaf decides).
    private enum IntConstant { case null, value(Int64), never }

    private func intConstant(_ type: PropertyType, target: String?, _ v: QueryValue) -> IntConstant? {
        switch (type, v) {
        case (_, .null): return .null
        case (.int, .int(let i)): return .value(i)
        case (.bool, .bool(let b)): return .value(b ? 1 : 0)
        case (.date, .date(let t)): return t.nanosecondsSince1970.map { .value($0) }
        case (.object, .object(let r)): return r.className == target ? .value(r.key) : .never
        default: return nil
        }
    }

    private func intTest(_ type: PropertyType, target: String?, _ op: QueryOperator, _ constants: [QueryValue]) -> IntTest? {
        var cs: [IntConstant] = []
        for v in constants {
            guard let c = intConstant(type, target: target, v) else { return nil }
            cs.append(c)
        }
        let all: [(lo: Int64, hi: Int64)] = [(Int64.min, Int64.max)]
        switch op {
        case .equal, .notEqual:
            guard cs.count == 1 else { return nil }
            var t: IntTest
            switch cs[0] {
            case .null: t = IntTest(ranges: [], matchNull: true)
            case .never: t = IntTest(ranges: [], matchNull: false)
            case .value(let x): t = IntTest(ranges: [(x, x)], matchNull: false)
            }
            if op == .notEqual { t = IntTest(ranges: complement(t.ranges), matchNull: !t.matchNull) }
            return t
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard cs.count == 1, case .value(let x) = cs[0], type != .object else { return nil }
            switch op {
            case .less: return IntTest(ranges: x == Int64.min ? [] : [(Int64.min, x - 1)], matchNull: false)
            case .lessOrEqual: return IntTest(ranges: [(Int64.min, x)], matchNull: false)
            case .greater: return IntTest(ranges: x == Int64.max ? [] : [(x + 1, Int64.max)], matchNull: false)
            default: return IntTest(ranges: [(x, Int64.max)], matchNull: false)
            }
        case .between:
            guard cs.count == 2 else { return nil }
            guard case .value(let lo) = cs[0], case .value(let hi) = cs[1] else {
                return IntTest(ranges: [], matchNull: false)  // a null bound never compares
            }
            _ = all
            return IntTest(ranges: lo <= hi ? [(lo, hi)] : [], matchNull: false)
        case .in:
            var values: [Int64] = []
            var matchNull = false
            for c in cs {
                switch c {
                case .null: matchNull = true
                case .never: break
                case .value(let x): values.append(x)
                }
            }
            let unique = Array(Set(values)).sorted()
            if unique.count > 8 { return IntTest(ranges: [], set: Set(unique), matchNull: matchNull) }
            return IntTest(ranges: unique.map { ($0, $0) }, matchNull: matchNull)
        default:
            return nil
        }
    }

    private func complement(_ ranges: [(lo: Int64, hi: Int64)]) -> [(lo: Int64, hi: Int64)] {
        var out: [(lo: Int64, hi: Int64)] = []
        var next: Int64? = Int64.min
        for r in ranges.sorted(by: { $0.lo < $1.lo }) {
            if let n = next, r.lo > n { out.append((n, r.lo - 1)) }
            next = r.hi == Int64.max ? nil : r.hi + 1
        }
        if let n = next { out.append((n, Int64.max)) }
        return out
    }

    private func double(_ v: QueryValue) -> Double?? {
        switch v {
        case .null: return .some(nil)
        case .double(let d): return d
        case .float(let f): return Double(f)
        case .int(let i):
            guard let d = Double(exactly: i), Int64(exactly: d) == i else { return nil }
            return d
        default: return nil
        }
    }

    private func doubleTest(_ op: QueryOperator, _ constants: [QueryValue]) -> (DoubleTest, Bool)? {
        var ds: [Double?] = []
        for v in constants {
            guard let d = double(v) else { return nil }
            ds.append(d)
        }
        switch op {
        case .equal, .notEqual:
            guard ds.count == 1 else { return nil }
            guard let d = ds[0] else {
                // == nil: null rows only; != nil: every non-null row (NaN included).
                return op == .equal ? (.never, true) : (.notEqual(.nan), false)
            }
            return op == .equal ? (.equal(d), false) : (.notEqual(d), true)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard ds.count == 1, let d = ds[0] else { return nil }
            switch op {
            case .less: return (.less(d), false)
            case .lessOrEqual: return (.lessOrEqual(d), false)
            case .greater: return (.greater(d), false)
            default: return (.greaterOrEqual(d), false)
            }
        case .between:
            guard ds.count == 2 else { return nil }
            guard let lo = ds[0], let hi = ds[1] else { return (.never, false) }
            return (.between(lo, hi), false)
        case .in:
            return (.among(ds.compactMap { $0 }), ds.contains { $0 == nil })
        default:
            return nil
        }
    }

    private func bytesTest(_ type: PropertyType, _ op: QueryOperator, _ constants: [QueryValue]) -> (BytesTest, Bool)? {
        var bs: [[UInt8]?] = []
        for v in constants {
            switch (type, v) {
            case (_, .null): bs.append(nil)
            case (.string, .string(let s)): bs.append(Array(s.utf8))
            case (.data, .data(let d)): bs.append(d)
            default: return nil
            }
        }
        switch op {
        case .equal, .notEqual:
            guard bs.count == 1 else { return nil }
            guard let b = bs[0] else { return op == .equal ? (.never, true) : (.always, false) }
            return op == .equal ? (.equal(b), false) : (.notEqual(b), true)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard bs.count == 1, let b = bs[0] else { return nil }
            switch op {
            case .less: return (.less(b), false)
            case .lessOrEqual: return (.lessOrEqual(b), false)
            case .greater: return (.greater(b), false)
            default: return (.greaterOrEqual(b), false)
            }
        case .between:
            guard bs.count == 2 else { return nil }
            guard let lo = bs[0], let hi = bs[1] else { return (.never, false) }
            return (.between(lo, hi), false)
        case .in:
            return (.among(bs.compactMap { $0 }), bs.contains { $0 == nil })
        case .beginsWith, .endsWith, .contains:
            guard bs.count == 1 else { return nil }
            guard let b = bs[0] else { return (.never, false) }
            switch op {
            case .beginsWith: return (.beginsWith(b), false)
            case .endsWith: return (.endsWith(b), false)
            default: return (.contains(b), false)
            }
        default:
            return nil  // LIKE: generic
        }
    }
}

/// A comparison whose left side follows links (at least one to-many) to a scalar property of
/// the last class, against constants.
struct LinkPathLeaf {
    struct Hop { let property: String; let target: String }
    enum Mode {
        /// Some reached value satisfies the comparison.
        case any
        /// No reached value does (`NONE`).
        case none
        /// Every reached value does (`ALL`, true when nothing is reached).
        case all
    }
    /// The link steps, from the queried class on; the last hop's target holds the property.
    let hops: [Hop]
    /// The comparison re-rooted at the last class: `property op constants`, single-valued.
    let lastComparison: BoundComparison
    let mode: Mode
    /// Key of the leaf's cached root set within one `ClusterEvaluator`.
    let id: Int
}
