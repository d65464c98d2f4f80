import Foundation
import Synchronization
// `_forEachField`: the offsets of a class's stored fields (`ClassInfo.initialReaders`).
@_spi(Reflection) import Swift

/// One property of a model class as the typed API knows it.
struct PropInfo {
    let index: Int
    let name: String
    let schema: PropertySchema
    let valueType: any _Persistable.Type
    /// Set for links (single, list, set, map) and linking objects.
    let targetType: ObjectBase.Type?
    /// For single values: converts the Swift value (as `Any`) to a `Value`.
    let encode: ((Any, _StrataContext) throws -> Value)?
}

/// An append-only table of (identity, index) pairs read without a lock: entries are written
/// under the owner's lock, then published by the count (release/acquire).
final class IdentityTable: @unchecked Sendable {
    private let capacity: Int
    private let ids: UnsafeMutablePointer<UInt>
    private let indexes: UnsafeMutablePointer<Int>
    private let published = Atomic<Int>(0)
    init(capacity: Int) {
        self.capacity = capacity
        ids = .allocate(capacity: capacity)
        indexes = .allocate(capacity: capacity)
    }
    deinit { ids.deallocate(); indexes.deallocate() }
    @inline(__always) func find(_ id: UInt) -> Int? {
        let n = published.load(ordering: .acquiring)
        var j = 0
        while j < n { if ids[j] == id { return indexes[j] }; j += 1 }
        return nil
    }
    /// Adds an entry (callers hold the owner's lock). False when full.
    func add(_ id: UInt, _ index: Int) -> Bool {
        let n = published.load(ordering: .relaxed)
        guard n < capacity else { return false }
        ids[n] = id; indexes[n] = index
        published.store(n + 1, ordering: .releasing)
        return true
    }
}

private func makeEncoder<V: _StrataValue>(_ t: V.Type) -> (Any, _StrataContext) throws -> Value {
    { any, ctx in try (any as! V)._strataEncode(ctx) }
}

/// What Strata knows about one `Object`/`EmbeddedObject` subclass: its schema, its properties
/// in declaration order and a probe instance that maps key paths to properties.
@usableFromInline
final class ClassInfo: @unchecked Sendable {
    static let globalLock = NSRecursiveLock()
    nonisolated(unsafe) private static var byType: [ObjectIdentifier: ClassInfo] = [:]

    let type: ObjectBase.Type
    let className: String
    let isEmbedded: Bool
    private(set) var properties: [PropInfo] = []
    /// `properties.count`.
    let propertyCount: Int
    private(set) var objectSchema: ObjectSchema
    private var tagToIndex: [Int32: Int] = [:]
    private(set) var nameToIndex: [String: Int] = [:]
    /// True when every stored property is a single plain value (no links, mixed values or
    /// collections): adding such an object is one row insert.
    private(set) var isPlain = false
    /// Where an unmanaged object of this class keeps each property's value.
    let unmanagedLayout: _UnmanagedLayout
    /// An instance built in tagging mode: each `@Persisted` wrapper holds its tag (its place in
    /// initialisation order). Key-path probes run only under `globalLock`; the wrappers' tags
    /// never change after the probe is built and are read without it (`_probeRef`).
    let probe: ObjectBase
    /// `probe` unretained: the property accessors read the tag of the probe's wrapper at the
    /// accessed property's place (a direct load once the key path projection is folded), so no
    /// key path object is formed, retained or looked up per access.
    @usableFromInline let _probeRef: Unmanaged<ObjectBase>
    /// `type`'s identity (the accessors check an object's dynamic type against it before
    /// reading the probe as an instance of the object's class).
    @usableFromInline let _typeID: ObjectIdentifier
    /// Tag → property index (-1: no property of this class has that tag); `_tagCount` entries.
    @usableFromInline let _tagIndex: UnsafeMutablePointer<Int>
    @usableFromInline let _tagCount: Int
    /// True for the infos of `ClassInfo.of` (kept by the registry for the life of the process).
    let isPermanent: Bool
    /// True when the class stores nothing but `@Persisted` properties: a managed instance
    /// nobody references any more may be re-pointed at another row (`Results.Iterator`).
    private(set) var isReusableAccessor = false

    /// The class info of `type`, built on first use.
    static func of(_ type: ObjectBase.Type) -> ClassInfo {
        // Class infos live as long as the process: the lock-free table holds unretained pointers.
        if let p = known.find(UInt(bitPattern: ObjectIdentifier(type))) {
            return Unmanaged<ClassInfo>.fromOpaque(UnsafeRawPointer(bitPattern: p)!).takeUnretainedValue()
        }
        globalLock.lock(); defer { globalLock.unlock() }
        if let i = byType[ObjectIdentifier(type)] { return i }
        let i = ClassInfo(type)
        byType[ObjectIdentifier(type)] = i
        _ = known.add(UInt(bitPattern: ObjectIdentifier(type)), Int(bitPattern: Unmanaged.passUnretained(i).toOpaque()))
        return i
    }
    /// Type → class info (unretained) for the first classes, read without the lock.
    private static let known = IdentityTable(capacity: 4096)

    private init(_ type: ObjectBase.Type) {
        guard type != Object.self && type != EmbeddedObject.self && type != ObjectBase.self else {
            strataProgrammerError("\(type) itself cannot be stored: declare a subclass with @Persisted properties")
        }
        self.type = type
        self.className = type.className()
        self.isEmbedded = type is EmbeddedObject.Type
        let saved = probeTagCounter.value
        probeTagCounter.value = 1
        probesBeingBuilt += 1
        let probe = type.init()
        probesBeingBuilt -= 1
        probeTagCounter.value = saved
        probe._rlmIsProbe = true
        self.probe = probe
        var found: [(String, _AnyPersisted)] = []
        var otherState = false
        func collect(_ m: Mirror) {
            if let s = m.superclassMirror { collect(s) }
            // ObjectBase's own fields are the accessor's binding, not app state.
            let isBase = m.subjectType == ObjectBase.self || m.subjectType == Object.self || m.subjectType == EmbeddedObject.self
            for c in m.children {
                guard let label = c.label, label.hasPrefix("_"), let p = c.value as? _AnyPersisted else {
                    if !isBase { otherState = true }
                    continue
                }
                found.append((String(label.dropFirst()), p))
            }
        }
        collect(Mirror(reflecting: probe))
        allInitialReaders = Self.initialReaders(type, found)
        var props: [PropInfo] = []
        let persistedNames = type.propertiesMapping()
        let declared = Self.overriddenDeclarations(of: type)
        if let pk = declared.primaryKey, !found.contains(where: { $0.0 == pk || persistedNames[$0.0] == pk }) {
            strataProgrammerError("\(type).primaryKey() returns '\(pk)', which is not a @Persisted property of \(type): return the name of one, or declare the key with @Persisted(primaryKey: true)")
        }
        for (i, (swiftName, p)) in found.enumerated() {
            let name = persistedNames[swiftName] ?? swiftName
            let vt = Swift.type(of: p)._valueType
            let shape = vt._strataShape
            var origin: String? = nil
            if shape.type == .linkingObjects, let lo = p._initialAny as? _AnyLinkingObjects { origin = lo._originPropertyName }
            let ps = PropertySchema(name: name, type: shape.type, collection: shape.collection, isOptional: shape.optional,
                                    objectClassName: shape.objectType.map { $0.className() },
                                    linkOriginPropertyName: origin,
                                    isPrimaryKey: p._flags & 1 != 0 || (declared.primaryKey != nil && (declared.primaryKey == swiftName || declared.primaryKey == name)),
                                    isIndexed: p._flags & 2 != 0 || declared.indexed.contains(swiftName) || declared.indexed.contains(name))
            let enc = (vt as? any _StrataValue.Type).map { makeEncoder($0) }
            props.append(PropInfo(index: i, name: name, schema: ps, valueType: vt, targetType: shape.objectType, encode: enc))
            if p._tag >= 0 { tagToIndex[p._tag] = i }
            nameToIndex[name] = i
            nameToIndex[swiftName] = i
        }
        properties = props
        let tagCount = (tagToIndex.keys.max().map { Int($0) } ?? 0) + 1
        _tagIndex = .allocate(capacity: tagCount)
        _tagIndex.initialize(repeating: -1, count: tagCount)
        for (t, i) in tagToIndex where t >= 0 { _tagIndex[Int(t)] = i }
        _tagCount = tagCount
        _probeRef = Unmanaged.passUnretained(probe)
        _typeID = ObjectIdentifier(type)
        isPermanent = true
        isReusableAccessor = !otherState
        propertyCount = props.count
        unmanagedLayout = _UnmanagedLayout(props.map(\.valueType))
        isPlain = props.allSatisfy { p in
            p.schema.type == .linkingObjects
                || (p.schema.collection == .single && p.schema.type != .object && p.schema.type != .mixed && p.encode != nil)
        }
        objectSchema = ObjectSchema(className: className, properties: props.map(\.schema), isEmbedded: isEmbedded)
    }

    /// The info of a class known only by name in the file (a `DynamicObject`'s): no typed
    /// properties; `className` is the file's class, so equality, hashing and deletes use it.
    init(dynamicClass name: String, objectSchema: ObjectSchema) {
        type = DynamicObject.self
        className = name
        isEmbedded = objectSchema.isEmbedded
        self.objectSchema = objectSchema
        allInitialReaders = []
        propertyCount = 0
        unmanagedLayout = _UnmanagedLayout([])
        probe = DynamicObject()
        probe._rlmIsProbe = true
        _probeRef = Unmanaged.passUnretained(probe)
        _typeID = ObjectIdentifier(DynamicObject.self)
        isPermanent = false
        _tagIndex = .allocate(capacity: 1)
        _tagIndex.initialize(to: -1)
        _tagCount = 1
    }
    deinit { _tagIndex.deallocate() }

    /// The property index of the wrapper whose probe counterpart has tag `tag`.
    @inlinable @inline(__always)
    func _index(forTag tag: Int32) -> Int {
        let t = Int(tag)
        if t > 0 && t < _tagCount {
            let i = _tagIndex[t]
            if i >= 0 { return i }
        }
        return _unknownTag(tag)
    }
    @usableFromInline @inline(never)
    func _unknownTag(_ tag: Int32) -> Int {
        strataProgrammerError("cannot map a @Persisted property (tag \(tag)) to the schema of \(className)")
    }

    /// Readers of the declared defaults of every property of an instance (its wrappers'
    /// initial values, read at their offsets: no `Mirror` per object added), or nil when this
    /// runtime does not describe the class's fields (`ObjectAdder` then reflects).
    let allInitialReaders: [(ObjectBase) -> Any?]?

    /// The readers of `allInitialReaders`, from the offsets of the `@Persisted` storage fields
    /// (`_name`) in instances of `type` (superclass fields included); nil unless every property
    /// of `found` (Swift names, property order) has exactly one.
    private static func initialReaders(_ type: ObjectBase.Type, _ found: [(String, _AnyPersisted)]) -> [(ObjectBase) -> Any?]? {
        var index: [String: Int] = [:]
        for (i, (name, _)) in found.enumerated() { index["_" + name] = i }
        var readers = [((ObjectBase) -> Any?)?](repeating: nil, count: found.count)
        // `_EachFieldOptions.classType` (a mutable static the strict concurrency checks refuse):
        // should the flag change, the walk answers false and `ObjectAdder` reflects instead
        // (TypedAccessorTests checks the readers exist).
        let described = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, fieldType, _ in
            if let i = index[String(cString: name)], let w = fieldType as? any _AnyPersisted.Type, readers[i] == nil {
                readers[i] = w._initialReader(wrapperOffset: offset)
            }
            return true
        }
        guard described else { return nil }
        let all = readers.compactMap { $0 }
        return all.count == found.count ? all : nil
    }

    /// The property names a key path reads (`\Person.dog?.name` → ["dog", "name"]).
    func propertyNames(_ keyPath: AnyKeyPath) -> [String] {
        Self.globalLock.lock(); defer { Self.globalLock.unlock() }
        KeyPathRecorder.recorded = []
        _ = probe[keyPath: keyPath]
        let r = KeyPathRecorder.recorded
        KeyPathRecorder.recorded = []
        return r.map { $0.0.properties[$0.1].name }
    }

    /// Every class reachable through links from `types` (the schema of a configuration).
    static func closure(_ types: [ObjectBase.Type]) -> [ClassInfo] {
        var out: [ClassInfo] = []
        var seen = Set<ObjectIdentifier>()
        var queue = types
        while let t = queue.popLast() {
            guard seen.insert(ObjectIdentifier(t)).inserted else { continue }
            let info = ClassInfo.of(t)
            out.append(info)
            for p in info.properties { if let tt = p.targetType { queue.append(tt) } }
        }
        return out
    }

    /// Every class built so far (the schema when a configuration lists no object types).
    static var allKnown: [ClassInfo] { globalLock.lock(); defer { globalLock.unlock() }; return Array(byType.values) }
}

/// The common base of `Object` and `EmbeddedObject` (RealmSwift's `ObjectBase`).
open class ObjectBase: CustomStringConvertible {
    /// The realm this object is managed by (nil while unmanaged).
    // The per-object state read on every property access: plain loads and stores, never
    // accessed overlapping, so without the runtime's exclusivity bookkeeping.
    @exclusivity(unchecked) @usableFromInline final var _rlmCore: RealmCore?
    @exclusivity(unchecked) final var _rlmKey: ObjKey = -1
    /// The realm's `readEpoch` when this accessor was made: a different value now means the
    /// realm was invalidated since, and the accessor may not be used.
    @exclusivity(unchecked) final var _rlmEpoch = 0
    /// Values of an unmanaged object, by property index (created by the first value set).
    @exclusivity(unchecked) @usableFromInline final var _rlmStorage: _UnmanagedStorage?
    @exclusivity(unchecked) @usableFromInline final var _rlmIsProbe = false
    /// The managed collection accessors read so far (`List`, `MutableSet`, `Map`), made on the
    /// first read of such a property: every read of it returns the same accessor.
    @exclusivity(unchecked) final var _rlmAccessors: _AccessorCache?
    /// The class info, once known (set on managed objects when they are made).
    final var _rlmInfoCache: ClassInfo? {
        get { _rlmInfoRef?.takeUnretainedValue() }
        set {
            // Infos of model classes live as long as the process: only a dynamic object's own
            // info needs a strong reference (no retain/release per object made otherwise).
            _rlmInfoStrong = newValue.flatMap { $0.isPermanent ? nil : $0 }
            _rlmInfoRef = newValue.map { Unmanaged.passUnretained($0) }
        }
    }
    @exclusivity(unchecked) private final var _rlmInfoStrong: ClassInfo?
    /// `_rlmInfoCache` unretained, for the property accessors' hot paths (no retain/release
    /// per access; the class info registry, or `_rlmInfoStrong` for a dynamic object's info,
    /// keeps it alive).
    @exclusivity(unchecked) @usableFromInline final var _rlmInfoRef: Unmanaged<ClassInfo>?

    /// The class info of the object's own class, unretained (class infos of model types live
    /// as long as the process; a dynamic object's is held by `_rlmInfoCache`): the cached one
    /// when it is the info of the object's dynamic type, else looked up once.
    @inlinable @inline(__always)
    final var _rlmAccessInfo: Unmanaged<ClassInfo> {
        if let r = _rlmInfoRef, r._withUnsafeGuaranteedRef({ $0._typeID }) == ObjectIdentifier(type(of: self)) { return r }
        return _rlmLookUpAccessInfo()
    }
    /// Makes a new instance the accessor of row `key` of `core`, with `info` (a model class's
    /// info, of the object's own class) cached without a reference count.
    @inline(__always)
    final func _rlmBind(_ core: RealmCore, _ key: ObjKey, permanentInfo info: ClassInfo) {
        _rlmCore = core; _rlmKey = key; _rlmEpoch = core.readEpoch
        _rlmInfoRef = Unmanaged.passUnretained(info)
    }
    @usableFromInline @inline(never)
    final func _rlmLookUpAccessInfo() -> Unmanaged<ClassInfo> {
        let i = ClassInfo.of(type(of: self))
        if _rlmInfoCache == nil { _rlmInfoCache = i }
        return Unmanaged.passUnretained(i)
    }

    /// Creates an unmanaged object with default values.
    public required init() {}

    /// The name of the class in the database: the Swift type's own name, without module or
    /// enclosing types. Override to store the class under another name.
    open class func className() -> String { _realmObjectName() ?? _typeName(self, qualified: false) }

    /// RealmSwift's class name override: the name of the class in the file when not nil.
    open class func _realmObjectName() -> String? { nil }

    /// The name of the primary key property, or nil.
    ///
    /// Declare it with `@Persisted(primaryKey: true)`, or, as RealmSwift's older models do, by
    /// overriding this method to return the property's name (the property must be
    /// `@Persisted`; an override naming no such property makes opening a realm with the class
    /// trap with a message naming it).
    open class func primaryKey() -> String? {
        if ClassInfo.isReadingDeclarations(of: self) { return ClassInfo.notOverridden }
        return sharedSchema()?.primaryKeyProperty?.name
    }
    /// The names of the indexed properties.
    ///
    /// Declare them with `@Persisted(indexed: true)`, or by overriding this method (the names
    /// it returns are indexed in addition to those of `@Persisted(indexed: true)`).
    open class func indexedProperties() -> [String] {
        if ClassInfo.isReadingDeclarations(of: self) { return [ClassInfo.notOverridden] }
        return sharedSchema()?.properties.filter(\.isIndexed).map(\.name) ?? []
    }
    /// RealmSwift's list of properties not to store. Strata stores only `@Persisted`
    /// properties, so every other property is already ignored: overriding this has no effect
    /// (it is here so models that override it compile).
    open class func ignoredProperties() -> [String] { [] }

    /// Swift property name → name in the file, for properties stored under another name
    /// (RealmSwift's `propertiesMapping()`). The typed API and key paths use the Swift names;
    /// query strings and the dynamic API use the names in the file.
    open class func propertiesMapping() -> [String: String] { [:] }

    final var _rlmClassInfo: ClassInfo {
        if let i = _rlmInfoCache { return i }
        let i = ClassInfo.of(type(of: self))
        _rlmInfoCache = i
        return i
    }

    /// True when `object` is referenced by `object` alone: no other strong reference, and no
    /// weak or unowned reference (which could observe a re-pointed accessor).
    /// `readInlineCounts` (pass `inlineRefCountsReadable`): first try the one-load check of the
    /// object's inline reference counts; the runtime's three queries decide otherwise.
    @inline(__always)
    static func isOnlyReference(_ object: inout ObjectBase, readInlineCounts: Bool = false) -> Bool {
        if readInlineCounts && inlineRefCounts(Unmanaged.passUnretained(object).toOpaque()) & ~1 == Self.soleReferenceCounts { return true }
        return isKnownUniquelyReferenced(&object) && _getWeakRetainCount(object) == 1 && _getUnownedRetainCount(object) == 1
    }

    /// The word of inline reference counts of the Swift runtime (after the isa pointer): bit 0
    /// pure-Swift deallocation, bits 1-31 unowned count (1 for all strong references together),
    /// bit 32 deiniting, bits 33-62 extra strong references, bit 63 a side table (made by the
    /// first weak reference). One strong reference and nothing else: 1 << 1, bit 0 either way.
    @inline(__always)
    static func inlineRefCounts(_ object: UnsafeMutableRawPointer) -> UInt64 {
        // Read through the address, not the reference: passing the object could retain it.
        UnsafeRawPointer(object).load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt64.self)
    }
    static let soleReferenceCounts: UInt64 = 1 << 1

    /// True when this runtime lays out inline reference counts as `inlineRefCounts` reads them:
    /// checked once against a sole reference, a second strong, an unowned and a weak reference
    /// (any mismatch leaves the runtime's queries alone deciding).
    static let inlineRefCountsReadable: Bool = verifyInlineRefCountLayout()
    /// Not optimised: the optimiser would otherwise move or merge the raw loads of the counts
    /// across the reference changes they check.
    @_optimize(none)
    private static func verifyInlineRefCountLayout() -> Bool {
        guard MemoryLayout<UInt>.size == 8 else { return false }
        var probe = ObjectBase()
        let address = Unmanaged.passUnretained(probe).toOpaque()
        func sole() -> Bool { inlineRefCounts(address) & ~1 == soleReferenceCounts }
        guard sole(), isKnownUniquelyReferenced(&probe) else { return false }
        // Each reference is held by an object made in a function the optimiser cannot see
        // through, so it exists while checked.
        do {
            let second = opaqueHolder(probe)
            guard !sole() else { return false }
            withExtendedLifetime(second) {}
        }
        guard sole() else { return false }
        do {
            let u = opaqueUnownedHolder(probe)
            guard !sole() else { return false }
            withExtendedLifetime(u) {}
        }
        guard sole() else { return false }
        let w = opaqueWeakHolder(probe)
        guard !sole() else { return false }
        withExtendedLifetime(w) {}
        return true
    }
    private final class StrongHolder { let o: ObjectBase; init(_ o: ObjectBase) { self.o = o } }
    private final class UnownedHolder { unowned let o: ObjectBase; init(_ o: ObjectBase) { self.o = o } }
    private final class WeakHolder { weak var o: ObjectBase?; init(_ o: ObjectBase) { self.o = o } }
    @inline(never) private static func opaqueHolder(_ o: ObjectBase) -> AnyObject { StrongHolder(o) }
    @inline(never) private static func opaqueUnownedHolder(_ o: ObjectBase) -> AnyObject { UnownedHolder(o) }
    @inline(never) private static func opaqueWeakHolder(_ o: ObjectBase) -> AnyObject { WeakHolder(o) }

    /// The realm managing this object, or nil when unmanaged.
    public var realm: Realm? { _rlmCore.map { Realm(core: $0) } }
    /// The schema of this object's class.
    public var objectSchema: ObjectSchema { _rlmCore?.coordinator.db.schema[_rlmClassInfo.className] ?? _rlmClassInfo.objectSchema }
    /// True when the object was deleted, or its realm invalidated (`Realm.invalidate()` after
    /// the object was obtained); reading or writing it then traps.
    public var isInvalidated: Bool {
        guard let core = _rlmCore else { return false }
        if core.readEpoch != _rlmEpoch { return true }
        return !core.read { txn in (try? txn.exists(_rlmClassInfo.className, _rlmKey)) ?? false }
    }

    /// Traps when the realm managing this object was invalidated after the object was obtained.
    @inline(__always)
    final func _rlmRequireValid() {
        if let core = _rlmCore, core.readEpoch != _rlmEpoch { _rlmInvalidatedAccess() }
    }
    @inline(never)
    final func _rlmInvalidatedAccess() -> Never {
        _rlmCore!.invalidatedAccess("object of type \(_rlmClassInfo.className) which has been invalidated or deleted")
    }
    /// True for an object of a frozen realm (immutable, readable from any thread).
    public var isFrozen: Bool { _rlmCore?.isFrozen ?? false }
    /// The key of a managed object within its class (nil when unmanaged). Used by the dynamic API.
    public var objectKey: ObjKey? { _rlmCore == nil ? nil : _rlmKey }

    // MARK: reading and writing through the realm

    final func _rlmReadValue(_ index: Int) -> Value {
        let info = _rlmClassInfo, key = _rlmKey, epoch = _rlmEpoch
        // The object keeps its core alive: no retain of the core per read.
        return Unmanaged.passUnretained(_rlmCore!)._withUnsafeGuaranteedRef { core in
            if core.readEpoch != epoch { _rlmInvalidatedAccess() }
            return core.read { txn in strataTry { try txn.typedValue(info, key, index) } }
        }
    }

    /// Reads property `index` straight from its column (`RealmCore.typedRead`); nil when that
    /// path does not apply and `_rlmReadValue` must be used.
    @inline(__always)
    final func _rlmFastRead<R>(_ index: Int, _ body: (ColumnView, Int) -> R?) -> R? {
        let key = _rlmKey, epoch = _rlmEpoch
        guard let infoID = _rlmInfoRef?.toOpaque() else { return nil }
        return Unmanaged.passUnretained(_rlmCore!)._withUnsafeGuaranteedRef { core in
            // One compare per access: the object was obtained before `invalidate()`.
            if core.readEpoch != epoch { _rlmInvalidatedAccess() }
            if let r = core.typedRead(infoID, key, index, body) { return r }
            // First read of this class in this transaction: set the cursor, then retry once.
            guard core.prepareTypedRead(_rlmClassInfo) else { return nil }
            return core.typedRead(infoID, key, index, body)
        }
    }

    /// Writes a single-valued property (links to unmanaged objects add them; embedded objects
    /// are created as children).
    final func _rlmWriteSingle<V: _StrataValue>(_ index: Int, _ value: V) {
        let info = _rlmClassInfo, key = _rlmKey, p = info.properties[index]
        _rlmRequireValid()
        _rlmCore!.write { txn, adder in
            if p.schema.type == .object, let tt = p.targetType, tt is EmbeddedObject.Type {
                try adder.assignEmbedded(parentClass: info.className, parentKey: key, property: p.name, child: value as? ObjectBase)
                return
            }
            if p.schema.isPrimaryKey { throw ObjectError.primaryKeyChange(className: info.className) }
            try txn.set(info.className, key, p.name, try value._strataEncode(_StrataContext(core: adder.core, adder: adder)))
        }
    }

    /// The value of a property as a Swift value (`Any`), managed or not.
    final func _rlmValue(at index: Int) -> Any {
        let p = _rlmClassInfo.properties[index]
        if _rlmCore != nil { return p.valueType._strataGet(self, index) }
        let s = _rlmUnmanagedStorage()
        if let v = s.getAny(index) { return v }
        let v = _rlmInitialValue(index) ?? p.valueType._strataDefault()
        s.setAny(index, v)
        return v
    }

    /// The declared default of a property (read at its wrapper's offset, or through `Mirror`).
    final func _rlmInitialValue(_ index: Int) -> Any? {
        if let readers = _rlmClassInfo.allInitialReaders, index < readers.count { return readers[index](self) }
        var all: [_AnyPersisted] = []
        func collect(_ m: Mirror) {
            if let s = m.superclassMirror { collect(s) }
            for c in m.children { if let l = c.label, l.hasPrefix("_"), let p = c.value as? _AnyPersisted { all.append(p) } }
        }
        collect(Mirror(reflecting: self))
        return index < all.count ? all[index]._initialAny : nil
    }

    /// Sets a property from a loosely typed value (dictionary values of `create`, KVC).
    final func _rlmSetValue(_ any: Any?, at index: Int) throws {
        let p = _rlmClassInfo.properties[index]
        guard p.schema.type != .linkingObjects else { throw ObjectError.wrongType("'\(_rlmClassInfo.className).\(p.name)'", expected: "linking objects (read-only)", got: "a value") }
        let v = try _rlmTypedValue(any, p)
        if _rlmCore != nil { _rlmSetTyped(v, p) } else {
            func open<T: _Persistable>(_ v: T) { T._strataSetUnmanaged(self, index, v) }
            open(v)
        }
    }

    private func _rlmTypedValue(_ any: Any?, _ p: PropInfo) throws -> any _Persistable {
        func open<T: _Persistable>(_ t: T.Type) throws -> any _Persistable { try T._strataFromAny(any as Any) }
        do { return try open(p.valueType) } catch ObjectError.integerOutOfRange(_, let v, let t, let lo, let hi) {
            // Named by the property (the conversion does not know it).
            throw ObjectError.integerOutOfRange("'\(_rlmClassInfo.className).\(p.name)'", value: v, type: t, min: lo, max: hi)
        }
    }

    private func _rlmSetTyped(_ v: any _Persistable, _ p: PropInfo) {
        func open<T: _Persistable>(_ v: T) { T._strataSet(self, p.index, v) }
        open(v)
    }

    /// Reads or writes a property by name (RealmSwift's key-value coding subscript). Reads give
    /// what RealmSwift's do: an enum's raw value, a custom persistable's persisted value, an
    /// `AnyRealmValue`'s value (nil for `.none`); writes take those or the Swift values.
    public subscript(key: String) -> Any? {
        get {
            guard let i = _rlmClassInfo.nameToIndex[key] else { strataProgrammerError("class '\(_rlmClassInfo.className)' has no property named '\(key)'") }
            return kvcRepresentation(unwrapAny(_rlmValue(at: i)))
        }
        set {
            guard let i = _rlmClassInfo.nameToIndex[key] else { strataProgrammerError("class '\(_rlmClassInfo.className)' has no property named '\(key)'") }
            do { try _rlmSetValue(newValue, at: i) } catch { strataProgrammerError("\(error)") }
        }
    }

    /// The property values, in declaration order.
    public var description: String {
        if _rlmCore != nil && isInvalidated { return "[invalid object]" }
        let info = _rlmClassInfo
        var parts: [String] = []
        for p in info.properties where p.schema.type != .linkingObjects {
            let v = _rlmValue(at: p.index)
            let text: String
            if let o = unwrapAny(v) as? ObjectBase { text = "\(o._rlmClassInfo.className) \(o._rlmCore != nil ? "#\(o._rlmKey)" : "(unmanaged)")" }
            else if let c = v as? CustomStringConvertible { text = c.description }
            else { text = "\(unwrapAny(v) ?? "nil")" }
            parts.append("\t\(p.name) = \(text);")
        }
        return "\(info.className) {\n" + parts.joined(separator: "\n") + "\n}"
    }

    // MARK: key paths

    /// The property names a key path of this class reads (`\Person.dog?.name` → "dog.name").
    public static func _propertyName(for keyPath: AnyKeyPath) -> String {
        ClassInfo.of(self).propertyNames(keyPath).joined(separator: ".")
    }
}

/// Unwraps `Optional<Any>` stored in an `Any`.
func unwrapAny(_ v: Any) -> Any? {
    var cur = v
    while true {
        let m = Mirror(reflecting: cur)
        guard m.displayStyle == .optional else { return cur }
        guard let inner = m.children.first?.value else { return nil }
        cur = inner
    }
}

/// A top-level object class (RealmSwift's `Object`): subclass it and declare `@Persisted`
/// properties.
open class Object: ObjectBase {
    /// Creates an unmanaged object with default values.
    public required init() { super.init() }

    /// Creates an unmanaged object from a dictionary (property name → value), an array (values
    /// in property order) or another object.
    public convenience init(value: Any) {
        self.init()
        do { try ObjectAdder.apply(value, to: self) } catch { strataProgrammerError("\(error)") }
    }

    /// Calls `block` on the object's thread (or `queue`) after each commit that changes this
    /// object, with the changed properties (old and new values), or `.deleted`. A change of a
    /// linked object (up to four links away) is reported as a change of the link property.
    /// `keyPaths` limits the properties that trigger it; dotted paths reach through links
    /// (`"dogs.name"`: the list and its dogs' names). An unknown property in a key path traps,
    /// naming it and the class.
    public func observe<T: Object>(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                                   _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        guard let core = _rlmCore, let me = self as? T else { strataProgrammerError("only managed objects can be observed: add the object to a realm first") }
        _rlmRequireValid()
        return core.addObjectObserver(me, keyPaths: keyPaths, queue: queue, block)
    }

    /// Observes with key paths given as Swift key paths (`[\Dog.name]`).
    public func observe<T: Object>(keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
                                   _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map { T._propertyName(for: $0) }, on: queue, block)
    }
}

/// An object that lives inside its parent object (RealmSwift's `EmbeddedObject`): it has no
/// primary key, cannot be added on its own, and is deleted with its parent.
open class EmbeddedObject: ObjectBase {
    /// Creates an unmanaged embedded object with default values.
    public required init() { super.init() }

    /// Creates an unmanaged embedded object from a dictionary, an array or another object.
    public convenience init(value: Any) {
        self.init()
        do { try ObjectAdder.apply(value, to: self) } catch { strataProgrammerError("\(error)") }
    }
}

extension ObjectBase: Hashable {
    /// Managed objects are equal when they are the same row of the same file; unmanaged
    /// objects only to themselves.
    public static func == (a: ObjectBase, b: ObjectBase) -> Bool {
        if a === b { return true }
        guard let ca = a._rlmCore, let cb = b._rlmCore else { return false }
        return ca.coordinator === cb.coordinator && a._rlmKey == b._rlmKey && a._rlmClassInfo.className == b._rlmClassInfo.className
    }
    public func hash(into h: inout Hasher) {
        if _rlmCore != nil { h.combine(_rlmKey); h.combine(_rlmClassInfo.className) } else { h.combine(ObjectIdentifier(self)) }
    }
}

extension ObjectBase: _StrataValue {
    public static var _strataType: PropertyType { .object }
    public static var _strataObjectType: ObjectBase.Type? { self }
    public static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> Self {
        guard case .object(let l) = value, let core = ctx.core else {
            strataProgrammerError("expected a link to \(className()), found \(value)")
        }
        // A `DynamicObject` takes its class from the link (a dynamic collection's target class).
        return core.makeObject(Self.self, key: l.key, className: l.className)
    }
    public func _strataEncode(_ ctx: _StrataContext) throws -> Value {
        if let core = _rlmCore, let c = ctx.core, core.coordinator === c.coordinator, !core.isFrozen {
            _rlmRequireValid()
            return .object(ObjectLink(className: _rlmClassInfo.className, key: _rlmKey))
        }
        guard let adder = ctx.adder else {
            throw ObjectError.wrongType("a link", expected: "managed objects", got: "an unmanaged \(_rlmClassInfo.className)")
        }
        return .object(ObjectLink(className: _rlmClassInfo.className, key: try adder.add(self)))
    }
    public static func _strataDefault() -> Self { Self() }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        if let o = any as? Self { return o }
        if let d = any as? [String: Any] { let o = Self(); try ObjectAdder.apply(d, to: o); return o }
        if let a = any as? [Any] { let o = Self(); try ObjectAdder.apply(a, to: o); return o }
        throw ObjectError.wrongType("a link to \(className())", expected: "\(className()) objects", got: "\(type(of: any))")
    }
}
