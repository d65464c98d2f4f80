import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata export --output` through symlinks and over another user's file, as `cp` behaves:
/// a dangling symlink is refused (it was replaced by a regular file), a live one is written
/// through (its target replaced, in the target's directory, the link kept), and a file replaced
/// by root keeps its owner, group and mode (it became root's).
final class ExportOutputLinkTests: CLITestCase {
    func lstatOf(_ path: String) -> stat? {
        var st = stat()
        return lstat(path, &st) == 0 ? st : nil
    }

    func testADanglingSymlinkIsRefusedAndKept() throws {
        let file = try makeDemo()
        try FileManager.default.createSymbolicLink(atPath: path("out.json"), withDestinationPath: "missing/target.json")
        try FileManager.default.createDirectory(atPath: path("missing"), withIntermediateDirectories: false)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        let r = try StrataCLI.run(["export", file, "--class", "Company", "--output", path("out.json")])
        XCTAssertEqual(r.code, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("not writing through dangling symlink"), r.stderr)
        XCTAssertTrue(r.stderr.contains("missing/target.json"), "names where the link points: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("nothing was written"), r.stderr)
        XCTAssertEqual(lstatOf(path("out.json")).map { $0.st_mode & S_IFMT }, S_IFLNK, "the link is still a link")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("out.json")), "missing/target.json")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("missing")), [], "the target is not created")
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)), before, "no temporary left")
    }

    func testALiveSymlinkIsWrittenThroughInTheTargetsDirectory() throws {
        let file = try makeDemo()
        try FileManager.default.createDirectory(atPath: path("elsewhere"), withIntermediateDirectories: false)
        let target = path("elsewhere/data.json")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertEqual(chmod(target, 0o640), 0)
        try FileManager.default.createSymbolicLink(atPath: path("out.json"), withDestinationPath: "elsewhere/data.json")
        let r = try StrataCLI.run(["export", file, "--class", "Company", "--output", path("out.json")])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(lstatOf(path("out.json")).map { $0.st_mode & S_IFMT }, S_IFLNK, "the link is kept")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("out.json")), "elsewhere/data.json")
        let companies = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: target))) as? [Any]
        XCTAssertEqual(companies?.count, 10, "the target has the export")
        XCTAssertEqual(lstatOf(target).map { $0.st_mode & 0o7777 }, 0o640, "the target's mode is kept")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("elsewhere")), ["data.json"], "no temporary left")
    }

    func testRootReplacingAnotherUsersFileKeepsItsOwnerGroupAndMode() throws {
        guard geteuid() == 0 else { throw XCTSkip("changing a file's owner needs root") }
        let file = try makeDemo()
        let out = path("theirs.json")
        try Data("theirs\n".utf8).write(to: URL(fileURLWithPath: out))
        XCTAssertEqual(chown(out, 4321, 8765), 0)
        XCTAssertEqual(chmod(out, 0o604), 0)
        let r = try StrataCLI.run(["export", file, "--class", "Company", "--output", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let st = try XCTUnwrap(lstatOf(out))
        XCTAssertEqual(st.st_uid, 4321, "the owner is kept")
        XCTAssertEqual(st.st_gid, 8765, "the group is kept")
        XCTAssertEqual(st.st_mode & 0o7777, 0o604, "the mode is kept")
        XCTAssertGreaterThan(st.st_size, 100, "the content is the export")

        // A new file is this user's, with the usual mode.
        let fresh = path("fresh.json")
        XCTAssertEqual(try StrataCLI.run(["export", file, "--class", "Company", "--output", fresh]).code, 0)
        XCTAssertEqual(lstatOf(fresh)?.st_uid, geteuid())
    }
}
