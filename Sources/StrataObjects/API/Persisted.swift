import Foundation

/// Context handed to value conversions: the realm an object belongs to (nil when unmanaged)
/// and, inside a write, the object adder that adds unmanaged linked objects on the way.
public struct _StrataContext {
    let core: RealmCore?
    let adder: ObjectAdder?
    init(core: RealmCore?, adder: ObjectAdder? = nil) { self.core = core; self.adder = adder }
}

/// How a property type is stored (type, collection kind, optionality, link target).
public struct _PropertyShape {
    let type: PropertyType
    let collection: CollectionKind
    let optional: Bool
    let objectType: ObjectBase.Type?
}

/// A Swift type stored as one `Value`: the property types, their optionals, objects (links)
/// and `AnyRealmValue`. Implementation detail of the typed API.
public protocol _StrataValue {
    static var _strataType: PropertyType { get }
    static var _strataOptional: Bool { get }
    static var _strataObjectType: ObjectBase.Type? { get }
    static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> Self
    func _strataEncode(_ ctx: _StrataContext) throws -> Value
    static func _strataDefault() -> Self
    /// Converts a loosely typed value (from `create(_:value:)` or `object["name"] = x`).
    static func _strataFromAny(_ any: Any) throws -> Self
    /// Decodes a stored value of an optional property or element: nil where the type rejects
    /// the stored value (an enum raw value that is no case, a failable custom persistable's
    /// `init?(persistedValue:)` failing), as RealmSwift reads such values in optional contexts.
    static func _strataDecodeInOptional(_ value: Value, _ ctx: _StrataContext) -> Self?
    /// Converts a loosely typed value for an optional property or element: nil where the
    /// type rejects the value (see `_strataDecodeInOptional`).
    static func _strataFromAnyInOptional(_ any: Any) throws -> Self?
}

extension _StrataValue {
    public static var _strataOptional: Bool { false }
    public static var _strataObjectType: ObjectBase.Type? { nil }
    /// Every stored value of the type is valid: the plain decode.
    @inlinable
    public static func _strataDecodeInOptional(_ value: Value, _ ctx: _StrataContext) -> Self? { _strataDecode(value, ctx) }
    /// Every value the type converts is valid: the plain conversion.
    public static func _strataFromAnyInOptional(_ any: Any) throws -> Self? { try _strataFromAny(any) }
}

/// Types that can be elements of `List`, `MutableSet`, `Map` and `Results` (RealmSwift's name).
public protocol RealmCollectionValue: _StrataValue, Hashable {}

/// Types `@Persisted` accepts. Implementation detail of the typed API.
public protocol _Persistable {
    static var _strataShape: _PropertyShape { get }
    static func _strataDefault() -> Self
    /// Reads the property `index` of a managed object.
    static func _strataGet(_ object: ObjectBase, _ index: Int) -> Self
    /// Writes the property `index` of a managed object (inside a write transaction).
    static func _strataSet(_ object: ObjectBase, _ index: Int, _ value: Self)
    static func _strataFromAny(_ any: Any) throws -> Self
    /// The value a key-path probe returns (objects return a probe of their class).
    static func _strataProbeValue() -> Self
    /// Writes the property `index` of an unmanaged object. Collections copy the assigned
    /// collection's elements into the one the object has (RealmSwift's assignment semantics).
    static func _strataSetUnmanaged(_ object: ObjectBase, _ index: Int, _ value: Self)
}

extension _Persistable {
    public static func _strataProbeValue() -> Self { _strataDefault() }
    /// Stores the value in the object's slot.
    @inlinable @inline(__always)
    public static func _strataSetUnmanaged(_ object: ObjectBase, _ index: Int, _ value: Self) {
        object._rlmUnmanagedStorage().set(index, value)
    }
}

extension _Persistable where Self: _StrataValue {
    public static var _strataShape: _PropertyShape {
        _PropertyShape(type: _strataType, collection: .single, optional: _strataOptional, objectType: _strataObjectType)
    }
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> Self {
        let v = object._rlmReadValue(index)
        // Only links (and mixed values, which may hold one) need the realm to decode.
        let t = _strataType
        if t != .object && t != .mixed { return _strataDecode(v, _StrataContext(core: nil)) }
        return _strataDecode(v, _StrataContext(core: object._rlmCore))
    }
    public static func _strataSet(_ object: ObjectBase, _ index: Int, _ value: Self) {
        object._rlmWriteSingle(index, value)
    }
}

let probeTagCounter = ThreadLocalInt()
/// Schema probes being built (written under `ClassInfo.globalLock`): while 0, wrapper
/// initialisers skip the thread-local counter. A plain, statically initialised global: only the
/// thread building a probe must see its own increment; other threads seeing a stale value take
/// the thread-local check, which is exact.
nonisolated(unsafe) var probesBeingBuilt = 0

/// The tag of the next `@Persisted` initialised while a schema probe is built (-1 otherwise).
/// Not generic, so wrapper initialisers do not instantiate metadata.
@usableFromInline func persistedNextTag() -> Int32 {
    if probesBeingBuilt == 0 { return -1 }
    let c = probeTagCounter.value
    if c > 0 { probeTagCounter.value = c + 1; return Int32(c) }
    return -1
}

/// Type-erased view of a `@Persisted` wrapper, read through `Mirror` for schema discovery and
/// for adding unmanaged objects.
protocol _AnyPersisted {
    var _tag: Int32 { get }
    var _flags: UInt8 { get }
    var _initialAny: Any? { get }
    static var _valueType: any _Persistable.Type { get }
    /// Reads the declared default of this wrapper in an instance whose wrapper lies
    /// `wrapperOffset` bytes from the instance's start.
    static func _initialReader(wrapperOffset: Int) -> (ObjectBase) -> Any?
}

/// Declares a stored property of an `Object` or `EmbeddedObject` (RealmSwift's `@Persisted`).
///
/// ```swift
/// final class Dog: Object {
///     @Persisted(primaryKey: true) var id: ObjectId
///     @Persisted(indexed: true) var name = ""
///     @Persisted var owner: Person?
///     @Persisted(originProperty: "dogs") var walkers: LinkingObjects<Person>
/// }
/// ```
/// An unmanaged object keeps its values in memory; once added to a realm, reads and writes go
/// to the database (writes only inside a write transaction).
@propertyWrapper
public struct Persisted<Value: _Persistable>: _AnyPersisted {
    /// Tag given while Strata builds the schema probe of a class (maps key paths to properties).
    @usableFromInline var _tag: Int32
    /// 1 = primary key, 2 = indexed.
    @usableFromInline var _flags: UInt8
    /// The declared default (nil: the type's default).
    @usableFromInline var _initial: Value?

    @inlinable static func nextTag() -> Int32 { persistedNextTag() }

    /// A property with the type's default value.
    @inlinable public init() { _tag = Self.nextTag(); _flags = 0; _initial = nil }
    /// A property with a default value.
    @inlinable public init(wrappedValue: Value) { _tag = Self.nextTag(); _flags = 0; _initial = wrappedValue }
    /// The primary key (Int, String, ObjectId or UUID, optionally optional) or an indexed property.
    @inlinable public init(primaryKey: Bool = false, indexed: Bool = false) {
        _tag = Self.nextTag(); _flags = (primaryKey ? 1 : 0) | (indexed ? 2 : 0); _initial = nil
    }
    /// The primary key or an indexed property, with a default value.
    @inlinable public init(wrappedValue: Value, primaryKey: Bool = false, indexed: Bool = false) {
        _tag = Self.nextTag(); _flags = (primaryKey ? 1 : 0) | (indexed ? 2 : 0); _initial = wrappedValue
    }

    var _initialAny: Any? { _initial }
    static var _valueType: any _Persistable.Type { Value.self }
    /// Reads the declared default of the wrapper `wrapperOffset` bytes into an instance (the
    /// object stays alive for the read: the caller holds it).
    static func _initialReader(wrapperOffset: Int) -> (ObjectBase) -> Any? {
        let offset = wrapperOffset + MemoryLayout<Persisted<Value>>.offset(of: \Persisted<Value>._initial)!
        return { o in
            let v: Value? = UnsafeRawPointer(Unmanaged.passUnretained(o).toOpaque()).advanced(by: offset)
                .assumingMemoryBound(to: Optional<Value>.self).pointee
            return v
        }
    }

    @available(*, unavailable, message: "@Persisted can only be used on Object and EmbeddedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        set { fatalError() } // swiftlint:disable:this unused_setter_value
    }

    /// Reads and writes through the enclosing object: memory when unmanaged, the realm when managed.
    /// Inlinable and inlined into the app's property accessors, so they are specialized for
    /// their types (no generic metadata lookups per access) and use the storage key path only
    /// through projections the optimiser folds into loads (the key path object is never formed).
    @inlinable
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        @inline(__always) get {
            let index = _propertyIndex(object, storageKeyPath)
            if object._rlmIsManaged {
                return Value._strataGet(object, index)
            }
            // Unmanaged: the value's own slot (no boxing), or the declared default.
            if let s = object._rlmStorage, let v = s.get(index, as: Value.self) { return v }
            return _unmanagedFirstRead(object, index, object[keyPath: storageKeyPath]._initial)
        }
        @inline(__always) set {
            let index = _propertyIndex(object, storageKeyPath)
            if object._rlmIsManaged {
                Value._strataSet(object, index, newValue)
            } else {
                Value._strataSetUnmanaged(object, index, newValue)
            }
        }
    }

    /// The first read of an unmanaged object's property (no value set yet): the declared
    /// default (`initial`), kept in the object's slot; a key-path probe records the read.
    @inlinable @inline(never)
    static func _unmanagedFirstRead(_ object: ObjectBase, _ index: Int, _ initial: Value?) -> Value {
        if object._rlmIsProbe {
            object._rlmRecordProbeRead(index)
            return Value._strataProbeValue()
        }
        let v = initial ?? Value._strataDefault()
        object._rlmUnmanagedStorage().set(index, v)
        return v
    }

    /// The index of the property `storageKeyPath` names, found without using the key path as
    /// a value: the wrapper at the same place in the class's schema probe holds its tag. Once
    /// the accessor is specialised, the projection is a load at a constant offset and the key
    /// path literal is never formed (no `swift_getKeyPath`, retain or release per access).
    @inlinable @inline(__always)
    static func _propertyIndex<EnclosingSelf: ObjectBase>(
        _ object: EnclosingSelf, _ storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Int {
        object._rlmAccessInfo._withUnsafeGuaranteedRef { info in
            // The probe is an instance of the object's own class (`_rlmAccessInfo`), so of
            // `EnclosingSelf` or a subclass.
            info._probeRef._withUnsafeGuaranteedRef { probe in
                info._index(forTag: unsafeDowncast(probe, to: EnclosingSelf.self)[keyPath: storageKeyPath]._tag)
            }
        }
    }
}

extension ObjectBase {
    /// True when a realm manages the object.
    @inlinable final var _rlmIsManaged: Bool { _rlmCore != nil }
    /// A key-path probe read property `index` (schema discovery of key paths).
    @usableFromInline final func _rlmRecordProbeRead(_ index: Int) { KeyPathRecorder.record(_rlmClassInfo, index) }
    /// The slots of an unmanaged object's values (created on first use).
    @inlinable @inline(__always)
    final func _rlmUnmanagedStorage() -> _UnmanagedStorage {
        if let s = _rlmStorage { return s }
        return _rlmMakeUnmanagedStorage()
    }
    @usableFromInline @inline(never)
    final func _rlmMakeUnmanagedStorage() -> _UnmanagedStorage {
        let s = _UnmanagedStorage(_rlmClassInfo.unmanagedLayout)
        _rlmStorage = s
        return s
    }
}

extension Persisted where Value: LinkingObjectsProtocol {
    /// Backlinks: the objects of `Value.Element` whose `originProperty` links to this object.
    public init(originProperty: String) {
        _tag = Self.nextTag(); _flags = 0; _initial = Value(_originProperty: originProperty)
    }
}

/// Records the properties a key path reads on probe objects (key path → property names).
/// Used only under `ClassInfo.globalLock`.
enum KeyPathRecorder {
    nonisolated(unsafe) static var recorded: [(ClassInfo, Int)] = []
    static func record(_ info: ClassInfo, _ index: Int) { recorded.append((info, index)) }
}
