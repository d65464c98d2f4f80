import Foundation
import StrataObjects
import StrataRealm

extension FileReports {
    /// `strata space`: where the bytes of the file go, and what compaction would give back.
    /// For Realm files: bytes per class, column and index (from the node tree), the internal
    /// tables apart, free space by extent size and by the version that freed it, history.
    package static func space(_ file: ReadableFile, path: String) throws -> CommandReport {
        switch file {
        case .strata(let db): return try strataSpace(db, path: path)
        case .realm(let realm):
            let r: RealmSpaceReport
            do { r = try realm.spaceReport() } catch { throw BrowserError("\(path): \(error)") }
            return realmSpace(r, realm: realm, path: path)
        }
    }

    private static func strataSpace(_ db: Database, path file: String) throws -> CommandReport {
        let stats = try db.store.spaceStatistics()
        let report = try DatabaseReports.space(database: db, stats: stats)
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

        var out: [String] = []
        out.append("File      \(file) (version \(stats.version))")
        out.append("Total     \(bytesText(report.totalBytes))")
        out.append("Used      \(bytesText(report.usedBytes))  \(Formatting.percent(report.usedBytes, of: report.totalBytes))")
        out.append("Free      \(bytesText(report.freeBytes))  \(Formatting.percent(report.freeBytes, of: report.totalBytes))")
        out.append("Locked    \(bytesText(report.lockedBytes))  (free, but still seen by readers)")
        out.append("")
        out.append("By class (columns estimated from a sample of clusters)")
        var names: [String] = []
        for c in report.classes {
            names.append(c.name)
            names += c.columns.map { "  " + $0.name }
            names += c.indexes.map { "  index " + $0.name }
        }
        let width = max(16, names.map { DisplayWidth.of($0) }.max() ?? 0)
        for c in report.classes {
            out.append("  " + pad(c.name, width) + pad(Formatting.bytes(c.totalBytes), 12, right: true))
            for column in c.columns { out.append("    " + pad(column.name, width - 2) + pad(Formatting.bytes(column.bytes), 12, right: true)) }
            for index in c.indexes { out.append("    " + pad("index " + index.name, width - 2) + pad(Formatting.bytes(index.bytes), 12, right: true)) }
        }
        out.append("")
        out.append("Free space by extent size")
        for b in report.freeBySize {
            let range = "\(Formatting.bytes(b.minBytes)) – " + (b.maxBytes.map { Formatting.bytes($0) } ?? "…")
            out.append("  " + pad(range, 24) + pad("\(b.extents) extents", 14, right: true) + pad(Formatting.bytes(b.bytes), 12, right: true))
        }
        out.append("")
        out.append("Free space by the version that freed it")
        if report.freeByVersion.isEmpty { out.append("  (none)") }
        for f in report.freeByVersion.suffix(20) {
            out.append("  " + pad(f.version == 0 ? "free for all" : "v\(f.version)", 14) + pad(Formatting.bytes(f.bytes), 12, right: true) + (f.isLocked ? "  locked" : ""))
        }
        out.append("")
        out.append(stats.compactionSummary)
        return CommandReport(lines: out, json: .object(fields))
    }

    private static func realmSpace(_ r: RealmSpaceReport, realm: RealmFile, path: String) -> CommandReport {
        func classJSON(_ c: RealmSpaceReport.ClassSpace) -> JSON {
            .object([("name", .string(c.name)), ("objects", .int(c.objectCount)), ("bytes", .int(c.totalBytes)),
                     ("clusterBytes", .int(c.clusterBytes)),
                     ("columns", .array(c.columns.map { .object([("name", .string($0.name)), ("bytes", .int($0.bytes)), ("indexBytes", .int($0.indexBytes))]) }))])
        }
        let classes = r.classes.filter { $0.kind != .internalTable }
        let internals = r.classes.filter { $0.kind == .internalTable }
        let json: JSON = .object([
            ("file", .string(path)), ("totalBytes", .int(r.fileSize)), ("freeBytes", .int(r.freeBytes)),
            ("historyBytes", .int(r.historyBytes)), ("reclaimableBytes", .int(r.reclaimableBytes)),
            ("compactedBytes", .int(max(0, r.fileSize - r.reclaimableBytes))),
            ("classes", .array(classes.map(classJSON))),
            ("internalTables", .array(internals.map(classJSON))),
            ("freeBySize", .array(r.freeBySize.map { .object([("minBytes", .int($0.minSize)), ("extents", .int($0.extents)), ("bytes", .int($0.bytes))]) })),
            ("freeByVersion", .array(r.freeByVersion.map { .object([("version", $0.version.map { .int($0) } ?? .null), ("bytes", .int($0.bytes))]) })),
        ])
        var out: [String] = []
        out.append("File      \(path) (Realm file, format \(realm.formatVersion), read-only)")
        out.append("Total     \(bytesText(Int64(r.fileSize)))")
        out.append("Free      \(bytesText(Int64(r.freeBytes)))  \(Formatting.percent(Int64(r.freeBytes), of: Int64(r.fileSize)))")
        out.append("History   \(bytesText(Int64(r.historyBytes)))")
        var names = r.classes.map(\.name)
        for c in r.classes { names += c.columns.map { "  " + $0.name } }
        let width = max(18, names.map { DisplayWidth.of($0) }.max() ?? 0)
        func section(_ title: String, _ list: [RealmSpaceReport.ClassSpace]) {
            out.append("")
            out.append(title)
            for c in list {
                let note = c.kind == .plainTable ? "  (table written without the object store)" : ""
                out.append("  " + pad(c.name, width) + pad(Formatting.number(c.objectCount) + " obj", 12, right: true) + pad(Formatting.bytes(Int64(c.totalBytes)), 12, right: true) + note)
                out.append("    " + pad("(clusters, keys)", width - 2) + pad("", 12) + pad(Formatting.bytes(Int64(c.clusterBytes)), 12, right: true))
                for col in c.columns where col.bytes > 0 || col.indexBytes > 0 {
                    out.append("    " + pad(col.name, width - 2) + pad("", 12) + pad(Formatting.bytes(Int64(col.bytes)), 12, right: true)
                               + (col.indexBytes > 0 ? "  + index \(Formatting.bytes(Int64(col.indexBytes)))" : ""))
                }
            }
        }
        section("By class (objects, then bytes of clusters, columns and indexes)", classes)
        if classes.isEmpty { out.append("  (none)") }
        if !internals.isEmpty { section("Internal tables (the object store's bookkeeping: schema version, primary keys)", internals) }
        out.append("")
        out.append("Free space by extent size")
        if r.freeBySize.isEmpty { out.append("  (none)") }
        for b in r.freeBySize {
            let range = "\(Formatting.bytes(Int64(b.minSize))) – \(Formatting.bytes(Int64(b.minSize * 2 - 1)))"
            out.append("  " + pad(range, 24) + pad("\(b.extents) extents", 14, right: true) + pad(Formatting.bytes(Int64(b.bytes)), 12, right: true))
        }
        out.append("")
        out.append("Free space by the version that freed it")
        if r.freeByVersion.isEmpty { out.append("  (none)") }
        for f in r.freeByVersion.suffix(20) {
            out.append("  " + pad(f.version.map { "v\($0)" } ?? "(no version)", 14) + pad(Formatting.bytes(Int64(f.bytes)), 12, right: true))
        }
        out.append("")
        out.append("Compaction (with a Realm SDK, or after 'strata convert') would give back about \(Formatting.bytes(Int64(r.reclaimableBytes))) (\(Formatting.percent(Int64(r.reclaimableBytes), of: Int64(r.fileSize))))")
        return CommandReport(lines: out, json: json)
    }
}
