import Foundation
import XCTest

/// strata run with standard output or standard error closed (`>&-`, `2>&-`) or unwritable.
final class StandardDescriptorTests: CLITestCase {
    /// A message to an unwritable standard error (`2>/dev/full`, `2>&-`) trapped in
    /// FileHandle.write (SIGILL, exit 132); the message is lost and the exit code is the
    /// command's own.
    func testAnUnwritableStandardErrorDoesNotCrash() throws {
        for redirect in ["2>/dev/full", "2>&-"] {
            let r = try runShell("", ["info", path("missing.strata")], redirect: redirect)
            XCTAssertEqual(r.code, 3, "\(redirect): \(r.stderr)")
            let usage = try runShell("", ["info", "--bogus"], redirect: redirect)
            XCTAssertEqual(usage.code, 2, redirect)
        }
    }
}
