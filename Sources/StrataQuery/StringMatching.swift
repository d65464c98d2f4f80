import Foundation

// String operators (BEGINSWITH, ENDSWITH, CONTAINS, LIKE) and the [c]/[d] transformations.
// Matching works on Unicode scalars (bytes for binary data), not on grapheme clusters, so that
// `CONTAINS 'e'` finds the `e` of a decomposed `é`, as Realm's byte-oriented matching does.

/// The string after the `[c]` and/or `[d]` transformations, as Unicode scalars.
/// - `[c]`: full case folding, computed as lowercase(uppercase(s)) (maps ß to ss, ς to σ, ...).
/// - `[d]`: canonical decomposition (NFD), then removal of combining marks (Mn, Mc, Me).
/// Case folding runs first, so marks it introduces (İ → i̇) are removed by `[d]` as well.
func transform(_ s: String, _ options: QueryStringOptions) -> [Unicode.Scalar] {
    var t = s
    if options.contains(.caseInsensitive) { t = t.uppercased().lowercased() }
    if options.contains(.diacriticInsensitive) {
        return t.decomposedStringWithCanonicalMapping.unicodeScalars.filter { u in
            switch u.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return false
            default: return true
            }
        }
    }
    return Array(t.unicodeScalars)
}

/// `l op r` for the string operators; false when either side is null or they are not both
/// strings or both binary.
func stringOperator(_ op: QueryOperator, _ l: QueryValue, _ r: QueryValue, _ options: QueryStringOptions) -> Bool {
    switch (l, r) {
    case (.string(let a), .string(let b)):
        let x = transform(a, options), y = transform(b, options)
        switch op {
        case .like: return wildcardMatch(x, y)
        default: return sequenceOperator(op, x, y)
        }
    case (.data(let a), .data(let b)):
        return op != .like && sequenceOperator(op, a, b)
    default:
        return false
    }
}

private func sequenceOperator<T: Equatable>(_ op: QueryOperator, _ x: [T], _ y: [T]) -> Bool {
    switch op {
    case .beginsWith: return x.starts(with: y)
    case .endsWith: return x.count >= y.count && x[(x.count - y.count)...].elementsEqual(y)
    case .contains: return contains(x, y)
    default: return false
    }
}

/// Naive substring search: O(n·m) in the worst case, no allocation.
func contains<T: Equatable>(_ haystack: [T], _ needle: [T]) -> Bool {
    if needle.isEmpty { return true }
    if needle.count > haystack.count { return false }
    let first = needle[0]
    var i = 0
    while i + needle.count <= haystack.count {
        if haystack[i] == first {
            var k = 1
            while k < needle.count, haystack[i + k] == needle[k] { k += 1 }
            if k == needle.count { return true }
        }
        i += 1
    }
    return false
}

/// LIKE: `*` matches any run of scalars (also empty), `?` exactly one, everything else itself.
/// Iterative with single-star backtracking: O(n·m) worst case, never recursive.
func wildcardMatch(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
    var t = 0, p = 0
    var starP = -1, starT = 0
    while t < text.count {
        if p < pattern.count, pattern[p] != "*", pattern[p] == "?" || pattern[p] == text[t] {
            t += 1
            p += 1
        } else if p < pattern.count, pattern[p] == "*" {
            starP = p
            starT = t
            p += 1
        } else if starP >= 0 {
            starT += 1
            t = starT
            p = starP + 1
        } else {
            return false
        }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
}
