import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Compact: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Give free space back to the file system.",
        discussion: "A full rewrite needs the file to itself; when another process has it open, strata says so and compacts online instead (as with --online).")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Compact online: relocate data while other processes keep the file open.") var online = false
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        if ReadableFile.isRealmFile(file) { throw refuseRealmWrite(file) }
        let db = try common.open(file, readOnly: false, label: "strata compact")
        defer { db.close() }
        let bar = ProgressBar()
        let progress: CompactionProgressHandler = { bar.update($0.fraction, "compacting") }
        var fallback: String?
        var result: StrataStorage.CompactionResult
        do {
            result = online ? try db.store.compactOnline(progress: progress) : try db.store.compact(progress: progress)
        } catch let StorageError.fileInUse(_, pids, _) where !online {
            let who = pids.isEmpty ? "another handle" : "process" + (pids.count > 1 ? "es " : " ") + pids.map(String.init).joined(separator: ", ")
            fallback = "\(file) is open in \(who): compacting online instead of rewriting the file"
            out.note("strata: " + fallback!)
            result = try db.store.compactOnline(progress: progress)
        } catch StorageError.io(let failed, let operation, let code) where [EACCES, EPERM, EROFS].contains(code) {
            // The full rewrite's new file beside it (a directory this user may not write).
            bar.finish()
            throw writePermissionRefusal(database: file, command: "strata compact", failed: failed, operation: operation)
        }
        bar.finish()
        let mode = online || fallback != nil ? "online" : "full"
        if json {
            try out.json(.object([
                ("file", .string(file)), ("mode", .string(mode)), ("fallback", .bool(fallback != nil)),
                ("beforeBytes", .int(result.beforeBytes)), ("afterBytes", .int(result.afterBytes)), ("savedBytes", .int(result.savedBytes)),
                ("seconds", .double(result.seconds)), ("version", .int(result.version)), ("pendingTailBytes", .int(result.pendingTailBytes)),
                ("phases", result.phases.map { p in .object([("copySeconds", .double(p.copySeconds)), ("syncSeconds", .double(p.syncSeconds)),
                                                            ("replaceSeconds", .double(p.replaceSeconds))]) } ?? .null),
            ]))
            return 0
        }
        try out.line("compacted \(file) (\(mode)): \(Formatting.bytes(Int64(result.beforeBytes))) → \(Formatting.bytes(Int64(result.afterBytes))) "
              + "(\(Formatting.bytes(Int64(result.savedBytes))) given back) in \(String(format: "%.2f", result.seconds)) s, now at version \(result.version)")
        if let p = result.phases {
            try out.line("  copy \(Formatting.timing(p.copySeconds)), sync \(Formatting.timing(p.syncSeconds)), rename and switch \(Formatting.timing(p.replaceSeconds))")
        }
        if result.pendingTailBytes > 0 {
            try out.line("\(Formatting.bytes(Int64(result.pendingTailBytes))) more come back once \(result.pinningReaders.map { "pid \($0.pid)" }.joined(separator: ", ")) end their read transactions")
        }
        return 0
    }
}
