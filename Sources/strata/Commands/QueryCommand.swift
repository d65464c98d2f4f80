import ArgumentParser
import Foundation
import Strata
import StrataRealm
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Query: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Objects of a class matching a Realm Query Language predicate, as a table or JSON.",
        discussion: "Example: strata query demo.strata Person 'age > 30 AND name BEGINSWITH[c] \"a\" SORT(age DESC)' --limit 10")

    @Argument(help: "The database file.") var file: String
    @Argument(help: "The class to query.") var className: String
    @Argument(help: "The query (RQL), e.g. \"age > 30 SORT(name ASC)\".") var query: String
    @Flag(help: "Print a JSON array of objects (the export format).") var json = false
    @Option(help: "At most this many objects.") var limit: Int?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be zero or more (it is \(limit))") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        if ReadableFile.isRealmFile(file) { return try runOnRealmFile(output: out) }
        let db = try common.open(file, readOnly: true, label: "strata query")
        defer { db.close() }
        guard let os = db.schema[className] else {
            throw CLIError("no class named '\(className)' in \(file) (classes: \(db.schema.classNames.joined(separator: ", ")))", code: ExitCode32.badInput)
        }
        let txn = try db.read(label: "strata query")
        defer { txn.end() }
        var keys: [ObjKey]
        do {
            keys = try DatabaseDataSource.filterKeys(txn, schema: db.schema, className: className, query: query)
        } catch let e as BrowserError {
            throw CLIError("bad query: \(e.message)" + (e.message.contains("position") ? "" : e.position.map { " (at \($0 + 1))" } ?? ""), code: ExitCode32.badInput)
        }
        if let limit { keys = Array(keys.prefix(limit)) }
        let exporter = Exporter(txn: txn)
        if json { return try printJSON(keys.map { try exporter.jsonObject(os, key: $0) }, out) }
        let properties = os.properties.filter { $0.type != .linkingObjects }
        var table: [[String]] = [properties.map(\.name)]
        for key in keys {
            table.append(try properties.map { p in try cellText(txn, os, key, p) })
        }
        return try printTable(table, out)
    }

    /// The query on a Realm file: the same query layer (parser, binder, evaluator, value
    /// order) run over the reader; the same table and JSON shapes as for Strata files.
    func runOnRealmFile(output out: CommandOutput) throws -> Int32 {
        let realm = try openRealmFile(file, key: try common.key())
        guard let c = realm.realmClass(named: className) else {
            throw CLIError("no class named '\(className)' in \(file) (classes: \(realm.browsableClasses.map(\.name).joined(separator: ", ")))", code: ExitCode32.badInput)
        }
        var rows: [Int]
        do {
            rows = try RealmQueryRunner(realm: realm).rows(className: className, query: query)
        } catch let e as BrowserError {
            throw CLIError("bad query: \(e.message)" + (e.message.contains("position") ? "" : e.position.map { " (at \($0 + 1))" } ?? ""), code: ExitCode32.badInput)
        }
        if let limit { rows = Array(rows.prefix(limit)) }
        do {
            let objects = try rows.map { try realm.object(at: $0, in: className) }
            if json { return try printJSON(try objects.map { try RealmExport.object(c, $0, realm) }, out) }
            var table: [[String]] = [c.properties.map(\.name)]
            for o in objects { table.append(try zip(c.properties, o.values).map { try RealmExport.cellText($0, $1, realm) }) }
            return try printTable(table, out)
        } catch let e as RealmFileError {
            throw CLIError("\(file): \(e.description)", code: ExitCode32.badFile)
        }
    }

    func printJSON(_ objects: [String], _ out: CommandOutput) throws -> Int32 {
        try out.write("[")
        for (i, o) in objects.enumerated() { try out.write((i == 0 ? "\n" : ",\n") + o) }
        try out.write(objects.isEmpty ? "]\n" : "\n]\n")
        return 0
    }

    /// The header row, a rule, the rows (cells cut to 32 columns) and the object count.
    func printTable(_ table: [[String]], _ out: CommandOutput) throws -> Int32 {
        let properties = table[0]
        let count = table.count - 1
        let widths = properties.indices.map { column in min(32, table.map { DisplayWidth.of($0[column]) }.max() ?? 0) }
        for (index, row) in table.enumerated() {
            let line = row.enumerated().map { pad(truncate($0.element, widths[$0.offset]), widths[$0.offset]) }.joined(separator: "  ")
            try out.write(line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n")
            if index == 0 { try out.write(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n") }
        }
        try out.write("(\(Formatting.number(count)) object\(count == 1 ? "" : "s"))\n")
        return 0
    }

    func truncate(_ s: String, _ width: Int) -> String {
        if DisplayWidth.of(s) <= width { return s }
        var out = ""
        var w = 0
        for c in s {
            let cw = DisplayWidth.of(c)
            if w + cw > width - 1 { break }
            out.append(c)
            w += cw
        }
        return out + "…"
    }

    func cellText(_ txn: DBTransaction, _ os: ObjectSchema, _ key: ObjKey, _ p: PropertySchema) throws -> String {
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
}
