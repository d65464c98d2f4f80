/// Why a `.realm` file could not be opened or read. Every message says what went wrong and what
/// the user can do about it; no file content is ever trusted without a check that ends here.
package enum RealmFileError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file could not be opened or mapped (missing, unreadable, a directory).
    case cannotOpen(path: String, reason: String)
    /// The file is too short or lacks the "T-DB" mnemonic.
    case notARealmFile(reason: String)
    /// The file is a Realm file in a format this reader does not read (pre-20, 25, future).
    case unsupportedFormat(Int)
    /// The file looks encrypted (no "T-DB" mnemonic) and no key was given.
    case encryptionKeyRequired
    /// The key is not 64 bytes.
    case invalidEncryptionKey(length: Int)
    /// The HMAC of the first page does not match: the key is not this file's key.
    case wrongEncryptionKey
    /// A key was given for a file with a plaintext Realm header (not encrypted).
    case notEncrypted
    /// A page's HMAC does not match although the key is right: the page was changed or damaged.
    case tamperedPage(index: Int)
    /// A structure inside the file is damaged: a ref out of bounds, misaligned, a cycle, a bad size.
    case corrupt(String)
    /// No class or table with this name.
    case noSuchClass(String)
    /// An object index outside `0..<objectCount`.
    case objectIndexOutOfRange(index: Int, count: Int)

    package var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open \(path): \(reason)"
        case let .notARealmFile(reason):
            return "not a Realm file: \(reason). If it is encrypted, pass its 64-byte key (--encryption-key-file)."
        case let .unsupportedFormat(f):
            if f < 20 {
                return "Realm file format \(f) is not supported (formats 20–24 are read). Open and save it once with a current Realm SDK (or realm-core's tools) to upgrade it to format 24."
            }
            return "Realm file format \(f) is not supported (formats 20–24 are read). Format \(f) comes from a newer or unreleased realm-core; save a copy with a Realm SDK that writes format 24."
        case .encryptionKeyRequired:
            return "the file is encrypted (or not a Realm file): pass its 64-byte key with --encryption-key-file."
        case let .invalidEncryptionKey(n):
            return "a Realm encryption key is 64 bytes (128 hex digits); this one has \(n) bytes."
        case .notEncrypted:
            return "an encryption key was given but the file is not encrypted (its Realm header is plaintext): open it without --encryption-key-file."
        case .wrongEncryptionKey:
            return "wrong encryption key: the first page's HMAC does not match. Check the key file (64 bytes, as given to the Realm SDK)."
        case let .tamperedPage(i):
            return "encrypted page \(i) fails its HMAC check: the file was changed or damaged there. Restore it from a backup."
        case let .corrupt(what):
            return "the Realm file is damaged: \(what). Run `strata check` on it; read what you can from a backup."
        case let .noSuchClass(n):
            return "no class or table named \"\(n)\" in this Realm file."
        case let .objectIndexOutOfRange(i, n):
            return "object index \(i) is out of range: the class has \(n) objects."
        }
    }
}
