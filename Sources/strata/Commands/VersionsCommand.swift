import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Versions: StrataSubcommand {
    static let configuration = CommandConfiguration(abstract: "The current version, recent commits and live readers with their pins.")

    @Argument(help: "The database file.") var file: String
    @Flag(help: "Print one JSON document.") var json = false
    @Option(parsing: .unconditional, help: "How many recent commits to list.") var limit = 20
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if limit < 0 { throw ValidationError("--limit must be zero or more (it is \(limit))") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        if ReadableFile.isRealmFile(file) {
            throw CLIError("\(file) is a Realm file: realm-core keeps no commit history Strata can list ('strata info', 'schema', 'space', 'query', 'export' and the browser read it)",
                           code: ExitCode32.refused)
        }
        let db = try common.open(file, readOnly: true, label: "strata versions")
        defer { db.close() }
        let report = try DatabaseReports.versions(store: db.store, limit: limit)
        let me = getpid()
        let readers = report.readers.filter { $0.pid != me }
        if json {
            try out.json(.object([
                ("file", .string(file)),
                ("version", .int(report.currentVersion)),
                ("commits", .array(report.commits.map { c in
                    .object([("version", .int(c.version)), ("time", .string(isoTime(c.time))), ("pid", .int(c.pid)), ("summary", .string(c.summary))])
                })),
                ("readers", .array(readers.map { r in
                    .object([("pid", .int(r.pid)), ("label", .string(r.threadLabel)), ("version", .int(r.pinnedVersion)),
                             ("since", .string(isoTime(r.since))), ("pinnedBytes", .int(r.bytesPinned)), ("alive", .bool(r.isAlive))])
                })),
            ]))
            return 0
        }
        try out.line("Current version \(report.currentVersion)")
        try out.line("")
        try out.line("Recent commits")
        for c in report.commits {
            try out.line("  " + pad("v\(c.version)", 10) + Formatting.dateTime(c.time) + "  " + pad("pid \(c.pid)", 11) + c.summary)
        }
        try out.line("")
        try out.line("Readers" + (readers.isEmpty ? "  none besides this command" : ""))
        for r in readers {
            let age = Formatting.duration(Date().timeIntervalSince(r.since))
            try out.line("  " + pad("pid \(r.pid)", 11) + pad(r.threadLabel, 22) + pad("v\(r.pinnedVersion)", 10) + pad("for \(age)", 12)
                  + "pins \(Formatting.bytes(r.bytesPinned))" + (r.isAlive ? "" : "  DEAD (stale slot)"))
        }
        return 0
    }
}
