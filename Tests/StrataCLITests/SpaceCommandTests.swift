import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata space` as a process.
final class SpaceCommandTests: CLITestCase {
    func testSpaceJSONAddsUp() throws {
        let file = try makeDemo(events: 2000)
        let space = try StrataCLI.run(["space", file, "--json"])
        XCTAssertEqual(space.code, 0, space.stderr)
        let s = space.object
        let total = try XCTUnwrap(s["totalBytes"] as? Int), used = try XCTUnwrap(s["usedBytes"] as? Int), free = try XCTUnwrap(s["freeBytes"] as? Int)
        XCTAssertEqual(total, used + free)
        let classes = try XCTUnwrap(s["classes"] as? [[String: Any]])
        let event = try XCTUnwrap(classes.first { $0["name"] as? String == "Event" })
        XCTAssertGreaterThan(event["bytes"] as? Int ?? 0, 0)
        XCTAssertEqual((event["indexes"] as? [[String: Any]])?.first?["name"] as? String, "kind")
        XCTAssertEqual((event["columns"] as? [[String: Any]])?.count, 8)
        XCTAssertNotNil(s["freeBySize"] as? [Any])
        XCTAssertNotNil(s["freeByVersion"] as? [Any])
        XCTAssertLessThan(s["compactedBytes"] as? Int ?? .max, total)

    }
}
