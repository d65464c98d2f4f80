import ArgumentParser
import Foundation
import Strata
import StrataBench
import StrataBrowser
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

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
