import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata versions` as a process.
final class VersionsCommandTests: CLITestCase {
    func testVersionsJSONListsTheDemoCommits() throws {
        let file = try makeDemo(events: 2000)
        let versions = try StrataCLI.run(["versions", file, "--json"])
        XCTAssertEqual(versions.code, 0, versions.stderr)
        let commits = try XCTUnwrap(versions.object["commits"] as? [[String: Any]])
        XCTAssertEqual(commits.first?["version"] as? Int, versions.object["version"] as? Int)
        XCTAssertTrue(commits.contains { ($0["summary"] as? String)?.contains("Event: 200 deleted") == true }, "\(commits)")

    }
}
