import XCTest
import Foundation
@testable import StrataBench

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
        let bytes = try XCTUnwrap(json?["fileBytes"] as? [String: Any])
        XCTAssertGreaterThan(bytes["strata"] as? Int ?? 0, 0)
        _ = report
    }
}
