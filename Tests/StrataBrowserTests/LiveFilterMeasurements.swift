import Foundation
import StrataObjects
import StrataStorage
import StrataTooling
import XCTest

/// Time for the data source to follow one commit of another handle while a filtered and sorted
/// view of a 135,000-object class is shown (run with STRATA_MEASURE_LIVE_FILTER=1; it builds the
/// database first, which takes a while in a debug build). Prints, asserts nothing about time.
final class LiveFilterMeasurements: XCTestCase {
    func testFollowingOneCommitWithALargeFilteredClass() throws {
        guard ProcessInfo.processInfo.environment["STRATA_MEASURE_LIVE_FILTER"] != nil else {
            throw XCTSkip("set STRATA_MEASURE_LIVE_FILTER=1 to measure")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-live-measure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("demo.strata").path
        // 150,000 created, every 10th deleted: 135,000 events.
        try DemoDatabase.create(at: path, events: 150_000, people: 200)
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let other = try Database(path: path)
        defer { other.close() }
        let churner = try DemoDatabase.Churner(database: other, seed: 7)
        XCTAssertEqual(source.classes().first { $0.name == "Event" }?.count.value, 135_000)
        let views: [(String, String, SortSpec?)] = [
            ("indexed filter", "kind == 'purchase'", nil),
            ("indexed filter+sort", "kind == 'purchase'", SortSpec(property: "value", ascending: false)),
            ("scanned filter+sort", "value < 250 AND payload != nil", SortSpec(property: "at")),
        ]
        for (label, filter, sort) in views {
            _ = try source.rows(className: "Event", filter: filter, sort: sort, range: 0..<40)
            var times: [Double] = []
            for _ in 0..<20 {
                _ = try churner.step()
                let start = DispatchTime.now().uptimeNanoseconds
                _ = source.pollChanges()
                let polled = DispatchTime.now().uptimeNanoseconds
                _ = try source.count(className: "Event", filter: filter)
                _ = try source.rows(className: "Event", filter: filter, sort: sort, range: 0..<40)
                let end = DispatchTime.now().uptimeNanoseconds
                times.append(Double(end - start) / 1e6)
                if ProcessInfo.processInfo.environment["STRATA_MEASURE_VERBOSE"] != nil {
                    print("MEASURE round: poll \(Double(polled - start) / 1e6) ms, count+rows \(Double(end - polled) / 1e6) ms")
                }
            }
            times.sort()
            print("MEASURE follow one commit (\(label)) ms: median \(times[times.count / 2]) max \(times.last!)")
        }
    }
}
