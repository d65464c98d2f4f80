import Foundation

/// Evaluates a `Results` pipeline and caches the keys per realm generation. Results of
/// primitive values use the subclass `ValueResultsCore` (which overrides nothing: the object
/// path's calls stay direct).
class ResultsCore {
    let core: RealmCore
    let className: String
    let base: ResultsBase
    let stages: [any ResultsStage]
    private var cached: [ObjKey]?
    private var cachedGeneration = -1
    /// The core's `readEpoch` when the results were obtained (see `requireValid`).
    let epoch: Int

    /// `epoch` nil: the core's current one (results obtained now).
    init(core: RealmCore, className: String, base: ResultsBase, stages: [any ResultsStage], epoch: Int? = nil) {
        self.core = core; self.className = className; self.base = base; self.stages = stages
        self.epoch = epoch ?? core.readEpoch
    }

    /// False once the realm was invalidated after the results were obtained.
    @inline(__always) var isCurrent: Bool { epoch == core.readEpoch }
    /// Traps when the realm was invalidated after the results were obtained (RealmSwift's
    /// invalidated results). The notification machinery reads through `evaluate`, unchecked.
    @inline(__always) func requireValid() {
        if epoch != core.readEpoch { invalidatedAccess() }
    }
    @inline(never) private func invalidatedAccess() -> Never {
        if let v = self as? ValueResultsCore {
            core.invalidatedAccess("Results of the values of '\(v.owner.className).\(v.owner.property)' which have been invalidated")
        }
        core.invalidatedAccess("Results<\(className)> which have been invalidated")
    }

    /// True when the results are every object of the class in key order (no stage): count
    /// and positional access then come straight from the class's B+tree.
    var isWholeClass: Bool { if case .all = base, stages.isEmpty { return true }; return false }

    func evaluate(_ txn: DBTransaction) throws -> [ObjKey] {
        if cachedGeneration == core.generationValue, let c = cached { return c }
        var keys = try base.keys(className, txn)
        for s in stages { keys = try s.apply(to: keys, className: className, in: txn) }
        let out = try keys ?? txn.objectKeys(className)
        cached = out; cachedGeneration = core.generationValue
        return out
    }

    func keys() -> [ObjKey] { requireValid(); return core.read { txn in strataTry { try evaluate(txn) } } }

    func count() -> Int {
        requireValid()
        return core.read { txn in
            strataTry {
                if isWholeClass { return try txn.count(className) }
                if cachedGeneration == core.generationValue, let c = cached { return c.count }
                if stages.count == 1, case .all = base { return try stages[0].count(of: nil, className: className, in: txn) }
                return try evaluate(txn).count
            }
        }
    }

    func key(at i: Int) -> ObjKey {
        requireValid()
        return core.read { txn in
            strataTry {
                if isWholeClass {
                    guard i >= 0, let k = try txn.objectKey(className, at: i) else {
                        throw ObjectError.indexOutOfRange("Results<\(className)>", index: i, count: try txn.count(className))
                    }
                    return k
                }
                let ks = try evaluate(txn)
                guard i >= 0 && i < ks.count else { throw ObjectError.indexOutOfRange("Results<\(className)>", index: i, count: ks.count) }
                return ks[i]
            }
        }
    }

    /// Keys `start..<start+n` (pages through a whole class without reading all keys).
    func keys(from start: Int, count n: Int) -> [ObjKey] {
        requireValid()
        return core.read { txn in
            strataTry {
                if isWholeClass { return try txn.objectKeys(className, from: start, count: n) }
                let ks = try evaluate(txn)
                return start < ks.count ? Array(ks[start..<min(ks.count, start + n)]) : []
            }
        }
    }
}

/// The objects of a class, or the primitive values of a list or set, lazily evaluated and live
/// (RealmSwift's `Results`): nothing is read until used, and reads reflect the realm's current
/// version (after `refresh()` or a commit).
///
/// Results of objects: without stages, `count` is O(1) and positional access O(log n);
/// iteration pages through the class. The query module adds `filter`, `where`, `sorted` and
/// `distinct` as stages (`appending(_:)`).
///
/// Results of values (`Results<Int>`, `Results<String>`, …) come from `filter`, `sorted(ascending:)`
/// and `distinct()` on a `List` or `MutableSet` of values: each read evaluates the source
/// collection at the realm's current version (cached until the next change).
public struct Results<Element: RealmCollectionValue>: RandomAccessCollection, CustomStringConvertible {
    let core: ResultsCore

    init(core: RealmCore, className: String, base: ResultsBase, stages: [any ResultsStage]) {
        self.core = ResultsCore(core: core, className: className, base: base, stages: stages)
    }
    init(valueCore: ValueResultsCore) { self.core = valueCore }

    /// The core of results of values (nil for results of objects).
    @inline(__always) var valueCore: ValueResultsCore? { core as? ValueResultsCore }
    /// `Element` as the object class it is in results of objects.
    @inline(__always) static var objectType: ObjectBase.Type { unsafeBitCast(Element.self, to: ObjectBase.Type.self) }
    /// An object of results of objects as `Element`.
    @inline(__always) static func element(_ o: ObjectBase) -> Element { unsafeBitCast(o, to: Element.self) }

    /// The realm of the results.
    public var realm: Realm? { Realm(core: core.core) }
    /// True for results of a frozen realm.
    public var isFrozen: Bool { core.core.isFrozen }
    /// True once the realm was invalidated (`Realm.invalidate()`) after the results were
    /// obtained; results of values also once the object owning their list or set is deleted.
    /// Using invalidated results traps; get them again from the realm.
    public var isInvalidated: Bool { !core.isCurrent || (valueCore?.isInvalidated ?? false) }

    func rebound(to other: RealmCore) -> Results<Element> {
        if let v = valueCore { return Results(valueCore: v.rebound(to: other)) }
        return Results(core: other, className: core.className, base: core.base, stages: core.stages)
    }

    /// These results as obtained now: self, or after `invalidate()` the same pipeline anew
    /// (what observers, which outlive an invalidation, hand to their blocks).
    var current: Results<Element> { core.isCurrent ? self : rebound(to: core.core) }

    // MARK: collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    /// Number of elements (O(1) for objects without stages).
    public var count: Int { valueCore?.valueCount() ?? core.count() }
    /// True when there are no elements.
    public var isEmpty: Bool { count == 0 }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }

    /// The element at `position` (traps when out of bounds).
    public subscript(position: Int) -> Element {
        if let v = valueCore { return v.element(at: position) }
        return Self.element(core.core.makeObject(Self.objectType, key: core.key(at: position), className: core.className))
    }
    /// The first element, or nil.
    public var first: Element? { isEmpty ? nil : self[0] }
    /// The last element, or nil.
    public var last: Element? { let n = count; return n == 0 ? nil : self[n - 1] }

    /// Iterates objects in pages of keys (1024 at a time), values over one evaluation.
    ///
    /// Accessor reuse: when the caller let go of the object returned last (no other strong,
    /// weak or unowned reference exists, so nothing can observe it any more), the next element
    /// is that same instance pointed at the next row instead of a newly allocated one — as if
    /// the old object had been freed and the new one allocated at its address. Objects the
    /// caller keeps (in a variable, an array, an observer, a weak reference) are never re-pointed;
    /// classes with stored properties other than `@Persisted` ones are never reused (such state
    /// would carry over to the next element).
    public struct Iterator: IteratorProtocol {
        /// Results of objects: the iteration (not generic, so an app's loop calls it directly).
        let objects: ObjectIteration?
        /// `objects` unretained (no retain/release per element).
        @usableFromInline let objectsRef: Unmanaged<ObjectIteration>?
        /// For results of values: the values, evaluated when iteration starts.
        private var values: IndexingIterator<[Element]>?
        init(results: Results<Element>) {
            if let v = results.valueCore {
                values = v.elements().makeIterator(); objects = nil; objectsRef = nil
                return
            }
            let o = ObjectIteration(results.core, type: Results.objectType, dynamic: Element.self is DynamicObject.Type)
            objects = o; objectsRef = Unmanaged.passUnretained(o)
        }
        @inlinable
        public mutating func next() -> Element? {
            if let objectsRef {
                guard let o = objectsRef._withUnsafeGuaranteedRef({ $0.next() }) else { return nil }
                return unsafeBitCast(o, to: Element.self)
            }
            return nextValue()
        }
        @usableFromInline mutating func nextValue() -> Element? { values!.next() }
    }
    /// Iterates in pages of keys (objects) or over one evaluation (values).
    public func makeIterator() -> Iterator { Iterator(results: self) }

    /// The position of `object` in the results (of the first equal value for results of values).
    public func index(of object: Element) -> Int? {
        if let v = valueCore { return v.elements().firstIndex(of: object) }
        let o = unsafeBitCast(object, to: ObjectBase.self)
        guard o._rlmCore?.coordinator === core.core.coordinator else { return nil }
        return core.keys().firstIndex(of: o._rlmKey)
    }

    // MARK: freezing, notifications

    /// Results on a frozen snapshot of the current version (shareable across threads).
    public func freeze() -> Results<Element> { core.requireValid(); return rebound(to: core.core.frozenCore()) }
    /// Live results on the current thread's realm (nil for results of values whose owning
    /// object was deleted).
    public func thaw() -> Results<Element>? {
        let live = rebound(to: core.core.coordinator.core(for: .currentThread()))
        return live.isInvalidated ? nil : live
    }

    /// Calls `block` with `.initial` and after each commit that changes the results, with the
    /// deleted, inserted and modified indexes (correct for filtered and sorted stages).
    /// `keyPaths` restricts which property changes count as modifications (objects only).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        core.requireValid()
        if valueCore != nil { return core.core.addCollectionObserver(ValueResultsSource(results: self), keyPaths: nil, queue: queue, block) }
        return core.core.addCollectionObserver(ResultsSource(results: self), keyPaths: keyPaths, queue: queue, block)
    }

    public var description: String {
        if let v = valueCore { return "Results<\(Element.self)>" + v.stagesDescription }
        return "Results<\(core.className)>" + (core.stages.isEmpty ? "" : "[" + core.stages.map(\.stageDescription).joined(separator: ", ") + "]")
    }
}

/// Iterates the objects of results in pages of keys (1024 at a time); see `Results.Iterator`
/// for when the object returned last is reused.
@usableFromInline
final class ObjectIteration {
    private let results: ResultsCore
    private let realmCore: RealmCore
    private let type: ObjectBase.Type
    /// The class info set on each object (nil for dynamic objects, which bind by name).
    private let info: ClassInfo?
    /// `info.isReusableAccessor`.
    private let reusable: Bool
    private var page: [ObjKey] = []
    private var pageIndex = 0
    private var position = 0
    /// The object returned last (a candidate for reuse once the caller let it go).
    private var last: ObjectBase?
    /// `last` unretained.
    private var lastRef: Unmanaged<ObjectBase>?

    init(_ results: ResultsCore, type: ObjectBase.Type, dynamic: Bool) {
        self.results = results
        realmCore = results.core
        self.type = type
        info = dynamic ? nil : realmCore.coordinator.infosByType[ObjectIdentifier(type)]
        reusable = info?.isReusableAccessor ?? false
        readInlineCounts = reusable && ObjectBase.inlineRefCountsReadable
    }
    /// `ObjectBase.inlineRefCountsReadable`, read once.
    private let readInlineCounts: Bool

    @usableFromInline
    func next() -> ObjectBase? {
        // One compare per element: the realm was invalidated during the iteration.
        if results.epoch != realmCore.readEpoch { results.requireValid() }
        if pageIndex == page.count {
            page = results.keys(from: position, count: 1024)
            pageIndex = 0
            if page.isEmpty { return nil }
        }
        let k = page[pageIndex]
        pageIndex += 1; position += 1
        if reusable, let ref = lastRef {
            // `last` holds the only reference: the one-load check, else the runtime's queries.
            let sole = readInlineCounts && ObjectBase.inlineRefCounts(ref.toOpaque()) & ~1 == ObjectBase.soleReferenceCounts
            if sole || lastIsOnlyReference() {
                ref._withUnsafeGuaranteedRef { $0._rlmKey = k }
                return ref.takeUnretainedValue()
            }
        }
        guard let info else { return realmCore.makeObject(type, key: k, className: results.className) }
        let o = type.init()
        o._rlmBind(realmCore, k, permanentInfo: info)
        last = o; lastRef = Unmanaged.passUnretained(o)
        return o
    }

    private func lastIsOnlyReference() -> Bool {
        guard var o = last else { return false }
        last = nil
        defer { last = o }
        return ObjectBase.isOnlyReference(&o)
    }
}

extension Results where Element: ObjectBase {
    /// The class of the objects.
    public var className: String { core.className }
    /// The stages after the base (query module extension point).
    public var stages: [any ResultsStage] { core.stages }
    /// New results with `stage` applied after the existing ones.
    public func appending(_ stage: any ResultsStage) -> Results<Element> {
        core.requireValid()
        return Results(core: core.core, className: core.className, base: core.base, stages: core.stages + [stage])
    }
    /// The keys of the objects, in order (evaluates the pipeline).
    public var objectKeys: [ObjKey] { core.keys() }
    /// Runs `body` with the realm's current transaction (aggregates and scans of the query module).
    public func withTransaction<R>(_ body: (DBTransaction) throws -> R) rethrows -> R {
        core.requireValid()
        return try core.core.readThrowing(body)
    }
    /// The schema of the class.
    public var objectSchema: ObjectSchema { core.core.coordinator.db.schema[className]! }

    // MARK: aggregates

    private func values(_ property: String) -> [Value] {
        let c = className
        guard let p = objectSchema[property], p.collection == .single else {
            strataProgrammerError("'\(property)' is not a single-valued property of '\(c)'")
        }
        let rc = core
        rc.requireValid()
        return core.core.read { txn in
            strataTry {
                if rc.isWholeClass {
                    // Column by column, cluster by cluster.
                    var out: [Value] = []
                    try txn.forEachCluster(c) { cl in
                        let col = try cl.column(property)
                        for i in 0..<col.count where !col.isNull(i) { out.append(col.value(i)) }
                        return true
                    }
                    return out
                }
                return try rc.evaluate(txn).map { try txn.value(c, $0, property) }.filter { !$0.isNull }
            }
        }
    }
    /// The smallest value of a property (nil when there are no non-null values).
    public func min<T: _StrataValue & Comparable>(ofProperty property: String) -> T? {
        values(property).map { T._strataDecode($0, _StrataContext(core: core.core)) }.min()
    }
    /// The largest value of a property.
    public func max<T: _StrataValue & Comparable>(ofProperty property: String) -> T? {
        values(property).map { T._strataDecode($0, _StrataContext(core: core.core)) }.max()
    }
    /// The sum of a numeric property (0 when empty).
    public func sum<T: _StrataValue & AdditiveArithmetic>(ofProperty property: String) -> T {
        if core.isWholeClass, objectSchema[property]?.type == .int, objectSchema[property]?.collection == .single {
            core.requireValid()
            let c = className
            let total: Int64 = core.core.read { txn in
                strataTry {
                    var s: Int64 = 0
                    try txn.forEachCluster(c) { cl in s &+= try cl.column(property).sumInts(); return true }
                    return s
                }
            }
            return T._strataDecode(.int(total), _StrataContext(core: core.core))
        }
        return values(property).map { T._strataDecode($0, _StrataContext(core: core.core)) }.reduce(.zero, +)
    }
    /// The average of a numeric property (nil when empty).
    public func average<T: _StrataValue & BinaryFloatingPoint>(ofProperty property: String) -> T? {
        let vs = values(property)
        guard !vs.isEmpty else { return nil }
        var s = 0.0
        for v in vs {
            switch v { case .int(let i): s += Double(i); case .double(let d): s += d; case .float(let f): s += Double(f)
            case .decimal(let d): s += d.doubleValue; default: break }
        }
        return T(s / Double(vs.count))
    }
    /// The average of a numeric property as a `Decimal128`, computed in decimal arithmetic for a
    /// Decimal128 property (nil when empty), as RealmSwift's `average(ofProperty:) -> Decimal128?`.
    public func average(ofProperty property: String) -> Decimal128? {
        let vs = values(property)
        guard !vs.isEmpty else { return nil }
        var s: Decimal128 = 0
        for v in vs {
            switch v { case .int(let i): s += Decimal128(number: Int(i)); case .double(let d): s += Decimal128(value: d)
            case .float(let f): s += Decimal128(value: Double(f)); case .decimal(let d): s += d; default: break }
        }
        return s / Decimal128(number: vs.count)
    }
}
