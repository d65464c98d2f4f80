/// The value types `@type` tells apart (realm-core's `TypeOfValue`): one bit per type; a type
/// name stands for one bit, or several (`numeric`, `collection`). `mixed.@type == 'numeric'`
/// holds when the value's bit is among the name's.
package enum QueryTypeOfValue {
    package static let null = 0x0001
    package static let int = 0x0002
    package static let double = 0x0004
    package static let float = 0x0008
    package static let bool = 0x0010
    package static let timestamp = 0x0020
    package static let string = 0x0040
    package static let binary = 0x0080
    package static let uuid = 0x0100
    package static let objectId = 0x0200
    package static let decimal = 0x0400
    package static let objectLink = 0x0800
    /// A dictionary (realm-core calls it `object`).
    package static let dictionary = 0x1000
    package static let array = 0x2000
    /// Every bit.
    package static let all = 0x3FFF

    /// The names realm-core accepts (compared without regard to case), in its order.
    package static let names: [(name: String, mask: Int)] = [
        ("null", null),
        ("int", int), ("integer", int), ("int16", int), ("int32", int), ("int64", int),
        ("short", int), ("long", int), ("byte", int), ("char", int),
        ("bool", bool), ("boolean", bool),
        ("string", string),
        ("binary", binary), ("data", binary), ("bytearray", binary), ("byte[]", binary),
        ("date", timestamp), ("datetimeoffset", timestamp), ("timestamp", timestamp),
        ("float", float), ("double", double), ("decimal128", decimal), ("decimal", decimal),
        ("objectlink", objectLink), ("link", objectLink),
        ("objectid", objectId), ("uuid", uuid), ("guid", uuid),
        ("numeric", int | double | float | decimal),
        ("bindata", binary),
        ("object", dictionary), ("dictionary", dictionary),
        ("array", array), ("list", array),
        ("collection", array | dictionary),
    ]

    /// The bits of a type name, nil for a name realm-core does not know.
    package static func mask(named name: String) -> Int? {
        let lower = name.lowercased()
        return names.first { $0.name == lower }?.mask
    }

    /// The accepted names, for messages.
    package static var nameList: String { names.map(\.name).joined(separator: ", ") }

    /// The message for a name that is no type name.
    package static func unknownName(_ name: String) -> String {
        "unknown type name '\(name)' for @type: expected one of \(nameList) (case does not matter)"
    }

    /// The bit of a value of a mixed property or collection.
    package static func bit(of value: QueryValue) -> Int {
        switch value {
        case .null: return null
        case .bool: return bool
        case .int: return int
        case .double: return double
        case .float: return float
        case .string: return string
        case .data: return binary
        case .date: return timestamp
        case .objectId: return objectId
        case .uuid: return uuid
        case .decimal: return decimal
        case .object: return objectLink
        case .list: return array
        }
    }

    /// The bit of every value of a property declared with `type` (realm-core gives a typed
    /// property its declared type, null or not); nil for mixed values, whose bit depends on
    /// each value.
    package static func bit(ofDeclared type: QueryPropertyType) -> Int? {
        switch type {
        case .bool: return bool
        case .int: return int
        case .double: return double
        case .float: return float
        case .string: return string
        case .data: return binary
        case .date: return timestamp
        case .objectId: return objectId
        case .uuid: return uuid
        case .decimal: return decimal
        case .link: return objectLink
        case .any: return nil
        case .list, .set, .linkingObjects: return array
        case .map: return dictionary
        }
    }

    /// The single bits of `mask`, as the `IN` list a bound `@type` comparison uses.
    package static func bits(of mask: Int) -> [Int] {
        (0..<14).map { 1 << $0 }.filter { mask & $0 != 0 }
    }
}
