import Crypto
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

    /// The plaintext of the whole file.
    func decrypt(_ file: RealmBytes) throws -> RealmBytes {
        let ps = RealmDecryptor.pageSize
        let group = RealmDecryptor.tablesPerMetadataPage
        // Count data pages: after each metadata page come up to 64 data pages.
        var dataPages = 0
        var pos = 0
        while pos < file.count {
            let remaining = file.count - pos - ps
            if remaining <= 0 { break }
            dataPages += min(group, remaining / ps)
            pos += ps * (group + 1)
        }
        guard dataPages > 0 else { throw RealmFileError.notARealmFile(reason: "too short for an encrypted Realm file (\(file.count) bytes)") }
        let out = UnsafeMutableRawPointer.allocate(byteCount: dataPages * ps, alignment: 16)
        out.initializeMemory(as: UInt8.self, repeating: 0, count: dataPages * ps)
        var written = 0
        do {
            for page in 0..<dataPages {
                let metaPos = (page / group) * (group + 1) * ps
                let tablePos = metaPos + (page % group) * 64
                let filePos = page * ps + (page / group + 1) * ps
                let iv1 = UInt32(truncatingIfNeeded: try file.le(tablePos, 4))
                if iv1 == 0 { written += 1; continue } // never written: zeros
                let cipher = try file.bytes(filePos, ps)
                let mac = SHA224.hmac(key: hmacKey, message: cipher)
                var iv = iv1
                if Array(mac.prefix(28)) != (try file.bytes(tablePos + 4, 28)) {
                    let iv2 = UInt32(truncatingIfNeeded: try file.le(tablePos + 32, 4))
                    if iv2 != 0, Array(mac.prefix(28)) == (try file.bytes(tablePos + 36, 28)) {
                        iv = iv2
                    } else {
                        throw page == 0 ? RealmFileError.wrongEncryptionKey : RealmFileError.tamperedPage(index: page)
                    }
                }
                var ivBytes = [UInt8](repeating: 0, count: 16)
                withUnsafeBytes(of: iv.littleEndian) { for (i, b) in $0.enumerated() { ivBytes[i] = b } }
                withUnsafeBytes(of: UInt64(page * ps).littleEndian) { for (i, b) in $0.enumerated() { ivBytes[4 + i] = b } }
                let plain = try AES._CBC.decrypt(cipher, using: aesKey, iv: AES._CBC.IV(ivBytes: ivBytes), noPadding: true)
                guard plain.count == ps else { throw RealmFileError.corrupt("page \(page) decrypted to \(plain.count) bytes") }
                plain.withUnsafeBytes { src in
                    if let s = src.baseAddress { (out + page * ps).copyMemory(from: s, byteCount: ps) }
                }
                written += 1
            }
        } catch let e as RealmFileError {
            out.deallocate()
            throw e
        } catch {
            out.deallocate()
            throw RealmFileError.corrupt("decryption failed: \(error)")
        }
        return RealmBytes(owning: out, count: dataPages * ps)
    }
}
