import XCTest
import Foundation

/// `strata bench` at a small N: the CI smoke run of the benchmark (not a timed test). The
/// runner fails the command if Strata and SQLite disagree on any workload.
final class BenchCommandTests: XCTestCase {
    func testBenchSmokeRunPrintsTheDocumentedJSON() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try StrataCLI.run(["bench", "--objects", "2000", "--repetitions", "1", "--lookups", "300", "--commits", "10", "--notify-changes", "100", "--json", "--directory", dir.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let workloads = try XCTUnwrap(json["workloads"] as? [[String: Any]])
        let names = workloads.compactMap { $0["name"] as? String }.joined(separator: " ")
        for word in ["insert", "count", "sum", "lookup", "commit", "update", "delete", "compact"] { XCTAssertTrue(names.contains(word), word) }
        for w in workloads where w["workload"] as? String != "notifyLatency" {
            XCTAssertNotNil(w["strataSeconds"] as? Double); XCTAssertNotNil(w["sqliteSeconds"] as? Double); XCTAssertNotNil(w["ratio"] as? Double)
        }
        // The notification workload: another strata process committed 100 changes, each seen
        // by both observers (whole class, filtered and sorted).
        let notify = try XCTUnwrap(workloads.first { $0["workload"] as? String == "notifyLatency" }, "no notifyLatency entry")
        XCTAssertEqual(notify["changes"] as? Int, 100)
        XCTAssertEqual(notify["missed"] as? Int, 0)
        XCTAssertEqual(notify["objects"] as? Int, 2000)
        let p50 = try XCTUnwrap(notify["p50Seconds"] as? Double), p99 = try XCTUnwrap(notify["p99Seconds"] as? Double)
        // Measured from the writer's `write {}` returning, which comes after the commit is
        // published: on a small file an observer can start a little before (a negative latency).
        XCTAssertLessThan(p50, 5)
        XCTAssertGreaterThanOrEqual(p99, p50)
        for observer in ["wholeClass", "filteredSorted"] {
            let l = try XCTUnwrap(notify[observer] as? [String: Any], observer)
            XCTAssertNotNil(l["p50"] as? Double, observer); XCTAssertNotNil(l["p99"] as? Double, observer)
        }
        XCTAssertNotNil(notify["goal"] as? String)
        // Where Strata's compaction spent its time (medians of the repetitions).
        let phases = try XCTUnwrap(json["compactionPhases"] as? [String: Any], "no compactionPhases")
        for key in ["copySeconds", "syncSeconds", "replaceSeconds"] { XCTAssertGreaterThan(phases[key] as? Double ?? 0, 0, key) }
        let bytes = try XCTUnwrap(json["fileBytes"] as? [String: Any])
        XCTAssertGreaterThan(bytes["strata"] as? Int ?? 0, 0)
        XCTAssertGreaterThan(bytes["sqlite"] as? Int ?? 0, 0)
    }
}
