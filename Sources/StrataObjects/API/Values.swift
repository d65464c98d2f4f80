import Foundation

/// Converts a loosely typed Swift value to a `Value` (dictionary values of `create`, KVC).
func anyToValue(_ any: Any?) -> Value? {
    guard let any, let a = unwrapAny(any) else { return .null }
    switch a {
    case is NSNull: return .null
    case let v as Value: return v
    case let v as Bool: return .bool(v)
    case let v as Int: return .int(Int64(v))
    case let v as Int8: return .int(Int64(v))
    case let v as Int16: return .int(Int64(v))
    case let v as Int32: return .int(Int64(v))
    case let v as Int64: return .int(v)
    case let v as Float: return .float(v)
    case let v as Double: return .double(v)
    case let v as String: return .string(v)
    case let v as Data: return .data([UInt8](v))
    case let v as [UInt8]: return .data(v)
    case let v as Date: return .date(v)
    case let v as ObjectId: return .objectId(v)
    case let v as UUID: return .uuid(v)
    case let v as Decimal128: return .decimal(v)
    case let v as Decimal: return .decimal(Decimal128(v))
    case let v as AnyRealmValue: return v.plainValue
    // Persistable enums and custom persistable types: their stored value.
    case let v as any _StrataValue where !(v is ObjectBase): return try? v._strataEncode(_StrataContext(core: nil))
    default: return nil
    }
}

/// A primitive property type: how it maps to a `Value`.
protocol _StrataPrimitive: RealmCollectionValue, _Persistable {
    static var _strataPrimitiveType: PropertyType { get }
    init?(_strataValue: Value)
    var _strataValue: Value { get }
    static var _strataZero: Self { get }
}

extension _StrataPrimitive {
    public static var _strataType: PropertyType { _strataPrimitiveType }
    public static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> Self { Self(_strataValue: value) ?? _strataZero }
    public func _strataEncode(_ ctx: _StrataContext) throws -> Value { _strataValue }
    public static func _strataDefault() -> Self { _strataZero }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        guard let v = anyToValue(any) else {
            throw ObjectError.wrongType("a value", expected: "\(Self.self)", got: "\(type(of: any))")
        }
        let c = try ValueCodec.coerce(v, to: _strataPrimitiveType, optional: false, target: nil, where: "a \(Self.self) property")
        guard let r = Self(_strataValue: c) else { throw ObjectError.wrongType("a value", expected: "\(Self.self)", got: "\(v)") }
        return r
    }
}

extension Bool: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .bool }
    init?(_strataValue v: Value) { guard case .bool(let b) = v else { return nil }; self = b }
    var _strataValue: Value { .bool(self) }
    static var _strataZero: Bool { false }
    /// Reads the column directly (no `Value`); the general read otherwise.
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> Bool {
        if let b = object._rlmFastRead(index, { v, r in v.layout == .int && !v.isNull(r) ? v.int(r) != 0 : nil }) { return b }
        return _strataDecode(object._rlmReadValue(index), _StrataContext(core: nil))
    }
}

/// Sized integers share one conversion.
protocol _StrataInteger: _StrataPrimitive, FixedWidthInteger {}
extension _StrataInteger {
    static var _strataPrimitiveType: PropertyType { .int }
    init?(_strataValue v: Value) { guard case .int(let i) = v else { return nil }; self.init(truncatingIfNeeded: i) }
    var _strataValue: Value { .int(Int64(self)) }
    static var _strataZero: Self { 0 }
}
extension _StrataInteger {
    /// Like the other primitives, plus a range check: a value that does not fit (300 for an
    /// `Int8`) is an error, never truncated.
    public static func _strataFromAny(_ any: Any) throws -> Self {
        guard let v = anyToValue(any) else {
            throw ObjectError.wrongType("a value", expected: "\(Self.self)", got: "\(type(of: any))")
        }
        let c = try ValueCodec.coerce(v, to: .int, optional: false, target: nil, where: "a \(Self.self) property")
        guard case .int(let i) = c else { throw ObjectError.wrongType("a value", expected: "\(Self.self)", got: "\(v)") }
        guard let r = Self(exactly: i) else {
            throw ObjectError.integerOutOfRange("a \(Self.self) property", value: i, type: "\(Self.self)", min: Int64(Self.min), max: Int64(Self.max))
        }
        return r
    }
    /// Reads the column directly (no `Value`); the general read otherwise.
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> Self {
        if let i = object._rlmFastRead(index, { v, r in v.layout == .int && !v.isNull(r) ? v.int(r) : nil }) {
            return Self(truncatingIfNeeded: i)
        }
        return _strataDecode(object._rlmReadValue(index), _StrataContext(core: nil))
    }
}
extension Int: _StrataInteger {}
extension Int8: _StrataInteger {}
extension Int16: _StrataInteger {}
extension Int32: _StrataInteger {}
extension Int64: _StrataInteger {}

/// A property type holding integers narrower than the file's (Int8/16/32, their optionals and
/// collections of them): the range the dynamic API checks values against (`checkDeclaredRange`).
protocol _StrataNarrowInteger {
    static var _strataIntegerBounds: (type: String, min: Int64, max: Int64) { get }
}
extension _StrataNarrowInteger where Self: _StrataInteger {
    static var _strataIntegerBounds: (type: String, min: Int64, max: Int64) { ("\(Self.self)", Int64(Self.min), Int64(Self.max)) }
}
extension Int8: _StrataNarrowInteger {}
extension Int16: _StrataNarrowInteger {}
extension Int32: _StrataNarrowInteger {}
extension Optional: _StrataNarrowInteger where Wrapped: _StrataNarrowInteger {
    static var _strataIntegerBounds: (type: String, min: Int64, max: Int64) { Wrapped._strataIntegerBounds }
}
extension List: _StrataNarrowInteger where Element: _StrataNarrowInteger {
    static var _strataIntegerBounds: (type: String, min: Int64, max: Int64) { Element._strataIntegerBounds }
}
extension MutableSet: _StrataNarrowInteger where Element: _StrataNarrowInteger {
    static var _strataIntegerBounds: (type: String, min: Int64, max: Int64) { Element._strataIntegerBounds }
}
extension Map: _StrataNarrowInteger where Value: _StrataNarrowInteger {
    static var _strataIntegerBounds: (type: String, min: Int64, max: Int64) { Value._strataIntegerBounds }
}

extension RealmCore {
    /// Throws `ObjectError.integerOutOfRange` when `value` is an integer outside the range of
    /// the Swift type the app declares for `className.property` (an Int8/16/32 property, or a
    /// collection of them): the dynamic API writes by name, but the typed API would read it.
    func checkDeclaredRange(_ className: String, _ property: String, _ value: Value) throws {
        guard case .int(let i) = value, let t = coordinator.typesByName[className] else { return }
        let info = ClassInfo.of(t)
        guard let index = info.nameToIndex[property],
              let b = (info.properties[index].valueType as? _StrataNarrowInteger.Type)?._strataIntegerBounds,
              i < b.min || i > b.max else { return }
        throw ObjectError.integerOutOfRange("'\(className).\(property)'", value: i, type: b.type, min: b.min, max: b.max)
    }
}

extension Float: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .float }
    init?(_strataValue v: Value) {
        switch v { case .float(let f): self = f; case .double(let d): self = Float(d); default: return nil }
    }
    var _strataValue: Value { .float(self) }
    static var _strataZero: Float { 0 }
}
extension Double: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .double }
    init?(_strataValue v: Value) {
        switch v { case .double(let d): self = d; case .float(let f): self = Double(f); case .int(let i): self = Double(i); default: return nil }
    }
    var _strataValue: Value { .double(self) }
    static var _strataZero: Double { 0 }
    /// Reads the column directly (no `Value`); the general read otherwise.
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> Double {
        if let d = object._rlmFastRead(index, { v, r in v.layout == .double && !v.isNull(r) ? v.double(r) : nil }) { return d }
        return _strataDecode(object._rlmReadValue(index), _StrataContext(core: nil))
    }
}
extension String: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .string }
    init?(_strataValue v: Value) { guard case .string(let s) = v else { return nil }; self = s }
    var _strataValue: Value { .string(self) }
    static var _strataZero: String { "" }
    /// Reads the column directly (no `Value`); the general read otherwise.
    public static func _strataGet(_ object: ObjectBase, _ index: Int) -> String {
        if let s = object._rlmFastRead(index, { v, r in v.layout == .bytes && !v.isNull(r) ? String(decoding: v.bytes(r), as: UTF8.self) : nil }) { return s }
        return _strataDecode(object._rlmReadValue(index), _StrataContext(core: nil))
    }
}
extension Data: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .data }
    init?(_strataValue v: Value) { guard case .data(let d) = v else { return nil }; self = Data(d) }
    var _strataValue: Value { .data([UInt8](self)) }
    static var _strataZero: Data { Data() }
}
extension Date: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .date }
    init?(_strataValue v: Value) { guard case .date(let t) = v else { return nil }; self = t.date }
    var _strataValue: Value { .date(self) }
    static var _strataZero: Date { Date(timeIntervalSince1970: 0) }
}
extension ObjectId: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .objectId }
    init?(_strataValue v: Value) { guard case .objectId(let o) = v else { return nil }; self = o }
    var _strataValue: Value { .objectId(self) }
    /// A new ObjectId, like RealmSwift's default for `@Persisted var id: ObjectId`.
    static var _strataZero: ObjectId { ObjectId.generate() }
}
extension UUID: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .uuid }
    init?(_strataValue v: Value) { guard case .uuid(let u) = v else { return nil }; self = u }
    var _strataValue: Value { .uuid(self) }
    static var _strataZero: UUID { UUID() }
}
extension Decimal128: _StrataPrimitive {
    static var _strataPrimitiveType: PropertyType { .decimal128 }
    init?(_strataValue v: Value) { guard case .decimal(let d) = v else { return nil }; self = d }
    var _strataValue: Value { .decimal(self) }
    static var _strataZero: Decimal128 { 0 }
    /// Converts what RealmSwift's key-value coding and `create(_:value:)` accept for a
    /// Decimal128 property: a Decimal128, any integer, a Float or Double (as
    /// `Decimal128(value:)`), a Foundation `Decimal`, an `NSNumber` or a numeric string.
    public static func _strataFromAny(_ any: Any) throws -> Decimal128 {
        switch unwrapAny(any) {
        case let d as Decimal128: return d
        case let s as String: return try Decimal128(string: s)
        case is Decimal, is Int, is Int64, is Int32, is Int16, is Int8, is UInt, is UInt64, is Double, is Float, is NSNumber:
            return Decimal128(value: any)
        default:
            guard let v = anyToValue(any) else {
                throw ObjectError.wrongType("a value", expected: "Decimal128", got: "\(type(of: any))")
            }
            let c = try ValueCodec.coerce(v, to: .decimal128, optional: false, target: nil, where: "a Decimal128 property")
            guard let r = Decimal128(_strataValue: c) else { throw ObjectError.wrongType("a value", expected: "Decimal128", got: "\(v)") }
            return r
        }
    }
}

extension Optional: _StrataValue where Wrapped: _StrataValue {
    public static var _strataType: PropertyType { Wrapped._strataType }
    public static var _strataOptional: Bool { true }
    public static var _strataObjectType: ObjectBase.Type? { Wrapped._strataObjectType }
    public static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> Self {
        if value.isNull { return nil }
        return Wrapped._strataDecodeInOptional(value, ctx)
    }
    public func _strataEncode(_ ctx: _StrataContext) throws -> Value {
        guard let w = self else { return .null }
        return try w._strataEncode(ctx)
    }
    public static func _strataDefault() -> Self { nil }
    public static func _strataFromAny(_ any: Any) throws -> Self {
        guard let u = unwrapAny(any), !(u is NSNull) else { return nil }
        if let v = u as? Value, v.isNull { return nil }
        return try Wrapped._strataFromAnyInOptional(u)
    }
}
extension Optional: RealmCollectionValue where Wrapped: RealmCollectionValue {}
extension Optional: _Persistable where Wrapped: _StrataValue {
    public static func _strataProbeValue() -> Self {
        if let t = Wrapped.self as? ObjectBase.Type { return ClassInfo.of(t).probe as? Wrapped }
        return nil
    }
}

extension ObjectBase: RealmCollectionValue {}

/// A value of any stored type, or a link to an object (RealmSwift's `AnyRealmValue`).
public enum AnyRealmValue: Hashable, RealmCollectionValue, _Persistable, CustomStringConvertible {
    /// No value (a null).
    case none
    /// An integer.
    case int(Int)
    /// A Boolean.
    case bool(Bool)
    /// A 32-bit floating-point number.
    case float(Float)
    /// A 64-bit floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A date.
    case date(Date)
    /// A link to an object of any class.
    case object(Object)
    /// An ObjectId.
    case objectId(ObjectId)
    /// A 128-bit decimal.
    case decimal128(Decimal128)
    /// A UUID.
    case uuid(UUID)

    public static var _strataType: PropertyType { .mixed }
    public static var _strataOptional: Bool { true }
    public static func _strataDefault() -> AnyRealmValue { .none }

    /// The value without links (links become null).
    var plainValue: Value {
        switch self {
        case .none: return .null
        case .int(let i): return .int(Int64(i))
        case .bool(let b): return .bool(b)
        case .float(let f): return .float(f)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let d): return .data([UInt8](d))
        case .date(let d): return .date(d)
        case .object(let o): return o._rlmCore != nil ? .object(ObjectLink(className: o._rlmClassInfo.className, key: o._rlmKey)) : .null
        case .objectId(let o): return .objectId(o)
        case .decimal128(let d): return .decimal(d)
        case .uuid(let u): return .uuid(u)
        }
    }

    public static func _strataDecode(_ value: Value, _ ctx: _StrataContext) -> AnyRealmValue {
        switch value {
        case .null: return .none
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(Int(i))
        case .float(let f): return .float(f)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .data(let d): return .data(Data(d))
        case .date(let t): return .date(t.date)
        case .objectId(let o): return .objectId(o)
        case .uuid(let u): return .uuid(u)
        case .decimal(let d): return .decimal128(d)
        case .object(let l):
            guard let core = ctx.core, let o = core.makeObject(className: l.className, key: l.key) as? Object else { return .none }
            return .object(o)
        }
    }

    public func _strataEncode(_ ctx: _StrataContext) throws -> Value {
        if case .object(let o) = self { return try o._strataEncode(ctx) }
        return plainValue
    }

    public static func _strataFromAny(_ any: Any) throws -> AnyRealmValue {
        guard let u = unwrapAny(any) else { return .none }
        if let a = u as? AnyRealmValue { return a }
        if let o = u as? Object { return .object(o) }
        guard let v = anyToValue(u) else { throw ObjectError.wrongType("an AnyRealmValue", expected: "a stored type", got: "\(type(of: u))") }
        return _strataDecode(v, _StrataContext(core: nil))
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .object(let o): return "object(\(o._rlmClassInfo.className))"
        default: return plainValue.description
        }
    }

    /// The payload when the value is of that case, else nil.
    public var intValue: Int? { if case .int(let i) = self { return i }; return nil }
    /// The Boolean when the value is `.bool`, else nil.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The number when the value is `.float`, else nil.
    public var floatValue: Float? { if case .float(let f) = self { return f }; return nil }
    /// The number when the value is `.double`, else nil.
    public var doubleValue: Double? { if case .double(let d) = self { return d }; return nil }
    /// The string when the value is `.string`, else nil.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The bytes when the value is `.data`, else nil.
    public var dataValue: Data? { if case .data(let d) = self { return d }; return nil }
    /// The date when the value is `.date`, else nil.
    public var dateValue: Date? { if case .date(let d) = self { return d }; return nil }
    /// The ObjectId when the value is `.objectId`, else nil.
    public var objectIdValue: ObjectId? { if case .objectId(let o) = self { return o }; return nil }
    /// The decimal when the value is `.decimal128`, else nil.
    public var decimal128Value: Decimal128? { if case .decimal128(let d) = self { return d }; return nil }
    /// The UUID when the value is `.uuid`, else nil.
    public var uuidValue: UUID? { if case .uuid(let u) = self { return u }; return nil }
    /// The linked object, cast to `T`.
    public func object<T: Object>(_ type: T.Type) -> T? { if case .object(let o) = self { return o as? T }; return nil }
    /// The linked object, if any.
    public var dynamicObject: Object? { if case .object(let o) = self { return o }; return nil }

    public static func == (a: AnyRealmValue, b: AnyRealmValue) -> Bool {
        if case .object(let x) = a, case .object(let y) = b { return x == y }
        if case .object = a { return false }; if case .object = b { return false }
        return a.plainValue == b.plainValue
    }
    public func hash(into h: inout Hasher) {
        if case .object(let o) = self { h.combine(o) } else { h.combine(plainValue) }
    }
}
