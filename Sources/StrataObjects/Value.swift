import Foundation

/// The key of an object within its class. Stable for the object's life; never reused within a
/// class, except that a class with an `Int` primary key uses the primary key itself as the key
/// (so lookups by primary key are one B+tree search).
public typealias ObjKey = Int64

/// A reference to an object: its class name and key.
public struct ObjectLink: Hashable, Sendable, CustomStringConvertible {
    /// The class of the object.
    public var className: String
    /// The object's key within its class.
    public var key: ObjKey
    /// A reference to object `key` of `className`.
    public init(className: String, key: ObjKey) { self.className = className; self.key = key }
    public var description: String { "\(className)#\(key)" }
}

/// Any single value a property can hold, as the dynamic API reads and writes it.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    /// No value (nil, or a link to nothing).
    case null
    /// A Bool.
    case bool(Bool)
    /// An integer of any width.
    case int(Int64)
    /// A Float.
    case float(Float)
    /// A Double.
    case double(Double)
    /// A String.
    case string(String)
    /// Binary data.
    case data([UInt8])
    /// A date, exactly as stored (nanoseconds since 1970). `.date(someDate)` also accepts a
    /// Foundation `Date`.
    case date(Timestamp)
    /// An ObjectId.
    case objectId(ObjectId)
    /// A UUID.
    case uuid(UUID)
    /// A Decimal128.
    case decimal(Decimal128)
    /// A link to another object (to-one links, list elements, and `AnyRealmValue` links).
    case object(ObjectLink)

    /// True for `.null`.
    public var isNull: Bool { if case .null = self { return true }; return false }

    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let f): return String(f)
        case .double(let d): return String(d)
        case .string(let s): return s
        case .data(let d): return "<\(d.count) bytes>"
        case .date(let t): return t.description
        case .objectId(let o): return o.stringValue
        case .uuid(let u): return u.uuidString.lowercased()
        case .decimal(let d): return d.description
        case .object(let l): return l.description
        }
    }

    /// A date value from a Foundation `Date` (the nearest stored nanosecond; see ``Timestamp/init(_:)``).
    public static func date(_ d: Date) -> Value { .date(Timestamp(d)) }

    /// The Foundation `Date` of a `.date` value, else nil.
    public var dateValue: Date? { if case .date(let t) = self { return t.date }; return nil }

    /// Nanoseconds since 1970 for a date, exactly as the engine stores date properties.
    public static func storedNanoseconds(_ d: Date) -> Int64 { Timestamp(d).nanosecondsSince1970 }
    /// The date a stored nanosecond count reads back as.
    public static func date(fromStoredNanoseconds ns: Int64) -> Date { Timestamp(nanosecondsSince1970: ns).date }

    /// ISO 8601 in UTC with at least milliseconds (every stored nanosecond digit that is not zero).
    public static func iso8601(_ d: Date) -> String { Timestamp(d).description }

    /// The property type this value naturally belongs to (nil for null).
    public var naturalType: PropertyType? {
        switch self {
        case .null: return nil
        case .bool: return .bool
        case .int: return .int
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .data: return .data
        case .date: return .date
        case .objectId: return .objectId
        case .uuid: return .uuid
        case .decimal: return .decimal128
        case .object: return .object
        }
    }
}

/// The storage type of a property (RealmSwift's `PropertyType`).
public enum PropertyType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// `Bool`.
    case bool = 0
    /// `Int` and its sized variants, stored as 64-bit integers.
    case int
    /// `Float`.
    case float
    /// `Double`.
    case double
    /// `String` (UTF-8).
    case string
    /// `Data`.
    case data
    /// `Date`, to the nanosecond.
    case date
    /// `ObjectId`.
    case objectId
    /// `UUID`.
    case uuid
    /// `Decimal128`.
    case decimal128
    /// `AnyRealmValue`: any of the above, or a link.
    case mixed
    /// A link to an object of `objectClassName`.
    case object
    /// `LinkingObjects`: computed backlinks, not stored.
    case linkingObjects

    public var description: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .data: return "data"
        case .date: return "date"
        case .objectId: return "objectId"
        case .uuid: return "uuid"
        case .decimal128: return "decimal128"
        case .mixed: return "mixed"
        case .object: return "object"
        case .linkingObjects: return "linkingObjects"
        }
    }

    /// The RealmSwift type a property of this type has in a model (`object`: "Object").
    public var swiftTypeName: String {
        switch self {
        case .bool: return "Bool"
        case .int: return "Int"
        case .float: return "Float"
        case .double: return "Double"
        case .string: return "String"
        case .data: return "Data"
        case .date: return "Date"
        case .objectId: return "ObjectId"
        case .uuid: return "UUID"
        case .decimal128: return "Decimal128"
        case .mixed: return "AnyRealmValue"
        case .object, .linkingObjects: return "Object"
        }
    }

    /// Types that may be a primary key.
    public var canBePrimaryKey: Bool { [.int, .string, .objectId, .uuid].contains(self) }
    /// Types that may be indexed.
    public var canBeIndexed: Bool { [.bool, .int, .string, .objectId, .uuid, .date].contains(self) }
}
