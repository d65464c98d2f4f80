import Crypto
import Foundation
import _CryptoExtras

/// Decrypts realm-core's encrypted file layout: 4096-byte pages, AES-256-CBC without padding,
/// and for every 64 data pages one metadata page of 64-byte IV tables
/// `{ iv1: UInt32, hmac1: [28], iv2: UInt32, hmac2: [28] }`. The HMAC-SHA-224 (key bytes 32-63)
/// covers each page's ciphertext; iv2/hmac2 hold the previous version of an interrupted write.
struct RealmDecryptor {
    static let pageSize = 4096
    static let tablesPerMetadataPage = 64

    let aesKey: SymmetricKey
    let hmacKey: [UInt8]

    init(key: [UInt8]) {
        aesKey = SymmetricKey(data: key[0..<32])
        hmacKey = Array(key[32..<64])
    }

    /// Number of data pages in an encrypted file of `fileSize` bytes.
    static func dataPageCount(_ fileSize: Int) -> Int {
        let ps = pageSize, group = tablesPerMetadataPage
        var dataPages = 0
        var pos = 0
        while pos < fileSize {
            let remaining = fileSize - pos - ps
            if remaining <= 0 { break }
            dataPages += min(group, remaining / ps)
            pos += ps * (group + 1)
        }
        return dataPages
    }

    /// Decrypts data page `page` of `file` into `out` (4096 bytes), checking its HMAC.
    func decryptPage(_ page: Int, of file: RealmBytes, into out: UnsafeMutableRawPointer) throws {
        let ps = RealmDecryptor.pageSize
        let group = RealmDecryptor.tablesPerMetadataPage
        let metaPos = (page / group) * (group + 1) * ps
        let tablePos = metaPos + (page % group) * 64
        let filePos = page * ps + (page / group + 1) * ps
        let iv1 = UInt32(truncatingIfNeeded: try file.le(tablePos, 4))
        if iv1 == 0 { out.initializeMemory(as: UInt8.self, repeating: 0, count: ps); return } // never written
        let cipher = try file.bytes(filePos, ps)
        let mac = SHA224.hmac(key: hmacKey, message: cipher)
        var iv = iv1
        if mac != (try file.bytes(tablePos + 4, 28)) {
            let iv2 = UInt32(truncatingIfNeeded: try file.le(tablePos + 32, 4))
            if iv2 != 0, mac == (try file.bytes(tablePos + 36, 28)) {
                iv = iv2 // an interrupted write: the previous version is intact
            } else {
                throw page == 0 ? RealmFileError.wrongEncryptionKey : RealmFileError.tamperedPage(index: page)
            }
        }
        var ivBytes = [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: iv.littleEndian) { for (i, b) in $0.enumerated() { ivBytes[i] = b } }
        withUnsafeBytes(of: UInt64(page * ps).littleEndian) { for (i, b) in $0.enumerated() { ivBytes[4 + i] = b } }
        let plain: Data
        do {
            plain = try AES._CBC.decrypt(cipher, using: aesKey, iv: AES._CBC.IV(ivBytes: ivBytes), noPadding: true)
        } catch {
            throw RealmFileError.corrupt("page \(page) could not be decrypted: \(error)")
        }
        guard plain.count == ps else { throw RealmFileError.corrupt("page \(page) decrypted to \(plain.count) bytes") }
        plain.withUnsafeBytes { src in
            if let s = src.baseAddress { out.copyMemory(from: s, byteCount: ps) }
        }
    }

    /// The logical file, decrypted page by page on first access (HMAC checked per page).
    /// Page 0 is decrypted now: a wrong key fails here.
    func open(_ file: RealmBytes) throws -> RealmBytes {
        let pages = RealmDecryptor.dataPageCount(file.count)
        guard pages > 0 else { throw RealmFileError.notARealmFile(reason: "too short for an encrypted Realm file (\(file.count) bytes)") }
        let ps = RealmDecryptor.pageSize
        let out = UnsafeMutableRawPointer.allocate(byteCount: pages * ps, alignment: 16)
        let pager = RealmPager(decryptor: self, file: file, plain: out, pages: pages)
        let bytes = RealmBytes(owning: out, count: pages * ps, pager: pager)
        try bytes.check(0, 24)
        // A wrong AES half (with the right HMAC half) decrypts to noise.
        guard try bytes.bytes(16, 4) == Array("T-DB".utf8) else { throw RealmFileError.wrongEncryptionKey }
        return bytes
    }
}

/// Decrypts pages of an encrypted file on first access (see `RealmBytes.check`).
final class RealmPager: @unchecked Sendable {
    let decryptor: RealmDecryptor
    let file: RealmBytes
    let plain: UnsafeMutableRawPointer
    private var ready: [Bool]
    private let lock = NSLock()

    init(decryptor: RealmDecryptor, file: RealmBytes, plain: UnsafeMutableRawPointer, pages: Int) {
        self.decryptor = decryptor
        self.file = file
        self.plain = plain
        self.ready = [Bool](repeating: false, count: pages)
    }

    /// Makes sure bytes `offset ..< offset + length` (already bounds-checked) are decrypted.
    func ensure(_ offset: Int, _ length: Int) throws {
        let ps = RealmDecryptor.pageSize
        let first = offset / ps
        let last = length == 0 ? first : (offset + length - 1) / ps
        lock.lock(); defer { lock.unlock() }
        var p = first
        while p <= last && p < ready.count {
            if !ready[p] {
                try decryptor.decryptPage(p, of: file, into: plain + p * ps)
                ready[p] = true
            }
            p += 1
        }
    }

    /// Decrypts (and so authenticates) every page.
    func verifyAll() throws {
        try ensure(0, ready.count * RealmDecryptor.pageSize)
    }
}
