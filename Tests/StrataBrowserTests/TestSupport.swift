import Foundation
import StrataObjects
import StrataStorage
import StrataTooling
import XCTest
@testable import StrataBrowser

/// A clock tests move by hand (no test depends on real time).
final class TestClock: @unchecked Sendable {
    var now = RecordingDataSource.referenceDate
    func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
}

/// A browser on the real data source over a fresh copy of the demo database, driven by key names.
final class Harness {
    let clock = TestClock()
    let url: URL
    let database: DatabaseDataSource
    let source: RecordingDataSource
    let app: BrowserApp
    /// A second handle on the file, opened on first use: another writer, or another participant.
    private(set) lazy var other: Database = try! TestDatabase.otherWriter(url)

    /// Opens a copy of the demo database; `className` (if any) is selected in the sidebar and the
    /// focus moved to its table, as a user would (the browser itself opens on the first class).
    init(columns: Int = 80, rows: Int = 24, readOnly: Bool = false, environment: [String: String] = [:],
         className: String? = "Person") {
        url = TestDatabase.copy()
        database = try! DatabaseDataSource(path: url.path, readOnly: readOnly)
        source = RecordingDataSource(database)
        let clock = self.clock
        app = BrowserApp(dataSource: source, size: TerminalSize(columns: columns, rows: rows), environment: environment,
                         clock: { clock.now })
        // Filters run off the UI thread; tests wait for them on Enter (FilterCancellationTests
        // hold them to see the running state).
        app.filterGraceSeconds = 600
        if let className { open(className) }
    }

    /// Selects `className` in the sidebar and focuses its table.
    func open(_ className: String) {
        press("h", "g")
        for _ in 0..<source.classes().count where !app.frame().textLines()[1].contains("│\(className)") { press("j") }
        press("l")
    }

    deinit {
        database.close()
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }

    /// Commits through the second handle, as another process would; returns the new version.
    @discardableResult
    func externalCommit(_ body: (DBTransaction) throws -> Void) -> UInt64 {
        let w = try! other.write(label: "strata demo --churn")
        try! body(w)
        return try! w.commit()
    }

    /// Sets Person `id`'s age from the second handle.
    @discardableResult
    func externalAgeChange(person id: Int64 = 2, age: Int64 = 99) -> UInt64 {
        externalCommit { try $0.set("Person", id, "age", .int(age)) }
    }

    /// Presses keys given by name (`j`, `Enter`, `C-d`, …; see `Key(name:)`).
    @discardableResult
    func press(_ names: String..., file: StaticString = #filePath, line: UInt = #line) -> Harness {
        for name in names {
            guard let key = Key(name: name) else { XCTFail("unknown key name \(name)", file: file, line: line); continue }
            app.handle(key)
        }
        return self
    }

    /// Types text into a prompt.
    @discardableResult
    func type(_ text: String) -> Harness {
        for key in Key.typing(text) { app.handle(key) }
        return self
    }

    var frame: CellBuffer { app.frame() }
    var text: String { frame.textLines().joined(separator: "\n") }
    var lines: [String] { frame.textLines() }
}
/// Golden-file snapshots of frames: text, then a style map (see `CellBuffer.styleLines()`).
/// Run with `STRATA_RECORD=1` to (re)write the files; a mismatch prints a line diff.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func render(_ buffer: CellBuffer) -> String {
        (buffer.textLines() + ["--- styles ---"] + buffer.styleLines()).joined(separator: "\n") + "\n"
    }

    static func assertMatches(_ buffer: CellBuffer, named name: String, file: StaticString = #filePath, line: UInt = #line) {
        let url = directory.appendingPathComponent(name + ".txt")
        let actual = render(buffer)
        let recording = ProcessInfo.processInfo.environment["STRATA_RECORD"] == "1"
        guard !recording, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            if !recording { XCTFail("golden \(name) did not exist; recorded it — check and commit", file: file, line: line) }
            return
        }
        guard expected != actual else { return }
        let expectedLines = expected.components(separatedBy: "\n"), actualLines = actual.components(separatedBy: "\n")
        var diff: [String] = []
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let old = index < expectedLines.count ? expectedLines[index] : "<none>"
            let new = index < actualLines.count ? actualLines[index] : "<none>"
            if old != new { diff += ["line \(index + 1):", "- \(old)", "+ \(new)"] }
        }
        XCTFail("frame differs from golden \(name) (STRATA_RECORD=1 re-records):\n" + diff.prefix(60).joined(separator: "\n"),
                file: file, line: line)
    }
}
