import Foundation
import StrataObjects
import StrataRealm

extension FileReports {
    /// `strata schema`: classes and properties as text, as JSON, or (`swift`) as Swift model
    /// classes a developer can paste into an app (RealmSwift's vocabulary for Realm files).
    package static func schema(_ file: ReadableFile, path: String, swift: Bool) -> CommandReport {
        switch file {
        case .strata(let db): return strataSchema(db, path: path, swift: swift)
        case .realm(let realm): return realmSchema(realm, path: path, swift: swift)
        }
    }

    private static func strataSchema(_ db: Database, path file: String, swift: Bool) -> CommandReport {
        let schema = db.schema
        let json: JSON = .object([
            ("file", .string(file)), ("schemaVersion", .int(db.schemaVersion)),
            ("classes", .array(schema.objectSchemas.map { os in
                .object([("name", .string(os.className)), ("embedded", .bool(os.isEmbedded)),
                         ("primaryKey", os.primaryKeyProperty.map { .string($0.name) } ?? .null),
                         ("properties", .array(os.allProperties.map { p in
                            .object([("name", .string(p.name)), ("type", .string(p.type.description)),
                                     ("collection", .string(["single", "list", "set", "map"][Int(p.collection.rawValue)])),
                                     ("optional", .bool(p.isOptional)), ("indexed", .bool(p.isIndexed)), ("primaryKey", .bool(p.isPrimaryKey)),
                                     ("target", p.objectClassName.map { .string($0) } ?? .null),
                                     ("originProperty", p.linkOriginPropertyName.map { .string($0) } ?? .null)])
                         }))])
            })),
        ])
        if swift { return CommandReport(lines: [SwiftModels.render(schema, schemaVersion: db.schemaVersion, file: file)], json: json) }
        return CommandReport(lines: ["Schema version \(db.schemaVersion)", schema.description], json: json)
    }

    private static func realmSchema(_ realm: RealmFile, path: String, swift: Bool) -> CommandReport {
        let classes = realm.browsableClasses
        let json: JSON = .object([
            ("file", .string(path)), ("schemaVersion", realm.schemaVersion.map { .int($0) } ?? .null),
            ("classes", .array(classes.map { c in
                .object([("name", .string(c.name)), ("embedded", .bool(c.isEmbedded)),
                         ("objectStore", .bool(c.tableKind == .objectStoreClass)),
                         ("primaryKey", c.primaryKey.map { .string($0) } ?? .null),
                         ("properties", .array((c.properties + c.backlinks).map { p in
                            .object([("name", .string(p.name)), ("type", .string(typeName(p))),
                                     ("collection", .string(p.type == .linkingObjects ? "single" : (p.collection.map { $0 == .dictionary ? "map" : $0.rawValue } ?? "single"))),
                                     ("optional", .bool(p.isNullable)), ("indexed", .bool(p.isIndexed)), ("primaryKey", .bool(p.isPrimaryKey)),
                                     ("target", p.targetClass.map { .string($0) } ?? .null),
                                     ("originProperty", p.originProperty.map { .string($0) } ?? .null)])
                         }))])
            })),
        ])
        var out: [String] = []
        if swift {
            out.append("import RealmSwift")
            for c in classes {
                out.append("")
                if c.tableKind == .plainTable { out.append("// table '\(c.tableName)' was written without the object store: an SDK sees it only as class_\(c.name)") }
                out.append("class \(c.name): \(c.isEmbedded ? "EmbeddedObject" : "Object") {")
                for p in c.properties {
                    let attrs = p.isPrimaryKey ? "(primaryKey: true)" : (p.isIndexed ? "(indexed: true)" : "")
                    out.append("    @Persisted\(attrs) var \(p.name): \(swiftType(p))")
                }
                for b in c.backlinks {
                    if let origin = b.targetClass, let property = b.originProperty {
                        let name = origin.prefix(1).lowercased() + origin.dropFirst() + "s"
                        out.append("    @Persisted(originProperty: \"\(property)\") var \(name): LinkingObjects<\(origin)>")
                    }
                }
                out.append("}")
            }
            return CommandReport(lines: out, json: json)
        }
        out.append("Realm file, format \(realm.formatVersion); schema version " + (realm.schemaVersion.map(String.init) ?? "none"))
        for c in classes {
            out.append("")
            out.append("\(c.name)\(c.isEmbedded ? " (embedded)" : "")\(c.tableKind == .plainTable ? " (table written without the object store)" : "")")
            for p in c.properties {
                var notes: [String] = []
                if p.isPrimaryKey { notes.append("primary key") } else if p.isIndexed { notes.append("indexed") }
                out.append("  " + pad(p.name, 20) + " " + swiftType(p) + (notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")"))
            }
            for b in c.backlinks {
                out.append("  " + pad("(backlinks)", 20) + " LinkingObjects<\(b.targetClass ?? "?")> via \(b.originProperty ?? "?")")
            }
        }
        return CommandReport(lines: out, json: json)
    }

    /// The type word of a Realm property in `schema --json` (as for Strata properties).
    package static func typeName(_ p: RealmProperty) -> String {
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

    /// The RealmSwift type of a Realm property (`List<Int?>`, `LinkTarget?`, `AnyRealmValue`).
    package static func swiftType(_ p: RealmProperty) -> String {
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
}

/// Swift model definitions (RealmSwift vocabulary) for a schema.
package enum SwiftModels {
    static let keywords: Set<String> = ["class", "struct", "enum", "protocol", "func", "var", "let", "import", "in", "is", "as", "if", "else",
                                        "for", "while", "return", "self", "Self", "super", "init", "default", "case", "switch", "where",
                                        "static", "public", "private", "internal", "operator", "extension", "repeat", "do", "try", "throw",
                                        "nil", "true", "false", "Type", "Protocol", "any", "some", "guard", "defer", "break", "continue"]

    static func identifier(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    package static func render(_ schema: Schema, schemaVersion: UInt64, file: String) -> String {
        var out = "// Swift models for \((file as NSString).lastPathComponent), generated by `strata schema --swift`.\n"
        out += "// Open the file with:\n"
        out += "//   let config = Realm.Configuration(fileURL: URL(fileURLWithPath: \"\(file)\"), schemaVersion: \(schemaVersion),\n"
        out += "//                                    objectTypes: [\(schema.objectSchemas.map { identifier($0.className) + ".self" }.joined(separator: ", "))])\n"
        out += "//   let realm = try Realm(configuration: config)\n"
        out += "import Strata\n"
        for os in schema.objectSchemas {
            out += "\nfinal class \(identifier(os.className)): \(os.isEmbedded ? "EmbeddedObject" : "Object") {\n"
            for p in os.allProperties { out += "    " + declaration(p) + "\n" }
            out += "}\n"
        }
        return out
    }

    static func swiftType(_ t: PropertyType, target: String?) -> String {
        t == .object || t == .linkingObjects ? (target.map(identifier) ?? "Object") : t.swiftTypeName
    }

    static func declaration(_ p: PropertySchema) -> String {
        let name = identifier(p.name)
        if p.type == .linkingObjects {
            return "@Persisted(originProperty: \"\(p.linkOriginPropertyName ?? "")\") var \(name): LinkingObjects<\(swiftType(.object, target: p.objectClassName))>"
        }
        var element = swiftType(p.type, target: p.objectClassName)
        let optionalElement = p.isOptional && p.type != .mixed && (p.type != .object || p.collection == .map)
        switch p.collection {
        case .single:
            if p.type == .object || (p.isOptional && p.type != .mixed) { element += "?" }
            let attribute = p.isPrimaryKey ? "@Persisted(primaryKey: true)" : p.isIndexed ? "@Persisted(indexed: true)" : "@Persisted"
            return "\(attribute) var \(name): \(element)"
        case .list: return "@Persisted var \(name): List<\(element)\(optionalElement ? "?" : "")>"
        case .set: return "@Persisted var \(name): MutableSet<\(element)\(optionalElement ? "?" : "")>"
        case .map: return "@Persisted var \(name): Map<String, \(element)\(optionalElement || p.type == .object ? "?" : "")>"
        }
    }
}
