import ArgumentParser
import Foundation
import Strata
import StrataBench
import StrataBrowser
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
    @Flag(help: "Create the class from the data when it does not exist.") var create = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        let data: Data?
        if input == "-" { data = FileHandle.standardInput.readDataToEndOfFile() } else { data = FileManager.default.contents(atPath: input) }
        guard let data else {
            throw CLIError("\(input): cannot read the input file; check the path", code: ExitCode32.badInput)
        }
        let bytes = [UInt8](data)
        let kind = format ?? (input.lowercased().hasSuffix(".csv") ? .csv : .json)
        var db = try common.open(file, readOnly: false, label: "strata import")
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
            try out.line("imported \(Formatting.number(count)) object\(count == 1 ? "" : "s") into \(className) (version \(version))")
        } catch {
            bar.finish()
            w.abort()
            let message = (error as? InputError)?.message ?? cliError(error).message
            throw CLIError("\(input): line \(line): \(message); nothing was imported", code: ExitCode32.badInput)
        }
        return 0
    }
}
