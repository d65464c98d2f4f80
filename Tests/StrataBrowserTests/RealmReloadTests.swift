import Foundation
import StrataTooling
import XCTest
@testable import StrataBrowser

/// A live `.realm` file (issue 14): when an app commits after the browser opened the file, the
/// status bar says so in one line and `R` reloads; nothing is written or created beside it.
/// Filter and sort on a Realm file run the query layer (the status line is the Realm one).
final class RealmReloadTests: XCTestCase {
    static let fixtures = RealmFileBrowserTests.fixtures

    func testNewerCommitIsOfferedAndReloaded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realm-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("app.realm")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("nested.realm"), to: file)

        let source = try RealmFileDataSource(path: file.path)
        let app = BrowserApp(dataSource: source, size: TerminalSize(columns: 120, rows: 30), environment: ["NO_COLOR": "1"])
        var status = try XCTUnwrap(app.frame().textLines().last)
        XCTAssertTrue(status.contains("Realm file, format 24, read-only"), status)
        XCTAssertFalse(status.contains("R reloads"), status)
        app.handle(.character("R"))
        XCTAssertTrue(app.frame().textLines().joined().contains("nothing to reload"))
        // nested.json: Nested and NestedTarget. An "app" writes a new version of the file (the
        // way a commit changes the header and size); the browser still shows its snapshot.
        XCTAssertEqual(Set(source.classes().map(\.name)), ["Nested", "NestedTarget"])
        try Data(contentsOf: Self.fixtures.appendingPathComponent("all-types.realm")).write(to: file, options: .atomic)
        status = try XCTUnwrap(app.frame().textLines().last)
        XCTAssertTrue(status.contains("newer commit on disk · R reloads"), status)
        XCTAssertEqual(Set(source.classes().map(\.name)), ["Nested", "NestedTarget"])

        app.handle(.character("R"))
        status = try XCTUnwrap(app.frame().textLines().last)
        XCTAssertFalse(status.contains("R reloads"), status)
        // all-types.json's classes, and a filter runs on the new snapshot.
        XCTAssertTrue(source.classes().map(\.name).contains("LinkTarget"))
        XCTAssertEqual(try source.count(className: "LinkTarget", filter: "value >= 0").value, 10)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["app.realm"])
    }
}
