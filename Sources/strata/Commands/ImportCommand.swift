import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Import: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Import a JSON array of objects or a CSV file (header row) into a class, in one transaction.",
        discussion: "Values are converted by the class's schema (the formats of 'strata export'). A bad row fails the whole import with its line number, and nothing is written.")

    @Argument(help: "The database file.") var file: String
    @Option(name: .customLong("class"), help: "The class to import into.") var className: String
    @Argument(help: "The JSON or CSV file to read ('-' for standard input).") var input: String
    @Option(help: "json or csv (default: from the input's extension, else json).") var format: TransferFormat?
    @Flag(help: "Create the class from the data when it does not exist (and the database file, when it does not exist).") var create = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        if !pathExists(file) { try refuseRealmNamedNewFile(file) } else if ReadableFile.isRealmFile(file) { throw refuseRealmWrite(file) }
        // The database first (missing, not a database, damaged, wrong key: exit 3, 5 or 6), then
        // the input: a bad input for a database that cannot be imported into said only the former.
        // Like sqlite3, `--create` makes the database file when it does not exist yet.
        let key = try common.key()
        let fileExists = pathExists(file)
        var db: Database? = nil
        if !fileExists && !create {
            throw CLIError("\(file): no such file; check the path, or add --create to create the database and the class from the data", code: ExitCode32.badFile)
        }
        if !fileExists { try requireWritableDirectory(for: file) }
        if fileExists { db = try openDatabase(file, readOnly: false, label: "strata import", key: key) }
        defer { db?.close() }

        let data: Data?
        if input == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else { data = readWholeFile(input) }
        guard let data else {
            throw CLIError("\(input): cannot read the input file; check the path", code: ExitCode32.badInput)
        }
        let bytes = [UInt8](data)
        let kind = format ?? (input.lowercased().hasSuffix(".csv") ? .csv : .json)
        // Text is imported as written: bytes that are not UTF-8 are refused, not replaced.
        if let offset = firstInvalidUTF8(bytes) {
            let line = bytes[..<offset].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw CLIError("\(input): line \(line): byte \(offset) is not valid UTF-8; convert the input to UTF-8 first; nothing was imported", code: ExitCode32.badInput)
        }

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
            if kind == .csv {
                var seen = Set<String>()
                for field in records[0].fields where !seen.insert(field.text).inserted {
                    throw InputError("line \(records[0].line): the header names '\(field.text)' twice")
                }
            }
        } catch let e as InputError {
            // JSON was only assumed (standard input, a name not ending in .csv) and the text does
            // not even start like JSON: "invalid JSON: unexpected text (expected null)" for a CSV
            // header said nothing of --format.
            let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
            let hint = format == nil && kind == .json && first.map { $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "{") } == true
                ? " (read as JSON because \(input == "-" ? "the input is standard input" : "the name does not end in .csv"); for CSV add --format csv)"
                : ""
            throw CLIError(appendingClause("\(input): \(e.message)\(hint)", "nothing was imported"), code: ExitCode32.badInput)
        }

        let empty = kind == .json ? jsonRows.isEmpty : records.count <= 1
        // Nothing to import: no class (and no file) is made from an input without rows.
        if empty && db?.schema[className] == nil && create {
            try out.line("imported 0 objects into \(className) (the input has no rows: nothing to commit, no class \(fileExists ? "" : "or file ")created)")
            return 0
        }
        var createdFile = false
        defer { if createdFile { TemporaryFiles.unregister(file); TemporaryFiles.unregister(file + ".lock") } }
        // A class made from the data is added in the import's own write transaction: the class
        // and its objects commit together, or (a bad row, a crash) neither is there.
        var newClass: ObjectSchema? = nil
        if db?.schema[className] == nil {
            guard create else {
                throw CLIError("no class named '\(className)' in \(file); add --create to create it from the data (classes: \((db?.schema.classNames ?? []).joined(separator: ", ")))",
                               code: ExitCode32.badInput)
            }
            let inferred: ObjectSchema
            do {
                inferred = kind == .json ? try SchemaInference.infer(className: className, json: jsonRows)
                    : try SchemaInference.infer(className: className, csvHeader: records[0].fields.map(\.text), records: Array(records.dropFirst()))
                try SchemaInference.checkNames(inferred)
            } catch let e as InputError {
                throw CLIError("\(input): \(e.message)", code: ExitCode32.badInput)
            }
            let schema = Schema((db?.schema.objectSchemas ?? []) + [inferred])
            do { try schema.validate() } catch { throw CLIError("cannot create class \(className): \(error)", code: ExitCode32.badInput) }
            if db == nil {
                var options = StoreOptions()
                options.create = true
                options.label = "strata import"
                options.encryptionKey = key
                options.onWriteLockWait = announceWriteLockWait
                // The new file is removed again (with its lock file) if the import fails or a
                // signal ends it before the commit: an interrupted import leaves no database that
                // it made and did not fill. Registered as the file is made (signals held back
                // meanwhile), so there is no moment when a signal would leave it behind.
                do {
                    db = try TemporaryFiles.withSignalsBlocked {
                        let made = try Database(path: file, options: options)
                        TemporaryFiles.register(file)
                        TemporaryFiles.register(file + ".lock")
                        return made
                    }
                } catch { throw cliError(error) }
                createdFile = true
            }
            newClass = inferred
        }
        guard let db else { throw CLIError("\(file): the database could not be opened", code: ExitCode32.io) }
        guard let os = newClass ?? db.schema[className] else { throw CLIError("no class named '\(className)'", code: ExitCode32.badInput) }
        if os.isEmbedded { throw CLIError("\(className) is embedded: import its parents instead", code: ExitCode32.badInput) }

        let w: DBTransaction
        do { w = try newClass.map { try db.write(label: "strata import", adding: [$0]) } ?? db.write(label: "strata import") } catch {
            if createdFile {
                db.close()
                removeDatabaseFiles(file)
            }
            throw cliError(error)
        }
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
            if count == 0 && newClass == nil {
                // Nothing to write: no empty commit.
                w.abort()
                try out.line("imported 0 objects into \(className) (nothing to commit)")
                return 0
            }
            let version = try w.commit()
            // Committed: the file is the database now, not a temporary.
            if createdFile { TemporaryFiles.unregister(file); TemporaryFiles.unregister(file + ".lock") }
            try out.line("imported \(Formatting.number(count)) object\(count == 1 ? "" : "s") into \(className) (version \(version))")
        } catch {
            bar.finish()
            w.abort()
            if createdFile {
                db.close()
                removeDatabaseFiles(file)
            }
            if let e = error as? InputError {
                throw CLIError(appendingClause("\(input): line \(line): \(e.message)", "nothing was imported"), code: ExitCode32.badInput)
            }
            // Bad data (a schema or object error) names its line; a failing disk or engine
            // (disk full, I/O) keeps its own exit code.
            let e = cliError(error)
            if e.code == ExitCode32.badInput {
                throw CLIError(appendingClause("\(input): line \(line): \(e.message)", "nothing was imported"), code: ExitCode32.badInput)
            }
            throw CLIError(appendingClause(e.message, "nothing was imported"), code: e.code)
        }
        return 0
    }
}
