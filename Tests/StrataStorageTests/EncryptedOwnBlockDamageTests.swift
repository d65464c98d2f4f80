import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// Encrypted files: a handle counts the blocks of its own durable commits as verified (it
/// computed their checksums), but damage to their pages on disk is still caught — by the page
/// authentication of any handle that decrypts them — and never read as data.
final class EncryptedOwnBlockDamageTests: XCTestCase {
    func testDamageToOwnCommitsPagesIsCaughtByPageAuthentication() throws {
        let dir = TempDir()
        let path = dir.path("own-enc.strata")
        let value = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let s = try Store(path: path, options: encryptedOptions())
        let w = try s.beginWrite()
        try w.tree("t", create: true)!.put(Array("large".utf8), bytes: value)
        try w.commit()
        // A commit elsewhere, so the damaged pages are not among the newest commit's runs.
        let w2 = try s.beginWrite()
        try w2.tree("other", create: true)!.put([1], bytes: [1])
        try w2.commit()
        let r0 = try s.beginRead()
        guard case .largeBlob(let ref, _)? = try r0.tree("t")?.get(Array("large".utf8)) else { return XCTFail("the large value lives in its own block") }
        // The writing handle reads it without hashing it: its own commit wrote it.
        let hashed = s.verdicts.blocksHashed
        XCTAssertEqual(try r0.tree("t")!.getBytes(Array("large".utf8)), value)
        XCTAssertEqual(s.verdicts.blocksHashed, hashed, "blocks this handle wrote count as verified for it")
        r0.end()
        // Damage one byte in the middle of the value's physical pages.
        let page = (ref + 8192) >> 12
        let phys = off_t(PageLayout.physicalPage(page) << 12) + 200
        let fd = open(path, O_RDWR)
        var b: UInt8 = 0
        XCTAssertEqual(pread(fd, &b, 1, phys), 1)
        b ^= 0x5A
        XCTAssertEqual(pwrite(fd, &b, 1, phys), 1)
        close(fd)
        // The writing handle: the right bytes (from pages it decrypted before) or an
        // authentication error — never the damaged bytes.
        let r = try s.beginRead()
        do {
            let got = try r.tree("t")!.getBytes(Array("large".utf8))
            XCTAssertEqual(got, value)
        } catch let e as StorageError {
            guard case .corrupted(_, let d) = e else { return XCTFail("unexpected \(e)") }
            XCTAssertTrue(d.contains("authentication"), d)
        }
        r.end()
        s.close()
        // Another handle decrypts the page afresh: authentication fails, with a typed error.
        let other = try Store(path: path, options: encryptedOptions())
        let r2 = try other.beginRead()
        XCTAssertThrowsError(try r2.tree("t")!.getBytes(Array("large".utf8))) { e in
            guard case StorageError.corrupted(_, let d)? = e as? StorageError else { return XCTFail("unexpected \(e)") }
            XCTAssertTrue(d.contains("authentication"), d)
        }
        r2.end()
        XCTAssertFalse(try other.check().isSound, "check reports the damaged page")
        other.close()
    }
}
