import ArgumentParser
import Foundation
import Strata
import StrataBench
import StrataBrowser
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Demo: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the demo database; with --churn, keep committing small changes to it.",
        discussion: "With --churn (on a new file or an existing demo database) each durable commit prints 'committed version V' on its own line, flushed before the next commit starts.")

    @Argument(help: "The database file to create (or, with --churn, to keep writing to).") var file: String
    @Option(help: "Number of Event objects to create.") var objects = DemoDatabase.defaultEventCount
    @Flag(help: "Keep committing small inserts, updates and deletes.") var churn = false
    @Option(help: "Commits per second with --churn.") var rate: Double = 10
    @Option(help: "Stop churning after this many seconds (default: until killed).") var seconds: Double?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if objects < 0 { throw ValidationError("--objects must not be negative") }
        if rate <= 0 { throw ValidationError("--rate must be positive") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        let exists = FileManager.default.fileExists(atPath: file)
        if exists && !churn {
            throw CLIError("\(file) already exists; choose a new file name (or add --churn to keep writing to an existing demo database)", code: ExitCode32.refused)
        }
        if !exists {
            let bar = ProgressBar()
            let started = Date()
            try DemoDatabase.create(at: file, events: objects) { phase, fraction in bar.update(fraction, phase) }
            bar.finish()
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)??.int64Value ?? 0
            try out.line("created \(file): demo database with \(Formatting.number(objects)) events (\(Formatting.bytes(size))) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
            try out.flush()
        }
        guard churn else { return 0 }
        let db = try common.open(file, readOnly: false, label: "strata demo --churn")
        defer { db.close() }
        let churner = try DemoDatabase.Churner(database: db)
        let interval = 1 / rate
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        var next = Date()
        while deadline.map({ Date() < $0 }) ?? true {
            let version = try churner.step()
            try out.line("committed version \(version)")
            try out.flush()
            next = next.addingTimeInterval(interval)
            let wait = next.timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: wait) } else { next = Date() }
        }
        return 0
    }
}
