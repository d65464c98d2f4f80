import XCTest
import Foundation

/// `strata bench` at a small N: the CI smoke run of the benchmark (not a timed test). The
/// runner fails the command if Strata and SQLite disagree on any workload.
final class BenchCommandTests: XCTestCase {
    func testBenchSmokeRunPrintsTheDocumentedJSON() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try StrataCLI.run(["bench", "--objects", "2000", "--repetitions", "1", "--lookups", "300", "--commits", "10", "--json", "--directory", dir.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let workloads = try XCTUnwrap(json["workloads"] as? [[String: Any]])
        let names = workloads.compactMap { $0["name"] as? String }.joined(separator: " ")
        for word in ["insert", "count", "sum", "lookup", "commit", "update", "delete", "compact"] { XCTAssertTrue(names.contains(word), word) }
        for w in workloads { XCTAssertNotNil(w["strataSeconds"] as? Double); XCTAssertNotNil(w["sqliteSeconds"] as? Double); XCTAssertNotNil(w["ratio"] as? Double) }
        let bytes = try XCTUnwrap(json["fileBytes"] as? [String: Any])
        XCTAssertGreaterThan(bytes["strata"] as? Int ?? 0, 0)
        XCTAssertGreaterThan(bytes["sqlite"] as? Int ?? 0, 0)
    }
}
