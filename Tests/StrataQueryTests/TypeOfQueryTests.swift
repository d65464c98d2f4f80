// RQL's `@type` on mixed values (realm-core's TypeOfValue), through the typed API's filter.
import XCTest
import Foundation
import Strata
@testable import StrataQuery

final class TOTarget: Object {
    @Persisted var name = ""
}

final class TOItem: Object {
    @Persisted(primaryKey: true) var name = ""
    @Persisted var value: AnyRealmValue
    @Persisted var values: List<AnyRealmValue>
    @Persisted var count = 0
    @Persisted var maybe: Int?
    @Persisted var link: TOItem?
    @Persisted var links: List<TOItem>
}

final class TypeOfQueryTests: XCTestCase {
    private var dir: URL!
    private var realm: Realm!
    private var items: Results<TOItem>!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-typeof-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        realm = try Realm(configuration: Realm.Configuration(fileURL: dir.appendingPathComponent("t.strata"),
                                                             objectTypes: [TOItem.self, TOTarget.self]))
        try realm.write {
            let target = TOTarget()
            target.name = "t"
            let rows: [(String, AnyRealmValue, [AnyRealmValue])] = [
                ("int", .int(3), [.int(1), .double(2)]),
                ("double", .double(2.5), [.string("s")]),
                ("float", .float(1.5), []),
                ("string", .string("x"), [.none, .bool(true)]),
                ("bool", .bool(false), [.int(4)]),
                ("date", .date(Date(timeIntervalSince1970: 0)), []),
                ("data", .data(Data([1])), [.data(Data([2]))]),
                ("oid", .objectId(ObjectId.generate()), []),
                ("uuid", .uuid(UUID()), []),
                ("decimal", .decimal128(Decimal128(number: 7)), []),
                ("object", .object(target), []),
                ("null", .none, []),
            ]
            var previous: TOItem?
            for (name, value, values) in rows {
                let item = TOItem()
                item.name = name
                item.value = value
                item.values.append(objectsIn: values)
                item.maybe = name == "int" ? 1 : nil
                item.link = previous
                if let p = previous { item.links.append(p) }
                realm.add(item)
                previous = item
            }
        }
        items = realm.objects(TOItem.self)
    }

    override func tearDownWithError() throws {
        items = nil
        realm = nil
        try? FileManager.default.removeItem(at: dir)
    }

    private func names(_ query: String, _ args: Any..., file: StaticString = #filePath, line: UInt = #line) -> Set<String> {
        do { return Set(try items.filter(checked: query, arguments: args).map(\.name)) } catch {
            XCTFail("\(query): \(error)", file: file, line: line)
            return []
        }
    }

    func testTypeNamesOfMixedValues() {
        XCTAssertEqual(names("value.@type == 'string'"), ["string"])
        XCTAssertEqual(names("value.@type == 'int'"), ["int"])
        XCTAssertEqual(names("value.@type == 'Integer'"), ["int"], "names ignore case")
        XCTAssertEqual(names("value.@type == 'double'"), ["double"])
        XCTAssertEqual(names("value.@type == 'float'"), ["float"])
        XCTAssertEqual(names("value.@type == 'bool'"), ["bool"])
        XCTAssertEqual(names("value.@type == 'date'"), ["date"])
        XCTAssertEqual(names("value.@type == 'timestamp'"), ["date"])
        XCTAssertEqual(names("value.@type == 'binary'"), ["data"])
        XCTAssertEqual(names("value.@type == 'byte[]'"), ["data"])
        XCTAssertEqual(names("value.@type == 'objectId'"), ["oid"])
        XCTAssertEqual(names("value.@type == 'uuid'"), ["uuid"])
        XCTAssertEqual(names("value.@type == 'decimal128'"), ["decimal"])
        XCTAssertEqual(names("value.@type == 'link'"), ["object"])
        XCTAssertEqual(names("value.@type == 'objectlink'"), ["object"])
        XCTAssertEqual(names("value.@type == 'null'"), ["null"])
        XCTAssertEqual(names("value.@type == 'numeric'"), ["int", "double", "float", "decimal"])
        XCTAssertEqual(names("value.@type == 'collection'"), [], "no mixed value holds a collection")
        XCTAssertEqual(names("value.@type IN {'int', 'double'}"), ["int", "double"])
        XCTAssertEqual(names("value.@type != 'numeric' AND value.@type != 'null'"),
                       ["string", "bool", "date", "data", "oid", "uuid", "object"])
        XCTAssertEqual(names("NOT value.@type IN {'numeric', 'string', 'null'}"),
                       ["bool", "date", "data", "oid", "uuid", "object"])
        XCTAssertEqual(names("value.@type == $0", "string"), ["string"])
        XCTAssertEqual(names("value.@type IN $0", ["bool", "uuid"]), ["bool", "uuid"])
        XCTAssertEqual(names("value > 2 AND value.@type == 'int'"), ["int"])
    }

    func testTypeOfCollectionsLinksAndTypedProperties() {
        XCTAssertEqual(names("values.@type == 'numeric'"), ["int", "bool"], "any element")
        XCTAssertEqual(names("ALL values.@type == 'numeric' AND values.@count > 0"), ["int", "bool"])
        XCTAssertEqual(names("NONE values.@type == 'null' AND values.@count > 0"), ["int", "double", "bool", "data"])
        XCTAssertEqual(names("values.@type != 'numeric'"), ["double", "string", "data"], "any element not numeric")
        XCTAssertEqual(names("link.value.@type == 'string'"), ["bool"], "through a link")
        XCTAssertEqual(names("links.value.@type == 'float'"), ["string"], "through a list of links")
        XCTAssertEqual(names("SUBQUERY(values, $v, $v.@type == 'int').@count == 1"), ["int", "bool"])
        XCTAssertEqual(names("value.@type == count.@type"), ["int"], "a typed property has its declared type")
        XCTAssertEqual(names("maybe.@type == 'int'").count, 12, "even when nil, as in realm-core")
        XCTAssertEqual(names("link.@type == 'link'").count, 11, "objects through links are links")
    }

    func testUnknownTypeNameIsAnErrorAtItsPosition() {
        XCTAssertThrowsError(try items.filter(checked: "value.@type == 'strng'")) { error in
            let e = error as? QueryError
            XCTAssertEqual(e?.kind, .syntax)
            XCTAssertEqual(e?.position, 16, "the position of 'strng'")
            XCTAssertTrue("\(error)".contains("unknown type name 'strng' for @type: expected one of null, int"), "\(error)")
        }
        XCTAssertThrowsError(try items.filter(checked: "value.@type IN {'int', 'asdf'}")) { error in
            XCTAssertEqual((error as? QueryError)?.position, 24, "\(error)")
        }
        XCTAssertThrowsError(try items.filter(checked: "'nope' == value.@type")) { error in
            XCTAssertEqual((error as? QueryError)?.position, 1, "\(error)")
        }
        XCTAssertThrowsError(try items.filter(checked: "value.@type == 23")) { error in
            XCTAssertEqual((error as? QueryError)?.position, 16, "\(error)")
            XCTAssertTrue("\(error)".contains("type names"), "\(error)")
        }
        XCTAssertThrowsError(try items.filter(checked: "value.@type == $0", "asdf")) { error in
            XCTAssertEqual((error as? QueryError)?.kind, .argument)
            XCTAssertTrue("\(error)".contains("Argument $0: unknown type name 'asdf'"), "\(error)")
        }
        XCTAssertThrowsError(try items.filter(checked: "value.@type > 'int'")) { error in
            XCTAssertTrue("\(error)".contains("@type can only be compared with ==, != or IN"), "\(error)")
        }
        XCTAssertThrowsError(try items.filter(checked: "value.@type == value")) { error in
            XCTAssertTrue("\(error)".contains("compare @type with type names"), "\(error)")
        }
        XCTAssertThrowsError(try items.filter(checked: "value.@type.@count > 1")) { error in
            XCTAssertTrue("\(error)".contains("Nothing can follow @type"), "\(error)")
        }
    }

    func testTypeOfPrintsAndParsesBack() throws {
        let parsed = try RQL.parse("ANY values.@TYPE IN {'Int', 'string'} AND link.value.@type != 'null'")
        XCTAssertEqual(parsed.description, #"ANY values.@type IN {"Int", "string"} AND link.value.@type != "null""#)
        XCTAssertEqual(try RQL.parse(parsed.description), parsed)
    }
}
