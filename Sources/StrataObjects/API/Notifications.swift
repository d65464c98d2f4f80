import Foundation
import StrataStorage

/// Keeps an observation alive: notifications stop when it is invalidated or released.
///
/// How notifications are delivered:
/// - with `on: queue` they run on that serial queue (the collection or object handed to the
///   block belongs to that queue);
/// - otherwise on the thread that registered: on the main thread through the main dispatch
///   queue (a `RunLoop.main.run()`/`dispatchMain()` loop, or XCTest waiting, drains it); on
///   other threads when that thread calls `realm.refresh()` — a terminal UI loop checks the
///   cheap `realm.hasPendingChanges` each turn (or blocks in `realm.waitForChange(timeout:)`).
/// Commits by other processes are seen through the lock file's commit futex within
/// milliseconds, with no CPU use while idle.
public final class NotificationToken: @unchecked Sendable {
    let id: UInt64
    private let lock = NSLock()
    private var core: RealmCore?
    init(core: RealmCore, id: UInt64) { self.core = core; self.id = id }

    /// Stops delivery (from any thread).
    public func invalidate() {
        lock.lock(); let c = core; core = nil; lock.unlock()
        c?.removeObserver(id)
    }
    deinit { invalidate() }
}

/// A change to a collection (RealmSwift's `RealmCollectionChange`). Deletions and
/// modifications are indexes in the previous version of the collection, insertions indexes
/// in the new one; a moved object is a deletion and an insertion.
public enum RealmCollectionChange<CollectionType> {
    /// The collection as it was when the observer was registered (delivered once, first).
    case initial(CollectionType)
    /// The collection after a commit, with the indexes that changed.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The observation failed and will deliver nothing more.
    case error(Swift.Error)
}

/// A change to a `Map` (RealmSwift's `RealmMapChange`): keys deleted, inserted and modified.
public enum RealmMapChange<Collection> {
    /// The map as it was when the observer was registered (delivered once, first).
    case initial(Collection)
    /// The map after a commit, with the keys deleted, inserted and modified.
    case update(Collection, deletions: [String], insertions: [String], modifications: [String])
    /// The observation failed and will deliver nothing more.
    case error(Swift.Error)
}

/// One changed property of an observed object; values are nil for collections.
public struct PropertyChange {
    /// The property name.
    public let name: String
    /// The value before the commit (nil for collections and deleted links).
    public let oldValue: Any?
    /// The value after the commit (nil for collections).
    public let newValue: Any?
}

/// A change to an observed object (RealmSwift's `ObjectChange`).
public enum ObjectChange<T> {
    /// The observation failed and will deliver nothing more.
    case error(Swift.Error)
    /// The object changed; the properties that changed, with old and new values.
    case change(T, [PropertyChange])
    /// The object was deleted; no more notifications follow.
    case deleted
}

protocol CoreObserver: AnyObject {
    func deliverInitial(_ pass: PrintPass)
    func deliverChanges(notify: Bool, _ pass: PrintPass)
}

/// The deep fingerprints (`WatchedPaths.deepFingerprint`) taken during one delivery pass of a
/// realm, shared by its observers: observers watching the same paths (every observer of a
/// class without key paths) hash each linked object once per pass, not once each. Entries
/// hold for one version; `begin` empties them when the version moved (a callback committed).
final class PrintPass {
    private var version: UInt64 = .max
    var memo: [WatchedPaths.PrintKey: Int] = [:]
    func begin(_ v: UInt64) { if v != version { version = v; memo = [:] } }
}

// MARK: - registration and delivery

extension RealmCore {
    private func register(_ o: CoreObserver) -> NotificationToken {
        observerLock.lock()
        let id = nextObserverID; nextObserverID += 1
        observers[id] = o
        pendingInitial.insert(id)
        observerLock.unlock()
        scheduleDelivery(initialOnly: true)
        return NotificationToken(core: self, id: id)
    }

    func removeObserver(_ id: UInt64) {
        // The entries are taken out under the lock and released after it: releasing a callback
        // can release a token it captured, whose `invalidate()` takes this (non-recursive) lock.
        observerLock.lock()
        let observer = observers.removeValue(forKey: id)
        let realmObserver = realmObservers.removeValue(forKey: id)
        pendingInitial.remove(id)
        observerLock.unlock()
        withExtendedLifetime((observer, realmObserver)) {}
    }

    /// The core that delivers for `queue` (self when nil).
    private func deliveryCore(_ queue: DispatchQueue?) -> RealmCore {
        guard let queue else {
            verify()
            if isFrozen { strataProgrammerError("Frozen Realms do not change and cannot be observed") }
            return self
        }
        return coordinator.core(for: .forQueue(queue))
    }

    func addRealmObserver(_ block: @escaping (Realm.Notification, Realm) -> Void) -> NotificationToken {
        verify()
        if isFrozen { strataProgrammerError("Frozen Realms do not change and cannot be observed") }
        observerLock.lock()
        let id = nextObserverID; nextObserverID += 1
        realmObservers[id] = block
        observerLock.unlock()
        return NotificationToken(core: self, id: id)
    }

    /// Registers on the realm of `actor` (created for it when needed); delivery runs there.
    func addCollectionObserver<S: CollectionSource>(_ source: S, keyPaths: [String]?, actor: any Actor,
                                                    _ block: @escaping (RealmCollectionChange<S.C>) -> Void) -> NotificationToken {
        let watched = source.objectClassName.map { watchedPaths(keyPaths, className: $0) }
        let target = coordinator.core(for: .actor(actor))
        return target.register(CollectionObserver(source: source.rebound(to: target), core: target, keyPaths: keyPaths, watched: watched, block: block))
    }

    func addMapObserver<K, V>(_ map: Map<K, V>, owner: CollectionOwner, keyPaths: [String]?, actor: any Actor,
                              _ block: @escaping (RealmMapChange<Map<K, V>>) -> Void) -> NotificationToken {
        let watched = owner.linkTarget.map { watchedPaths(keyPaths, className: $0) }
        let target = coordinator.core(for: .actor(actor))
        let o = CollectionOwner(core: target, className: owner.className, key: owner.key, property: owner.property, isEmbeddedTarget: owner.isEmbeddedTarget)
        return target.register(MapObserver<K, V>(owner: o, watched: watched, block: block))
    }

    func addObjectObserver<T: Object>(_ object: T, keyPaths: [String]?, actor: any Actor,
                                      _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        let watched = watchedPaths(keyPaths, className: object._rlmClassInfo.className)
        let target = coordinator.core(for: .actor(actor))
        return target.register(ObjectObserver(object: sameObject(object, in: target), core: target, watched: watched, block: block))
    }

    func addCollectionObserver<S: CollectionSource>(_ source: S, keyPaths: [String]?, queue: DispatchQueue?,
                                                    _ block: @escaping (RealmCollectionChange<S.C>) -> Void) -> NotificationToken {
        let watched = source.objectClassName.map { watchedPaths(keyPaths, className: $0) }
        let target = deliveryCore(queue)
        return target.register(CollectionObserver(source: source.rebound(to: target), core: target, keyPaths: keyPaths, watched: watched, block: block))
    }

    /// `keyPaths` (maps of objects) name properties of the values' class, dotted through links,
    /// as for lists: only changes of those count as modifications of a key (an unknown property
    /// traps, naming it). Without key paths every property counts, and changes of linked objects
    /// up to four links away.
    func addMapObserver<K, V>(_ map: Map<K, V>, owner: CollectionOwner, keyPaths: [String]?, queue: DispatchQueue?,
                              _ block: @escaping (RealmMapChange<Map<K, V>>) -> Void) -> NotificationToken {
        let watched = owner.linkTarget.map { watchedPaths(keyPaths, className: $0) }
        let target = deliveryCore(queue)
        let o = CollectionOwner(core: target, className: owner.className, key: owner.key, property: owner.property, isEmbeddedTarget: owner.isEmbeddedTarget)
        return target.register(MapObserver<K, V>(owner: o, watched: watched, block: block))
    }

    func addObjectObserver<T: Object>(_ object: T, keyPaths: [String]?, queue: DispatchQueue?,
                                      _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        let watched = watchedPaths(keyPaths, className: object._rlmClassInfo.className)
        let target = deliveryCore(queue)
        let obj = target === self ? object : sameObject(object, in: target)
        return target.register(ObjectObserver(object: obj, core: target, watched: watched, block: block))
    }

    /// `object` as an accessor of `target`'s realm, of the object's own class: `T` may be a
    /// base class (`Object` for an observer closure without a type annotation), which cannot
    /// be instantiated.
    private func sameObject<T: Object>(_ object: T, in target: RealmCore) -> T {
        target.makeObject(type(of: object), key: object._rlmKey, className: object._rlmClassInfo.className)
    }

    /// Called on the watcher thread after each commit (any process).
    func commitSeen(_ version: UInt64) {
        changeSignal.signal()
        scheduleDelivery(initialOnly: false)
    }

    /// Arranges for `deliverScheduled` to run in this core's context (main queue, its queue),
    /// or leaves it to the next `refresh()` for plain threads.
    func scheduleDelivery(initialOnly: Bool) {
        if isFrozen { return }
        observerLock.lock()
        let hasObservers = !observers.isEmpty || !realmObservers.isEmpty
        let already = deliveryScheduled
        var isMain = false
        if case .thread(_, let m) = confinement { isMain = m }
        if case .actor = confinement { isMain = true } // actor realms refresh by themselves too
        let wanted = hasObservers || (isMain && autorefresh && !initialOnly)
        if wanted && !already { deliveryScheduled = true }
        observerLock.unlock()
        guard wanted && !already else { return }
        switch confinement {
        // `selfReference`, not `[weak self]`: a weak reference would give the core a side table
        // (see `CoreReference`).
        case .thread(_, true): DispatchQueue.main.async { [ref = selfReference!] in ref.core?.deliverScheduled() }
        case .queue(let q, _): q.async { [ref = selfReference!] in ref.core?.deliverScheduled() }
        case .actor(let a):
            Task { [ref = selfReference!] in await deliverIsolated(to: a, ref.core) }
        default:
            observerLock.lock(); deliveryScheduled = false; observerLock.unlock()
        }
    }

    func deliverScheduled() {
        observerLock.lock(); deliveryScheduled = false; observerLock.unlock()
        if isInWrite { return }
        if autorefresh {
            refresh()
        } else {
            let published = coordinator.db.store.publishedVersion
            let current = read { $0.version }
            if published > current && published > lastNotifiedVersion {
                lastNotifiedVersion = published
                observerLock.lock(); let ros = realmObservers.sorted { $0.key < $1.key }.map(\.value); observerLock.unlock()
                for b in ros { b(.refreshRequired, Realm(core: self)) }
            }
            deliver(skipping: [], changes: false)
        }
    }

    /// Delivers initial notifications and, with `changes`, the changes since each observer's
    /// last snapshot, then `.didChange` to realm observers when the version moved.
    func deliver(skipping: Set<UInt64>, changes: Bool = true) {
        if delivering { deliverAgain = true; return }
        delivering = true
        defer { delivering = false }
        let pass = PrintPass()
        repeat {
            deliverAgain = false
            observerLock.lock()
            let ids = observers.keys.sorted()
            observerLock.unlock()
            for id in ids {
                observerLock.lock()
                let o = observers[id]
                let initial = pendingInitial.remove(id) != nil
                observerLock.unlock()
                guard let o else { continue }
                if initial { o.deliverInitial(pass) } else if changes { o.deliverChanges(notify: !skipping.contains(id), pass) }
            }
            let v = read { $0.version }
            if changes && v != lastNotifiedVersion {
                lastNotifiedVersion = v
                // `write(withoutNotifying:)` skips the realm observers it lists too, as RealmSwift.
                observerLock.lock()
                let ros = realmObservers.filter { !skipping.contains($0.key) }.sorted { $0.key < $1.key }.map(\.value)
                observerLock.unlock()
                for b in ros { b(.didChange, Realm(core: self)) }
            }
        } while deliverAgain && !isInWrite
    }
}

// MARK: - collection observers

/// What a collection observer watches: a `Results`, `List` or `MutableSet`.
protocol CollectionSource {
    associatedtype C
    var collection: C { get }
    /// The elements now (objects as `.object` links).
    func elements(_ txn: DBTransaction) throws -> [Value]
    /// True when elements never repeat (results, sets): the diff is then O(n log n).
    var uniqueElements: Bool { get }
    /// For `Results`: their pipeline (the observer then keeps object keys and updates them
    /// from the change records).
    var resultsCore: ResultsCore? { get }
    /// The class of the objects in the collection (nil for values): key paths are resolved
    /// against it, and changes of the objects it links to count as modifications.
    var objectClassName: String? { get }
    func rebound(to core: RealmCore) -> Self
}

extension CollectionSource {
    var resultsCore: ResultsCore? { nil }
    var objectClassName: String? { nil }
}

/// A `ResultsStage` that can say its output depends on each object's own values only: a
/// predicate on the object's properties and a stable sort by them (no links followed, no
/// DISTINCT, no LIMIT). Then the stage applied to any key-ordered subset of objects gives the
/// subset's members in the order they have in the full output, so a notification for a few
/// changed objects needs only those objects (and O(log n) two-object comparisons each).
package protocol LocalResultsStage: ResultsStage {
    /// True when the stage qualifies (see the protocol).
    var dependsOnlyOnEachObject: Bool { get }
    /// True when the stage may read a mixed value. One holding a link reads as null while the
    /// linked object does not exist, and as the object again when an object with that key is
    /// added back (a primary key gives the same key): an insert or delete of any class's
    /// objects, the results' own included, can then change the output for an unchanged object.
    var readsMixedValues: Bool { get }
}

/// Updates filtered and sorted results over every object of a class from the change records
/// alone, for stages that depend only on each object (`LocalResultsStage`): the unchanged
/// objects keep their relative order, so only the changed objects move. Their old positions
/// come from one pass over the old keys; their new membership and order from the stages applied
/// to them alone; their new positions from binary searches among the unchanged objects,
/// comparing two objects at a time through the stages. `Results` notifications and the
/// browser's cached filters (StrataTooling's `DatabaseDataSource`) both use it.
package enum LocalResultsUpdate {
    /// Beyond this many changed objects of the class, filtered or sorted results are
    /// re-evaluated instead of updated object by object.
    package static var changeLimit: Int { 256 }

    /// True when `changes` (the merged records since the results were evaluated) can update
    /// results of `stages` over every object of `className` object by object: no class was
    /// rewritten, every stage depends only on each object, and no other class lost objects.
    /// Inserts and modifications elsewhere leave such results alone, except when a stage reads
    /// mixed values: a mixed value holding a link reads as null while its target is gone and as
    /// the object again once an object with that key is added back, so then no class (the
    /// results' own included) may have gained or lost objects; modifications never matter.
    package static func applies(to stages: [any ResultsStage], className: String, changes: [String: ClassChangeSet]) -> Bool {
        if changes.values.contains(where: \.rewritten) { return false }
        var readsMixed = false
        for s in stages {
            guard let l = s as? any LocalResultsStage, l.dependsOnlyOnEachObject else { return false }
            if l.readsMixedValues { readsMixed = true }
        }
        if readsMixed { return changes.values.allSatisfy { $0.inserted.isEmpty && $0.deleted.isEmpty } }
        return changes.allSatisfy { name, c in name == className || c.deleted.isEmpty }
    }

    /// Where the changed objects went.
    package struct Placement {
        /// The results now.
        package var keys: [ObjKey]
        /// The objects the records name (inserted, deleted or modified).
        package var changed: Set<ObjKey>
        /// The old positions of the changed objects that were in the results, ascending.
        package var oldChanged: [Int]
        /// The changed objects in the results now, in their order.
        package var passing: [ObjKey]
        /// For each of `passing`: how many unchanged objects precede it now.
        package var gaps: [Int]
        /// The position now of each of `passing`.
        package var newPosition: [ObjKey: Int]
    }

    /// The results `old` (evaluated before the changes `changes` of `className`) after them, in
    /// `txn`; the caller checked ``applies(to:className:changes:)``. Nil when the records name
    /// more than ``changeLimit`` objects or a stage fails: then re-evaluate. Time: one pass over
    /// `old`, plus O(log n) two-object stage runs per changed object.
    package static func place(_ old: [ObjKey], className: String, stages: [any ResultsStage],
                              changes set: ClassChangeSet, in txn: DBTransaction) -> Placement? {
        let changed = set.inserted.union(set.deleted).union(set.modifiedKeys(properties: nil))
        guard changed.keyCount <= changeLimit else { return nil }
        let changedKeys = changed.keys
        if changedKeys.isEmpty { return Placement(keys: old, changed: [], oldChanged: [], passing: [], gaps: [], newPosition: [:]) }
        func pipeline(_ keys: [ObjKey]) throws -> [ObjKey] {
            var ks = keys
            for s in stages { ks = try s.apply(to: ks, className: className, in: txn) }
            return ks
        }
        // 1. Where the changed objects were (a bit filter spares most hash lookups).
        var bits = [UInt64](repeating: 0, count: 64)
        @inline(__always) func slot(_ k: ObjKey) -> Int { Int(truncatingIfNeeded: (UInt64(bitPattern: k) &* 0x9E37_79B9_7F4A_7C15) >> 52) }
        for k in changedKeys { let b = slot(k); bits[b >> 6] |= 1 << UInt64(b & 63) }
        let changedSet = Set(changedKeys)
        var oldPosition: [ObjKey: Int] = [:]
        old.withUnsafeBufferPointer { buf in
            bits.withUnsafeBufferPointer { bp in
                for i in 0..<buf.count {
                    let k = buf[i], b = slot(k)
                    if bp[b >> 6] & (1 << UInt64(b & 63)) != 0, changedSet.contains(k) { oldPosition[k] = i }
                }
            }
        }
        // 2. The unchanged objects, in order.
        let oldChanged = oldPosition.values.sorted()
        var base: [ObjKey] = []
        base.reserveCapacity(old.count - oldChanged.count)
        var from = 0
        for p in oldChanged { base.append(contentsOf: old[from..<p]); from = p + 1 }
        base.append(contentsOf: old[from...])
        // 3. The changed objects that are in the new results, in their new relative order, and
        //    the gap among the unchanged objects each one falls into.
        guard let passing = try? pipeline(changedKeys.filter { (try? txn.exists(className, $0)) == true }) else { return nil }
        var gaps: [Int] = []
        gaps.reserveCapacity(passing.count)
        for k in passing {
            // First unchanged object that comes after k.
            var lo = gaps.last ?? 0, hi = base.count
            while lo < hi {
                let m = (lo + hi) >> 1, b = base[m]
                guard let order = try? pipeline(k < b ? [k, b] : [b, k]), order.count == 2 else { return nil }
                if order[0] == b { lo = m + 1 } else { hi = m }
            }
            gaps.append(lo)
        }
        // 4. The new order.
        var new: [ObjKey] = []
        new.reserveCapacity(base.count + passing.count)
        var newPosition: [ObjKey: Int] = [:]
        var at = 0
        for (k, g) in zip(passing, gaps) {
            new.append(contentsOf: base[at..<g]); at = g
            newPosition[k] = new.count
            new.append(k)
        }
        new.append(contentsOf: base[at...])
        return Placement(keys: new, changed: changedSet, oldChanged: oldChanged, passing: passing, gaps: gaps, newPosition: newPosition)
    }
}

/// A stable hash of an object's stored values (the given properties, or all), to tell which
/// objects changed between two versions.
func rowFingerprint(_ txn: DBTransaction, _ link: ObjectLink, properties: Set<String>?) -> Int {
    guard let os = txn.schema[link.className] else { return 0 }
    var h = Hasher()
    for p in os.storedProperties where properties?.contains(p.name) ?? true {
        switch p.collection {
        case .single: h.combine((try? txn.value(link.className, link.key, p.name)) ?? .null)
        case .list, .set: h.combine((try? txn.list(link.className, link.key, p.name)) ?? [])
        case .map: for e in (try? txn.map(link.className, link.key, p.name)) ?? [] { h.combine(e.key); h.combine(e.value) }
        }
    }
    return h.finalize()
}

final class CollectionObserver<S: CollectionSource>: CoreObserver {
    let source: S
    unowned let core: RealmCore
    let properties: Set<String>?
    let block: (RealmCollectionChange<S.C>) -> Void
    var lastElements: [Value] = []
    /// Fingerprints of the objects in `lastElements`, for the full comparison when the change
    /// records do not reach back to `lastVersion`; nil for large collections (then every kept
    /// object counts as modified in that rare case).
    var lastPrints: [Int]?
    var lastGeneration = -1
    /// The version `lastElements` was read at.
    var lastVersion: UInt64 = 0
    /// Collections up to this size keep fingerprints for the fallback comparison.
    static var fingerprintLimit: Int { 50_000 }
    /// For `Results`: their evaluation, kept as object keys (`lastElements` stays empty).
    let keyed: ResultsCore?
    var lastKeys: [ObjKey] = []

    /// For collections of objects: what is watched in them and the objects they link to.
    let watched: WatchedPaths?
    /// Collections up to this size read their objects' links directly to find the objects a
    /// linked change reaches; larger ones walk back through `linkIndexes`.
    static var directLinkLimit: Int { 1_000 }
    let linkIndexes = LinkIndexes()

    init(source: S, core: RealmCore, keyPaths: [String]?, watched: WatchedPaths?, block: @escaping (RealmCollectionChange<S.C>) -> Void) {
        self.source = source; self.core = core; self.block = block; self.watched = watched
        properties = watched.map(\.properties) ?? keyPaths.map { Set($0.map { String($0.split(separator: ".").first ?? "") }) }
        keyed = source.resultsCore
    }

    /// The objects of the collection's class modified through their links (see `WatchedPaths`).
    private func linkedModified(_ txn: DBTransaction, _ changes: [String: ClassChangeSet], candidates: [ObjKey]) -> Set<ObjKey> {
        linkIndexes.advance(txn, changes)
        guard let watched, watched.mayHaveLinkedChanges(changes) else { return [] }
        let c: [ObjKey]? = candidates.count <= Self.directLinkLimit ? candidates : nil
        return watched.linkedChanges(changes, txn, candidates: c, indexes: linkIndexes).values.reduce(into: Set<ObjKey>()) { $0.formUnion($1) }
    }

    /// Adds to `u`'s modifications the old indexes of `linked` objects that stayed.
    private static func addingLinked(_ u: ([Int], [Int], [Int]), old: [ObjKey], _ linked: Set<ObjKey>) -> ([Int], [Int], [Int]) {
        guard !linked.isEmpty else { return u }
        let deleted = Set(u.0)
        var mods = Set(u.2)
        for (i, k) in old.enumerated() where linked.contains(k) && !deleted.contains(i) { mods.insert(i) }
        return (u.0, u.1, mods.sorted())
    }

    /// The delivery pass under way (its deep fingerprints are shared with the other observers).
    private var pass: PrintPass?

    /// The fingerprint of one object: its watched own values and, when links are watched, what
    /// it reaches through them (`WatchedPaths.deepFingerprint`), so the full comparison sees a
    /// change of a linked object as a modification as the change records do.
    private func fingerprint(_ txn: DBTransaction, _ link: ObjectLink) -> Int {
        if let w = watched, w.followsLinks, w.className == link.className {
            let p = pass ?? PrintPass()
            p.begin(txn.version)
            return w.deepFingerprint(txn, link.key, memo: &p.memo)
        }
        return rowFingerprint(txn, link, properties: properties)
    }

    private func prints(_ txn: DBTransaction, _ className: String, _ keys: [ObjKey]) -> [Int] {
        keys.map { fingerprint(txn, ObjectLink(className: className, key: $0)) }
    }

    private func prints(_ txn: DBTransaction, _ els: [Value]) -> [Int] {
        els.map { v -> Int in
            if case .object(let l) = v { return fingerprint(txn, l) }
            return 0
        }
    }

    /// After an update from the records: the fingerprints of the kept objects a linked change
    /// reached (`linked`) are taken again (the update refreshed those of the objects that
    /// changed themselves), so a later full comparison starts from the current linked state.
    private func refreshLinkedPrints(_ txn: DBTransaction, _ linked: Set<ObjKey>) {
        guard !linked.isEmpty, var lp = lastPrints else { return }
        if let rc = keyed {
            guard lp.count == lastKeys.count else { return }
            for (i, k) in lastKeys.enumerated() where linked.contains(k) { lp[i] = fingerprint(txn, ObjectLink(className: rc.className, key: k)) }
        } else {
            guard lp.count == lastElements.count else { return }
            for (i, v) in lastElements.enumerated() {
                if case .object(let l) = v, linked.contains(l.key) { lp[i] = fingerprint(txn, l) }
            }
        }
        lastPrints = lp
    }

    func deliverInitial(_ pass: PrintPass) {
        self.pass = pass
        defer { self.pass = nil }
        let ok: Bool = core.read { txn in
            if let rc = keyed {
                guard let keys = try? rc.evaluate(txn) else { return false }
                lastKeys = keys
                lastPrints = keys.count <= Self.fingerprintLimit ? prints(txn, rc.className, keys) : nil
                lastVersion = txn.version
                return true
            }
            guard let els = try? source.elements(txn) else { return false }
            lastElements = els
            lastPrints = els.count <= Self.fingerprintLimit ? prints(txn, els) : nil
            lastVersion = txn.version
            return true
        }
        guard ok else { block(.error(ObjectError.noSuchObject(className: "collection owner", key: -1))); return }
        lastGeneration = core.generationValue
        block(.initial(source.collection))
    }

    /// Change sets come from the commits' records (`DBTransaction.changes(since:)`): a commit
    /// that touched no class leaves the collection alone without reading it; whole-class
    /// results update their keys from the inserted and deleted keys alone (O(changes · log n)
    /// plus one array copy); other collections are re-read and diffed, with modifications taken
    /// from the records instead of fingerprinting every object. Without records (the observer
    /// is further behind than they reach, or a class was rewritten), everything is compared.
    func deliverChanges(notify: Bool, _ pass: PrintPass) {
        if core.generationValue == lastGeneration { return }
        lastGeneration = core.generationValue
        self.pass = pass
        defer { self.pass = nil }
        let update: (deletions: [Int], insertions: [Int], modifications: [Int])? = core.read { txn in
            let version = txn.version
            defer { lastVersion = version }
            let records = try? txn.changes(since: lastVersion)
            if records == nil { linkIndexes.advance(txn, nil) }
            if let rc = keyed {
                if let changes = records {
                    let old = lastKeys
                    let linked = linkedModified(txn, changes, candidates: old)
                    if let u = incrementalKeys(txn, rc, changes) {
                        refreshLinkedPrints(txn, linked)
                        return Self.addingLinked(u, old: old, linked)
                    }
                }
                return fullKeys(txn, rc)
            }
            if let changes = records {
                let old = lastElements.map { v -> ObjKey in if case .object(let l) = v { return l.key }; return -1 }
                let linked = linkedModified(txn, changes, candidates: old.filter { $0 != -1 })
                if let u = incremental(txn, changes) {
                    refreshLinkedPrints(txn, linked)
                    return Self.addingLinked(u, old: old, linked)
                }
            }
            return full(txn)
        }
        guard notify, let u = update, !(u.deletions.isEmpty && u.insertions.isEmpty && u.modifications.isEmpty) else { return }
        block(.update(source.collection, deletions: u.deletions, insertions: u.insertions, modifications: u.modifications))
    }

    // MARK: results (object keys)

    /// The whole comparison for results: keys diffed, fingerprints compared when kept.
    private func fullKeys(_ txn: DBTransaction, _ rc: ResultsCore) -> ([Int], [Int], [Int])? {
        guard let e = try? rc.evaluate(txn) else { return nil }
        let p = e.count <= Self.fingerprintLimit ? prints(txn, rc.className, e) : nil
        let d = CollectionDiff.compute(old: lastKeys, new: e, unique: true)
        var mods: [Int] = []
        for (o, n) in d.matches {
            if let lp = lastPrints, let p { if lp[o] != p[n] { mods.append(o) } } else { mods.append(o) }
        }
        lastKeys = e; lastPrints = p
        return (d.deletions, d.insertions, mods.sorted())
    }

    /// The change set of results from the records, or nil when they cannot answer.
    private func incrementalKeys(_ txn: DBTransaction, _ rc: ResultsCore, _ changes: [String: ClassChangeSet]) -> ([Int], [Int], [Int])? {
        if changes.values.allSatisfy({ $0.inserted.isEmpty && $0.deleted.isEmpty && $0.modified.isEmpty && !$0.rewritten }) {
            return ([], [], [])
        }
        if changes.values.contains(where: \.rewritten) { return nil }
        let className = rc.className
        if rc.isWholeClass { return wholeClassKeys(txn, className, changes[className]) }
        if case .all = rc.base, LocalResultsUpdate.applies(to: rc.stages, className: className, changes: changes),
           let u = localStages(txn, rc, changes[className]) {
            return u
        }
        // Re-evaluate; modifications from the records.
        guard let e = try? rc.evaluate(txn) else { return nil }
        let d = CollectionDiff.compute(old: lastKeys, new: e, unique: true)
        let set = changes[className]
        let modified = set.map { $0.modifiedKeys(properties: properties).union($0.inserted).union($0.deleted) } ?? KeyRanges()
        var mods: [Int] = []
        for (o, n) in d.matches where modified.contains(e[n]) { mods.append(o) }
        if let lp = lastPrints, e.count <= Self.fingerprintLimit {
            let modSet = Set(mods)
            var np = [Int](repeating: 0, count: e.count)
            var fresh = [Bool](repeating: true, count: e.count)
            for (o, n) in d.matches where !modSet.contains(o) { np[n] = lp[o]; fresh[n] = false }
            for n in 0..<e.count where fresh[n] { np[n] = fingerprint(txn, ObjectLink(className: className, key: e[n])) }
            lastPrints = np
        } else {
            lastPrints = nil
        }
        lastKeys = e
        return (d.deletions, d.insertions, mods.sorted())
    }

    /// Index of the first key of `keys` (ascending) that is >= `k`.
    private static func lowerBound(_ keys: [ObjKey], _ k: ObjKey) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi { let m = (lo + hi) >> 1; if keys[m] < k { lo = m + 1 } else { hi = m } }
        return lo
    }

    /// Every object of `className` in key order: positions from the inserted and deleted keys
    /// (binary searches in the kept keys, one pass to splice them).
    private func wholeClassKeys(_ txn: DBTransaction, _ className: String, _ set: ClassChangeSet?) -> ([Int], [Int], [Int])? {
        guard let set else { return ([], [], []) }
        let touched = set.inserted.union(set.deleted)
        let modified = set.modifiedKeys(properties: properties)
        guard touched.keyCount <= 1_000_000, modified.keyCount <= 1_000_000 else { return nil }
        let old = lastKeys
        var deletions: [Int] = [], added: [ObjKey] = [], replaced: [Int] = []
        for k in touched.keys {
            let i = Self.lowerBound(old, k)
            let wasThere = i < old.count && old[i] == k
            let isThere = (try? txn.exists(className, k)) == true
            switch (wasThere, isThere) {
            case (true, false): deletions.append(i)
            case (false, true): added.append(k)
            case (true, true): replaced.append(i)
            case (false, false): break
            }
        }
        var mods = replaced
        for k in modified.keys where !touched.contains(k) {
            let i = Self.lowerBound(old, k)
            if i < old.count && old[i] == k { mods.append(i) }
        }
        mods.sort()
        if deletions.isEmpty && added.isEmpty {
            if lastPrints != nil { refreshPrints(txn, className, at: mods) }
            return ([], [], mods)
        }
        // The new key order: old minus deletions, plus the added keys (both sorted), spliced
        // run by run.
        var new: [ObjKey] = []
        new.reserveCapacity(old.count - deletions.count + added.count)
        var insertions: [Int] = []
        var newPrints: [Int]? = lastPrints != nil && old.count - deletions.count + added.count <= Self.fingerprintLimit ? [] : nil
        var di = 0, ai = 0, start = 0
        func copyKept(upTo end: Int) {
            guard start < end else { return }
            new.append(contentsOf: old[start..<end])
            if newPrints != nil, let lp = lastPrints { newPrints!.append(contentsOf: lp[start..<end]) }
            start = end
        }
        while di < deletions.count || ai < added.count {
            // The next event in old-index order: a deletion at deletions[di], or an insertion
            // before the first old key greater than added[ai].
            let insertAt = ai < added.count ? Self.lowerBound(old, added[ai]) : Int.max
            let deleteAt = di < deletions.count ? deletions[di] : Int.max
            if insertAt <= deleteAt {
                copyKept(upTo: insertAt)
                insertions.append(new.count)
                new.append(added[ai])
                newPrints?.append(0)
                ai += 1
            } else {
                copyKept(upTo: deleteAt)
                start = deleteAt + 1
                di += 1
            }
        }
        copyKept(upTo: old.count)
        lastKeys = new
        lastPrints = newPrints
        if lastPrints != nil {
            // Fingerprints of the inserted and modified objects (positions in the new order).
            var fix = insertions
            let deleted = Set(deletions)
            for m in mods where !deleted.contains(m) {
                let i = Self.lowerBound(new, old[m])
                if i < new.count && new[i] == old[m] { fix.append(i) }
            }
            refreshPrints(txn, className, at: fix)
        }
        return (deletions, insertions, mods)
    }

    private func refreshPrints(_ txn: DBTransaction, _ className: String, at positions: [Int]) {
        for i in positions where i < lastKeys.count && i < (lastPrints?.count ?? 0) {
            lastPrints![i] = fingerprint(txn, ObjectLink(className: className, key: lastKeys[i]))
        }
    }

    /// Filtered and sorted results whose stages depend only on each object (`LocalResultsStage`):
    /// the new keys from `LocalResultsUpdate.place` (only the changed objects move); here, for
    /// each changed object that stayed, whether it kept its place among the unchanged objects
    /// (then it is a modification, else a move). Nil when the records name more than
    /// `LocalResultsUpdate.changeLimit` objects (then the results are re-evaluated).
    private func localStages(_ txn: DBTransaction, _ rc: ResultsCore, _ set: ClassChangeSet?) -> ([Int], [Int], [Int])? {
        guard let set else { return ([], [], []) }
        let className = rc.className
        guard let placed = LocalResultsUpdate.place(lastKeys, className: className, stages: rc.stages, changes: set, in: txn) else { return nil }
        if placed.changed.isEmpty { return ([], [], []) }
        let reported = set.modifiedKeys(properties: properties).union(set.inserted).union(set.deleted)
        let oldChanged = placed.oldChanged, passing = placed.passing, gaps = placed.gaps
        let new = placed.keys
        // An object that stayed keeps its place when as many unchanged objects precede it before
        // and after; among those, the longest run in the same relative order is kept.
        var candidates: [(old: Int, new: Int, key: ObjKey)] = []
        for (rank, p) in oldChanged.enumerated() {
            let k = lastKeys[p]
            guard let n = placed.newPosition[k] else { continue }
            let unchangedBefore = p - rank
            let gap = gaps[passing.firstIndex(of: k)!]
            if gap == unchangedBefore { candidates.append((p, n, k)) }
        }
        let kept = CollectionDiff.longestIncreasing(candidates.map { ($0.old, $0.new) })
        let keptOld = Set(kept.map(\.0)), keptNew = Set(kept.map(\.1))
        let deletions = oldChanged.filter { !keptOld.contains($0) }
        let insertions = passing.map { placed.newPosition[$0]! }.filter { !keptNew.contains($0) }.sorted()
        let mods = kept.filter { reported.contains(lastKeys[$0.0]) }.map(\.0).sorted()
        if let lp = lastPrints, new.count <= Self.fingerprintLimit {
            var byKey: [ObjKey: Int] = [:]
            byKey.reserveCapacity(lastKeys.count)
            for (k, p) in zip(lastKeys, lp) where !placed.changed.contains(k) { byKey[k] = p }
            lastPrints = new.map { k in byKey[k] ?? fingerprint(txn, ObjectLink(className: className, key: k)) }
        } else {
            lastPrints = nil
        }
        lastKeys = new
        return (deletions, insertions, mods)
    }

    /// The collection's elements now. A list or set whose owning object was deleted reads as
    /// empty, so its observer reports every element it had as deleted, once (as realm-core
    /// does), and nothing after that.
    private func currentElements(_ txn: DBTransaction) -> [Value]? {
        do { return try source.elements(txn) } catch let e as ObjectError {
            if case .noSuchObject = e { return [] }
            return nil
        } catch { return nil }
    }

    /// The whole comparison (fingerprints of every object).
    private func full(_ txn: DBTransaction) -> ([Int], [Int], [Int])? {
        guard let e = currentElements(txn) else { return nil }
        let p = e.count <= Self.fingerprintLimit ? prints(txn, e) : nil
        let d = CollectionDiff.compute(old: lastElements, new: e, unique: source.uniqueElements)
        var mods: [Int] = []
        for (o, n) in d.matches {
            if let lp = lastPrints, let p { if lp[o] != p[n] { mods.append(o) } } else if case .object = e[n] { mods.append(o) }
        }
        lastElements = e; lastPrints = p
        return (d.deletions, d.insertions, mods.sorted())
    }

    /// The change set from the records, or nil when they cannot answer.
    private func incremental(_ txn: DBTransaction, _ changes: [String: ClassChangeSet]) -> ([Int], [Int], [Int])? {
        if changes.isEmpty || changes.values.allSatisfy({ $0.inserted.isEmpty && $0.deleted.isEmpty && $0.modified.isEmpty && !$0.rewritten }) {
            return ([], [], [])
        }
        if changes.values.contains(where: \.rewritten) { return nil }
        // Re-read the collection; modifications from the records.
        guard let e = currentElements(txn) else { return nil }
        let d = CollectionDiff.compute(old: lastElements, new: e, unique: source.uniqueElements)
        var modifiedByClass: [String: KeyRanges] = [:]
        for (c, set) in changes { modifiedByClass[c] = set.modifiedKeys(properties: properties).union(set.inserted).union(set.deleted) }
        var mods: [Int] = []
        for (o, n) in d.matches {
            if case .object(let l) = e[n], modifiedByClass[l.className]?.contains(l.key) == true { mods.append(o) }
        }
        if var lp = lastPrints, e.count <= Self.fingerprintLimit {
            var np = [Int](repeating: 0, count: e.count)
            let modSet = Set(mods)
            for (o, n) in d.matches { np[n] = modSet.contains(o) ? 0 : lp[o] }
            for n in d.insertions { np[n] = 0 }
            for n in 0..<e.count where np[n] == 0 { if case .object(let l) = e[n] { np[n] = fingerprint(txn, l) } }
            lp = np
            lastPrints = lp
        } else {
            lastPrints = nil
        }
        lastElements = e
        return (d.deletions, d.insertions, mods.sorted())
    }

}

/// The difference between two element arrays: the matched (kept) pairs, and the indexes
/// deleted from the old array and inserted into the new one.
enum CollectionDiff {
    struct Result { var deletions: [Int]; var insertions: [Int]; var matches: [(Int, Int)] }

    static func compute<T: Hashable>(old: [T], new: [T], unique: Bool) -> Result {
        // Common prefix and suffix first (appends, removals at the end, edits in place).
        var pre = 0
        while pre < old.count && pre < new.count && old[pre] == new[pre] { pre += 1 }
        var suf = 0
        while suf < old.count - pre && suf < new.count - pre && old[old.count - 1 - suf] == new[new.count - 1 - suf] { suf += 1 }
        var matches: [(Int, Int)] = (0..<pre).map { ($0, $0) }
        let o = Array(old[pre..<(old.count - suf)]), n = Array(new[pre..<(new.count - suf)])
        var mid: [(Int, Int)] = []
        if unique || Set(o).count == o.count && Set(n).count == n.count {
            // Longest increasing subsequence of the new positions of the kept elements.
            var newIndex: [T: Int] = [:]
            for (i, x) in n.enumerated() { newIndex[x] = i }
            let pairs = o.enumerated().compactMap { (i, x) in newIndex[x].map { (i, $0) } }
            mid = longestIncreasing(pairs)
        } else if o.count * n.count <= 4_000_000 {
            // Classic LCS table for lists with repeated elements.
            var t = [[Int32]](repeating: [Int32](repeating: 0, count: n.count + 1), count: o.count + 1)
            for i in stride(from: o.count - 1, through: 0, by: -1) {
                for j in stride(from: n.count - 1, through: 0, by: -1) {
                    t[i][j] = o[i] == n[j] ? t[i + 1][j + 1] + 1 : max(t[i + 1][j], t[i][j + 1])
                }
            }
            var i = 0, j = 0
            while i < o.count && j < n.count {
                if o[i] == n[j] { mid.append((i, j)); i += 1; j += 1 } else if t[i + 1][j] >= t[i][j + 1] { i += 1 } else { j += 1 }
            }
        }
        matches += mid.map { ($0.0 + pre, $0.1 + pre) }
        matches += (0..<suf).map { (old.count - suf + $0, new.count - suf + $0) }
        let keptOld = Set(matches.map(\.0)), keptNew = Set(matches.map(\.1))
        return Result(deletions: (0..<old.count).filter { !keptOld.contains($0) },
                      insertions: (0..<new.count).filter { !keptNew.contains($0) },
                      matches: matches)
    }

    /// Pairs (old, new) sorted by old; the longest chain with increasing new indexes.
    static func longestIncreasing(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []        // index into pairs of the smallest tail of each length
        var prev = [Int](repeating: -1, count: pairs.count)
        for (i, p) in pairs.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi { let m = (lo + hi) / 2; if pairs[tails[m]].1 < p.1 { lo = m + 1 } else { hi = m } }
            if lo > 0 { prev[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out: [(Int, Int)] = []
        var k = tails.last!
        while k >= 0 { out.append(pairs[k]); k = prev[k] }
        return out.reversed()
    }
}

struct ResultsSource<T: RealmCollectionValue>: CollectionSource {
    let results: Results<T>
    var collection: Results<T> { results.current }
    var uniqueElements: Bool { true }
    var resultsCore: ResultsCore? { results.core }
    var objectClassName: String? { results.core.className }
    func elements(_ txn: DBTransaction) throws -> [Value] {
        let c = results.core.className
        return try results.core.evaluate(txn).map { .object(ObjectLink(className: c, key: $0)) }
    }
    func rebound(to core: RealmCore) -> ResultsSource<T> { ResultsSource(results: results.rebound(to: core)) }
}

struct ListSource<E: RealmCollectionValue>: CollectionSource {
    let owner: CollectionOwner
    var collection: List<E> { List<E>(owner: owner.current) }
    var uniqueElements: Bool { false }
    var objectClassName: String? { owner.linkTarget }
    func elements(_ txn: DBTransaction) throws -> [Value] { try txn.list(owner.className, owner.key, owner.property) }
    func rebound(to core: RealmCore) -> ListSource<E> {
        ListSource(owner: CollectionOwner(core: core, className: owner.className, key: owner.key, property: owner.property, isEmbeddedTarget: owner.isEmbeddedTarget))
    }
}

struct SetSource<E: RealmCollectionValue>: CollectionSource {
    let owner: CollectionOwner
    var collection: MutableSet<E> { MutableSet<E>(owner: owner.current) }
    var uniqueElements: Bool { true }
    var objectClassName: String? { owner.linkTarget }
    func elements(_ txn: DBTransaction) throws -> [Value] { try txn.list(owner.className, owner.key, owner.property) }
    func rebound(to core: RealmCore) -> SetSource<E> {
        SetSource(owner: CollectionOwner(core: core, className: owner.className, key: owner.key, property: owner.property, isEmbeddedTarget: owner.isEmbeddedTarget))
    }
}

extension CollectionOwner {
    /// The class a collection of links holds (nil for values).
    var linkTarget: String? {
        guard let p = core.coordinator.db.schema[className]?[property], p.type == .object else { return nil }
        return p.objectClassName
    }
}

final class MapObserver<K: _MapKey, V: RealmCollectionValue>: CoreObserver {
    let owner: CollectionOwner
    let block: (RealmMapChange<Map<K, V>>) -> Void
    /// For maps of objects: what is watched in the values and the objects they link to (from
    /// the key paths; without them every property, links followed up to four away).
    let watched: WatchedPaths?
    var last: [String: Int] = [:]
    /// The object each key held at the last snapshot (maps of objects).
    var lastLinks: [String: ObjKey] = [:]
    var lastGeneration = -1
    /// The version `last` was read at.
    var lastVersion: UInt64 = 0
    init(owner: CollectionOwner, watched: WatchedPaths?, block: @escaping (RealmMapChange<Map<K, V>>) -> Void) {
        self.owner = owner; self.block = block; self.watched = watched
    }

    /// The fingerprint of each object value at the last snapshot: its watched own values and,
    /// when links are watched, what it reaches through them (`WatchedPaths.deepFingerprint`).
    var lastObjectPrints: [ObjKey: Int] = [:]

    /// A hash per key of its value and, for an object, of what is watched in it and the objects
    /// it links to. `unchanged` (from the change records) names the objects whose fingerprint
    /// is taken from the last snapshot; without it every one is computed.
    private func snapshot(_ txn: DBTransaction, _ pass: PrintPass, unchanged: ((ObjKey) -> Bool)?) -> [String: Int]? {
        guard let entries = try? txn.map(owner.className, owner.key, owner.property) else { return nil }
        var out: [String: Int] = [:]
        var links: [String: ObjKey] = [:]
        var prints: [ObjKey: Int] = [:]
        pass.begin(txn.version)
        for e in entries {
            var h = Hasher(); h.combine(e.value)
            if case .object(let l) = e.value {
                let p: Int
                if let known = prints[l.key] {
                    p = known
                } else if let unchanged, unchanged(l.key), let old = lastObjectPrints[l.key] {
                    p = old
                } else if let w = watched, w.followsLinks, w.className == l.className {
                    p = w.deepFingerprint(txn, l.key, memo: &pass.memo)
                } else {
                    p = rowFingerprint(txn, l, properties: watched?.properties)
                }
                prints[l.key] = p
                h.combine(p)
                links[e.key] = l.key
            }
            out[e.key] = h.finalize()
        }
        lastLinks = links
        lastObjectPrints = prints
        return out
    }
    func deliverInitial(_ pass: PrintPass) {
        owner.core.read { txn in
            last = snapshot(txn, pass, unchanged: nil) ?? [:]
            lastVersion = txn.version
        }
        lastGeneration = owner.core.generationValue
        block(.initial(Map<K, V>(owner: owner.current)))
    }
    func deliverChanges(notify: Bool, _ pass: PrintPass) {
        if owner.core.generationValue == lastGeneration { return }
        lastGeneration = owner.core.generationValue
        let oldLinks = lastLinks
        let result: (now: [String: Int], linked: Set<String>)? = owner.core.read { txn in
            let version = txn.version
            defer { lastVersion = version }
            // Keys whose object reaches, through the watched links, a changed linked object.
            var linked = Set<String>()
            // With the records: the objects whose fingerprint cannot have changed.
            var unchanged: ((ObjKey) -> Bool)? = nil
            if let watched, let changes = try? txn.changes(since: lastVersion), !changes.values.contains(where: \.rewritten) {
                var hits = Set<ObjKey>()
                if !oldLinks.isEmpty {
                    hits = watched.linkedChanges(changes, txn, candidates: Array(Set(oldLinks.values)))
                        .values.reduce(into: Set<ObjKey>()) { $0.formUnion($1) }
                    if !hits.isEmpty { for (k, v) in oldLinks where hits.contains(v) { linked.insert(k) } }
                }
                let own = changes[watched.className].map { $0.modifiedKeys(properties: watched.properties).union($0.inserted).union($0.deleted) } ?? KeyRanges()
                unchanged = { [hits] k in !hits.contains(k) && !own.contains(k) }
            }
            guard let now = snapshot(txn, pass, unchanged: unchanged) else { return nil }
            return (now, linked)
        }
        guard let (now, linked) = result else { return }
        let del = last.keys.filter { now[$0] == nil }.sorted()
        let ins = now.keys.filter { last[$0] == nil }.sorted()
        let mod = now.keys.filter { last[$0] != nil && (last[$0] != now[$0] || linked.contains($0)) }.sorted()
        last = now
        guard notify, !(del.isEmpty && ins.isEmpty && mod.isEmpty) else { return }
        block(.update(Map<K, V>(owner: owner.current), deletions: del, insertions: ins, modifications: mod))
    }
}

// MARK: - object observers

final class ObjectObserver<T: Object>: CoreObserver {
    /// The observed object; replaced by a new accessor of the same row when the realm was
    /// invalidated since (the observer outlives `invalidate()`, its block gets a usable object).
    var object: T
    unowned let core: RealmCore
    let properties: Set<String>?
    let block: (ObjectChange<T>) -> Void
    var last: [String: [Value]] = [:]
    var lastGeneration = -1
    /// The version `last` was read at.
    var lastVersion: UInt64 = 0
    var gone = false

    /// What is watched in the object and the objects it links to.
    let watched: WatchedPaths
    /// Per followed link property: a fingerprint of what it reaches (see `linkedPrints`), for
    /// the full comparison when the change records do not reach back.
    var lastLinked: [String: Int] = [:]

    init(object: T, core: RealmCore, watched: WatchedPaths, block: @escaping (ObjectChange<T>) -> Void) {
        self.object = object; self.core = core; self.block = block; self.watched = watched
        properties = watched.properties
    }

    /// Each watched property's value(s); nil when the object is gone.
    private func snapshot() -> [String: [Value]]? {
        let info = object._rlmClassInfo, key = object._rlmKey
        return core.read { txn -> [String: [Value]]? in
            guard (try? txn.exists(info.className, key)) == true else { return nil }
            var out: [String: [Value]] = [:]
            for p in info.properties where p.schema.isStored && (properties?.contains(p.name) ?? true) {
                switch p.schema.collection {
                case .single: out[p.name] = [(try? txn.value(info.className, key, p.name)) ?? .null]
                case .list, .set: out[p.name] = (try? txn.list(info.className, key, p.name)) ?? []
                case .map: out[p.name] = ((try? txn.map(info.className, key, p.name)) ?? []).flatMap { [Value.string($0.key), $0.value] }
                }
            }
            return out
        }
    }

    /// Per followed link property: a hash of the objects it reaches now and of what is watched
    /// in them and beyond (`WatchedPaths.deepFingerprint`).
    private func linkedPrints(_ pass: PrintPass) -> [String: Int] {
        guard watched.followsLinks else { return [:] }
        let cls = object._rlmClassInfo.className, key = object._rlmKey
        return core.read { txn in
            pass.begin(txn.version)
            var out: [String: Int] = [:]
            for e in watched.edges {
                var h = Hasher()
                for k in WatchedPaths.linkedKeys(txn, cls, key, e) { h.combine(k); h.combine(e.target.deepFingerprint(txn, k, memo: &pass.memo)) }
                out[e.property] = h.finalize()
            }
            return out
        }
    }

    func deliverInitial(_ pass: PrintPass) {
        lastGeneration = core.generationValue
        lastVersion = core.read { $0.version }
        if let s = snapshot() { last = s; lastLinked = linkedPrints(pass) } else { gone = true; block(.deleted) }
    }

    func deliverChanges(notify: Bool, _ pass: PrintPass) {
        if gone || core.generationValue == lastGeneration { return }
        lastGeneration = core.generationValue
        // The change records say whether this object was touched at all (O(changes · log n)).
        let key = object._rlmKey, className = object._rlmClassInfo.className
        // The link properties through which a watched linked object changed.
        var viaLinks: [String] = []
        var fromRecords = false
        let untouched: Bool = core.read { txn in
            let version = txn.version
            defer { lastVersion = version }
            guard let changes = try? txn.changes(since: lastVersion) else { return false }
            if changes.values.contains(where: \.rewritten) { return false }
            fromRecords = true
            viaLinks = watched.linkedChanges(changes, txn, candidates: [key]).filter { $0.value.contains(key) }.map(\.key)
            guard let c = changes[className] else { return viaLinks.isEmpty }
            return !c.inserted.contains(key) && !c.deleted.contains(key) && !c.modifiedKeys(properties: properties).contains(key) && viaLinks.isEmpty
        }
        if untouched { return }
        guard let now = snapshot() else {
            gone = true
            if notify { block(.deleted) }
            return
        }
        // Without the records, the links whose reach changed come from the fingerprints.
        let nowLinked = linkedPrints(pass)
        if !fromRecords { viaLinks = watched.edges.map(\.property).filter { nowLinked[$0] != lastLinked[$0] } }
        lastLinked = nowLinked
        let info = object._rlmClassInfo
        var changes: [PropertyChange] = []
        for p in info.properties where now[p.name] != nil && now[p.name] != last[p.name] {
            if p.schema.collection == .single, let vt = p.valueType as? any _StrataValue.Type {
                let ctx = _StrataContext(core: core)
                func decode<V: _StrataValue>(_ t: V.Type, _ v: Value) -> Any? {
                    if case .object(let l) = v, (try? core.readThrowing { try $0.exists(l.className, l.key) }) != true { return nil }
                    return unwrapAny(V._strataDecode(v, ctx))
                }
                changes.append(PropertyChange(name: p.name, oldValue: decode(vt, last[p.name]![0]), newValue: decode(vt, now[p.name]![0])))
            } else {
                changes.append(PropertyChange(name: p.name, oldValue: nil, newValue: nil))
            }
        }
        // Links whose objects changed while the link itself did not: reported by the link's
        // name; a to-one link with the (same) linked object as old and new value.
        for p in info.properties where viaLinks.contains(p.name) && !changes.contains(where: { $0.name == p.name }) {
            if p.schema.collection == .single, let vt = p.valueType as? any _StrataValue.Type, let v = now[p.name]?.first {
                func decode<V: _StrataValue>(_ t: V.Type) -> Any? { unwrapAny(V._strataDecode(v, _StrataContext(core: core))) }
                let linked = decode(vt)
                changes.append(PropertyChange(name: p.name, oldValue: linked, newValue: linked))
            } else {
                changes.append(PropertyChange(name: p.name, oldValue: nil, newValue: nil))
            }
        }
        last = now
        guard notify, !changes.isEmpty else { return }
        if object._rlmEpoch != core.readEpoch {
            object = core.makeObject(type(of: object), key: key, className: className)
        }
        block(.change(object, changes))
    }
}

/// Runs a scheduled delivery on the actor a realm is isolated to.
func deliverIsolated(to actor: isolated any Actor, _ core: RealmCore?) {
    core?.deliverScheduled()
}

// MARK: - key paths and linked objects

/// A key path given to `observe(keyPaths:)` that does not name properties of the observed class.
enum ObservationKeyPathError: Error, Equatable, CustomStringConvertible {
    /// `component` of `keyPath` is not a property of `className`.
    case unknownProperty(keyPath: String, component: String, className: String)
    /// `component` of `keyPath` is followed by more components but is not a link.
    case notALink(keyPath: String, component: String, className: String)

    var description: String {
        switch self {
        case .unknownProperty(let kp, let c, let cls):
            return "invalid key path '\(kp)' for observe(keyPaths:): '\(c)' is not a property of class '\(cls)'; give property names of the observed objects, dotted through links ('dogs.name')"
        case .notALink(let kp, let c, let cls):
            return "invalid key path '\(kp)' for observe(keyPaths:): '\(cls).\(c)' is not a link, so nothing can follow it; end the key path at '\(c)'"
        }
    }
}

/// What an observer watches in objects of one class: which of their own properties count, and
/// which links it follows into which properties of the linked objects. Built from the key paths
/// (`"dogs.name"`: the `dogs` list itself and the names of the dogs in it) or, without key
/// paths, every property and every link up to `maxDepth` links away (as realm-core does).
final class WatchedPaths {
    /// How many links away changes of linked objects are seen without key paths.
    static let maxDepth = 4

    /// A link followed from the class: a link property of it (`forward`), or linking objects
    /// (`backlink`: the objects of the target class whose `originProperty` links here).
    struct Edge {
        let property: String
        let originProperty: String?
        let target: WatchedPaths
    }

    let className: String
    /// Own properties whose change counts; nil: all of them.
    let properties: Set<String>?
    /// The links followed.
    let edges: [Edge]
    /// The classes reached through `edges` (to skip commits that modified none of them).
    let linkedClasses: Set<String>

    /// A hash of what the node watches (class, properties, and its links' nodes, recursively):
    /// equal for nodes that watch the same things.
    let signature: Int

    init(className: String, properties: Set<String>?, edges: [Edge]) {
        self.className = className; self.properties = properties; self.edges = edges
        var reached = Set<String>()
        for e in edges { reached.insert(e.target.className); reached.formUnion(e.target.linkedClasses) }
        linkedClasses = reached
        var h = Hasher()
        h.combine(className)
        h.combine(properties.map { $0.sorted() })
        for e in edges { h.combine(e.property); h.combine(e.originProperty); h.combine(e.target.signature) }
        signature = h.finalize()
    }

    /// Resolves `keyPaths` (nil: everything) for objects of `className`. Throws for a component
    /// that is not a property of its class, or that is followed by more components without being
    /// a link. Key paths use the Swift property names (`propertiesMapping()` is applied).
    static func resolve(_ keyPaths: [String]?, className: String, schema: Schema,
                        types: [String: ObjectBase.Type] = [:]) throws -> WatchedPaths {
        guard let keyPaths else {
            var memo: [String: WatchedPaths] = [:]
            return everything(className, depth: maxDepth, schema: schema, memo: &memo)
        }
        final class Node { var properties = Set<String>(); var links: [String: (origin: String?, node: Node, target: String)] = [:] }
        let root = Node()
        for keyPath in keyPaths {
            var node = root, cls = className
            let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            for (i, part) in parts.enumerated() {
                let name = types[cls]?.propertiesMapping()[part] ?? part
                guard let p = schema[cls]?[name] else {
                    throw ObservationKeyPathError.unknownProperty(keyPath: keyPath, component: part, className: cls)
                }
                node.properties.insert(name)
                guard i < parts.count - 1 else { break }
                guard p.type == .object || p.type == .linkingObjects, let target = p.objectClassName else {
                    throw ObservationKeyPathError.notALink(keyPath: keyPath, component: part, className: cls)
                }
                if node.links[name] == nil {
                    node.links[name] = (p.type == .linkingObjects ? p.linkOriginPropertyName : nil, Node(), target)
                }
                node = node.links[name]!.node
                cls = target
            }
        }
        func build(_ n: Node, _ cls: String) -> WatchedPaths {
            WatchedPaths(className: cls, properties: n.properties,
                         edges: n.links.sorted { $0.key < $1.key }.map { Edge(property: $0.key, originProperty: $0.value.origin, target: build($0.value.node, $0.value.target)) })
        }
        return build(root, className)
    }

    private static func everything(_ cls: String, depth: Int, schema: Schema, memo: inout [String: WatchedPaths]) -> WatchedPaths {
        let id = "\(depth)/\(cls)"
        if let m = memo[id] { return m }
        var edges: [Edge] = []
        if depth > 0, let os = schema[cls] {
            for p in os.allProperties where p.type == .object {
                guard let t = p.objectClassName else { continue }
                edges.append(Edge(property: p.name, originProperty: nil, target: everything(t, depth: depth - 1, schema: schema, memo: &memo)))
            }
        }
        let w = WatchedPaths(className: cls, properties: nil, edges: edges)
        memo[id] = w
        return w
    }

    /// True when links are followed (a change of a linked object counts).
    var followsLinks: Bool { !edges.isEmpty }

    /// One entry of a `deepFingerprint` pass: a node (by `signature`, so equal nodes of
    /// different observers' trees share entries) and an object of its class.
    struct PrintKey: Hashable {
        let node: Int
        let key: ObjKey
    }

    /// A hash of what this tree watches from object `key` of its class: its watched own values
    /// and, through each followed link, the linked objects and theirs (recursively, as far as
    /// the tree goes). Observers keep it to compare with when the change records do not reach
    /// back: a changed linked object then changes the hash of every object reaching it, as the
    /// records would have reported. `memo` holds the entries of one pass (one version), so an
    /// object reached many times is hashed once per node.
    func deepFingerprint(_ txn: DBTransaction, _ key: ObjKey, memo: inout [PrintKey: Int]) -> Int {
        let id = PrintKey(node: signature, key: key)
        if let m = memo[id] { return m }
        var h = Hasher()
        h.combine(rowFingerprint(txn, ObjectLink(className: className, key: key), properties: properties))
        for e in edges {
            h.combine(e.property)
            for k in Self.linkedKeys(txn, className, key, e) {
                h.combine(k)
                h.combine(e.target.deepFingerprint(txn, k, memo: &memo))
            }
        }
        let v = h.finalize()
        memo[id] = v
        return v
    }

    /// The objects edge `e` leads to from object `key` of class `cls`.
    static func linkedKeys(_ txn: DBTransaction, _ cls: String, _ key: ObjKey, _ e: Edge) -> [ObjKey] {
        if let origin = e.originProperty {
            return (try? txn.backlinks(cls, key, originClass: e.target.className, originProperty: origin)) ?? []
        }
        guard let p = txn.schema[cls]?[e.property] else { return [] }
        return links(txn, cls, key, p).compactMap { if case .object(let l) = $0 { return l.key }; return nil }
    }

    /// Whether a commit with `changes` modified a linked object this tree reaches (by class).
    func mayHaveLinkedChanges(_ changes: [String: ClassChangeSet]) -> Bool {
        guard !edges.isEmpty else { return false }
        return linkedClasses.contains { changes[$0].map { !$0.modified.isEmpty } ?? false }
    }

    /// The objects of this class (among `candidates`, or all) that reach, through the watched
    /// links, a linked object whose watched properties `changes` modified; per followed link of
    /// this class. Only links into classes the commit modified are followed (a commit that
    /// modified none costs nothing). With candidates (an observed object, a collection of up to
    /// `CollectionObserver.directLinkLimit` objects), their links are read forward, each linked
    /// object visited once. Without, each level starts from the modified objects the records
    /// name and walks the links back through `indexes` (reverse link maps kept current from the
    /// records; without them, the linking class's link column is read once per level: the file
    /// keeps no backlink index).
    func linkedChanges(_ changes: [String: ClassChangeSet], _ txn: DBTransaction,
                       candidates: [ObjKey]?, indexes: LinkIndexes? = nil) -> [String: Set<ObjKey>] {
        guard mayHaveLinkedChanges(changes) else { return [:] }
        let walk = LinkWalk(changes: changes, txn: txn, indexes: indexes)
        var out: [String: Set<ObjKey>] = [:]
        for e in edges where walk.touches(e.target) {
            let found: Set<ObjKey>
            if let candidates {
                var hits = Set<ObjKey>()
                for k in candidates where !hits.contains(k) {
                    if walk.linked(className, k, e).contains(where: { walk.hit(e.target, $0) }) { hits.insert(k) }
                }
                found = hits
            } else {
                let targets = walk.changed(e.target)
                found = targets.isEmpty ? [] : origins(of: targets, edge: e, txn, indexes: indexes)
            }
            if !found.isEmpty { out[e.property] = found }
        }
        return out
    }

    /// One evaluation of `linkedChanges`: the records, and what was found per node.
    private final class LinkWalk {
        let changes: [String: ClassChangeSet]
        let txn: DBTransaction
        let indexes: LinkIndexes?
        private var modified: [ObjectIdentifier: KeyRanges] = [:]
        private var hits: [ObjectIdentifier: [ObjKey: Bool]] = [:]
        private var changedSets: [ObjectIdentifier: Set<ObjKey>] = [:]
        init(changes: [String: ClassChangeSet], txn: DBTransaction, indexes: LinkIndexes?) {
            self.changes = changes; self.txn = txn; self.indexes = indexes
        }

        /// The objects of `node`'s class whose watched own properties the records name.
        func modifiedKeys(_ node: WatchedPaths) -> KeyRanges {
            if let m = modified[ObjectIdentifier(node)] { return m }
            let m = changes[node.className].map { $0.modifiedKeys(properties: node.properties) } ?? KeyRanges()
            modified[ObjectIdentifier(node)] = m
            return m
        }

        /// Whether the commit may have changed something `node` watches.
        func touches(_ node: WatchedPaths) -> Bool { !modifiedKeys(node).isEmpty || node.mayHaveLinkedChanges(changes) }

        /// The objects an edge from object `key` of class `cls` leads to.
        func linked(_ cls: String, _ key: ObjKey, _ e: Edge) -> [ObjKey] { WatchedPaths.linkedKeys(txn, cls, key, e) }

        /// Whether object `key` of `node`'s class changed in what `node` watches (forward).
        func hit(_ node: WatchedPaths, _ key: ObjKey) -> Bool {
            let id = ObjectIdentifier(node)
            if let h = hits[id]?[key] { return h }
            hits[id, default: [:]][key] = false
            var h = modifiedKeys(node).contains(key)
            if !h {
                for e in node.edges where touches(e.target) {
                    if linked(node.className, key, e).contains(where: { hit(e.target, $0) }) { h = true; break }
                }
            }
            hits[id]![key] = h
            return h
        }

        /// Every object of `node`'s class changed in what `node` watches (backward).
        func changed(_ node: WatchedPaths) -> Set<ObjKey> {
            let id = ObjectIdentifier(node)
            if let c = changedSets[id] { return c }
            changedSets[id] = []
            var out = Set(modifiedKeys(node).keys)
            for e in node.edges where touches(e.target) {
                let targets = changed(e.target)
                if !targets.isEmpty { out.formUnion(node.origins(of: targets, edge: e, txn, indexes: indexes)) }
            }
            changedSets[id] = out
            return out
        }
    }

    /// The objects of this class whose link `edge` reaches one of `targets` (from `indexes`
    /// when given, else by reading the link column).
    fileprivate func origins(of targets: Set<ObjKey>, edge: Edge, _ txn: DBTransaction, indexes: LinkIndexes?) -> Set<ObjKey> {
        var out = Set<ObjKey>()
        if let origin = edge.originProperty {
            // Linking objects: the modified objects' own link property names the objects here.
            guard let p = txn.schema[edge.target.className]?[origin] else { return out }
            for k in targets {
                for v in Self.links(txn, edge.target.className, k, p) {
                    if case .object(let l) = v, l.className == className { out.insert(l.key) }
                }
            }
            return out
        }
        guard let p = txn.schema[className]?[edge.property] else { return out }
        if let indexes { return indexes.origins(txn, className, p, of: targets) }
        LinkIndexes.scan(txn, className, p) { origin, target in
            if targets.contains(target) { out.insert(origin) }
        }
        return out
    }

    /// The values of link property `p` of one object (none when it is gone).
    fileprivate static func links(_ txn: DBTransaction, _ cls: String, _ key: ObjKey, _ p: PropertySchema) -> [Value] {
        switch p.collection {
        case .single: return [(try? txn.value(cls, key, p.name)) ?? .null]
        case .list, .set: return (try? txn.list(cls, key, p.name)) ?? []
        case .map: return ((try? txn.map(cls, key, p.name)) ?? []).map(\.value)
        }
    }
}

extension RealmCore {
    /// `keyPaths` resolved for objects of `className`; an invalid key path traps with its message
    /// (RealmSwift raises an exception for it), on the thread that registers the observer.
    func watchedPaths(_ keyPaths: [String]?, className: String) -> WatchedPaths {
        do {
            return try WatchedPaths.resolve(keyPaths, className: className, schema: coordinator.db.schema, types: coordinator.typesByName)
        } catch {
            strataProgrammerError("\(error)")
        }
    }
}

/// Reverse link maps (linked object → linking objects) of the link columns a large collection's
/// observer walks back through to find the objects a linked change reaches: built by one pass
/// over the column on first use, then kept current from the change records (only the linking
/// objects a commit inserted or whose link it changed are read), so later commits cost what they
/// changed. Entries are verified on lookup, so links removed since need no bookkeeping.
final class LinkIndexes {
    private struct Index {
        /// (linked object, linking object) pairs as of the build, sorted by linked object.
        var targets: [ObjKey] = []
        var origins: [ObjKey] = []
        /// Links added since the build: linked object → linking objects.
        var added: [ObjKey: [ObjKey]] = [:]
        var addedCount = 0
    }
    private var indexes: [String: Index] = [:]

    private static func id(_ cls: String, _ property: String) -> String { cls + "\u{0}" + property }

    /// Every link of column `p` of `cls`: `body(linking object, linked object)`.
    static func scan(_ txn: DBTransaction, _ cls: String, _ p: PropertySchema, _ body: (ObjKey, ObjKey) -> Void) {
        guard let t = try? txn.table(cls), let col = try? t.columnIndex(p.name), let target = p.objectClassName else { return }
        try? t.forEachCluster { c in
            for r in 0..<c.count {
                if p.collection == .single {
                    if case .object(let l)? = try? t.value(c, row: r, column: col) { body(c.key(r), l.key) }
                } else if let slot = try? t.collectionSlot(c, row: r, column: col), let cv = try? txn.decodeCollection(slot, p) {
                    for i in 0..<cv.elements.count {
                        if case .object(let l) = ValueCodec.read(cv.elements, i, type: .object, target: target) { body(c.key(r), l.key) }
                    }
                }
            }
            return true
        }
    }

    /// Brings the built maps from the observer's last version to `txn`'s with the records of the
    /// commits in between (nil: they do not reach back, and the maps are dropped).
    func advance(_ txn: DBTransaction, _ changes: [String: ClassChangeSet]?) {
        guard !indexes.isEmpty else { return }
        guard let changes else { indexes = [:]; return }
        for (id, var index) in indexes {
            let parts = id.split(separator: "\u{0}", maxSplits: 1).map(String.init)
            guard parts.count == 2, let c = changes[parts[0]] else { continue }
            guard !c.rewritten, let p = txn.schema[parts[0]]?[parts[1]] else { indexes[id] = nil; continue }
            let touched = c.inserted.union(c.modified[parts[1]] ?? KeyRanges())
            // Past a rebuild's worth of changes, the next use rebuilds.
            guard touched.keyCount <= max(10_000, index.targets.count / 2) else { indexes[id] = nil; continue }
            for k in touched.keys {
                for v in WatchedPaths.links(txn, parts[0], k, p) {
                    if case .object(let l) = v { index.added[l.key, default: []].append(k); index.addedCount += 1 }
                }
            }
            if index.addedCount > max(10_000, index.targets.count / 2) { indexes[id] = nil; continue }
            indexes[id] = index
        }
    }

    /// The objects of `cls` whose link `p` now reaches one of `targets`.
    func origins(_ txn: DBTransaction, _ cls: String, _ p: PropertySchema, of targets: Set<ObjKey>) -> Set<ObjKey> {
        let id = Self.id(cls, p.name)
        if indexes[id] == nil {
            var pairs: [(ObjKey, ObjKey)] = []
            Self.scan(txn, cls, p) { origin, target in pairs.append((target, origin)) }
            pairs.sort { $0.0 < $1.0 }
            indexes[id] = Index(targets: pairs.map(\.0), origins: pairs.map(\.1))
        }
        let index = indexes[id]!
        var candidates = Set<ObjKey>()
        for t in targets {
            var lo = 0, hi = index.targets.count
            while lo < hi { let m = (lo + hi) >> 1; if index.targets[m] < t { lo = m + 1 } else { hi = m } }
            while lo < index.targets.count && index.targets[lo] == t { candidates.insert(index.origins[lo]); lo += 1 }
            for o in index.added[t] ?? [] { candidates.insert(o) }
        }
        // Links removed since are not in the maps' bookkeeping: check each candidate now.
        return candidates.filter { o in
            WatchedPaths.links(txn, cls, o, p).contains { if case .object(let l) = $0 { return targets.contains(l.key) }; return false }
        }
    }
}
