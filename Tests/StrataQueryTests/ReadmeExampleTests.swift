import XCTest
import Foundation
import Strata

// The model and calls of README's "Using Strata from Swift" section, compiled and run.
final class ReadmeDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted(originProperty: "dogs") var walkers: LinkingObjects<ReadmePerson>
}

final class ReadmePerson: Object {
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var dogs: List<ReadmeDog>
}

final class ReadmeExampleTests: XCTestCase {
    func testReadmeExample() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let config = Realm.Configuration(fileURL: dir.appendingPathComponent("people.strata"),
                                         objectTypes: [ReadmePerson.self, ReadmeDog.self])
        let realm = try Realm(configuration: config)
        try realm.write {
            let ada = ReadmePerson()
            ada.name = "Ada"; ada.age = 36
            let rex = ReadmeDog(); rex.name = "Rex"; rex.age = 3
            ada.dogs.append(rex)
            realm.add(ada)
            realm.create(ReadmePerson.self, value: ["id": ObjectId.generate(), "name": "Bea", "age": 28])
        }
        let adults = realm.objects(ReadmePerson.self).filter("age > $0 AND name BEGINSWITH[c] 'a'", 30)
        XCTAssertEqual(adults.count, 1)
        XCTAssertEqual(realm.objects(ReadmePerson.self).where { $0.age > 25 && $0.name.starts(with: "B") }.first?.name, "Bea")
        XCTAssertEqual(realm.objects(ReadmePerson.self).sorted(byKeyPath: "age").map(\.name), ["Bea", "Ada"])
        XCTAssertEqual(realm.objects(ReadmePerson.self).filter("dogs.@count > 0").first?.name, "Ada")
        XCTAssertEqual(realm.objects(ReadmeDog.self).first?.walkers.first?.name, "Ada")
        XCTAssertEqual(realm.objects(ReadmePerson.self).sum(ofProperty: "age") as Int, 64)
    }
}
