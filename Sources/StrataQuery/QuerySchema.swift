/// The type of a property as the query layer sees it. The object engine describes its schema with
/// these so queries can be type-checked without depending on the engine.
package indirect enum QueryPropertyType: Hashable, Sendable, CustomStringConvertible {
    case bool, int, double, float, string, data, date, objectId, uuid, decimal
    /// A mixed value (`AnyRealmValue`): any scalar, checked at evaluation time.
    case any
    /// A to-one link to an object of the named class.
    case link(String)
    /// A `List` of a scalar type or of links.
    case list(QueryPropertyType)
    /// A `MutableSet` of a scalar type or of links.
    case set(QueryPropertyType)
    /// A `Map` with string keys and values of the given type (scalar or link).
    case map(QueryPropertyType)
    /// `LinkingObjects`: the objects of `originClass` whose `property` links to this object.
    case linkingObjects(originClass: String, property: String)

    /// True for the scalar cases (including `any`).
    package var isScalar: Bool {
        switch self {
        case .bool, .int, .double, .float, .string, .data, .date, .objectId, .uuid, .decimal, .any: return true
        default: return false
        }
    }

    /// True for int, double, float and decimal.
    package var isNumeric: Bool {
        switch self {
        case .int, .double, .float, .decimal: return true
        default: return false
        }
    }

    /// The name used in error messages (RealmSwift's vocabulary).
    package var description: String {
        switch self {
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .data: return "Data"
        case .date: return "Date"
        case .objectId: return "ObjectId"
        case .uuid: return "UUID"
        case .decimal: return "Decimal128"
        case .any: return "Mixed"
        case .link(let c): return "link to '\(c)'"
        case .list(let e): return "List<\(e)>"
        case .set(let e): return "MutableSet<\(e)>"
        case .map(let e): return "Map<String, \(e)>"
        case .linkingObjects(let c, let p): return "LinkingObjects<\(c)>('\(p)')"
        }
    }
}

/// One property of a class.
package struct QueryProperty: Hashable, Sendable {
    package var name: String
    package var type: QueryPropertyType
    /// Whether a scalar or link may be null. Informational: comparisons with `nil` are allowed
    /// on every property (they simply never match a non-optional value).
    package var isOptional: Bool

    package init(_ name: String, _ type: QueryPropertyType, optional: Bool = false) {
        self.name = name
        self.type = type
        self.isOptional = optional
    }
}

/// One class: a name and its properties in declaration order.
package struct QueryClass: Hashable, Sendable {
    package var name: String
    package var properties: [QueryProperty]
    /// Other names a query may use for a property: the Swift name of a property stored under
    /// another name (RealmSwift's `propertiesMapping()`), mapped to the stored name. A stored
    /// name always wins over an alias.
    package var aliases: [String: String] = [:]

    package init(_ name: String, _ properties: [QueryProperty]) {
        self.name = name
        self.properties = properties
    }

    /// The property with this exact (case-sensitive) name, or the one this alias names.
    package func property(named name: String) -> QueryProperty? {
        if let p = properties.first(where: { $0.name == name }) { return p }
        guard let stored = aliases[name] else { return nil }
        return properties.first { $0.name == stored }
    }
}

/// The schema a query is bound against: classes by name.
package struct QuerySchema: Hashable, Sendable {
    package var classes: [String: QueryClass]

    package init(_ classes: [QueryClass]) {
        var byName: [String: QueryClass] = [:]
        for c in classes { byName[c.name] = c }
        self.classes = byName
    }

    package func classNamed(_ name: String) -> QueryClass? { classes[name] }
}
