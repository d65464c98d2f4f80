import Foundation
import StrataObjects
import StrataRealm

extension FileReports {
    /// `strata check`: for Strata files the store's block check plus object-level counts and
    /// index contents (each index holds exactly the objects' current values); for
    /// Realm files the structure walk in the spirit of realm-core's trawler (every ref in
    /// bounds and at a valid node header, no node reached twice, nothing live in the free
    /// list). Problems are listed and set ``CommandReport/failure``. `describe` turns an
    /// engine error into the command's one-line message.
    package static func check(_ file: ReadableFile, path: String, describe: (Error) -> String) throws -> CommandReport {
        switch file {
        case .strata(let db): return try strataCheck(db, path: path, describe: describe)
        case .realm(let realm): return realmCheck(realm, path: path)
        }
    }

    /// `message` without advice to run `strata check` (for messages `check` itself prints); what
    /// the advice goes on to say is kept: "… Run 'strata check' and restore from a copy" becomes
    /// "… Restore from a copy" (it lost the advice along with the command).
    package static func withoutCheckAdvice(_ message: String) -> String {
        var text = message
        if let r = text.range(of: "[Rr]un ['`]strata check['`] and ", options: .regularExpression) {
            var rest = String(text[r.upperBound...])
            let before = text[..<r.lowerBound]
            if before.isEmpty || before.hasSuffix(". ") { rest = rest.prefix(1).uppercased() + rest.dropFirst() }
            text = before + rest
        }
        // The Strata engine quotes the command with '…', the Realm reader with `…`.
        return text.replacingOccurrences(of: "[;.,]?\\s*[Rr]un ['`]strata check['`][^;]*", with: "", options: .regularExpression)
    }

    private static func plural(_ n: Int) -> String { "\(n) problem\(n == 1 ? "" : "s")" }

    private static func strataCheck(_ db: Database, path file: String, describe: (Error) -> String) throws -> CommandReport {
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
                    problems += try txn.indexProblems(os.className)
                } catch {
                    problems.append(withoutCheckAdvice("class \(os.className): \(describe(error))"))
                }
            }
        }
        var out = CommandReport()
        out.json = .object([
            ("file", .string(file)), ("sound", .bool(problems.isEmpty)), ("version", .int(report.version)),
            ("blocks", .int(report.blocks)), ("liveBytes", .int(report.liveBytes)), ("freeBytes", .int(report.freeBytes)),
            ("lockedBytes", .int(report.lockedBytes)), ("logicalBytes", .int(report.logicalSize)), ("fileBytes", .int(report.fileSize)),
            ("problems", .array(problems.map { .string($0) })), ("notes", .array(report.notes.map { .string($0) })),
        ])
        if problems.isEmpty {
            out.lines.append("\(file): sound at version \(report.version) (\(Formatting.number(report.blocks)) blocks, \(Formatting.bytes(Int64(report.liveBytes))) live, \(Formatting.bytes(Int64(report.freeBytes))) free)")
            for n in report.notes { out.lines.append("  note: \(n)") }
        } else {
            out.lines.append("\(file): \(plural(problems.count)) at version \(report.version):")
            for p in problems { out.lines.append("  - \(p)") }
            out.failure = "check found \(plural(problems.count)) in \(file); restore it from a copy, or save what is readable with 'strata copy \(file) NEW --skip-unreadable'"
        }
        return out
    }

    private static func realmCheck(_ realm: RealmFile, path: String) -> CommandReport {
        let r = realm.checkStructure()
        var out = CommandReport()
        out.json = .object([
            ("file", .string(path)), ("sound", .bool(r.isSound)), ("nodes", .int(r.nodeCount)), ("liveBytes", .int(r.liveBytes)),
            ("freeBytes", .int(r.freeBytes)), ("fileBytes", .int(r.fileSize)), ("problems", .array(r.problems.map { .string($0) })),
        ])
        if r.isSound {
            out.lines.append("\(path): sound Realm file, format \(realm.formatVersion) (\(Formatting.number(r.nodeCount)) nodes, \(Formatting.bytes(Int64(r.liveBytes))) live, \(Formatting.bytes(Int64(r.freeBytes))) free)")
        } else {
            out.lines.append("\(path): \(plural(r.problems.count)):")
            for p in r.problems { out.lines.append("  - \(p)") }
            out.failure = "check found \(plural(r.problems.count)) in \(path); restore it from a backup, or convert what is readable with 'strata convert'"
        }
        return out
    }
}
