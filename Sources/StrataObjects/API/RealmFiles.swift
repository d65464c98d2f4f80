import Foundation
import StrataStorage

// Opening and the files of a realm, by RealmSwift's names.

extension Realm {
    /// Opens the realm stored at `fileURL` with the default configuration's other settings.
    public init(fileURL: URL) throws {
        var c = Configuration.defaultConfiguration
        c.fileURL = fileURL
        try self.init(configuration: c)
    }

    /// Copies `seedFilePath` to the configuration's file when no file is there yet.
    static func copySeedFileIfNeeded(_ configuration: Configuration) throws {
        guard let seed = configuration.seedFilePath, let url = configuration.fileURL else { return }
        let fm = FileManager.default
        if fm.fileExists(atPath: url.path) { return }
        guard fm.fileExists(atPath: seed.path) else {
            throw Error.failed(code: .fileNotFound, message: "\(seed.path): the seed file does not exist; check Configuration.seedFilePath", path: seed.path, underlying: nil)
        }
        let dir = url.deletingLastPathComponent()
        if !fm.fileExists(atPath: dir.path) { try fm.createDirectory(at: dir, withIntermediateDirectories: true) }
        try fm.copyItem(at: seed, to: url)
    }

    /// True when the configuration's file exists (false for in-memory realms).
    public static func fileExists(for config: Configuration) -> Bool {
        guard config.inMemoryIdentifier == nil, let url = config.fileURL else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// Deletes the configuration's file and its lock file. Returns true when a file was
    /// deleted. Throws `Realm.Error` with code `.alreadyOpen` while this process has the file
    /// open (close every realm of it first) — nothing is deleted then.
    @discardableResult
    public static func deleteFiles(for config: Configuration) throws -> Bool {
        guard config.inMemoryIdentifier == nil, let url = config.fileURL else { return false }
        let path = url.path
        if Coordinator.isOpen(path: path) {
            throw Error.failed(code: .alreadyOpen, message: "Cannot delete files of an open Realm: \(path) is still open in this process; release its realms first", path: path, underlying: nil)
        }
        let fm = FileManager.default
        var deleted = false
        for p in [path, path + ".lock"] where fm.fileExists(atPath: p) {
            do { try fm.removeItem(atPath: p) } catch { throw Error.wrapping(error, path: p) }
            if p == path { deleted = true }
        }
        return deleted
    }

    /// Opens the realm once so its migration (if the schema version or classes changed) runs
    /// now rather than at the first use (RealmSwift's `performMigration(for:)`).
    public static func performMigration(for configuration: Configuration = .defaultConfiguration) throws {
        _ = try Realm(configuration: configuration)
        Logger.shared.log(level: .info, message: "\(configuration.path) is at schema version \(configuration.schemaVersion)")
    }

    /// Writes a compacted copy of this realm to `configuration.fileURL` (which must not exist),
    /// encrypted with `configuration.encryptionKey` when it is set.
    public func writeCopy(configuration: Configuration) throws {
        guard configuration.inMemoryIdentifier == nil, let url = configuration.fileURL else {
            throw Error.invalidConfiguration("writeCopy(configuration:) needs a configuration with a fileURL (an in-memory realm has no file to write)")
        }
        if FileManager.default.fileExists(atPath: url.path) {
            throw Error.failed(code: .fileExists, message: "\(url.path): a file already exists there; writeCopy does not overwrite, delete it first", path: url.path, underlying: nil)
        }
        try Error.mapping(path: url.path) { try writeCopy(toFile: url, encryptionKey: configuration.encryptionKey) }
    }

    // MARK: asynchronous opening

    /// A pending `asyncOpen` (RealmSwift's `AsyncOpenTask`).
    public final class AsyncOpenTask: @unchecked Sendable {
        let cancelled = Locked(false)
        init() {}
        /// Stops the callback from being called (the file may still be opened in the background).
        public func cancel() { cancelled.with { $0 = true } }
    }

    /// Opens the realm in the background (creating the file and running migrations there),
    /// then calls `callback` on `callbackQueue` with a realm confined to that queue (to the
    /// main thread for the main queue).
    @discardableResult
    public static func asyncOpen(configuration: Configuration = .defaultConfiguration,
                                 callbackQueue: DispatchQueue = .main,
                                 callback: @escaping (Result<Realm, Swift.Error>) -> Void) -> AsyncOpenTask {
        let task = AsyncOpenTask()
        let box = UncheckedSendable(callback)
        DispatchQueue.global(qos: .userInitiated).async {
            let opened = Result { () throws -> Coordinator in
                try Error.mapping(path: configuration.path) {
                    try Realm.copySeedFileIfNeeded(configuration)
                    return try Coordinator.open(configuration)
                }
            }
            let keep = UncheckedSendable(opened)
            callbackQueue.async {
                _ = keep.value   // holds the coordinator open until the realm is made
                if task.cancelled.with({ $0 }) { return }
                Logger.shared.log(level: .info, message: "asyncOpen of \(configuration.path) finished")
                let isMain = callbackQueue === DispatchQueue.main
                box.value(Result { try Realm(configuration: configuration, queue: isMain ? nil : callbackQueue) })
            }
        }
        return task
    }

    /// Opens the realm for the calling actor (the main actor in a `@MainActor` context),
    /// creating the file and running migrations off the actor (RealmSwift's `Realm.open`).
    public static func open(configuration: Configuration = .defaultConfiguration,
                            isolation: isolated (any Actor)? = #isolation) async throws -> Realm {
        guard let isolation else {
            throw Error.invalidConfiguration("Realm.open must be called from an actor (a @MainActor or actor method): the realm is confined to it; use try Realm(configuration:) on a thread instead")
        }
        let coordinator = try await openInBackground(configuration)
        return Realm(core: coordinator.core(for: .actor(isolation)))
    }

    // MARK: asynchronous writes, RealmSwift's three-step form

    /// Queues `block` to run in a write transaction once the write lock is available (like
    /// `writeAsync`); the block ends the transaction with `commitAsyncWrite` or `cancelWrite`.
    /// A transaction the block leaves open is rolled back when it returns, as realm-core does
    /// (`writeAsync` is the form that commits by itself).
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        let realm = self
        return writeAsync {
            asyncWriteBlock()
            if realm.isInWriteTransaction { realm.cancelWrite() }
        }
    }

    /// Commits the current write transaction (begun by `beginAsyncWrite`, or `beginWrite`) and
    /// calls `onComplete` with nil or the error once the commit is durable. Strata commits
    /// synchronously, so `onComplete` runs before this returns; `allowGrouping` has no effect.
    @discardableResult
    public func commitAsyncWrite(allowGrouping: Bool = false, _ onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        guard isInWriteTransaction else { strataProgrammerError("Can't commit a non-existing write transaction") }
        let id: AsyncTransactionId = core.asyncWrites.with { s in let id = s.next; s.next &+= 1; return id }
        do { try commitWrite(); onComplete?(nil) } catch { onComplete?(error) }
        return id
    }
}

/// The schema version stored in the file at `fileURL` (RealmSwift's `schemaVersionAtURL`).
/// Throws `Realm.Error`: `.invalidDatabase` when no realm was created there yet (no file in an
/// existing directory, or a file without a schema), as RealmSwift's "has not been initialized";
/// `.fileNotFound` when the directory does not exist; `.invalidDatabase` when the file is not a
/// Strata database or the key is wrong.
public func schemaVersionAtURL(_ fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
    func notInitialized() -> Realm.Error {
        .failed(code: .invalidDatabase,
                message: "Realm at path '\(fileURL.path)' has not been initialized: no realm was created there yet; open it with Realm(configuration:) first, or check the path",
                path: fileURL.path, underlying: nil)
    }
    return try Realm.Error.mapping(path: fileURL.path) {
        guard FileManager.default.fileExists(atPath: fileURL.path) else {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: fileURL.deletingLastPathComponent().path, isDirectory: &isDirectory),
               isDirectory.boolValue {
                throw notInitialized()
            }
            throw StorageError.fileNotFound(path: fileURL.path)
        }
        var options = StoreOptions()
        options.readOnly = true
        options.encryptionKey = encryptionKey.map { [UInt8]($0) }
        let store = try Store(path: fileURL.path, options: options)
        defer { store.close() }
        let (schema, version) = try Database.readSchema(store)
        guard schema != nil else { throw notInitialized() }
        return version
    }
}
