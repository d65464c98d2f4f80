import Foundation
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

// RealmSwift's error shape on `Realm.Error`: a `code` apps switch on, `fileURL`,
// `localizedDescription`. Opening a realm throws `Realm.Error` for every failure (the error of
// the layer below stays available as `underlyingError`).

extension Realm.Error {
    /// What went wrong, by RealmSwift's names (`Realm.Error.Code`). The raw values are
    /// RealmSwift's (`RLMError`), so code that logs or compares `code.rawValue` sees the same
    /// numbers; `invalidSchemaVersion` is Strata's own (RealmSwift reports it as `fail`).
    public enum Code: Int, Sendable, CustomStringConvertible {
        /// Anything not covered by another code.
        case fail = 1
        /// The file could not be opened or read (I/O error, lock or reader slots not usable,
        /// file in use by a compaction).
        case fileAccess = 2
        /// The process may not open or create the file or its directory.
        case filePermissionDenied = 3
        /// The file exists where none may (copy targets).
        case fileExists = 4
        /// The file does not exist and may not be created (read-only open).
        case fileNotFound = 5
        /// The file's format must be upgraded to open it, and this open may not write
        /// (read-only).
        case fileFormatUpgradeRequired = 6
        /// The lock file is not usable by this process.
        case incompatibleLockFile = 8
        /// Out of memory or address space.
        case addressSpaceExhausted = 9
        /// The classes differ from the file's schema and no migration may run (read-only realm),
        /// or the migration failed.
        case schemaMismatch = 10
        /// An operation that needs the file closed everywhere (deleting its files) found it open.
        case alreadyOpen = 12
        /// A value or argument is not valid (a duplicate primary key, a bad configuration).
        case invalidInput = 13
        /// A write failed because the disk is full; the file keeps its last commit.
        case outOfDiskSpace = 14
        /// The file was written by a newer version of the format than this build reads.
        case unsupportedFileFormatVersion = 16
        /// A file operation (write, sync, copy, rename) failed.
        case fileOperationFailed = 19
        /// The file is not a database, is damaged, or its encryption key is wrong or missing.
        case invalidDatabase = 20
        /// The schema version is lower than the file's (Strata's own code).
        case invalidSchemaVersion = 1000

        public var description: String {
            switch self {
            case .fail: return "fail"
            case .fileAccess: return "fileAccess"
            case .filePermissionDenied: return "filePermissionDenied"
            case .fileExists: return "fileExists"
            case .fileNotFound: return "fileNotFound"
            case .fileFormatUpgradeRequired: return "fileFormatUpgradeRequired"
            case .incompatibleLockFile: return "incompatibleLockFile"
            case .addressSpaceExhausted: return "addressSpaceExhausted"
            case .schemaMismatch: return "schemaMismatch"
            case .invalidDatabase: return "invalidDatabase"
            case .fileOperationFailed: return "fileOperationFailed"
            case .invalidSchemaVersion: return "invalidSchemaVersion"
            case .invalidInput: return "invalidInput"
            case .alreadyOpen: return "alreadyOpen"
            case .outOfDiskSpace: return "outOfDiskSpace"
            case .unsupportedFileFormatVersion: return "unsupportedFileFormatVersion"
            }
        }

        /// Matches an error of this code: `catch Realm.Error.fileNotFound { … }`.
        public static func ~= (code: Code, error: Swift.Error) -> Bool { Realm.Error.code(of: error) == code }
    }

    // RealmSwift spells the codes as static members of `Realm.Error`.
    /// Any error without a more specific code. (`Realm.Error.fail`)
    public static var fail: Code { .fail }
    /// The file could not be opened or read. (`Realm.Error.fileAccess`)
    public static var fileAccess: Code { .fileAccess }
    /// The process may not read or write the file. (`Realm.Error.filePermissionDenied`)
    public static var filePermissionDenied: Code { .filePermissionDenied }
    /// The destination file already exists. (`Realm.Error.fileExists`)
    public static var fileExists: Code { .fileExists }
    /// No file at the path. (`Realm.Error.fileNotFound`)
    public static var fileNotFound: Code { .fileNotFound }
    /// The file's format needs an upgrade this configuration does not allow. (`Realm.Error.fileFormatUpgradeRequired`)
    public static var fileFormatUpgradeRequired: Code { .fileFormatUpgradeRequired }
    /// The lock file belongs to an incompatible version. (`Realm.Error.incompatibleLockFile`)
    public static var incompatibleLockFile: Code { .incompatibleLockFile }
    /// The file could not be mapped into memory. (`Realm.Error.addressSpaceExhausted`)
    public static var addressSpaceExhausted: Code { .addressSpaceExhausted }
    /// The stored schema differs from the configuration's without a schema version bump. (`Realm.Error.schemaMismatch`)
    public static var schemaMismatch: Code { .schemaMismatch }
    /// The file is not a database, or is damaged. (`Realm.Error.invalidDatabase`)
    public static var invalidDatabase: Code { .invalidDatabase }
    /// A file operation (copy, rename, delete) failed. (`Realm.Error.fileOperationFailed`)
    public static var fileOperationFailed: Code { .fileOperationFailed }
    /// The schema version is lower than the file's. (`Realm.Error.invalidSchemaVersion`)
    public static var invalidSchemaVersion: Code { .invalidSchemaVersion }
    /// An argument is invalid. (`Realm.Error.invalidInput`)
    public static var invalidInput: Code { .invalidInput }
    /// The file is open where it must be closed. (`Realm.Error.alreadyOpen`)
    public static var alreadyOpen: Code { .alreadyOpen }
    /// The disk is full. (`Realm.Error.outOfDiskSpace`)
    public static var outOfDiskSpace: Code { .outOfDiskSpace }
    /// The file's format is newer than this build reads. (`Realm.Error.unsupportedFileFormatVersion`)
    public static var unsupportedFileFormatVersion: Code { .unsupportedFileFormatVersion }

    /// The code of this error.
    public var code: Code {
        switch self {
        case .failed(let c, _, _, _): return c
        case .invalidConfiguration: return .invalidInput
        case .unsupported, .wrongThread: return .fail
        case .readOnly: return .fileAccess
        }
    }

    /// The file the error is about, when there is one.
    public var fileURL: URL? {
        if case .failed(_, _, let p, _) = self, let p, !p.hasPrefix("in-memory:") { return URL(fileURLWithPath: p) }
        return nil
    }

    /// The message (what happened and what to do).
    public var localizedDescription: String { description }

    /// The error of the layer below (`StorageError`, `MigrationError`, `SchemaError`,
    /// `ObjectError`, a file system error), when this error wraps one.
    public var underlyingError: Swift.Error? {
        if case .failed(_, _, _, let u) = self { return u }
        return nil
    }

    /// The RealmSwift code of any error Strata throws.
    public static func code(of error: Swift.Error) -> Code {
        switch error {
        case let e as Realm.Error: return e.code
        case let e as StorageError:
            switch e {
            case .fileNotFound: return .fileNotFound
            case .notADatabase, .corrupted, .encryptionKeyRequired, .wrongEncryptionKey, .notEncrypted, .invalidEncryptionKey: return .invalidDatabase
            case .unsupportedFormat: return .unsupportedFileFormatVersion
            case .io(_, _, let errno):
                if errno == EACCES || errno == EPERM || errno == EROFS { return .filePermissionDenied }
                if errno == ENOENT { return .fileNotFound }
                // A path that cannot name a file (a parent is not a directory, too long, a
                // symlink loop): realm-core's FileOperationFailed, as RealmSwift reports it.
                if errno == ENOTDIR || errno == ENAMETOOLONG || errno == ELOOP { return .fileOperationFailed }
                return .fileAccess
            case .diskFull, .diskFullWritingNewFile: return .outOfDiskSpace
            case .badLockFile: return .incompatibleLockFile
            case .readOnly, .fileInUse, .tooManyReaders: return .fileAccess
            // A device or directory where the file should be: realm-core cannot open it as a
            // file either (`/dev/null` gives RealmSwift's .fileAccess).
            case .notARegularFile: return .fileAccess
            case .keyTooLarge, .valueTooLarge: return .invalidInput
            default: return .fail
            }
        case let e as MigrationError:
            if case .schemaVersionDecreased = e { return .invalidSchemaVersion }
            return .schemaMismatch
        case is SchemaError: return .schemaMismatch
        case is ObjectError: return .invalidInput
        case let e as CocoaError:
            switch e.code {
            case .fileReadNoPermission, .fileWriteNoPermission, .fileWriteVolumeReadOnly: return .filePermissionDenied
            case .fileReadNoSuchFile, .fileNoSuchFile: return .fileNotFound
            case .fileWriteFileExists: return .fileExists
            case .fileWriteOutOfSpace: return .outOfDiskSpace
            default: return .fileAccess
            }
        default:
            let ns = error as NSError
            if ns.domain == NSPOSIXErrorDomain {
                return (ns.code == Int(EACCES) || ns.code == Int(EPERM)) ? .filePermissionDenied : .fileAccess
            }
            return .fail
        }
    }

    /// `error` as a `Realm.Error` about `path` (a `Realm.Error` is returned unchanged).
    static func wrapping(_ error: Swift.Error, path: String) -> Realm.Error {
        if let e = error as? Realm.Error { return e }
        return .failed(code: code(of: error), message: "\(error)", path: path, underlying: error)
    }

    /// Runs `body`, turning what it throws into a `Realm.Error` about `path`.
    static func mapping<R>(path: String, _ body: () throws -> R) throws -> R {
        do { return try body() } catch {
            let e = wrapping(error, path: path)
            Logger.shared.log(level: .detail, message: "opening \(path) failed (\(e.code)): \(e)")
            throw e
        }
    }
}

extension Realm.Error: Equatable {
    /// Errors are equal when their codes and messages are.
    public static func == (a: Realm.Error, b: Realm.Error) -> Bool { a.code == b.code && a.description == b.description }
}
