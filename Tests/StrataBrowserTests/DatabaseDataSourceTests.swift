import Foundation
import StrataTooling
import Strata
import StrataStorage
import XCTest
@testable import StrataBrowser

/// The real data source over a small demo database: counts, visible-window reads, filter and
/// sort, edits (valid, invalid, read-only), live updates from a second handle, reports and
/// compaction; and the browser app driven over it.
final class DatabaseDataSourceTests: XCTestCase {
    var dir: URL!
    var path: String!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-ds-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent("demo.strata").path
        try DemoDatabase.create(at: path, events: 1_000, people: 40)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func testClassesCountsAndProperties() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let classes = Dictionary(uniqueKeysWithValues: source.classes().map { ($0.name, $0) })
        XCTAssertEqual(classes["Event"]?.count.value, 900, "1,000 created, every 10th deleted")
        XCTAssertEqual(classes["Person"]?.count.value, 40)
        XCTAssertEqual(classes["Person"]?.primaryKey, "id")
        XCTAssertEqual(classes["Address"]?.isEmbedded, true)
        let properties = try source.properties(className: "Person")
        let byName = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0) })
        XCTAssertEqual(byName["dogs"]?.kind, .list)
        XCTAssertEqual(byName["address"]?.kind, .embedded)
        XCTAssertEqual(byName["employer"]?.kind, .link)
        XCTAssertEqual(byName["events"]?.kind, .backlinks)
        XCTAssertEqual(byName["settings"]?.typeDescription, "Map<String, String>")
        XCTAssertEqual(byName["age"]?.typeDescription, "Int?")
        XCTAssertTrue(byName["id"]?.isPrimaryKey == true)
        let status = source.status()
        XCTAssertGreaterThan(status.totalBytes, 0)
        XCTAssertEqual(status.totalBytes, status.usedBytes + status.freeBytes)
        XCTAssertThrowsError(try source.properties(className: "Nope"))
    }

    func testRowsReadTheRequestedWindowAndPositionsFindObjects() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let rows = try source.rows(className: "Event", filter: nil, sort: nil, range: 100..<110)
        XCTAssertEqual(rows.count, 10)
        XCTAssertEqual(rows.first?.ref?.key, 112, "keys 10, 20, … were deleted")
        let properties = try source.properties(className: "Event")
        XCTAssertEqual(rows.first?.values.count, properties.count)
        if case .int(let id)? = rows.first?.values.first { XCTAssertEqual(id, 112) } else { XCTFail("id") }
        let ref = try XCTUnwrap(rows[5].ref)
        XCTAssertEqual(try source.position(of: ref, filter: nil, sort: nil), 105)
        XCTAssertNil(try source.position(of: ObjectRef(className: "Event", key: 10), filter: nil, sort: nil))
        XCTAssertEqual(try source.rows(className: "Event", filter: nil, sort: nil, range: 895..<920).count, 5)
        let person = try XCTUnwrap(source.rows(className: "Person", filter: nil, sort: nil, range: 0..<1).first)
        let detail = try source.object(try XCTUnwrap(person.ref))
        XCTAssertEqual(detail.properties.count, detail.values.count)
        XCTAssertTrue(detail.label.hasPrefix("1 "), detail.label)
    }

    func testFilterKeepsOnlyMatchingRowsAndSortOrdersThem() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let purchases = try source.count(className: "Event", filter: "kind == 'purchase'")
        XCTAssertGreaterThan(purchases.value, 50)
        XCTAssertLessThan(purchases.value, 900)
        let rows = try source.rows(className: "Event", filter: "kind == 'purchase'", sort: SortSpec(property: "value", ascending: false), range: 0..<20)
        let values = rows.map { row -> Double in if case .double(let d) = row.values[4] { return d }; return -1 }
        XCTAssertEqual(values, values.sorted(by: >))
        XCTAssertTrue(rows.allSatisfy { $0.values[1] == .string("purchase") })
        let sorted = try source.rows(className: "Person", filter: nil, sort: SortSpec(property: "name"), range: 0..<40)
        let names = sorted.map { row -> String in if case .string(let s) = row.values[1] { return s }; return "" }
        XCTAssertEqual(names, names.sorted())
    }

    func testInvalidQueriesThrowWithPosition() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        XCTAssertThrowsError(try source.count(className: "Person", filter: "age >> 3")) { error in
            let e = error as? BrowserError
            XCTAssertNotNil(e?.position)
            XCTAssertEqual(e?.position, 5)
        }
        XCTAssertThrowsError(try source.count(className: "Person", filter: "nosuch == 3")) { error in
            XCTAssertTrue((error as? BrowserError)?.message.contains("nosuch") == true, "\(error)")
        }
    }

    func testEditsAreTypedAndOneTransactionEach() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let ref = ObjectRef(className: "Person", key: 3)
        let before = source.status().version
        try source.setValue(text: "42", property: "age", of: ref)
        let events = source.pollChanges()
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.isExternal, false)
        XCTAssertEqual(events.first?.changedObjects, [ref])
        XCTAssertEqual(events.first?.version, before + 1)
        XCTAssertTrue(events.first?.summary.contains("Person: 1 modified") == true, events.first?.summary ?? "")
        let detail = try source.object(ref)
        XCTAssertEqual(detail.values[detail.properties.firstIndex { $0.name == "age" }!], .int(42))

        // Invalid values: a message, and nothing written.
        for (text, property) in [("forty", "age"), ("2024-13-40", "birthday"), ("maybe", "active"), ("zz", "avatar"), ("#99999", "employer")] {
            XCTAssertThrowsError(try source.setValue(text: text, property: property, of: ref), "\(property)=\(text)") { error in
                XCTAssertFalse((error as? BrowserError)?.message.isEmpty ?? true)
            }
        }
        XCTAssertThrowsError(try source.setValue(text: "null", property: "score", of: ref)) { error in
            XCTAssertTrue((error as? BrowserError)?.message.contains("required") == true, "\(error)")
        }
        XCTAssertTrue(source.pollChanges().isEmpty, "no commit for invalid input")
        XCTAssertEqual(source.status().version, before + 1)
        // Optional set to null, a date, Data as hex, a link by #key (no primary key) and by primary key.
        try source.setValue(text: "null", property: "age", of: ref)
        try source.setValue(text: "1990-05-17 08:30", property: "birthday", of: ref)
        try source.setValue(text: "00ff10", property: "avatar", of: ref)
        let company = try XCTUnwrap(source.rows(className: "Company", filter: nil, sort: nil, range: 2..<3).first?.ref)
        try source.setValue(text: "#\(company.key)", property: "employer", of: ref)
        _ = source.pollChanges()
        let values = try source.object(ref).values
        let props = try source.properties(className: "Person").map(\.name)
        XCTAssertEqual(values[props.firstIndex(of: "age")!], .null)
        XCTAssertEqual(values[props.firstIndex(of: "birthday")!], .date(seconds: 642_933_000, nanoseconds: 0))
        XCTAssertEqual(values[props.firstIndex(of: "avatar")!], .data(count: 3, prefix: [0, 255, 16]))
        if case .link(let link) = values[props.firstIndex(of: "employer")!] { XCTAssertEqual(link.ref, company) } else { XCTFail("employer") }
        // The primary key cannot change.
        XCTAssertThrowsError(try source.setValue(text: "777", property: "id", of: ref))
        // Lists, sets and maps.
        try source.addCollectionItem(text: "new-tag", owner: ref, property: "tags")
        XCTAssertThrowsError(try source.addCollectionItem(text: "new-tag", owner: ref, property: "tags"))
        try source.addCollectionItem(text: "font=mono", owner: ref, property: "settings")
        XCTAssertThrowsError(try source.addCollectionItem(text: "no separator", owner: ref, property: "settings"))
        _ = source.pollChanges()
        let settings = try source.collectionRows(owner: ref, property: "settings", range: 0..<10)
        XCTAssertTrue(settings.contains { $0.values == [.string("font"), .string("mono")] })
        let tagCount = try source.collectionCount(owner: ref, property: "tags")
        try source.removeCollectionItem(at: tagCount - 1, owner: ref, property: "tags")
        _ = source.pollChanges()
        XCTAssertEqual(try source.collectionCount(owner: ref, property: "tags"), tagCount - 1)
        // Create and delete.
        let created = try source.createObject(className: "Company", values: ["name": "Ünïcode 株式会社 🚀", "country": "Japan"])
        _ = source.pollChanges()
        XCTAssertEqual(try source.object(created).values.first, .string("Ünïcode 株式会社 🚀"))
        XCTAssertThrowsError(try source.createObject(className: "Person", values: ["name": "No Key"]))
        XCTAssertThrowsError(try source.createObject(className: "Address", values: [:]))
        try source.deleteObject(created)
        let deleted = source.pollChanges()
        XCTAssertEqual(deleted.last?.deletedObjects, [created])
        XCTAssertThrowsError(try source.object(created))
    }

    /// Bug 7 and 1: the edit prompt parses with import's parser: what import refuses (a day that
    /// does not exist, a number beyond a Double or a Decimal128, a date outside the stored range)
    /// is refused with nothing written, and dates near the ends of the range are stored exactly.
    func testEditRefusesWhatImportRefusesAndStoresDatesExactly() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let person = ObjectRef(className: "Person", key: 3)
        let product = try XCTUnwrap(source.rows(className: "Product", filter: nil, sort: nil, range: 0..<1).first?.ref)
        let before = source.status().version
        for (text, property, ref, expected) in [
            ("2024-02-30", "birthday", person, "2024-02 has 29 days"),
            ("2262-04-12", "birthday", person, "outside the dates Strata stores"),
            ("1e400", "score", person, "beyond the range of a Double"),
            ("1e9999", "price", product, "beyond the range of a Decimal128"),
        ] {
            XCTAssertThrowsError(try source.setValue(text: text, property: property, of: ref), "\(property)=\(text)") { error in
                XCTAssertTrue((error as? BrowserError)?.message.contains(expected) == true, "\(error)")
            }
        }
        XCTAssertTrue(source.pollChanges().isEmpty, "no commit for refused input")
        XCTAssertEqual(source.status().version, before)

        for text in ["2262-01-01", "2262-04-11T23:47:16.854775807Z", "1677-09-21T00:12:43.145224192Z", "1969-12-31T23:59:59.999999999Z"] {
            try source.setValue(text: text, property: "birthday", of: person)
            let db = try Database(path: path)
            let t = try db.read()
            XCTAssertEqual(try t.value("Person", person.key, "birthday"), .date(try Timestamp(iso8601: text)), text)
            t.end()
            db.close()
        }
    }

    /// The edit prompt is pre-filled with every stored digit of a date or Double, so Enter on an
    /// unchanged prompt writes the same value back (the cell shows less).
    func testEditPromptTextReadsBackToTheSameValue() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let person = ObjectRef(className: "Person", key: 3)
        let props = try source.properties(className: "Person").map(\.name)
        for (property, text, cell) in [("birthday", "1969-12-31T23:59:59.999999999Z", "1969-12-31 23:59:59"),
                                       ("birthday", "2024-03-15T12:34:56.123456789Z", "2024-03-15 12:34:56"),
                                       ("score", "3.141592653589793", "3.14159")] {
            try source.setValue(text: text, property: property, of: person)
            _ = source.pollChanges()
            let value = try source.object(person).values[props.firstIndex(of: property)!]
            XCTAssertEqual(value.formatted.text, cell)
            XCTAssertEqual(value.editText, text)
            try source.setValue(text: value.editText, property: property, of: person)
            _ = source.pollChanges()
            XCTAssertEqual(try source.object(person).values[props.firstIndex(of: property)!], value)
        }
    }

    /// An AnyRealmValue holding a date or UUID keeps its type through the edit prompt (the
    /// AnyRealmValue guess would make its text a String), and Enter on the unchanged prompt
    /// commits nothing.
    func testAnyRealmValueEditKeepsTheValuesTypeAndUnchangedTextCommitsNothing() throws {
        let event = try {
            let db = try Database(path: path)
            defer { db.close() }
            let t = try db.read()
            defer { t.end() }
            return ObjectRef(className: "Event", key: try XCTUnwrap(try t.objectKeys("Event").first))
        }()
        let date = try Timestamp(iso8601: "1677-09-21T00:12:43.145224192Z")
        let uuid = UUID()
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let props = try source.properties(className: "Event").map(\.name)
        let column = try XCTUnwrap(props.firstIndex(of: "extra"))
        func stored() throws -> Value {
            let db = try Database(path: path)
            defer { db.close() }
            let t = try db.read()
            defer { t.end() }
            return try t.value("Event", event.key, "extra")
        }
        for original in [Value.date(date), .uuid(uuid)] {
            let db = try Database(path: path)
            let w = try db.write()
            try w.set("Event", event.key, "extra", original)
            try w.commit()
            db.close()
            _ = source.pollChanges()
            let before = source.status().version
            let text = try source.object(event).values[column].editText
            try source.setValue(text: text, property: "extra", of: event)
            XCTAssertEqual(try stored(), original, "Enter on '\(text)' keeps the value")
            XCTAssertTrue(source.pollChanges().isEmpty)
            XCTAssertEqual(source.status().version, before, "no commit for an unchanged value")
        }
        // Text that is not the held type's: the AnyRealmValue guess (here a String).
        try source.setValue(text: "2024-01-01T00:00:00Z", property: "extra", of: event)
        XCTAssertEqual(try stored(), .string("2024-01-01T00:00:00Z"), "not a UUID: the AnyRealmValue guess applies")
        // A date held: another date's text stays a date.
        let db = try Database(path: path)
        let w = try db.write()
        try w.set("Event", event.key, "extra", .date(date))
        try w.commit()
        db.close()
        _ = source.pollChanges()
        try source.setValue(text: "2030-05-06T07:08:09Z", property: "extra", of: event)
        XCTAssertEqual(try stored(), .date(try Timestamp(iso8601: "2030-05-06T07:08:09Z")))
        try source.setValue(text: "hello", property: "extra", of: event)
        XCTAssertEqual(try stored(), .string("hello"))
    }

    /// A primary key already taken is refused at its field of the add form, in the browser's words.
    func testAddFormRefusesATakenPrimaryKeyAtItsField() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        XCTAssertThrowsError(try source.checkNewObjectField(className: "Person", property: "id", text: "3")) { error in
            let message = (error as? BrowserError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("already has an object with id 3"), message)
            XCTAssertFalse(message.contains("update:"), "no Swift API advice: \(message)")
        }
        XCTAssertNoThrow(try source.checkNewObjectField(className: "Person", property: "id", text: "987654"))
    }

    /// The add form says "empty = null" for optional properties, strings included.
    func testAddFormEmptyOptionalStringIsNull() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let ref = try source.createObject(className: "Company", values: ["name": "Empty Web", "country": "X", "website": ""])
        let db = try Database(path: path)
        defer { db.close() }
        let t = try db.read()
        defer { t.end() }
        XCTAssertEqual(try t.value("Company", ref.key, "website"), .null)
    }

    func testReadOnlyRefusesEveryEdit() throws {
        let source = try DatabaseDataSource(path: path, readOnly: true)
        defer { source.close() }
        XCTAssertTrue(source.fileInfo.isReadOnly)
        let ref = ObjectRef(className: "Person", key: 1)
        XCTAssertThrowsError(try source.setValue(text: "1", property: "age", of: ref))
        XCTAssertThrowsError(try source.createObject(className: "Company", values: ["name": "x", "country": "y"]))
        XCTAssertThrowsError(try source.deleteObject(ref))
        XCTAssertThrowsError(try source.compact(online: true) { _ in })
    }

    func testCommitFromASecondHandleWakesAndShowsUp() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let woke = expectation(description: "change handler")
        woke.assertForOverFulfill = false
        source.setChangeHandler { woke.fulfill() }
        let before = source.classes().first { $0.name == "Dog" }!.count.value
        // The visible rows, so the change can be marked.
        _ = try source.rows(className: "Person", filter: nil, sort: nil, range: 0..<10)
        let other = try Database(path: path)
        let w = try other.write()
        try w.create("Dog", values: ["_id": .objectId(ObjectId()), "name": .string("Visitor"), "weight": .double(3), "vaccinated": .bool(false)])
        try w.set("Person", 2, "score", .double(99.5))
        try w.commit()
        wait(for: [woke], timeout: 2)
        // The snapshot does not move until the poll.
        XCTAssertEqual(source.classes().first { $0.name == "Dog" }!.count.value, before)
        let events = source.pollChanges()
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.isExternal, true)
        XCTAssertTrue(events.first?.summary.contains("Dog: 1 inserted") == true, events.first?.summary ?? "")
        XCTAssertTrue(events.first?.summary.contains("Person: 1 modified (score)") == true, events.first?.summary ?? "")
        // The commit's change record names every object it touched, shown or not: the new dog
        // (not among the rows shown) and the modified person.
        let changed = Set(events.first?.changedObjects ?? [])
        XCTAssertEqual(changed.filter { $0.className == "Person" }, [ObjectRef(className: "Person", key: 2)])
        XCTAssertEqual(changed.filter { $0.className == "Dog" }.count, 1)
        XCTAssertEqual(source.classes().first { $0.name == "Dog" }!.count.value, before + 1)
        XCTAssertTrue(source.pollChanges().isEmpty)
        let versions = source.versions()
        XCTAssertEqual(versions.commits.first?.version, events.first?.version)
        XCTAssertTrue(versions.readers.contains { $0.threadLabel == "strata browser" })
        other.close()
    }

    /// A commit from another handle that adds a class (as `strata import --create` does) makes
    /// the browser reopen the file; its Log entry still names the committing pid and what
    /// changed (it was "by pid 0: new version").
    func testSchemaChangingCommitFromASecondHandleIsSummarisedWithItsPid() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let other = try Database(path: path)
        defer { other.close() }
        let live = ObjectSchema(className: "Live2", properties: [PropertySchema(name: "n", type: .int)])
        let w = try other.write(label: "strata import", adding: [live])
        _ = try w.create("Live2", values: ["n": .int(1)])
        _ = try w.create("Live2", values: ["n": .int(2)])
        let version = try w.commit()
        let events = source.pollChanges()
        XCTAssertEqual(events.count, 1, "\(events)")
        XCTAssertEqual(events.first?.version, version)
        XCTAssertEqual(events.first?.pid, getpid())
        XCTAssertTrue(events.first?.summary.contains("Live2: 2 inserted") == true, events.first?.summary ?? "")
        XCTAssertEqual(source.classes().first { $0.name == "Live2" }?.count.value, 2)
    }

    /// A handle opening or closing the file (a second browser, an import ending) wakes the
    /// browser without a commit and the status bar's count follows (it stayed as it was until
    /// the next commit).
    func testParticipantCountFollowsHandlesOpeningAndClosingWithoutACommit() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 80, rows: 24))
        let before = app.status.participants
        let woke = LockedFlag()
        source.setChangeHandler { woke.set() }
        func waitForWake(line: UInt = #line) {
            let deadline = Date().addingTimeInterval(10)
            while !woke.take() { guard Date() < deadline else { return XCTFail("no wake-up within 10 s", line: line) }; usleep(10_000) }
        }
        let other = try Database(path: path)
        waitForWake()
        app.processChanges()
        XCTAssertEqual(app.status.participants, before + 1, "a second handle is counted")
        other.close()
        waitForWake()
        app.processChanges()
        XCTAssertEqual(app.status.participants, before, "a closed handle is no longer counted")
    }

    /// Another process's online compaction that only gives back the file's tail commits
    /// nothing: the browser was never woken, and its status bar kept the old size (and the Log
    /// had no compaction) until the next commit. The size watcher wakes it within a moment.
    func testACompactionWithoutACommitFromAnotherHandleIsSeen() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 100, rows: 24))
        let woke = LockedFlag()
        source.setChangeHandler { woke.set() }
        func waitForWake(_ what: String, line: UInt = #line) {
            let deadline = Date().addingTimeInterval(3)
            while !woke.take() { guard Date() < deadline else { return XCTFail("no wake-up within 3 s: \(what)", line: line) }; usleep(10_000) }
        }
        let other = try Database(path: path)
        defer { other.close() }
        // Grow the file with commits (the growth step preallocates a tail), and let the browser see them.
        for i in 0..<40 {
            let w = try other.write(label: "test")
            try w.create("Company", values: ["name": .string(String(repeating: "x", count: 2000) + "\(i)"), "country": .string("x")])
            try w.commit()
        }
        waitForWake("the commits")
        app.processChanges()
        let version = app.status.version
        let before = app.status.totalBytes
        _ = woke.take()
        let result = try other.store.compactOnline()
        XCTAssertLessThan(result.afterBytes, result.beforeBytes, "the compaction gave something back")
        guard try other.store.newestMeta().version == version else {
            throw XCTSkip("this compaction committed (the commit watcher wakes the browser then)")
        }
        waitForWake("the compaction")
        app.processChanges()
        XCTAssertEqual(app.status.totalBytes, Int64(result.afterBytes), "was \(before)")
        XCTAssertTrue(app.log.contains { $0.text.contains("compaction by another process") }, app.log.map(\.text).joined(separator: "\n"))
    }

    func testBacklinksAndCollections() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        // Person 2 has one dog (i % 4 == 1).
        let person = ObjectRef(className: "Person", key: 2)
        XCTAssertEqual(try source.collectionCount(owner: person, property: "dogs"), 1)
        let dogRow = try XCTUnwrap(source.collectionRows(owner: person, property: "dogs", range: 0..<1).first)
        let dog = try XCTUnwrap(dogRow.ref)
        let backlinks = try source.backlinks(of: dog)
        XCTAssertTrue(backlinks.contains { $0.source.ref == person && $0.property == "dogs" })
        XCTAssertGreaterThanOrEqual(try source.collectionCount(owner: dog, property: "owners"), 1)
        let events = try source.collectionCount(owner: person, property: "events")
        let detail = try source.object(person)
        XCTAssertEqual(detail.values[detail.properties.firstIndex { $0.name == "events" }!], .collection(count: events, elementType: "Event"))
    }

    func testReportsAndCompaction() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let space = source.space()
        XCTAssertGreaterThan(space.freeBytes, 0)
        XCTAssertTrue(space.classes.contains { $0.name == "Event" && $0.indexes.contains { $0.name == "kind" } })
        XCTAssertLessThan(space.compactedBytes, space.totalBytes)
        XCTAssertFalse(source.versions().commits.isEmpty)
        let plan = source.compactionPlan()
        XCTAssertTrue(plan.otherParticipants.isEmpty)
        XCTAssertGreaterThan(plan.expectedGain, 0)
        var fractions: [Double] = []
        let result = try source.compact(online: false) { fractions.append($0.fraction) }
        XCTAssertLessThan(result.afterBytes, result.beforeBytes)
        XCTAssertEqual(fractions.last, 1)
        // Still readable afterwards, at a newer version.
        XCTAssertEqual(source.classes().first { $0.name == "Event" }?.count.value, 900)
        _ = source.pollChanges()
        XCTAssertEqual(try source.rows(className: "Event", filter: nil, sort: nil, range: 0..<3).count, 3)
        // With another handle open, a full compaction is refused and online works.
        let other = try Database(path: path)
        defer { other.close() }
        XCTAssertEqual(source.compactionPlan().otherParticipants.isEmpty, false)
        XCTAssertThrowsError(try source.compact(online: false) { _ in })
        XCTAssertNoThrow(try source.compact(online: true) { _ in })
    }

    func testBrowserAppOverTheRealFile() throws {
        let source = try DatabaseDataSource(path: path)
        defer { source.close() }
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 100, rows: 30), environment: ["NO_COLOR": "1"])
        let text = app.frame().textLines().joined(separator: "\n")
        XCTAssertTrue(text.contains("Event"), text)
        XCTAssertTrue(text.contains("900"), text)
    }
}

/// Key-press-to-frame time on a large class (run with STRATA_MEASURE_FILE=path/to/demo.strata).
final class DatabaseBrowsingMeasurements: XCTestCase {
    func testKeyPressToFrameOnTheEventClass() throws {
        guard let path = ProcessInfo.processInfo.environment["STRATA_MEASURE_FILE"] else {
            throw XCTSkip("set STRATA_MEASURE_FILE to a demo database to measure")
        }
        let source = try DatabaseDataSource(path: path, readOnly: true)
        defer { source.close() }
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 120, rows: 40), environment: ["NO_COLOR": "1"])
        for name in ["h", "j", "j", "l"] { app.handle(Key(name: name)!) }
        _ = app.frame()
        XCTAssertTrue(app.frame().textLines().joined().contains("Event"))
        var times: [Double] = []
        for i in 0..<300 {
            let key = Key(name: i % 50 == 49 ? "G" : i % 50 == 0 ? "g" : "C-d")!
            let start = DispatchTime.now().uptimeNanoseconds
            app.handle(key)
            _ = app.frame()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        print("MEASURE key-to-frame ms: median \(times[times.count / 2]) p95 \(times[times.count * 95 / 100]) max \(times.last!)")
        print("MEASURE events: \(source.classes().first { $0.name == "Event" }!.count.value)")
    }
}

/// A flag set from another thread and taken (read and cleared) by the test.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    func take() -> Bool { lock.lock(); defer { value = false; lock.unlock() }; return value }
}
