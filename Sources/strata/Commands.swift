import ArgumentParser
import Foundation
import Strata
import StrataBench
import StrataBrowser
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// Options every subcommand accepts.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("encryption-key-file"), help: ArgumentHelp("A file holding the 64-byte key (raw, or 128 hex characters) of an encrypted database.", valueName: "K"))
    var encryptionKeyFile: String?

    /// Reads the key file (when given); `openDatabase` then opens files with that key.
    func checkEncryption() throws {
        guard let path = encryptionKeyFile else { return }
        EncryptionKeyHolder.key = try readKeyFile(path)
    }
}

/// Reads a 64-byte key: 64 raw bytes, or 128 hex characters (surrounding whitespace ignored).
func readKeyFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError("\(path): cannot read the key file; check the path and permissions", code: ExitCode32.encryption)
    }
    if data.count == 64 { return [UInt8](data) }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if text.count == 128, let bytes = ValueConversion.bytes(hex: text) { return bytes }
    throw CLIError("\(path): a key file must hold 64 raw bytes or 128 hex characters (it has \(data.count) bytes)", code: ExitCode32.encryption)
}

@main
struct StrataCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strata",
        abstract: "Browse, inspect and maintain Strata database files.",
        discussion: """
        With no subcommand, `strata FILE` opens the terminal browser on FILE, and `strata` alone \
        opens a demo database (created once in $XDG_CACHE_HOME/strata or ~/.cache/strata).

        Exit codes: 0 success, 1 check found problems, 2 bad command line or no terminal, 3 file \
        missing / not a Strata database / damaged, 4 bad query or bad import data, 5 refused \
        (destination exists, file in use, read-only), 6 encryption key problem or encryption \
        unavailable, 7 input/output or other engine error.
        """,
        subcommands: [Browse.self, Info.self, Space.self, Versions.self, Check.self, Compact.self, Copy.self, Export.self,
                      Import.self, Query.self, SchemaCommand.self, Demo.self, Bench.self],
        defaultSubcommand: Browse.self)

    static func main() {
        // Broken pipes (`strata export … | head`) end the process quietly instead of killing it.
        signal(SIGPIPE, SIG_IGN)
        let command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Glibc.exit(0)
            }
            printError("strata: \(message(for: error).split(separator: "\n").first ?? "bad command line"); see 'strata --help'")
            Glibc.exit(ExitCode32.usage)
        }
        do {
            var runnable = command
            try runnable.run()
            Glibc.exit(0)
        } catch let error as CleanExit {
            _ = error
            Glibc.exit(0)
        } catch {
            if String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
                // Help requested through the root command, or a usage error found while running.
                if exitCode(for: error) == .success {
                    print(fullMessage(for: error))
                    Glibc.exit(0)
                }
                printError("strata: \(message(for: error).split(separator: "\n").first ?? "bad command line"); see 'strata --help'")
                Glibc.exit(ExitCode32.usage)
            }
            let e = cliError(error)
            printError("strata: " + e.message)
            Glibc.exit(e.code)
        }
    }
}

// MARK: browse

struct Browse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the terminal browser (the default subcommand).",
        discussion: "Without FILE, opens the demo database, creating it first if needed (its path is printed).")

    @Argument(help: "The database file; omit it for the demo database.")
    var file: String?
    @Flag(name: .customLong("read-only"), help: "Open without writing anything (edits and compaction are refused).")
    var readOnly = false
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw CLIError("the browser needs a terminal; in scripts use a subcommand such as 'strata info FILE' (see 'strata --help')", code: ExitCode32.usage)
        }
        let path: String
        if let file {
            path = file
        } else {
            path = DemoDatabase.defaultPath()
            if !FileManager.default.fileExists(atPath: path) {
                printError("strata: creating the demo database at \(path) (once)…")
                let bar = ProgressBar()
                try DemoDatabase.create(at: path) { phase, fraction in bar.update(fraction, phase) }
                bar.finish()
            } else {
                printError("strata: opening the demo database at \(path)")
            }
        }
        let database: Database
        do {
            database = try openDatabase(path, readOnly: readOnly, label: "strata browser")
        } catch let e as CLIError where e.code == ExitCode32.encryption && EncryptionKeyHolder.key == nil && isatty(0) != 0 {
            // An encrypted file and no key file: ask for the key (not echoed).
            guard let typed = getpass("\(path) is encrypted. Key (128 hex characters): ").map({ String(cString: $0) }),
                  let key = ValueConversion.bytes(hex: typed.trimmingCharacters(in: .whitespaces)), key.count == 64 else {
                throw CLIError("the key must be 128 hex characters (or use --encryption-key-file)", code: ExitCode32.encryption)
            }
            EncryptionKeyHolder.key = key
            database = try openDatabase(path, readOnly: readOnly, label: "strata browser")
        }
        let source = try DatabaseDataSource(database: database, path: path, readOnly: readOnly)
        let signal: Int32
        do {
            signal = try runBrowser(dataSource: source)
        } catch {
            source.close()
            throw CLIError((error as? BrowserError)?.message ?? String(describing: error), code: ExitCode32.usage)
        }
        source.close()
        if signal != 0 { Glibc.exit(128 + signal) }
    }
}

// MARK: info

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

// MARK: space

struct Space: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Where the bytes of the file go, and what compaction would give back.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: true, label: "strata space")
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
            printJSON(.object(fields))
            return
        }
        print("File      \(file) (version \(stats.version))")
        print("Total     \(bytesText(report.totalBytes))")
        print("Used      \(bytesText(report.usedBytes))  \(Formatting.percent(report.usedBytes, of: report.totalBytes))")
        print("Free      \(bytesText(report.freeBytes))  \(Formatting.percent(report.freeBytes, of: report.totalBytes))")
        print("Locked    \(bytesText(report.lockedBytes))  (free, but still seen by readers)")
        print("")
        print("By class (columns estimated from a sample of clusters)")
        var names: [String] = []
        for c in report.classes {
            names.append(c.name)
            names += c.columns.map { "  " + $0.name }
            names += c.indexes.map { "  index " + $0.name }
        }
        let width = max(16, names.map { DisplayWidth.of($0) }.max() ?? 0)
        for c in report.classes {
            print("  " + pad(c.name, width) + pad(Formatting.bytes(c.totalBytes), 12, right: true))
            for column in c.columns { print("    " + pad(column.name, width - 2) + pad(Formatting.bytes(column.bytes), 12, right: true)) }
            for index in c.indexes { print("    " + pad("index " + index.name, width - 2) + pad(Formatting.bytes(index.bytes), 12, right: true)) }
        }
        print("")
        print("Free space by extent size")
        for b in report.freeBySize {
            let range = "\(Formatting.bytes(b.minBytes)) – " + (b.maxBytes.map { Formatting.bytes($0) } ?? "…")
            print("  " + pad(range, 24) + pad("\(b.extents) extents", 14, right: true) + pad(Formatting.bytes(b.bytes), 12, right: true))
        }
        print("")
        print("Free space by the version that freed it")
        if report.freeByVersion.isEmpty { print("  (none)") }
        for f in report.freeByVersion.suffix(20) {
            print("  " + pad(f.version == 0 ? "free for all" : "v\(f.version)", 14) + pad(Formatting.bytes(f.bytes), 12, right: true) + (f.isLocked ? "  locked" : ""))
        }
        print("")
        print(stats.compactionSummary)
    }
}

// MARK: versions

struct Versions: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The current version, recent commits and live readers with their pins.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @Option(help: "How many recent commits to list.") var limit = 20
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: true, label: "strata versions")
        defer { db.close() }
        let report = try DatabaseReports.versions(store: db.store, limit: max(0, limit))
        let me = getpid()
        let readers = report.readers.filter { $0.pid != me }
        if json {
            printJSON(.object([
                ("file", .string(file)),
                ("version", .int(report.currentVersion)),
                ("commits", .array(report.commits.map { c in
                    .object([("version", .int(c.version)), ("time", .string(isoTime(c.time))), ("pid", .int(c.pid)), ("summary", .string(c.summary))])
                })),
                ("readers", .array(readers.map { r in
                    .object([("pid", .int(r.pid)), ("label", .string(r.threadLabel)), ("version", .int(r.pinnedVersion)),
                             ("since", .string(isoTime(r.since))), ("pinnedBytes", .int(r.bytesPinned)), ("alive", .bool(r.isAlive))])
                })),
            ]))
            return
        }
        print("Current version \(report.currentVersion)")
        print("")
        print("Recent commits")
        for c in report.commits {
            print("  " + pad("v\(c.version)", 10) + Formatting.dateTime(c.time) + "  " + pad("pid \(c.pid)", 11) + c.summary)
        }
        print("")
        print("Readers" + (readers.isEmpty ? "  none besides this command" : ""))
        for r in readers {
            let age = Formatting.duration(Date().timeIntervalSince(r.since))
            print("  " + pad("pid \(r.pid)", 11) + pad(r.threadLabel, 22) + pad("v\(r.pinnedVersion)", 10) + pad("for \(age)", 12)
                  + "pins \(Formatting.bytes(r.bytesPinned))" + (r.isAlive ? "" : "  DEAD (stale slot)"))
        }
    }
}

// MARK: check

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the file's integrity: every block reachable once or free, checksums, no overlap.",
        discussion: "Exits 0 when the file is sound and 1 when problems were found (listed).")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: true, label: "strata check")
        defer { db.close() }
        let report = try db.store.check()
        // Object level: every class readable, counts consistent with the keys.
        var problems = report.problems
        if report.isSound {
            let txn = try db.read(label: "strata check")
            defer { txn.end() }
            for os in db.schema.objectSchemas {
                do {
                    let count = try txn.count(os.className)
                    var seen = 0
                    try txn.forEachCluster(os.className) { seen += $0.count; return true }
                    if seen != count { problems.append("class \(os.className): count \(count) but \(seen) objects in its clusters") }
                } catch {
                    problems.append("class \(os.className): \(error)")
                }
            }
        }
        if json {
            printJSON(.object([
                ("file", .string(file)), ("sound", .bool(problems.isEmpty)), ("version", .int(report.version)),
                ("blocks", .int(report.blocks)), ("liveBytes", .int(report.liveBytes)), ("freeBytes", .int(report.freeBytes)),
                ("lockedBytes", .int(report.lockedBytes)), ("logicalBytes", .int(report.logicalSize)), ("fileBytes", .int(report.fileSize)),
                ("problems", .array(problems.map { .string($0) })), ("notes", .array(report.notes.map { .string($0) })),
            ]))
        } else if problems.isEmpty {
            print("\(file): sound at version \(report.version) (\(Formatting.number(report.blocks)) blocks, \(Formatting.bytes(Int64(report.liveBytes))) live, \(Formatting.bytes(Int64(report.freeBytes))) free)")
            for n in report.notes { print("  note: \(n)") }
        } else {
            print("\(file): \(problems.count) problem\(problems.count == 1 ? "" : "s") at version \(report.version):")
            for p in problems { print("  - \(p)") }
        }
        if !problems.isEmpty {
            throw CLIError("check found \(problems.count) problem\(problems.count == 1 ? "" : "s") in \(file); restore it from a copy, or 'strata copy' what is readable", code: ExitCode32.checkFailed)
        }
    }
}

// MARK: compact

struct Compact: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give free space back to the file system.",
        discussion: "A full rewrite needs the file to itself; when another process has it open, strata says so and compacts online instead (as with --online).")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Compact online: relocate data while other processes keep the file open.") var online = false
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: false, label: "strata compact")
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
            printError("strata: " + fallback!)
            result = try db.store.compactOnline(progress: progress)
        }
        bar.finish()
        let mode = online || fallback != nil ? "online" : "full"
        if json {
            printJSON(.object([
                ("file", .string(file)), ("mode", .string(mode)), ("fallback", .bool(fallback != nil)),
                ("beforeBytes", .int(result.beforeBytes)), ("afterBytes", .int(result.afterBytes)), ("savedBytes", .int(result.savedBytes)),
                ("seconds", .double(result.seconds)), ("version", .int(result.version)), ("pendingTailBytes", .int(result.pendingTailBytes)),
            ]))
            return
        }
        print("compacted \(file) (\(mode)): \(Formatting.bytes(Int64(result.beforeBytes))) → \(Formatting.bytes(Int64(result.afterBytes))) "
              + "(\(Formatting.bytes(Int64(result.savedBytes))) given back) in \(String(format: "%.2f", result.seconds)) s, now at version \(result.version)")
        if result.pendingTailBytes > 0 {
            print("\(Formatting.bytes(Int64(result.pendingTailBytes))) more come back once \(result.pinningReaders.map { "pid \($0.pid)" }.joined(separator: ", ")) end their read transactions")
        }
    }
}

// MARK: copy

struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a compacted copy of the current version to a new file (writeCopy).")

    @Argument(help: "The database to copy.") var source: String
    @Argument(help: "The new file (must not exist).") var destination: String
    @Option(name: .customLong("output-encryption-key-file"), help: ArgumentHelp("Encrypt the copy with this key (64 raw bytes or 128 hex characters).", valueName: "K2"))
    var outputKeyFile: String?
    @Flag(help: "Write the copy unencrypted.") var decrypt = false
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if outputKeyFile != nil && decrypt { throw ValidationError("--output-encryption-key-file and --decrypt cannot be used together") }
    }

    func run() throws {
        try common.checkEncryption()
        let outputKey = try outputKeyFile.map(readKeyFile)
        if FileManager.default.fileExists(atPath: destination) {
            throw CLIError("\(destination) already exists; copy never overwrites a file: choose another path or delete it", code: ExitCode32.refused)
        }
        let db = try openDatabase(source, readOnly: true, label: "strata copy")
        defer { db.close() }
        let before = try db.store.fileSize()
        let bar = ProgressBar()
        let started = Date()
        let version = try db.store.newestMeta().version
        // No flag: the copy keeps the source's key; --decrypt: a plain copy; K2: encrypted with K2.
        let copyKey: [UInt8]? = decrypt ? nil : (outputKey ?? EncryptionKeyHolder.key)
        do {
            try db.store.writeCopy(toPath: destination, encryptionKey: copyKey, progress: { bar.update($0.fraction, "copying") })
        } catch { bar.finish(); throw cliError(error) }
        bar.finish()
        let seconds = Date().timeIntervalSince(started)
        let after = (try? FileManager.default.attributesOfItem(atPath: destination)[.size] as? NSNumber)??.int64Value ?? 0
        if json {
            printJSON(.object([("source", .string(source)), ("destination", .string(destination)), ("version", .int(version)),
                               ("sourceBytes", .int(before)), ("destinationBytes", .int(after)), ("seconds", .double(seconds)),
                               ("encrypted", .bool(copyKey != nil))]))
            return
        }
        if decrypt && !db.store.isEncrypted { printError("strata: \(source) is not encrypted; the copy is a plain (unencrypted) file") }
        print("copied \(source) (\(Formatting.bytes(Int64(before)))) to \(destination) (\(Formatting.bytes(after))) at version \(version) in \(String(format: "%.2f", seconds)) s")
    }
}

// MARK: export

enum TransferFormat: String, ExpressibleByArgument, CaseIterable { case json, csv }

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export objects as JSON (all or one class) or CSV (one class), streaming.",
        discussion: """
        JSON of one class is an array with one object per line; of the whole file, an object of \
        such arrays by class name (embedded classes appear inside their parents). Links are the \
        target's primary key (or object key), lists arrays, maps objects, dates ISO 8601 UTC, Data \
        base64, Decimal128 strings. CSV has a header row; null is an empty field, an empty string \
        "", and collections, maps, embedded objects and AnyRealmValue are written as JSON text.
        """)

    @Argument(help: "The database file.") var file: String
    @Option(name: .customLong("class"), help: "Export only this class.") var className: String?
    @Option(help: "json or csv (csv needs --class).") var format: TransferFormat = .json
    @Option(help: "Write to this file instead of standard output.") var output: String?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if format == .csv && className == nil { throw ValidationError("CSV export needs --class (one class per CSV file)") }
    }

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: true, label: "strata export")
        defer { db.close() }
        let txn = try db.read(label: "strata export")
        defer { txn.end() }
        let classes: [ObjectSchema]
        if let className {
            guard let os = db.schema[className] else {
                throw CLIError("no class named '\(className)' in \(file) (classes: \(db.schema.classNames.joined(separator: ", ")))", code: ExitCode32.badInput)
            }
            if os.isEmbedded { throw CLIError("\(className) is embedded: its objects are exported inside their parents", code: ExitCode32.badInput) }
            classes = [os]
        } else {
            classes = db.schema.objectSchemas.filter { !$0.isEmbedded }
        }
        let out = try OutputStream(path: output)
        let exporter = Exporter(txn: txn)
        let bar = ProgressBar(enabled: output != nil && isatty(STDERR_FILENO) != 0)
        let total = max(1, try classes.reduce(0) { $0 + (try txn.count($1.className)) })
        var done = 0
        if format == .csv {
            let os = classes[0]
            try out.write(exporter.exportedProperties(os).map { CSV.quote($0.name, force: false) }.joined(separator: ",") + "\n")
            try exporter.forEachObject(os.className) { cluster, row in
                try out.write(try exporter.csvRecord(os, key: cluster.key(row)) + "\n")
                done += 1
                if done % 4096 == 0 { bar.update(Double(done) / Double(total), os.className) }
            }
        } else {
            if className == nil { try out.write("{\n") }
            for (index, os) in classes.enumerated() {
                if className == nil { try out.write(JSON.quote(os.className) + ": ") }
                try out.write("[")
                var first = true
                try exporter.forEachObject(os.className) { cluster, row in
                    try out.write((first ? "\n" : ",\n") + (try exporter.jsonObject(os, key: cluster.key(row))))
                    first = false
                    done += 1
                    if done % 4096 == 0 { bar.update(Double(done) / Double(total), os.className) }
                }
                try out.write(first ? "]" : "\n]")
                if className == nil { try out.write(index < classes.count - 1 ? ",\n" : "\n") }
            }
            try out.write(className == nil ? "}\n" : "\n")
        }
        bar.finish()
        try out.close()
    }
}

// MARK: import

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a JSON array of objects or a CSV file (header row) into a class, in one transaction.",
        discussion: "Values are converted by the class's schema (the formats of 'strata export'). A bad row fails the whole import with its line number, and nothing is written.")

    @Argument(help: "The database file.") var file: String
    @Option(name: .customLong("class"), help: "The class to import into.") var className: String
    @Argument(help: "The JSON or CSV file to read ('-' for standard input).") var input: String
    @Option(help: "json or csv (default: from the input's extension, else json).") var format: TransferFormat?
    @Flag(help: "Create the class from the data when it does not exist.") var create = false
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        let data: Data?
        if input == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else { data = FileManager.default.contents(atPath: input) }
        guard let data else {
            throw CLIError("\(input): cannot read the input file; check the path", code: ExitCode32.badInput)
        }
        let bytes = [UInt8](data)
        let kind = format ?? (input.lowercased().hasSuffix(".csv") ? .csv : .json)
        var db = try openDatabase(file, readOnly: false, label: "strata import")
        defer { db.close() }

        // Parse first: a syntax error names its line and nothing is touched.
        var jsonRows: [JNode] = [], jsonLines: [Int] = []
        var records: [CSV.Record] = []
        do {
            if kind == .json {
                guard case .array(let items, let lines) = try JSONParser.parseDocument(bytes) else {
                    throw InputError("line 1: the input must be a JSON array of objects")
                }
                jsonRows = items
                jsonLines = lines
            } else {
                records = try CSV.parse(bytes)
                guard !records.isEmpty else { throw InputError("line 1: the CSV input is empty (it needs a header row)") }
            }
        } catch let e as InputError {
            throw CLIError("\(input): \(e.message)", code: ExitCode32.badInput)
        }

        if db.schema[className] == nil {
            guard create else {
                throw CLIError("no class named '\(className)' in \(file); add --create to create it from the data (classes: \(db.schema.classNames.joined(separator: ", ")))",
                               code: ExitCode32.badInput)
            }
            let inferred: ObjectSchema
            do {
                inferred = kind == .json ? try SchemaInference.infer(className: className, json: jsonRows)
                    : try SchemaInference.infer(className: className, csvHeader: records[0].fields.map(\.text), records: Array(records.dropFirst()))
            } catch let e as InputError {
                throw CLIError("\(input): \(e.message)", code: ExitCode32.badInput)
            }
            let schema = Schema(db.schema.objectSchemas + [inferred])
            do { try schema.validate() } catch { throw CLIError("cannot create class \(className): \(error)", code: ExitCode32.badInput) }
            db.close()
            var options = StoreOptions()
            options.create = false
            options.label = "strata import"
            do { db = try Database(path: file, options: options, schema: schema) } catch { throw cliError(error) }
        }
        guard let os = db.schema[className] else { throw CLIError("no class named '\(className)'", code: ExitCode32.badInput) }
        if os.isEmbedded { throw CLIError("\(className) is embedded: import its parents instead", code: ExitCode32.badInput) }

        let w = try db.write(label: "strata import")
        let importer = Importer(w: w, os: os)
        var line = 0
        var count = 0
        let bar = ProgressBar()
        do {
            if kind == .json {
                for (index, node) in jsonRows.enumerated() {
                    line = jsonLines[index]
                    try importer.insert(try importer.row(fromJSON: node))
                    count += 1
                    if count % 4096 == 0 { bar.update(Double(count) / Double(jsonRows.count), "importing") }
                }
            } else {
                line = records[0].line
                var header: [PropertySchema] = []
                for field in records[0].fields {
                    guard let p = os[field.text] else { throw InputError("the header names '\(field.text)', which is not a property of \(className)") }
                    guard p.type != .linkingObjects else { throw InputError("'\(field.text)' is computed (LinkingObjects) and cannot be imported") }
                    header.append(p)
                }
                for record in records.dropFirst() {
                    line = record.line
                    try importer.insert(try importer.row(fromCSV: record.fields, header: header))
                    count += 1
                    if count % 4096 == 0 { bar.update(Double(count) / Double(records.count), "importing") }
                }
            }
            bar.finish()
            let version = try w.commit()
            print("imported \(Formatting.number(count)) object\(count == 1 ? "" : "s") into \(className) (version \(version))")
        } catch {
            bar.finish()
            w.abort()
            let message = (error as? InputError)?.message ?? cliError(error).message
            throw CLIError("\(input): line \(line): \(message); nothing was imported", code: ExitCode32.badInput)
        }
    }
}

// MARK: query

struct Query: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Objects of a class matching a Realm Query Language predicate, as a table or JSON.",
        discussion: "Example: strata query demo.strata Person 'age > 30 AND name BEGINSWITH[c] \"a\" SORT(age DESC)' --limit 10")

    @Argument(help: "The database file.") var file: String
    @Argument(help: "The class to query.") var className: String
    @Argument(help: "The query (RQL), e.g. \"age > 30 SORT(name ASC)\".") var query: String
    @Flag(help: "Print a JSON array of objects (the export format).") var json = false
    @Option(help: "At most this many objects.") var limit: Int?
    @OptionGroup var common: CommonOptions

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: true, label: "strata query")
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
        if let limit { keys = Array(keys.prefix(max(0, limit))) }
        let exporter = Exporter(txn: txn)
        let out = try OutputStream(path: nil)
        if json {
            try out.write("[")
            for (i, key) in keys.enumerated() { try out.write((i == 0 ? "\n" : ",\n") + (try exporter.jsonObject(os, key: key))) }
            try out.write(keys.isEmpty ? "]\n" : "\n]\n")
            try out.close()
            return
        }
        let properties = os.properties.filter { $0.type != .linkingObjects }
        var table: [[String]] = [properties.map(\.name)]
        for key in keys {
            table.append(try properties.map { p in try cellText(txn, os, key, p) })
        }
        let widths = properties.indices.map { column in min(32, table.map { DisplayWidth.of($0[column]) }.max() ?? 0) }
        for (index, row) in table.enumerated() {
            let line = row.enumerated().map { pad(truncate($0.element, widths[$0.offset]), widths[$0.offset]) }.joined(separator: "  ")
            try out.write(line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) + "\n")
            if index == 0 { try out.write(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n") }
        }
        try out.write("(\(Formatting.number(keys.count)) object\(keys.count == 1 ? "" : "s"))\n")
        try out.close()
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

// MARK: schema

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the schema; --swift prints Swift model definitions that open the same file.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @Flag(help: "Print Swift model classes (Object / EmbeddedObject with @Persisted).") var swift = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if json && swift { throw ValidationError("--json and --swift cannot be used together") }
    }

    func run() throws {
        try common.checkEncryption()
        let db = try openDatabase(file, readOnly: true, label: "strata schema")
        defer { db.close() }
        let schema = db.schema
        if json {
            printJSON(.object([
                ("file", .string(file)), ("schemaVersion", .int(db.schemaVersion)),
                ("classes", .array(schema.objectSchemas.map { os in
                    .object([("name", .string(os.className)), ("embedded", .bool(os.isEmbedded)),
                             ("primaryKey", os.primaryKeyProperty.map { .string($0.name) } ?? .null),
                             ("properties", .array(os.properties.map { p in
                                .object([("name", .string(p.name)), ("type", .string(p.type.description)),
                                         ("collection", .string(["single", "list", "set", "map"][Int(p.collection.rawValue)])),
                                         ("optional", .bool(p.isOptional)), ("indexed", .bool(p.isIndexed)), ("primaryKey", .bool(p.isPrimaryKey)),
                                         ("target", p.objectClassName.map { .string($0) } ?? .null),
                                         ("originProperty", p.linkOriginPropertyName.map { .string($0) } ?? .null)])
                             }))])
                })),
            ]))
            return
        }
        if swift {
            print(SwiftModels.render(schema, schemaVersion: db.schemaVersion, file: file))
            return
        }
        print("Schema version \(db.schemaVersion)")
        print(schema.description)
    }
}

/// Swift model definitions (RealmSwift vocabulary) for a schema.
enum SwiftModels {
    static let keywords: Set<String> = ["class", "struct", "enum", "protocol", "func", "var", "let", "import", "in", "is", "as", "if", "else",
                                        "for", "while", "return", "self", "Self", "super", "init", "default", "case", "switch", "where",
                                        "static", "public", "private", "internal", "operator", "extension", "repeat", "do", "try", "throw",
                                        "nil", "true", "false", "Type", "Protocol", "any", "some", "guard", "defer", "break", "continue"]

    static func identifier(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    static func render(_ schema: Schema, schemaVersion: UInt64, file: String) -> String {
        var out = "// Swift models for \((file as NSString).lastPathComponent), generated by `strata schema --swift`.\n"
        out += "// Open the file with:\n"
        out += "//   let config = Realm.Configuration(fileURL: URL(fileURLWithPath: \"\(file)\"), schemaVersion: \(schemaVersion),\n"
        out += "//                                    objectTypes: [\(schema.objectSchemas.map { identifier($0.className) + ".self" }.joined(separator: ", "))])\n"
        out += "//   let realm = try Realm(configuration: config)\n"
        out += "import Strata\n"
        for os in schema.objectSchemas {
            out += "\nfinal class \(identifier(os.className)): \(os.isEmbedded ? "EmbeddedObject" : "Object") {\n"
            for p in os.properties { out += "    " + declaration(p) + "\n" }
            out += "}\n"
        }
        return out
    }

    static func swiftType(_ t: PropertyType, target: String?) -> String {
        t == .object || t == .linkingObjects ? (target.map(identifier) ?? "Object") : t.swiftTypeName
    }

    static func declaration(_ p: PropertySchema) -> String {
        let name = identifier(p.name)
        if p.type == .linkingObjects {
            return "@Persisted(originProperty: \"\(p.linkOriginPropertyName ?? "")\") var \(name): LinkingObjects<\(swiftType(.object, target: p.objectClassName))>"
        }
        var element = swiftType(p.type, target: p.objectClassName)
        let optionalElement = p.isOptional && p.type != .mixed && (p.type != .object || p.collection == .map)
        switch p.collection {
        case .single:
            if p.type == .object || (p.isOptional && p.type != .mixed) { element += "?" }
            let attribute = p.isPrimaryKey ? "@Persisted(primaryKey: true)" : p.isIndexed ? "@Persisted(indexed: true)" : "@Persisted"
            return "\(attribute) var \(name): \(element)"
        case .list: return "@Persisted var \(name): List<\(element)\(optionalElement ? "?" : "")>"
        case .set: return "@Persisted var \(name): MutableSet<\(element)\(optionalElement ? "?" : "")>"
        case .map: return "@Persisted var \(name): Map<String, \(element)\(optionalElement || p.type == .object ? "?" : "")>"
        }
    }
}

// MARK: demo

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the demo database; with --churn, keep committing small changes to it.",
        discussion: "With --churn (on a new file or an existing demo database) each durable commit prints 'committed version V' on its own line, flushed before the next commit starts.")

    @Argument(help: "The database file to create (or, with --churn, to keep writing to).") var file: String
    @Option(help: "Number of Event objects to create.") var objects = DemoDatabase.defaultEventCount
    @Flag(help: "Keep committing small inserts, updates and deletes.") var churn = false
    @Option(help: "Commits per second with --churn.") var rate: Double = 10
    @Option(help: "Stop churning after this many seconds (default: until killed).") var seconds: Double?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if objects < 0 { throw ValidationError("--objects must not be negative") }
        if rate <= 0 { throw ValidationError("--rate must be positive") }
    }

    func run() throws {
        try common.checkEncryption()
        let exists = FileManager.default.fileExists(atPath: file)
        if exists && !churn {
            throw CLIError("\(file) already exists; choose a new file name (or add --churn to keep writing to an existing demo database)", code: ExitCode32.refused)
        }
        if !exists {
            let bar = ProgressBar()
            let started = Date()
            try DemoDatabase.create(at: file, events: objects) { phase, fraction in bar.update(fraction, phase) }
            bar.finish()
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)??.int64Value ?? 0
            print("created \(file): demo database with \(Formatting.number(objects)) events (\(Formatting.bytes(size))) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
            fflush(nil)
        }
        guard churn else { return }
        let db = try openDatabase(file, readOnly: false, label: "strata demo --churn")
        defer { db.close() }
        let churner = try DemoDatabase.Churner(database: db)
        let interval = 1 / rate
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var next = Date()
        while deadline.map({ Date() < $0 }) ?? true {
            let version = try churner.step()
            print("committed version \(version)")
            fflush(nil)
            next = next.addingTimeInterval(interval)
            let wait = next.timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: wait) } else { next = Date() }
        }
    }
}

// MARK: bench

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark Strata against SQLite (WAL, prepared statements) on the same data; build with -c release.")

    @Option(help: "Objects of the bulk insert.") var objects = 1_000_000
    @Option(help: "Repetitions per engine (the median is reported).") var repetitions = 3
    @Option(help: "Primary-key lookups.") var lookups = 100_000
    @Option(help: "Small durable commits.") var commits = 1_000
    @Option(help: "Directory for the temporary files (default: the system temporary directory).") var directory: String?
    @Flag(help: "Print one JSON document.") var json = false

    func run() throws {
        let options = BenchOptions(objects: objects, repetitions: repetitions, json: json,
                                   directory: directory.map { URL(fileURLWithPath: $0) }, lookups: lookups, commits: commits)
        do { try options.validate() } catch { throw CLIError("\(error)", code: ExitCode32.usage) }
        try runBenchmark(options: options, engines: [makeStrataBenchEngine(), SQLiteBenchEngine()]) { print($0) }
    }
}
