import XCTest
import Foundation
@testable import StrataBench
import StrataStorage

/// The Strata adapter runs every workload and agrees with SQLite and the in-memory oracle
/// (the runner throws `resultMismatch` otherwise). A smoke run, not a timed test.
final class StrataBenchEngineTests: XCTestCase {
    func testStrataAgreesWithSQLiteOnEveryWorkload() throws {
        let options = BenchOptions(objects: 3000, repetitions: 1, json: true, lookups: 500, commits: 20, progress: false)
        var out = ""
        let report = try runBenchmark(options: options, engines: [StrataBenchEngine(), SQLiteBenchEngine()]) { out += $0 }
        XCTAssertFalse(out.isEmpty)
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        let workloads = try XCTUnwrap(json?["workloads"] as? [[String: Any]])
        for word in ["insert", "count", "sum", "lookup", "commit", "update", "delete", "compact"] {
            XCTAssertTrue(workloads.contains { ($0["name"] as? String)?.contains(word) == true }, word)
        }
        // The typed API's workloads ran beside SQLite's (the runner checked their values).
        let keys = workloads.compactMap { $0["workload"] as? String }
        for key in ["typedInsert", "typedIterate", "typedLookup", "typedCommit"] { XCTAssertTrue(keys.contains(key), key) }
        let typed = StrataTypedBenchEngine()
        let dataset = BenchDataset(objects: 500, lookups: 100, commits: 6, seed: 3)
        let expected = BenchRunner.typedExpected(dataset, oracle: BenchOracle(dataset: dataset))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("typed-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try typed.open(directory: dir)
        for workload in BenchWorkload.allCases where workload.isTyped {
            XCTAssertEqual(try BenchRunner.performTyped(workload, on: typed, dataset: dataset), expected[workload], "\(workload)")
        }
        try typed.close()
        let bytes = try XCTUnwrap(json?["fileBytes"] as? [String: Any])
        XCTAssertGreaterThan(bytes["strata"] as? Int ?? 0, 0)
        _ = report
    }

    /// `encryptedCommit` runs on an engine of its own: for Strata an encrypted file (no key, no
    /// open), for SQLite a plain one; both match the oracle on the same inputs.
    func testEncryptedCommitRunsOnAnEncryptedFile() throws {
        let dataset = BenchDataset(objects: 400, lookups: 10, commits: 12, seed: 8)
        let oracle = BenchOracle(dataset: dataset)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("enc-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for base in [StrataBenchEngine(), SQLiteBenchEngine()] as [any BenchEngine] {
            let engine = BenchRunner.encryptedEngine(for: base)
            XCTAssertFalse(engine === base)
            let dir = root.appendingPathComponent(engine.name)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try engine.open(directory: dir)
            XCTAssertEqual(try engine.insert(dataset.rows), dataset.rows.count)
            XCTAssertEqual(try BenchRunner.perform(.encryptedCommit, on: engine, dataset: dataset), oracle.expected[.encryptedCommit])
            try engine.close()
            guard base is StrataBenchEngine else { continue }
            let path = try XCTUnwrap(engine.databaseFiles().first).path
            XCTAssertThrowsError(try Store(path: path)) { XCTAssertEqual($0 as? StorageError, .encryptionKeyRequired(path: path)) }
            var options = StoreOptions()
            options.encryptionKey = StrataBenchEngine.benchKey
            let store = try Store(path: path, options: options)
            XCTAssertTrue(store.isEncrypted)
            store.close()
        }
    }

    /// The delete skips ids with no object (as SQLite's `DELETE ... WHERE id = ?` does): a
    /// missing id first makes the delete report it, then the present ones go.
    func testDeleteSkipsMissingIDsLikeSQLite() throws {
        let dataset = BenchDataset(objects: 200, lookups: 10, commits: 2, seed: 5)
        for engine in [StrataBenchEngine() as BenchEngine, SQLiteBenchEngine()] {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-delete-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            try engine.open(directory: dir)
            XCTAssertEqual(try engine.insert(dataset.rows), 200)
            XCTAssertEqual(try engine.delete(ids: [3, 7, 1_000_000, 50]), 3, engine.name)
            XCTAssertEqual(try engine.objectCount(), 197, engine.name)
            XCTAssertEqual(try engine.delete(ids: [4, 5]), 2, engine.name)
            XCTAssertEqual(try engine.delete(ids: [3, 7]), 0, engine.name)
            XCTAssertEqual(try engine.objectCount(), 195, engine.name)
            try engine.close()
        }
    }
}
