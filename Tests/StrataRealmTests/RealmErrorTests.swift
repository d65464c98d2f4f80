import Foundation
import XCTest
@testable import StrataRealm

/// Unsupported formats, wrong keys, tampered pages, damaged structures: each a typed error.
final class RealmErrorTests: XCTestCase {
    func image(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: RealmOracle.fixtureURL(name)))
    }

    func testUnsupportedFormatsAreNamed() throws {
        let base = try image("nested.realm")
        for format: UInt8 in [9, 10, 11, 19, 25, 26, 200] {
            var b = base
            b[20] = format; b[21] = format
            XCTAssertThrowsError(try RealmFile.open(image: b)) { error in
                XCTAssertEqual(error as? RealmFileError, .unsupportedFormat(Int(format)))
                XCTAssertTrue("\(error)".contains("format \(format)"), "\(error)")
            }
        }
    }

    func testEveryFormatFrom20To24IsAccepted() throws {
        // The header byte alone decides acceptance; the version-specific layouts are covered by fixtures.
        for (name, format) in [("test_upgrade_database_20.realm", 20), ("test_upgrade_database_4_22.realm", 22),
                               ("test_upgrade_database_1000_23.realm", 23), ("nested.realm", 24)] {
            XCTAssertEqual(try RealmFile.open(image: try image(name)).formatVersion, format)
        }
        XCTAssertEqual(try RealmFile.open(path: RealmOracle.fixtureURL("client_schema_version_011.realm").path).formatVersion, 22)
    }

    func testFormat25CompressedNodeIsRefused() throws {
        var b = try image("nested.realm")
        let f = try RealmFile.open(image: b)
        // Width type 3 (format 25's compressed arrays) in the top array's header.
        b[f.topRef + 4] |= 0x18
        XCTAssertThrowsError(try RealmFile.open(image: b)) { XCTAssertTrue("\($0)".contains("format 25"), "\($0)") }
    }

    func testNotARealmFileAndEmptyFile() throws {
        XCTAssertThrowsError(try RealmFile.open(image: [])) { XCTAssertEqual(($0 as? RealmFileError).map { "\($0)" }?.contains("not a Realm file"), true) }
        XCTAssertThrowsError(try RealmFile.open(image: Array("hello, this is not a realm file at all".utf8)))
        XCTAssertThrowsError(try RealmFile.open(path: "/nonexistent/x.realm")) {
            if case .cannotOpen = $0 as? RealmFileError {} else { XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try RealmFile.open(path: NSTemporaryDirectory())) {
            if case .cannotOpen = $0 as? RealmFileError {} else { XCTFail("\($0)") }
        }
    }

    func testStreamingFooterCookieIsChecked() throws {
        var b = try image("test_upgrade_database_4_24.realm")
        b[b.count - 1] ^= 0xff
        XCTAssertThrowsError(try RealmFile.open(image: b)) { XCTAssertTrue("\($0)".contains("cookie"), "\($0)") }
    }

    func testTopRefOutOfBoundsOrMisaligned() throws {
        var b = try image("nested.realm")
        let slot = Int(b[23] & 1) * 8
        b[slot] = b[slot] | 3 // misaligned
        XCTAssertThrowsError(try RealmFile.open(image: b)) { if case .corrupt = $0 as? RealmFileError {} else { XCTFail("\($0)") } }
        b = try image("nested.realm")
        for i in 0..<8 { b[slot + i] = 0x7f } // far past the end
        XCTAssertThrowsError(try RealmFile.open(image: b)) { if case .corrupt = $0 as? RealmFileError {} else { XCTFail("\($0)") } }
    }

    func testWrongKeyAndTamperedPage() throws {
        let path = RealmOracle.fixtureURL("encrypted.realm").path
        let key = try RealmOracleTests.fixtureKey()
        var hmacHalfWrong = key; hmacHalfWrong[40] ^= 1
        XCTAssertThrowsError(try RealmFile.open(path: path, encryptionKey: hmacHalfWrong)) { XCTAssertEqual($0 as? RealmFileError, .wrongEncryptionKey) }
        var aesHalfWrong = key; aesHalfWrong[3] ^= 1
        XCTAssertThrowsError(try RealmFile.open(path: path, encryptionKey: aesHalfWrong)) { XCTAssertEqual($0 as? RealmFileError, .wrongEncryptionKey) }
        XCTAssertThrowsError(try RealmFile.open(path: path, encryptionKey: Array(key.prefix(32)))) {
            XCTAssertEqual($0 as? RealmFileError, .invalidEncryptionKey(length: 32))
        }
        XCTAssertThrowsError(try RealmFile.open(path: path)) { XCTAssertEqual($0 as? RealmFileError, .encryptionKeyRequired) }
        // Flip one ciphertext byte of data page 5 (file offset: metadata page + 5 pages).
        var b = Array(try Data(contentsOf: RealmOracle.fixtureURL("encrypted.realm")))
        b[4096 + 5 * 4096 + 100] ^= 0x01
        let tmp = NSTemporaryDirectory() + "strata-tampered-\(getpid()).realm"
        try Data(b).write(to: URL(fileURLWithPath: tmp))
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        // Pages are decrypted when first read: the tampered page fails there, and in the full check.
        let f = try RealmFile.open(path: tmp, encryptionKey: key)
        XCTAssertThrowsError(try f.verifyEncryptedPages()) { XCTAssertEqual($0 as? RealmFileError, .tamperedPage(index: 5)) }
        var readError: RealmFileError? = nil
        do {
            for c in f.classes { for i in 0..<c.objectCount { _ = try f.object(at: i, in: c.name) } }
            _ = try f.spaceReport()
        } catch { readError = error as? RealmFileError }
        XCTAssertEqual(readError, .tamperedPage(index: 5))
        XCTAssertTrue(f.checkStructure().problems.contains { $0.contains("page 5") })
    }

    func testOpeningCreatesNothingBesideTheFile() throws {
        let dir = NSTemporaryDirectory() + "strata-realm-ro-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/app.realm"
        let original = try Data(contentsOf: RealmOracle.fixtureURL("history.realm"))
        try original.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path) // read-only is enough
        let f = try RealmFile.open(path: path)
        for c in f.classes { for i in 0..<min(c.objectCount, 10) { _ = try f.object(at: i, in: c.name) } }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["app.realm"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }

    func testObjectIndexOutOfRange() throws {
        let f = try RealmFile.open(path: RealmOracle.fixtureURL("nested.realm").path)
        XCTAssertThrowsError(try f.object(at: 9, in: "Nested")) { XCTAssertEqual($0 as? RealmFileError, .objectIndexOutOfRange(index: 9, count: 9)) }
        XCTAssertThrowsError(try f.object(at: -1, in: "Nested"))
        XCTAssertThrowsError(try f.object(at: 0, in: "Nope")) { XCTAssertEqual($0 as? RealmFileError, .noSuchClass("Nope")) }
    }
}

/// A live file: a newer commit on disk is noticed; the opened snapshot stays readable.
final class RealmLiveFileTests: XCTestCase {
    func testNewerCommitIsNoticed() throws {
        let path = NSTemporaryDirectory() + "strata-live-\(getpid()).realm"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var b = Array(try Data(contentsOf: RealmOracle.fixtureURL("history.realm")))
        try Data(b).write(to: URL(fileURLWithPath: path))
        let f = try RealmFile.open(path: path)
        XCTAssertFalse(f.hasNewerCommit())
        // Another writer flips the header's select bit (a commit) in place.
        b[23] ^= 1
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try h.seek(toOffset: 23); h.write(Data([b[23]])); try h.close()
        XCTAssertTrue(f.hasNewerCommit())
    }
}
