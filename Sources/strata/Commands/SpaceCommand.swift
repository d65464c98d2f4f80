import ArgumentParser
import Foundation
import Strata
import StrataTooling

struct Space: StrataSubcommand {
    static let configuration = CommandConfiguration(abstract: "Where the bytes of the file go, and what compaction would give back.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        let opened = try common.openReadable(file, label: "strata space")
        defer { opened.close() }
        let report: CommandReport
        do { report = try FileReports.space(opened, path: file) } catch let e as BrowserError { throw CLIError(e.message, code: ExitCode32.badFile) }
        try out.print(report, json: json)
        return 0
    }
}
