import ArgumentParser
import Foundation
import Strata
import StrataBrowser
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Browse: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the terminal browser (the default subcommand).",
        discussion: "Without FILE, opens the demo database, creating it first if needed (its path is printed).\n\nKeys (? in the browser shows them too):\n" + BrowserKeys.helpText)

    @Argument(help: "The database file; omit it for the demo database.")
    var file: String?
    @Flag(name: .customLong("read-only"), help: "Open without writing anything (edits and compaction are refused).")
    var readOnly = false
    @OptionGroup var common: CommonOptions

    func run(output out: CommandOutput) throws -> Int32 {
        // A file that is not there (or a directory) is said as such, terminal or not: "needs a
        // terminal" sent a script after the wrong problem.
        if let file { try requireExistingRegularFile(file) }
        guard isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0 else {
            throw CLIError("the browser needs a terminal; in scripts use a subcommand such as 'strata info FILE' (see 'strata --help')", code: ExitCode32.usage)
        }
        // Before a key prompt or the demo's creation: the terminal type cannot draw the browser.
        if let problem = NcursesBackend.unsupportedTerminal(term: ProcessInfo.processInfo.environment["TERM"]) {
            throw CLIError(problem, code: ExitCode32.usage)
        }
        let path: String
        if let file {
            path = file
        } else {
            path = DemoDatabase.defaultPath()
            if !FileManager.default.fileExists(atPath: path) {
                out.note("strata: creating the demo database at \(path) (once)…")
                // The demo's own cache directory (not a path the user gave) is created when missing.
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                let bar = ProgressBar()
                try createDemoDatabase(at: path) { phase, fraction in bar.update(fraction, phase) }
                bar.finish()
            } else {
                out.note("strata: opening the demo database at \(path)")
            }
        }
        // An encrypted file and no key file: the browser asks for the key (not echoed).
        let key = try common.key()
        let source: BrowserDataSource
        if ReadableFile.isRealmFile(path) {
            // A Realm file is only read: nothing is written or created beside it.
            source = try BrowserKeyPrompt.opening(path, key: key) { key in
                RealmFileDataSource(realm: try openRealmFile(path, key: key), path: path, encryptionKey: key)
            }
        } else {
            let database = try BrowserKeyPrompt.opening(path, key: key) { key in
                try openDatabase(path, readOnly: readOnly, label: "strata browser", key: key, announceWaits: false, readOnlyOption: true)
            }
            source = try DatabaseDataSource(database: database, path: path, readOnly: readOnly)
        }
        let signal: Int32
        do {
            signal = try runBrowser(dataSource: source)
        } catch {
            (source as? DatabaseDataSource)?.close()
            throw CLIError((error as? BrowserError)?.message ?? String(describing: error), code: ExitCode32.usage)
        }
        (source as? DatabaseDataSource)?.close()
        return signal != 0 ? 128 + signal : 0
    }
}
