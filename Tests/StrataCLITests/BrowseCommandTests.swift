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

    /// `strata missing.strata | cat` said "needs a terminal" (exit 2) about a file that is not
    /// there; the missing file (or a directory) is what to fix, with the missing-file exit code.
    func testAMissingFileIsReportedBeforeTheTerminalCheck() throws {
        let missing = path("missing.strata")
        for args in [[missing], ["browse", missing], ["browse", missing, "--read-only"], [path("missing.realm")]] {
            let r = try StrataCLI.run(args)
            XCTAssertEqual(r.code, 3, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("no such file"), r.stderr)
            XCTAssertFalse(r.stderr.contains("terminal"), r.stderr)
        }
        let r = try StrataCLI.run([dir.path])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("is a directory"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "nothing created")
    }
}
