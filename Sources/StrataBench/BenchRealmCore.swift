import Foundation

/// The benchmark's inputs as a text file, for references that run outside this process
/// (`RealmCoreReference/realm_core_bench.cpp`). Version 1:
///
/// ```
/// strata-bench-inputs 1
/// rows N
/// <id>\t<age>\t<score bit pattern, hex>\t<active 0|1>\t<name>      (N lines)
/// count\t<age low>\t<age high>\t<name prefix>
/// lookups M
/// <id>                                                            (M lines)
/// commits K
/// I\t<row as above>   or   U\t<id>\t<score bits>                  (K lines)
/// updates U
/// <id>\t<score bits>                                               (U lines)
/// deletes D
/// <id>                                                            (D lines)
/// ```
/// Doubles travel as bit patterns so both sides store exactly the same values; names are the
/// rest of their line (the generator never puts a tab or newline in a name).
package enum BenchInputsFile {
    /// Writes `dataset` to `url` in the format above.
    package static func write(_ dataset: BenchDataset, to url: URL) throws {
        var text = "strata-bench-inputs 1\n"
        text.reserveCapacity(dataset.rows.count * 40)
        func row(_ r: BenchRow) -> String {
            "\(r.id)\t\(r.age)\t\(String(r.score.bitPattern, radix: 16))\t\(r.active ? 1 : 0)\t\(r.name)"
        }
        text += "rows \(dataset.rows.count)\n"
        for r in dataset.rows { text += row(r); text += "\n" }
        let q = dataset.countQuery
        text += "count\t\(q.ageRange.lowerBound)\t\(q.ageRange.upperBound)\t\(q.namePrefix)\n"
        text += "lookups \(dataset.lookupIDs.count)\n"
        for id in dataset.lookupIDs { text += "\(id)\n" }
        text += "commits \(dataset.commitOperations.count)\n"
        for op in dataset.commitOperations {
            switch op {
            case .insert(let r): text += "I\t" + row(r) + "\n"
            case .updateScore(let id, let score): text += "U\t\(id)\t\(String(score.bitPattern, radix: 16))\n"
            }
        }
        text += "updates \(dataset.scoreUpdates.count)\n"
        for u in dataset.scoreUpdates { text += "\(u.id)\t\(String(u.score.bitPattern, radix: 16))\n" }
        text += "deletes \(dataset.deleteIDs.count)\n"
        for id in dataset.deleteIDs { text += "\(id)\n" }
        do {
            try Data(text.utf8).write(to: url)
        } catch {
            throw BenchError.fileOperation("cannot write the benchmark inputs to \(url.path): \(error.localizedDescription)")
        }
    }
}

/// What realm-core (built from source, `RealmCoreReference/build.sh`) measured on the same
/// inputs: median seconds per workload, file sizes. Reported beside Strata's times of the same run.
package struct BenchRealmCoreResult: Sendable, Hashable, Encodable {
    /// Median seconds per workload (the dynamic workloads: insert … compact).
    package var seconds: [BenchWorkload: Double]
    /// Median file size after the bulk insert (bytes).
    package var fileBytes: Int
    /// Median file size after compaction (bytes).
    package var compactedFileBytes: Int
    /// The binary that ran.
    package var binary: String

    private enum CodingKeys: String, CodingKey { case seconds, fileBytes, compactedFileBytes, binary }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let named = Dictionary(uniqueKeysWithValues: seconds.map { ($0.key.rawValue, $0.value) })
        try c.encode(named, forKey: .seconds)
        try c.encode(fileBytes, forKey: .fileBytes)
        try c.encode(compactedFileBytes, forKey: .compactedFileBytes)
        try c.encode(binary, forKey: .binary)
    }

    /// The workloads both run, in the benchmark's order.
    static let workloads: [BenchWorkload] = [.insert, .count, .sum, .lookup, .commit, .update, .delete, .compact]
}

/// Runs the realm-core reference binary on the dataset and checks its answers.
package enum BenchRealmCoreReference {
    /// Writes the inputs into `directory`, runs `binary INPUTS DIRECTORY REPETITIONS`, parses its
    /// JSON lines and checks every value against `oracle` (a wrong answer throws
    /// `BenchError.resultMismatch`, so a fast wrong engine is never reported).
    package static func run(binary: String, dataset: BenchDataset, oracle: BenchOracle, repetitions: Int,
                            directory: URL, progress: ((String) -> Void)?) throws -> BenchRealmCoreResult {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError.invalidOptions("--realm-core \(binary): not an executable; build it with "
                                            + "Sources/StrataBench/RealmCoreReference/build.sh REALM_CORE_SOURCE")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let inputs = directory.appendingPathComponent("inputs.txt")
        try BenchInputsFile.write(dataset, to: inputs)
        progress?("realm-core: running \(binary) (\(repetitions) repetition\(repetitions == 1 ? "" : "s"))")
        let output = try runCapturingOutput(binary, [inputs.path, directory.path, String(repetitions)])

        var seconds: [BenchWorkload: Double] = [:]
        var fileBytes: [Int] = [], compacted: [Int] = []
        for line in output.split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw BenchError.fileOperation("realm-core reference printed an unexpected line: \(line)")
            }
            if let sizes = object["fileBytes"] as? [NSNumber] { fileBytes = sizes.map(\.intValue); continue }
            if let sizes = object["compactedBytes"] as? [NSNumber] { compacted = sizes.map(\.intValue); continue }
            guard let name = object["workload"] as? String, let workload = BenchWorkload(rawValue: name),
                  let samples = object["seconds"] as? [NSNumber], let value = object["value"] as? String else {
                throw BenchError.fileOperation("realm-core reference printed an unexpected line: \(line)")
            }
            if let expected = oracle.expected[workload], expected.description != value {
                throw BenchError.resultMismatch(workload: workload.displayName(dataset: dataset),
                                                details: "realm-core returned \(value); expected \(expected)")
            }
            seconds[workload] = BenchStatistics.median(samples.map(\.doubleValue)) ?? 0
        }
        let missing = BenchRealmCoreResult.workloads.filter { seconds[$0] == nil }
        guard missing.isEmpty else {
            throw BenchError.fileOperation("realm-core reference did not report \(missing.map(\.rawValue).joined(separator: ", "))")
        }
        return BenchRealmCoreResult(seconds: seconds, fileBytes: BenchStatistics.median(fileBytes) ?? 0,
                                    compactedFileBytes: BenchStatistics.median(compacted) ?? 0, binary: binary)
    }

    /// Runs `path` with `arguments`; returns its standard output; throws unless it exits 0
    /// (its standard error is passed through).
    private static func runCapturingOutput(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch {
            throw BenchError.fileOperation("cannot start \(path): \(error.localizedDescription)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError.fileOperation("\(path) failed (status \(process.terminationStatus)); see its message above")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
