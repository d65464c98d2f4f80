import Foundation

/// A JSON value that keeps object keys in the order given (stable output for scripts).
package indirect enum JSON {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A non-negative integer above `Int64.max`.
    case unsignedInteger(UInt64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// An integer as JSON: exact for every value of `T` (a `UInt64` above `Int64.max`, such as a
    /// version or offset read from a damaged file, is written as its decimal digits too).
    package static func int<T: BinaryInteger>(_ v: T) -> JSON {
        if let i = Int64(exactly: v) { return .integer(i) }
        return .unsignedInteger(UInt64(clamping: v))
    }

    package func render(indent: Int = 0, pretty: Bool = true) -> String {
        var out = ""
        render(into: &out, indent: indent, pretty: pretty)
        return out
    }

    package func render(into out: inout String, indent: Int, pretty: Bool) {
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let end = pretty ? String(repeating: "  ", count: indent) : ""
        let nl = pretty ? "\n" : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .unsignedInteger(let u): out += String(u)
        case .double(let d): out += d.isFinite ? "\(d)" : "null"
        case .string(let s): out += JSON.quote(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            for (i, item) in items.enumerated() {
                out += pad
                item.render(into: &out, indent: indent + 1, pretty: pretty)
                out += (i < items.count - 1 ? "," : "") + nl
            }
            out += end + "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (i, (key, value)) in fields.enumerated() {
                out += pad + JSON.quote(key) + (pretty ? ": " : ":")
                value.render(into: &out, indent: indent + 1, pretty: pretty)
                out += (i < fields.count - 1 ? "," : "") + nl
            }
            out += end + "}"
        }
    }

    /// A JSON string literal.
    package static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += String(format: "\\u%04x", scalar.value) }
                else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}

