import Foundation

/// A type stored through another, persistable type (RealmSwift's `CustomPersistable`).
///
/// ```swift
/// struct Temperature: CustomPersistable {
///     typealias PersistedType = Double
///     var celsius: Double
///     init(persistedValue: Double) { celsius = persistedValue }
///     var persistableValue: Double { celsius }
/// }
/// final class Reading: Object {
///     @Persisted var temperature: Temperature
///     @Persisted var history: List<Temperature>   // needs Hashable (given through the persisted value)
/// }
/// ```
/// The column has `PersistedType`'s type; queries compare persisted values.
public protocol CustomPersistable: _CustomPersistableBase {
    /// The stored type (a property type such as `String`, `Int`, `Data`, `Double`).
    associatedtype PersistedType: _StrataValue & Hashable
    /// Rebuilds the value from what was stored.
    init(persistedValue: PersistedType)
    /// What is stored for this value.
    var persistableValue: PersistedType { get }
}

/// A type stored through another type whose conversion back may fail (RealmSwift's
/// `FailableCustomPersistable`), such as `URL` stored as a `String`:
///
/// ```swift
/// extension URL: FailableCustomPersistable {
///     public typealias PersistedType = String
///     public init?(persistedValue: String) { self.init(string: persistedValue) }
///     public var persistableValue: String { absoluteString }
/// }
/// ```
/// Reading a stored value the type rejects stops the program with a message naming the value
/// (as RealmSwift does); in an optional property or collection of optionals it reads as nil,
/// so use an optional property when stored values may be invalid.
public protocol FailableCustomPersistable: _CustomPersistableBase {
    /// The stored type.
    associatedtype PersistedType: _StrataValue & Hashable
    /// Rebuilds the value from what was stored, or nil when it cannot.
    init?(persistedValue: PersistedType)
    /// What is stored for this value.
    var persistableValue: PersistedType { get }
}

/// What both custom-persistable protocols share: the value conversions of the typed API.
/// Equality and hashing default to the persisted value's.
public protocol _CustomPersistableBase: RealmCollectionValue, _Persistable {}

extension CustomPersistable {
    public static var _strataType: PropertyType { PersistedType._strataType }
    public static var _strataObjectType: ObjectBase.Type? { PersistedType._strataObjectType }
    public static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> Self {
        Self(persistedValue: PersistedType._strataDecode(value, ctx))
    }
    public func _strataEncode(_ ctx: _StrataContext) throws -> Value { try persistableValue._strataEncode(ctx) }
    public static func _strataDefault() -> Self { Self(persistedValue: PersistedType._strataDefault()) }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        if let v = unwrapAny(any) as? Self { return v }
        return Self(persistedValue: try PersistedType._strataFromAny(any))
    }
    public static func == (a: Self, b: Self) -> Bool { a.persistableValue == b.persistableValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(persistableValue) }
}

extension FailableCustomPersistable {
    public static var _strataType: PropertyType { PersistedType._strataType }
    public static var _strataObjectType: ObjectBase.Type? { PersistedType._strataObjectType }
    public static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> Self {
        let p = PersistedType._strataDecode(value, ctx)
        guard let v = Self(persistedValue: p) else {
            strataProgrammerError("Failed to convert persisted value '\(p)' to type '\(Self.self)' in a non-optional context")
        }
        return v
    }
    public func _strataEncode(_ ctx: _StrataContext) throws -> Value { try persistableValue._strataEncode(ctx) }
    public static func _strataDefault() -> Self {
        guard let v = Self(persistedValue: PersistedType._strataDefault()) else {
            strataProgrammerError("\(Self.self) has no default value: give the @Persisted property a default, or make it optional")
        }
        return v
    }
    /// nil where `init?(persistedValue:)` rejects the stored value (RealmSwift's optional
    /// context).
    public static func _strataDecodeInOptional(_ value: Value, _ ctx: _StrataContext) -> Self? {
        Self(persistedValue: PersistedType._strataDecode(value, ctx))
    }
    /// nil where `init?(persistedValue:)` rejects the value.
    public static func _strataFromAnyInOptional(_ any: Any) throws -> Self? {
        if let v = unwrapAny(any) as? Self { return v }
        return Self(persistedValue: try PersistedType._strataFromAny(any))
    }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        if let v = unwrapAny(any) as? Self { return v }
        let p = try PersistedType._strataFromAny(any)
        guard let v = Self(persistedValue: p) else {
            throw ObjectError.wrongType("a \(Self.self) property", expected: "a value \(Self.self) accepts", got: "\(p)")
        }
        return v
    }
    public static func == (a: Self, b: Self) -> Bool { a.persistableValue == b.persistableValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(persistableValue) }
}
