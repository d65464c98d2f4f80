import Foundation
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// A handle on one database file (or in-memory database), confined to the thread (or serial
/// queue) that opened it, like RealmSwift's `Realm`.
///
/// Each thread gets its own instance; objects, results and collections read from it belong to
/// that thread. Pass them to another thread with `ThreadSafeReference`, or `freeze()` them.
public struct Realm: Equatable {
    let core: RealmCore
    init(core: RealmCore) { self.core = core }

    /// Errors of opening and configuration (RealmSwift's `Realm.Error`; `code`, `fileURL` and
    /// the mapping of the lower layers' errors are in RealmError.swift).
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The configuration asks for something Strata does not support yet.
        case unsupported(String)
        /// The configuration is invalid.
        case invalidConfiguration(String)
        /// A Realm was used on a thread it does not belong to.
        case wrongThread(String)
        /// A write was attempted on a read-only realm.
        case readOnly(String)
        /// Opening or a file operation failed; `underlying` is the error of the layer below.
        case failed(code: Realm.Error.Code, message: String, path: String?, underlying: Swift.Error?)
        public var description: String {
            switch self {
            case .failed(_, let m, _, _): return m
            case .readOnly(let s): return s
            case .unsupported(let s): return "not supported: \(s)"
            case .invalidConfiguration(let s): return "invalid configuration: \(s)"
            case .wrongThread(let s): return s
            }
        }
    }

    /// How to open a realm (RealmSwift's `Realm.Configuration`).
    public struct Configuration: @unchecked Sendable {
        private var _fileURL: URL?
        private var _inMemoryIdentifier: String?
        /// The file. Setting it clears `inMemoryIdentifier`.
        public var fileURL: URL? {
            get { _fileURL }
            set { _fileURL = newValue; if newValue != nil { _inMemoryIdentifier = nil } }
        }
        /// A name for a database without a file: its data lives while any realm with this
        /// identifier is open in the process. Setting it clears `fileURL`.
        public var inMemoryIdentifier: String? {
            get { _inMemoryIdentifier }
            set { _inMemoryIdentifier = newValue; if newValue != nil { _fileURL = nil } }
        }
        /// 64 bytes: an AES-256 key, then an HMAC-SHA-256 key. A new file is created encrypted
        /// (every page AES-256-CBC, authenticated with HMAC-SHA-256); an existing file must be
        /// opened with the key it was created with — a wrong or missing key, or a key for an
        /// unencrypted file, is a clear error (`StorageError`).
        public var encryptionKey: Data?
        /// Open without writing: nothing is written to the file (no schema change, no
        /// migration); a write is a clear error (`Realm.Error.readOnly`).
        public var readOnly: Bool
        /// The version of the schema; stored in the file. Raise it (with a `migrationBlock` when
        /// data must change) whenever the classes change. A lower value than the file's is an error.
        public var schemaVersion: UInt64
        /// Runs in the migration's write transaction when the file's schema version is older
        /// than `schemaVersion` (see `Migration`). Throwing abandons the migration; the file is
        /// left unchanged.
        public var migrationBlock: MigrationBlock?
        /// Delete the file and start empty instead of migrating or failing, whenever the
        /// stored schema or schema version differs from this configuration's.
        public var deleteRealmIfMigrationNeeded: Bool
        /// Asked with (file size in bytes, bytes of live data) on the first open of the file in
        /// this process; returning true compacts the file (`Realm.compact()`), unless another
        /// handle or process has it open. With `try await Realm(...)` this runs off the
        /// caller's actor.
        public var shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)?
        /// The classes of this realm (linked classes are added). nil: every class Strata has
        /// seen in this process (Swift on Linux cannot list subclasses, so list them here).
        public var objectTypes: [ObjectBase.Type]?
        /// A file copied to `fileURL` before the first open when no file is there yet (a
        /// bundled, pre-filled database); see RealmFiles.swift.
        public var seedFilePath: URL? = nil

        /// A configuration (the default file is `Configuration.defaultFileURL`).
        public init(fileURL: URL? = nil, inMemoryIdentifier: String? = nil, encryptionKey: Data? = nil, readOnly: Bool = false,
                    schemaVersion: UInt64 = 0, migrationBlock: MigrationBlock? = nil, deleteRealmIfMigrationNeeded: Bool = false,
                    shouldCompactOnLaunch: (@Sendable (Int, Int) -> Bool)? = nil, objectTypes: [ObjectBase.Type]? = nil) {
            _fileURL = inMemoryIdentifier == nil ? (fileURL ?? Configuration.defaultFileURL) : nil
            _inMemoryIdentifier = inMemoryIdentifier
            self.encryptionKey = encryptionKey; self.readOnly = readOnly; self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock; self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch; self.objectTypes = objectTypes
        }

        /// `default.strata` in the user's data directory: `$XDG_DATA_HOME/strata` (else
        /// `~/.local/share/strata`) on Linux, `~/Library/Application Support/strata` on macOS.
        /// The directory is created on the first open.
        public static var defaultFileURL: URL {
            #if os(macOS)
            let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
            #else
            let env = ProcessInfo.processInfo.environment
            let base: URL
            if let x = env["XDG_DATA_HOME"], x.hasPrefix("/") { base = URL(fileURLWithPath: x) }
            else { base = URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share") }
            #endif
            return base.appendingPathComponent("strata").appendingPathComponent("default.strata")
        }

        private static let defaultStore = Locked(Configuration())
        /// The configuration `Realm()` and `try await Realm()` use (settable).
        public static var defaultConfiguration: Configuration {
            get { defaultStore.with { $0 } }
            set { defaultStore.with { $0 = newValue } }
        }

        /// The path of the database file (for in-memory realms a name: `in-memory:<identifier>`).
        var path: String {
            if let id = _inMemoryIdentifier { return "in-memory:" + id }
            return (_fileURL ?? URL(fileURLWithPath: "default.strata")).path
        }
    }

    // MARK: opening

    /// Opens the realm of `configuration` for the current thread, or for `queue` (then use it
    /// only from blocks running on that serial queue). On one thread, opening the same
    /// configuration again returns the same instance.
    public init(configuration: Configuration = .defaultConfiguration, queue: DispatchQueue? = nil) throws {
        let coordinator = try Error.mapping(path: configuration.path) {
            try Realm.copySeedFileIfNeeded(configuration)
            return try Coordinator.open(configuration)
        }
        core = coordinator.core(for: queue.map { Confinement.forQueue($0) } ?? Confinement.currentThread())
    }

    public static func == (a: Realm, b: Realm) -> Bool { a.core === b.core }

    /// The configuration this realm was opened with.
    public var configuration: Configuration { core.coordinator.configuration }
    /// The schema (RealmSwift's `Realm.schema`).
    public var schema: Schema { core.coordinator.db.schema }
    /// The object database under this realm (the dynamic API).
    public var database: Database { core.coordinator.db }
    /// True when no class holds any object.
    public var isEmpty: Bool {
        core.read { txn in schema.objectSchemas.allSatisfy { (try? txn.count($0.className)) ?? 0 == 0 } }
    }
    /// The version this realm reads.
    public var version: UInt64 { core.read { $0.version } }
    /// True for a frozen realm (immutable, usable from any thread).
    public var isFrozen: Bool { core.isFrozen }

    /// Throws `Error.wrongThread` (with the message the trap would give) when this realm may
    /// not be used on the current thread; the non-trapping form of the confinement check.
    public func verifyThread() throws {
        if let m = core.confinementViolation() { throw Error.wrongThread(m) }
    }

    /// Runs `body` with the current transaction (read or write) of the dynamic API.
    public func withTransaction<R>(_ body: (DBTransaction) throws -> R) rethrows -> R {
        try core.readThrowing(body)
    }

    /// The storage integrity check of the file (every page reachable once or free, checksums).
    public func checkIntegrity() throws -> IntegrityReport { try core.coordinator.db.store.check() }

    // MARK: transactions

    /// True between `beginWrite()` and `commitWrite()`/`cancelWrite()`.
    public var isInWriteTransaction: Bool { core.verify(); return core.isInWrite }

    /// Runs `block` in a write transaction and commits it; an error thrown by `block` cancels
    /// the transaction and is rethrown. Observers registered with `tokens` are not notified of
    /// this commit.
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: () throws -> Result) throws -> Result {
        try requireWritable()
        // This thread writing to the file through another Realm or Database: an error, not a wait.
        do { try core.beginWriteUnlessHeld() } catch { throw Realm.Error.wrapping(error, path: core.coordinator.path) }
        // A write that could not begin throws here, before the block runs.
        if core.failedWrite != nil { try commitWrite(withoutNotifying: tokens) }
        let r: Result
        do { r = try block() } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite(withoutNotifying: tokens) }
        return r
    }

    /// Begins a write transaction (waits for writers in other threads and processes) and
    /// advances the realm to the newest version. On a read-only realm this traps; `write`
    /// throws `Realm.Error.readOnly` instead. When this thread already has a write transaction
    /// open on the file (another Realm or Database of it), this traps with that message and
    /// `write` throws it (a `Realm.Error` whose `underlyingError` is
    /// `StorageError.writeAlreadyOpenOnThisThread`): waiting would never end. When the write cannot begin (a damaged block of the
    /// newest version, an I/O error) the realm is in a failed write: its changes are ignored and
    /// `commitWrite` throws the error (`write` throws it before running its block).
    public func beginWrite() {
        do { try requireWritable() } catch { strataProgrammerError("\(error)") }
        core.beginWrite()
    }

    /// Throws `Error.readOnly` for a read-only realm.
    func requireWritable() throws {
        if configuration.readOnly {
            throw Error.readOnly("Can't perform a write transaction on the read-only Realm at \(core.coordinator.path): it was opened with readOnly = true; open it with a configuration that is not read-only to change it")
        }
    }
    /// Commits the write transaction; observers are notified. Throws when the commit fails,
    /// or when the write failed before (writing the objects `add` queued hit a storage error on
    /// a read or query inside the write): that write was discarded as a whole, reads inside it
    /// saw the last commit and its later changes were ignored; nothing of it is in the file.
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws { try core.commitWrite(skipping: tokens) }
    /// Discards the changes of the write transaction; objects added in it become invalid.
    public func cancelWrite() { core.cancelWrite() }

    /// Advances to the newest version and delivers pending notifications. Returns true when
    /// the version changed.
    @discardableResult
    public func refresh() -> Bool { core.refresh() }
    /// Releases the version this realm reads (so the file can reuse its pages); the next
    /// access begins a read on the newest version. An open write is cancelled. As in
    /// RealmSwift, every `Object`, `Results`, `List`, `MutableSet`, `Map` and `LinkingObjects`
    /// obtained from this realm before is invalidated: `isInvalidated` is true and using it
    /// traps ("… has been deleted or invalidated"); fetch them again from the realm. Frozen
    /// objects, the objects of other threads' realms and notification tokens are unaffected
    /// (observers keep delivering, with the collection or object as of the new read). On a
    /// frozen realm this does nothing.
    public func invalidate() { core.invalidate() }
    /// Whether the realm advances by itself when another thread or process commits (on its
    /// delivery path, see `observe`). Default true.
    public var autorefresh: Bool {
        get { core.autorefresh }
        nonmutating set { core.autorefresh = newValue }
    }
    /// True when a newer version than the one this realm reads has been committed (cheap: one
    /// atomic load). A polling loop calls `refresh()` when it is true.
    public var hasPendingChanges: Bool { core.hasPendingChanges }
    /// Blocks the calling thread until a commit by any thread or process is seen, or `timeout`
    /// passes (no CPU use while waiting). True when a commit was seen. Call `refresh()` after.
    @discardableResult
    public func waitForChange(timeout: TimeInterval) -> Bool { core.waitForChange(timeout: timeout) }

    // MARK: objects

    /// Adds an unmanaged object (and the unmanaged objects it links to) to the realm; the
    /// object becomes managed. With a primary key and `update` `.modified` or `.all`, an
    /// existing object is updated. A duplicate primary key with `.error` traps; use `tryAdd`
    /// to get an error instead.
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        do { try tryAdd(object, update: update) } catch { core.trapUnlessWriteFailed(error) }
    }
    /// Adds several objects.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Element: Object {
        for o in objects { add(o, update: update) }
    }
    /// `add` that throws (duplicate primary key, limits) instead of trapping.
    public func tryAdd(_ object: Object, update: UpdatePolicy = .error) throws {
        try core.writeThrowing(keepPending: true) { _, adder in
            adder.policy = update
            adder.isRealmAdd = true
            defer { adder.policy = .error; adder.isRealmAdd = false }
            _ = try adder.add(object)
        }
    }

    /// Creates (or with a primary key and `update`, updates) an object from a dictionary
    /// (property name → value), an array (values in property order) or another object. An
    /// update sets only the properties given.
    ///
    /// A storage error while creating (a damaged block, an I/O error, a full disk) does not
    /// trap: the write transaction is discarded as for any failed change (`commitWrite` and
    /// `write` throw it), and `create` returns an *unmanaged* object holding the values given
    /// (`realm` nil), which is safe to read and change; add it in a new write to store it. A
    /// duplicate primary key with `.error` or a wrong value traps, as in RealmSwift; use
    /// `tryCreate` to get an error instead.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        do { return try tryCreate(type, value: value, update: update) } catch {
            core.trapUnlessWriteFailed(error)
            // The write failed (now or before): what the app gave, not stored anywhere.
            let o = type.init()
            try? ObjectAdder.apply(value, to: o)
            return o
        }
    }
    /// `create` that throws instead of trapping.
    @discardableResult
    public func tryCreate<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) throws -> T {
        try core.writeThrowing { _, adder in try adder.create(type, value: value, update: update) }
    }

    /// Deletes a managed object (its embedded objects go with it; links to it become nil).
    public func delete(_ object: ObjectBase) { delete([object]) }
    /// Deletes managed objects.
    public func delete<S: Sequence>(_ objects: S) where S.Element: ObjectBase {
        let list = Array(objects)
        core.write { txn, _ in
            var byClass: [String: [ObjKey]] = [:]
            for o in list {
                guard o._rlmCore === core || (o._rlmCore?.coordinator === core.coordinator && o._rlmCore?.isFrozen == false) else {
                    strataProgrammerError("Can only delete an object from the Realm it belongs to")
                }
                o._rlmRequireValid()
                byClass[o._rlmClassInfo.className, default: []].append(o._rlmKey)
            }
            for (c, keys) in byClass.sorted(by: { $0.key < $1.key }) {
                try txn.delete(c, keys: keys.filter { (try? txn.exists(c, $0)) == true })
            }
        }
    }
    /// Deletes the objects of `results`.
    public func delete<T: ObjectBase>(_ results: Results<T>) {
        let keys = results.objectKeys
        let c = results.className
        core.write { txn, _ in try txn.delete(c, keys: keys) }
    }
    /// Deletes every object of every class.
    public func deleteAll() {
        let classes = schema.objectSchemas.filter { !$0.isEmbedded }.map(\.className)
        core.write { txn, _ in for c in classes { try txn.deleteAll(c) } }
    }

    /// All objects of a class, lazily (`Results` read nothing until used).
    public func objects<T: ObjectBase>(_ type: T.Type) -> Results<T> {
        let name = core.coordinator.requireClass(type)
        return Results(core: core, className: name, base: .all, stages: [])
    }
    /// The object with the primary key `key`, or nil.
    public func object<T: Object, K>(ofType type: T.Type, forPrimaryKey key: K) -> T? {
        // The class info, found once for the name and the object.
        let info = core.coordinator.info(of: type)
        if K.self == Int.self, let info, let found = core.typedFind(info, intKey: Int64(unsafeBitCast(key, to: Int.self))) {
            guard let k = found else { return nil }
            let o = type.init()
            o._rlmBind(core, k, permanentInfo: info)
            return o
        }
        let name = info?.className ?? core.coordinator.requireClass(type)
        // The common key types by their static type (no reflection on the generic value).
        let fast: Value? = K.self == Int.self ? .int(Int64(unsafeBitCast(key, to: Int.self)))
            : K.self == String.self ? .string(unsafeBitCast(key, to: String.self)) : nil
        guard let v = fast ?? anyToValue(key) else { strataProgrammerError("\(K.self) cannot be a primary key") }
        let k: ObjKey? = core.read { txn in strataTry { try txn.find(name, primaryKey: v) } }
        guard let k else { return nil }
        guard let info else { return core.makeObject(type, key: k) }
        let o = type.init()
        o._rlmBind(core, k, permanentInfo: info)
        return o
    }

    // MARK: notifications

    /// What a realm notification says (RealmSwift's `Realm.Notification`).
    public enum Notification: String, Sendable {
        /// The realm advanced to a new version (a commit here or elsewhere).
        case didChange
        /// A newer version exists but `autorefresh` is off: call `refresh()`.
        case refreshRequired
    }

    /// Calls `block` after every commit (local, other threads, other processes) once this realm
    /// has advanced. Delivery: see `NotificationToken`.
    public func observe(_ block: @escaping (Notification, Realm) -> Void) -> NotificationToken {
        core.addRealmObserver(block)
    }

    // MARK: freezing and thread handover

    /// An immutable snapshot of the current version, usable from any thread.
    public func freeze() -> Realm { Realm(core: core.frozenCore()) }
    /// The live realm of the current thread for this frozen realm's file.
    public func thaw() -> Realm { Realm(core: core.coordinator.core(for: .currentThread())) }

    /// The object, results or collection of `reference` on this realm (nil if it was deleted).
    public func resolve<Confined: ThreadConfined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        if reference.version > core.read({ $0.version }) && !isInWriteTransaction { refresh() }
        return Confined._strataResolve(reference.handover, in: _StrataContext(core: core))
    }
}

/// How a `RealmCore` may be used: by one thread, one serial queue, or (frozen) anyone.
enum Confinement {
    case thread(pthread_t, isMain: Bool)
    case queue(DispatchQueue, ObjectIdentifier)
    case frozen(UInt64)
    /// Isolated to an actor (`try await Realm(configuration:actor:)`).
    case actor(any Actor)

    final class QueueToken: @unchecked Sendable {}
    static let queueKey = DispatchSpecificKey<QueueToken>()
    private static let queueTokenLock = NSLock()

    static func currentThread() -> Confinement { .thread(pthread_self(), isMain: Thread.isMainThread) }
    static func forQueue(_ q: DispatchQueue) -> Confinement {
        queueTokenLock.lock(); defer { queueTokenLock.unlock() }
        if let t = q.getSpecific(key: queueKey) { return .queue(q, ObjectIdentifier(t)) }
        let t = QueueToken()
        q.setSpecific(key: queueKey, value: t)
        return .queue(q, ObjectIdentifier(t))
    }

    /// A key identifying the thread or queue in the coordinator's cache.
    var cacheKey: String {
        switch self {
        case .thread(let t, _): return "t\(t)"
        case .queue(_, let id): return "q\(id.hashValue)"
        case .frozen(let v): return "f\(v)"
        case .actor(let a): return "a\(ObjectIdentifier(a as AnyObject).hashValue)"
        }
    }
}
