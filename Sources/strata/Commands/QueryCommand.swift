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
    @Option(parsing: .unconditional, help: "At most this many objects.") var limit: Int?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be zero or more (it is \(limit))") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        let opened = try common.openReadable(file, label: "strata query")
        defer { opened.close() }
        let result: QueryOutput
        do {
            result = try FileReports.query(opened, path: file, className: className, query: query, limit: limit, json: json)
        } catch let e as BrowserError {
            throw CLIError(e.message, code: ExitCode32.badInput)
        } catch let e as RealmFileError {
            throw CLIError("\(file): \(e.description)", code: ExitCode32.badFile)
        }
        switch result {
        case .json(let objects): return try printJSON(objects, out)
        case .table(let table): return try printTable(table, out)
        }
    }

    func printJSON(_ objects: [String], _ out: CommandOutput) throws -> Int32 {
        try out.write("[")
        for (i, o) in objects.enumerated() { try out.write((i == 0 ? "\n" : ",\n") + o) }
        try out.write(objects.isEmpty ? "]\n" : "\n]\n")
        return 0
    }

    /// The header row, a rule, the rows (cells cut to 32 columns) and the object count.
    /// Control characters in values are shown as symbols (``Formatting/visibleText(_:)``).
    func printTable(_ table: [[String]], _ out: CommandOutput) throws -> Int32 {
        let table = table.map { $0.map(Formatting.visibleText) }
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
}
