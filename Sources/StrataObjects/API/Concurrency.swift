import Foundation
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

// Swift concurrency: actor-isolated realms, async open, asyncWrite/writeAsync, change streams
// and Sendable frozen snapshots. See README, "Threads, actors and Sendable".

// MARK: - is the current task running on an actor?

private typealias IsCurrentExecutorFn = @convention(c) (UnsafeRawPointer?, UInt, UInt64) -> Bool
/// The runtime's non-trapping executor check (`swift_task_isCurrentExecutorWithFlags`, flags 0),
/// found at run time; nil when this runtime does not export it.
private let isCurrentExecutorFn: IsCurrentExecutorFn? = {
    guard let h = dlopen(nil, RTLD_NOW), let sym = dlsym(h, "swift_task_isCurrentExecutorWithFlags") else { return nil }
    return unsafeBitCast(sym, to: IsCurrentExecutorFn.self)
}()

/// True/false when the runtime can tell whether code runs isolated to `actor`; nil otherwise.
func actorIsCurrent(_ actor: any Actor) -> Bool? {
    guard let fn = isCurrentExecutorFn, MemoryLayout<UnownedSerialExecutor>.size == 16 else { return nil }
    let (identity, impl) = unsafeBitCast(actor.unownedExecutor, to: (UnsafeRawPointer?, UInt).self)
    return fn(identity, impl, 0)
}

/// Carries a value the compiler cannot prove Sendable across an isolation boundary when the
/// protocol around it guarantees a single owner at a time (a write transaction handed from the
/// thread that waited for the lock to the realm's actor; a realm and its blocks handed to the
/// actor they belong to).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// A `writeAsync` on its way to the realm's actor, queue or thread (used there only).
final class QueuedWrite: @unchecked Sendable {
    let realm: Realm
    let block: () -> Void
    let done: ((Swift.Error?) -> Void)?
    let id: AsyncTransactionId
    init(realm: Realm, block: @escaping () -> Void, done: ((Swift.Error?) -> Void)?, id: AsyncTransactionId) {
        self.realm = realm; self.block = block; self.done = done; self.id = id
    }
}

// MARK: - opening

extension Realm {
    /// Opens the realm for the main actor (RealmSwift's `try await Realm()`): the file is
    /// opened, compacted (`shouldCompactOnLaunch`) and migrated on a background thread while the
    /// main actor keeps running; the realm is isolated to the main actor.
    @MainActor
    public init(configuration: Configuration = .defaultConfiguration) async throws {
        try await self.init(configuration: configuration, actor: MainActor.shared)
    }

    /// Opens the realm isolated to `actor` (the caller must be running on it): opening,
    /// compaction on launch and migration run on a background thread, so the actor is free
    /// meanwhile. The realm, its objects, results and collections may be used only on `actor`:
    /// handing them to another isolation domain is a compile-time error (`Realm` is not
    /// `Sendable`), and a use the compiler cannot see traps with a precise message.
    public init<A: Actor>(configuration: Configuration = .defaultConfiguration, actor: isolated A) async throws {
        let coordinator = try await Realm.openInBackground(configuration)
        self.init(core: coordinator.core(for: .actor(actor)))
    }

    /// Opens (or finds) the coordinator of `configuration` on a background thread.
    static func openInBackground(_ configuration: Configuration) async throws -> Coordinator {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Coordinator, Swift.Error>) in
            DispatchQueue.global(qos: .userInitiated).async {
                c.resume(with: Result { try Realm.Error.mapping(path: configuration.path) {
                    try Realm.copySeedFileIfNeeded(configuration)
                    return try Coordinator.open(configuration)
                } })
            }
        }
    }

    /// What the compaction asked for by `shouldCompactOnLaunch` did when this file was first
    /// opened in the process: nil when none ran; a failure says why it was refused (the file
    /// was open elsewhere).
    public var launchCompaction: Result<CompactionResult, Swift.Error>? { core.coordinator.launchCompaction }
}

// MARK: - asynchronous writes

/// Identifies a `writeAsync` (RealmSwift's `AsyncTransactionId`).
public typealias AsyncTransactionId = UInt32

extension Realm {
    /// Runs `block` in a write transaction and commits it, on the caller's actor (the realm's).
    /// While another thread or process holds the write lock the caller suspends — the wait
    /// happens on a background thread, never blocking a cooperative thread or the actor — and
    /// other work on the actor keeps running. An error thrown by `block` cancels the
    /// transaction and is rethrown.
    @discardableResult
    public func asyncWrite<Result>(isolation: isolated (any Actor)? = #isolation, _ block: () throws -> Result) async throws -> Result {
        try requireWritable()
        if core.isFrozen { strataProgrammerError("Cannot begin a write transaction on a frozen Realm") }
        core.verify()
        if core.isInWrite { strataProgrammerError("The Realm is already in a write transaction") }
        if core.hasPendingChanges && !core.delivering { core.refresh() }
        let db = core.coordinator.db
        let storage: WriteTransaction
        if let w = try db.store.tryBeginWrite(label: "realm") {
            storage = w
        } else if canResumeHere(isolation) {
            storage = try await Realm.waitForWriteLock(db.store, isolation: isolation).value
        } else {
            // A thread- or queue-confined realm used from a nonisolated task: resuming could
            // land on another thread, so wait on this one (like `write`).
            storage = try db.store.beginWrite(label: "realm")
        }
        core.beginWrite(using: try db.transaction(storage))
        let r: Result
        do { r = try block() } catch {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite() }
        return r
    }

    /// True when a suspension in `isolation` resumes where this realm may be used: its own
    /// actor, or the main actor for a realm of the main thread.
    private func canResumeHere(_ isolation: (any Actor)?) -> Bool {
        switch core.confinement {
        case .actor(let a): return isolation.map { ($0 as AnyObject) === (a as AnyObject) } ?? false
        case .thread(_, true): return isolation is MainActor
        default: return false
        }
    }

    /// Advances to the newest version and delivers pending notifications (RealmSwift's
    /// `asyncRefresh`). Beginning a read never waits for writers, so this does not suspend.
    @discardableResult
    public func asyncRefresh(isolation: isolated (any Actor)? = #isolation) async -> Bool { refresh() }

    /// Blocks a background thread (not the caller) until the write lock is free.
    /// The transaction passes through a lock (an explicit happens-before edge, which thread
    /// sanitizers also see) from the waiting thread to the caller.
    static func waitForWriteLock(_ store: Store, isolation: isolated (any Actor)?) async throws -> UncheckedSendable<WriteTransaction> {
        let slot = Locked<UncheckedSendable<WriteTransaction>?>(nil)
        try await withCheckedThrowingContinuation(isolation: isolation) { (c: CheckedContinuation<Void, Swift.Error>) in
            Thread.detachNewThread {
                do {
                    let w = try store.beginWrite(label: "realm")
                    slot.with { $0 = UncheckedSendable(w) }
                    c.resume()
                } catch { c.resume(throwing: error) }
            }
        }
        return slot.with { $0! }
    }

    /// Queues a write (RealmSwift's `writeAsync`): waits for the write lock off the realm's
    /// thread/actor, then runs `block` and commits on the realm's actor, serial queue or the
    /// main thread, and calls `onComplete` there with nil or the error. A realm confined to a
    /// plain thread (no run loop to come back to) runs it at once, synchronously.
    @discardableResult
    public func writeAsync(_ block: @escaping () -> Void, onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        if core.isFrozen { strataProgrammerError("Cannot begin a write transaction on a frozen Realm") }
        core.verify()
        let id: AsyncTransactionId = core.asyncWrites.with { s in
            let id = s.next; s.next &+= 1; s.pending.insert(id); return id
        }
        let realm = QueuedWrite(realm: self, block: block, done: onComplete, id: id)
        switch core.confinement {
        case .actor(let a):
            Task { await Realm.runQueuedWriteOnActor(a, realm) }
        case .queue(let q, _):
            let store = core.coordinator.db.store
            Thread.detachNewThread {
                let w = Locked(UncheckedSendable<WriteTransaction?>(nil))
                let t = try? store.beginWrite(label: "realm")
                w.with { $0 = UncheckedSendable(t) }
                q.async { Realm.runQueuedWrite(realm.realm, w.with { $0.value }, realm.block, realm.done, realm.id) }
            }
        case .thread(_, true):
            let store = core.coordinator.db.store
            Thread.detachNewThread {
                let w = Locked(UncheckedSendable<WriteTransaction?>(nil))
                let t = try? store.beginWrite(label: "realm")
                w.with { $0 = UncheckedSendable(t) }
                DispatchQueue.main.async { Realm.runQueuedWrite(realm.realm, w.with { $0.value }, realm.block, realm.done, realm.id) }
            }
        default:
            Realm.runQueuedWrite(self, nil, block, onComplete, id)
        }
        return id
    }

    /// The body of a queued write on the realm's queue or thread (the lock already taken when
    /// `storage` is given).
    static func runQueuedWrite(_ realm: Realm, _ storage: WriteTransaction?, _ block: () -> Void, _ done: ((Swift.Error?) -> Void)?, _ id: AsyncTransactionId) {
        let cancelled = realm.core.asyncWrites.with { s -> Bool in
            s.pending.remove(id)
            return s.cancelled.remove(id) != nil
        }
        if cancelled { storage?.abort(); return }
        do {
            try realm.requireWritable()
            if let storage {
                realm.core.beginWrite(using: try realm.core.coordinator.db.transaction(storage))
            } else { realm.beginWrite() }
            block()
            if realm.isInWriteTransaction { try realm.commitWrite() }
            done?(nil)
        } catch {
            if realm.isInWriteTransaction { realm.cancelWrite() }
            done?(error)
        }
    }

    /// The body of a queued write of an actor-isolated realm.
    static func runQueuedWriteOnActor(_ actor: isolated any Actor,
                                      _ box: QueuedWrite) async {
        let realm = box.realm, block = box.block, done = box.done, id = box.id
        let cancelled = realm.core.asyncWrites.with { s -> Bool in s.pending.remove(id); return s.cancelled.remove(id) != nil }
        if cancelled { return }
        do {
            try await realm.asyncWrite(block)
            done?(nil)
        } catch { done?(error) }
    }

    /// Cancels a queued `writeAsync` whose block has not started (RealmSwift's `cancelAsyncWrite`).
    public func cancelAsyncWrite(_ id: AsyncTransactionId) throws {
        core.verify()
        let ok = core.asyncWrites.with { s -> Bool in
            guard s.pending.contains(id) else { return false }
            s.cancelled.insert(id); return true
        }
        if !ok { throw Error.invalidConfiguration("no queued asynchronous write with id \(id) (it already ran or was cancelled)") }
    }

    /// True while `writeAsync` blocks are queued.
    public var isPerformingAsynchronousWriteOperations: Bool { core.asyncWrites.with { !$0.pending.isEmpty } }
}


// MARK: - change streams

extension Results {
    /// The changes of these results as an `AsyncStream` (first `.initial`, then `.update` after
    /// each commit that changes them), delivered where the realm is used — its actor, queue or
    /// the main thread — for `for await` there. Ending the loop (or dropping the stream) stops
    /// the observation.
    public func changes(keyPaths: [String]? = nil) -> AsyncStream<RealmCollectionChange<Results<Element>>> {
        let (stream, continuation) = AsyncStream.makeStream(of: RealmCollectionChange<Results<Element>>.self)
        // Produced and consumed where the realm is confined (its actor, queue or thread).
        let token = observe(keyPaths: keyPaths) { change in
            nonisolated(unsafe) let c = change
            continuation.yield(c)
        }
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }
}

extension Results {
    /// Observes these results from `actor` (RealmSwift's `observe(keyPaths:on:_:)` for
    /// actors): `block` runs isolated to `actor` with results of a realm isolated to it, first
    /// with `.initial`, then after each commit that changes them. The results may belong to
    /// any realm of the same file (another actor's, a thread's).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Results<Element>>) -> Void) async -> NotificationToken {
        if valueCore != nil {
            return core.core.addCollectionObserver(ValueResultsSource(results: self), keyPaths: nil, actor: actor) { change in
                nonisolated(unsafe) let c = change
                actor.assumeIsolated { a in block(a, c) }
            }
        }
        return core.core.addCollectionObserver(ResultsSource(results: self), keyPaths: keyPaths, actor: actor) { change in
            nonisolated(unsafe) let c = change
            actor.assumeIsolated { a in block(a, c) }
        }
    }
}

extension Map {
    /// Observes this map from `actor` (RealmSwift's `observe(keyPaths:on:_:)` for actors):
    /// `block` runs isolated to `actor` with the map as read by a realm isolated to it, first
    /// with `.initial`, then after each commit that changes it (see `observe(keyPaths:on:_:)`
    /// for what `keyPaths` selects).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmMapChange<Map<Key, Value>>) -> Void) async -> NotificationToken {
        guard let o = owner else { strataProgrammerError("only managed maps can be observed") }
        o.requireValid()
        return o.core.addMapObserver(self, owner: o, keyPaths: keyPaths, actor: actor) { change in
            nonisolated(unsafe) let c = change
            actor.assumeIsolated { a in block(a, c) }
        }
    }
}

extension ThreadConfined where Self: Object {
    /// Observes this object from `actor`: `block` runs isolated to `actor` with the object as
    /// read by a realm isolated to it (see `Results.observe(keyPaths:on:_:)`).
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A, isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        guard let core = _rlmCore else { strataProgrammerError("only managed objects can be observed: add the object to a realm first") }
        return core.addObjectObserver(self, keyPaths: keyPaths, actor: actor) { (change: ObjectChange<Self>) in
            nonisolated(unsafe) let c = change
            actor.assumeIsolated { a in block(a, c) }
        }
    }

    /// The changes of this object as an `AsyncStream` (property changes, then `.deleted` and
    /// the end of the stream). Delivered like `Results.changes`.
    public func changes(keyPaths: [String]? = nil) -> AsyncStream<ObjectChange<Self>> {
        let (stream, continuation) = AsyncStream.makeStream(of: ObjectChange<Self>.self)
        let token = observe(keyPaths: keyPaths) { (change: ObjectChange<Self>) in
            nonisolated(unsafe) let c = change
            continuation.yield(c)
            if case .deleted = change { continuation.finish() }
        }
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }
}

extension Realm {
    /// Realm notifications (`.didChange` after each commit seen) as an `AsyncStream`.
    public var notifications: AsyncStream<Notification> {
        let (stream, continuation) = AsyncStream.makeStream(of: Notification.self)
        let token = observe { n, _ in continuation.yield(n) }
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }
}

// MARK: - Sendable snapshots

/// Values that have an immutable, thread-independent form.
public protocol Freezable {
    /// A frozen copy: an immutable snapshot of the current version, readable from any thread.
    func freeze() -> Self
    /// True when this value is a frozen snapshot.
    var isFrozen: Bool { get }
    /// Finishes lazy state so that concurrent reads mutate nothing.
    func _strataPrepareForSharing()
}
extension Freezable { public func _strataPrepareForSharing() {} }

extension Realm: Freezable {}
extension Results: Freezable {}
extension Object: Freezable {
    public func _strataPrepareForSharing() { _ = _rlmClassInfo }
}

/// A frozen object, results or realm as a `Sendable` value: read it from any task, thread or
/// actor at once (reads of one frozen version are serialised per snapshot internally). Live
/// objects are deliberately not `Sendable`: pass them with `ThreadSafeReference`.
///
/// ```swift
/// let snapshot = Frozen(person)               // freezes a live object
/// await withTaskGroup(of: String.self) { g in
///     for _ in 0..<8 { g.addTask { snapshot.name } }   // dynamic member lookup
/// }
/// ```
@dynamicMemberLookup
public struct Frozen<Value: Freezable>: @unchecked Sendable {
    /// The frozen value.
    public let value: Value
    /// Freezes `value` (a live one is frozen at its realm's current version).
    public init(_ value: Value) {
        let v = value.isFrozen ? value : value.freeze()
        v._strataPrepareForSharing()
        self.value = v
    }
    /// Reads a property of the frozen value: `Frozen(person).name`.
    public subscript<T>(dynamicMember keyPath: KeyPath<Value, T>) -> T { value[keyPath: keyPath] }
}

extension ThreadSafeReference {
    /// Resolves the reference on a realm isolated to the current actor (convenience for
    /// `realm.resolve(self)`).
    public func resolve(in realm: Realm) -> Confined? { realm.resolve(self) }
}

/// `Realm` and everything read from it are confined: never `Sendable`.
@available(*, unavailable, message: "a Realm is confined to its thread or actor: pass a ThreadSafeReference, a Frozen snapshot or the Configuration instead")
extension Realm: Sendable {}

// MARK: - compaction and copies

extension Realm {
    /// Writes a compacted copy of the newest version to `fileURL`, which must not exist
    /// (RealmSwift's `writeCopy(toFile:encryptionKey:)`); other handles keep working meanwhile.
    /// The copy is encrypted with `encryptionKey` (64 bytes), or unencrypted when it is nil —
    /// so this encrypts, re-keys or decrypts.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        core.verify()
        if let k = encryptionKey, k.count != 64 {
            throw Error.invalidConfiguration("encryptionKey must be 64 bytes (an AES-256 key, then an HMAC-SHA-256 key), not \(k.count)")
        }
        try core.coordinator.db.store.writeCopy(toPath: fileURL.path, encryptionKey: encryptionKey.map { [UInt8]($0) })
    }

    /// Rewrites the file with only its live data and gives the rest back to the file system
    /// (what `shouldCompactOnLaunch` triggers). This realm stops reading its version first.
    /// Refused with a reason when another handle or process has the file open
    /// (`StorageError.fileInUse`), when this realm is in a write transaction, or when other
    /// realms of this process pin versions (other threads' realms, frozen realms).
    @discardableResult
    public func compact() throws -> CompactionResult {
        core.verify()
        if isInWriteTransaction { throw CompactionError.writeTransactionInProgress(path: core.coordinator.path) }
        if configuration.readOnly { throw CompactionError.notWritable(path: core.coordinator.path) }
        core.releaseRead()
        return try core.coordinator.db.store.compact()
    }
}
