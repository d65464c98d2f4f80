import Foundation
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// One open database file (per path and set of classes) shared by the realms of every thread
/// in the process: the `Database`, the Swift types of its classes, and the commit watcher that
/// wakes the realms' notification delivery.
final class Coordinator: @unchecked Sendable {
    private static let registry = Locked<[String: Weak<Coordinator>]>([:])

    let configuration: Realm.Configuration
    let db: Database
    let typesByName: [String: ObjectBase.Type]
    /// The class info of each model type of the schema (set on the objects the realm makes).
    let infosByType: [ObjectIdentifier: ClassInfo]
    /// `infosByType` as a lock-free identity table (unretained: `infosByType` holds them); a
    /// scan of a few words instead of hashing, for primary-key lookups.
    private let infoTable: IdentityTable
    /// The class info of `type` when it is in the schema.
    @inline(__always) func info(of type: ObjectBase.Type) -> ClassInfo? {
        guard let p = infoTable.find(UInt(bitPattern: ObjectIdentifier(type))) else { return nil }
        return Unmanaged<ClassInfo>.fromOpaque(UnsafeRawPointer(bitPattern: p)!).takeUnretainedValue()
    }
    let isInMemory: Bool
    let path: String
    private let lock = NSLock()
    /// The live cores by thread or queue, and every live core (for commit wake-ups):
    /// registered without a reference (see `CoreEntry`), each removed by its core's deinit.
    private var cores: [String: CoreEntry] = [:]
    private var live: [CoreEntry] = []
    private var watcherID: UInt64 = 0
    /// This coordinator's key in `registry` and `openHandles`.
    private var registryKey: String?
    /// Coordinators per registry key whose handle is still open (counted down by `deinit`
    /// once the file is closed).
    private static let openHandles = Locked<[String: Int]>([:])
    /// Counts the commit watcher's calls into this coordinator that are running (see `open`).
    private let watcherGate = WatcherGate()

    /// Paths opened at least once in this process (`shouldCompactOnLaunch` is asked only on
    /// the first open).
    private static let launched = Locked<Set<String>>([])
    /// What the launch compaction did (nil when none ran), or why it was refused.
    private(set) var launchCompaction: Result<CompactionResult, Swift.Error>?

    /// True when this process has `path` open (any set of classes).
    static func isOpen(path: String) -> Bool {
        registry.with { reg in reg.contains { $0.key.hasPrefix(path + "|") && $0.value.value != nil } }
    }

    static func open(_ config: Realm.Configuration) throws -> Coordinator {
        if let key = config.encryptionKey, key.count != 64 {
            throw Realm.Error.invalidConfiguration("encryptionKey must be 64 bytes (an AES-256 key, then an HMAC-SHA-256 key), not \(key.count)")
        }
        if config.readOnly && config.deleteRealmIfMigrationNeeded {
            throw Realm.Error.invalidConfiguration("deleteRealmIfMigrationNeeded cannot be set for a read-only realm")
        }
        if config.readOnly && config.shouldCompactOnLaunch != nil {
            throw Realm.Error.invalidConfiguration("shouldCompactOnLaunch cannot be set for a read-only realm")
        }
        if config.readOnly && config.inMemoryIdentifier != nil {
            throw Realm.Error.invalidConfiguration("an in-memory realm cannot be read-only")
        }
        let infos = ClassInfo.closure(config.objectTypes ?? ClassInfo.allKnown.map(\.type))
        let schema = Schema(infos.map(\.objectSchema))
        let path = config.path
        // The classes by name and by Swift type: two model types of one class name (different
        // properties) get coordinators of their own, each checked against the file's schema.
        let types = infos.sorted { $0.className < $1.className }.map { "\($0.className)=\(ObjectIdentifier($0.type))" }
        let key = path + "|" + types.joined(separator: ",") + (config.readOnly ? "|ro" : "")
        // Right after a commit the watcher thread briefly holds the coordinator that made it.
        // When the app has let go of every realm of it meanwhile, that coordinator is closing:
        // reusing it would keep its schema (no migration check for the new classes) and, in
        // memory, its data. Wait for the watcher to let go first (bounded: it only forwards
        // the commit to the cores).
        registry.with { $0[key]?.value?.watcherGate }?.waitIdle(timeout: 1)
        // A coordinator of this key whose `deinit` is running on another thread (its weak
        // reference already nil, its handle still open): wait until it has closed its file — in
        // memory, released its data — so this open starts from the file.
        let deadline = Date(timeIntervalSinceNow: 2)
        while !registry.with({ $0[key]?.value != nil }) && openHandles.with({ $0[key] ?? 0 }) > 0 && Date() < deadline {
            usleep(50)
        }
        return try registry.with { reg in
            if let c = reg[key]?.value {
                if config.schemaVersion < c.db.schemaVersion {
                    throw MigrationError.schemaVersionDecreased(path: path, fileVersion: c.db.schemaVersion, configuredVersion: config.schemaVersion)
                }
                if config.schemaVersion > c.db.schemaVersion {
                    throw Realm.Error.invalidConfiguration("\(path) is already open in this process with schema version \(c.db.schemaVersion); release those realms before opening it with schema version \(config.schemaVersion)")
                }
                // The open handle was opened with its key; this configuration's key must be the
                // same, as a fresh open would check against the file.
                if let error = Coordinator.keyMismatch(path: path, open: c.configuration.encryptionKey, requested: config.encryptionKey) { throw error }
                return c
            }
            // Another set of classes of the same file open in this process must agree on the
            // schema version (a migration would change the file under it).
            for (k, w) in reg where k.hasPrefix(path + "|") {
                if let other = w.value, other.db.schemaVersion != config.schemaVersion {
                    if config.schemaVersion < other.db.schemaVersion {
                        throw MigrationError.schemaVersionDecreased(path: path, fileVersion: other.db.schemaVersion, configuredVersion: config.schemaVersion)
                    }
                    throw Realm.Error.invalidConfiguration("\(path) is already open in this process with schema version \(other.db.schemaVersion); release those realms before opening it with schema version \(config.schemaVersion)")
                }
            }
            let c = try Coordinator(config, schema: schema, infos: infos, path: path)
            c.registryKey = key
            openHandles.with { $0[key, default: 0] += 1 }
            reg[key] = Weak(value: c)
            return c
        }
    }

    /// The error opening the file with `requested` would give when the handle open in this
    /// process was opened with `open` (nil: not encrypted), or nil when the keys agree.
    static func keyMismatch(path: String, open: Data?, requested: Data?) -> StorageError? {
        switch (open, requested) {
        case (nil, nil): return nil
        case (.some, nil): return .encryptionKeyRequired(path: path)
        case (nil, .some): return .notEncrypted(path: path)
        case (.some(let a), .some(let b)): return a == b ? nil : .wrongEncryptionKey(path: path)
        }
    }

    private init(_ config: Realm.Configuration, schema: Schema, infos: [ClassInfo], path: String) throws {
        configuration = config
        self.path = path
        isInMemory = config.inMemoryIdentifier != nil
        var types: [String: ObjectBase.Type] = [:]
        for i in infos { types[i.className] = i.type }
        typesByName = types
        infosByType = Dictionary(infos.map { (ObjectIdentifier($0.type), $0) }, uniquingKeysWith: { a, _ in a })
        infoTable = IdentityTable(capacity: max(infosByType.count, 1))
        for (id, i) in infosByType { _ = infoTable.add(UInt(bitPattern: id), Int(bitPattern: Unmanaged.passUnretained(i).toOpaque())) }
        var options = StoreOptions()
        options.readOnly = config.readOnly
        options.label = ProcessInfo.processInfo.processName
        options.encryptionKey = config.encryptionKey.map { [UInt8]($0) }
        // In memory: no file (memfd); handles with the same identifier share the data, which is
        // gone when the last one closes.
        options.inMemoryIdentifier = config.inMemoryIdentifier
        let inMemory = config.inMemoryIdentifier != nil
        let fm = FileManager.default
        if !inMemory && !config.readOnly {
            let dir = (path as NSString).deletingLastPathComponent
            if !dir.isEmpty && !fm.fileExists(atPath: dir) { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        }
        var store = try Store(path: path, options: options)
        let first = Coordinator.launched.with { $0.insert(path).inserted }
        if first, let ask = config.shouldCompactOnLaunch, !inMemory, !config.readOnly {
            let stats = try store.spaceStatistics()
            if ask(Int(stats.totalBytes), Int(stats.usedBytes)) {
                // Refused (with a reason) when another handle or process has the file open.
                do { launchCompaction = .success(try store.compact()) } catch { launchCompaction = .failure(error) }
            }
        }
        if config.deleteRealmIfMigrationNeeded {
            let (fileSchema, fileVersion) = try Database.readSchema(store)
            if Database.migrationNeeded(file: fileSchema, fileVersion: fileVersion, wanted: schema, version: config.schemaVersion) {
                store.close()
                if !inMemory {
                    try? fm.removeItem(atPath: path)
                    try? fm.removeItem(atPath: path + ".lock")
                }
                store = try Store(path: path, options: options)
            }
        }
        db = try Database(store: store, schema: schema, schemaVersion: config.schemaVersion, migrationBlock: config.migrationBlock)
        // The watcher thread holds the coordinator (and its cores) only inside the gate, so
        // `open` can wait for it instead of reusing a coordinator whose realms are all gone.
        let gate = watcherGate
        watcherID = db.store.addCommitObserver { [weak self] version in
            gate.enter()
            do { if let coordinator = self { coordinator.commitSeen(version) } }
            gate.leave()
        }
    }

    deinit {
        db.store.removeCommitObserver(watcherID)
        db.close()
        // Not the registry's lock: this deinit can run where a registry closure drops the last
        // reference to a coordinator.
        if let key = registryKey {
            Coordinator.openHandles.with { h in h[key, default: 1] -= 1; if h[key] == 0 { h[key] = nil } }
        }
    }

    /// The realm core of a thread or queue (one per thread: cached while alive).
    func core(for confinement: Confinement) -> RealmCore {
        lock.lock(); defer { lock.unlock() }
        let k = confinement.cacheKey
        if let c = cores[k]?.strong() { return c }
        let c = RealmCore(coordinator: self, confinement: confinement)
        cores[k] = CoreEntry(c)
        live.append(CoreEntry(c))
        return c
    }

    private var frozen: [UInt64: CoreEntry] = [:]
    /// A frozen core at the newest version (cached per version).
    func frozenCore(atLeast version: UInt64) -> RealmCore {
        lock.lock(); defer { lock.unlock() }
        if let c = frozen[version]?.strong() { return c }
        let c = RealmCore(coordinator: self, confinement: .frozen(version))
        frozen[c.frozenVersion] = CoreEntry(c)
        return c
    }

    /// Called by `RealmCore.deinit`: removes every registration of the core `p` (under the
    /// lock, so no `strong()` sees it once its memory can be freed).
    fileprivate func unregister(_ p: UnsafeMutableRawPointer) {
        lock.lock(); defer { lock.unlock() }
        for (k, e) in cores where e.pointer == p { cores[k] = nil }
        live.removeAll { $0.pointer == p }
        for (k, e) in frozen where e.pointer == p { frozen[k] = nil }
    }

    /// The class name of a model type, trapping with a clear message when it is not in the schema.
    func requireClass(_ type: ObjectBase.Type) -> String {
        if let info = infosByType[ObjectIdentifier(type)] { return info.className }
        let name = type.className()
        guard db.schema[name] != nil, typesByName[name] != nil else {
            strataProgrammerError("Object type '\(name)' is not managed by this Realm: add \(type).self to Realm.Configuration.objectTypes")
        }
        return name
    }

    /// True when a live (not frozen) core other than the one at `p` exists: only those need
    /// the commit watcher to tell them of a commit that core made (it delivers its own
    /// notifications when it commits).
    func hasLiveCore(otherThan p: UnsafeMutableRawPointer) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return live.contains { $0.pointer != p }
    }

    /// Called by the storage commit watcher (background thread) after every commit.
    private func commitSeen(_ version: UInt64) {
        lock.lock(); let cs = live.compactMap { $0.strong() }; lock.unlock()
        for c in cs { c.commitSeen(version) }
    }
}

/// Counts running calls of a commit watcher; `waitIdle` waits until none is running.
final class WatcherGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var running = 0

    func enter() { condition.lock(); running += 1; condition.unlock() }
    func leave() { condition.lock(); running -= 1; if running == 0 { condition.broadcast() }; condition.unlock() }

    /// Returns when no call is running, or after `timeout` seconds.
    func waitIdle(timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while running > 0 { if !condition.wait(until: deadline) { return } }
    }
}

/// A core as the coordinator registers it: its address, no reference. A weak reference would
/// give the core a side table, and every retain of it (each object a lookup or an iteration
/// makes holds its core) would take the runtime's slow path. The core's deinit removes its
/// entries under the coordinator's lock, so an entry read under that lock points to a core
/// whose memory is still there; `strong()` then takes a reference unless its deinit has begun.
private struct CoreEntry {
    let pointer: UnsafeMutableRawPointer
    init(_ c: RealmCore) { pointer = Unmanaged.passUnretained(c).toOpaque() }
    /// A strong reference to the core, or nil when it is being deinitialized. Call under the
    /// coordinator's lock only.
    func strong() -> RealmCore? {
        guard strataTryRetain(pointer) else { return nil }
        return Unmanaged<RealmCore>.fromOpaque(pointer).takeRetainedValue()
    }
}

/// A weak reference to a core without a side table, for work scheduled on the core's queue
/// (deliveries): the core clears it in its deinit; `core` takes a strong reference under the
/// lock unless the core's deinit has begun.
final class CoreReference: @unchecked Sendable {
    private let lock = NSLock()
    private var pointer: UnsafeMutableRawPointer?
    init(_ c: RealmCore) { pointer = Unmanaged.passUnretained(c).toOpaque() }
    fileprivate func clear() { lock.lock(); pointer = nil; lock.unlock() }
    /// The core, or nil once it is gone or going.
    var core: RealmCore? {
        lock.lock(); defer { lock.unlock() }
        guard let p = pointer, strataTryRetain(p) else { return nil }
        return Unmanaged<RealmCore>.fromOpaque(p).takeRetainedValue()
    }
}

/// The state of one realm instance: the thread (or queue) it belongs to, its read or write
/// transaction, its observers. `Realm` is a thin struct around it.
@usableFromInline
final class RealmCore: @unchecked Sendable {
    let coordinator: Coordinator
    let confinement: Confinement
    let isFrozen: Bool
    private let frozenLock = NSRecursiveLock()
    // Read on every access of an object: plain loads and stores (see ObjectBase._rlmCore).
    @exclusivity(unchecked) private var readTxn: DBTransaction?
    @exclusivity(unchecked) private(set) var writeTxn: DBTransaction? { didSet { holdWhileWriting() } }
    @exclusivity(unchecked) private var adder: ObjectAdder?
    /// The storage transaction of the read transaction this core had when its write
    /// transaction began at the same version: its reader slot stays pinned (at the write's base,
    /// which holds back no space the write could reuse) and the commit hands it to a read
    /// transaction of the committed version (`WriteTransaction.continuing`), so the realm
    /// continues at exactly the version it committed with no lookup of the newest version and
    /// no reader slot to claim. Ended when the write is cancelled or fails.
    @exclusivity(unchecked) private var parkedRead: ReadTransaction?
    /// Set when the write transaction failed on the way (writing the objects queued by `add`
    /// failed, e.g. a damaged block or a full disk): the transaction was discarded at once, so
    /// nothing of it can be committed, and reads see the last commit. The write stays open for
    /// the app until `commitWrite` (which throws this error) or `cancelWrite`; changes made
    /// meanwhile are ignored (throwing calls throw it).
    @exclusivity(unchecked) private(set) var failedWrite: Realm.Error? { didSet { holdWhileWriting() } }
    /// The core itself while a write transaction is open: a realm in a write transaction stays
    /// alive until it commits or cancels, also when the app drops every `Realm` of it
    /// (`try! Realm().beginWrite()` then `try! Realm().add(x)` on the same thread write in one
    /// transaction, as in RealmSwift, where the instance stays in its per-thread cache).
    private var writeHold: RealmCore?
    private func holdWhileWriting() {
        if isInWrite { if writeHold == nil { writeHold = self } } else if writeHold != nil { writeHold = nil }
    }
    /// True between `beginWrite` and `commitWrite`/`cancelWrite` (also when the write failed).
    var isInWrite: Bool { writeTxn != nil || failedWrite != nil }
    /// Bumped whenever the data this core sees may have changed (caches compare it).
    @exclusivity(unchecked) private(set) var generation = 0
    /// Bumped by `invalidate()` only: objects and collections remember the value when they
    /// are obtained and trap when used after it changed (RealmSwift's invalidated accessors).
    /// Never changes on a frozen core. Read on every property access: one plain load.
    @exclusivity(unchecked) private(set) var readEpoch = 0
    var autorefresh = true
    /// `writeAsync` bookkeeping: the next id, the ids queued, the ids cancelled.
    let asyncWrites = Locked<(next: UInt32, pending: Set<UInt32>, cancelled: Set<UInt32>)>((1, [], []))

    // Observers: guarded by `observerLock` (tokens may be invalidated from any thread).
    let observerLock = NSLock()
    var observers: [UInt64: CoreObserver] = [:]
    var realmObservers: [UInt64: (Realm.Notification, Realm) -> Void] = [:]
    var pendingInitial: Set<UInt64> = []
    var nextObserverID: UInt64 = 1
    var deliveryScheduled = false
    var lastNotifiedVersion: UInt64 = 0
    var delivering = false
    var deliverAgain = false
    /// Signalled after each commit seen (for `waitForChange`).
    let changeSignal = DispatchSemaphore(value: 0)

    /// This core for blocks scheduled on its queue (set once, at the end of `init`).
    private(set) var selfReference: CoreReference!

    /// The thread of a thread-confined core (`verify`'s fast check).
    private let ownerThread: pthread_t?
    @inline(__always) private static func isCurrentThread(_ t: pthread_t) -> Bool {
        #if os(Linux)
        return t == pthread_self()   // glibc's pthread_equal is this comparison (no call)
        #else
        return pthread_equal(t, pthread_self()) != 0
        #endif
    }

    init(coordinator: Coordinator, confinement: Confinement) {
        self.coordinator = coordinator
        self.confinement = confinement
        if case .thread(let t, _) = confinement { ownerThread = t } else { ownerThread = nil }
        if case .frozen = confinement {
            isFrozen = true
            readTxn = strataTry { try coordinator.db.read(label: "frozen") }
        } else { isFrozen = false }
        selfReference = CoreReference(self)
    }

    deinit {
        selfReference.clear()
        coordinator.unregister(Unmanaged.passUnretained(self).toOpaque())
        readTxn?.end()
        writeTxn?.abort()
        parkedRead?.end()
    }

    var frozenVersion: UInt64 { readTxn?.version ?? 0 }

    // MARK: confinement

    /// The message of the trap for use on the wrong thread, or nil when the current thread may
    /// use this core.
    func confinementViolation() -> String? {
        switch confinement {
        case .thread(let t, _):
            if pthread_equal(t, pthread_self()) != 0 { return nil }
            return "Realm accessed from incorrect thread: a Realm and its objects, results and collections belong to the thread that opened the Realm; pass them to another thread with ThreadSafeReference, or freeze() them"
        case .queue(_, let id):
            if let t = DispatchQueue.getSpecific(key: Confinement.queueKey), ObjectIdentifier(t) == id { return nil }
            return "Realm accessed from incorrect queue: this Realm was opened for a dispatch queue and may only be used from blocks running on it"
        case .frozen: return nil
        case .actor(let a):
            // nil: the runtime cannot tell here (`verify` then traps through preconditionIsolated).
            guard let on = actorIsCurrent(a), !on else { return nil }
            return "Realm accessed from the wrong isolation domain: this Realm is isolated to \(type(of: a)); use it (and its objects, results and collections) only from code running on that actor, or pass a ThreadSafeReference / frozen snapshot"
        }
    }

    @inline(__always) func verify() {
        if let t = ownerThread, Self.isCurrentThread(t) { return }
        verifyOther()
    }
    /// `verify` for cores that are not thread-confined, or another thread (kept out of line so
    /// the accessors' inlined check stays two loads and a compare).
    @inline(never) private func verifyOther() {
        if case .frozen = confinement { return }
        if case .actor(let a) = confinement, actorIsCurrent(a) == nil {
            a.preconditionIsolated("Realm accessed from the wrong isolation domain: this Realm is isolated to \(type(of: a))")
            return
        }
        if let m = confinementViolation() { strataProgrammerError(m) }
    }

    // MARK: transactions

    private func currentTxn() -> DBTransaction {
        if let w = writeTxn {
            // Objects added in batches are written before anything reads the transaction. When
            // that fails the write is discarded (`failedWrite`, thrown by `commitWrite`) and
            // the read sees the last commit.
            if let a = adder, a.hasPending {
                do { try a.flushPending() } catch { return currentTxn() }
            }
            return w
        }
        if let r = readTxn { return r }
        let r = strataTry { try coordinator.db.read(label: "realm") }
        readTxn = r
        generation &+= 1
        return r
    }

    /// Runs `body` with the current transaction (checks the thread; frozen cores lock).
    func read<R>(_ body: (DBTransaction) -> R) -> R {
        if isFrozen { frozenLock.lock(); defer { frozenLock.unlock() }; return body(readTxn!) }
        verify()
        return body(currentTxn())
    }
    func readThrowing<R>(_ body: (DBTransaction) throws -> R) rethrows -> R {
        if isFrozen { frozenLock.lock(); defer { frozenLock.unlock() }; return try body(readTxn!) }
        verify()
        return try body(currentTxn())
    }

    /// Runs `body` in the write transaction; traps outside one (RealmSwift's programmer error).
    /// `keepPending`: `body` only adds objects (the adder writes its pending rows itself when
    /// it needs to); otherwise pending rows are written before `body` runs.
    func writeThrowing<R>(keepPending: Bool = false, _ body: (DBTransaction, ObjectAdder) throws -> R) throws -> R {
        if isFrozen { strataProgrammerError("Cannot modify a frozen object or Realm: thaw() it first") }
        verify()
        guard let w = writeTxn, let a = adder else {
            if let f = failedWrite { throw f }
            strataProgrammerError("Cannot modify managed objects outside of a write transaction: call realm.write { } or realm.beginWrite() first")
        }
        generation &+= 1
        if !keepPending && a.hasPending { try a.flushPending() }
        do { return try body(w, a) } catch let e as StorageError where Self.failsTheWrite(e) {
            // The change may be half made: the write cannot be committed any more.
            throw writeFailed(e, while: "a change in it failed")
        }
    }

    /// Storage errors that leave a change half made (damaged or unreadable data, I/O, a full
    /// disk), as opposed to refused input, which changes nothing.
    static func failsTheWrite(_ e: StorageError) -> Bool {
        switch e {
        case .corrupted, .io, .diskFull: return true
        default: return false
        }
    }
    func write(_ body: (DBTransaction, ObjectAdder) throws -> Void) {
        do { try writeThrowing(body) } catch { trapUnlessWriteFailed(error) }
    }

    /// What a mutation that cannot throw does with its error: nothing when the write
    /// transaction has failed (`commitWrite` throws that failure), otherwise a trap (a
    /// programmer error, as in RealmSwift).
    func trapUnlessWriteFailed(_ error: Swift.Error) {
        if failedWrite != nil { return }
        strataProgrammerError("\(error)")
    }

    /// Called when a change of the write transaction failed half way (writing the objects
    /// queued by `add`, or a storage error in another change): the transaction is discarded now
    /// (nothing of it can be committed); reads see the last commit, and `commitWrite` throws
    /// the returned error.
    func writeFailed(_ error: Swift.Error, while what: String = "writing the objects added in it failed") -> Realm.Error {
        let e = Realm.Error.failed(code: Realm.Error.code(of: error),
                                   message: "The write transaction was cancelled and nothing of it was committed: \(what) (\(error)). Remove the cause (for a damaged file restore a backup or run `strata check` on it; for a full disk free space), then run the write again",
                                   path: coordinator.path, underlying: error)
        writeTxn?.abort()
        writeTxn = nil; adder = nil
        parkedRead?.end(); parkedRead = nil
        failedWrite = e
        generation &+= 1
        return e
    }

    var generationValue: Int { generation }

    func beginWrite() {
        do { try beginWriteUnlessHeld() } catch { strataProgrammerError("\(error)") }
    }

    /// `beginWrite`, throwing `StorageError.writeAlreadyOpenOnThisThread` (and staying out of a
    /// write) when this thread already writes to the file through another Realm or Database.
    func beginWriteUnlessHeld() throws {
        if isFrozen { strataProgrammerError("Cannot begin a write transaction on a frozen Realm") }
        verify()
        if isInWrite { strataProgrammerError("The Realm is already in a write transaction") }
        if hasPendingChanges && !delivering { _ = refresh() }
        do {
            beginWrite(using: try coordinator.db.write(label: "realm"))
        } catch let e as StorageError where e == .writeAlreadyOpenOnThisThread(path: coordinator.db.store.path) {
            throw e
        } catch {
            // The write cannot begin (a damaged block of the newest version, an I/O error): the
            // realm is in a failed write, as when a change fails — changes are ignored, reads
            // see the last commit, and `commitWrite` / `write` throw the error.
            _ = writeFailed(error, while: "the write transaction could not begin")
        }
    }

    /// Makes `w` (a write transaction of this core's database, its lock already held) the
    /// current transaction.
    func beginWrite(using w: DBTransaction) {
        verify()
        if isInWrite { w.abort(); strataProgrammerError("The Realm is already in a write transaction") }
        if let r = readTxn, r.version &+ 1 == w.version, let s = r.storage as? ReadTransaction {
            parkedRead?.end()
            parkedRead = s
        } else {
            readTxn?.end()
        }
        readTxn = nil
        writeTxn = w
        adder = ObjectAdder(core: self, txn: w)
        generation &+= 1
    }

    func commitWrite(skipping tokens: [NotificationToken]) throws {
        verify()
        if let f = failedWrite { failedWrite = nil; generation &+= 1; throw f }
        guard let w = writeTxn else { strataProgrammerError("Can't commit a non-existing write transaction") }
        let parked = parkedRead
        parkedRead = nil
        defer { writeTxn = nil; adder = nil; generation &+= 1 }
        let storage = w.storage as? WriteTransaction
        storage?.continuing = parked
        // Asked after the commit is published (a core created meanwhile on another thread is
        // registered by then, or reads the new version): with no other live core, nobody needs
        // the process's commit watcher woken for this commit.
        let me = Unmanaged.passUnretained(self).toOpaque()
        storage?.ownObserversNeedCommit = { [coordinator] in coordinator.hasLiveCore(otherThan: me) }
        do { try adder?.flushPending(); try w.commit() } catch {
            parked?.end()
            if let f = failedWrite { failedWrite = nil; throw f }
            w.abort()
            throw error
        }
        writeTxn = nil; adder = nil
        if let r = storage?.continuedRead {
            readTxn = DBTransaction(storage: r, schemaOf: w)
        } else {
            parked?.end()
            readTxn = strataTry { try coordinator.db.read(label: "realm") }
        }
        generation &+= 1
        deliver(skipping: Set(tokens.map(\.id)))
    }

    func cancelWrite() {
        verify()
        if failedWrite != nil { failedWrite = nil; generation &+= 1; return }
        guard let w = writeTxn else { strataProgrammerError("Can't cancel a non-existing write transaction") }
        w.abort()
        parkedRead?.end(); parkedRead = nil
        writeTxn = nil; adder = nil
        generation &+= 1
    }

    @discardableResult
    func refresh() -> Bool {
        if isFrozen { return false }
        verify()
        if isInWrite { return false }
        let old = readTxn?.version
        readTxn?.end()
        readTxn = strataTry { try coordinator.db.read(label: "realm") }
        generation &+= 1
        let changed = readTxn!.version != old
        deliver(skipping: [])
        return changed
    }

    /// Ends the read transaction (an open write is cancelled) and invalidates every object
    /// and collection obtained from this core so far (`readEpoch`). A frozen core keeps its
    /// version (it is shared by every frozen realm of that version): nothing happens.
    func invalidate() {
        if isFrozen { return }
        releaseRead()
        readEpoch &+= 1
    }

    /// Ends the read transaction (an open write is cancelled) without invalidating the
    /// objects obtained from this core: the next access reads the newest version (`compact`).
    func releaseRead() {
        verify()
        if isInWrite { cancelWrite() }
        readTxn?.end(); readTxn = nil
        generation &+= 1
    }

    /// Traps as RealmSwift does for an accessor used after `invalidate()`; `what` completes
    /// "Accessing …" ("object of type Dog which has been invalidated or deleted").
    @inline(never)
    func invalidatedAccess(_ what: @autoclosure () -> String) -> Never {
        strataProgrammerError("Accessing \(what()): its Realm was invalidated (realm.invalidate()) after it was obtained; get it again from the realm")
    }

    var hasPendingChanges: Bool {
        verify()
        observerLock.lock(); let initial = !pendingInitial.isEmpty; observerLock.unlock()
        guard let r = readTxn ?? writeTxn else { return initial }
        return initial || coordinator.db.store.publishedVersion > r.version
    }

    /// Blocks until another commit is seen or `timeout` passes. True when a commit was seen.
    func waitForChange(timeout: TimeInterval) -> Bool {
        verify()
        let deadline = DispatchTime.now() + timeout
        while true {
            let current = (readTxn ?? writeTxn)?.version ?? 0
            if coordinator.db.store.publishedVersion > current { return true }
            if changeSignal.wait(timeout: deadline) == .timedOut {
                return coordinator.db.store.publishedVersion > current
            }
        }
    }

    // MARK: typed reads

    /// The typed read cursor of live cores in a read transaction: the class table and the
    /// property → column map of the class read last. Valid while `typedGeneration` equals
    /// `generation`: a new read transaction, a write, a refresh or an invalidation bumps the
    /// generation, so a read never uses a table of another version.
    private var typedInfo: ClassInfo?
    private var typedTable: ClassTable?
    /// `typedInfo`'s identity and `typedTable` unretained (the hot path neither retains nor
    /// releases them; the strong references above keep them alive).
    private var typedInfoID: UnsafeMutableRawPointer?
    private var typedTableRef: Unmanaged<ClassTable>?
    private var typedColumns: [Int] = []
    private var typedGeneration = -1
    /// The columns (bit per column, the first 64) the typed reads of the cursor's class loaded
    /// from a cluster: after a primary-key lookup (`typedFind`) their values at the object's
    /// row are fetched together (`fetchRow`), so the property reads that follow do not each
    /// wait for memory in turn. Learned from the reads themselves, reset with the cursor.
    private var typedReadColumns: UInt64 = 0

    /// Reads property `index` of the object `key` of the typed class `info` straight from its
    /// column: `body` gets the column view and the row. Nil when this path does not apply (a
    /// frozen core, inside a write, a property that is not a plain single value, no such
    /// object, or `body` declined): the caller then takes the general read, which gives the
    /// same value or the same error. Checks the thread like every read.
    @inline(__always)
    func typedRead<R>(_ info: UnsafeMutableRawPointer, _ key: ObjKey, _ index: Int, _ body: (ColumnView, Int) -> R?) -> R? {
        verify()
        guard typedGeneration == generation, typedInfoID == info, let ref = typedTableRef,
              index < typedColumns.count else { return nil }
        let column = typedColumns[index]
        guard column >= 0 else { return nil }
        return ref._withUnsafeGuaranteedRef { t in
            if let (view, row) = t.lastReadView(key: key, column: column) { return body(view, row) }
            return typedReadMiss(t, key, column, body)
        }
    }

    /// The object is not in the cached cluster or its column was not read there yet: reads
    /// them into the table's cache (one tree search), then retries.
    @inline(never)
    private func typedReadMiss<R>(_ t: ClassTable, _ key: ObjKey, _ column: Int, _ body: (ColumnView, Int) -> R?) -> R? {
        guard (try? t.loadReadView(key: key, column: column)) == true,
              let (view, row) = t.lastReadView(key: key, column: column) else { return nil }
        if column < 64 { typedReadColumns |= 1 << UInt64(column) }
        return body(view, row)
    }

    /// After a primary-key lookup found `key` (its cluster is the table's read cache): loads the
    /// views of the columns typed reads of this class used (`typedReadColumns`) and touches the
    /// object's value in each, then the bytes of variable-length values, so the memory accesses
    /// of the reads that follow overlap instead of waiting one after another. Reads nothing the
    /// reads would not; errors are left to the reads (which report them).
    @inline(never)
    private func fetchRow(_ t: ClassTable, _ key: ObjKey) {
        var fetch = RowFetch(t)
        var mask = typedReadColumns
        while mask != 0 {
            let c = mask.trailingZeroBitCount
            mask &= mask - 1
            guard c < t.columns.count, (try? t.loadReadView(key: key, column: c)) == true,
                  let (v, row) = t.lastReadView(key: key, column: c) else { continue }
            fetch.touch(v, row)
        }
        fetch.finish()
    }

    /// Sets the typed read cursor to `info`'s class in the current read transaction (after
    /// `typedRead` returned nil). False when typed reads cannot take the direct path here.
    @inline(never)
    func prepareTypedRead(_ info: ClassInfo) -> Bool {
        // Frozen cores are read from any thread: their cursor fields are never written.
        guard !isFrozen else { return false }
        if typedGeneration == generation && typedInfo === info { return false }
        typedInfo = nil; typedTable = nil; typedInfoID = nil; typedTableRef = nil
        typedReadColumns = 0
        guard writeTxn == nil else { return false }
        let txn = currentTxn()
        guard let t = try? txn.table(info.className), t.isReadOnly else { return false }
        let names = info.properties.map(\.name)
        typedColumns = names.indices.map { t.typedColumn(info, $0) { names } }
        typedInfo = info; typedTable = t; typedGeneration = generation
        typedInfoID = Unmanaged.passUnretained(info).toOpaque(); typedTableRef = Unmanaged.passUnretained(t)
        return true
    }

    /// The object key of the Int primary key `key` of `info`'s class when its primary key is
    /// the object key, through the typed read cursor (no transaction closure, no search of the
    /// class table by name, no `Value`): `.some(nil)` when there is no such object; nil when
    /// this path does not apply (a frozen core, inside a write, another primary key, a read
    /// error) and `DBTransaction.find` must answer. Checks the thread like every read.
    @inline(__always)
    func typedFind(_ info: ClassInfo, intKey key: Int64) -> ObjKey?? {
        verify()
        if typedGeneration != generation || typedInfoID != Unmanaged.passUnretained(info).toOpaque() {
            guard prepareTypedRead(info) else { return nil }
        }
        guard let ref = typedTableRef else { return nil }
        return ref._withUnsafeGuaranteedRef { t -> ObjKey?? in
            guard t.usesPrimaryKeyAsObjectKey, let found = try? t.exists(key) else { return nil }
            if found && typedReadColumns != 0 { fetchRow(t, key) }
            return .some(found ? key : nil)
        }
    }

    // MARK: objects

    func makeObject<T: ObjectBase>(_ type: T.Type, key: ObjKey) -> T {
        let o = type.init()
        o._rlmCore = self
        o._rlmKey = key
        o._rlmEpoch = readEpoch
        o._rlmInfoCache = coordinator.infosByType[ObjectIdentifier(type)]
        return o
    }
    func makeObject(className: String, key: ObjKey) -> ObjectBase? {
        guard let t = coordinator.typesByName[className] else { return nil }
        return makeObject(t, key: key)
    }

    func frozenCore() -> RealmCore {
        if isFrozen { return self }
        let v = read { $0.version }
        return coordinator.frozenCore(atLeast: v)
    }
}
