import Foundation
import Strata
import StrataTooling
import XCTest

/// Link edits as the browser's prompt parses them (the tooling data source `strata` shares):
/// an out-of-range object key is an out-of-range key, not a primary-key problem.
final class LinkEditTests: CLITestCase {
    func testAnOutOfRangeObjectKeyIsNotBlamedOnThePrimaryKey() throws {
        let file = try makeDemo()
        let db = try Database(path: file)
        let source = try DatabaseDataSource(database: db, path: file, readOnly: false)
        defer { source.close() }
        let person = ObjectRef(className: "Person", key: try {
            let t = try db.read()
            defer { t.end() }
            return try XCTUnwrap(try t.objectKey("Person", at: 0))
        }())
        for text in ["#99999999999999999999", "#-99999999999999999999", "#1e30"] {
            XCTAssertThrowsError(try source.setValue(text: text, property: "employer", of: person), text) { error in
                let message = (error as? BrowserError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains("is not an object key"), "\(text): \(message)")
                XCTAssertFalse(message.contains("primary key"), "\(text): \(message)")
            }
        }
    }
}
