import Foundation
import XCTest
import Strata

/// Typed queries on custom persistable properties compare what the column stores, and
/// `persistableValue` reaches it for what the type cannot express (RealmSwift's `Query`).
final class TypedQueryCustomPersistableCompatTests: XCTestCase {
    func testCustomPersistableInTypedQueries() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        try realm.write {
            for (title, celsius, url, readings) in [("cold", 5.0, "https://a.example", [1.0, 2.0]),
                                                    ("warm", 25.0, nil, [30.0]),
                                                    ("hot", 40.0, "http://b.example", [])] as [(String, Double, String?, [Double])] {
                let t = CTask()
                t.title = title
                t.temperature = Temperature(persistedValue: celsius)
                t.link = url.map { Link(URL(string: $0)!) }
                t.readings.append(objectsIn: readings.map { Temperature(persistedValue: $0) })
                realm.add(t)
            }
        }
        let tasks = realm.objects(CTask.self)
        func titles(_ q: (Query<CTask>) -> Query<Bool>) -> Set<String> { Set(tasks.where(q).map(\.title)) }
        XCTAssertEqual(titles { $0.temperature == Temperature(persistedValue: 25) }, ["warm"])
        XCTAssertEqual(titles { $0.temperature.persistableValue > 20 }, ["warm", "hot"])
        XCTAssertEqual(titles { $0.temperature.persistableValue.contains(0...30) }, ["cold", "warm"])
        XCTAssertEqual(titles { $0.readings.contains(Temperature(persistedValue: 2)) }, ["cold"])
        XCTAssertEqual(titles { $0.readings.persistableValue > 10 }, ["warm"])
        XCTAssertEqual(titles { $0.readings.persistableValue.avg == 1.5 }, ["cold"])
        XCTAssertEqual(titles { $0.link == nil }, ["warm"])
        XCTAssertEqual(titles { $0.link.persistableValue.starts(with: "https:") }, ["cold"])
        XCTAssertEqual(titles { $0.status.persistableValue == "open" }, ["cold", "warm", "hot"])
    }
}
