import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// The lock file truncated under running processes (by another program: issue 18 item 11). Every
/// process maps it; a page past the end of the file is a SIGBUS on the next access. The processes
/// restore its size before they touch it, so they survive: a running writer commits, a reader
/// ends, a handle closes; a fresh handle opened meanwhile gets a clear error, not a crash.
final class LockFileTruncationTests: XCTestCase {
    func testProcessesUsingTheLockFileSurviveItsTruncation() throws {
        let exe = try requireTestWriter()
        let dir = TempDir(); let path = dir.path("db.strata")
        let s = try Store(path: path)
        let w = try s.beginWrite()
        try w.tree("t", create: true)!.put([1], bytes: [1])
        try w.commit()
        s.close()

        // A child with a read pinned and a write transaction open.
        let child = try ChildProcess(executable: exe, arguments: ["step", path])
        defer { if child.process.isRunning { child.kill9() } }
        XCTAssertNotNil(child.waitForLine { $0.hasPrefix("ready") }, "\(child.lines)")

        XCTAssertEqual(truncate(path + ".lock", 0), 0)
        // A fresh handle while the child still uses the file: a clear error.
        XCTAssertThrowsError(try Store(path: path)) { error in
            guard case StorageError.badLockFile(_, let detail)? = error as? StorageError else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("truncated"), detail)
        }
        // The child commits, ends its read and closes: each step touches the lock file.
        for (step, expected) in [("commit", "committed"), ("release", "released"), ("close", "closed")] {
            XCTAssertNoThrow(try truncate(path + ".lock", 0) == 0 ? () : XCTFail("truncate"))
            child.send(step)
            XCTAssertNotNil(child.waitForLine { $0.hasPrefix(expected) },
                            "after \(step): \(child.lines), running \(child.process.isRunning), status \(child.process.terminationStatus)")
        }
        child.process.waitUntilExit()
        XCTAssertEqual(child.process.terminationReason, .exit, "the child died of a signal \(child.process.terminationStatus)")
        XCTAssertEqual(child.process.terminationStatus, 0)

        // Alone again, a fresh handle reinitialises the lock file and sees the child's commit.
        let fresh = try Store(path: path)
        defer { fresh.close() }
        let r = try fresh.beginRead()
        defer { r.end() }
        XCTAssertEqual(try r.tree("t")?.getBytes(Array("step".utf8)), [1])
    }
}
