import Foundation

/// How a benchmark run is configured.
package struct BenchOptions: Sendable, Hashable {
    /// `N`, the number of objects of the bulk insert (default 1,000,000).
    package var objects: Int
    /// Repetitions per engine; the reported time is the median (default 3).
    package var repetitions: Int
    /// Print JSON instead of the table.
    package var json: Bool
    /// Where the temporary run directory is created; nil: the system temporary directory. The
    /// run directory is removed afterwards.
    package var directory: URL?
    /// Number of primary-key lookups (default 100,000).
    package var lookups: Int
    /// Number of small durable commits (default 1,000).
    package var commits: Int
    /// Seed of the generated data.
    package var seed: UInt64
    /// Write progress lines to stderr: nil (default) means only when stderr is a terminal.
    package var progress: Bool?
    /// The command that starts the other process of the notification workload (the `strata`
    /// binary and its hidden `bench-notify-writer` subcommand); nil skips the workload.
    package var notifyWriter: [String]? = nil
    /// Commits of the notification workload (at least 100 when it runs).
    package var notifyChanges: Int = 200
    /// Seconds between the notification workload's commits.
    package var notifyInterval: Double = 0.01
    /// The realm-core reference binary (`RealmCoreReference/build.sh`); nil skips it.
    package var realmCoreBinary: String? = nil

    /// Creates options; every parameter has the benchmark's default.
    package init(objects: Int = 1_000_000, repetitions: Int = 3, json: Bool = false,
                directory: URL? = nil, lookups: Int = 100_000, commits: Int = 1_000,
                seed: UInt64 = 0x5712_A7A0, progress: Bool? = nil) {
        self.objects = objects
        self.repetitions = repetitions
        self.json = json
        self.directory = directory
        self.lookups = lookups
        self.commits = commits
        self.seed = seed
        self.progress = progress
    }

    /// Throws `BenchError.invalidOptions` unless the values make sense.
    package func validate() throws {
        guard objects >= 10 else { throw BenchError.invalidOptions("objects must be at least 10") }
        guard repetitions >= 1 else { throw BenchError.invalidOptions("repetitions must be at least 1") }
        // Their rows are ratios of times: with none done there is nothing to compare.
        guard lookups >= 1 else { throw BenchError.invalidOptions("lookups must be at least 1 (it is \(lookups))") }
        guard commits >= 1 else { throw BenchError.invalidOptions("commits must be at least 1 (it is \(commits))") }
        guard notifyWriter == nil || notifyChanges >= 1 else { throw BenchError.invalidOptions("notification changes must be at least 1") }
    }
}
