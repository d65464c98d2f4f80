import XCTest
import StrataObjects
@testable import StrataTooling

/// `Resources/demo/names.json` and `schema.json`: they parse, and bad names files are refused with what to fix.
final class DemoNamesTests: XCTestCase {
    func testBundledNamesParse() throws {
        let names = try DemoNames(json: try XCTUnwrap(StrataToolingResources.files["demo/names.json"]))
        XCTAssertEqual(names.firstNames.first, "Alice")
        XCTAssertEqual(names.cities.first, ["Lyon", "France"])
        XCTAssertEqual(DemoDatabase.cities.count, names.cities.count)
    }

    func testBadNamesFilesAreRefused() {
        XCTAssertThrowsError(try DemoNames(json: "{}"))
        let lists = ["firstNames", "lastNames", "streets", "dogNames", "breeds", "eventKinds", "companyNames", "productWords", "productNouns"]
        let full = lists.map { "\"\($0)\": [\"x\"]" }.joined(separator: ", ")
        XCTAssertNoThrow(try DemoNames(json: "{\(full), \"cities\": [[\"a\", \"b\"]]}"))
        XCTAssertThrowsError(try DemoNames(json: "{\(full), \"cities\": [[\"a\"]]}")) {
            XCTAssertTrue("\($0)".contains("[city, country]"), "\($0)")
        }
        XCTAssertThrowsError(try DemoNames(json: "{\(full), \"cities\": []}")) {
            XCTAssertTrue("\($0)".contains("at least one"), "\($0)")
        }
    }

    func testBundledSchemaParses() throws {
        let schema = try DemoSchemaFile.parse(try XCTUnwrap(StrataToolingResources.files["demo/schema.json"]))
        XCTAssertEqual(schema.objectSchemas.map(\.className), ["Address", "Company", "Dog", "Event", "Person", "Product"])
        let person = try XCTUnwrap(schema.objectSchemas.first { $0.className == "Person" })
        XCTAssertEqual(person.allProperties.count, 14)
        XCTAssertEqual(person.allProperties.first, PropertySchema(name: "id", type: .int, isPrimaryKey: true))
        XCTAssertEqual(person.allProperties.last, PropertySchema(name: "events", type: .linkingObjects, objectClassName: "Event", linkOriginPropertyName: "user"))
        XCTAssertEqual(person.properties.first { $0.name == "tags" }, PropertySchema(name: "tags", type: .string, collection: .set))
        XCTAssertTrue(try XCTUnwrap(schema.objectSchemas.first { $0.className == "Address" }).isEmbedded)
        XCTAssertEqual(DemoDatabase.schema, schema)
    }

    func testBadSchemaFilesAreRefused() {
        let bad = #"{"classes": [{"name": "A", "properties": [{"name": "x", "type": "integer"}]}]}"#
        XCTAssertThrowsError(try DemoSchemaFile.parse(bad)) { XCTAssertTrue("\($0)".contains("A.x has unknown type 'integer'"), "\($0)") }
        let badCollection = #"{"classes": [{"name": "A", "properties": [{"name": "x", "type": "int", "collection": "bag"}]}]}"#
        XCTAssertThrowsError(try DemoSchemaFile.parse(badCollection)) { XCTAssertTrue("\($0)".contains("'bag'"), "\($0)") }
    }
}
