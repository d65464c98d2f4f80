import Foundation
import StrataObjects
import StrataRealm

/// What `strata query` prints: the matching objects as JSON (the export format, one object
/// per element) or as a table (a header row of property names, then one row of cell texts per
/// object).
package enum QueryOutput {
    case json([String])
    case table([[String]])
}

extension FileReports {
    /// `strata query`: the objects of `className` matching `query` (RQL, with its SORT /
    /// DISTINCT / LIMIT), at most `limit` of them. The query layer runs over either kind of
    /// file (the engine's executor on a Strata file, the evaluator over the reader on a Realm
    /// file), so a query means the same on both. An unknown class or a bad query is a
    /// ``BrowserError`` whose message the command prints as it is.
    package static func query(_ file: ReadableFile, path: String, className: String, query: String, limit: Int?, json: Bool) throws -> QueryOutput {
        switch file {
        case .strata(let db): return try strataQuery(db, path: path, className: className, query: query, limit: limit, json: json)
        case .realm(let realm): return try realmQuery(realm, path: path, className: className, query: query, limit: limit, json: json)
        }
    }

    private static func badQuery(_ e: BrowserError) -> BrowserError {
        BrowserError("bad query: \(e.message)" + (e.message.contains("position") ? "" : e.position.map { " (at \($0 + 1))" } ?? ""))
    }

    private static func strataQuery(_ db: Database, path: String, className: String, query: String, limit: Int?, json: Bool) throws -> QueryOutput {
        guard let os = db.schema[className] else {
            throw BrowserError("no class named '\(className)' in \(path) (classes: \(db.schema.classNames.joined(separator: ", ")))")
        }
        let txn = try db.read(label: "strata query")
        defer { txn.end() }
        var keys: [ObjKey]
        do {
            keys = try DatabaseDataSource.filterKeys(txn, schema: db.schema, className: className, query: query)
        } catch let e as BrowserError {
            throw badQuery(e)
        }
        if let limit { keys = Array(keys.prefix(limit)) }
        let exporter = Exporter(txn: txn)
        if json { return .json(try keys.map { try exporter.jsonObject(os, key: $0) }) }
        let properties = os.properties.filter { $0.type != .linkingObjects }
        var table: [[String]] = [properties.map(\.name)]
        for key in keys {
            table.append(try properties.map { p in try cellText(txn, os, key, p) })
        }
        return .table(table)
    }

    /// A Strata value as `strata query` shows it in a table cell.
    private static func cellText(_ txn: DBTransaction, _ os: ObjectSchema, _ key: ObjKey, _ p: PropertySchema) throws -> String {
        if p.collection != .single {
            let n = try txn.collectionCount(os.className, key, p.name)
            return "[\(n) \(p.objectClassName ?? ValueConversion.describe(p, in: txn.schema).type.displayName)]"
        }
        let v = try txn.value(os.className, key, p.name)
        switch v {
        case .null: return "null"
        case .string(let s): return s.replacingOccurrences(of: "\n", with: "⏎")
        case .date(let d): return Formatting.dateTime(d)
        case .data(let d): return "<\(d.count) bytes>"
        case .float, .double: return ValueConversion.numberText(v)
        case .uuid(let u): return ValueConversion.uuidText(u)
        case .object(let l):
            guard let target = txn.schema[l.className] else { return "#\(l.key)" }
            if let pk = target.primaryKeyProperty { return "→ " + (try txn.value(l.className, l.key, pk.name)).description }
            if target.isEmbedded {
                let values = try txn.values(l.className, l.key)
                return "{" + target.properties.compactMap { values[$0.name].flatMap { $0.isNull ? nil : $0.description } }.prefix(2).joined(separator: ", ") + "}"
            }
            return "→ #\(l.key)"
        default: return v.description
        }
    }

    /// The same query layer (parser, binder, evaluator, value order) run over the reader; the
    /// same table and JSON shapes as for Strata files. Read errors are `RealmFileError`s.
    private static func realmQuery(_ realm: RealmFile, path: String, className: String, query: String, limit: Int?, json: Bool) throws -> QueryOutput {
        guard let c = realm.realmClass(named: className) else {
            throw BrowserError("no class named '\(className)' in \(path) (classes: \(realm.browsableClasses.map(\.name).joined(separator: ", ")))")
        }
        var rows: [Int]
        do {
            rows = try RealmQueryRunner(realm: realm).rows(className: className, query: query)
        } catch let e as BrowserError {
            throw badQuery(e)
        }
        if let limit { rows = Array(rows.prefix(limit)) }
        let objects = try rows.map { try realm.object(at: $0, in: className) }
        if json { return .json(try objects.map { try RealmExport.object(c, $0, realm) }) }
        var table: [[String]] = [c.properties.map(\.name)]
        for o in objects { table.append(try zip(c.properties, o.values).map { try RealmExport.cellText($0, $1, realm) }) }
        return .table(table)
    }
}
