import ArgumentParser
import Foundation
import Strata
import StrataBench
import StrataBrowser
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Versions, sizes, classes with counts, participants and readers.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: true, label: "strata info")
        defer { db.close() }
        let stats = try db.store.spaceStatistics()
        let txn = try db.read(label: "strata info")
        let classes = try db.schema.objectSchemas.map { ($0, try txn.count($0.className)) }
        let version = txn.version
        txn.end()
        let me = getpid()
        let participants = db.store.participants().filter { $0.pid != me }
        let readers = db.store.readers().filter { $0.pid != me }
        if json {
            printJSON(.object([
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
            ]))
            return
        }
        print("File          \(file)")
        print("Format        \(MetaSlot.formatVersion)")
        print("Version       \(version)")
        print("Size          \(bytesText(Int64(stats.totalBytes)))")
        print("Used          \(bytesText(Int64(stats.usedBytes)))")
        print("Free          \(bytesText(Int64(stats.freeBytes)))")
        print("Locked        \(bytesText(Int64(stats.lockedBytes)))")
        print("Classes")
        let width = max(12, classes.map { DisplayWidth.of($0.0.className) }.max() ?? 0)
        for (os, count) in classes {
            print("  " + pad(os.className, width) + "  " + pad(Formatting.number(count), 12, right: true) + (os.isEmbedded ? "  (embedded)" : ""))
        }
        print("Participants  " + (participants.isEmpty ? "none besides this command" : ""))
        for p in participants { print("  pid \(p.pid)  \(p.label)") }
        print("Readers       " + (readers.isEmpty ? "none" : ""))
        for r in readers { print("  pid \(r.pid)  \(r.label)  pins version \(r.version)\(r.isAlive ? "" : "  (dead)")") }
    }
}

func readerJSON(_ r: StrataStorage.ReaderInfo) -> JSON {
    .object([("pid", .int(r.pid)), ("label", .string(r.label)), ("version", .int(r.version)),
             ("since", .string(isoTime(Date(timeIntervalSince1970: Double(r.since) / 1e9)))), ("alive", .bool(r.isAlive))])
}
