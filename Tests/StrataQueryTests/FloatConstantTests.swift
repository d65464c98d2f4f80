import XCTest
import Foundation
import Strata

final class QFloats: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var f: Float
    @Persisted var of: Float?
    @Persisted var fltSet: MutableSet<Float>
    @Persisted var fltList: List<Float>
    @Persisted var fltMap: Map<String, Float>
}

/// A decimal literal or Double argument compared with Float values is taken as the nearest
/// Float (as realm-core parses a constant as the column's type), for every operator.
final class FloatConstantTests: XCTestCase {
    private var dir: URL!

    override func setUp() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-fc-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    func testDoubleConstantsMatchFloatValues() throws {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: dir.appendingPathComponent("f.strata"), objectTypes: [QFloats.self]))
        try realm.write {
            let o = QFloats()
            o.id = 1; o.f = 0.1; o.of = 0.1
            o.fltSet.insert(0.1); o.fltList.append(0.1); o.fltMap["a"] = 0.1
            realm.add(o)
        }
        let all = realm.objects(QFloats.self)
        let counts: [(String, [Any], Int)] = [
            ("f == 0.1", [], 1), ("f != 0.1", [], 0), ("f == %@", [0.1], 1), ("f == %@", [Float(0.1)], 1),
            ("f > 0.1", [], 0), ("f >= 0.1", [], 1), ("f < 0.1", [], 0), ("f <= 0.1", [], 1),
            ("f > %@", [0.1], 0), ("f <= %@", [0.1], 1), ("0.1 == f", [], 1), ("0.1 < f", [], 0),
            ("f IN {0.1}", [], 1), ("f IN {0.2, 0.1}", [], 1), ("f IN %@", [[0.1]], 1),
            ("f BETWEEN {0.1, 0.1}", [], 1), ("of == 0.1", [], 1), ("of > 0.1", [], 0),
            ("ANY fltSet == 0.1", [], 1), ("ANY fltSet > 0.1", [], 0), ("ANY fltList == %@", [0.1], 1),
            ("ALL fltList <= 0.1", [], 1), ("ANY fltMap == 0.1", [], 1), ("fltList.@max == 0.1", [], 1),
            ("f == 0.30000001", [], 0), ("f > 0.09", [], 1), ("f < 0.11", [], 1),
        ]
        for (query, args, n) in counts {
            XCTAssertEqual(try all.filter(checked: query, arguments: args).count, n, query)
        }
        let o = try XCTUnwrap(all.first)
        XCTAssertEqual(o.fltSet.filter("self == 0.1").count, 1)
        XCTAssertEqual(o.fltSet.filter("self > 0.1").count, 0)
        XCTAssertEqual(o.fltList.filter("self <= %@", 0.1).count, 1)
        XCTAssertEqual(o.fltList.filter("self IN {0.1}").count, 1)
        // The typed query agrees.
        XCTAssertEqual(all.where { $0.f == 0.1 }.count, 1)
        XCTAssertEqual(all.where { $0.f > 0.1 }.count, 0)
        XCTAssertEqual(all.where { $0.f <= 0.1 }.count, 1)
        XCTAssertEqual(all.where { $0.f.in([0.1]) }.count, 1)
    }
}
