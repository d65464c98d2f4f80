import Foundation
import XCTest
@testable import StrataStorage

/// What opening refuses, and that a refusal leaves nothing behind: no lock file beside a file that
/// is not a database, no database made of an empty file the caller did not ask to create, no
/// directory created for a new file.
final class OpenRefusalTests: XCTestCase {
    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func testEmptyFileIsNotADatabaseUnlessTheCallerMayCreateOne() throws {
        let dir = TempDir(); let path = dir.path("empty.strata")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        var o = StoreOptions(); o.create = false
        XCTAssertThrowsError(try Store(path: path, options: o)) { XCTAssertEqual($0 as? StorageError, .notADatabase(path: path)) }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, 0, "the empty file is left empty")
        XCTAssertFalse(exists(path + ".lock"), "no lock file beside a refused file")
        // A caller that may create the database (an app's configuration) gets a new one, as
        // SQLite and Realm make a database of an empty file.
        let s = try Store(path: path)
        XCTAssertEqual(try s.newestMeta().version, 1)
        s.close()
    }

    func testForeignAndTruncatedFilesAreRefusedBeforeTheLockFileIsCreated() throws {
        let dir = TempDir()
        let text = dir.path("notes.txt")
        try Data(String(repeating: "hello\n", count: 3000).utf8).write(to: URL(fileURLWithPath: text))
        for create in [true, false] {
            var o = StoreOptions(); o.create = create
            XCTAssertThrowsError(try Store(path: text, options: o)) { XCTAssertEqual($0 as? StorageError, .notADatabase(path: text)) }
        }
        XCTAssertFalse(exists(text + ".lock"))

        // A database cut short inside its meta slots: damaged, and still nothing created.
        let db = dir.path("db.strata")
        do {
            // Version 2 goes to slot 0, so the file starts with the magic.
            let s = try Store(path: db)
            let w = try s.beginWrite()
            try w.tree("t", create: true)!.put(Array("k".utf8), bytes: [1])
            try w.commit()
            s.close()
        }
        try? FileManager.default.removeItem(atPath: db + ".lock")
        let truncated = dir.path("cut.strata")
        try Data(try Data(contentsOf: URL(fileURLWithPath: db)).prefix(5000)).write(to: URL(fileURLWithPath: truncated))
        XCTAssertThrowsError(try Store(path: truncated)) { error in
            guard case StorageError.corrupted(_, let detail)? = error as? StorageError else { return XCTFail("unexpected error \(error)") }
            XCTAssertTrue(detail.contains("truncated"), detail)
        }
        XCTAssertFalse(exists(truncated + ".lock"))
        XCTAssertTrue(Store.hasStrataHeader(path: db))
        XCTAssertFalse(Store.hasStrataHeader(path: text))
        XCTAssertFalse(Store.hasStrataHeader(path: dir.url.path), "a directory has no header")
    }

    func testNewFileInAMissingDirectoryIsRefusedAndNothingIsCreated() throws {
        let dir = TempDir()
        let missing = dir.path("a/b")
        XCTAssertThrowsError(try Store(path: missing + "/db.strata")) { XCTAssertEqual($0 as? StorageError, .directoryNotFound(path: missing)) }
        XCTAssertFalse(exists(dir.path("a")), "no directory is created")

        let s = try Store(path: dir.path("db.strata"))
        defer { s.close() }
        XCTAssertThrowsError(try s.writeCopy(toPath: missing + "/copy.strata")) { XCTAssertEqual($0 as? StorageError, .directoryNotFound(path: missing)) }
        XCTAssertFalse(exists(dir.path("a")))
    }

    func testPermissionErrorsAreTyped() throws {
        // Root may write anywhere a mode forbids; sysfs refuses file creation even to root.
        guard FileManager.default.fileExists(atPath: "/sys/kernel") else { throw XCTSkip("needs sysfs") }
        let path = "/sys/strata-permission-test.strata"
        XCTAssertThrowsError(try Store(path: path)) { error in
            guard case StorageError.permissionDenied(let p, let operation)? = error as? StorageError else { return XCTFail("unexpected error \(error)") }
            XCTAssertEqual(p, path + ".lock")
            XCTAssertEqual(operation, "open lock file")
            XCTAssertTrue(String(describing: error).contains("--read-only"), String(describing: error))
        }
    }
}
