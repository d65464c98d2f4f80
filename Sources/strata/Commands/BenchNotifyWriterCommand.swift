import ArgumentParser
import Foundation
import StrataBench

/// The other process of `strata bench`'s notification workload (hidden): commits one change
/// to FILE for each "go" line on standard input and prints "committed NANOS" (CLOCK_MONOTONIC).
struct BenchNotifyWriter: StrataSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-notify-writer",
        abstract: "The committing process of `strata bench`'s notification workload (internal).",
        shouldDisplay: false)

    @Argument(help: "The benchmark's database file.") var file: String
    @Argument(help: "Objects the file was loaded with.") var objects: Int
    @Argument(help: "Seed of the changes.") var seed: UInt64

    func run(output out: CommandOutput) throws -> Int32 {
        try BenchNotifyLatencyWorkload.runWriter(path: file, objects: objects, seed: seed)
        return 0
    }
}
