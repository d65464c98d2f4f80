import Foundation
import XCTest
@testable import StrataRealm

/// Compares what the reader returns with the JSON that realm-core's own API wrote for a fixture
/// (`Fixtures/*.json`, format in `Fixtures/README.md`). Collects every mismatch with its path.
final class RealmOracle {
    let file: RealmFile
    var mismatches: [String] = []
    var checkedValues = 0

    init(file: RealmFile) { self.file = file }

    static func fixtureURL(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    static func loadJSON(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: fixtureURL(name))
        guard let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NSError(domain: "oracle", code: 1)
        }
        return obj
    }

    func fail(_ path: String, _ msg: String) {
        if mismatches.count < 200 { mismatches.append("\(path): \(msg)") }
    }

    /// Checks schema, counts and every object of every class in `json`.
    func checkDocument(_ json: [String: Any]) throws {
        if let f = json["fileFormat"] as? Int, f != file.formatVersion { fail("fileFormat", "\(file.formatVersion) != \(f)") }
        if let sv = (json["schemaVersion"] as? NSNumber)?.int64Value {
            let mine = file.schemaVersion ?? -1
            if mine != sv { fail("schemaVersion", "\(mine) != \(sv)") }
        }
        if let others = json["otherTables"] as? [String] {
            let mine = file.otherTables.map(\.name).sorted()
            if mine != others.sorted() { fail("otherTables", "\(mine) != \(others)") }
        }
        guard let classes = json["classes"] as? [String: Any] else { return fail("classes", "missing") }
        let mineNames = Set(file.classes.map(\.name))
        if mineNames != Set(classes.keys) { fail("classes", "\(mineNames.sorted()) != \(classes.keys.sorted())") }
        for (name, any) in classes.sorted(by: { $0.key < $1.key }) {
            guard let c = any as? [String: Any] else { continue }
            try checkClass(name, c)
        }
    }

    func checkClass(_ name: String, _ c: [String: Any]) throws {
        guard let cls = file.realmClass(named: name) else { return fail(name, "class missing") }
        if (c["table"] as? String) != cls.tableName { fail(name, "table \(cls.tableName)") }
        if let tk = (c["tableKey"] as? NSNumber)?.int64Value, tk != cls.tableKey { fail(name, "tableKey \(cls.tableKey) != \(tk)") }
        if (c["primaryKey"] as? String) != cls.primaryKey { fail(name, "primaryKey \(String(describing: cls.primaryKey))") }
        if (c["embedded"] as? Bool) != cls.isEmbedded { fail(name, "embedded \(cls.isEmbedded)") }
        if (c["objectCount"] as? Int) != cls.objectCount { fail(name, "objectCount \(cls.objectCount) != \(c["objectCount"] ?? "")") }
        let props = c["properties"] as? [[String: Any]] ?? []
        if props.count != cls.properties.count { fail(name, "\(cls.properties.count) properties != \(props.count)") }
        for (p, mine) in zip(props, cls.properties) {
            let path = "\(name).\(mine.name)"
            if (p["name"] as? String) != mine.name { fail(path, "name != \(p["name"] ?? "")") }
            if (p["type"] as? String) != mine.type.rawValue { fail(path, "type \(mine.type) != \(p["type"] ?? "")") }
            if (p["nullable"] as? Bool) != mine.isNullable { fail(path, "nullable \(mine.isNullable)") }
            if (p["collection"] as? String) != mine.collection?.rawValue { fail(path, "collection \(String(describing: mine.collection))") }
            if (p["target"] as? String) != mine.targetClass { fail(path, "target \(String(describing: mine.targetClass))") }
            if (p["indexed"] as? Bool) != mine.isIndexed { fail(path, "indexed \(mine.isIndexed)") }
            if (p["primaryKey"] as? Bool) != mine.isPrimaryKey { fail(path, "primaryKey \(mine.isPrimaryKey)") }
            if let ck = p["colKey"] as? String, ck != String(format: "0x%016llx", mine.columnKey) { fail(path, "colKey \(String(format: "0x%016llx", mine.columnKey)) != \(ck)") }
        }
        if cls.isEmbedded { return }
        let objects = c["objects"] as? [[String: Any]] ?? []
        if objects.count != cls.objectCount { fail(name, "\(objects.count) objects in JSON, \(cls.objectCount) in file") }
        for (i, o) in objects.enumerated() where i < cls.objectCount {
            let obj = try file.object(at: i, in: name)
            checkObject(obj, cls, o, path: "\(name)[\(i)]")
        }
    }

    func checkObject(_ obj: RealmObject, _ cls: RealmClass, _ o: [String: Any], path: String) {
        if let k = (o["$key"] as? NSNumber)?.int64Value, k != obj.key { fail(path, "$key \(obj.key) != \(k)") }
        for (p, v) in zip(cls.properties, obj.values) {
            checkProperty(v, p, o[p.name] ?? NSNull(), path: "\(path).\(p.name)")
        }
        let expectedBacklinks = o["$backlinks"] as? [String: Any] ?? [:]
        var mine: [String: [String]] = [:]
        for (p, v) in zip(cls.backlinks, obj.backlinks) {
            guard case let .list(links) = v, !links.isEmpty else { continue }
            mine[p.name, default: []] += links.map { refText($0) }
        }
        var exp: [String: [String]] = [:]
        for (k, v) in expectedBacklinks { exp[k] = (v as? [Any] ?? []).map { jsonText($0) } }
        for k in Set(mine.keys).union(exp.keys) where (mine[k] ?? []).sorted() != (exp[k] ?? []).sorted() {
            fail("\(path).$backlinks.\(k)", "\((mine[k] ?? []).sorted().prefix(8)) != \((exp[k] ?? []).sorted().prefix(8))")
        }
    }

    func jsonText(_ v: Any) -> String {
        if let s = v as? String { return "\"\(s)\"" }
        if let d = try? JSONSerialization.data(withJSONObject: v, options: [.sortedKeys, .fragmentsAllowed]) { return String(decoding: d, as: UTF8.self) }
        return "\(v)"
    }

    /// How the oracle refers to a linked object: its primary key, or {"$key":n}.
    func refText(_ v: RealmValue) -> String {
        guard case let .link(cn, key) = v else { return "?\(v)" }
        guard let target = file.realmClass(named: cn) else { return "?class \(cn)" }
        if let pk = target.primaryKey, !target.isEmbedded,
           let o = try? file.object(withKey: key, in: cn),
           let pi = target.properties.firstIndex(where: { $0.name == pk }) {
            return jsonText(plain(o.values[pi]))
        }
        return "{\"$key\":\(key)}"
    }

    /// A primary-key value as the oracle writes it.
    func plain(_ v: RealmValue) -> Any {
        switch v {
        case let .int(i): return NSNumber(value: i)
        case let .string(s): return s
        case let .objectId(o): return o.description
        case let .uuid(u): return u.description
        case .null: return NSNull()
        default: return v.description
        }
    }

    func checkProperty(_ v: RealmValue, _ p: RealmProperty, _ e: Any, path: String) {
        switch p.collection {
        case .list?, .set?:
            let items: [RealmValue]
            switch v {
            case let .list(x), let .set(x): items = x
            default: return fail(path, "expected a collection, got \(v)")
            }
            guard let arr = e as? [Any] else { return fail(path, "oracle has no array") }
            if arr.count != items.count { return fail(path, "\(items.count) elements != \(arr.count)") }
            for (i, (m, x)) in zip(items, arr).enumerated() { checkScalar(m, p, x, path: "\(path)[\(i)]") }
        case .dictionary?:
            guard case let .dictionary(entries) = v else { return fail(path, "expected a dictionary, got \(v)") }
            guard let dict = e as? [String: Any] else { return fail(path, "oracle has no object") }
            if dict.count != entries.count { fail(path, "\(entries.count) entries != \(dict.count)") }
            for entry in entries {
                guard let x = dict[entry.key] else { fail(path, "extra key \(entry.key)"); continue }
                checkScalar(entry.value, p, x, path: "\(path)[\(entry.key)]")
            }
        case nil:
            checkScalar(v, p, e, path: path)
        }
    }

    func checkScalar(_ v: RealmValue, _ p: RealmProperty, _ e: Any, path: String) {
        checkedValues += 1
        if p.type == .mixed { return checkMixed(v, e, path: path) }
        if e is NSNull { if !v.isNull { fail(path, "\(v) != null") }; return }
        switch (p.type, v) {
        case (.link, .link(let cn, let key)):
            if let target = file.realmClass(named: cn), target.isEmbedded {
                guard let eo = e as? [String: Any] else { return fail(path, "oracle has no embedded object") }
                do {
                    guard let o = try file.object(withKey: key, in: cn) else { return fail(path, "embedded \(cn) key \(key) missing") }
                    checkObject(o, target, eo, path: "\(path)->\(cn)")
                } catch { fail(path, "\(error)") }
                return
            }
            let mine = refText(v), exp = jsonText(e)
            if mine != exp { fail(path, "\(mine) != \(exp)") }
        default:
            checkPlain(v, e, path: path)
        }
    }

    func checkPlain(_ v: RealmValue, _ e: Any, path: String) {
        switch v {
        case .null: if !(e is NSNull) { fail(path, "null != \(e)") }
        case let .bool(b): if (e as? Bool) != b { fail(path, "\(b) != \(e)") }
        case let .int(i): if (e as? NSNumber)?.int64Value != i { fail(path, "\(i) != \(e)") }
        case let .float(f):
            let x = RealmOracle.number(e)
            if x.isNaN ? !f.isNaN : (Float(x) != f || Float(x).sign != f.sign) { fail(path, "\(f) != \(e)") }
        case let .double(d):
            let x = RealmOracle.number(e)
            if x.isNaN ? !d.isNaN : (x != d || x.sign != d.sign) { fail(path, "\(d) != \(e)") }
        case let .string(s): if (e as? String) != s { fail(path, "\(s.debugDescription.prefix(80)) != \(String(describing: e).prefix(80))") }
        case let .binary(b): if (e as? String) != Data(b).base64EncodedString() { fail(path, "binary of \(b.count) bytes differs") }
        case .timestamp, .objectId, .uuid, .decimal128:
            if (e as? String) != v.description { fail(path, "\(v) != \(e)") }
        default:
            fail(path, "unexpected \(v) for \(e)")
        }
    }

    static func number(_ e: Any) -> Double {
        if let s = e as? String {
            switch s { case "NaN": return .nan; case "Infinity": return .infinity; case "-Infinity": return -.infinity; default: return Double(s) ?? .nan }
        }
        // Re-parse the number's text: Foundation's JSON parser can be one ulp off on 17-digit values.
        guard let n = e as? NSNumber else { return .nan }
        return Double(n.description) ?? n.doubleValue
    }

    func checkMixed(_ v: RealmValue, _ e: Any, path: String) {
        if e is NSNull { if !v.isNull { fail(path, "\(v) != null") }; return }
        guard let t = e as? [String: Any], let type = t["$type"] as? String else { return fail(path, "bad oracle mixed \(e)") }
        let value = t["value"] ?? NSNull()
        switch (type, v) {
        case ("list", .list(let items)):
            guard let arr = value as? [Any], arr.count == items.count else { return fail(path, "list of \(items.count) != \(value)") }
            for (i, (m, x)) in zip(items, arr).enumerated() { checkMixed(m, x, path: "\(path)[\(i)]") }
        case ("dictionary", .dictionary(let entries)):
            guard let dict = value as? [String: Any], dict.count == entries.count else { return fail(path, "dictionary of \(entries.count) != \(value)") }
            for en in entries {
                guard let x = dict[en.key] else { fail(path, "extra key \(en.key)"); continue }
                checkMixed(en.value, x, path: "\(path)[\(en.key)]")
            }
        case ("link", .link(let cn, _)):
            if (t["class"] as? String) != cn { fail(path, "link class \(cn) != \(t["class"] ?? "")") }
            let mine = refText(v), exp = jsonText(value)
            if mine != exp { fail(path, "\(mine) != \(exp)") }
        case ("int", .int), ("bool", .bool), ("float", .float), ("double", .double), ("string", .string),
             ("binary", .binary), ("timestamp", .timestamp), ("objectId", .objectId), ("uuid", .uuid), ("decimal128", .decimal128):
            checkPlain(v, value, path: path)
        default:
            fail(path, "mixed \(type) != \(String(describing: v).prefix(100))")
        }
    }
}
