import Foundation

/// Every failure of the storage layer. Messages say what happened and what to do.
public enum StorageError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file does not exist and the caller asked not to create it.
    case fileNotFound(path: String)
    /// The file exists but is not a Strata database (no magic in either meta slot).
    case notADatabase(path: String)
    /// The file was written by a newer Strata with an on-disk format this build cannot read.
    case unsupportedFormat(path: String, found: UInt32, supported: UInt32)
    /// Both meta slots fail their checksums, or a structure reached from them is damaged.
    case corrupted(path: String, detail: String)
    /// An operating-system call failed (errno and the call named).
    case io(path: String, operation: String, errno: Int32)
    /// The disk (or quota) is full: the transaction was rolled back, the file is unchanged.
    case diskFull(path: String)
    /// The disk (or quota) filled up while a new file was written for `path` (a compaction's
    /// replacement, a copy): the partial file was removed. `needed` is about what the new file
    /// takes; `outcome` says what was left as it was.
    case diskFullWritingNewFile(path: String, operation: String, needed: UInt64, outcome: String)
    /// A write was attempted on a handle opened read-only.
    case readOnly(path: String)
    /// The transaction was already committed, aborted or ended.
    case transactionEnded
    /// A key larger than the B+tree allows.
    case keyTooLarge(size: Int, limit: Int)
    /// A value larger than the storage allows.
    case valueTooLarge(size: Int, limit: Int)
    /// Every reader slot in the lock file is taken.
    case tooManyReaders(limit: Int)
    /// The lock file exists but is damaged or of another layout.
    case badLockFile(path: String, detail: String)
    /// An exclusive operation was refused because others have the file open.
    case fileInUse(path: String, pids: [Int32], reason: String)
    /// A named tree does not exist.
    case noSuchTree(name: String)
    /// An encryption key that is not 64 bytes.
    case invalidEncryptionKey(length: Int)
    /// The file is encrypted and no key was given.
    case encryptionKeyRequired(path: String)
    /// The key does not match the file's key.
    case wrongEncryptionKey(path: String)
    /// A key was given for a file that is not encrypted.
    case notEncrypted(path: String)
    /// The operation does not apply to this kind of handle (e.g. a full compaction of an
    /// in-memory database).
    case unsupported(path: String, detail: String)
    /// The path names a FIFO, socket, device or directory, not a regular file (`kind` says which).
    case notARegularFile(path: String, kind: String)
    /// The disk (or quota) is full: the lock file's bytes could not be allocated. Nothing was
    /// written to the database.
    case noSpaceForLockFile(path: String, bytes: Int)
    /// `StoreOptions.writeLockTimeout` passed while another process held the write lock.
    case writeLockTimeout(path: String, holder: WriteLockHolder?)
    /// The wait for the write lock was cancelled (`WriteLockWaitCancellation`).
    case writeLockWaitCancelled(path: String)
    /// `beginWrite` on a thread that already holds this file's write lock (through this or
    /// another handle of it in this process): waiting would never end.
    case writeAlreadyOpenOnThisThread(path: String)
    /// The file, its lock file or its directory may not be written by this process (`operation`
    /// names what was refused). Opening read-only needs no write permission on the file.
    case permissionDenied(path: String, operation: String)
    /// The directory the database file would be created in does not exist (Strata creates the
    /// file, never its directories).
    case directoryNotFound(path: String)

    public var description: String {
        switch self {
        case .fileNotFound(let p): return "\(p): no such file (check the path, or let Strata create it)"
        case .notADatabase(let p): return "\(p): not a Strata database (no Strata header found); open a .strata file"
        case .unsupportedFormat(let p, let f, let s):
            return "\(p): file format version \(f) is newer than this build supports (\(s)); upgrade strata"
        case .corrupted(let p, let d): return "\(p): database is corrupted: \(d). Run 'strata check' and restore from a copy"
        case .io(let p, let op, let e): return "\(p): \(op) failed: \(String(cString: strerror(e))) (errno \(e))"
        case .diskFull(let p): return "\(p): disk full; the transaction was rolled back and the file is unchanged. Free some space and retry"
        case .diskFullWritingNewFile(let p, let op, let n, let outcome):
            return "\(p): disk full while \(op) (the new file needs about \(QuantityText.bytes(n)) free in \(StorageError.directoryText(of: p))); \(outcome). Free some space and retry"
        case .readOnly(let p): return "\(p): opened read-only; reopen without --read-only to write"
        case .transactionEnded: return "the transaction has already ended (committed, aborted or invalidated)"
        case .keyTooLarge(let s, let l): return "key of \(s) bytes is larger than the limit of \(l) bytes"
        case .valueTooLarge(let s, let l): return "value of \(s) bytes is larger than the limit of \(l) bytes"
        case .tooManyReaders(let l): return "all \(l) reader slots of the lock file are in use; end some read transactions"
        case .badLockFile(let p, let d): return "\(p): lock file is not usable: \(d). Close every process using the database and delete the .lock file"
        case .fileInUse(let p, let pids, let r):
            let who = pids.isEmpty ? "another handle" : "process" + (pids.count > 1 ? "es " : " ") + pids.map(String.init).joined(separator: ", ")
            return "\(p): \(r): the file is open in \(who). Close it there, or use online compaction"
        case .noSuchTree(let n): return "no tree named '\(n)'"
        case .invalidEncryptionKey(let n):
            return "encryption key has \(n) bytes; it must be 64 bytes (a 32-byte AES-256 key followed by a 32-byte HMAC-SHA-256 key)"
        case .encryptionKeyRequired(let p): return "\(p): the file is encrypted; open it with its 64-byte encryption key"
        case .wrongEncryptionKey(let p): return "\(p): wrong encryption key (the key does not match the one the file was created with)"
        case .notEncrypted(let p):
            return "\(p): an encryption key was given but the file is not encrypted; open it without a key (writeCopy with a key makes an encrypted copy)"
        case .unsupported(let p, let d): return "\(p): \(d)"
        case .permissionDenied(let p, let op):
            return "\(p): permission denied (\(op)): this user may not write the database, its lock file or their directory; get write permission (only to read it: open it read-only, strata --read-only)"
        case .directoryNotFound(let p): return "\(p): no such directory; create it first (Strata creates the database file, not its directory)"
        case .notARegularFile(let p, let k): return "\(p): is a \(k), not a database file; give the path of a .strata file"
        case .noSpaceForLockFile(let p, let n):
            return "\(p): disk full: the lock file's \(n) bytes could not be allocated; nothing was written. Free some space and retry"
        case .writeLockTimeout(let p, let h):
            return "\(p): gave up waiting for the write lock" + (h.map { ", held by \($0)" } ?? "") + "; retry later, or end that process if it is stuck"
        case .writeLockWaitCancelled(let p): return "\(p): the wait for the write lock was cancelled; nothing was written"
        case .writeAlreadyOpenOnThisThread(let p):
            return "\(p): this thread already has a write transaction open on this file (another Realm or Database of it); commit or cancel it first"
        }
    }
}

extension StorageError {
    /// The directory holding `path`, as a message names it ("." for a bare file name).
    static func directoryText(of path: String) -> String {
        let d = (path as NSString).deletingLastPathComponent
        return d.isEmpty ? "." : d
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
