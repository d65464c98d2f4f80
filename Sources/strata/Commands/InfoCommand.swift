import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Info: StrataSubcommand {
    static let configuration = CommandConfiguration(abstract: "Versions, sizes, classes with counts, participants and readers.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        if RealmFileCommands.isRealmFile(file) { return try RealmFileCommands.info(file, json: json, common: common, out: out) }
        let db = try common.open(file, readOnly: true, label: "strata info")
        defer { db.close() }
        let stats = try db.store.spaceStatistics()
        let txn = try db.read(label: "strata info")
        let classes = try db.schema.objectSchemas.map { ($0, try txn.count($0.className)) }
        let version = txn.version
        txn.end()
        let me = getpid()
        let participants = db.store.participants().filter { $0.pid != me }
        let readers = db.store.readers().filter { $0.pid != me }
        let warnings = db.store.openWarnings
        let holder = db.store.writeLockHolder
        if json {
            try out.json(.object([
                ("file", .string(file)),
                ("formatVersion", .int(MetaSlot.formatVersion)),
                ("version", .int(version)),
                ("totalBytes", .int(stats.totalBytes)),
                ("usedBytes", .int(stats.usedBytes)),
                ("freeBytes", .int(stats.freeBytes)),
                ("lockedBytes", .int(stats.lockedBytes)),
                ("classes", .array(classes.map { os, count in
                    .object([("name", .string(os.className)), ("count", .int(count)), ("embedded", .bool(os.isEmbedded))])
                })),
                ("participants", .array(participants.map { p in
                    .object([("pid", .int(p.pid)), ("label", .string(p.label)),
                             ("openedAt", .string(isoTime(Date(timeIntervalSince1970: Double(p.openedAt) / 1e9))))])
                })),
                ("readers", .array(readers.map(readerJSON))),
                ("warnings", .array(warnings.map { .string($0.description) })),
                ("writeLock", holder.map { h -> JSON in
                    .object([("pid", .int(h.pid)), ("label", .string(h.label)),
                             ("since", .string(isoTime(Date(timeIntervalSince1970: Double(h.since) / 1e9)))), ("alive", .bool(h.isAlive))])
                } ?? .null),
            ]))
            return 0
        }
        try out.line("File          \(file)")
        try out.line("Format        \(MetaSlot.formatVersion)")
        try out.line("Version       \(version)")
        try out.line("Size          \(bytesText(Int64(stats.totalBytes)))")
        try out.line("Used          \(bytesText(Int64(stats.usedBytes)))")
        try out.line("Free          \(bytesText(Int64(stats.freeBytes)))")
        try out.line("Locked        \(bytesText(Int64(stats.lockedBytes)))")
        try out.line("Classes")
        let width = max(12, classes.map { DisplayWidth.of($0.0.className) }.max() ?? 0)
        for (os, count) in classes {
            try out.line("  " + pad(os.className, width) + "  " + pad(Formatting.number(count), 12, right: true) + (os.isEmbedded ? "  (embedded)" : ""))
        }
        try out.line("Participants  " + (participants.isEmpty ? "none besides this command" : ""))
        for p in participants { try out.line("  pid \(p.pid)  \(p.label)") }
        try out.line("Readers       " + (readers.isEmpty ? "none" : ""))
        for r in readers { try out.line("  pid \(r.pid)  \(r.label)  pins version \(r.version)\(r.isAlive ? "" : "  (dead)")") }
        try out.line("Write lock    " + (holder.map { "held by \($0)" + ($0.isAlive ? "" : " (dead)") } ?? "free"))
        for w in warnings { try out.line("warning: \(w)") }
        return 0
    }
}

func readerJSON(_ r: StrataStorage.ReaderInfo) -> JSON {
    .object([("pid", .int(r.pid)), ("label", .string(r.label)), ("version", .int(r.version)),
             ("since", .string(isoTime(Date(timeIntervalSince1970: Double(r.since) / 1e9)))), ("alive", .bool(r.isAlive))])
}
