import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Copy: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a compacted copy of the current version to a new file (writeCopy).")

    @Argument(help: "The database to copy.") var source: String
    @Argument(help: "The new file (must not exist).") var destination: String
    @Option(name: .customLong("output-encryption-key-file"), help: ArgumentHelp("Encrypt the copy with this key (64 raw bytes or 128 hex characters).", valueName: "K2"))
    var outputKeyFile: String?
    @Flag(help: "Write the copy unencrypted.") var decrypt = false
    @Flag(help: "When a block fails its checksum, copy object by object instead, leaving out (and listing) the objects that cannot be read; exit 3 when any were left out.")
    var skipUnreadable = false
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if outputKeyFile != nil && decrypt { throw ValidationError("--output-encryption-key-file and --decrypt cannot be used together") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        if ReadableFile.isRealmFile(source) { throw refuseRealmWrite(source) }
        let outputKey = try outputKeyFile.map(readKeyFile)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isDirectory), isDirectory.boolValue {
            // Not "copy never overwrites a file": the user meant "into this directory", as with cp.
            let name = (source as NSString).lastPathComponent
            let suggestion = destination.hasSuffix("/") ? destination + name : destination + "/" + name
            throw CLIError("\(destination) is a directory; give the new file's path, e.g. \(suggestion)", code: ExitCode32.refused)
        }
        if FileManager.default.fileExists(atPath: destination) {
            throw CLIError("\(destination) already exists; copy never overwrites a file: choose another path or delete it", code: ExitCode32.refused)
        }
        try refuseRealmNamedNewFile(destination)
        try requireWritableDirectory(for: destination)
        // The salvage copy's `DST.salvage-PID` database and lock file that a killed copy left.
        let url = URL(fileURLWithPath: destination)
        StaleTemporaries.remove(in: url.deletingLastPathComponent().path, prefix: url.lastPathComponent + ".salvage-") { $0.isEmpty || $0 == ".lock" }
        let db = try common.open(source, readOnly: true, label: "strata copy")
        defer { db.close() }
        let before = try db.store.fileSize()
        let bar = ProgressBar()
        let started = Date()
        let version = try db.store.newestMeta().version
        // No flag: the copy keeps the source's key; --decrypt: a plain copy; K2: encrypted with K2.
        let copyKey: [UInt8]? = try decrypt ? nil : (outputKey ?? common.key())
        var salvage: SalvageResult?
        // The copy's temporaries (the block copy's, and the salvage copy's database and lock
        // file) are removed if a signal ends the command (the copy removes them on any error).
        let temporaries = [Store.writeCopyTemporaryPath(for: destination)] + SalvageCopy.temporaryPaths(for: destination)
        for path in temporaries { TemporaryFiles.register(path) }
        defer { for path in temporaries { TemporaryFiles.unregister(path) } }
        do {
            try db.store.writeCopy(toPath: destination, encryptionKey: copyKey, progress: { bar.update($0.fraction, "copying") })
        } catch StorageError.corrupted(_, let detail) where skipUnreadable {
            // The block copy refuses a damaged block: copy what can be read, object by object.
            bar.finish()
            out.note("strata: \(source): \(detail); copying object by object (--skip-unreadable)")
            do {
                salvage = try SalvageCopy.copy(from: db, to: destination, encryptionKey: copyKey,
                                               progress: { bar.update($0, "copying readable objects") })
            } catch { bar.finish(); throw cliError(error) }
        } catch { bar.finish(); throw cliError(error) }
        bar.finish()
        let seconds = Date().timeIntervalSince(started)
        let after = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? NSNumber)??.int64Value ?? 0
        if json {
            var fields: [(String, JSON)] = [("source", .string(source)), ("destination", .string(destination)), ("version", .int(version)),
                                                 ("sourceBytes", .int(before)), ("destinationBytes", .int(after)), ("seconds", .double(seconds)),
                                                 ("encrypted", .bool(copyKey != nil))]
            if let salvage {
                fields += [("objects", .int(salvage.sourceObjects)), ("copiedObjects", .int(salvage.copiedObjects)),
                           ("droppedLinks", .int(salvage.droppedLinks)),
                           ("skipped", .array(salvage.skipped.map { s in
                               .object([("class", .string(s.className)), ("objects", s.count.map { .int($0) } ?? .null), ("keys", .string(s.keyRange)),
                                        ("firstPosition", .int(s.firstPosition)), ("lastPosition", .int(s.lastPosition)),
                                        ("problem", .string(s.problem))])
                           }))]
            }
            try out.json(.object(fields))
            return salvage.map { $0.skipped.isEmpty ? 0 : ExitCode32.badFile } ?? 0
        }
        if let salvage {
            for skipped in salvage.skipped { try out.line("skipped " + skipped.description) }
            let left = salvage.sourceObjects - salvage.copiedObjects
            let countable = salvage.skipped.allSatisfy { $0.count != nil }
            try out.line("copied \(Formatting.number(salvage.copiedObjects)) of \(Formatting.number(salvage.sourceObjects)) objects of \(source) to \(destination) (\(Formatting.bytes(after)))"
                         + (salvage.droppedLinks > 0 ? "; \(Formatting.number(salvage.droppedLinks)) link\(salvage.droppedLinks == 1 ? "" : "s") to objects left out removed" : ""))
            if left > 0 || !salvage.skipped.isEmpty {
                let what = countable ? "\(Formatting.number(left)) object\(left == 1 ? "" : "s")" : "objects"
                out.note("strata: \(what) of \(source) could not be read and \(left == 1 && countable ? "is" : "are") not in the copy (listed above); \(source) is damaged: keep it, run strata check")
                return ExitCode32.badFile
            }
            return 0
        }
        if decrypt && !db.store.isEncrypted { out.note("strata: \(source) is not encrypted; the copy is a plain (unencrypted) file") }
        try out.line("copied \(source) (\(Formatting.bytes(Int64(before)))) to \(destination) (\(Formatting.bytes(after))) at version \(version) in \(String(format: "%.2f", seconds)) s")
        return 0
    }
}
