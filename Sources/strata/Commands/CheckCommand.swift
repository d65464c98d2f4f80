import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

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
        if RealmFileCommands.isRealmFile(file) { return try RealmFileCommands.check(file, json: json, common: common, out: out) }
        let db = try common.open(file, readOnly: true, label: "strata check")
        defer { db.close() }
        let report = try db.store.check()
        // Object level: every class readable, counts consistent with the keys.
        var problems = report.problems.map(withoutCheckAdvice)
        if report.isSound {
            let txn = try db.read(label: "strata check")
            defer { txn.end() }
            for os in db.schema.objectSchemas {
                do {
                    let count = try txn.count(os.className)
                    var seen = 0
                    try txn.forEachCluster(os.className) { seen += $0.count; return true }
                    if seen != count { problems.append("class \(os.className): count \(count) but \(seen) objects in its clusters") }
                } catch {
                    problems.append(withoutCheckAdvice("class \(os.className): \(cliError(error).message)"))
                }
            }
        }
        if json {
            try out.json(.object([
                ("file", .string(file)), ("sound", .bool(problems.isEmpty)), ("version", .int(report.version)),
                ("blocks", .int(report.blocks)), ("liveBytes", .int(report.liveBytes)), ("freeBytes", .int(report.freeBytes)),
                ("lockedBytes", .int(report.lockedBytes)), ("logicalBytes", .int(report.logicalSize)), ("fileBytes", .int(report.fileSize)),
                ("problems", .array(problems.map { .string($0) })), ("notes", .array(report.notes.map { .string($0) })),
            ]))
        } else if problems.isEmpty {
            try out.line("\(file): sound at version \(report.version) (\(Formatting.number(report.blocks)) blocks, \(Formatting.bytes(Int64(report.liveBytes))) live, \(Formatting.bytes(Int64(report.freeBytes))) free)")
            for n in report.notes { try out.line("  note: \(n)") }
        } else {
            try out.line("\(file): \(problems.count) problem\(problems.count == 1 ? "" : "s") at version \(report.version):")
            for p in problems { try out.line("  - \(p)") }
        }
        if !problems.isEmpty {
            throw CLIError("check found \(problems.count) problem\(problems.count == 1 ? "" : "s") in \(file); restore it from a copy, or save what is readable with 'strata copy \(file) NEW --skip-unreadable'", code: ExitCode32.checkFailed)
        }
        return 0
    }
}

/// `message` without advice to run `strata check` (for messages `check` itself prints).
func withoutCheckAdvice(_ message: String) -> String {
    message.replacingOccurrences(of: "[;.,]?\\s*[Rr]un 'strata check'[^;]*", with: "", options: .regularExpression)
}
