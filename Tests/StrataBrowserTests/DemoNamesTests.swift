import XCTest
@testable import StrataTooling

/// `Resources/demo/names.json`: it parses, and bad names files are refused with what to fix.
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
}
