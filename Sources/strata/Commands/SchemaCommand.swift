import ArgumentParser
import Foundation
import Strata
import StrataTooling

struct SchemaCommand: StrataSubcommand {
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

    func run(output out: CommandOutput) throws -> Int32 {
        let opened = try common.openReadable(file, label: "strata schema")
        defer { opened.close() }
        try out.print(FileReports.schema(opened, path: file, swift: swift), json: json)
        return 0
    }
}
