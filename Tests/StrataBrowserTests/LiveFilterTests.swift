import Foundation
import StrataObjects
import StrataStorage
import StrataTooling
import XCTest

/// Filtered and sorted views follow other handles' commits from the change records (as
/// `Results` notifications do), with the same rows a fresh full query gives.
final class LiveFilterTests: XCTestCase {
    var dir: URL!
    var path: String!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-live-filter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent("demo.strata").path
        try DemoDatabase.create(at: path, events: 1_000, people: 40)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    /// The views compared: filters, filters with sorts (with many ties, with nulls), a sort alone.
    let views: [(filter: String?, sort: SortSpec?)] = [
        ("kind == 'purchase'", nil),
        ("kind == 'purchase' OR value > 700", SortSpec(property: "value", ascending: false)),
        ("value > 200", SortSpec(property: "kind")),
        (nil, SortSpec(property: "payload")),
        ("payload == nil OR kind BEGINSWITH 'l'", SortSpec(property: "at", ascending: false)),
    ]

    private func keys(_ source: DatabaseDataSource, _ view: (filter: String?, sort: SortSpec?)) throws -> [ObjKey] {
        try source.rows(className: "Event", filter: view.filter, sort: view.sort, range: 0..<1_000_000).map { $0.ref!.key }
    }

    /// Every view of `source` equals a fresh full query at the same version.
    private func assertMatchesFullQuery(_ source: DatabaseDataSource, _ round: Int, line: UInt = #line) throws {
        let fresh = try DatabaseDataSource(path: path, readOnly: true)
        defer { fresh.close() }
        XCTAssertEqual(fresh.status().version, source.status().version, "round \(round)", line: line)
        for view in views {
            let followed = try keys(source, view), full = try keys(fresh, view)
            XCTAssertEqual(followed, full, "round \(round): \(view.filter ?? "all") sorted by \(view.sort?.property ?? "key")", line: line)
            if let filter = view.filter {
                XCTAssertEqual(try source.count(className: "Event", filter: filter), try fresh.count(className: "Event", filter: filter),
                               "round \(round): count of \(filter)", line: line)
            }
        }
    }

    private static let kinds = ["click", "view", "purchase", "login", "logout", "search", "share", "error"]

    /// One commit of random inserts, deletes and modifications of events (and sometimes of a
    /// person: a modification elsewhere leaves the views alone, a deletion elsewhere re-runs them).
    private func randomCommit(_ db: Database, _ random: inout SeededGenerator, nextId: inout Int64) throws {
        let w = try db.write(label: "live filter test")
        let existing = try w.objectKeys("Event")
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let kind = Self.kinds.randomElement(using: &random)!
            try w.create("Event", values: [
                "id": .int(nextId), "kind": .string(kind), "value": .double(Double(Int.random(in: 0...1000, using: &random))),
                "at": .date(Timestamp(nanosecondsSince1970: Int64.random(in: 1_700_000_000...1_800_000_000, using: &random) * 1_000_000_000)),
                "payload": Bool.random(using: &random) ? .null : .string(["a", "b", "café", "z"].randomElement(using: &random)!),
            ])
            nextId += 1
        }
        for _ in 0..<Int.random(in: 0...5, using: &random) {
            let key = existing.randomElement(using: &random)!
            guard try w.exists("Event", key) else { continue }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: try w.set("Event", key, "kind", .string(Self.kinds.randomElement(using: &random)!))
            // Values from a small set: many ties, which sort by key.
            case 1: try w.set("Event", key, "value", .double(Double(Int.random(in: 0...10, using: &random) * 100)))
            case 2: try w.set("Event", key, "payload", Bool.random(using: &random) ? .null : .string("b"))
            default: try w.set("Event", key, "at", .date(Timestamp(nanosecondsSince1970: (1_750_000_000) * 1_000_000_000)))
            }
        }
        let doomed = Set((0..<Int.random(in: 0...3, using: &random)).map { _ in existing.randomElement(using: &random)! })
        try w.delete("Event", keys: Array(doomed))
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            if let person = try w.objectKeys("Person").randomElement(using: &random) { try w.set("Person", person, "score", .double(1)) }
        case 1:
            if let person = try w.objectKeys("Person").randomElement(using: &random) { try w.delete("Person", person) }
        default: break
        }
        try w.commit()
    }

    func testViewsFollowingRandomCommitsEqualAFullQuery() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let other = try Database(path: path)
        defer { other.close() }
        for view in views { _ = try keys(source, view) }
        let initialRuns = source.fullQueryRuns
        var random = SeededGenerator(seed: 20_261_127)
        var nextId: Int64 = 1_000_000
        var rerunRounds = 0
        for round in 0..<40 {
            let runs = source.fullQueryRuns
            // One commit, or several between two polls (the records are merged).
            for _ in 0..<(round % 3 == 2 ? 3 : 1) { try randomCommit(other, &random, nextId: &nextId) }
            _ = source.pollChanges()
            try assertMatchesFullQuery(source, round)
            if source.fullQueryRuns > runs { rerunRounds += 1 }
        }
        // Only the rounds that deleted a person ran the queries again (in full, once per view).
        XCTAssertEqual(source.fullQueryRuns - initialRuns, rerunRounds * initialRuns)
        XCTAssertGreaterThan(rerunRounds, 0)
        XCTAssertLessThan(rerunRounds, 20)
    }

    func testFollowingACommitDoesNotRunTheQueryAgain() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let other = try Database(path: path)
        defer { other.close() }
        for view in views { _ = try keys(source, view) }
        let runs = source.fullQueryRuns
        XCTAssertGreaterThan(runs, 0)
        for round in 0..<10 {
            let w = try other.write()
            try w.create("Event", values: ["id": .int(Int64(2_000_000 + round)), "kind": .string("purchase"), "value": .double(Double(round * 90)),
                                           "at": .date(Timestamp(nanosecondsSince1970: (1_720_000_000) * 1_000_000_000))])
            let keys = try w.objectKeys("Event")
            try w.set("Event", keys[round * 7], "kind", .string(round % 2 == 0 ? "purchase" : "login"))
            try w.set("Event", keys[round * 11 + 3], "value", .double(750))
            try w.delete("Event", keys[round * 13 + 5])
            // A change of another class (no deletion) leaves the views to the records too.
            try w.set("Person", 2, "score", .double(Double(round)))
            try w.commit()
            _ = source.pollChanges()
            try assertMatchesFullQuery(source, round)
        }
        XCTAssertEqual(source.fullQueryRuns, runs, "the views followed ten commits without running their queries again")

        // A deleted object of another class (links to it are cleared) runs them again, as
        // notifications do.
        let w = try other.write()
        try w.delete("Person", 3)
        try w.commit()
        _ = source.pollChanges()
        try assertMatchesFullQuery(source, 10)
        XCTAssertEqual(source.fullQueryRuns, 2 * runs, "every view ran again, as when it was first shown")
    }

    /// A background filter that finished at a version the browser has since left is brought
    /// forward from the records, not run again.
    func testABackgroundFilterFinishedBehindIsUpdatedFromTheRecords() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let other = try Database(path: path)
        defer { other.close() }
        let done = expectation(description: "filter finished")
        let job = source.startFilter(className: "Event", filter: "kind == 'purchase'") { done.fulfill() }
        wait(for: [done], timeout: 30)
        var random = SeededGenerator(seed: 11)
        var nextId: Int64 = 4_000_000
        for _ in 0..<3 {
            let w = try other.write()
            try w.create("Event", values: ["id": .int(nextId), "kind": .string("purchase"), "value": .double(1),
                                           "at": .date(Timestamp(nanosecondsSince1970: 0))])
            let keys = try w.objectKeys("Event")
            try w.set("Event", keys.randomElement(using: &random)!, "kind", .string("purchase"))
            try w.delete("Event", keys.randomElement(using: &random)!)
            try w.commit()
            nextId += 1
        }
        _ = source.pollChanges()
        let count = try source.finishFilter(job)
        XCTAssertEqual(source.fullQueryRuns, 0, "the keys found three versions back were updated, not found again")
        let fresh = try DatabaseDataSource(path: path, readOnly: true)
        defer { fresh.close() }
        XCTAssertEqual(count, try fresh.count(className: "Event", filter: "kind == 'purchase'"))
        XCTAssertEqual(try keys(source, ("kind == 'purchase'", nil)), try keys(fresh, ("kind == 'purchase'", nil)))
        XCTAssertEqual(source.fullQueryRuns, 0)
    }

    func testViewsRunAgainWhenTheRecordsDoNotReachBack() throws {
        let kept = ChangeLog.keptVersions
        ChangeLog.keptVersions = 4
        defer { ChangeLog.keptVersions = kept }
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let other = try Database(path: path)
        defer { other.close() }
        for view in views { _ = try keys(source, view) }
        let runs = source.fullQueryRuns
        var random = SeededGenerator(seed: 7)
        var nextId: Int64 = 3_000_000
        for _ in 0..<6 { try randomCommit(other, &random, nextId: &nextId) }
        _ = source.pollChanges()
        try assertMatchesFullQuery(source, 0)
        XCTAssertGreaterThan(source.fullQueryRuns, runs, "six commits behind four kept records: the views ran again")
    }
}

/// A reproducible generator (SplitMix64) for the random commits.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
