import Foundation
import XCTest
@testable import StrataBrowser

/// Runs the real ncurses browser on the fake data source (with a simulated writer committing
/// every 2 s) when `STRATA_BROWSER_INTERACTIVE=1` is set — for trying the UI in a terminal or
/// driving it from tmux. Skipped otherwise.
final class InteractiveDemoTests: XCTestCase {
    func testRunInTerminal() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["STRATA_BROWSER_INTERACTIVE"] == "1" else {
            throw XCTSkip("set STRATA_BROWSER_INTERACTIVE=1 to run the browser in this terminal")
        }
        let source = FakeDataSource(isReadOnly: environment["STRATA_BROWSER_READ_ONLY"] == "1")
        source.startSimulatedWriter(every: 2)
        defer { source.stopSimulatedWriter() }
        try runBrowser(dataSource: source)
    }
}
