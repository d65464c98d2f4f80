import Foundation
import StrataRealm
import StrataStorage

/// A Realm file's objects in the shapes `strata export` and `strata query` use for Strata
/// files: JSON (the export format, tagged values in AnyRealmValue), CSV fields, table cells.
package enum RealmExport {
    /// JSON text of a value in the shape `strata export` writes for Strata files.
    package static func json(_ v: RealmValue, _ realm: RealmFile, mixed: Bool) throws -> String {
        func tagged(_ tag: String, _ text: String) -> String { mixed ? "{\(JSON.quote(tag)):\(JSON.quote(text))}" : JSON.quote(text) }
        switch v {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .int(i): return String(i)
        case let .float(f):
            let text = ValueConversion.numberText(.float(f))
            return mixed ? tagged("$float", text) : (f.isFinite ? text : JSON.quote(text))
        case let .double(d): return d.isFinite ? "\(d)" : tagged("$double", ValueConversion.numberText(.double(d)))
        case let .string(s): return JSON.quote(s)
        case let .binary(b): return tagged("$data", Data(b).base64EncodedString())
        case let .timestamp(s, n):
            // Straight from the stored seconds and nanoseconds (years 0001-9999 included).
            return tagged("$date", iso8601Text(seconds: s, nanoseconds: Int64(n)))
        case let .objectId(o): return tagged("$oid", o.description)
        case let .uuid(u): return tagged("$uuid", u.description)
        case let .decimal128(d): return tagged("$decimal", d.description)
        case let .link(cls, key):
            guard let c = realm.realmClass(named: cls), let row = try realm.index(ofKey: key, in: cls) else { return "null" }
            if c.isEmbedded { return try object(c, try realm.object(at: row, in: cls), realm) }
            // Only the primary key is read (a target may have thousands of backlinks). Inside an
            // AnyRealmValue it is tagged, as the Strata export tags it (the object key only for
            // a class without a primary key: object keys differ between a file and its copy).
            if let pk = c.primaryKey {
                let pkJSON = try json(try realm.value(at: row, property: pk, in: cls), realm, mixed: false)
                return mixed ? ExportedLink.mixed(className: cls, primaryKeyJSON: pkJSON) : pkJSON
            }
            return mixed ? ExportedLink.mixed(className: cls, key: key) : String(key)
        case let .list(x), let .set(x): return "[" + (try x.map { try json($0, realm, mixed: mixed) }.joined(separator: ",")) + "]"
        case let .dictionary(d): return "{" + (try d.map { JSON.quote($0.key) + ":" + (try json($0.value, realm, mixed: mixed)) }.joined(separator: ",")) + "}"
        }
    }

    package static func object(_ c: RealmClass, _ o: RealmObject, _ realm: RealmFile) throws -> String {
        "{" + (try zip(c.properties, o.values).map { p, v in JSON.quote(p.name) + ":" + (try json(v, realm, mixed: p.type == .mixed)) }.joined(separator: ",")) + "}"
    }

    /// A value as `strata query` shows it in a table cell (the Strata file's conventions:
    /// `null`, dates in local time, `<n bytes>`, `→ primary key` for links, `[n Type]` for
    /// collections).
    package static func cellText(_ p: RealmProperty, _ v: RealmValue, _ realm: RealmFile) throws -> String {
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
        case let .timestamp(s, n): return utcDateTimeText(secondsSince1970: n < 0 ? s &- 1 : s)
        case let .binary(b): return "<\(b.count) bytes>"
        case let .float(f): return ValueConversion.numberText(.float(f))
        case let .double(d): return ValueConversion.numberText(.double(d))
        case let .link(cls, key):
            guard let target = realm.realmClass(named: cls), let row = try realm.index(ofKey: key, in: cls) else { return "#\(key)" }
            if let pk = target.primaryKey { return "→ " + (try realm.value(at: row, property: pk, in: cls)).description }
            if target.isEmbedded {
                let o = try realm.object(at: row, in: cls)
                return "{" + o.values.filter { !$0.isNull && !isCollection($0) }.prefix(2).map(\.description).joined(separator: ", ") + "}"
            }
            return "→ #\(key)"
        case let .list(x), let .set(x): return "[\(x.count) AnyRealmValue]"
        case let .dictionary(d): return "[\(d.count) AnyRealmValue]"
        default: return v.description
        }
    }

    /// The type word `strata query` shows for collection elements (as for Strata files).
    package static func elementName(_ t: RealmPropertyType) -> String {
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

    package static func isCollection(_ v: RealmValue) -> Bool {
        switch v {
        case .list, .set, .dictionary: return true
        default: return false
        }
    }

    package static func csvField(_ p: RealmProperty, _ v: RealmValue, _ realm: RealmFile) throws -> String {
        if case .null = v { return "" }
        if case let .string(s) = v, p.collection == nil, p.type != .mixed { return CSVText.quote(s, force: s.isEmpty) }
        let text = try json(v, realm, mixed: p.type == .mixed)
        if p.collection != nil || p.type == .mixed || text.hasPrefix("{") { return CSVText.quote(text, force: true) }
        if text.hasPrefix("\""), let decoded = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String {
            return CSVText.quote(decoded, force: decoded.isEmpty)
        }
        return text
    }

    /// The classes `export` writes: `className` (not embedded), or every top-level class.
    package static func classes(_ realm: RealmFile, className: String?, path: String) throws -> [RealmClass] {
        guard let className else { return realm.browsableClasses.filter { !$0.isEmbedded } }
        guard let c = realm.browsableClasses.first(where: { $0.name == className }) else {
            throw BrowserError("no class named '\(className)' in \(path) (classes: \(realm.browsableClasses.map(\.name).joined(separator: ", ")))")
        }
        if c.isEmbedded { throw BrowserError("\(className) is embedded: its objects are exported inside their parents") }
        return [c]
    }

    /// Writes `classes` as CSV (one class) or JSON (an array for one class, an object of
    /// arrays for all), reading one object at a time.
    package static func write(_ realm: RealmFile, classes: [RealmClass], csv: Bool, single: Bool, to write: (String) throws -> Void) throws {
        if csv {
            let c = classes[0]
            try write(c.properties.map { CSVText.quote($0.name, force: false) }.joined(separator: ",") + "\n")
            for i in 0..<c.objectCount {
                let o = try realm.object(at: i, in: c.name)
                try write(try zip(c.properties, o.values).map { try csvField($0, $1, realm) }.joined(separator: ",") + "\n")
            }
            return
        }
        if !single { try write("{\n") }
        for (index, c) in classes.enumerated() {
            if !single { try write(JSON.quote(c.name) + ": ") }
            try write("[")
            for i in 0..<c.objectCount {
                try write((i == 0 ? "\n" : ",\n") + (try object(c, try realm.object(at: i, in: c.name), realm)))
            }
            try write(c.objectCount == 0 ? "]" : "\n]")
            if !single { try write(index < classes.count - 1 ? ",\n" : "\n") }
        }
        try write(single ? "\n" : "}\n")
    }
}
