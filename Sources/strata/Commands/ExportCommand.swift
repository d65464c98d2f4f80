import ArgumentParser
import Foundation
import Strata
import StrataRealm
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

enum TransferFormat: String, ExpressibleByArgument, CaseIterable { case json, csv }

struct Export: StrataSubcommand {
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
    @Option(help: "Write to this file instead of standard output (a file is rewritten in place, a FIFO or device written to; the database, its lock file and temporaries are refused).") var output: String?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if format == .csv && className == nil { throw ValidationError("CSV export needs --class (one class per CSV file)") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        if ReadableFile.isRealmFile(file) { return try exportRealmFile(out) }
        let db = try common.open(file, readOnly: true, label: "strata export")
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
        let file = try output.flatMap { $0 == "-" ? nil : try FileOutput(path: $0, protecting: [self.file, db.store.lockPath, db.store.compactionTempPath]) }
        let out: CommandOutput = file ?? out
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
        try file?.close()
        try out.flush()
        return 0
    }

    /// A Realm file, read through the reader: the same JSON and CSV shapes (RealmExport).
    func exportRealmFile(_ stdout: CommandOutput) throws -> Int32 {
        let realm = try openRealmFile(file, key: try common.key())
        let classes: [RealmClass]
        do { classes = try RealmExport.classes(realm, className: className, path: file) } catch let e as BrowserError {
            throw CLIError(e.message, code: ExitCode32.badInput)
        }
        let target = try output.flatMap { $0 == "-" ? nil : try FileOutput(path: $0, protecting: [file]) }
        let out: CommandOutput = target ?? stdout
        do {
            try RealmExport.write(realm, classes: classes, csv: format == .csv, single: className != nil) { try out.write($0) }
        } catch let e as RealmFileError {
            throw CLIError("\(file): \(e.description)", code: ExitCode32.badFile)
        }
        try target?.close()
        try out.flush()
        return 0
    }
}
