import ArgumentParser
import Foundation
import Strata
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Demo: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the demo database; with --churn, keep committing small changes to it.",
        discussion: "With --churn (on a new file or an existing demo database) each durable commit prints 'committed version V' on its own line, flushed before the next commit starts.")

    @Argument(help: "The database file to create (or, with --churn, to keep writing to).") var file: String
    @Option(parsing: .unconditional, help: "Number of Event objects to create.") var objects = DemoDatabase.defaultEventCount
    @Flag(help: "Keep committing small inserts, updates and deletes.") var churn = false
    @Option(parsing: .unconditional, help: "Commits per second with --churn.") var rate: Double = 10
    @Option(parsing: .unconditional, help: "Stop churning after this many seconds (default: until killed).") var seconds: Double?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if objects < 0 { throw ValidationError("--objects must not be negative") }
        guard rate.isFinite, rate > 0 else { throw ValidationError("--rate must be a positive number of commits per second") }
        if let seconds, !(seconds.isFinite && seconds >= 0) { throw ValidationError("--seconds must be a number of seconds, zero or more") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        let exists = FileManager.default.fileExists(atPath: file)
        if exists && !churn {
            throw CLIError("\(file) already exists; choose a new file name (or add --churn to keep writing to an existing demo database)", code: ExitCode32.refused)
        }
        if !exists {
            try refuseRealmNamedNewFile(file)
            try requireWritableDirectory(for: file)
            let bar = ProgressBar()
            let started = Date()
            do {
                try createDemoDatabase(at: file, events: objects, encryptionKey: try common.key()) { phase, fraction in bar.update(fraction, phase) }
            } catch { bar.finish(); throw error }
            bar.finish()
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)??.int64Value ?? 0
            let encrypted = common.encryptionKeyFile == nil ? "" : ", encrypted"
            try out.line("created \(file): demo database with \(Formatting.number(objects)) events (\(Formatting.bytes(size))\(encrypted)) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
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
            // Never sleep past the deadline (`--rate 0.01 --seconds 2` stops after 2 s, not 100).
            let wakeUp = deadline.map { min($0, next) } ?? next
            let wait = wakeUp.timeIntervalSinceNow
            if wait > 0 { Thread.sleep(forTimeInterval: wait) } else { next = Date() }
        }
        return 0
    }
}

/// Builds the demo database (encrypted with `encryptionKey` when given) in a temporary file
/// beside `path` and moves it into place only when complete: a failure (a full disk) leaves
/// nothing at `path`. Refuses (exit 5) when
/// `path` appeared in the meantime.
func createDemoDatabase(at path: String, events: Int = DemoDatabase.defaultEventCount, encryptionKey: [UInt8]? = nil,
                        progress: @escaping (String, Double) -> Void) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).demo-tmp-\(getpid())").path
    // The hidden database and lock file of a demo build that was killed (SIGKILL, a crash).
    StaleTemporaries.remove(in: url.deletingLastPathComponent().path, prefix: ".\(url.lastPathComponent).demo-tmp-") { $0.isEmpty || $0 == ".lock" }
    removeDatabaseFiles(temporary)
    // An interrupt (Ctrl-C) removes the hidden database and its lock file.
    TemporaryFiles.register(temporary)
    TemporaryFiles.register(temporary + ".lock")
    defer {
        TemporaryFiles.unregister(temporary)
        TemporaryFiles.unregister(temporary + ".lock")
    }
    do {
        try DemoDatabase.create(at: temporary, events: events, encryptionKey: encryptionKey, progress: progress)
    } catch {
        removeDatabaseFiles(temporary)
        throw cliError(error)
    }
    defer { removeDatabaseFiles(temporary) }
    // link() never replaces an existing file (rename() would).
    if link(temporary, path) != 0 {
        let e = errno
        if e == EEXIST {
            throw CLIError("\(path) already exists; choose a new file name", code: ExitCode32.refused)
        }
        guard rename(temporary, path) == 0 else {
            throw CLIError("\(path): cannot create the demo database (\(String(cString: strerror(errno))))", code: ExitCode32.io)
        }
    }
}
