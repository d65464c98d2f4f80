import Foundation
import Strata
import XCTest

/// `strata check`: exit 1 with the problem for a damaged block, and no advice to run itself.
final class CheckCommandTests: CLITestCase {
    /// One flipped byte inside a stored string: the file opens, and check finds the block that
    /// fails its checksum (exit 1 exactly, not 3).
    func testAFlippedByteInAStoredValueIsExit1WithTheProblem() throws {
        let file = try damagedDemo()
        let r = try StrataCLI.run(["check", file, "--json"])
        XCTAssertEqual(r.code, 1, "\(r.stdout) \(r.stderr)")
        XCTAssertEqual(r.object["sound"] as? Bool, false)
        let problems = try XCTUnwrap(r.object["problems"] as? [String])
        XCTAssertTrue(problems.contains { $0.contains("checksum") }, "\(problems)")
        XCTAssertFalse(r.stderr.contains("Fatal error"))
    }

    /// Other commands advise "Run 'strata check'"; check itself must not.
    func testCheckDoesNotAdviseRunningCheck() throws {
        let file = try makeDemo()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for i in 16..<8192 { bytes[i] = 0x5A }
        try bytes.write(to: URL(fileURLWithPath: file))
        let info = try StrataCLI.run(["info", file])
        XCTAssertEqual(info.code, 3)
        XCTAssertTrue(info.stderr.contains("strata check"), "the engine's advice is there to strip: \(info.stderr)")
        let check = try StrataCLI.run(["check", file])
        XCTAssertEqual(check.code, 3, check.stderr)
        XCTAssertTrue(check.stderr.contains("corrupted"), check.stderr)
        XCTAssertFalse(check.stderr.contains("strata check"), check.stderr)
    }

    func testCheckJSONOfASoundFile() throws {
        let file = try makeDemo(events: 2000)
        let check = try StrataCLI.run(["check", file, "--json"])
        XCTAssertEqual(check.code, 0, check.stderr)
        XCTAssertEqual(check.object["sound"] as? Bool, true)
        XCTAssertEqual((check.object["problems"] as? [Any])?.count, 0)

    }
}
