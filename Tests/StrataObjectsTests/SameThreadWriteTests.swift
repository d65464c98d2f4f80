import XCTest
import Foundation
@testable import StrataObjects
import StrataStorage

/// A second write transaction on a thread that already writes to the file is an error, not a
/// wait for itself.
final class SameThreadWriteTests: XCTestCase {
    /// Runs `body` on another thread; fails (instead of hanging the test run) when it has not
    /// finished within 20 seconds.
    private func withDeadline(_ what: String, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { body(); done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success, "\(what) hangs")
    }

    func testSecondWriteOnTheSameThreadThrows() throws {
        let f = APIFixture()
        let c = f.config(types: apiTypes + [Namespace.NestedModel.self])
        let message = "\(c.fileURL!.path): this thread already has a write transaction open on this file (another Realm or Database of it); commit or cancel it first"
        nonisolated(unsafe) var errors: [String] = []
        withDeadline("a second Realm's write") {
            do {
                let r1 = try Realm(configuration: c)
                var c2 = c; c2.objectTypes = apiTypes   // another set of classes: another Realm of the file
                let r2 = try Realm(configuration: c2)
                r1.beginWrite()
                r1.add(APerson(id: 1, name: "kept"))
                do { try r2.write { r2.add(ADog(name: "never")) } } catch {
                    errors.append("\(error)")
                    XCTAssertEqual((error as? Realm.Error)?.underlyingError as? StorageError, .writeAlreadyOpenOnThisThread(path: c.fileURL!.path))
                }
                XCTAssertFalse(r2.isInWriteTransaction)
                do { _ = try r1.database.write() } catch { errors.append("\(error)") }
                // The first write is unharmed; once it is committed the second realm writes.
                try r1.commitWrite()
                try r2.write { r2.add(ADog(name: "later")) }
                XCTAssertEqual(r1.objects(APerson.self).count, 1)
                r1.refresh()
                XCTAssertEqual(r1.objects(ADog.self).count, 1)
            } catch { errors.append("unexpected: \(error)") }
        }
        XCTAssertEqual(errors, [message, message])
        withDeadline("a Database write beside a Realm write") {
            do {
                let realm = try Realm(configuration: c)
                let db = realm.database
                let w = try db.write()
                do { try realm.write { } } catch { errors.append("\(error)") }
                w.abort()
            } catch { errors.append("unexpected: \(error)") }
        }
        XCTAssertEqual(errors, [message, message, message])
    }

    func testStoreBeginWriteOnTheHoldingThreadThrows() throws {
        let dir = TempDir()
        let path = dir.path("s.strata")
        nonisolated(unsafe) var result: StorageError?
        withDeadline("Store.beginWrite") {
            do {
                let a = try Store(path: path), b = try Store(path: path)
                let w = try a.beginWrite()
                do { _ = try b.beginWrite() } catch let e as StorageError { result = e }
                w.abort()
                // Released: the same thread writes again.
                try b.beginWrite().abort()
            } catch { XCTFail("\(error)") }
        }
        XCTAssertEqual(result, .writeAlreadyOpenOnThisThread(path: path))
    }

    /// A transaction begun by a thread that has ended (handed over, as `asyncWrite` does) does
    /// not make a later thread — which may reuse the ended thread's `pthread_t` — look like its
    /// holder: that thread waits for the lock, as it should.
    func testALaterThreadWaitsForATransactionHandedOver() throws {
        let dir = TempDir()
        let store = try Store(path: dir.path("h.strata"))
        for _ in 0..<5 {
            nonisolated(unsafe) var handed: WriteTransaction?
            let begun = DispatchSemaphore(value: 0)
            Thread.detachNewThread { handed = try? store.beginWrite(); begun.signal() }
            begun.wait()
            let w = try XCTUnwrap(handed)
            usleep(20_000)   // the first thread has ended
            nonisolated(unsafe) var outcome: String?
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                do { try store.beginWrite().abort(); outcome = "waited" } catch { outcome = "\(error)" }
                done.signal()
            }
            usleep(100_000)
            _ = try w.commit()
            XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
            XCTAssertEqual(outcome, "waited")
        }
    }
}
