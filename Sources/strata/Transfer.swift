import Foundation
import Strata
import StrataTooling

enum CSV {
    /// A field, quoted when it holds a comma, quote, line break or outer spaces (or `force`).
    static func quote(_ s: String, force: Bool) -> String { CSVText.quote(s, force: force) }

    struct Field {
        var text: String
        var quoted: Bool
    }

    struct Record {
        var line: Int
        var fields: [Field]
    }

    /// Parses RFC 4180 CSV (quoted fields may hold commas, quotes and line breaks). Each record
    /// carries the line it starts on.
    static func parse(_ bytes: [UInt8]) throws -> [Record] {
        var records: [Record] = []
        var fields: [Field] = []
        var field: [UInt8] = []
        var quoted = false
        var inQuotes = false
        var line = 1
        var recordLine = 1
        var i = 0
        var fieldStarted = false
        func endField() {
            fields.append(Field(text: String(decoding: field, as: UTF8.self), quoted: quoted))
            field.removeAll(keepingCapacity: true)
            quoted = false
            fieldStarted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].text.isEmpty && !fields[0].quoted) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
        }
        // Skip a UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while i < bytes.count {
            let c = bytes[i]
            if inQuotes {
                if c == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") { field.append(c); i += 2; continue }
                    inQuotes = false
                } else {
                    if c == UInt8(ascii: "\n") { line += 1 }
                    field.append(c)
                }
                i += 1
                continue
            }
            switch c {
            case UInt8(ascii: "\""):
                if !fieldStarted && field.isEmpty { inQuotes = true; quoted = true; fieldStarted = true }
                else { throw InputError("line \(line): a quote inside an unquoted field; quote the field and double the quote (\"\")") }
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r"):
                break
            case UInt8(ascii: "\n"):
                endRecord()
                line += 1
                recordLine = line
            default:
                if quoted { throw InputError("line \(line): text after the closing quote of a field") }
                field.append(c)
                fieldStarted = true
            }
            i += 1
        }
        if inQuotes { throw InputError("line \(recordLine): a quoted field is not closed before the end of the file") }
        if !field.isEmpty || !fields.isEmpty || quoted { endRecord() }
        return records
    }
}

// MARK: JSON parsing with line numbers

/// A parsed JSON value; numbers keep their text so they convert exactly to the property's type.
indirect enum JNode {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JNode], lines: [Int])
    case object([(String, JNode)])

    var stringValue: String? { if case .string(let s) = self { return s }; return nil }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A small JSON parser that records the line each array element starts on (for import errors).
struct JSONParser {
    let bytes: [UInt8]
    var i = 0
    var line = 1
    /// Arrays and objects open around the current position; deeper than `maxDepth` is refused
    /// (the parser recurses once per level).
    var depth = 0
    static let maxDepth = 512

    static func parseDocument(_ bytes: [UInt8]) throws -> JNode {
        var p = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
        let node = try p.value()
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("unexpected text after the JSON value") }
        return node
    }

    func error(_ message: String) -> InputError { InputError("line \(line): invalid JSON: \(message)") }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\n"): line += 1; i += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
            default: return
            }
        }
    }

    mutating func value() throws -> JNode {
        skipSpace()
        guard i < bytes.count else { throw error("unexpected end of the input") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            try enter()
            defer { depth -= 1 }
            i += 1
            var fields: [(String, JNode)] = []
            var keys = Set<String>()
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
                let key = try string()
                guard keys.insert(key).inserted else { throw error("the key \"\(key)\" appears twice in one object") }
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
                i += 1
                fields.append((key, try value()))
                skipSpace()
                guard i < bytes.count else { throw error("unexpected end inside an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            try enter()
            defer { depth -= 1 }
            i += 1
            var items: [JNode] = []
            var lines: [Int] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items, lines: lines) }
            while true {
                skipSpace()
                lines.append(line)
                items.append(try value())
                skipSpace()
                guard i < bytes.count else { throw error("unexpected end inside an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items, lines: lines) }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            let start = i
            while i < bytes.count, "+-.0123456789eE".utf8.contains(bytes[i]) { i += 1 }
            guard i > start else { throw error("unexpected character '\(String(decoding: [bytes[i]], as: UTF8.self))'") }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            guard Double(text) != nil else { throw error("'\(text)' is not a number") }
            return .number(text)
        }
    }

    mutating func enter() throws {
        depth += 1
        guard depth <= JSONParser.maxDepth else {
            throw error("arrays and objects nested more than \(JSONParser.maxDepth) levels deep")
        }
    }

    mutating func literal(_ word: String, _ node: JNode) throws -> JNode {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw error("unexpected text (expected \(word))") }
        i += w.count
        return node
    }

    mutating func string() throws -> String {
        i += 1
        var out: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == UInt8(ascii: "\n") { throw error("line break inside a string (write it as \\n)") }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count else { break }
                switch bytes[i] {
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by a low one: together one scalar.
                        guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
                            throw error(String(format: "\\u%04X is half of a surrogate pair without its low half (\\uDC00-\\uDFFF)", scalar))
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw error(String(format: "\\u%04X is half of a surrogate pair but is followed by \\u%04X, not a low surrogate (\\uDC00-\\uDFFF)", scalar, low))
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error(String(format: "\\u%04X is the low half of a surrogate pair without its high half", scalar))
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error(String(format: "\\u%04X is not a Unicode scalar", scalar)) }
                    out.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: out.append(bytes[i])
                }
                i += 1
                continue
            }
            out.append(c)
            i += 1
        }
        throw error("a string is not closed")
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 < bytes.count, let v = UInt32(String(decoding: bytes[i + 1...i + 4], as: UTF8.self), radix: 16) else {
            throw error("bad \\u escape")
        }
        i += 4
        return v
    }
}

// MARK: Import

/// Converts parsed rows into objects of a class, all in one write transaction.
struct Importer {
    let w: DBTransaction
    let os: ObjectSchema
    var schema: Schema { w.schema }

    struct Row {
        var values: [String: Value] = [:]
        var embedded: [String: [String: Value]] = [:]
        var lists: [String: [Value]] = [:]
        var maps: [String: [(String, Value)]] = [:]
        var embeddedLists: [String: [[String: Value]]] = [:]
        var nullEmbedded: [String] = []
    }

    /// Converts one JSON object to a row of this class.
    func row(fromJSON node: JNode) throws -> Row {
        guard case .object(let fields) = node else { throw InputError("expected an object, found \(node.typeName)") }
        var row = Row()
        for (name, value) in fields {
            guard let p = os[name] else { throw InputError("class \(os.className) has no property '\(name)'") }
            try set(&row, p, value)
        }
        return row
    }

    func set(_ row: inout Row, _ p: PropertySchema, _ node: JNode) throws {
        if p.type == .linkingObjects { return }
        let embedded = p.type == .object && schema[p.objectClassName ?? ""]?.isEmbedded == true
        switch p.collection {
        case .single:
            if embedded {
                if case .null = node { row.nullEmbedded.append(p.name); return }
                row.embedded[p.name] = try embeddedValues(node, p)
            } else {
                row.values[p.name] = try element(node, p)
            }
        case .list, .set:
            guard case .array(let items, _) = node else {
                if case .null = node { row.lists[p.name] = []; return }
                throw InputError("\(p.name) is a \(p.collection == .list ? "list" : "set"): expected an array, found \(node.typeName)")
            }
            if embedded { row.embeddedLists[p.name] = try items.map { try embeddedValues($0, p) } }
            else { row.lists[p.name] = try items.map { try element($0, p) } }
        case .map:
            guard case .object(let entries) = node else {
                if case .null = node { row.maps[p.name] = []; return }
                throw InputError("\(p.name) is a map: expected an object, found \(node.typeName)")
            }
            row.maps[p.name] = try entries.map { ($0.0, try element($0.1, p)) }
        }
    }

    func embeddedValues(_ node: JNode, _ p: PropertySchema) throws -> [String: Value] {
        guard case .object(let fields) = node, let target = schema[p.objectClassName ?? ""] else {
            throw InputError("\(p.name) is an embedded \(p.objectClassName ?? "object"): expected an object, found \(node.typeName)")
        }
        var out: [String: Value] = [:]
        for (name, value) in fields {
            guard let ep = target[name] else { throw InputError("embedded class \(target.className) has no property '\(name)'") }
            guard ep.collection == .single, !(ep.type == .object && schema[ep.objectClassName ?? ""]?.isEmbedded == true) else {
                throw InputError("\(p.name).\(name): collections and nested embedded objects inside embedded objects cannot be imported yet")
            }
            out[name] = try element(value, ep)
        }
        return out
    }

    /// One value (or collection element) of property `p` from JSON.
    func element(_ node: JNode, _ p: PropertySchema) throws -> Value {
        let what = "\(p.name) (\(p.typeDescription))"
        if case .null = node { return .null }
        if p.type == .object {
            guard let target = p.objectClassName, let ts = schema[target] else { throw InputError("\(p.name): unknown target class") }
            let key: ObjKey?
            if let pk = ts.primaryKeyProperty {
                let pkValue = try scalar(node, pk.type, what: "\(p.name) (primary key of \(target))")
                key = try w.find(target, primaryKey: pkValue)
                guard let key else { throw InputError("\(p.name): no \(target) with primary key \(pkValue.description); import \(target) first") }
                return .object(StrataObjects.ObjectLink(className: target, key: key))
            }
            guard case .number(let text) = node, let k = Int64(text) else {
                throw InputError("\(p.name): expected the object key (an integer) of a \(target), found \(node.typeName)")
            }
            guard try w.exists(target, k) else { throw InputError("\(p.name): no \(target) with object key \(k)") }
            return .object(StrataObjects.ObjectLink(className: target, key: k))
        }
        if p.type == .mixed { return try mixed(node, what: what) }
        return try scalar(node, p.type, what: what)
    }

    func scalar(_ node: JNode, _ type: PropertyType, what: String) throws -> Value {
        switch (type, node) {
        case (_, .null): return .null
        case (.bool, .bool(let b)): return .bool(b)
        case (.int, .number(let t)), (.float, .number(let t)), (.double, .number(let t)), (.decimal128, .number(let t)):
            return try ValueParser.scalar(t, type: type, what: what, data: .base64)
        case (.float, .string(let t)), (.double, .string(let t)), (.decimal128, .string(let t)),
             (.data, .string(let t)), (.date, .string(let t)), (.objectId, .string(let t)), (.uuid, .string(let t)):
            return try ValueParser.scalar(t, type: type, what: what, data: .base64)
        case (.string, .string(let s)): return try ValueParser.scalar(s, type: .string, what: what, data: .base64)
        default:
            throw InputError("\(what): expected \(expected(type)), found \(node.typeName)")
        }
    }

    func expected(_ type: PropertyType) -> String {
        switch type {
        case .bool: "true or false"
        case .int, .float, .double: "a number"
        case .decimal128: "a number or a decimal string"
        case .string: "a string"
        case .data: "a base64 string"
        case .date: "an ISO 8601 date string"
        case .objectId: "a 24-hex-digit string"
        case .uuid: "a UUID string"
        default: "a value"
        }
    }

    func mixed(_ node: JNode, what: String) throws -> Value {
        switch node {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .string(let s): return .string(s)
        case .number(let t):
            if let i = Int64(t) { return .int(i) }
            return try ValueParser.scalar(t, type: .double, what: what, data: .base64)
        case .object(let fields) where fields.count == 1:
            let (tag, value) = fields[0]
            // A link: by the target's primary key (what export writes for a class with one) or
            // by its object key.
            if tag == "$link", case .object(let parts) = value,
               case .string(let className)? = parts.first(where: { $0.0 == "class" })?.1,
               let pkNode = parts.first(where: { $0.0 == "primaryKey" })?.1, parts.count == 2 {
                guard let target = schema[className] else { throw InputError("\(what): no class named \(className) to link to") }
                guard let pk = target.primaryKeyProperty else {
                    throw InputError("\(what): \(className) has no primary key; link to it by its object key: {\"$link\": {\"class\": \"\(className)\", \"key\": N}}")
                }
                let pkValue = try scalar(pkNode, pk.type, what: "\(what) (primary key of \(className))")
                guard let key = try w.find(className, primaryKey: pkValue) else {
                    throw InputError("\(what): no \(className) with primary key \(pkValue.description); import \(className) first")
                }
                return .object(StrataObjects.ObjectLink(className: className, key: key))
            }
            if tag == "$link", case .object(let parts) = value,
               case .string(let className)? = parts.first(where: { $0.0 == "class" })?.1,
               case .number(let keyText)? = parts.first(where: { $0.0 == "key" })?.1, let key = Int64(keyText) {
                guard schema[className] != nil, try w.exists(className, key) else { throw InputError("\(what): no \(className) with object key \(key)") }
                return .object(StrataObjects.ObjectLink(className: className, key: key))
            }
            guard case .string(let text) = value else { break }
            let types: [String: PropertyType] = ["$date": .date, "$data": .data, "$oid": .objectId, "$uuid": .uuid,
                                                 "$decimal": .decimal128, "$float": .float, "$double": .double]
            if let type = types[tag] { return try ValueParser.scalar(text, type: type, what: what, data: .base64) }
        default: break
        }
        throw InputError("\(what): an AnyRealmValue must be null, a boolean, a number, a string or a tagged value like {\"$date\": \"…\"}")
    }

    /// Converts one CSV record to a row, by the header's property names.
    func row(fromCSV fields: [CSV.Field], header: [PropertySchema]) throws -> Row {
        guard fields.count == header.count else {
            throw InputError("has \(fields.count) fields but the header has \(header.count)")
        }
        var row = Row()
        for (column, (p, field)) in zip(header, fields).enumerated() {
            let embedded = p.type == .object && schema[p.objectClassName ?? ""]?.isEmbedded == true
            if field.text.isEmpty && !field.quoted {
                // An empty unquoted field is null; for a required String it is the empty string,
                // for any other required value an error (as null is in JSON), never a 0 or false.
                // An empty collection field is an empty collection.
                if p.collection == .single && (p.isOptional || p.type == .object || p.type == .mixed) {
                    if embedded { row.nullEmbedded.append(p.name) } else { row.values[p.name] = .null }
                } else if p.collection == .single && p.type == .string {
                    row.values[p.name] = .string("")
                } else if p.collection == .single {
                    throw InputError("column \(column + 1) (\(p.name), \(p.typeDescription)) is empty, which is null, and \(p.name) is not optional; write a value")
                }
                continue
            }
            if p.collection != .single || p.type == .mixed || embedded {
                let node: JNode
                do { node = try JSONParser.parseDocument(Array(field.text.utf8)) } catch let e as InputError {
                    throw InputError("\(p.name): the field must be JSON (\(e.message.replacingOccurrences(of: "line 1: ", with: "")))")
                }
                try set(&row, p, node)
                continue
            }
            if p.type == .object {
                let node: JNode
                if let target = schema[p.objectClassName ?? ""]?.primaryKeyProperty, target.type == .string || target.type == .objectId || target.type == .uuid {
                    node = .string(field.text)
                } else {
                    node = .number(field.text)
                }
                row.values[p.name] = try element(node, p)
                continue
            }
            row.values[p.name] = try ValueParser.scalar(field.text, type: p.type, what: "\(p.name) (\(p.typeDescription))", data: .base64)
        }
        return row
    }

    /// Creates the object of a row.
    func insert(_ row: Row) throws {
        let key: ObjKey
        do {
            key = try w.create(os.className, values: row.values, embedded: row.embedded, collections: row.lists, maps: row.maps)
        } catch ObjectError.duplicatePrimaryKey(let className, let value) {
            // Said in the input's terms, not the Swift API's ("use update: .modified").
            let name = schema[className]?.primaryKeyProperty?.name ?? "primary key"
            throw InputError("\(className) with \(name) \(value) already exists")
        }
        for (name, items) in row.embeddedLists {
            for item in items { try w.setEmbedded(os.className, key, name, item) }
        }
    }
}

/// Infers a class from import data (`--create`): each field's type from its values; fields
/// with a null or missing somewhere are optional; arrays of scalars become lists.
enum SchemaInference {
    static func infer(className: String, json rows: [JNode]) throws -> ObjectSchema {
        var order: [String] = []
        var samples: [String: [JNode]] = [:]
        for row in rows {
            guard case .object(let fields) = row else { throw InputError("expected objects to infer the class from") }
            for (name, value) in fields {
                if samples[name] == nil { order.append(name) }
                samples[name, default: []].append(value)
            }
        }
        return ObjectSchema(className: className, properties: try order.map { name in
            let values = samples[name]!
            let optional = values.count < rows.count || values.contains { if case .null = $0 { return true }; return false }
            let nonNull = values.filter { if case .null = $0 { return false }; return true }
            if let first = nonNull.first, case .array = first {
                let elements = nonNull.flatMap { node -> [JNode] in if case .array(let items, _) = node { return items }; return [] }
                return PropertySchema(name: name, type: try scalarType(elements, name), collection: .list)
            }
            return PropertySchema(name: name, type: try scalarType(nonNull, name), isOptional: optional)
        })
    }

    /// Realm's limits on names, and identifier characters only (letters, digits, `_`, not
    /// starting with a digit), so `strata schema --swift` always compiles.
    static let maxClassNameBytes = 57
    static let maxPropertyNameBytes = 63

    static func checkNames(_ os: ObjectSchema) throws {
        try checkName(os.className, what: "class", limit: maxClassNameBytes)
        for p in os.allProperties { try checkName(p.name, what: "property", limit: maxPropertyNameBytes) }
    }

    static func checkName(_ name: String, what: String, limit: Int) throws {
        let shown = name.debugDescription
        guard !name.isEmpty else { throw InputError("line 1: an empty \(what) name; name every \(what == "class" ? "class" : "field")") }
        guard name.utf8.count <= limit else {
            throw InputError("line 1: the \(what) name \(shown) is \(name.utf8.count) bytes; at most \(limit) UTF-8 bytes")
        }
        func letter(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        guard let first = name.unicodeScalars.first, letter(first),
              name.unicodeScalars.allSatisfy({ letter($0) || ("0"..."9").contains($0) }) else {
            throw InputError("line 1: \(shown) cannot be a \(what) name: use letters, digits and _ only, not starting with a digit")
        }
    }

    static func scalarType(_ nodes: [JNode], _ name: String) throws -> PropertyType {
        if nodes.isEmpty { return .string }
        if nodes.allSatisfy({ if case .bool = $0 { return true }; return false }) { return .bool }
        if nodes.allSatisfy({ if case .number(let t) = $0 { return Int64(t) != nil }; return false }) { return .int }
        if nodes.allSatisfy({ if case .number = $0 { return true }; return false }) {
            // A Double would round an integer it cannot hold exactly (9223372036854775808):
            // refused, not changed silently.
            for case .number(let t) in nodes where !exactAsDouble(t) {
                let why = Int64(t) == nil ? "does not fit an Int (64-bit)" : "is in a column with fractions"
                throw InputError("'\(name)': \(t) \(why) and a Double would round it; write it as a JSON string to keep it as text, or create the class with a schema first")
            }
            return .double
        }
        if nodes.allSatisfy({ if case .string = $0 { return true }; return false }) { return .string }
        throw InputError("cannot infer a type for '\(name)' (mixed or nested values); create the class with a schema first")
    }

    /// JSON's number syntax: `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?` (no `+`, leading
    /// zeros, `nan`, `inf` or hex that `Double(_:)` also reads).
    static func isPlainNumber(_ text: String) -> Bool {
        var b = Array(text.utf8)[...]
        func digits() -> Int { let n = b.prefix { $0 >= 0x30 && $0 <= 0x39 }.count; b = b.dropFirst(n); return n }
        if b.first == UInt8(ascii: "-") { b = b.dropFirst() }
        if b.first == UInt8(ascii: "0") { b = b.dropFirst() } else if digits() == 0 { return false }
        if b.first == UInt8(ascii: ".") { b = b.dropFirst(); if digits() == 0 { return false } }
        if b.first == UInt8(ascii: "e") || b.first == UInt8(ascii: "E") {
            b = b.dropFirst()
            if b.first == UInt8(ascii: "+") || b.first == UInt8(ascii: "-") { b = b.dropFirst() }
            if digits() == 0 { return false }
        }
        return b.isEmpty
    }

    /// False for an integer (no fraction or exponent) beyond Int64 or that a Double would not hold
    /// exactly.
    static func exactAsDouble(_ text: String) -> Bool {
        guard !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return true }
        guard let int = Int64(text), let d = Double(text) else { return false }
        return Int64(exactly: d) == int
    }

    static func infer(className: String, csvHeader: [String], records: [CSV.Record]) throws -> ObjectSchema {
        ObjectSchema(className: className, properties: csvHeader.enumerated().map { index, name in
            let fields = records.compactMap { $0.fields.count > index ? $0.fields[index] : nil }
            let optional = fields.contains { $0.text.isEmpty && !$0.quoted }
            let texts = fields.filter { !($0.text.isEmpty && !$0.quoted) }.map(\.text)
            let type: PropertyType
            if texts.isEmpty { type = .string }
            // Only text that reads back the same (no leading zeros or '+', no integer a Double
            // would round) becomes a number; anything else stays text.
            else if texts.allSatisfy({ Int64($0).map { String($0) } == $0 }) { type = .int }
            else if texts.allSatisfy({ isPlainNumber($0) && exactAsDouble($0) }) { type = .double }
            else if texts.allSatisfy({ $0 == "true" || $0 == "false" }) { type = .bool }
            else { type = .string }
            return PropertySchema(name: name, type: type, isOptional: optional)
        })
    }
}

/// The byte offset of the first byte that is not valid UTF-8, or nil.
func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    var offset = 0
    while true {
        switch parser.parseScalar(from: &iterator) {
        case .valid(let encoded): offset += encoded.count
        case .emptyInput: return nil
        case .error: return offset
        }
    }
}
