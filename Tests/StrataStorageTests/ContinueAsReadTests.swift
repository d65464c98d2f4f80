import XCTest
@testable import StrataStorage

/// `WriteTransaction.continuing`: a commit hands a read transaction's reader slot to a read
/// transaction of the version it created (realm-core's commit-and-continue-as-read).
final class ContinueAsReadTests: XCTestCase {
    func testTheCommitHandsTheReaderSlotToTheVersionItCreated() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("c.strata"))
        defer { store.close() }
        do {
            let w = try store.beginWrite()
            try w.tree("t", create: true)!.put(key(0), bytes: Array("zero".utf8))
            try w.commit()
        }
        var r = try store.beginRead()
        let mine = store.readers().filter { $0.pid == getpid() }
        XCTAssertEqual(mine.map(\.version), [r.version])
        for i in 1...50 {
            let w = try store.beginWrite()
            try w.tree("t", create: true)!.put(key(i), bytes: Array("value \(i)".utf8))
            w.continuing = r
            let v = try w.commit()
            let next = try XCTUnwrap(w.continuedRead, "commit \(i) continued as a read")
            XCTAssertEqual(next.version, v)
            XCTAssertEqual(try next.tree("t")?.getBytes(key(i)), Array("value \(i)".utf8), "reads what it committed")
            XCTAssertThrowsError(try r.tree("t"), "the transaction that gave its slot has ended")
            // Still one slot of this process, now at the new version (the old one is not pinned).
            XCTAssertEqual(store.readers().filter { $0.pid == getpid() }.map(\.version), [v])
            r = next
        }
        // A failed commit (here: an aborted write) leaves the read transaction as it was.
        let w = try store.beginWrite()
        w.continuing = r
        w.abort()
        XCTAssertNil(w.continuedRead)
        XCTAssertEqual(try r.tree("t")?.getBytes(key(50)), Array("value 50".utf8))
        r.end()
        XCTAssertTrue(store.readers().filter { $0.pid == getpid() }.isEmpty)
        assertSound(store)
    }

    func testAnEndedOrForeignTransactionIsNotContinued() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("c.strata"))
        let other = try Store(path: dir.path("d.strata"))
        defer { store.close(); other.close() }
        let ended = try store.beginRead()
        ended.end()
        var w = try store.beginWrite()
        try w.tree("t", create: true)!.put(key(1), bytes: [1])
        w.continuing = ended
        try w.commit()
        XCTAssertNil(w.continuedRead)
        let foreign = try other.beginRead()
        w = try store.beginWrite()
        try w.tree("t", create: true)!.put(key(2), bytes: [2])
        w.continuing = foreign
        try w.commit()
        XCTAssertNil(w.continuedRead)
        XCTAssertNoThrow(try foreign.tree("t"), "the other handle's transaction is untouched")
        foreign.end()
    }
}
