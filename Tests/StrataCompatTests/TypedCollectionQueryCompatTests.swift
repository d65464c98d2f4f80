import Foundation
import XCTest
import Strata

/// `where { }` through a collection of objects: `$0.tasks.title == "a"` holds when any task
/// matches (RealmSwift's typed queries, RQL's implicit ANY), for lists and linking objects.
final class TypedCollectionQueryCompatTests: XCTestCase {
    func testMembersOfListsAndLinkingObjectsInTypedQueries() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        try realm.write {
            for (name, titles) in [("p1", ["a", "b"]), ("p2", ["c"]), ("p3", [String]())] {
                let p = CProject()
                p.name = name
                for t in titles { let task = CTask(); task.title = t; p.tasks.append(task) }
                realm.add(p)
            }
        }
        let projects = realm.objects(CProject.self)
        XCTAssertEqual(projects.where { $0.tasks.title == "a" }.map(\.name), ["p1"])
        XCTAssertEqual(Set(projects.where { $0.tasks.title != "a" }.map(\.name)), ["p1", "p2"], "any task other than a")
        XCTAssertEqual(projects.where { $0.tasks.title.starts(with: "C", options: .caseInsensitive) }.map(\.name), ["p2"])
        XCTAssertEqual(projects.where { $0.tasks.title.in(["b", "c"]) && $0.name != "p2" }.map(\.name), ["p1"])
        XCTAssertEqual(projects.where { $0.tasks.title == "a" }.count, projects.filter("ANY tasks.title == 'a'").count)
        let tasks = realm.objects(CTask.self)
        XCTAssertEqual(Set(tasks.where { $0.projects.name == "p1" }.map(\.title)), ["a", "b"], "through LinkingObjects")
    }
}
