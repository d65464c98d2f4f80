import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata info` as a process.
final class InfoCommandTests: CLITestCase {
    /// An encrypted Strata file opened without a key said "open it with its 64-byte encryption
    /// key" and not how; it names the option (exit 6), for every command that reads.
    func testAnEncryptedFileWithoutAKeyNamesTheOption() throws {
        let file = path("e.strata")
        let key = try write(String((0..<64).map { String(format: "%02x", $0) }.joined()), to: "k.hex")
        XCTAssertEqual(try StrataCLI.run(["demo", file, "--objects", "100", "--encryption-key-file", key]).code, 0)
        for command in [["info", file], ["export", file, "--class", "Company"], ["demo", file, "--churn", "--seconds", "0"]] {
            let r = try StrataCLI.run(command)
            XCTAssertEqual(r.code, 6, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("pass it with --encryption-key-file"), "\(command): \(r.stderr)")
        }
        XCTAssertEqual(try StrataCLI.run(["info", file, "--encryption-key-file", key]).code, 0)
    }

    func testInfoJSONHasVersionAndClassCounts() throws {
        let file = try makeDemo(events: 2000)
        let result = try StrataCLI.run(["info", file, "--json"])
        XCTAssertEqual(result.code, 0, result.stderr)
        let info = result.object
        XCTAssertGreaterThan(info["version"] as? Int ?? 0, 5)
        let classes = try XCTUnwrap(info["classes"] as? [[String: Any]])
        let counts = Dictionary(uniqueKeysWithValues: classes.map { ($0["name"] as! String, $0["count"] as! Int) })
        XCTAssertEqual(counts["Event"], 1800)
        XCTAssertEqual(counts["Person"], 2000)
        XCTAssertEqual(counts["Company"], 10)
        for key in ["totalBytes", "usedBytes", "freeBytes", "lockedBytes", "formatVersion"] { XCTAssertNotNil(info[key] as? Int, key) }
        XCTAssertGreaterThan(info["freeBytes"] as! Int, 0, "the demo's history leaves free space")
        XCTAssertNotNil(info["participants"] as? [Any])
        XCTAssertNotNil(info["readers"] as? [Any])

        let text = try StrataCLI.run(["info", file])
        XCTAssertEqual(text.code, 0)
        XCTAssertTrue(text.stdout.contains("Event"))
    }
}
