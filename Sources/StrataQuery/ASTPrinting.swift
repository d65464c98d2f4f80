import Foundation
import StrataStorage

// Canonical printing of the syntax tree. Invariant: for every tree `t` the parser can produce,
// `try RQL.parse(t.description) == t` (tested by round-trip tests over generated trees).

extension ParsedQuery: CustomStringConvertible {
    package var description: String {
        ([predicate.description] + ordering.map(\.description)).joined(separator: " ")
    }
}

extension QueryPredicate: CustomStringConvertible {
    package var description: String {
        switch self {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let c): return c.description
        case .not(let p):
            switch p {
            case .and, .or: return "NOT (\(p))"
            default: return "NOT \(p)"
            }
        case .and(let parts):
            return parts.map { p -> String in
                if case .or = p { return "(\(p))" }
                return p.description
            }.joined(separator: " AND ")
        case .or(let parts):
            // Nested or-lists only arise from hand-built trees; parenthesise to keep them apart.
            return parts.map { p -> String in
                if case .or = p { return "(\(p))" }
                return p.description
            }.joined(separator: " OR ")
        }
    }
}

extension QueryComparison: CustomStringConvertible {
    package var description: String {
        var s = ""
        if let q = quantifier { s += q.rawValue + " " }
        s += left.description + " " + op.rawValue
        if !options.isEmpty {
            s += "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        return s + " " + right.description
    }
}

extension QueryExpression: CustomStringConvertible {
    package var description: String {
        switch self {
        case .keyPath(let k): return k.description
        case .constant(let v): return v.literal
        case .argument(let n): return "$\(n)"
        case .list(let items): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .subqueryCount(let s):
            return "SUBQUERY(\(s.collection), $\(s.variable), \(s.predicate)).@count"
        }
    }
}

extension QueryKeyPath: CustomStringConvertible {
    package var description: String {
        var s = variable.map { "$" + $0 } ?? ""
        for c in components {
            switch c {
            case .mapKey(let k): s += "[" + quoteString(k) + "]"
            default:
                if !s.isEmpty { s += "." }
                switch c {
                case .property(let p): s += p
                case .backlinks(let cls, let p): s += "@links.\(cls).\(p)"
                case .allBacklinks: s += "@links"
                case .mapKeys: s += "@keys"
                case .mapValues: s += "@values"
                case .typeOf: s += "@type"
                case .aggregate(let a): s += "@" + a.rawValue
                case .mapKey: break
                }
            }
        }
        return s
    }
}

extension QueryOrderingClause: CustomStringConvertible {
    package var description: String {
        switch self {
        case .sort(let keys):
            return "SORT(" + keys.map { "\($0.keyPath) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ") + ")"
        case .distinct(let paths):
            return "DISTINCT(" + paths.map(\.description).joined(separator: ", ") + ")"
        case .limit(let n):
            return "LIMIT(\(n))"
        }
    }
}

extension QueryValue: CustomStringConvertible {
    /// The value as an RQL literal (`object` and `list` values, which have no literal form, print
    /// as `Class#key` and `{...}`).
    package var literal: String {
        switch self {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return formatDouble(d)
        case .float(let f): return formatDouble(Double(f))
        case .string(let s): return quoteString(s)
        case .data(let d): return "B64\"" + Data(d).base64EncodedString() + "\""
        case .date(let t): return formatTimestamp(t)
        case .objectId(let o): return "oid(\(o.hex))"
        case .uuid(let u): return "uuid(\(u.uuidString.lowercased()))"
        case .decimal(let d): return "decimal128(\(d.stringValue))"
        case .object(let r): return r.description
        case .list(let items): return "{" + items.map(\.literal).joined(separator: ", ") + "}"
        }
    }

    /// How a value is named in error messages: `number 3`, `string 'x'`, `null`, ...
    package var spoken: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean \(literal)"
        case .int, .double, .float, .decimal: return "number \(literal)"
        case .string: return "string \(literal)"
        case .data: return "binary \(literal)"
        case .date: return "date \(literal)"
        case .objectId: return "ObjectId \(literal)"
        case .uuid: return "UUID \(literal)"
        case .object(let r): return "object \(r)"
        case .list: return "list \(literal)"
        }
    }

    public var description: String { literal }
}

/// Shortest round-tripping spelling that the lexer reads back as a double (always with a `.`
/// or an exponent, so `3.0` stays a double and does not become the integer `3`).
func formatDouble(_ d: Double) -> String {
    if d.isNaN { return "nan" }
    if d.isInfinite { return d > 0 ? "inf" : "-inf" }
    let s = "\(d)"
    if s.contains(".") || s.contains("e") { return s }
    return s + ".0"
}

/// Double-quoted with escapes for quotes, backslashes and control characters.
func quoteString(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        default:
            if u.value < 0x20 || u.value == 0x7F || fusesWithQuote(u) {
                // Escape what is invisible or would merge with a quote into one Character.
                out += "\\u{" + String(u.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    return out + "\""
}

/// True when `u` would join a neighbouring quote into one grapheme cluster (combining marks,
/// joiners, emoji modifiers, prepended marks...). The lexer reads `Character`s, so such a
/// scalar next to a quote must be written as an escape.
private func fusesWithQuote(_ u: Unicode.Scalar) -> Bool {
    if u.isASCII { return false }
    var before = "\""
    before.unicodeScalars.append(u)
    var after = ""
    after.unicodeScalars.append(u)
    after += "\""
    var alone = ""
    alone.unicodeScalars.append(u)
    return before.count == 1 || after.count == 1 || alone.count != 1
        || u.properties.generalCategory == .format || u.properties.generalCategory == .nonspacingMark
}

/// `YYYY-MM-DD@HH:MM:SS` (plus `:nanoseconds` when non-zero) for years 0...9999, otherwise
/// `T<seconds>:<nanoseconds>`.
func formatTimestamp(_ t: QueryTimestamp) -> String {
    let (days, secs) = t.seconds.quotientAndRemainder(dividingBy: 86_400)
    let dayIndex = secs < 0 ? days - 1 : days
    let secOfDay = secs < 0 ? secs + 86_400 : secs
    guard t.seconds > -62_167_219_200, t.seconds < 253_402_300_800 else {
        return "T\(t.seconds):\(t.nanoseconds)"
    }
    let (y, m, d) = civilFromDays(dayIndex)
    func pad(_ v: Int64, _ w: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, w - s.count)) + s
    }
    var out = "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))@\(pad(secOfDay / 3600, 2)):\(pad(secOfDay / 60 % 60, 2)):\(pad(secOfDay % 60, 2))"
    if t.nanoseconds != 0 { out += ":\(t.nanoseconds)" }
    return out
}
