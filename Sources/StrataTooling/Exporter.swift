import Foundation
import StrataObjects

// MARK: Export

/// Writes objects as JSON or CSV, one object at a time (cluster by cluster), so memory does not
/// grow with the size of the class.
///
/// Values: numbers and booleans as JSON literals (NaN and infinities as the strings `"NaN"`,
/// `"Infinity"`, `"-Infinity"`), strings as strings, Data as base64, dates as ISO 8601 UTC with
/// the stored precision, ObjectId as 24 hex digits, UUID as lower-case text, Decimal128 as a string. Links
/// are the target's primary key, or its object key when the target class has none. Lists and
/// sets are arrays, maps objects, embedded objects nested objects. `AnyRealmValue` values that
/// JSON cannot type (dates, data, …) are tagged: `{"$date": "…"}`, `{"$data": "…"}`,
/// `{"$oid": "…"}`, `{"$uuid": "…"}`, `{"$decimal": "…"}`, `{"$float": "…"}`,
/// `{"$double": "NaN"}`, and links `{"$link": {"class": "Dog", "primaryKey": "rex"}}` (the
/// target's primary key, as plain links, so a Realm file and its converted copy export the same)
/// or `{"$link": {"class": "Dog", "key": 3}}` (the object key) when the target class has none.
/// The tagged form of a link inside an `AnyRealmValue`, shared by the Strata and Realm-file
/// exports so both write the same text.
package enum ExportedLink {
    /// `{"$link":{"class":"Dog","primaryKey":<primaryKeyJSON>}}`.
    package static func mixed(className: String, primaryKeyJSON: String) -> String {
        "{\"$link\":{\"class\":\(JSON.quote(className)),\"primaryKey\":\(primaryKeyJSON)}}"
    }

    /// `{"$link":{"class":"Dog","key":3}}`, for a target class without a primary key.
    package static func mixed(className: String, key: Int64) -> String {
        "{\"$link\":{\"class\":\(JSON.quote(className)),\"key\":\(key)}}"
    }
}

package struct Exporter {
    package let txn: DBTransaction
    package var schema: Schema { txn.schema }

    package init(txn: DBTransaction) { self.txn = txn }

    /// The properties exported (everything stored: backlinks are computed, not exported).
    package func exportedProperties(_ os: ObjectSchema) -> [PropertySchema] { os.storedProperties }

    /// Calls `body` with each object key of a class and its cluster row, in key order.
    package func forEachObject(_ className: String, _ body: (ClusterSnapshot, Int) throws -> Void) throws {
        try txn.forEachCluster(className) { cluster in
            for row in 0..<cluster.count { try body(cluster, row) }
            return true
        }
    }

    /// One object as a single-line JSON object.
    package func jsonObject(_ os: ObjectSchema, key: ObjKey) throws -> String {
        var out = "{"
        var first = true
        for p in exportedProperties(os) {
            if !first { out += "," }
            first = false
            out += JSON.quote(p.name) + ":" + (try jsonProperty(os.className, key, p))
        }
        return out + "}"
    }

    package func jsonProperty(_ className: String, _ key: ObjKey, _ p: PropertySchema) throws -> String {
        switch p.collection {
        case .single:
            return try jsonElement(try txn.value(className, key, p.name), p)
        case .list, .set:
            return "[" + (try txn.list(className, key, p.name).map { try jsonElement($0, p) }.joined(separator: ",")) + "]"
        case .map:
            return "{" + (try txn.map(className, key, p.name).map { JSON.quote($0.key) + ":" + (try jsonElement($0.value, p)) }.joined(separator: ",")) + "}"
        }
    }

    /// One value (a single property or a collection element) as JSON.
    package func jsonElement(_ v: Value, _ p: PropertySchema) throws -> String {
        if case .null = v { return "null" }
        if p.type == .object, case .object(let l) = v {
            guard let target = schema[l.className] else { return "null" }
            if target.isEmbedded { return try jsonObject(target, key: l.key) }
            return try linkJSON(l)
        }
        if p.type == .mixed { return try mixedJSON(v) }
        return scalarJSON(v)
    }

    package func linkJSON(_ l: StrataObjects.ObjectLink) throws -> String {
        guard try txn.exists(l.className, l.key) else { return "null" }
        if let pk = schema[l.className]?.primaryKeyProperty {
            return scalarJSON(try txn.value(l.className, l.key, pk.name))
        }
        return String(l.key)
    }

    package func scalarJSON(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return f.isFinite ? "\(f)" : JSON.quote(ValueConversion.numberText(v))
        case .double(let d): return d.isFinite ? "\(d)" : JSON.quote(ValueConversion.numberText(v))
        case .string(let s): return JSON.quote(s)
        case .data(let d): return JSON.quote(Data(d).base64EncodedString())
        case .date(let d): return JSON.quote(ValueConversion.isoDate(d))
        case .objectId(let o): return JSON.quote(o.stringValue)
        case .uuid(let u): return JSON.quote(ValueConversion.uuidText(u))
        case .decimal(let d): return JSON.quote(d.description)
        case .object(let l): return String(l.key)
        }
    }

    package func mixedJSON(_ v: Value) throws -> String {
        func tagged(_ tag: String, _ text: String) -> String { "{\(JSON.quote(tag)):\(JSON.quote(text))}" }
        switch v {
        case .null, .bool, .int, .string: return scalarJSON(v)
        case .double(let d): return d.isFinite ? "\(d)" : tagged("$double", ValueConversion.numberText(v))
        case .float(let f): return tagged("$float", ValueConversion.numberText(.float(f)))
        case .data(let d): return tagged("$data", Data(d).base64EncodedString())
        case .date(let d): return tagged("$date", ValueConversion.isoDate(d))
        case .objectId(let o): return tagged("$oid", o.stringValue)
        case .uuid(let u): return tagged("$uuid", ValueConversion.uuidText(u))
        case .decimal(let d): return tagged("$decimal", d.description)
        case .object(let l): return try mixedLinkJSON(l)
        }
    }

    /// A link held by an `AnyRealmValue`: `{"$link":{"class":…,"primaryKey":…}}` when the target
    /// class has a primary key, else `{"$link":{"class":…,"key":<object key>}}`; `null` when
    /// the target no longer exists (as ``linkJSON(_:)``).
    package func mixedLinkJSON(_ l: StrataObjects.ObjectLink) throws -> String {
        guard try txn.exists(l.className, l.key) else { return "null" }
        if let pk = schema[l.className]?.primaryKeyProperty {
            return ExportedLink.mixed(className: l.className, primaryKeyJSON: scalarJSON(try txn.value(l.className, l.key, pk.name)))
        }
        return ExportedLink.mixed(className: l.className, key: l.key)
    }

    // MARK: CSV

    /// One object as a CSV record: null is an empty field, an empty string is `""`, collections,
    /// maps, embedded objects and `AnyRealmValue` are their JSON text.
    package func csvRecord(_ os: ObjectSchema, key: ObjKey) throws -> String {
        try exportedProperties(os).map { p -> String in
            if p.collection != .single || p.type == .mixed || isEmbedded(p) {
                let json = try jsonProperty(os.className, key, p)
                return json == "null" ? "" : CSVText.quote(json, force: true)
            }
            let v = try txn.value(os.className, key, p.name)
            switch v {
            case .null: return ""
            case .string(let s): return CSVText.quote(s, force: s.isEmpty)
            case .object(let l):
                let text = try linkJSON(l)
                if text.hasPrefix("\"") { return CSVText.quote(String(text.dropFirst().dropLast()), force: false) }
                return text == "null" ? "" : text
            default:
                let text = scalarJSON(v)
                if text.hasPrefix("\"") {
                    let decoded = decodeJSONString(text)
                    return CSVText.quote(decoded, force: decoded.isEmpty)
                }
                return text
            }
        }.joined(separator: ",")
    }

    package func isEmbedded(_ p: PropertySchema) -> Bool {
        p.type == .object && schema[p.objectClassName ?? ""]?.isEmbedded == true
    }

    private func decodeJSONString(_ text: String) -> String {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String) ?? text
    }
}
