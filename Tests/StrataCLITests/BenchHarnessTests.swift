import Foundation
import XCTest
@testable import StrataBench

/// Times every step with scripted durations (and still runs it), so the median, ratio and goal
/// logic can be checked without real timing.
private struct ScriptedTimer: BenchTimer {
    /// Seconds for (step, engine index, repetition).
    let seconds: @Sendable (BenchStep, Int, Int) -> Double

    func measure<T>(_ step: BenchStep, engine: Int, repetition: Int,
                    _ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        (try body(), seconds(step, engine, repetition))
    }
}

/// Records the order in which engines run each workload.
private final class OrderRecordingTimer: BenchTimer, @unchecked Sendable {
    var calls: [(BenchStep, Int, Int)] = []

    func measure<T>(_ step: BenchStep, engine: Int, repetition: Int,
                    _ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        calls.append((step, engine, repetition))
        return (try body(), 0.001)
    }
}

/// A SQLite engine that miscounts, to check that mismatches are reported.
private final class MiscountingEngine: BenchEngine {
    let base = SQLiteBenchEngine(name: "Miscounting")
    var name: String { base.name }
    func open(directory: URL) throws { try base.open(directory: directory) }
    func insert(_ rows: [BenchRow]) throws -> Int { try base.insert(rows) }
    func count(_ query: BenchCountQuery) throws -> Int { try base.count(query) + 1 }
    func sumAge() throws -> Int { try base.sumAge() }
    func lookup(ids: [Int]) throws -> BenchChecksum { try base.lookup(ids: ids) }
    func commit(_ operations: [BenchCommitOperation]) throws -> Int { try base.commit(operations) }
    func update(_ updates: [BenchScoreUpdate]) throws -> Int { try base.update(updates) }
    func delete(ids: [Int]) throws -> Int { try base.delete(ids: ids) }
    func fileSize() throws -> Int { try base.fileSize() }
    func compact() throws -> Int { try base.compact() }
    func objectCount() throws -> Int { try base.objectCount() }
    func close() throws { try base.close() }
    func databaseFiles() -> [URL] { base.databaseFiles() }
}

final class BenchHarnessTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-harness-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func smallOptions(repetitions: Int = 3, json: Bool = false) -> BenchOptions {
        BenchOptions(objects: 600, repetitions: repetitions, json: json, directory: directory,
                     lookups: 300, commits: 12, progress: false)
    }

    private func twoSQLiteEngines() -> [any BenchEngine] {
        // The stand-in for Strata is SQLite configured differently (name index, mmap, big cache).
        [SQLiteBenchEngine(name: "SQLite-indexed",
                           configuration: .init(indexName: true, cacheSizeKiB: 65_536, mmapSize: 1 << 28)),
         SQLiteBenchEngine()]
    }

    // MARK: Data

    func testGeneratorIsDeterministicAndInRange() {
        var first = BenchDataGenerator(seed: 42)
        var second = BenchDataGenerator(seed: 42)
        var other = BenchDataGenerator(seed: 43)
        let rows = first.rows(count: 1_000)
        XCTAssertEqual(rows, second.rows(count: 1_000))
        XCTAssertNotEqual(rows, other.rows(count: 1_000))
        XCTAssertEqual(rows.map(\.id), Array(1...1_000))
        XCTAssertTrue(rows.allSatisfy { (0..<100).contains($0.age) })
        XCTAssertTrue(rows.allSatisfy { $0.score >= 0 && $0.score < 100 })
        XCTAssertTrue(rows.allSatisfy { !$0.name.isEmpty && $0.name.contains(" ") })
        XCTAssertTrue(rows.contains { $0.active } && rows.contains { !$0.active })
    }

    func testNamePrefixDistribution() {
        XCTAssertEqual(BenchDataGenerator.firstNames.count, 64)
        XCTAssertEqual(Set(BenchDataGenerator.firstNames).count, 64)
        XCTAssertEqual(BenchDataGenerator.firstNames.filter { $0.hasPrefix("B") }.count, 8)
        XCTAssertEqual(BenchDataGenerator.lastNames.count, 32)
        var generator = BenchDataGenerator(seed: 7)
        let rows = generator.rows(count: 100_000)
        let fraction = Double(rows.filter { $0.name.hasPrefix("B") }.count) / Double(rows.count)
        XCTAssertEqual(fraction, BenchDataGenerator.expectedFractionWithPrefixB, accuracy: 0.01)
    }

    func testDatasetShape() {
        let dataset = BenchDataset(objects: 1_000, lookups: 500, commits: 20, seed: 1)
        XCTAssertEqual(dataset.rows.count, 1_000)
        XCTAssertEqual(dataset.lookupIDs.count, 500)
        XCTAssertTrue(dataset.lookupIDs.allSatisfy { (1...1_000).contains($0) })
        XCTAssertEqual(dataset.scoreUpdates.count, 100)
        XCTAssertEqual(dataset.deleteIDs.count, 100)
        XCTAssertEqual(dataset.scoreUpdates.map(\.id), Array(Set(dataset.scoreUpdates.map(\.id))).sorted())
        XCTAssertEqual(dataset.deleteIDs, Array(Set(dataset.deleteIDs)).sorted())
        XCTAssertTrue(dataset.deleteIDs.allSatisfy { (1...1_000).contains($0) })
        XCTAssertEqual(dataset.commitOperations.count, 20)
        var insertedIDs: [Int] = []
        for (index, operation) in dataset.commitOperations.enumerated() {
            switch operation {
            case .insert(let row):
                XCTAssertEqual(index % 2, 0)
                insertedIDs.append(row.id)
            case .updateScore(let id, _):
                XCTAssertEqual(index % 2, 1)
                XCTAssertTrue((1...1_000).contains(id))
            }
        }
        XCTAssertEqual(insertedIDs, Array(1_001...1_010))
        let oracle = BenchOracle(dataset: dataset)
        XCTAssertEqual(oracle.finalObjectCount, 1_000 + 10 - 100)
    }

    func testCountQueryUsesBytePrefix() {
        let query = BenchCountQuery(ageRange: 10...20, namePrefix: "Br")
        XCTAssertTrue(query.matches(BenchRow(id: 1, name: "Bruno Xu", age: 10, score: 0, active: true)))
        XCTAssertTrue(query.matches(BenchRow(id: 1, name: "Brianna Xu", age: 20, score: 0, active: true)))
        XCTAssertFalse(query.matches(BenchRow(id: 1, name: "Bruno Xu", age: 21, score: 0, active: true)))
        XCTAssertFalse(query.matches(BenchRow(id: 1, name: "bruno Xu", age: 15, score: 0, active: true)))
        XCTAssertFalse(query.matches(BenchRow(id: 1, name: "Bella Xu", age: 15, score: 0, active: true)))
    }

    // MARK: Statistics

    func testMedian() {
        XCTAssertNil(BenchStatistics.median([Double]()))
        XCTAssertEqual(BenchStatistics.median([4.0]), 4.0)
        XCTAssertEqual(BenchStatistics.median([3.0, 1.0, 2.0]), 2.0)
        XCTAssertEqual(BenchStatistics.median([4.0, 1.0, 3.0, 2.0]), 2.5)
        XCTAssertEqual(BenchStatistics.median([9, 1, 5]), 5)
        XCTAssertEqual(BenchStatistics.ratio(1, 4), 0.25)
        XCTAssertNil(BenchStatistics.ratio(1, 0))
    }

    // MARK: SQLite engine

    func testPrefixUpperBound() {
        XCTAssertEqual(SQLiteBenchEngine.prefixUpperBound("B"), "C")
        XCTAssertEqual(SQLiteBenchEngine.prefixUpperBound("Bz"), "B{")
        XCTAssertEqual(SQLiteBenchEngine.prefixUpperBound("\u{D7FF}"), "\u{E000}")
        XCTAssertEqual(SQLiteBenchEngine.prefixUpperBound("a\u{10FFFF}"), "b")
        XCTAssertNil(SQLiteBenchEngine.prefixUpperBound("\u{10FFFF}"))
    }

    func testSQLiteEngineMatchesOracle() throws {
        let dataset = BenchDataset(objects: 2_000, lookups: 1_000, commits: 10, seed: 99)
        let oracle = BenchOracle(dataset: dataset)
        let engine = SQLiteBenchEngine()
        try engine.open(directory: directory)
        defer { try? engine.close() }
        // (`encryptedCommit` runs on a database of its own: testEncryptedCommitRunsOnItsOwnDatabase.)
        for workload in BenchWorkload.allCases where workload != .compact && !workload.isTyped && workload != .encryptedCommit {
            let value = try BenchRunner.perform(workload, on: engine, dataset: dataset)
            XCTAssertEqual(value, oracle.expected[workload], "\(workload)")
        }
        // Other predicates agree with the oracle too (including a non-ASCII and an empty prefix).
        for query in [BenchCountQuery(ageRange: 0...99, namePrefix: "Br"),
                      BenchCountQuery(ageRange: 50...50, namePrefix: ""),
                      BenchCountQuery(ageRange: 0...99, namePrefix: "Zoé"),
                      BenchCountQuery(ageRange: 0...99, namePrefix: "\u{10FFFF}")] {
            let remaining = Set(dataset.deleteIDs)
            let expected = dataset.rows.filter { !remaining.contains($0.id) && query.matches($0) }.count
                + dataset.commitOperations.filter {
                    if case .insert(let row) = $0 { return query.matches(row) }
                    return false
                }.count
            XCTAssertEqual(try engine.count(query), expected, "\(query)")
        }
        let before = try engine.fileSize()
        let after = try engine.compact()
        XCTAssertGreaterThan(after, 0)
        XCTAssertLessThanOrEqual(after, before)
        XCTAssertEqual(try engine.objectCount(), oracle.finalObjectCount)
        try engine.close()
        let files = engine.databaseFiles()
        XCTAssertEqual(files.first?.lastPathComponent, SQLiteBenchEngine.fileName)
        XCTAssertTrue(FileManager.default.fileExists(atPath: files[0].path))
    }

    /// The file-size measurement checkpoints SQLite's WAL without truncating it: the size is the
    /// main file's, and the small commits that follow overwrite the WAL SQLite already has (its
    /// steady state) instead of growing a truncated one.
    func testSQLiteFileSizeLeavesTheWALInPlace() throws {
        let engine = SQLiteBenchEngine()
        try engine.open(directory: directory)
        let rows = (1...3_000).map { BenchRow(id: $0, name: "name \($0)", age: $0 % 90, score: Double($0) / 7, active: $0 % 2 == 0) }
        XCTAssertEqual(try engine.insert(rows), rows.count)
        let wal = directory.appendingPathComponent(SQLiteBenchEngine.fileName + "-wal")
        func size(_ url: URL) throws -> Int { (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? -1 }
        let walBefore = try size(wal)
        XCTAssertGreaterThan(walBefore, 0)
        let reported = try engine.fileSize()
        XCTAssertEqual(reported, try size(directory.appendingPathComponent(SQLiteBenchEngine.fileName)), "the main file's size")
        XCTAssertEqual(try size(wal), walBefore, "the WAL is not truncated")
        _ = try engine.commit([.insert(BenchRow(id: 10_001, name: "after", age: 1, score: 1, active: true))])
        XCTAssertEqual(try size(wal), walBefore, "the next commit writes the WAL from its start")
        try engine.close()
    }

    func testSQLiteEngineIsDurableAndWAL() throws {
        let engine = SQLiteBenchEngine()
        try engine.open(directory: directory)
        XCTAssertEqual(engine.configuration.synchronous, "FULL")
        _ = try engine.commit([.insert(BenchRow(id: 1, name: "Bella Xu", age: 3, score: 1.5, active: true))])
        XCTAssertTrue(FileManager.default.fileExists(
            atPath: directory.appendingPathComponent(SQLiteBenchEngine.fileName + "-wal").path))
        try engine.close()
        // The committed object is in the file.
        let reader = try SQLiteConnection(path: directory.appendingPathComponent(SQLiteBenchEngine.fileName).path)
        XCTAssertEqual(try reader.text("SELECT name FROM objects WHERE id = 1"), "Bella Xu")
        XCTAssertEqual(try reader.text("PRAGMA journal_mode"), "wal")
    }

    // MARK: Runner

    func testRunnerWithTwoSQLiteEnginesComputesMediansAndRatios() throws {
        // Engine 0 ("strata"): repetitions take 0.1, 0.5, 0.3 × k; engine 1: 1, 1, 4 × k, with k
        // the workload's position (1...8). Medians: 0.3 k and 1 k, ratio 0.3.
        let workloadIndex = Dictionary(uniqueKeysWithValues: BenchWorkload.allCases.enumerated().map { ($1, $0 + 1) })
        let timer = ScriptedTimer { step, engine, repetition in
            switch step {
            case .workload(let workload):
                let k = Double(workloadIndex[workload]!)
                return (engine == 0 ? [0.1, 0.5, 0.3] : [1, 1, 4])[repetition] * k
            case .copyReference:
                return engine == 0 ? [1.3, 1.1, 1.2][repetition] : 0.5
            case .durableCopyReference:
                return engine == 0 ? [4.8, 4.6, 5.0][repetition] : 2
            case .syncFloor:
                return [0.09, 0.2, 0.1][repetition]
            case .commitShapeFloor:
                return [0.15, 0.12, 0.3][repetition]
            }
        }
        let report = try BenchRunner(options: smallOptions(), timer: timer).run(engines: twoSQLiteEngines())

        XCTAssertEqual(report.objects, 600)
        XCTAssertEqual(report.repetitions, 3)
        XCTAssertEqual(report.workloads.map(\.workload), BenchWorkload.allCases)
        for result in report.workloads {
            let k = Double(workloadIndex[result.workload]!)
            XCTAssertEqual(result.strataSeconds, 0.3 * k, accuracy: 1e-12)
            XCTAssertEqual(result.sqliteSeconds, 1.0 * k, accuracy: 1e-12)
            XCTAssertEqual(result.ratio ?? -1, 0.3, accuracy: 1e-12)
            XCTAssertEqual(result.samples.strata.count, 3)
            XCTAssertEqual(result.samples.sqlite, [1, 1, 4].map { $0 * k })
        }
        func met(_ workload: BenchWorkload) -> Bool? { report.result(workload)?.met }
        XCTAssertEqual(met(.insert), false)    // 0.3 > 0.25
        XCTAssertEqual(met(.count), false)     // 0.3 > 0.1
        XCTAssertEqual(met(.sum), false)
        XCTAssertEqual(met(.lookup), true)     // 0.3 <= 0.5
        XCTAssertEqual(met(.commit), true)     // 0.3 <= 0.8
        XCTAssertEqual(met(.encryptedCommit), true)
        XCTAssertNil(met(.update))
        XCTAssertEqual(met(.delete), true)     // 0.3 <= 0.5
        // Compaction: Strata 0.3 × 9 = 2.7 s, durable copy median 4.8 s: 2.7 <= 4.8 / 0.9 → met;
        // speed 1.2 / 2.7 of plain cp (1.2 s), reported for information.
        XCTAssertEqual(report.cpSeconds.strata, 1.2, accuracy: 1e-12)
        XCTAssertEqual(report.cpSeconds.sqlite, 0.5, accuracy: 1e-12)
        XCTAssertEqual(met(.compact), true)
        XCTAssertEqual(report.compactionSpeedVsCp.strata ?? -1, 1.2 / 2.7, accuracy: 1e-12)
        // The durable reference: median 4.8 s, so compaction (2.7 s) runs at 4.8 / 2.7 its speed.
        XCTAssertEqual(report.durableCopySeconds.strata, 4.8, accuracy: 1e-12)
        XCTAssertEqual(report.durableCopySeconds.sqlite, 2, accuracy: 1e-12)
        XCTAssertEqual(report.compactionSpeedVsDurableCopy.strata ?? -1, 4.8 / 2.7, accuracy: 1e-12)
        // The sync floor: once per repetition, median 0.1 s; the table reads the commit rows against it.
        XCTAssertEqual(report.syncFloorSeconds, 0.1, accuracy: 1e-12)
        let table = report.table()
        XCTAssertTrue(table.contains("12 x 4 KiB pwrite + fdatasync"), table)
        XCTAssertTrue(table.contains("sync floor: one 4 KiB pwrite + fdatasync per commit takes 0.1000 s; commit rows against it: commit Strata 15.00x, SQLite 50.00x; encryptedCommit"), table)
        // The commit-shape reference: median 0.15 s; read against the commit row (Strata 1.5 s,
        // SQLite 5 s: workload 5).
        XCTAssertEqual(report.commitShapeFloorSeconds, 0.15, accuracy: 1e-12)
        XCTAssertTrue(table.contains("12 x 16 KiB run + slot + fdatasync"), table)
        XCTAssertTrue(table.contains("commit shape: the writes of a Strata small commit (a 16 KiB run and the 168-byte meta slot) + fdatasync take 0.1500 s per 12 commits with no CPU work: 0.03x SQLite's whole commit; Strata's commit spends the other 1.3500 s computing"), table)

        XCTAssertGreaterThan(report.fileBytes.strata, 0)
        XCTAssertGreaterThan(report.fileBytes.sqlite, 0)
        XCTAssertGreaterThan(report.compactedFileBytes.sqlite, 0)
        // Measured again after the small commits, on the same databases (which only grew).
        XCTAssertGreaterThanOrEqual(report.committedFileBytes.strata, report.fileBytes.strata)
        XCTAssertGreaterThanOrEqual(report.committedFileBytes.sqlite, report.fileBytes.sqlite)
        XCTAssertTrue(table.contains("file size after the commits (bytes)"), table)
        // The stand-in has an extra index, so its file is larger.
        XCTAssertGreaterThan(report.fileBytes.strata, report.fileBytes.sqlite)
        XCTAssertEqual(report.fileMet, false)

        // Every run directory was removed.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testEvenRepetitionCountUsesMeanOfMiddleValues() throws {
        let timer = ScriptedTimer { step, engine, repetition in
            guard case .workload = step else { return 1 }
            return engine == 0 ? [1, 4, 2, 3][repetition] : 10
        }
        let report = try BenchRunner(options: smallOptions(repetitions: 4), timer: timer)
            .run(engines: twoSQLiteEngines())
        for result in report.workloads {
            XCTAssertEqual(result.strataSeconds, 2.5, accuracy: 1e-12)
            XCTAssertEqual(result.ratio ?? -1, 0.25, accuracy: 1e-12)
        }
    }

    func testRunnerAlternatesEngineOrder() throws {
        let timer = OrderRecordingTimer()
        _ = try BenchRunner(options: smallOptions(repetitions: 2), timer: timer).run(engines: twoSQLiteEngines())
        for repetition in 0..<2 {
            let inserts = timer.calls.filter { $0.0 == .workload(.insert) && $0.2 == repetition }.map(\.1)
            XCTAssertEqual(inserts, repetition == 0 ? [0, 1] : [1, 0])
        }
        XCTAssertEqual(timer.calls.filter { $0.0 == .copyReference }.count, 4)
        XCTAssertEqual(timer.calls.filter { $0.0 == .durableCopyReference }.count, 4)
        XCTAssertEqual(timer.calls.filter { $0.0 == .syncFloor }.count, 2, "once per repetition")
        XCTAssertEqual(timer.calls.filter { $0.0 == .commitShapeFloor }.count, 2, "once per repetition")
        XCTAssertEqual(timer.calls.count, 2 * 2 * (BenchWorkload.allCases.count + 2) + 2 * 2)
    }

    func testMismatchNamesTheWorkload() throws {
        let runner = BenchRunner(options: smallOptions(repetitions: 1))
        XCTAssertThrowsError(try runner.run(engines: [MiscountingEngine(), SQLiteBenchEngine()])) { error in
            guard case BenchError.resultMismatch(let workload, let details) = error else {
                return XCTFail("unexpected error \(error)")
            }
            XCTAssertTrue(workload.contains("count"), workload)
            XCTAssertTrue(details.contains("Miscounting") && details.contains("SQLite"), details)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testSQLiteTypedReferenceMatchesOracle() throws {
        let dataset = BenchDataset(objects: 2_000, lookups: 1_000, commits: 10, seed: 7)
        let expected = BenchRunner.typedExpected(dataset, oracle: BenchOracle(dataset: dataset))
        let engine = SQLiteTypedBenchEngine()
        try engine.open(directory: directory)
        defer { try? engine.close() }
        for workload in BenchWorkload.allCases where workload.isTyped {
            XCTAssertThrowsError(try BenchRunner.perform(workload, on: SQLiteBenchEngine(), dataset: dataset))
            let value = try BenchRunner.performTyped(workload, on: engine, dataset: dataset)
            XCTAssertEqual(value, expected[workload], "\(workload)")
        }
    }

    func testRejectsWrongEngineLists() {
        let runner = BenchRunner(options: smallOptions(repetitions: 1))
        let engine = SQLiteBenchEngine()
        XCTAssertThrowsError(try runner.run(engines: [engine]))
        XCTAssertThrowsError(try runner.run(engines: [engine, engine]))
        XCTAssertThrowsError(try BenchRunner(options: BenchOptions(objects: 0)).run(engines: twoSQLiteEngines()))
    }

    // MARK: Output

    func testJSONOutputShape() throws {
        var printed: [String] = []
        let report = try runBenchmark(options: smallOptions(repetitions: 1, json: true),
                                      engines: twoSQLiteEngines()) { printed.append($0) }
        XCTAssertEqual(printed.count, 1)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(printed[0].utf8)) as? [String: Any])
        let workloads = try XCTUnwrap(object["workloads"] as? [[String: Any]])
        XCTAssertGreaterThan(try XCTUnwrap(object["syncFloorSeconds"] as? Double), 0)
        XCTAssertGreaterThan(try XCTUnwrap(object["commitShapeFloorSeconds"] as? Double), 0)
        XCTAssertEqual(workloads.count, 13)
        let keywords = ["insert", "count", "sum", "lookup", "commit", "encrypted", "update", "delete", "compact",
                        "typed insert", "typed iterate", "lookup", "commit"]
        XCTAssertEqual(workloads.compactMap { $0["workload"] as? String }.suffix(4),
                       ["typedInsert", "typedIterate", "typedLookup", "typedCommit"])
        XCTAssertTrue(workloads.suffix(4).allSatisfy { ($0["name"] as? String)?.hasPrefix("typed ") == true })
        for (keyword, workload) in zip(keywords, workloads) {
            let name = try XCTUnwrap(workload["name"] as? String)
            XCTAssertTrue(name.contains(keyword), "\(name) lacks \(keyword)")
            let strata = try XCTUnwrap(workload["strataSeconds"] as? Double)
            let sqlite = try XCTUnwrap(workload["sqliteSeconds"] as? Double)
            XCTAssertGreaterThan(strata, 0)
            XCTAssertGreaterThan(sqlite, 0)
            let ratio = try XCTUnwrap(workload["ratio"] as? Double)
            XCTAssertEqual(ratio, strata / sqlite, accuracy: 1e-9)
            XCTAssertNotNil(workload["goal"])
            XCTAssertNotNil(workload["met"])
        }
        let fileBytes = try XCTUnwrap(object["fileBytes"] as? [String: Any])
        XCTAssertEqual(Set(fileBytes.keys), ["strata", "sqlite"])
        XCTAssertEqual(fileBytes["sqlite"] as? Int, report.fileBytes.sqlite)
        let committed = try XCTUnwrap(object["committedFileBytes"] as? [String: Any])
        XCTAssertEqual(committed["strata"] as? Int, report.committedFileBytes.strata)
        XCTAssertEqual(committed["sqlite"] as? Int, report.committedFileBytes.sqlite)
        XCTAssertEqual(object["objects"] as? Int, 600)
        XCTAssertEqual(object["repetitions"] as? Int, 1)
        let machine = try XCTUnwrap(object["machine"] as? [String: Any])
        XCTAssertGreaterThan(machine["cores"] as? Int ?? 0, 0)
        XCTAssertNotNil(machine["os"] as? String)
        XCTAssertNotNil(object["cpSeconds"] as? [String: Any])
        XCTAssertNotNil(object["durableCopySeconds"] as? [String: Any])
    }

    func testTableOutput() throws {
        var printed = ""
        _ = try runBenchmark(options: smallOptions(repetitions: 1), engines: twoSQLiteEngines()) { printed += $0 }
        let lines = printed.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("workload") && $0.contains("Strata s")
            && $0.contains("SQLite s") && $0.contains("ratio") && $0.contains("goal") && $0.contains("met?") })
        for keyword in ["insert", "count", "sum", "lookup", "commit", "update", "delete", "compact", "file size"] {
            XCTAssertTrue(lines.contains { $0.contains(keyword) }, "no line for \(keyword)")
        }
        XCTAssertTrue(printed.contains("machine:"))
        XCTAssertTrue(printed.contains("SQLite-indexed"))
    }

    /// The stand-in for the realm-core reference binary: a script that reads the inputs file
    /// and computes every answer in memory (Scripts/reference_bench.py).
    private var referenceScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Scripts/reference_bench.py").path
    }

    func testRealmCoreReferenceReadsTheInputsFileAndItsAnswersAreChecked() throws {
        var options = smallOptions(repetitions: 2)
        options.realmCoreBinary = referenceScript
        var printed = ""
        let report = try runBenchmark(options: options, engines: twoSQLiteEngines()) { printed += $0 }
        // The script recomputed count, sum and the lookup fingerprint from the file: had the
        // writer garbled a row, a score's bits or a key, the oracle check would have thrown.
        let core = try XCTUnwrap(report.realmCore)
        XCTAssertEqual(Set(core.seconds.keys), Set(BenchRealmCoreResult.workloads))
        XCTAssertEqual(core.seconds[.insert] ?? 0, 0.0015, accuracy: 1e-12)  // median of 0.001, 0.002
        XCTAssertEqual(core.fileBytes, 8192)
        XCTAssertEqual(core.compactedFileBytes, 4096)
        XCTAssertTrue(printed.contains("Strata vs realm-core"))
        XCTAssertTrue(printed.split(separator: "\n").contains { $0.hasPrefix("workload") && $0.contains("realm-core s") })

        options.json = true
        var json = ""
        _ = try runBenchmark(options: options, engines: twoSQLiteEngines()) { json += $0 }
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let realmCore = try XCTUnwrap(object["realmCore"] as? [String: Any])
        let workloads = try XCTUnwrap(realmCore["workloads"] as? [String: [String: Any]])
        XCTAssertEqual(Set(workloads.keys), Set(BenchRealmCoreResult.workloads.map(\.rawValue)))
        XCTAssertNotNil(workloads["delete"]?["ratio"] as? Double)
    }

    func testRealmCoreReferenceWithAWrongAnswerIsRefused() throws {
        var options = smallOptions(repetitions: 1)
        options.realmCoreBinary = referenceScript
        setenv("STRATA_TEST_WRONG_COUNT", "1", 1)
        defer { unsetenv("STRATA_TEST_WRONG_COUNT") }
        XCTAssertThrowsError(try runBenchmark(options: options, engines: twoSQLiteEngines()) { _ in }) { error in
            guard case BenchError.resultMismatch(let workload, let details) = error else {
                return XCTFail("expected a mismatch, got \(error)")
            }
            XCTAssertTrue(workload.contains("count"), workload)
            XCTAssertTrue(details.contains("realm-core returned"), details)
        }
        options.realmCoreBinary = directory.appendingPathComponent("missing-binary").path
        XCTAssertThrowsError(try runBenchmark(options: options, engines: twoSQLiteEngines()) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("build.sh"), "\(error)")
        }
    }

    func testCopyReferenceCopiesAndReportsFailures() throws {
        let source = directory.appendingPathComponent("source.bin")
        try Data(repeating: 7, count: 10_000).write(to: source)
        let empty = directory.appendingPathComponent("empty.bin")
        try Data().write(to: empty)
        let target = directory.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let copies = try BenchCopyReference.copy([source, empty, directory.appendingPathComponent("missing")],
                                                 into: target)
        XCTAssertEqual(copies.map(\.lastPathComponent), ["cp-copy-source.bin"])
        XCTAssertEqual(try Data(contentsOf: copies[0]), try Data(contentsOf: source))
        BenchCopyReference.removeCopies(copies)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copies[0].path))
        XCTAssertThrowsError(try BenchCopyReference.copy([empty], into: target))
        XCTAssertThrowsError(try BenchCopyReference.run("/bin/cp", ["/nonexistent-\(UUID())", target.path + "/x"]))
    }

    func testFormatting() {
        XCTAssertEqual(BenchFormat.grouped(1_234_567), "1,234,567")
        XCTAssertEqual(BenchFormat.grouped(12), "12")
        XCTAssertEqual(BenchFormat.grouped(-1_000), "-1,000")
        XCTAssertEqual(BenchFormat.number(0.3333, digits: 2), "0.33")
        XCTAssertEqual(BenchFormat.number(nil, digits: 2), "-")
        XCTAssertEqual(BenchFormat.bytes(1_536), "1.5 KiB")
        XCTAssertEqual(BenchGoal.maxRatio(0.25).text, "<= 0.25")
        XCTAssertEqual(BenchGoal.durableCopySpeedFraction(0.9).text, ">= 0.9x durable cp")
    }
}
