import StrataStorage
import Foundation
import StrataObjects

/// One lexical token of a query. Keywords are not distinguished from names here: the parser
/// decides by context (so a property may be called `sort` or `limit`).
struct Token: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A name or keyword: letters, digits and `_`, not starting with a digit.
        case identifier(String)
        /// `@` followed by a name: `@count`, `@links`, ...
        case atName(String)
        /// `$` followed by digits: an argument index.
        case argument(Int)
        /// `$` followed by a name: a SUBQUERY variable.
        case variable(String)
        /// A literal value (numbers, strings, dates, oid(), uuid(), B64"", decimal128()).
        case literal(QueryValue)
        /// Punctuation and operators, spelled canonically (`==`, `!=`, `<=`, `&&`, `(`, ...).
        case symbol(String)
        case end
    }

    var kind: Kind
    /// 0-based character offset of the first character.
    var offset: Int
    /// The source text of the token, for error messages.
    var text: String

    /// How the token is named in "but found ..." error messages.
    var quoted: String {
        if kind == .end { return "end of input" }
        if text.hasPrefix("'") || text.hasPrefix("\"") { return text }
        return "'\(text)'"
    }
}

/// Splits query text into tokens. Positions count Swift `Character`s (what a user sees).
struct Lexer {
    private let chars: [Character]
    private var i = 0

    init(_ text: String) { chars = Array(text) }

    /// Tokenizes the whole input; the last token is always `.end`.
    static func tokenize(_ text: String) throws(QueryError) -> [Token] {
        var lexer = Lexer(text)
        var out: [Token] = []
        while true {
            let t = try lexer.next()
            out.append(t)
            if t.kind == .end { return out }
        }
    }

    private func peek(_ k: Int = 0) -> Character? {
        i + k < chars.count ? chars[i + k] : nil
    }

    private func text(from start: Int) -> String { String(chars[start..<i]) }

    private static func isIdentStart(_ c: Character) -> Bool { c == "_" || c.isLetter }
    private static func isIdentPart(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber }
    private static func isDigit(_ c: Character?) -> Bool { c.map { $0.isASCII && $0.isNumber } ?? false }

    mutating func next() throws(QueryError) -> Token {
        while let c = peek(), c.isWhitespace { i += 1 }
        let start = i
        guard let c = peek() else { return Token(kind: .end, offset: i, text: "") }

        // Timestamps written as T<date>@<time> or T<seconds>:<nanoseconds>.
        if c == "T" || c == "t", let ts = try scanTimestamp(afterPrefix: 1) {
            return Token(kind: .literal(.date(ts)), offset: start, text: text(from: start))
        }
        if Lexer.isDigit(c), let ts = try scanTimestamp(afterPrefix: 0) {
            return Token(kind: .literal(.date(ts)), offset: start, text: text(from: start))
        }
        if Lexer.isDigit(c) || (c == "-" && (Lexer.isDigit(peek(1)) || (peek(1) == "." && Lexer.isDigit(peek(2))))) {
            return try scanNumber()
        }
        if c == "." && Lexer.isDigit(peek(1)) { return try scanNumber() }
        if c == "-", let n = peek(1), Lexer.isIdentStart(n) {
            // -inf / -infinity
            var j = i + 1
            while j < chars.count, Lexer.isIdentPart(chars[j]) { j += 1 }
            let word = String(chars[(i + 1)..<j]).lowercased()
            if word == "inf" || word == "infinity" {
                i = j
                return Token(kind: .literal(.double(-.infinity)), offset: start, text: text(from: start))
            }
        }
        if c == "\"" || c == "'" {
            let s = try scanString()
            return Token(kind: .literal(.string(s)), offset: start, text: text(from: start))
        }
        if Lexer.isIdentStart(c) {
            while let n = peek(), Lexer.isIdentPart(n) { i += 1 }
            let word = text(from: start)
            let lower = word.lowercased()
            if lower == "b64", peek() == "\"" || peek() == "'" {
                let s = try scanString()
                guard let d = Data(base64Encoded: s) else {
                    throw .syntax(at: start, "invalid base64 data in \(text(from: start))")
                }
                return Token(kind: .literal(.data([UInt8](d))), offset: start, text: text(from: start))
            }
            if (lower == "oid" || lower == "uuid" || lower == "decimal128"), peek() == "(" {
                return try scanWrapped(lower, start: start)
            }
            return Token(kind: .identifier(word), offset: start, text: word)
        }
        if c == "@" || c == "$" {
            i += 1
            if c == "$", Lexer.isDigit(peek()) {
                while Lexer.isDigit(peek()) { i += 1 }
                let digits = String(chars[(start + 1)..<i])
                guard let n = Int(digits) else { throw .syntax(at: start, "argument index \(digits) is too large") }
                return Token(kind: .argument(n), offset: start, text: text(from: start))
            }
            guard let n = peek(), Lexer.isIdentStart(n) else {
                throw .syntax(at: start, "expected a name after '\(c)' but found \(describe(peek()))")
            }
            while let n = peek(), Lexer.isIdentPart(n) { i += 1 }
            let name = String(chars[(start + 1)..<i])
            return Token(kind: c == "@" ? .atName(name) : .variable(name), offset: start, text: text(from: start))
        }
        // Operators and punctuation: longest match first.
        let two = peek(1).map { String([c, $0]) } ?? ""
        let twoMap: [String: String] = ["==": "==", "!=": "!=", "<>": "!=", "<=": "<=", "=<": "<=",
                                        ">=": ">=", "=>": ">=", "&&": "&&", "||": "||"]
        if let canon = twoMap[two] {
            i += 2
            return Token(kind: .symbol(canon), offset: start, text: two)
        }
        let single: Set<Character> = ["=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",", "."]
        if single.contains(c) {
            i += 1
            return Token(kind: .symbol(c == "=" ? "==" : String(c)), offset: start, text: String(c))
        }
        throw .syntax(at: start, "unexpected character '\(c)'")
    }

    private func describe(_ c: Character?) -> String {
        c.map { "'\($0)'" } ?? "end of input"
    }

    // MARK: numbers

    private mutating func scanNumber() throws(QueryError) -> Token {
        let start = i
        var negative = false
        if peek() == "-" { negative = true; i += 1 }
        if peek() == "0", let x = peek(1), x == "x" || x == "X" {
            i += 2
            let digitsStart = i
            while let h = peek(), h.isHexDigit { i += 1 }
            let digits = String(chars[digitsStart..<i])
            guard !digits.isEmpty, let magnitude = UInt64(digits, radix: 16) else {
                throw .syntax(at: start, "invalid hexadecimal number '\(text(from: start))'")
            }
            try rejectTrailingName(start)
            let value: Int64
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { throw .syntax(at: start, "integer '\(text(from: start))' is out of range") }
                value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            } else {
                guard magnitude <= UInt64(Int64.max) else { throw .syntax(at: start, "integer '\(text(from: start))' is out of range") }
                value = Int64(magnitude)
            }
            return Token(kind: .literal(.int(value)), offset: start, text: text(from: start))
        }
        var isFloat = false
        while Lexer.isDigit(peek()) { i += 1 }
        if peek() == ".", Lexer.isDigit(peek(1)) {
            isFloat = true
            i += 1
            while Lexer.isDigit(peek()) { i += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            let save = i
            i += 1
            if let s = peek(), s == "+" || s == "-" { i += 1 }
            if Lexer.isDigit(peek()) {
                isFloat = true
                while Lexer.isDigit(peek()) { i += 1 }
            } else {
                i = save
            }
        }
        try rejectTrailingName(start)
        let t = text(from: start)
        if isFloat {
            guard let d = Double(t) else { throw .syntax(at: start, "invalid number '\(t)'") }
            return Token(kind: .literal(.double(d)), offset: start, text: t)
        }
        guard let n = Int64(t) else { throw .syntax(at: start, "integer '\(t)' is out of range") }
        return Token(kind: .literal(.int(n)), offset: start, text: t)
    }

    /// `12abc` is neither a number nor a name.
    private func rejectTrailingName(_ start: Int) throws(QueryError) {
        if let c = peek(), Lexer.isIdentPart(c) {
            var j = i
            while j < chars.count, Lexer.isIdentPart(chars[j]) { j += 1 }
            throw .syntax(at: start, "invalid number '\(String(chars[start..<j]))'")
        }
    }

    // MARK: strings

    /// Scans a quoted string starting at the quote; supports \n \t \r \b \f \0 \\ \' \" \/ \uXXXX.
    private mutating func scanString() throws(QueryError) -> String {
        let start = i
        let quote = chars[i]
        i += 1
        var out = ""
        while true {
            guard let c = peek() else { throw .syntax(at: start, "unterminated string starting with \(quote)") }
            i += 1
            if c == quote { return out }
            if c != "\\" { out.append(c); continue }
            guard let e = peek() else { throw .syntax(at: start, "unterminated string starting with \(quote)") }
            let escOffset = i - 1
            i += 1
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "b": out.append("\u{8}")
            case "f": out.append("\u{C}")
            case "0": out.append("\u{0}")
            case "\\", "'", "\"", "/": out.append(e)
            case "u":
                var hex = ""
                if peek() == "{" {
                    i += 1
                    while let h = peek(), h != "}" { hex.append(h); i += 1 }
                    guard peek() == "}" else { throw .syntax(at: escOffset, "unterminated \\u{...} escape") }
                    i += 1
                } else {
                    for _ in 0..<4 { if let h = peek() { hex.append(h); i += 1 } }
                }
                guard (1...8).contains(hex.count), let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                    throw .syntax(at: escOffset, "invalid unicode escape '\\u\(hex)'")
                }
                out.unicodeScalars.append(scalar)
            default:
                throw .syntax(at: escOffset, "unknown escape sequence '\\\(e)'")
            }
        }
    }

    // MARK: oid(...), uuid(...), decimal128(...)

    private mutating func scanWrapped(_ word: String, start: Int) throws(QueryError) -> Token {
        i += 1  // "("
        let innerStart = i
        while let c = peek(), c != ")" { i += 1 }
        guard peek() == ")" else { throw .syntax(at: start, "expected ')' to close \(word)(") }
        let inner = String(chars[innerStart..<i]).trimmingCharacters(in: .whitespaces)
        i += 1
        let value: QueryValue
        switch word {
        case "oid":
            guard let oid = QueryObjectId(hex: inner) else {
                throw .syntax(at: start, "invalid ObjectId '\(inner)': expected 24 hexadecimal digits")
            }
            value = .objectId(oid)
        case "uuid":
            guard let u = UUID(uuidString: inner) else {
                throw .syntax(at: start, "invalid UUID '\(inner)'")
            }
            value = .uuid(u)
        default:
            if let d = parseDecimal(inner) { value = .decimal(d) }
            else { throw .syntax(at: start, "invalid decimal128 '\(inner)'") }
        }
        return Token(kind: .literal(value), offset: start, text: text(from: start))
    }

    // MARK: timestamps

    /// Tries to scan a timestamp at `i` (after skipping `prefix` characters, the optional `T`).
    /// Returns nil (and consumes nothing) when the text is not shaped like a timestamp, so that
    /// names such as `Title` or numbers such as `2024` still lex normally.
    private mutating func scanTimestamp(afterPrefix prefix: Int) throws(QueryError) -> QueryTimestamp? {
        let start = i
        var j = i + prefix
        func digits() -> String? {
            var s = ""
            while j < chars.count, chars[j].isASCII, chars[j].isNumber { s.append(chars[j]); j += 1 }
            return s.isEmpty ? nil : s
        }
        func signedDigits() -> String? {
            if j < chars.count, chars[j] == "-" {
                j += 1
                return digits().map { "-" + $0 }
            }
            return digits()
        }
        guard let first = signedDigits() else { return nil }
        if j < chars.count, chars[j] == ":", prefix == 1 {
            // T<seconds>:<nanoseconds>
            j += 1
            guard let nanos = signedDigits() else { return nil }
            guard let s = Int64(first), let n = Int64(nanos), n > -1_000_000_000, n < 1_000_000_000 else {
                throw .syntax(at: start, "invalid timestamp '\(String(chars[start..<j]))'")
            }
            i = j
            return QueryTimestamp(seconds: s, nanoseconds: n)
        }
        // YYYY-MM-DD[@T]HH:MM:SS[:NANOS]
        guard j < chars.count, chars[j] == "-" else { return nil }
        j += 1
        guard let month = digits(), j < chars.count, chars[j] == "-" else { return nil }
        j += 1
        guard let day = digits(), j < chars.count, chars[j] == "@" || chars[j] == "T" else { return nil }
        j += 1
        guard let hour = digits(), j < chars.count, chars[j] == ":" else { return nil }
        j += 1
        guard let minute = digits(), j < chars.count, chars[j] == ":" else { return nil }
        j += 1
        guard let second = digits() else { return nil }
        var nanos = "0"
        if j < chars.count, chars[j] == ":" {
            j += 1
            guard let n = digits() else { return nil }
            nanos = n
        }
        let whole = String(chars[start..<j])
        guard let y = Int64(first), let mo = Int64(month), let d = Int64(day), let h = Int64(hour),
              let mi = Int64(minute), let s = Int64(second), let n = Int64(nanos),
              (1...12).contains(mo), (1...daysInMonth(y, mo)).contains(d), (0...23).contains(h),
              (0...59).contains(mi), (0...60).contains(s), n < 1_000_000_000, y > -100_000_000, y < 100_000_000 else {
            throw .syntax(at: start, "invalid date '\(whole)'")
        }
        i = j
        let days = daysFromCivil(y, mo, d)
        return QueryTimestamp(seconds: days * 86_400 + h * 3600 + mi * 60 + s, nanoseconds: n)
    }
}

/// Parses the text of `decimal128(...)`: a decimal number with optional exponent, NaN or
/// Inf/Infinity (rounded half-even to 34 digits).
func parseDecimal(_ text: String) -> Decimal128? {
    try? Decimal128(string: text)
}

// MARK: civil calendar (proleptic Gregorian, UTC), after Howard Hinnant's algorithms

// The calendar conversion (daysFromCivil, civilFromDays, daysInMonth) is StrataStorage's CivilCalendar.
