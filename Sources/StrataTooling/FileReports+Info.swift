import Foundation
import StrataObjects
import StrataRealm
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

extension FileReports {
    /// `strata info`: versions, sizes, classes with counts; for Strata files also participants,
    /// readers and the write lock; for Realm files the format and schema version, and tables
    /// written without the object store (marked).
    package static func info(_ file: ReadableFile, path: String) throws -> CommandReport {
        switch file {
        case .strata(let db): return try strataInfo(db, path: path)
        case .realm(let realm): return realmInfo(realm, path: path)
        }
    }

    private static func strataInfo(_ db: Database, path file: String) throws -> CommandReport {
        let stats = try db.store.spaceStatistics()
        // The format of the newest version (1, or 2 when its free list is stored as a delta).
        let format = Int(try db.store.newestMeta().format)
        let txn = try db.read(label: "strata info")
        let classes = try db.schema.objectSchemas.map { ($0, try txn.count($0.className)) }
        let version = txn.version
        txn.end()
        let me = getpid()
        let participants = db.store.participants().filter { $0.pid != me }
        let readers = db.store.readers().filter { $0.pid != me }
        let warnings = db.store.openWarnings
        let holder = db.store.writeLockHolder
        func isoTime(_ ns: UInt64) -> String { ValueConversion.isoDate(Timestamp(nanosecondsSince1970: Int64(clamping: ns))) }
        var report = CommandReport()
        report.json = .object([
            ("file", .string(file)),
            ("formatVersion", .int(format)),
            ("version", .int(version)),
            ("totalBytes", .int(stats.totalBytes)),
            ("usedBytes", .int(stats.usedBytes)),
            ("freeBytes", .int(stats.freeBytes)),
            ("lockedBytes", .int(stats.lockedBytes)),
            ("classes", .array(classes.map { os, count in
                .object([("name", .string(os.className)), ("count", .int(count)), ("embedded", .bool(os.isEmbedded))])
            })),
            ("participants", .array(participants.map { p in
                .object([("pid", .int(p.pid)), ("label", .string(p.label)), ("openedAt", .string(isoTime(UInt64(p.openedAt))))])
            })),
            ("readers", .array(readers.map { r in
                .object([("pid", .int(r.pid)), ("label", .string(r.label)), ("version", .int(r.version)),
                         ("since", .string(isoTime(UInt64(r.since)))), ("alive", .bool(r.isAlive))])
            })),
            ("warnings", .array(warnings.map { .string($0.description) })),
            ("writeLock", holder.map { h -> JSON in
                .object([("pid", .int(h.pid)), ("label", .string(h.label)), ("since", .string(isoTime(UInt64(h.since)))), ("alive", .bool(h.isAlive))])
            } ?? .null),
        ])
        var out: [String] = []
        out.append("File          \(file)")
        out.append("Format        \(format)")
        out.append("Version       \(version)")
        out.append("Size          \(bytesText(Int64(stats.totalBytes)))")
        out.append("Used          \(bytesText(Int64(stats.usedBytes)))")
        out.append("Free          \(bytesText(Int64(stats.freeBytes)))")
        out.append("Locked        \(bytesText(Int64(stats.lockedBytes)))")
        out.append("Classes")
        let width = max(12, classes.map { DisplayWidth.of($0.0.className) }.max() ?? 0)
        for (os, count) in classes {
            out.append("  " + pad(os.className, width) + "  " + pad(Formatting.number(count), 12, right: true) + (os.isEmbedded ? "  (embedded)" : ""))
        }
        out.append("Participants  " + (participants.isEmpty ? "none besides this command" : ""))
        for p in participants { out.append("  pid \(p.pid)  \(p.label)") }
        out.append("Readers       " + (readers.isEmpty ? "none" : ""))
        for r in readers { out.append("  pid \(r.pid)  \(r.label)  pins version \(r.version)\(r.isAlive ? "" : "  (dead)")") }
        out.append("Write lock    " + (holder.map { "held by \($0)" + ($0.isAlive ? "" : " (dead)") } ?? "free"))
        for w in warnings { out.append("warning: \(w)") }
        report.lines = out
        return report
    }

    private static func realmInfo(_ realm: RealmFile, path: String) -> CommandReport {
        let classes = realm.browsableClasses
        var report = CommandReport()
        report.json = .object([
            ("file", .string(path)), ("kind", .string("realm")), ("formatVersion", .int(realm.formatVersion)),
            ("streamingForm", .bool(realm.isStreamingForm)), ("encrypted", .bool(realm.isEncrypted)),
            ("version", realm.transactionVersion.map { .int($0) } ?? .null),
            ("schemaVersion", realm.schemaVersion.map { .int($0) } ?? .null),
            ("totalBytes", .int(realm.fileSize)),
            ("classes", .array(classes.map { c in
                .object([("name", .string(c.name)), ("count", .int(c.objectCount)), ("embedded", .bool(c.isEmbedded)),
                         ("objectStore", .bool(c.tableKind == .objectStoreClass))])
            })),
            ("internalTables", .array(realm.internalTables.map { .string($0.name) })),
        ])
        var out: [String] = []
        out.append("File          \(path)")
        out.append("Kind          Realm file (realm-core), opened read-only" + (realm.isEncrypted ? ", encrypted" : ""))
        out.append("Format        \(realm.formatVersion)" + (realm.isStreamingForm ? " (streaming form)" : ""))
        if let v = realm.transactionVersion { out.append("Version       \(v)") }
        out.append("Schema        " + (realm.schemaVersion.map { "version \($0)" } ?? "no schema version"))
        out.append("Size          \(bytesText(Int64(realm.fileSize)))")
        out.append("Classes")
        let width = max(12, classes.map { DisplayWidth.of($0.name) }.max() ?? 0)
        for c in classes {
            let note = c.tableKind == .plainTable ? "  (table written without the object store)" : c.isEmbedded ? "  (embedded)" : ""
            out.append("  " + pad(c.name, width) + "  " + pad(Formatting.number(c.objectCount), 12, right: true) + note)
        }
        if classes.isEmpty { out.append("  (none)") }
        report.lines = out
        return report
    }
}
