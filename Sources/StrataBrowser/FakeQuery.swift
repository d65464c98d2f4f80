import Foundation
import StrataTooling

/// A small Realm Query Language subset for ``FakeDataSource``: comparisons (`==`, `!=`, `<`,
/// `<=`, `>`, `>=`, `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, with `[c]`), `AND`/`&&`, `OR`/`||`,
/// `NOT`/`!`, parentheses, `TRUEPREDICATE`, `prop.@count`, literals (numbers, quoted strings,
/// `true`, `false`, `null`/`nil`). Errors name the 0-based position of the offending token.
struct FakeQuery {
    indirect enum Node {
        case comparison(property: String, count: Bool, op: String, caseInsensitive: Bool, value: FakeStoredValue)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        case always
    }

    let root: Node

    /// Parses `text`, checking property names against `properties`.
    init(_ text: String, properties: [PropertyDescription]) throws {
        var parser = Parser(tokens: try Self.tokenize(text), properties: properties, end: text.count)
        root = try parser.parseOr()
        if let token = parser.peek { throw BrowserError("unexpected '\(token.text)'", position: token.position) }
    }

    /// Whether an object (property name → stored value) matches.
    func matches(_ value: (String) -> FakeStoredValue) -> Bool { Self.evaluate(root, value) }

    private static func evaluate(_ node: Node, _ value: (String) -> FakeStoredValue) -> Bool {
        switch node {
        case .always: return true
        case .and(let left, let right): return evaluate(left, value) && evaluate(right, value)
        case .or(let left, let right): return evaluate(left, value) || evaluate(right, value)
        case .not(let inner): return !evaluate(inner, value)
        case .comparison(let property, let count, let op, let caseInsensitive, let literal):
            var stored = value(property)
            if count { stored = .int(Int64(stored.collectionCount)) }
            return compare(stored, op, literal, caseInsensitive: caseInsensitive)
        }
    }

    private static func compare(_ stored: FakeStoredValue, _ op: String, _ literal: FakeStoredValue, caseInsensitive: Bool) -> Bool {
        switch op {
        case "CONTAINS", "BEGINSWITH", "ENDSWITH":
            guard case .string(var haystack) = stored, case .string(var needle) = literal else { return false }
            if caseInsensitive { haystack = haystack.lowercased(); needle = needle.lowercased() }
            return op == "CONTAINS" ? haystack.contains(needle) : op == "BEGINSWITH" ? haystack.hasPrefix(needle) : haystack.hasSuffix(needle)
        default:
            var left = stored, right = literal
            if caseInsensitive, case .string(let a) = left, case .string(let b) = right {
                left = .string(a.lowercased()); right = .string(b.lowercased())
            }
            if case .null = right { return op == "==" ? left.isNull : op == "!=" ? !left.isNull : false }
            if left.isNull { return op == "!=" }
            let order = FakeStoredValue.compare(left, right)
            switch op {
            case "==": return order == .orderedSame
            case "!=": return order != .orderedSame
            case "<": return order == .orderedAscending
            case "<=": return order != .orderedDescending
            case ">": return order == .orderedDescending
            default: return order != .orderedAscending  // ">="
            }
        }
    }

    struct Token {
        enum Kind { case word, number, string, symbol }
        var kind: Kind
        var text: String
        var position: Int
    }

    private static func tokenize(_ text: String) throws -> [Token] {
        let characters = Array(text)
        var tokens: [Token] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace { index += 1; continue }
            let start = index
            if character == "'" || character == "\"" {
                index += 1
                var value = ""
                while index < characters.count, characters[index] != character {
                    if characters[index] == "\\", index + 1 < characters.count { index += 1 }
                    value.append(characters[index])
                    index += 1
                }
                guard index < characters.count else { throw BrowserError("unterminated string", position: start) }
                index += 1
                tokens.append(Token(kind: .string, text: value, position: start))
            } else if character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
                index += 1
                while index < characters.count, characters[index].isNumber || characters[index] == "." { index += 1 }
                tokens.append(Token(kind: .number, text: String(characters[start..<index]), position: start))
            } else if character.isLetter || character == "_" || character == "@" {
                index += 1
                while index < characters.count,
                      characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                        || characters[index] == "." || characters[index] == "@" { index += 1 }
                tokens.append(Token(kind: .word, text: String(characters[start..<index]), position: start))
            } else {
                let two = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
                if ["==", "!=", "<=", ">=", "&&", "||"].contains(two) {
                    tokens.append(Token(kind: .symbol, text: two, position: start))
                    index += 2
                } else if "=<>!()[]".contains(character) {
                    tokens.append(Token(kind: .symbol, text: String(character), position: start))
                    index += 1
                } else {
                    throw BrowserError("unexpected character '\(character)'", position: start)
                }
            }
        }
        return tokens
    }

    private struct Parser {
        var tokens: [Token]
        var properties: [PropertyDescription]
        var end: Int
        var index = 0

        var peek: Token? { index < tokens.count ? tokens[index] : nil }

        mutating func next() -> Token? {
            defer { index += 1 }
            return peek
        }

        func isKeyword(_ token: Token?, _ words: String...) -> Bool {
            guard let token, token.kind == .word || token.kind == .symbol else { return false }
            return words.contains(token.text.uppercased())
        }

        mutating func parseOr() throws -> Node {
            var node = try parseAnd()
            while isKeyword(peek, "OR", "||") { index += 1; node = .or(node, try parseAnd()) }
            return node
        }

        mutating func parseAnd() throws -> Node {
            var node = try parseUnary()
            while isKeyword(peek, "AND", "&&") { index += 1; node = .and(node, try parseUnary()) }
            return node
        }

        mutating func parseUnary() throws -> Node {
            if isKeyword(peek, "NOT", "!") { index += 1; return .not(try parseUnary()) }
            if peek?.text == "(" {
                index += 1
                let node = try parseOr()
                guard peek?.text == ")" else { throw BrowserError("expected ')'", position: peek?.position ?? end) }
                index += 1
                return node
            }
            return try parseComparison()
        }

        mutating func parseComparison() throws -> Node {
            guard let token = next() else { throw BrowserError("expected a property name", position: end) }
            if isKeyword(token, "TRUEPREDICATE") { return .always }
            guard token.kind == .word else { throw BrowserError("expected a property name, found '\(token.text)'", position: token.position) }
            var name = token.text
            var count = false
            if name.hasSuffix(".@count") { name.removeLast(7); count = true }
            guard let property = properties.first(where: { $0.name == name }) else {
                throw BrowserError("unknown property '\(name)'", position: token.position)
            }
            if count, !property.kind.isCollection {
                throw BrowserError("@count needs a collection; '\(name)' is \(property.typeDescription)", position: token.position)
            }
            guard let opToken = next() else { throw BrowserError("expected an operator after '\(token.text)'", position: end) }
            var op = opToken.text.uppercased()
            if op == "=" { op = "==" }
            guard ["==", "!=", "<", "<=", ">", ">=", "CONTAINS", "BEGINSWITH", "ENDSWITH"].contains(op) else {
                throw BrowserError("expected an operator, found '\(opToken.text)'", position: opToken.position)
            }
            var caseInsensitive = false
            if peek?.text == "[" {
                let bracket = next()!
                guard peek?.text.lowercased() == "c", tokens.count > index + 1, tokens[index + 1].text == "]" else {
                    throw BrowserError("expected [c]", position: bracket.position)
                }
                index += 2
                caseInsensitive = true
            }
            guard let valueToken = next() else { throw BrowserError("expected a value after '\(opToken.text)'", position: end) }
            let value: FakeStoredValue
            switch valueToken.kind {
            case .string: value = .string(valueToken.text)
            case .number:
                if let int = Int64(valueToken.text) { value = .int(int) }
                else if let double = Double(valueToken.text) { value = .double(double) }
                else { throw BrowserError("bad number '\(valueToken.text)'", position: valueToken.position) }
            case .word:
                switch valueToken.text.lowercased() {
                case "true": value = .bool(true)
                case "false": value = .bool(false)
                case "null", "nil": value = .null
                default: throw BrowserError("expected a value, found '\(valueToken.text)'", position: valueToken.position)
                }
            case .symbol: throw BrowserError("expected a value, found '\(valueToken.text)'", position: valueToken.position)
            }
            return .comparison(property: name, count: count, op: op, caseInsensitive: caseInsensitive, value: value)
        }
    }
}
