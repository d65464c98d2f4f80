import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata schema` as a process.
final class SchemaCommandTests: CLITestCase {
    func testSchemaJSONAndSwift() throws {
        let file = try makeDemo(events: 2000)
        let schema = try StrataCLI.run(["schema", file, "--json"])
        XCTAssertEqual(schema.code, 0)
        let schemaClasses = try XCTUnwrap(schema.object["classes"] as? [[String: Any]])
        XCTAssertEqual(Set(schemaClasses.map { $0["name"] as! String }), ["Address", "Company", "Dog", "Event", "Person", "Product"])

        let swift = try StrataCLI.run(["schema", file, "--swift"])
        XCTAssertEqual(swift.code, 0)
        XCTAssertTrue(swift.stdout.contains("final class Person: Object {"))
        XCTAssertTrue(swift.stdout.contains("@Persisted(primaryKey: true) var id: Int"))
        XCTAssertTrue(swift.stdout.contains("final class Address: EmbeddedObject {"))
        XCTAssertTrue(swift.stdout.contains("@Persisted var dogs: List<Dog>"))
        XCTAssertTrue(swift.stdout.contains("@Persisted(originProperty: \"user\") var events: LinkingObjects<Event>"))
    }
}
