import Foundation
import XCTest
import Strata

final class TQRRow: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var prefix = ""
    @Persisted var nickname: String?
    @Persisted var age: Int?
    @Persisted var blob = Data()
    @Persisted var maybes: List<Int?>
    @Persisted var maybeMap: Map<String, Int?>
}

/// RealmSwift's typed ranges on optionals, binary string operators and comparisons of two
/// properties with the string operators.
final class TypedQueryRangesAndColumnsCompatTests: XCTestCase {
    func testOptionalRangesBinaryAndColumnOperators() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [TQRRow.self]))
        try realm.write {
            for (name, prefix, nick, age, blob, maybes, map) in [
                ("anna", "an", "Ann", 30, [1, 2, 3], [1, nil, 4], ["a": 1, "b": nil]),
                ("bert", "x", nil, nil, [9], [nil], ["a": nil]),
                ("carl", "CA", "carl", 50, [], [7], ["a": 9]),
            ] as [(String, String, String?, Int?, [UInt8], [Int?], [String: Int?])] {
                let r = TQRRow()
                r.name = name
                r.prefix = prefix
                r.nickname = nick
                r.age = age
                r.blob = Data(blob)
                r.maybes.append(objectsIn: maybes)
                for (k, v) in map { r.maybeMap[k] = v }
                realm.add(r)
            }
        }
        let rows = realm.objects(TQRRow.self)
        func names(_ q: (Query<TQRRow>) -> Query<Bool>) -> Set<String> { Set(rows.where(q).map(\.name)) }
        XCTAssertEqual(names { $0.age.contains(20...40) }, ["anna"], "nil is in no range")
        XCTAssertEqual(names { $0.age.contains(30..<50) }, ["anna"])
        XCTAssertEqual(names { $0.maybes.contains(1...5) }, ["anna"], "non-nil elements all in range")
        XCTAssertEqual(names { $0.maybeMap.contains(0...5) }, ["anna"])
        XCTAssertEqual(names { $0.blob.starts(with: Data([1, 2])) }, ["anna"])
        XCTAssertEqual(names { $0.blob.contains(Data([9])) }, ["bert"])
        XCTAssertEqual(names { $0.name.starts(with: $0.prefix) }, ["anna"])
        XCTAssertEqual(names { $0.name.starts(with: $0.prefix, options: .caseInsensitive) }, ["anna", "carl"])
        XCTAssertEqual(names { $0.name.equals($0.nickname, options: .caseInsensitive) }, ["carl"])
        XCTAssertEqual(names { $0.name.notEquals($0.nickname) }, ["anna", "bert"])
        XCTAssertEqual(names { $0.nickname.contains("n", options: .caseInsensitive) }, ["anna"])
    }
}
