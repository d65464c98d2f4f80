import XCTest
import Foundation
import StrataObjects
import StrataStorage
@testable import StrataTooling

/// Issue 16: the Versions report's "what changed" and the browser's live marks come from the
/// commits' change records (the records notifications use), checked on the real engine.
final class ChangeSummaryTests: XCTestCase {
    var dir: URL!
    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-summary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func makeDatabase() throws -> Database {
        let schema = Schema([ObjectSchema(className: "Dog", properties: [
            PropertySchema(name: "name", type: .string), PropertySchema(name: "age", type: .int),
            PropertySchema(name: "owner", type: .string)])])
        return try Database(path: dir.appendingPathComponent("dogs.strata").path, schema: schema, schemaVersion: 1)
    }

    func testVersionsSayWhatEachCommitChangedByProperty() throws {
        let db = try makeDatabase()
        defer { db.close() }
        var w = try db.write()
        var keys: [ObjKey] = []
        for i in 0..<1_200 { keys.append(try w.create("Dog", values: ["name": .string("d\(i)"), "age": .int(Int64(i % 15))])) }
        try w.set("Dog", keys[0], "age", .int(99))   // changed in the commit that inserted it
        try w.commit()
        w = try db.write()
        try w.set("Dog", keys[1], "age", .int(3))
        try w.set("Dog", keys[1], "age", .int(4))      // twice: still one object
        try w.set("Dog", keys[2], "name", .string("Rex"))
        try w.delete("Dog", keys[3])
        try w.commit()
        w = try db.write()
        try w.set("Dog", keys[5], "owner", .string("Ada"))
        w.abort()
        let report = try DatabaseReports.versions(store: db.store)
        let summaries = report.commits.map(\.summary)
        XCTAssertEqual(summaries.first, "Dog: 2 modified (age, name), 1 deleted")
        XCTAssertEqual(summaries.dropFirst().first, "Dog: 1,200 inserted")
        XCTAssertFalse(report.readers.contains { $0.threadLabel == "strata versions" },
                       "the report's own read must not be listed as a reader")
    }

    func testLiveMarksNameEveryObjectAnotherHandleTouched() throws {
        let db = try makeDatabase()
        var w = try db.write()
        var keys: [ObjKey] = []
        for i in 0..<50 { keys.append(try w.create("Dog", values: ["name": .string("d\(i)"), "age": .int(1)])) }
        try w.commit()
        let path = db.store.path
        db.close()
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        _ = try source.rows(className: "Dog", filter: nil, sort: nil, range: 0..<5)   // rows 0–4 shown
        let other = try Database(path: path)
        defer { other.close() }
        w = try other.write()
        try w.set("Dog", keys[40], "age", .int(7))       // not shown
        try w.delete("Dog", keys[2])                      // shown
        let added = try w.create("Dog", values: ["name": .string("new")])
        try w.commit()
        let events = source.pollChanges()
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.summary, "Dog: 1 inserted, 1 modified (age), 1 deleted")
        XCTAssertEqual(Set(events.first?.changedObjects ?? []), [ObjectRef(className: "Dog", key: keys[40]), ObjectRef(className: "Dog", key: added)])
        XCTAssertEqual(events.first?.deletedObjects, [ObjectRef(className: "Dog", key: keys[2])])
    }

    func testACommitBeyondTheMarkLimitComparesTheShownRowsInstead() throws {
        let db = try makeDatabase()
        var w = try db.write()
        var keys: [ObjKey] = []
        for i in 0..<(DatabaseDataSource.markLimit + 10) { keys.append(try w.create("Dog", values: ["name": .string("d\(i)")])) }
        try w.commit()
        let path = db.store.path
        db.close()
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        _ = try source.rows(className: "Dog", filter: nil, sort: nil, range: 0..<3)
        let other = try Database(path: path)
        defer { other.close() }
        w = try other.write()
        for k in keys { try w.set("Dog", k, "age", .int(5)) }
        try w.commit()
        let events = source.pollChanges()
        XCTAssertEqual(events.first?.summary, "Dog: 10,010 modified (age)")
        // Only the rows shown are marked (compared value by value), not ten thousand refs.
        XCTAssertEqual(Set(events.first?.changedObjects ?? []), Set(keys.prefix(3).map { ObjectRef(className: "Dog", key: $0) }))
    }
}
