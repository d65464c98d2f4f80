import Foundation
import XCTest

/// `strata [browse] FILE` outside a terminal: a usage error that points at the subcommands (the
/// interactive browser itself is covered by the tmux end-to-end tests).
final class BrowseCommandTests: CLITestCase {
    func testWithoutATerminalTheBrowserSaysSoAndExits2() throws {
        let file = try makeDemo()
        for args in [[file], ["browse", file], ["browse", file, "--read-only"]] {
            let r = try StrataCLI.run(args)
            XCTAssertEqual(r.code, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("needs a terminal") && r.stderr.contains("strata info FILE"), r.stderr)
        }
    }
}
