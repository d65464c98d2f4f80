import Foundation
import StrataBrowser
import StrataRealm
import StrataTooling

/// The read-only commands on `.realm` files written by realm-core (issue 14): each command
/// that opens a database first asks ``RealmFileCommands/isRealmFile(_:)`` and dispatches here.
/// Nothing here writes the file or creates anything beside it.
enum RealmFileCommands {
    /// True for a file with realm-core's "T-DB" mnemonic at offset 16, or (encrypted Realm
    /// files have no readable header) a name ending in `.realm`.
    static func isRealmFile(_ path: String) -> Bool {
        if path.hasSuffix(".realm") { return true }
        // Only a regular file is read: opening a FIFO would block until a writer appears (the
        // engine refuses non-regular paths with a clear error afterwards).
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 24)) ?? Data()
        return header.count == 24 && Array(header[16..<20]) == Array("T-DB".utf8)
    }

    /// Opens a Realm file read-only with the command's key; reader errors become CLI errors.
    static func open(_ path: String, common: CommonOptions) throws -> RealmFile {
        try open(path, key: try common.key())
    }

    /// Opens a Realm file read-only with `key` (nil: not encrypted).
    static func open(_ path: String, key: [UInt8]?) throws -> RealmFile {
        do {
            return try RealmFile.open(path: path, encryptionKey: key)
        } catch let e as RealmFileError {
            switch e {
            case .encryptionKeyRequired, .invalidEncryptionKey, .wrongEncryptionKey:
                throw CLIError("\(path): \(e.description)", code: ExitCode32.encryption)
            default:
                throw CLIError("\(path): \(e.description)", code: ExitCode32.badFile)
            }
        }
    }

    /// The refusal of every command that would write a Realm file.
    static func refuseWrite(_ path: String) -> CLIError {
        CLIError(RealmFileDataSource.readOnlyMessage(path: path), code: ExitCode32.refused)
    }

    // MARK: info

    static func info(_ path: String, json: Bool, common: CommonOptions, out: CommandOutput) throws -> Int32 {
        let realm = try open(path, common: common)
        if json {
            try out.json(.object([
                ("file", .string(path)), ("kind", .string("realm")), ("formatVersion", .int(realm.formatVersion)),
                ("streamingForm", .bool(realm.isStreamingForm)), ("encrypted", .bool(realm.isEncrypted)),
                ("version", realm.transactionVersion.map { .int($0) } ?? .null),
                ("schemaVersion", realm.schemaVersion.map { .int($0) } ?? .null),
                ("totalBytes", .int(realm.fileSize)),
                ("classes", .array(realm.classes.map { c in
                    .object([("name", .string(c.name)), ("count", .int(c.objectCount)), ("embedded", .bool(c.isEmbedded))])
                })),
            ]))
            return 0
        }
        try out.line("File          \(path)")
        try out.line("Kind          Realm file (realm-core), opened read-only" + (realm.isEncrypted ? ", encrypted" : ""))
        try out.line("Format        \(realm.formatVersion)" + (realm.isStreamingForm ? " (streaming form)" : ""))
        if let v = realm.transactionVersion { try out.line("Version       \(v)") }
        try out.line("Schema        " + (realm.schemaVersion.map { "version \($0)" } ?? "no schema version"))
        try out.line("Size          \(bytesText(Int64(realm.fileSize)))")
        try out.line("Classes")
        let width = max(12, realm.classes.map { DisplayWidth.of($0.name) }.max() ?? 0)
        for c in realm.classes {
            try out.line("  " + pad(c.name, width) + "  " + pad(Formatting.number(c.objectCount), 12, right: true) + (c.isEmbedded ? "  (embedded)" : ""))
        }
        return 0
    }

    // MARK: space

    static func space(_ path: String, json: Bool, common: CommonOptions, out: CommandOutput) throws -> Int32 {
        let realm = try open(path, common: common)
        let r: RealmSpaceReport
        do { r = try realm.spaceReport() } catch { throw CLIError("\(path): \(error)", code: ExitCode32.badFile) }
        if json {
            try out.json(.object([
                ("file", .string(path)), ("totalBytes", .int(r.fileSize)), ("freeBytes", .int(r.freeBytes)),
                ("historyBytes", .int(r.historyBytes)), ("reclaimableBytes", .int(r.reclaimableBytes)),
                ("compactedBytes", .int(max(0, r.fileSize - r.reclaimableBytes))),
                ("classes", .array(r.classes.map { c in
                    .object([("name", .string(c.name)), ("objects", .int(c.objectCount)), ("bytes", .int(c.totalBytes)),
                             ("clusterBytes", .int(c.clusterBytes)),
                             ("columns", .array(c.columns.map { .object([("name", .string($0.name)), ("bytes", .int($0.bytes)), ("indexBytes", .int($0.indexBytes))]) }))])
                })),
                ("freeBySize", .array(r.freeBySize.map { .object([("minBytes", .int($0.minSize)), ("extents", .int($0.extents)), ("bytes", .int($0.bytes))]) })),
                ("freeByVersion", .array(r.freeByVersion.map { .object([("version", $0.version.map { .int($0) } ?? .null), ("bytes", .int($0.bytes))]) })),
            ]))
            return 0
        }
        try out.line("File      \(path) (Realm file, format \(realm.formatVersion), read-only)")
        try out.line("Total     \(bytesText(Int64(r.fileSize)))")
        try out.line("Free      \(bytesText(Int64(r.freeBytes)))  \(Formatting.percent(Int64(r.freeBytes), of: Int64(r.fileSize)))")
        try out.line("History   \(bytesText(Int64(r.historyBytes)))")
        try out.line("")
        try out.line("By class (objects, then bytes of clusters, columns and indexes)")
        var names = r.classes.map(\.name)
        for c in r.classes { names += c.columns.map { "  " + $0.name } }
        let width = max(18, names.map { DisplayWidth.of($0) }.max() ?? 0)
        for c in r.classes {
            try out.line("  " + pad(c.name, width) + pad(Formatting.number(c.objectCount) + " obj", 12, right: true) + pad(Formatting.bytes(Int64(c.totalBytes)), 12, right: true))
            try out.line("    " + pad("(clusters, keys)", width - 2) + pad("", 12) + pad(Formatting.bytes(Int64(c.clusterBytes)), 12, right: true))
            for col in c.columns where col.bytes > 0 || col.indexBytes > 0 {
                try out.line("    " + pad(col.name, width - 2) + pad("", 12) + pad(Formatting.bytes(Int64(col.bytes)), 12, right: true)
                             + (col.indexBytes > 0 ? "  + index \(Formatting.bytes(Int64(col.indexBytes)))" : ""))
            }
        }
        try out.line("")
        try out.line("Free space by extent size")
        if r.freeBySize.isEmpty { try out.line("  (none)") }
        for b in r.freeBySize {
            let range = "\(Formatting.bytes(Int64(b.minSize))) – \(Formatting.bytes(Int64(b.minSize * 2 - 1)))"
            try out.line("  " + pad(range, 24) + pad("\(b.extents) extents", 14, right: true) + pad(Formatting.bytes(Int64(b.bytes)), 12, right: true))
        }
        try out.line("")
        try out.line("Free space by the version that freed it")
        if r.freeByVersion.isEmpty { try out.line("  (none)") }
        for f in r.freeByVersion.suffix(20) {
            try out.line("  " + pad(f.version.map { "v\($0)" } ?? "(no version)", 14) + pad(Formatting.bytes(Int64(f.bytes)), 12, right: true))
        }
        try out.line("")
        try out.line("Compaction (with a Realm SDK, or after 'strata convert') would give back about \(Formatting.bytes(Int64(r.reclaimableBytes))) (\(Formatting.percent(Int64(r.reclaimableBytes), of: Int64(r.fileSize))))")
        return 0
    }

    // MARK: check

    static func check(_ path: String, json: Bool, common: CommonOptions, out: CommandOutput) throws -> Int32 {
        let realm = try open(path, common: common)
        let r = realm.checkStructure()
        if json {
            try out.json(.object([
                ("file", .string(path)), ("sound", .bool(r.isSound)), ("nodes", .int(r.nodeCount)), ("liveBytes", .int(r.liveBytes)),
                ("freeBytes", .int(r.freeBytes)), ("fileBytes", .int(r.fileSize)), ("problems", .array(r.problems.map { .string($0) })),
            ]))
        } else if r.isSound {
            try out.line("\(path): sound Realm file, format \(realm.formatVersion) (\(Formatting.number(r.nodeCount)) nodes, \(Formatting.bytes(Int64(r.liveBytes))) live, \(Formatting.bytes(Int64(r.freeBytes))) free)")
        } else {
            try out.line("\(path): \(r.problems.count) problem\(r.problems.count == 1 ? "" : "s"):")
            for p in r.problems { try out.line("  - \(p)") }
        }
        if !r.isSound {
            throw CLIError("check found \(r.problems.count) problem\(r.problems.count == 1 ? "" : "s") in \(path); restore it from a backup, or convert what is readable with 'strata convert'", code: ExitCode32.checkFailed)
        }
        return 0
    }

    // MARK: schema

    static func typeName(_ p: RealmProperty) -> String {
        switch p.type {
        case .int: "int"
        case .bool: "bool"
        case .string: "string"
        case .binary: "data"
        case .mixed: "mixed"
        case .timestamp: "date"
        case .float: "float"
        case .double: "double"
        case .decimal128: "decimal128"
        case .link, .typedLink: "object"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .linkingObjects: "linkingObjects"
        }
    }

    static func swiftType(_ p: RealmProperty) -> String {
        let base: String
        switch p.type {
        case .int: base = "Int"
        case .bool: base = "Bool"
        case .string: base = "String"
        case .binary: base = "Data"
        case .mixed: base = "AnyRealmValue"
        case .timestamp: base = "Date"
        case .float: base = "Float"
        case .double: base = "Double"
        case .decimal128: base = "Decimal128"
        case .link, .typedLink, .linkingObjects: base = p.targetClass ?? "Object"
        case .objectId: base = "ObjectId"
        case .uuid: base = "UUID"
        }
        let isObject = p.type == .link || p.type == .typedLink
        let element = p.isNullable && p.type != .mixed && !(isObject && p.collection == .list) ? base + "?" : base
        switch p.collection {
        case .list?: return "List<\(element)>"
        case .set?: return "MutableSet<\(element)>"
        case .dictionary?: return "Map<String, \(isObject ? base + "?" : element)>"
        case nil: return isObject ? base + "?" : element
        }
    }

    static func schema(_ path: String, json: Bool, swift: Bool, common: CommonOptions, out: CommandOutput) throws -> Int32 {
        let realm = try open(path, common: common)
        if json {
            try out.json(.object([
                ("file", .string(path)), ("schemaVersion", realm.schemaVersion.map { .int($0) } ?? .null),
                ("classes", .array(realm.classes.map { c in
                    .object([("name", .string(c.name)), ("embedded", .bool(c.isEmbedded)),
                             ("primaryKey", c.primaryKey.map { .string($0) } ?? .null),
                             ("properties", .array((c.properties + c.backlinks).map { p in
                                .object([("name", .string(p.name)), ("type", .string(typeName(p))),
                                         ("collection", .string(p.type == .linkingObjects ? "single" : (p.collection.map { $0 == .dictionary ? "map" : $0.rawValue } ?? "single"))),
                                         ("optional", .bool(p.isNullable)), ("indexed", .bool(p.isIndexed)), ("primaryKey", .bool(p.isPrimaryKey)),
                                         ("target", p.targetClass.map { .string($0) } ?? .null),
                                         ("originProperty", p.originProperty.map { .string($0) } ?? .null)])
                             }))])
                })),
            ]))
            return 0
        }
        if swift {
            try out.line("import RealmSwift")
            for c in realm.classes {
                try out.line("")
                try out.line("class \(c.name): \(c.isEmbedded ? "EmbeddedObject" : "Object") {")
                for p in c.properties {
                    let attrs = p.isPrimaryKey ? "(primaryKey: true)" : (p.isIndexed ? "(indexed: true)" : "")
                    try out.line("    @Persisted\(attrs) var \(p.name): \(swiftType(p))")
                }
                for b in c.backlinks {
                    if let origin = b.targetClass, let property = b.originProperty {
                        let name = origin.prefix(1).lowercased() + origin.dropFirst() + "s"
                        try out.line("    @Persisted(originProperty: \"\(property)\") var \(name): LinkingObjects<\(origin)>")
                    }
                }
                try out.line("}")
            }
            return 0
        }
        try out.line("Realm file, format \(realm.formatVersion); schema version " + (realm.schemaVersion.map(String.init) ?? "none"))
        for c in realm.classes {
            try out.line("")
            try out.line("\(c.name)\(c.isEmbedded ? " (embedded)" : "")")
            for p in c.properties {
                var notes: [String] = []
                if p.isPrimaryKey { notes.append("primary key") } else if p.isIndexed { notes.append("indexed") }
                try out.line("  " + pad(p.name, 20) + " " + swiftType(p) + (notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")"))
            }
            for b in c.backlinks {
                try out.line("  " + pad("(backlinks)", 20) + " LinkingObjects<\(b.targetClass ?? "?")> via \(b.originProperty ?? "?")")
            }
        }
        return 0
    }

    // MARK: export

    /// JSON text of a value in the shape `strata export` writes for Strata files.
    static func json(_ v: RealmValue, _ realm: RealmFile, mixed: Bool) throws -> String {
        func tagged(_ tag: String, _ text: String) -> String { mixed ? "{\(JSON.quote(tag)):\(JSON.quote(text))}" : JSON.quote(text) }
        switch v {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .float(f): return mixed ? tagged("$float", "\(f)") : (f.isFinite ? "\(f)" : JSON.quote("\(f)"))
        case let .double(d): return d.isFinite ? "\(d)" : tagged("$double", "\(d)")
        case let .string(s): return JSON.quote(s)
        case let .binary(b): return tagged("$data", Data(b).base64EncodedString())
        case let .timestamp(s, n):
            return tagged("$date", ValueConversion.isoDate(Date(timeIntervalSince1970: Double(s) + Double(n) / 1e9)))
        case let .objectId(o): return tagged("$oid", o.description)
        case let .uuid(u): return tagged("$uuid", u.description.uppercased())
        case let .decimal128(d): return tagged("$decimal", d.description)
        case let .link(cls, key):
            guard let c = realm.realmClass(named: cls), let o = try realm.object(withKey: key, in: cls) else { return "null" }
            if c.isEmbedded { return try object(c, o, realm) }
            if mixed { return "{\"$link\":{\"class\":\(JSON.quote(cls)),\"key\":\(key)}}" }
            if let pk = c.primaryKey, let i = c.properties.firstIndex(where: { $0.name == pk }) { return try json(o.values[i], realm, mixed: false) }
            return String(key)
        case let .list(x), let .set(x): return "[" + (try x.map { try json($0, realm, mixed: mixed) }.joined(separator: ",")) + "]"
        case let .dictionary(d): return "{" + (try d.map { JSON.quote($0.key) + ":" + (try json($0.value, realm, mixed: mixed)) }.joined(separator: ",")) + "}"
        }
    }

    static func object(_ c: RealmClass, _ o: RealmObject, _ realm: RealmFile) throws -> String {
        "{" + (try zip(c.properties, o.values).map { p, v in JSON.quote(p.name) + ":" + (try json(v, realm, mixed: p.type == .mixed)) }.joined(separator: ",")) + "}"
    }

    /// A value as `strata query` shows it in a table cell (the Strata file's conventions:
    /// `null`, dates in local time, `<n bytes>`, `→ primary key` for links, `[n Type]` for
    /// collections).
    static func cellText(_ p: RealmProperty, _ v: RealmValue, _ realm: RealmFile) throws -> String {
        if p.collection != nil {
            let n: Int
            switch v {
            case let .list(x), let .set(x): n = x.count
            case let .dictionary(d): n = d.count
            default: n = 0
            }
            return "[\(n) \(p.type == .link ? (p.targetClass ?? "Object") : elementName(p.type))]"
        }
        switch v {
        case .null: return "null"
        case let .string(s): return s.replacingOccurrences(of: "\n", with: "⏎")
        case let .timestamp(s, n): return Formatting.dateTime(Date(timeIntervalSince1970: Double(s) + Double(n) / 1e9))
        case let .binary(b): return "<\(b.count) bytes>"
        case let .float(f): return ValueConversion.numberText(.float(f))
        case let .double(d): return ValueConversion.numberText(.double(d))
        case let .link(cls, key):
            guard let target = realm.realmClass(named: cls), let o = try realm.object(withKey: key, in: cls) else { return "#\(key)" }
            if let pk = target.primaryKey, let i = target.properties.firstIndex(where: { $0.name == pk }) { return "→ " + o.values[i].description }
            if target.isEmbedded {
                return "{" + o.values.filter { !$0.isNull && !isCollection($0) }.prefix(2).map(\.description).joined(separator: ", ") + "}"
            }
            return "→ #\(key)"
        case let .list(x), let .set(x): return "[\(x.count) AnyRealmValue]"
        case let .dictionary(d): return "[\(d.count) AnyRealmValue]"
        default: return v.description
        }
    }

    /// The type word `strata query` shows for collection elements (as for Strata files).
    static func elementName(_ t: RealmPropertyType) -> String {
        switch t {
        case .int: "Int"
        case .bool: "Bool"
        case .string: "String"
        case .binary: "Data"
        case .mixed, .typedLink: "AnyRealmValue"
        case .timestamp: "Date"
        case .float: "Float"
        case .double: "Double"
        case .decimal128: "Decimal128"
        case .link, .linkingObjects: "Object"
        case .objectId: "ObjectId"
        case .uuid: "UUID"
        }
    }

    static func isCollection(_ v: RealmValue) -> Bool {
        switch v {
        case .list, .set, .dictionary: return true
        default: return false
        }
    }

    static func csvField(_ p: RealmProperty, _ v: RealmValue, _ realm: RealmFile) throws -> String {
        if case .null = v { return "" }
        if case let .string(s) = v, p.collection == nil, p.type != .mixed { return CSV.quote(s, force: s.isEmpty) }
        let text = try json(v, realm, mixed: p.type == .mixed)
        if p.collection != nil || p.type == .mixed || text.hasPrefix("{") { return CSV.quote(text, force: true) }
        if text.hasPrefix("\""), let decoded = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String {
            return CSV.quote(decoded, force: decoded.isEmpty)
        }
        return text
    }

    static func export(_ path: String, className: String?, format: TransferFormat, output: String?, common: CommonOptions, out stdout: CommandOutput) throws -> Int32 {
        let realm = try open(path, common: common)
        let classes: [RealmClass]
        if let className {
            guard let c = realm.classes.first(where: { $0.name == className }) else {
                throw CLIError("no class named '\(className)' in \(path) (classes: \(realm.classes.map(\.name).joined(separator: ", ")))", code: ExitCode32.badInput)
            }
            if c.isEmbedded { throw CLIError("\(className) is embedded: its objects are exported inside their parents", code: ExitCode32.badInput) }
            classes = [c]
        } else {
            classes = realm.classes.filter { !$0.isEmbedded }
        }
        let file = try output.flatMap { $0 == "-" ? nil : try FileOutput(path: $0, protecting: [path]) }
        let out: CommandOutput = file ?? stdout
        do {
            if format == .csv {
                let c = classes[0]
                try out.write(c.properties.map { CSV.quote($0.name, force: false) }.joined(separator: ",") + "\n")
                for i in 0..<c.objectCount {
                    let o = try realm.object(at: i, in: c.name)
                    try out.write(try zip(c.properties, o.values).map { try csvField($0, $1, realm) }.joined(separator: ",") + "\n")
                }
            } else {
                if className == nil { try out.write("{\n") }
                for (index, c) in classes.enumerated() {
                    if className == nil { try out.write(JSON.quote(c.name) + ": ") }
                    try out.write("[")
                    for i in 0..<c.objectCount {
                        try out.write((i == 0 ? "\n" : ",\n") + (try object(c, try realm.object(at: i, in: c.name), realm)))
                    }
                    try out.write(c.objectCount == 0 ? "]" : "\n]")
                    if className == nil { try out.write(index < classes.count - 1 ? ",\n" : "\n") }
                }
                try out.write(className == nil ? "}\n" : "\n")
            }
        } catch let e as RealmFileError {
            throw CLIError("\(path): \(e.description)", code: ExitCode32.badFile)
        }
        try file?.close()
        try out.flush()
        return 0
    }
}
