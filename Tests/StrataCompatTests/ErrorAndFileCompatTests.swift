import Foundation
import XCTest
import Strata

/// Issue 15 items 3 and 4: `Realm.Error` codes and the file functions.
final class ErrorAndFileCompatTests: XCTestCase {
    func testOpeningErrorsCarryRealmSwiftCodes() throws {
        let dir = CompatDir()
        // Not a database.
        let junk = dir.url.appendingPathComponent("junk.strata")
        try Data(repeating: 0x41, count: 8192).write(to: junk)
        do {
            _ = try Realm(configuration: Realm.Configuration(fileURL: junk, objectTypes: [CDog.self]))
            XCTFail("opened a file that is not a database")
        } catch let error as Realm.Error {
            XCTAssertEqual(error.code, .invalidDatabase)
            XCTAssertEqual(error.fileURL?.path, junk.path)
            XCTAssertFalse(error.localizedDescription.isEmpty)
        }
        // Missing file opened read-only.
        let missing = dir.url.appendingPathComponent("missing.strata")
        do {
            _ = try Realm(configuration: Realm.Configuration(fileURL: missing, readOnly: true, objectTypes: [CDog.self]))
            XCTFail("opened a missing file read-only")
        } catch Realm.Error.fileNotFound {
            // RealmSwift's pattern form.
        }
        // Permission denied on the directory (skipped when running as root).
        if getuid() != 0 {
            let locked = dir.url.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.path) }
            XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: locked.appendingPathComponent("x.strata"), objectTypes: [CDog.self]))) {
                XCTAssertEqual(($0 as? Realm.Error)?.code, .filePermissionDenied, "\($0)")
            }
        }
        // Schema version lower than the file's.
        let url = dir.url.appendingPathComponent("v.strata")
        try autoreleasepoolish { _ = try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 2, objectTypes: [CDog.self])) }
        XCTAssertThrowsError(try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 1, objectTypes: [CDog.self]))) {
            XCTAssertEqual(($0 as? Realm.Error)?.code, .invalidSchemaVersion, "\($0)")
            XCTAssertNotNil(($0 as? Realm.Error)?.underlyingError)
        }
    }

    /// Apps log and compare `code.rawValue`: the numbers are RealmSwift's `RLMError` values.
    func testCodeRawValuesAreRealmSwifts() {
        let expected: [(Realm.Error.Code, Int)] = [
            (.fail, 1), (.fileAccess, 2), (.filePermissionDenied, 3), (.fileExists, 4), (.fileNotFound, 5),
            (.fileFormatUpgradeRequired, 6), (.incompatibleLockFile, 8), (.addressSpaceExhausted, 9),
            (.schemaMismatch, 10), (.alreadyOpen, 12), (.invalidInput, 13), (.outOfDiskSpace, 14),
            (.unsupportedFileFormatVersion, 16), (.fileOperationFailed, 19), (.invalidDatabase, 20),
        ]
        for (code, raw) in expected {
            XCTAssertEqual(code.rawValue, raw, "\(code)")
            XCTAssertEqual(Realm.Error.Code(rawValue: raw), code)
        }
        XCTAssertEqual(Realm.Error.code(of: CocoaError(.fileWriteOutOfSpace)), .outOfDiskSpace)
    }

    func testFileFunctions() throws {
        let dir = CompatDir()
        let config = dir.config("files.strata", types: [CDog.self])
        XCTAssertFalse(Realm.fileExists(for: config))
        try autoreleasepoolish {
            // Realm(fileURL:) takes the other settings from the default configuration.
            let saved = Realm.Configuration.defaultConfiguration
            defer { Realm.Configuration.defaultConfiguration = saved }
            Realm.Configuration.defaultConfiguration.objectTypes = [CDog.self]
            let realm = try Realm(fileURL: config.fileURL!)
            XCTAssertEqual(realm.configuration.fileURL, config.fileURL)
        }
        try autoreleasepoolish {
            var v3 = config; v3.schemaVersion = 3
            try Realm.performMigration(for: v3)
        }
        XCTAssertTrue(Realm.fileExists(for: config))
        XCTAssertEqual(try schemaVersionAtURL(config.fileURL!), 3)
        // No realm there yet: RealmSwift's "has not been initialized" (.invalidDatabase).
        XCTAssertThrowsError(try schemaVersionAtURL(dir.url.appendingPathComponent("none.strata"))) {
            XCTAssertEqual(($0 as? Realm.Error)?.code, .invalidDatabase)
        }
        XCTAssertThrowsError(try schemaVersionAtURL(dir.url.appendingPathComponent("no-such-dir/none.strata"))) {
            XCTAssertEqual(($0 as? Realm.Error)?.code, .fileNotFound)
        }

        // writeCopy(configuration:), then the copy seeds a new file.
        var copyConfig = dir.config("copy.strata", types: [CDog.self])
        copyConfig.schemaVersion = 3
        try autoreleasepoolish {
            var v3 = config; v3.schemaVersion = 3
            let realm = try Realm(configuration: v3)
            try realm.write { let d = CDog(); d.name = "Seed"; realm.add(d) }
            try realm.writeCopy(configuration: copyConfig)
            XCTAssertThrowsError(try realm.writeCopy(configuration: copyConfig)) {
                XCTAssertEqual(($0 as? Realm.Error)?.code, .fileExists)
            }
            // An open file cannot be deleted.
            XCTAssertThrowsError(try Realm.deleteFiles(for: v3)) { XCTAssertEqual(($0 as? Realm.Error)?.code, .alreadyOpen) }
        }
        var seeded = dir.config("seeded.strata", types: [CDog.self])
        seeded.schemaVersion = 3
        seeded.seedFilePath = copyConfig.fileURL
        try autoreleasepoolish {
            let realm = try Realm(configuration: seeded)
            XCTAssertEqual(realm.objects(CDog.self).first?.name, "Seed")
        }
        XCTAssertTrue(try Realm.deleteFiles(for: seeded))
        XCTAssertFalse(Realm.fileExists(for: seeded))
        XCTAssertFalse(try Realm.deleteFiles(for: seeded))
    }

    func testAsyncOpenAndAsyncWriteSteps() throws {
        let dir = CompatDir()
        let config = dir.config("async.strata", types: [CDog.self])
        let queue = DispatchQueue(label: "compat.asyncOpen")
        let opened = expectation(description: "asyncOpen")
        Realm.asyncOpen(configuration: config, callbackQueue: queue) { result in
            switch result {
            case .success(let realm):
                let id = realm.beginAsyncWrite {
                    realm.add(CDog())
                    realm.commitAsyncWrite { error in
                        XCTAssertNil(error)
                        XCTAssertEqual(realm.objects(CDog.self).count, 1)
                        opened.fulfill()
                    }
                }
                XCTAssertGreaterThan(id, 0)
            case .failure(let e): XCTFail("\(e)"); opened.fulfill()
            }
        }
        wait(for: [opened], timeout: 30)
    }

    func testRealmOpenFromAnActor() async throws {
        let dir = CompatDir()
        let count = try await CompatActor().openAndCount(dir.config("actor.strata", types: [CDog.self]))
        XCTAssertEqual(count, 0)
    }
}

actor CompatActor {
    func openAndCount(_ config: Realm.Configuration) async throws -> Int {
        let realm = try await Realm.open(configuration: config)
        return realm.objects(CDog.self).count
    }
}

/// Runs `body` so that the realms it opens are released when it returns.
func autoreleasepoolish(_ body: () throws -> Void) rethrows { try body() }
