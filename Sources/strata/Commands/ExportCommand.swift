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
    @Option(help: "json or csv (csv needs --class; default: csv when --output ends in .csv, else json).") var format: TransferFormat?
    @Option(help: "Write to this file instead of standard output (a file, or a symlink's target, is replaced once the export is complete, keeping its mode and owner; a FIFO or device is written to; a dangling symlink, the database, its lock file and temporaries are refused).") var output: String?
    @OptionGroup var common: CommonOptions

    /// The format: as given, else from the output file's name (as import reads a .csv file as
    /// CSV; `--output people.csv` wrote JSON into it), else JSON.
    var effectiveFormat: TransferFormat {
        format ?? (output?.lowercased().hasSuffix(".csv") == true ? .csv : .json)
    }

    func validate() throws {
        if effectiveFormat == .csv && className == nil {
            throw ValidationError("CSV export needs --class (one class per CSV file)"
                                  + (format == nil ? "; the format was taken from the output's .csv name (--format json writes JSON)" : ""))
        }
    }

    func run(output stdout: CommandOutput) throws -> Int32 {
        let opened = try common.openReadable(file, label: "strata export")
        defer { opened.close() }
        let export: FileExport
        do { export = try FileExport(opened, path: file, className: className, label: "strata export") } catch let e as BrowserError {
            throw CLIError(e.message, code: ExitCode32.badInput)
        }
        defer { export.end() }
        let target = try output.flatMap { $0 == "-" ? nil : try FileOutput(path: $0, protecting: export.protectedPaths) }
        // A failed export leaves the output file as it was (no-op after a successful close).
        defer { target?.discard() }
        let out: CommandOutput = target ?? stdout
        let bar = ProgressBar(enabled: output != nil && isatty(STDERR_FILENO) != 0)
        // Bytes handed to standard output, and whether writing them failed (that error says so itself).
        var written = 0, outputFailed = false
        do {
            try export.write(csv: effectiveFormat == .csv, single: className != nil, progress: { bar.update($0, $1) }) { text in
                do { try out.write(text) } catch { outputFailed = true; throw error }
                written += text.utf8.count
            }
        } catch {
            bar.finish()
            let e = (error as? RealmFileError).map { CLIError("\(file): \($0.description)", code: ExitCode32.badFile) } ?? cliError(error)
            // A named output file keeps its old content (`discard()`); what went to standard
            // output (a pipe, a file the shell opened) cannot be taken back: say it is cut short.
            guard target == nil, written > 0, !outputFailed, !e.message.isEmpty else { throw e }
            throw CLIError(appendingClause(e.message, "the export on standard output is incomplete (it stops after \(Formatting.number(written)) bytes): do not use it"),
                           code: e.code)
        }
        bar.finish()
        try target?.close()
        try out.flush()
        return 0
    }
}
