import Foundation
import XCTest
@testable import StrataBrowser
import StrataTooling

/// Runs the real ncurses browser on a copy of the demo database (with a second handle
/// committing every 2 s, as `strata demo --churn` would) when `STRATA_BROWSER_INTERACTIVE=1` is
/// set — for trying the UI in a terminal or driving it from tmux. Skipped otherwise.
final class InteractiveDemoTests: XCTestCase {
    func testRunInTerminal() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["STRATA_BROWSER_INTERACTIVE"] == "1" else {
            throw XCTSkip("set STRATA_BROWSER_INTERACTIVE=1 to run the browser in this terminal")
        }
        let harness = Harness(readOnly: environment["STRATA_BROWSER_READ_ONLY"] == "1")
        nonisolated(unsafe) let churner = try DemoDatabase.Churner(database: harness.other, seed: 7)
        let writer = Thread {
            while !Thread.current.isCancelled {
                _ = try? churner.step()
                Thread.sleep(forTimeInterval: 2)
            }
        }
        writer.start()
        defer { writer.cancel() }
        try runBrowser(dataSource: harness.database)
    }
}
