import ArgumentParser
import Foundation
import Strata
import StrataTooling
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
                      Import.self, Query.self, SchemaCommand.self, Demo.self, Bench.self, Convert.self, BenchNotifyWriter.self],
        defaultSubcommand: Browse.self)

    static func main() {
        reserveStandardDescriptors()
        // Broken pipes (`strata export … | head`) end the process quietly instead of killing it.
        signal(SIGPIPE, SIG_IGN)
        if let e = nonUTF8Argument() {
            printError("strata: " + e.message)
            Glibc.exit(e.code)
        }
        let out = StandardOutput()
        Glibc.exit(execute(Array(CommandLine.arguments.dropFirst()), output: out))
    }

    /// Parses `arguments`, runs the subcommand with `output`, reports a failure as one line on
    /// the output's standard error, and returns the process's exit code.
    static func execute(_ arguments: [String], output out: CommandOutput) -> Int32 {
        let code = executeCommand(arguments, output: out)
        // A failed command leaves no lock file it made beside the database it opened.
        if code != 0 { CreatedLockFiles.removeUnused() }
        return code
    }

    private static func executeCommand(_ arguments: [String], output out: CommandOutput) -> Int32 {
        func usage(_ error: Error) -> Int32 {
            if exitCode(for: error) == .success {
                // Help or version requested.
                do { try out.line(fullMessage(for: error)); try out.flush() } catch { return fail(cliError(error)) }
                return 0
            }
            out.note("strata: " + appendingClause(String(message(for: error).split(separator: "\n").first ?? "bad command line"), "see 'strata --help'"))
            return ExitCode32.usage
        }
        func fail(_ e: CLIError) -> Int32 {
            try? out.flush()
            if !e.message.isEmpty { out.note("strata: " + e.message) }
            return e.code
        }
        if let e = unknownSubcommand(arguments) { return fail(e) }
        let command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            return usage(error)
        }
        do {
            guard let subcommand = command as? any StrataSubcommand else {
                // The root command itself (no subcommand resolved): ArgumentParser's help.
                var runnable = command
                try runnable.run()
                return 0
            }
            let code = try subcommand.run(output: out)
            try out.flush()
            return code
        } catch is CleanExit {
            return 0
        } catch {
            if String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") { return usage(error) }
            return fail(cliError(error))
        }
    }
}

extension StrataCommand {
    /// Opens `/dev/null` read-only on each of descriptors 0, 1 and 2 the caller left closed
    /// (`strata export db >&-`). Otherwise the next file opened gets that number: the database's
    /// lock file (opened read-write) became "standard output", and the export was written into
    /// it under the other processes using it. Writing to the read-only `/dev/null` fails as
    /// writing to a closed descriptor does (EBADF), so the output error stays exit 7.
    static func reserveStandardDescriptors() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }

    /// The refusal (exit 2) of the first argument that is not valid UTF-8. `CommandLine.arguments`
    /// replaces such bytes with U+FFFD, so strata used another name than the one given: a file
    /// named `n\xff.strata` was "no such file", `demo z\xff.strata` created `z\u{FFFD}.strata`, and a
    /// query compared with U+FFFD instead of the bytes typed.
    static func nonUTF8Argument() -> CLIError? {
        for i in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[i], String(validatingCString: raw) == nil else { continue }
            return CLIError("argument \(i) (\(String(cString: raw).debugDescription)) is not valid UTF-8, and strata reads paths, names and queries as UTF-8; rename the file, or give a symlink with a UTF-8 name",
                            code: ExitCode32.usage)
        }
        return nil
    }

    /// `strata infoo db`: the first word is no subcommand and no file, so the default
    /// subcommand (browse) would read it as a file and reject the rest. Say what it is, with
    /// the nearest subcommand name.
    static func unknownSubcommand(_ arguments: [String]) -> CLIError? {
        guard let word = arguments.first, !word.hasPrefix("-"), !pathExists(word) else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        let nearest = names.map { ($0, editDistance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        let close = nearest.flatMap { $0.1 <= max(1, $0.0.count / 3) ? $0.0 : nil }
        // One word that is far from every name is a (missing) file to browse: keep that error.
        guard arguments.count > 1 || close != nil else { return nil }
        let hint = close.map { " (did you mean '\($0)'?)" } ?? ""
        return CLIError("unknown subcommand '\(word)'\(hint); see 'strata --help'", code: ExitCode32.usage)
    }

    /// Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
