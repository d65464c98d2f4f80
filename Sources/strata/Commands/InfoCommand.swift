import ArgumentParser
import Foundation
import Strata
import StrataTooling

struct Info: StrataSubcommand {
    static let configuration = CommandConfiguration(abstract: "Versions, sizes, classes with counts, participants and readers.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        let opened = try common.openReadable(file, label: "strata info")
        defer { opened.close() }
        try out.print(try FileReports.info(opened, path: file), json: json)
        return 0
    }
}
