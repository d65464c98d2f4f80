import Foundation
import XCTest

/// `convert --allow-loss` never makes up a date for a required property, and `import --create`
/// makes no class (and no file) from an input without rows.
final class ConvertAndEmptyImportTests: CLITestCase {
    func testRequiredDatesOutsideTheRangeBecomeTheNearestEndAndAreListed() throws {
        let realm = path("all-types.realm")
        try FileManager.default.copyItem(atPath: FileRefusalCommandTests.realmFixtures.appendingPathComponent("all-types.realm").path, toPath: realm)
        let out = path("at.strata")
        let convert = try StrataCLI.run(["convert", realm, out, "--allow-loss"])
        XCTAssertEqual(convert.code, 0, convert.stderr)
        XCTAssertTrue(convert.stderr.contains("4 × date outside the dates Strata stores, in a required property: stored as the nearest end"), convert.stderr)
        let export = try StrataCLI.run(["export", out, "--class", "AllTypes"])
        XCTAssertEqual(export.code, 0, export.stderr)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
        let dates = rows.compactMap { $0["dateCol"] as? String }
        // The source holds 9999-12-31 and 0001-01-01 twice each, and 1970-01-01 twice.
        XCTAssertEqual(dates.filter { $0 == "2262-04-11T23:47:16.854775807Z" }.count, 2)
        XCTAssertEqual(dates.filter { $0 == "1677-09-21T00:12:43.145224192Z" }.count, 2)
        XCTAssertEqual(dates.filter { $0.hasPrefix("1970-01-01T00:00:00") }.count, 2, "no made-up epoch dates")
    }

    func testCreateFromAnInputWithoutRowsMakesNoClassAndNoFile() throws {
        let fresh = path("fresh.strata")
        let json = try StrataCLI.run(["import", fresh, "--class", "E", "-", "--create"], input: Data("[]".utf8))
        XCTAssertEqual(json.code, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("nothing to commit"), json.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh), "no file made of nothing")

        let demo = try makeDemo()
        let before = try StrataCLI.run(["versions", demo, "--json"]).object["version"] as? Int
        let csv = try StrataCLI.run(["import", demo, "--class", "HeaderOnly", "-", "--create", "--format", "csv"], input: Data("a,b\n".utf8))
        XCTAssertEqual(csv.code, 0, csv.stderr)
        let schema = try StrataCLI.run(["schema", demo])
        XCTAssertFalse(schema.stdout.contains("HeaderOnly"), schema.stdout)
        XCTAssertEqual(try StrataCLI.run(["versions", demo, "--json"]).object["version"] as? Int, before, "no commit")
    }
}
