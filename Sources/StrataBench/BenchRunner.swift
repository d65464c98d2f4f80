import Foundation
import StrataStorage

/// Runs the workloads on two engines and collects a `BenchReport`.
///
/// Both engines work in the same process on the same `BenchDataset`. Each repetition opens both
/// on fresh files in its own temporary directory (removed afterwards) and runs the workloads in
/// order; each workload runs on one engine and then on the other, and the engine that goes first
/// alternates between repetitions (the engine under test first in even repetitions). After every
/// workload the engines' results are compared with each other and with the `BenchOracle`; a
/// difference throws `BenchError.resultMismatch` naming the workload.
package struct BenchRunner {
    /// The options of the run.
    package var options: BenchOptions
    /// The timing source (injectable for tests).
    package var timer: any BenchTimer
    /// Receives progress lines; nil for none.
    package var progress: ((String) -> Void)?

    /// Creates a runner.
    package init(options: BenchOptions, timer: any BenchTimer = MonotonicBenchTimer(),
                progress: ((String) -> Void)? = nil) {
        self.options = options
        self.timer = timer
        self.progress = progress
    }

    /// Runs the benchmark.
    ///
    /// - Parameter engines: exactly two engines: first the engine under test (reported as
    ///   "strata"), then the baseline (reported as "sqlite").
    package func run(engines: [any BenchEngine]) throws -> BenchReport {
        guard engines.count == 2 else {
            throw BenchError.invalidEngines("expected 2 (engine under test, baseline), got \(engines.count)")
        }
        guard engines[0] !== engines[1] else {
            throw BenchError.invalidEngines("the two engines must be distinct instances")
        }
        try options.validate()

        progress?("generating \(BenchFormat.grouped(options.objects)) objects")
        let dataset = BenchDataset(objects: options.objects, lookups: options.lookups,
                                   commits: options.commits, seed: options.seed)
        let oracle = BenchOracle(dataset: dataset)

        let parent = options.directory ?? FileManager.default.temporaryDirectory
        let root = parent.appendingPathComponent("strata-bench-\(UUID().uuidString)")
        try createDirectory(root)
        defer { try? FileManager.default.removeItem(at: root) }

        // Data other programs left dirty in the page cache (a build just before the run leaves
        // hundreds of MB) would otherwise be written back during the first workloads and share
        // the disk with them: measured, 600 MB left dirty made Strata's delete 10% take 0.066 s
        // instead of 0.052 s. Both engines then start from a quiet disk.
        sync()
        var collector = Collector(engineCount: engines.count)
        for repetition in 0..<options.repetitions {
            let directory = root.appendingPathComponent("repetition-\(repetition + 1)")
            try runRepetition(repetition, engines: engines, dataset: dataset, oracle: oracle,
                              directory: directory, into: &collector)
            try? FileManager.default.removeItem(at: directory)
        }
        var report = try collector.report(options: options, dataset: dataset,
                                          engines: engines.map(\.name), machine: .current())
        if let writer = options.notifyWriter {
            report.notifyLatency = try BenchNotifyLatencyWorkload.run(
                objects: options.objects, changes: options.notifyChanges, interval: options.notifyInterval, seed: options.seed,
                directory: root.appendingPathComponent("notify"), writer: writer, progress: progress)
        }
        if let binary = options.realmCoreBinary {
            report.realmCore = try BenchRealmCoreReference.run(
                binary: binary, dataset: dataset, oracle: oracle, repetitions: options.repetitions,
                directory: root.appendingPathComponent("realm-core"), progress: progress)
        }
        return report
    }

    /// What the repetitions measured, per engine index.
    private struct Collector {
        var seconds: [BenchWorkload: [[Double]]] = [:]
        var fileBytes: [[Int]]
        /// File sizes after the small durable commits (`commit`), on the same databases.
        var committedBytes: [[Int]]
        var compactedBytes: [[Int]]
        var cpSeconds: [[Double]]
        var durableCopySeconds: [[Double]]
        var syncFloorSeconds: [Double] = []
        var commitShapeFloorSeconds: [Double] = []
        /// Strata's compaction phases, one entry per repetition.
        var compactionPhases: [CompactionPhases] = []

        init(engineCount: Int) {
            fileBytes = Array(repeating: [], count: engineCount)
            committedBytes = fileBytes
            compactedBytes = fileBytes
            cpSeconds = Array(repeating: [], count: engineCount)
            durableCopySeconds = cpSeconds
        }

        mutating func record(_ workload: BenchWorkload, engine: Int, seconds value: Double) {
            seconds[workload, default: Array(repeating: [], count: fileBytes.count)][engine].append(value)
        }

        func report(options: BenchOptions, dataset: BenchDataset, engines: [String],
                    machine: BenchMachine) throws -> BenchReport {
            func median(_ values: [Double]) -> Double { BenchStatistics.median(values) ?? 0 }
            func median(_ values: [Int]) -> Int { BenchStatistics.median(values) ?? 0 }
            let cp = BenchPair(strata: median(cpSeconds[0]), sqlite: median(cpSeconds[1]))
            let durableCopy = BenchPair(strata: median(durableCopySeconds[0]), sqlite: median(durableCopySeconds[1]))
            let results = BenchWorkload.allCases.map { workload -> BenchWorkloadResult in
                let samples = seconds[workload] ?? [[], []]
                let strata = median(samples[0]), sqlite = median(samples[1])
                let ratio = BenchStatistics.ratio(strata, sqlite)
                let goal = workload.goal
                let met: Bool?
                switch goal {
                case .none: met = nil
                case .maxRatio(let limit): met = ratio.map { $0 <= limit }
                case .durableCopySpeedFraction(let fraction): met = strata <= durableCopy.strata / fraction
                }
                return BenchWorkloadResult(
                    workload: workload, name: workload.displayName(dataset: dataset),
                    strataSeconds: strata, sqliteSeconds: sqlite, ratio: ratio, goal: goal, met: met,
                    samples: BenchPair(strata: samples[0], sqlite: samples[1]))
            }
            return BenchReport(
                objects: options.objects, repetitions: options.repetitions,
                lookups: dataset.lookupIDs.count, commits: dataset.commitOperations.count,
                engines: BenchPair(strata: engines[0], sqlite: engines[1]),
                workloads: results,
                fileBytes: BenchPair(strata: median(fileBytes[0]), sqlite: median(fileBytes[1])),
                committedFileBytes: BenchPair(strata: median(committedBytes[0]), sqlite: median(committedBytes[1])),
                compactedFileBytes: BenchPair(strata: median(compactedBytes[0]),
                                              sqlite: median(compactedBytes[1])),
                cpSeconds: cp,
                durableCopySeconds: durableCopy,
                syncFloorSeconds: median(syncFloorSeconds),
                commitShapeFloorSeconds: median(commitShapeFloorSeconds),
                compactionPhases: compactionPhases.isEmpty ? nil : BenchCompactionPhases(
                    copySeconds: median(compactionPhases.map(\.copySeconds)), syncSeconds: median(compactionPhases.map(\.syncSeconds)),
                    replaceSeconds: median(compactionPhases.map(\.replaceSeconds))),
                machine: machine)
        }
    }

    private func runRepetition(_ repetition: Int, engines: [any BenchEngine], dataset: BenchDataset,
                               oracle: BenchOracle, directory: URL,
                               into collector: inout Collector) throws {
        let order = repetition % 2 == 0 ? Array(engines.indices) : engines.indices.reversed()
        let label = "[\(repetition + 1)/\(options.repetitions)]"
        try createDirectory(directory)
        var opened: [any BenchEngine] = []
        defer { for engine in opened { try? engine.close() } }
        for index in order {
            let engineDirectory = directory.appendingPathComponent("engine-\(index)")
            try createDirectory(engineDirectory)
            try engines[index].open(directory: engineDirectory)
            opened.append(engines[index])
        }

        // The typed workloads' databases (TypedBenchmark.swift), one per engine.
        let typed = engines.map { Self.typedEngine(for: $0) }
        var typedOpened: [any TypedBenchEngine] = []
        defer { for engine in typedOpened { try? engine.close() } }
        for index in order {
            let typedDirectory = directory.appendingPathComponent("typed-\(index)")
            try createDirectory(typedDirectory)
            try typed[index].open(directory: typedDirectory)
            typedOpened.append(typed[index])
        }
        let typedExpected = Self.typedExpected(dataset, oracle: oracle)

        for workload in BenchWorkload.allCases {
            var values: [BenchValue?] = Array(repeating: nil, count: engines.count)
            // `encryptedCommit` runs on databases of its own, loaded with the bulk rows untimed.
            var encrypted: [(any BenchEngine)?] = Array(repeating: nil, count: engines.count)
            defer { for engine in encrypted { try? engine?.close() } }
            if workload == .encryptedCommit {
                for index in order {
                    let engine = Self.encryptedEngine(for: engines[index])
                    let encryptedDirectory = directory.appendingPathComponent("encrypted-\(index)")
                    try createDirectory(encryptedDirectory)
                    try engine.open(directory: encryptedDirectory)
                    encrypted[index] = engine
                    _ = try engine.insert(dataset.rows)
                    progress?("\(label) \(engine.name): loaded \(BenchFormat.grouped(dataset.rows.count)) objects for the encrypted commits (untimed)")
                }
            }
            for index in order {
                let engine = encrypted[index] ?? engines[index]
                let (value, seconds) = try timer.measure(.workload(workload), engine: index,
                                                         repetition: repetition) {
                    workload.isTyped ? try Self.performTyped(workload, on: typed[index], dataset: dataset)
                        : try Self.perform(workload, on: engine, dataset: dataset)
                }
                values[index] = value
                collector.record(workload, engine: index, seconds: seconds)
                progress?("\(label) \(engine.name): \(workload.displayName(dataset: dataset)) "
                          + BenchFormat.seconds(seconds) + " s")
            }
            switch workload {
            case .insert:
                for index in order {
                    collector.fileBytes[index].append(try engines[index].fileSize())
                }
            case .compact:
                for index in order {
                    if case .int(let bytes) = values[index] { collector.compactedBytes[index].append(bytes) }
                    if let phases = engines[index].lastCompactionPhases { collector.compactionPhases.append(phases) }
                }
                let counts = try order.map { try engines[$0].objectCount() }
                try check(workload: "object count after compact", names: order.map { engines[$0].name },
                          values: counts.map { .int($0) }, expected: .int(oracle.finalObjectCount))
            default:
                try check(workload: workload.displayName(dataset: dataset),
                          names: order.map { engines[$0].name }, values: order.map { values[$0]! },
                          expected: oracle.expected[workload] ?? typedExpected[workload])
            }
            if workload == .commit {
                for index in order {
                    collector.committedBytes[index].append(try engines[index].fileSize())
                }
            }
        }
        for engine in typedOpened { try engine.close() }
        typedOpened.removeAll()

        for engine in opened { try engine.close() }
        opened.removeAll()
        let floor = try BenchSyncFloor.measure(count: dataset.commitOperations.count, directory: directory,
                                               timer: timer, repetition: repetition)
        collector.syncFloorSeconds.append(floor)
        progress?("\(label) \(BenchFormat.grouped(dataset.commitOperations.count)) × 4 KiB pwrite + fdatasync "
                  + BenchFormat.seconds(floor) + " s")
        let shapeFloor = try BenchSyncFloor.measure(.strataCommitShape, count: dataset.commitOperations.count,
                                                    directory: directory, timer: timer, repetition: repetition)
        collector.commitShapeFloorSeconds.append(shapeFloor)
        progress?("\(label) \(BenchSyncFloor.Shape.strataCommitShape.name(count: dataset.commitOperations.count)) "
                  + BenchFormat.seconds(shapeFloor) + " s")
        for index in order {
            let (copies, seconds) = try timer.measure(.copyReference, engine: index, repetition: repetition) {
                try BenchCopyReference.copy(engines[index].databaseFiles(), into: directory)
            }
            BenchCopyReference.removeCopies(copies)
            collector.cpSeconds[index].append(seconds)
            progress?("\(label) \(engines[index].name): cp of the compacted file "
                      + BenchFormat.seconds(seconds) + " s")
            let (durable, durableSeconds) = try timer.measure(.durableCopyReference, engine: index, repetition: repetition) {
                let copies = try BenchCopyReference.copy(engines[index].databaseFiles(), into: directory)
                try BenchCopyReference.sync(copies)
                return copies
            }
            BenchCopyReference.removeCopies(durable)
            collector.durableCopySeconds[index].append(durableSeconds)
            progress?("\(label) \(engines[index].name): cp + fdatasync of the compacted file "
                      + BenchFormat.seconds(durableSeconds) + " s")
        }
    }

    /// Runs one workload on `engine` with `dataset`'s inputs and returns its value (for
    /// `compact`: the file size). Adapter tests can use it with `BenchOracle` to check an engine
    /// step by step.
    package static func perform(_ workload: BenchWorkload, on engine: any BenchEngine,
                        dataset: BenchDataset) throws -> BenchValue {
        switch workload {
        case .insert: return .int(try engine.insert(dataset.rows))
        case .count: return .int(try engine.count(dataset.countQuery))
        case .sum: return .int(try engine.sumAge())
        case .lookup: return .checksum(try engine.lookup(ids: dataset.lookupIDs))
        case .commit, .encryptedCommit: return .int(try engine.commit(dataset.commitOperations))
        case .update: return .int(try engine.update(dataset.scoreUpdates))
        case .delete: return .int(try engine.delete(ids: dataset.deleteIDs))
        case .compact: return .int(try engine.compact())
        case .typedInsert, .typedIterate, .typedLookup, .typedCommit:
            throw BenchError.invalidOptions("\(workload) runs on the typed database: use performTyped(_:on:dataset:) with typedEngine(for:)")
        }
    }

    /// The engine of the `encryptedCommit` workload for `engine`: Strata on an encrypted file for
    /// Strata's engine; for any other (the baseline, and the SQLite engines of the harness tests)
    /// a plain SQLite engine of the same configuration (SQLite has no encryption of its own).
    package static func encryptedEngine(for engine: any BenchEngine) -> any BenchEngine {
        if engine is StrataBenchEngine { return StrataBenchEngine(encryptionKey: StrataBenchEngine.benchKey) }
        if let sqlite = engine as? SQLiteBenchEngine { return SQLiteBenchEngine(name: sqlite.name, configuration: sqlite.configuration) }
        return SQLiteBenchEngine()
    }

    /// Throws unless all values are equal and equal to `expected` (when given).
    private func check(workload: String, names: [String], values: [BenchValue],
                       expected: BenchValue?) throws {
        let described = zip(names, values).map { "\($0) returned \($1)" }.joined(separator: ", ")
        if Set(values).count > 1 {
            throw BenchError.resultMismatch(workload: workload, details: described)
        }
        if let expected, let value = values.first, value != expected {
            throw BenchError.resultMismatch(workload: workload,
                                            details: described + "; expected \(expected)")
        }
    }

    private func createDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw BenchError.fileOperation("cannot create \(url.path): \(error)")
        }
    }
}
