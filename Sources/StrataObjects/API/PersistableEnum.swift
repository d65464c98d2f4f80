import Foundation

/// An enum stored through its raw value (RealmSwift's `PersistableEnum`).
///
/// ```swift
/// enum Kind: Int, PersistableEnum { case small, large }
/// enum Mood: String, PersistableEnum { case happy, sad }
///
/// final class Item: Object {
///     @Persisted var kind: Kind             // defaults to the first case
///     @Persisted var mood: Mood?            // optional enums default to nil
///     @Persisted var history: List<Kind>    // lists, sets and maps of enums
/// }
/// ```
/// The column has the raw value's type (an `Int` enum is an int column), so queries compare raw
/// values: `filter("kind == %@", Kind.large)` or `filter("kind == 1")`. Reading a stored raw
/// value that is no case of the enum stops the program with a message naming the value; in an
/// optional property or collection of optionals it reads as nil, as in RealmSwift.
public protocol PersistableEnum: RealmCollectionValue, _Persistable, RawRepresentable, CaseIterable
where RawValue: _StrataValue {}

extension PersistableEnum {
    public static var _strataType: PropertyType { RawValue._strataType }
    public static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> Self {
        let raw = RawValue._strataDecode(value, ctx)
        guard let e = Self(rawValue: raw) else {
            strataProgrammerError("the stored value \(raw) is not a valid raw value of \(Self.self); migrate the stored values or add the case")
        }
        return e
    }
    /// nil for a stored raw value that is no case (RealmSwift reads such a value as nil in an
    /// optional property or collection).
    public static func _strataDecodeInOptional(_ value: Value, _ ctx: _StrataContext) -> Self? {
        Self(rawValue: RawValue._strataDecode(value, ctx))
    }
    /// nil for a raw value that is no case (`object["optionalEnum"] = 10` reads back nil, as
    /// in RealmSwift).
    public static func _strataFromAnyInOptional(_ any: Any) throws -> Self? {
        if let e = any as? Self { return e }
        if let u = unwrapAny(any), let e = u as? Self { return e }
        return Self(rawValue: try RawValue._strataFromAny(any))
    }
    public func _strataEncode(_ ctx: _StrataContext) throws -> Value { try rawValue._strataEncode(ctx) }
    /// The first case, like RealmSwift's default for a non-optional enum property.
    public static func _strataDefault() -> Self {
        guard let first = allCases.first else { strataProgrammerError("\(Self.self) has no cases and cannot be persisted") }
        return first
    }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        if let e = any as? Self { return e }
        if let u = unwrapAny(any), let e = u as? Self { return e }
        let raw = try RawValue._strataFromAny(any)
        guard let e = Self(rawValue: raw) else {
            throw ObjectError.wrongType("a \(Self.self) property", expected: "a raw value of \(Self.self)", got: "\(raw)")
        }
        return e
    }
}
