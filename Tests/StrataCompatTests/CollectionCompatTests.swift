import Foundation
import XCTest
import Strata

/// Generic code over the collection family, as a RealmSwift view model writes it.
func titles<C: RealmCollection>(_ tasks: C) -> [String] where C.Element == CTask { tasks.map(\.title) }

/// Generic code that filters, sorts and aggregates any collection of dogs.
func oldDogNames<C: RealmCollection>(_ dogs: C, olderThan age: Int) -> [String] where C.Element == CDog {
    dogs.filter("age > %@", age).sorted(byKeyPath: "name").map(\.name)
}

final class TaskListViewModel {
    let tasks: AnyRealmCollection<CTask>
    init(_ tasks: AnyRealmCollection<CTask>) { self.tasks = tasks }
    var count: Int { tasks.count }
}

/// Issue 15 items 2 and 7: RealmCollection / AnyRealmCollection, thread handover of
/// collections, isInvalidated.
final class CollectionCompatTests: XCTestCase {
    var dir: CompatDir!
    var realm: Realm!
    var project: CProject!

    override func setUpWithError() throws {
        dir = CompatDir()
        realm = try Realm(configuration: dir.config(types: compatTypes))
        project = CProject()
        project.name = "p"
        for (i, t) in ["a", "b", "c"].enumerated() {
            let task = CTask(); task.title = t; task.priority = TaskPriority(rawValue: i)!
            project.tasks.append(task)
        }
        project.tags.insert(objectsIn: ["x", "y"])
        project.counts.append(objectsIn: [1, 2, 3, 4])
        project.scores["a"] = 3; project.scores["b"] = 5
        try realm.write { realm.add(project) }
    }

    override func tearDown() { realm = nil; project = nil; dir = nil }

    func testGenericCodeOverEveryCollectionKind() throws {
        let results = realm.objects(CTask.self).sorted(byKeyPath: "title")
        XCTAssertEqual(titles(results), ["a", "b", "c"])
        XCTAssertEqual(titles(project.tasks), ["a", "b", "c"])
        let any = AnyRealmCollection(project.tasks)
        XCTAssertEqual(titles(any), ["a", "b", "c"])
        XCTAssertEqual(titles(AnyRealmCollection(any)), ["a", "b", "c"])
        let first = try XCTUnwrap(project.tasks.first)
        XCTAssertEqual(titles(first.projects.first!.tasks), ["a", "b", "c"])
        XCTAssertEqual(first.projects.count, 1)
        XCTAssertEqual(TaskListViewModel(AnyRealmCollection(results)).count, 3)

        // Filtering, sorting and aggregates through the protocol.
        XCTAssertEqual(any.filter("priority >= 1").count, 2)
        XCTAssertEqual(any.sorted(byKeyPath: "title", ascending: false).first?.title, "c")
        XCTAssertEqual(any.max(ofProperty: "priority") as Int?, 2)
        XCTAssertEqual(any.index(matching: "title == 'b'"), 1)
        XCTAssertEqual(any.objects(at: IndexSet([0, 2])).map(\.title), ["a", "c"])
        XCTAssertEqual(any.index(of: first), 0)

        let dogs = ["Rex": 3, "Ace": 9, "Bo": 12].map { n, a -> CDog in let d = CDog(); d.name = n; d.age = a; return d }
        try realm.write { realm.add(dogs) }
        XCTAssertEqual(oldDogNames(realm.objects(CDog.self), olderThan: 5), ["Ace", "Bo"])
        XCTAssertEqual(oldDogNames(AnyRealmCollection(realm.objects(CDog.self)), olderThan: 10), ["Bo"])
        // NSPredicate-style placeholders: %K names a key path, %@ and %d are arguments; quoted
        // text is left alone.
        XCTAssertEqual(realm.objects(CDog.self).filter("%K >= %d AND name != '%@'", "age", 9).count, 2)
        XCTAssertEqual(realm.objects(CDog.self).filter("name IN %@", ["Rex", "Bo"]).count, 2)
        // Decimal128 sums through the aggregate API.
        try realm.write { for (i, t) in realm.objects(CTask.self).enumerated() { t.price = Decimal128(number: i) + "0.25" } }
        XCTAssertEqual(realm.objects(CTask.self).sum(ofProperty: "price") as Decimal128, "3.75")
    }

    func testAnyRealmCollectionObservesItsBase() throws {
        let any = AnyRealmCollection(project.tasks)
        var initial = 0, updates: [[Int]] = []
        let token = any.observe { change in
            switch change {
            case .initial(let c): initial = c.count
            case .update(_, _, let insertions, _): updates.append(insertions)
            case .error(let e): XCTFail("\(e)")
            }
        }
        XCTAssertTrue(waitFor { initial == 3 })
        try realm.write { project.tasks.append(CTask()) }
        XCTAssertTrue(waitFor { updates == [[3]] }, "\(updates)")
        token.invalidate()
    }

    func testAggregatesOfPrimitiveCollections() {
        XCTAssertEqual(project.counts.sum(), 10)
        XCTAssertEqual(project.counts.average(), 2.5)
        XCTAssertEqual(project.counts.min(), 1)
        XCTAssertEqual(project.counts.max(), 4)
        XCTAssertEqual(project.scores.values.sum(), 8)
    }

    func testThreadHandoverOfListSetMapAndLinkingObjects() throws {
        let config = realm.configuration
        let listRef = ThreadSafeReference(to: project.tasks)
        let setRef = ThreadSafeReference(to: project.tags)
        let mapRef = ThreadSafeReference(to: project.scores)
        let linksRef = ThreadSafeReference(to: project.tasks[0].projects)
        let anyRef = ThreadSafeReference(to: AnyRealmCollection(project.tasks))
        let done = expectation(description: "resolved on another thread")
        let refs = UncheckedBox((listRef, setRef, mapRef, linksRef, anyRef))
        Thread.detachNewThread {
            defer { done.fulfill() }
            do {
                let r = try Realm(configuration: config)
                let (l, s, m, lo, a) = refs.value
                XCTAssertEqual(r.resolve(l)?.map(\.title), ["a", "b", "c"])
                XCTAssertEqual(r.resolve(s).map { Set($0) }, ["x", "y"])
                XCTAssertEqual(r.resolve(m)?["b"], 5)
                XCTAssertEqual(r.resolve(lo)?.first?.name, "p")
                XCTAssertEqual(r.resolve(a)?.count, 3)
            } catch { XCTFail("\(error)") }
        }
        wait(for: [done], timeout: 30)
    }

    func testThreadSafePropertyWrapper() throws {
        final class Holder: @unchecked Sendable {
            @ThreadSafe var tasks: List<CTask>?
            @ThreadSafe var project: CProject?
        }
        let holder = Holder()
        holder.tasks = project.tasks
        holder.project = project
        let done = expectation(description: "read on another thread")
        Thread.detachNewThread {
            defer { done.fulfill() }
            XCTAssertEqual(holder.tasks?.map(\.title), ["a", "b", "c"])
            XCTAssertEqual(holder.project?.name, "p")
        }
        wait(for: [done], timeout: 30)
        try realm.write { realm.delete(project) }
        XCTAssertNil(holder.project, "a deleted object resolves to nil")
        holder.project = nil
        XCTAssertNil(holder.project)
    }

    func testIsInvalidatedOnEveryCollection() throws {
        let tasks = project.tasks, tags = project.tags, scores = project.scores
        let links = project.tasks[0].projects
        XCTAssertFalse(tasks.isInvalidated || tags.isInvalidated || scores.isInvalidated || links.isInvalidated)
        try realm.write { realm.delete(project.tasks[0]); realm.delete(project) }
        XCTAssertTrue(tasks.isInvalidated)
        XCTAssertTrue(tags.isInvalidated)
        XCTAssertTrue(scores.isInvalidated)
        XCTAssertTrue(links.isInvalidated)
        XCTAssertFalse(List<Int>().isInvalidated)
    }

    func testFreezeAndThawOfCollections() throws {
        let frozen = project.tasks.freeze()
        XCTAssertTrue(frozen.isFrozen)
        try realm.write { project.tasks.removeAll() }
        XCTAssertEqual(frozen.count, 3)
        XCTAssertEqual(frozen.thaw()?.count, 0)
        XCTAssertTrue(project.tags.freeze().isFrozen)
    }

    func testObjectObserverTypedObjectBase() throws {
        let dog = CDog()
        try realm.write { realm.add(dog) }
        var names: [String] = []
        let token = dog.observe { (change: ObjectChange<ObjectBase>) in
            if case .change(let object, let properties) = change {
                XCTAssertTrue(object is CDog)
                names += properties.map(\.name)
            }
        }
        try realm.write { dog.name = "Rex" }
        XCTAssertTrue(waitFor { names == ["name"] }, "\(names)")
        token.invalidate()
    }
}

/// Moves non-Sendable test values into a detached thread (the test resolves them there).
struct UncheckedBox<T>: @unchecked Sendable { let value: T; init(_ v: T) { value = v } }
