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
                do { try r2.write { r2.add(ADog(name: "never")) } } catch { errors.append("\(error)") }
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
}
