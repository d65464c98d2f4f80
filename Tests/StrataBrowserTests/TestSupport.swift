import Foundation
import StrataTooling
import XCTest
@testable import StrataBrowser

/// A clock tests move by hand (no test depends on real time).
final class TestClock: @unchecked Sendable {
    var now = FakeDataSource.referenceDate
    func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
}

/// A browser on a fresh fake data source, driven by key names.
final class Harness {
    let clock = TestClock()
    let source: FakeDataSource
    let app: BrowserApp

    init(columns: Int = 80, rows: Int = 24, readOnly: Bool = false, otherProcesses: [Participant] = FakeDataSource.defaultOtherProcesses,
         environment: [String: String] = [:], eventCount: Int = 10_000_000) {
        let clock = self.clock
        source = FakeDataSource(path: "/data/demo.strata", isReadOnly: readOnly, eventCount: eventCount,
                                otherProcesses: otherProcesses, now: { clock.now })
        app = BrowserApp(dataSource: source, size: TerminalSize(columns: columns, rows: rows), environment: environment,
                         clock: { clock.now })
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
