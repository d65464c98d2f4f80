import Foundation
import Strata
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata copy` as a process.
final class CopyCommandTests: CLITestCase {
    func testCopyIsSmallerAndSoundAndCanDecrypt() throws {
        let file = try makeDemo(events: 2000)
        let copy = try StrataCLI.run(["copy", file, path("copy.strata"), "--json"])
        XCTAssertEqual(copy.code, 0, copy.stderr)
        XCTAssertLessThan(copy.object["destinationBytes"] as? Int ?? .max, copy.object["sourceBytes"] as? Int ?? 0)
        XCTAssertEqual(try StrataCLI.run(["check", path("copy.strata")]).code, 0)
        let decrypted = try StrataCLI.run(["copy", file, path("plain.strata"), "--decrypt"])
        XCTAssertEqual(decrypted.code, 0, decrypted.stderr)

    }
}
