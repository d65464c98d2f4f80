import XCTest
@testable import StrataBrowser
import StrataQuery
import StrataTooling

/// A filter runs off the UI thread: the screen keeps drawing, keys other than Esc wait, Esc
/// cancels and keeps the previous view (issue 18 item 14).
final class FilterCancellationTests: XCTestCase {
    func testARunningFilterShowsProgressAndEscCancelsIt() {
        let harness = Harness()
        harness.source.holdFilters = true
        harness.app.filterGraceSeconds = 0
        let before = harness.lines
        harness.press("/").type("dogs.owners.dogs.owners.name CONTAINS 'a'").press("Enter")
        XCTAssertTrue(harness.lines[22].contains("filtering Person"), harness.lines[22])
        XCTAssertTrue(harness.lines[22].contains("Esc cancels"), harness.lines[22])
        harness.press("j", "G")  // ignored while the filter runs
        XCTAssertEqual(Array(harness.lines[0..<22]), Array(before[0..<22]))
        harness.press("Esc")
        XCTAssertTrue(harness.source.heldFilters.first?.isCancelled ?? false)
        XCTAssertTrue(harness.lines[22].contains("filter cancelled"), harness.lines[22])
        XCTAssertFalse(harness.lines[1].contains("["), "no filter applied: \(harness.lines[1])")
        harness.source.releaseHeldFilters()
        harness.app.processChanges()
        XCTAssertFalse(harness.lines[1].contains("["), "a cancelled result is dropped")
        harness.press("j")
        XCTAssertTrue(harness.lines[1].hasSuffix("2/24"), harness.lines[1])
    }

    func testTheResultIsAppliedWhenItArrives() throws {
        let harness = Harness()
        harness.source.holdFilters = true
        harness.app.filterGraceSeconds = 0
        harness.press("/").type("age > 50").press("Enter")
        XCTAssertFalse(harness.lines[1].contains("[age > 50]"))
        harness.source.releaseHeldFilters()
        harness.app.processChanges()  // what the run loop does when the job wakes it
        let n = try harness.database.count(className: "Person", filter: "age > 50").value
        XCTAssertTrue(harness.lines[1].contains("[age > 50]"), harness.lines[1])
        XCTAssertTrue(harness.lines[1].hasSuffix("1/\(n)"), harness.lines[1])
    }

    func testTheDatabaseRunsFiltersOnAnotherThreadAndCancels() throws {
        let harness = Harness()
        let done = expectation(description: "filter finished")
        let job = harness.database.startFilter(className: "Event", filter: "user.dogs.owners.events.kind == 'click'", finished: { done.fulfill() })
        wait(for: [done], timeout: 600)
        let count = try harness.database.finishFilter(job)
        XCTAssertEqual(count, try harness.database.count(className: "Event", filter: "user.dogs.owners.events.kind == 'click'"))
        let cancelled = harness.database.startFilter(className: "Event", filter: "user.dogs.owners.events.kind == 'view'", finished: {})
        cancelled.cancel()
        XCTAssertThrowsError(try harness.database.finishFilter(cancelled))
    }

    /// The same on a real `.realm` file: the filter runs on another thread, its rows are kept for
    /// `rows`, and a cancelled one throws (issue 14).
    func testARealmFileRunsFiltersOnAnotherThreadAndCancels() throws {
        let source = try RealmFileDataSource(path: RealmFileBrowserTests.allTypes)
        let done = expectation(description: "filter finished")
        let filter = "value > 35"
        let job = source.startFilter(className: "LinkTarget", filter: filter, finished: { done.fulfill() })
        wait(for: [done], timeout: 600)
        XCTAssertEqual(try source.finishFilter(job), try source.count(className: "LinkTarget", filter: filter))
        XCTAssertEqual(try source.rows(className: "LinkTarget", filter: filter, sort: nil, range: 0..<1).first?.values.first, .string("t4"))
        let stopped = expectation(description: "cancelled filter ended")
        let cancelled = source.startFilter(className: "LinkTarget", filter: "value > 1", finished: { stopped.fulfill() })
        cancelled.cancel()
        XCTAssertThrowsError(try source.finishFilter(cancelled))
        wait(for: [stopped], timeout: 600)
        XCTAssertThrowsError(try source.finishFilter(cancelled))
    }

    /// The evaluator stops a Realm query through its cancellation hook.
    func testACancelledRealmQueryStops() throws {
        let runner = RealmQueryRunner(realm: try RealmFileDataSource(path: RealmFileBrowserTests.allTypes).realm)
        let cancellation = QueryCancellation()
        XCTAssertFalse(try runner.rows(className: "LinkTarget", query: "value > 1", cancellation: cancellation).isEmpty)
        cancellation.cancel()
        XCTAssertThrowsError(try runner.rows(className: "LinkTarget", query: "value > 1", cancellation: cancellation)) { error in
            XCTAssertTrue((error as? BrowserError)?.message.contains("cancelled") ?? false, "\(error)")
        }
    }

    /// `s` runs as a background job too: the status line says so, Esc cancels and keeps the
    /// previous order (issue 14).
    func testARunningSortShowsProgressAndEscCancelsIt() {
        let harness = Harness()
        harness.source.holdFilters = true
        harness.app.filterGraceSeconds = 0
        harness.press("s")
        XCTAssertTrue(harness.lines[22].contains("sorting Person by"), harness.lines[22])
        XCTAssertTrue(harness.lines[22].contains("Esc cancels"), harness.lines[22])
        harness.press("Esc")
        XCTAssertTrue(harness.source.heldFilters.first?.isCancelled ?? false)
        XCTAssertTrue(harness.lines[22].contains("sort cancelled"), harness.lines[22])
        harness.source.releaseHeldFilters()
        harness.app.processChanges()
        XCTAssertFalse(harness.lines.joined().contains("▲"), "a cancelled sort is dropped")
        harness.source.holdFilters = false
        harness.app.filterGraceSeconds = 600
        harness.press("s")
        XCTAssertTrue(harness.lines.joined().contains("▲"), harness.lines.joined(separator: "\n"))
    }

    /// On a Realm file the sort runs on another thread; its rows are the order `rows` gives
    /// without a job, and a cancelled sort throws.
    func testARealmFileSortsOnAnotherThreadAndCancels() throws {
        let source = try RealmFileDataSource(path: RealmFileBrowserTests.allTypes)
        let sort = SortSpec(property: "noPkLink", ascending: false)
        let done = expectation(description: "sort finished")
        let job = source.startSort(className: "AllTypes", filter: "_id > 2", sort: sort, finished: { done.fulfill() })
        wait(for: [done], timeout: 600)
        XCTAssertEqual(try source.finishFilter(job), try source.count(className: "AllTypes", filter: "_id > 2"))
        let fresh = try RealmFileDataSource(path: RealmFileBrowserTests.allTypes)
        XCTAssertEqual(try source.rows(className: "AllTypes", filter: "_id > 2", sort: sort, range: 0..<100).map(\.ref),
                       try fresh.rows(className: "AllTypes", filter: "_id > 2", sort: sort, range: 0..<100).map(\.ref))
        let stopped = expectation(description: "cancelled sort ended")
        let cancelled = source.startSort(className: "LinkTarget", filter: nil, sort: SortSpec(property: "value", ascending: true), finished: { stopped.fulfill() })
        cancelled.cancel()
        XCTAssertThrowsError(try source.finishFilter(cancelled))
        wait(for: [stopped], timeout: 600)
        XCTAssertThrowsError(try source.finishFilter(cancelled))
    }

    /// The browser on a Realm file applies a sort when its job finishes.
    func testTheBrowserAppliesARealmSortWhenItFinishes() throws {
        let source = try RealmFileDataSource(path: RealmFileBrowserTests.allTypes)
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 200, rows: 30), environment: [:], clock: { Date(timeIntervalSince1970: 0) })
        app.filterGraceSeconds = 0
        for name in ["l", "s"] { app.handle(try XCTUnwrap(Key(name: name))) }
        // Still running, or applied already when it finished within the (zero) grace time.
        if let job = app.filterJob {
            XCTAssertNotNil(job.sort)
            XCTAssertTrue(job.wait(seconds: 600))
            app.processChanges()
        }
        XCTAssertNil(app.filterJob)
        let text = app.frame().textLines().joined(separator: "\n")
        XCTAssertTrue(text.contains("sorted by"), text)
        XCTAssertTrue(text.contains("▲"), text)
    }
}
