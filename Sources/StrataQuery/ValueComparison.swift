import Foundation
import StrataDecimal

// How query values compare, following Realm:
// - numbers compare by value across int, float, double and decimal (NaN is unordered);
// - strings compare by Unicode code point (equivalently, UTF-8 bytes), `==` is exact (no
//   canonical equivalence); `[c]`/`[d]` compare transformed strings (see StringMatching);
// - binary data compares bytewise; dates by time; ObjectId and UUID bytewise;
// - null equals only null and is not ordered against anything;
// - values of unrelated types are never equal and not ordered (relevant for mixed properties).

enum Ordering3: Int { case less = -1, equal = 0, greater = 1 }

private enum Number {
    case int(Int64), double(Double), decimal(DecimalValue)
}

private func number(_ v: QueryValue) -> Number? {
    switch v {
    case .int(let i): return .int(i)
    case .double(let d): return .double(d)
    case .float(let f): return .double(Double(f))
    case .decimal(let d): return .decimal(d.storage)
    default: return nil
    }
}

private func order<T: Comparable>(_ a: T, _ b: T) -> Ordering3 {
    a < b ? .less : (a == b ? .equal : .greater)
}

/// Exact comparison of an integer with a double (no rounding of large integers).
private func compare(_ i: Int64, _ d: Double) -> Ordering3? {
    if d.isNaN { return nil }
    if d >= 9_223_372_036_854_775_808.0 { return .less }
    if d < -9_223_372_036_854_775_808.0 { return .greater }
    let whole = d.rounded(.towardZero)
    let wi = Int64(whole)
    if i != wi { return order(i, wi) }
    let frac = d - whole
    return frac > 0 ? .less : (frac < 0 ? .greater : .equal)
}

/// A decimal for an int (exactly), a double (as realm-core converts one for a decimal
/// comparison: 15 significant digits; infinities stay infinite) or a decimal; nil for NaN.
private func decimalOf(_ n: Number) -> DecimalValue? {
    switch n {
    case .int(let i): return DecimalValue(i)
    case .double(let d): return d.isNaN ? nil : DecimalValue(d, significantDigits: 15)
    case .decimal(let d): return d.isNaN ? nil : d
    }
}

private func compareNumbers(_ a: Number, _ b: Number) -> Ordering3? {
    switch (a, b) {
    case (.int(let x), .int(let y)): return order(x, y)
    case (.double(let x), .double(let y)): return x.isNaN || y.isNaN ? nil : order(x, y)
    case (.int(let x), .double(let y)): return compare(x, y)
    case (.double(let x), .int(let y)): return compare(y, x).map { Ordering3(rawValue: -$0.rawValue)! }
    default:
        // One side is a decimal: compare as decimals (every double has a decimal128 form).
        guard let x = decimalOf(a), let y = decimalOf(b), let c = x.numericCompare(y) else { return nil }
        return c < 0 ? .less : (c == 0 ? .equal : .greater)
    }
}

private func compareBytes<C: Collection>(_ a: C, _ b: C) -> Ordering3 where C.Element == UInt8 {
    var i = a.makeIterator(), j = b.makeIterator()
    while true {
        switch (i.next(), j.next()) {
        case (nil, nil): return .equal
        case (nil, _): return .less
        case (_, nil): return .greater
        case (let x?, let y?): if x != y { return x < y ? .less : .greater }
        }
    }
}

func uuidBytes(_ u: UUID) -> [UInt8] {
    withUnsafeBytes(of: u.uuid) { Array($0) }
}

/// Orders two values of comparable types; nil when either is null, NaN is involved, or the
/// types are unrelated (or are objects, which have no order).
func queryCompare(_ a: QueryValue, _ b: QueryValue) -> Ordering3? {
    if let x = number(a), let y = number(b) { return compareNumbers(x, y) }
    switch (a, b) {
    case (.string(let x), .string(let y)): return compareBytes(x.utf8, y.utf8)
    case (.data(let x), .data(let y)): return compareBytes(x, y)
    case (.bool(let x), .bool(let y)): return x == y ? .equal : (x ? .greater : .less)
    case (.date(let x), .date(let y)): return order(x, y)
    case (.objectId(let x), .objectId(let y)): return compareBytes(x.bytes, y.bytes)
    case (.uuid(let x), .uuid(let y)): return compareBytes(uuidBytes(x), uuidBytes(y))
    default: return nil
    }
}

/// Equality as `==` evaluates it, with `[c]`/`[d]` options for strings.
func queryEquals(_ a: QueryValue, _ b: QueryValue, _ options: QueryStringOptions = []) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.null, _), (_, .null): return false
    case (.string(let x), .string(let y)):
        if options.isEmpty { return x.utf8.elementsEqual(y.utf8) }
        return transform(x, options).elementsEqual(transform(y, options))
    case (.object(let x), .object(let y)): return x == y
    case (.list(let x), .list(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { queryEquals($0, $1, options) }
    default:
        return queryCompare(a, b) == .equal
    }
}

/// Evaluates `l op r` for a single pair of values (not IN/BETWEEN, handled by the evaluator).
func queryTest(_ l: QueryValue, _ op: QueryOperator, _ r: QueryValue, _ options: QueryStringOptions) -> Bool {
    switch op {
    case .equal, .in: return queryEquals(l, r, options)
    case .notEqual: return !queryEquals(l, r, options)
    case .less: return queryCompare(l, r) == .less
    case .lessOrEqual: let o = queryCompare(l, r); return o == .less || o == .equal
    case .greater: return queryCompare(l, r) == .greater
    case .greaterOrEqual: let o = queryCompare(l, r); return o == .greater || o == .equal
    case .between: return false
    case .beginsWith, .endsWith, .contains, .like:
        return stringOperator(op, l, r, options)
    }
}

/// The rank of a value's type in Realm's sort order for mixed values:
/// null < bool < numbers < strings < binary < dates < ObjectId < UUID < objects < lists.
func typeRank(_ v: QueryValue) -> Int {
    switch v {
    case .null: return 0
    case .bool: return 1
    case .int, .double, .float, .decimal: return 2
    case .string: return 3
    case .data: return 4
    case .date: return 5
    case .objectId: return 6
    case .uuid: return 7
    case .object: return 8
    case .list: return 9
    }
}

/// A total order for sorting: nulls first, then by type rank, then by value. NaN sorts before
/// every other number; objects by class name and key.
func sortCompare(_ a: QueryValue, _ b: QueryValue) -> Ordering3 {
    let ra = typeRank(a), rb = typeRank(b)
    if ra != rb { return ra < rb ? .less : .greater }
    if let o = queryCompare(a, b) { return o }
    switch (a, b) {
    case (.object(let x), .object(let y)):
        if x.className != y.className { return order(x.className, y.className) }
        return order(x.key, y.key)
    case (.list(let x), .list(let y)):
        for (p, q) in zip(x, y) {
            let o = sortCompare(p, q)
            if o != .equal { return o }
        }
        return order(x.count, y.count)
    default:
        // Same rank but unordered: two nulls, or numbers where NaN is involved.
        let an = isNaN(a), bn = isNaN(b)
        if an == bn { return .equal }
        return an ? .less : .greater
    }
}

private func isNaN(_ v: QueryValue) -> Bool {
    switch v {
    case .double(let d): return d.isNaN
    case .float(let f): return f.isNaN
    case .decimal(let d): return d.isNaN
    default: return false
    }
}
