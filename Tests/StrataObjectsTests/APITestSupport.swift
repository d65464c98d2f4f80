import XCTest
import Foundation
@testable import StrataObjects

// Typed models used by the API tests (file scope: the class name in the file is the type name).
final class APerson: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted(indexed: true) var name: String
    @Persisted var age: Int
    @Persisted var nickname: String?
    @Persisted var dogs: List<ADog>
    @Persisted var best: ADog?
    @Persisted var address: AAddress?
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var extra: AnyRealmValue
    @Persisted var previous: List<AAddress>

    convenience init(id: Int, name: String, age: Int = 0) {
        self.init(); self.id = id; self.name = name; self.age = age
    }
}

final class ADog: Object {
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted var name = ""
    @Persisted var weight: Double = 1.5
    @Persisted var owner: APerson?
    @Persisted(originProperty: "dogs") var walkers: LinkingObjects<APerson>

    convenience init(name: String, weight: Double = 1.5) { self.init(); self.name = name; self.weight = weight }
}

final class AAddress: EmbeddedObject {
    @Persisted var street = ""
    @Persisted var city = ""
    @Persisted var geo: AGeo?
}

final class AGeo: EmbeddedObject {
    @Persisted var lat = 0.0
    @Persisted var lon = 0.0
}

final class AllTypes: Object {
    @Persisted(primaryKey: true) var key: String
    @Persisted var b = false
    @Persisted var i = 0
    @Persisted var i8: Int8 = 0
    @Persisted var i16: Int16 = 0
    @Persisted var i32: Int32 = 0
    @Persisted var i64: Int64 = 0
    @Persisted var f: Float = 0
    @Persisted var d: Double = 0
    @Persisted var s = ""
    @Persisted var data = Data()
    @Persisted var date = Date(timeIntervalSince1970: 0)
    @Persisted var oid: ObjectId
    @Persisted var uuid: UUID
    @Persisted var dec: Decimal128
    @Persisted var ob: Bool?
    @Persisted var oi: Int?
    @Persisted var oi8: Int8?
    @Persisted var of: Float?
    @Persisted var od: Double?
    @Persisted var os: String?
    @Persisted var odata: Data?
    @Persisted var odate: Date?
    @Persisted var ooid: ObjectId?
    @Persisted var ouuid: UUID?
    @Persisted var odec: Decimal128?
    @Persisted var mixed: AnyRealmValue
    @Persisted var intList: List<Int>
    @Persisted var optStrings: List<String?>
    @Persisted var dateSet: MutableSet<Date>
    @Persisted var mixedMap: Map<String, AnyRealmValue>
}

enum Namespace {
    final class NestedModel: Object {
        @Persisted var value = 0
    }
}

let apiTypes: [ObjectBase.Type] = [APerson.self, ADog.self, AAddress.self, AGeo.self]

/// A temporary directory and a configuration in it.
final class APIFixture {
    let dir = TempDir()
    func config(_ name: String = "api.strata", types: [ObjectBase.Type] = apiTypes) -> Realm.Configuration {
        Realm.Configuration(fileURL: dir.url.appendingPathComponent(name), objectTypes: types)
    }
}

func assertIntegrity(_ realm: Realm, file: StaticString = #filePath, line: UInt = #line) {
    do {
        let r = try realm.checkIntegrity()
        XCTAssertTrue(r.isSound, "integrity problems: \(r.problems.prefix(5))", file: file, line: line)
    } catch { XCTFail("check threw \(error)", file: file, line: line) }
}

/// Runs the main run loop until `condition` holds or `timeout` passes (generous: it only bounds a failing run).
func spin(until timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while !condition() && Date() < end { RunLoop.current.run(until: Date().addingTimeInterval(0.005)) }
    return condition()
}

/// A stage standing in for the query engine: keeps objects whose Int `property` is at least
/// `min`, sorted by `sortBy` (String) ascending, then key.
struct FakeFilterSort: ResultsStage {
    let property: String
    let min: Int64
    let sortBy: String
    func apply(to keys: [ObjKey]?, className: String, in txn: DBTransaction) throws -> [ObjKey] {
        let all = try keys ?? txn.objectKeys(className)
        var rows: [(ObjKey, String)] = []
        for k in all {
            guard case .int(let v) = try txn.value(className, k, property), v >= min else { continue }
            guard case .string(let s) = try txn.value(className, k, sortBy) else { continue }
            rows.append((k, s))
        }
        return rows.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
    }
    var stageDescription: String { "\(property) >= \(min) SORT(\(sortBy))" }
}

var apiProductsDirectory: URL {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
}

final class Name58Bytes_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: Object { @Persisted var x = 0 }
