import ArgumentParser
import Foundation
import Strata
import StrataTooling

struct Check: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the file's integrity: every block reachable once or free, checksums, no overlap.",
        discussion: "Exits 0 when the file is sound and 1 when problems were found (listed).")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        do {
            return try check(out)
        } catch {
            // Errors elsewhere advise running check; here that advice would loop.
            let e = cliError(error)
            throw CLIError(withoutCheckAdvice(e.message), code: e.code)
        }
    }

    func check(_ out: CommandOutput) throws -> Int32 {
        let opened = try common.openReadable(file, label: "strata check")
        defer { opened.close() }
        let report = try FileReports.check(opened, path: file, describe: { cliError($0).message })
        try out.print(report, json: json)
        if let failure = report.failure { throw CLIError(failure, code: ExitCode32.checkFailed) }
        return 0
    }
}

/// `message` without advice to run `strata check` (for messages `check` itself prints).
func withoutCheckAdvice(_ message: String) -> String { FileReports.withoutCheckAdvice(message) }
