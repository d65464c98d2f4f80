import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Space: StrataSubcommand {
    static let configuration = CommandConfiguration(abstract: "Where the bytes of the file go, and what compaction would give back.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        if RealmFileCommands.isRealmFile(file) { return try RealmFileCommands.space(file, json: json, common: common, out: out) }
        let db = try common.open(file, readOnly: true, label: "strata space")
        defer { db.close() }
        let stats = try db.store.spaceStatistics()
        let report = try DatabaseReports.space(database: db, stats: stats)
        if json {
            let classes: [JSON] = report.classes.map { c in
                let columns: [JSON] = c.columns.map { .object([("name", .string($0.name)), ("bytes", .int($0.bytes))]) }
                let indexes: [JSON] = c.indexes.map { .object([("name", .string($0.name)), ("bytes", .int($0.bytes))]) }
                return .object([("name", .string(c.name)), ("bytes", .int(c.totalBytes)), ("columns", .array(columns)), ("indexes", .array(indexes))])
            }
            let bySize: [JSON] = report.freeBySize.map { b in
                let maxBytes: JSON = b.maxBytes.map { .int($0) } ?? .null
                return .object([("minBytes", .int(b.minBytes)), ("maxBytes", maxBytes), ("extents", .int(b.extents)), ("bytes", .int(b.bytes))])
            }
            let byVersion: [JSON] = report.freeByVersion.map { f in
                .object([("version", .int(f.version)), ("bytes", .int(f.bytes)), ("locked", .bool(f.isLocked))])
            }
            var fields: [(String, JSON)] = [("file", .string(file)), ("version", .int(stats.version))]
            fields += [("totalBytes", .int(report.totalBytes)), ("usedBytes", .int(report.usedBytes)), ("freeBytes", .int(report.freeBytes))]
            fields += [("lockedBytes", .int(report.lockedBytes)), ("compactedBytes", .int(report.compactedBytes))]
            fields += [("classes", .array(classes)), ("freeBySize", .array(bySize)), ("freeByVersion", .array(byVersion))]
            fields += [("summary", .string(stats.compactionSummary))]
            try out.json(.object(fields))
            return 0
        }
        try out.line("File      \(file) (version \(stats.version))")
        try out.line("Total     \(bytesText(report.totalBytes))")
        try out.line("Used      \(bytesText(report.usedBytes))  \(Formatting.percent(report.usedBytes, of: report.totalBytes))")
        try out.line("Free      \(bytesText(report.freeBytes))  \(Formatting.percent(report.freeBytes, of: report.totalBytes))")
        try out.line("Locked    \(bytesText(report.lockedBytes))  (free, but still seen by readers)")
        try out.line("")
        try out.line("By class (columns estimated from a sample of clusters)")
        var names: [String] = []
        for c in report.classes {
            names.append(c.name)
            names += c.columns.map { "  " + $0.name }
            names += c.indexes.map { "  index " + $0.name }
        }
        let width = max(16, names.map { DisplayWidth.of($0) }.max() ?? 0)
        for c in report.classes {
            try out.line("  " + pad(c.name, width) + pad(Formatting.bytes(c.totalBytes), 12, right: true))
            for column in c.columns { try out.line("    " + pad(column.name, width - 2) + pad(Formatting.bytes(column.bytes), 12, right: true)) }
            for index in c.indexes { try out.line("    " + pad("index " + index.name, width - 2) + pad(Formatting.bytes(index.bytes), 12, right: true)) }
        }
        try out.line("")
        try out.line("Free space by extent size")
        for b in report.freeBySize {
            let range = "\(Formatting.bytes(b.minBytes)) – " + (b.maxBytes.map { Formatting.bytes($0) } ?? "…")
            try out.line("  " + pad(range, 24) + pad("\(b.extents) extents", 14, right: true) + pad(Formatting.bytes(b.bytes), 12, right: true))
        }
        try out.line("")
        try out.line("Free space by the version that freed it")
        if report.freeByVersion.isEmpty { try out.line("  (none)") }
        for f in report.freeByVersion.suffix(20) {
            try out.line("  " + pad(f.version == 0 ? "free for all" : "v\(f.version)", 14) + pad(Formatting.bytes(f.bytes), 12, right: true) + (f.isLocked ? "  locked" : ""))
        }
        try out.line("")
        try out.line(stats.compactionSummary)
        return 0
    }
}
