import ArgumentParser
import Foundation
import Strata
import StrataBench
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

struct Bench: StrataSubcommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark Strata against SQLite (WAL, prepared statements) on the same data; build with -c release.")

    @Option(parsing: .unconditional, help: "Objects of the bulk insert.") var objects = 1_000_000
    @Option(parsing: .unconditional, help: "Repetitions per engine (the median is reported).") var repetitions = 3
    @Option(parsing: .unconditional, help: "Primary-key lookups.") var lookups = 100_000
    @Option(parsing: .unconditional, help: "Small durable commits.") var commits = 1_000
    @Option(help: "Directory for the temporary files (default: the system temporary directory).") var directory: String?
    @Option(parsing: .unconditional, help: "Commits by another process in the notification workload (0: skip it).") var notifyChanges = 200
    @Option(help: "Also run realm-core's C++ API on the same inputs: the binary built by Sources/StrataBench/RealmCoreReference/build.sh.")
    var realmCore: String?
    @Flag(help: "Print one JSON document.") var json = false

    func validate() throws {
        if notifyChanges < 0 { throw ValidationError("--notify-changes must be zero or more (it is \(notifyChanges); 0 skips the notification workload)") }
    }

    func run(output out: CommandOutput) throws -> Int32 {
        var options = BenchOptions(objects: objects, repetitions: repetitions, json: json,
                                   directory: directory.map { URL(fileURLWithPath: $0) }, lookups: lookups, commits: commits)
        if notifyChanges > 0 {
            // The other process is this binary itself (its hidden bench-notify-writer subcommand).
            let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            options.notifyWriter = [me, "bench-notify-writer"]
            options.notifyChanges = notifyChanges
        }
        options.realmCoreBinary = realmCore
        do { try options.validate() } catch { throw CLIError("\(error)", code: ExitCode32.usage) }
        var failure: Error?
        try runBenchmark(options: options, engines: [makeStrataBenchEngine(), SQLiteBenchEngine()]) { line in
            do { try out.line(line) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        return 0
    }
}
