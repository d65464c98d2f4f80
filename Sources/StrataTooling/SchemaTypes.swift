/// One class of the schema as listed in the sidebar.
package struct ClassSummary: Hashable, Sendable {
    package var name: String
    /// Number of objects (may be an estimate for huge classes).
    package var count: RowCount
    /// Embedded classes have no objects of their own; they live inside a parent.
    package var isEmbedded: Bool
    /// Name of the primary key property, if any.
    package var primaryKey: String?

    package init(name: String, count: RowCount, isEmbedded: Bool = false, primaryKey: String? = nil) {
        self.name = name
        self.count = count
        self.isEmbedded = isEmbedded
        self.primaryKey = primaryKey
    }
}

/// A number of rows that may be an estimate (a huge class counted lazily).
package struct RowCount: Hashable, Sendable {
    package var value: Int
    /// `true` when ``value`` is not exact yet.
    package var isEstimate: Bool

    package init(_ value: Int, isEstimate: Bool = false) {
        self.value = value
        self.isEstimate = isEstimate
    }
}

/// The stored type of a property's values (of its elements for collections).
package enum ValueType: String, Hashable, Sendable, CaseIterable {
    case bool, int, float, double, string, data, date, objectId, uuid, decimal128
    /// `AnyRealmValue`.
    case mixed
    /// A link or embedded object (see ``PropertyDescription/targetClass``).
    case object
}

/// What shape a property has.
package enum PropertyKind: String, Hashable, Sendable {
    /// A single value of ``ValueType``.
    case value
    /// A to-one link to an object of the target class.
    case link
    /// `List`.
    case list
    /// `MutableSet`.
    case set
    /// `Map` (string keys).
    case map
    /// A to-one embedded object.
    case embedded
    /// `LinkingObjects`: computed, read-only.
    case backlinks

    /// Whether values of this kind are collections shown as `[n Type]`.
    package var isCollection: Bool { self == .list || self == .set || self == .map || self == .backlinks }
}

/// A property as the browser shows it.
package struct PropertyDescription: Hashable, Sendable {
    package var name: String
    package var type: ValueType
    package var kind: PropertyKind
    /// The linked/embedded class for `.object` types and backlinks.
    package var targetClass: String?
    package var isOptional: Bool
    package var isIndexed: Bool
    package var isPrimaryKey: Bool

    package init(name: String, type: ValueType, kind: PropertyKind = .value, targetClass: String? = nil,
                isOptional: Bool = false, isIndexed: Bool = false, isPrimaryKey: Bool = false) {
        self.name = name
        self.type = type
        self.kind = kind
        self.targetClass = targetClass
        self.isOptional = isOptional
        self.isIndexed = isIndexed
        self.isPrimaryKey = isPrimaryKey
    }

    /// Short type as shown in the detail view and prompts: `Int?`, `List<Dog>`, `Map<String, Int>`.
    package var typeDescription: String {
        let element = type == .object ? (targetClass ?? "Object") : type.displayName
        switch kind {
        case .value, .link, .embedded: return element + (isOptional ? "?" : "")
        case .list: return "List<\(element)>"
        case .set: return "Set<\(element)>"
        case .map: return "Map<String, \(element)>"
        case .backlinks: return "LinkingObjects<\(element)>"
        }
    }

    /// Whether the browser can edit the value in place with `e` (collections and backlinks are
    /// opened instead; embedded objects are edited field by field).
    package var isEditableInPlace: Bool { kind == .value || kind == .link }
}

extension ValueType {
    /// The Swift-facing name of the type.
    package var displayName: String {
        switch self {
        case .bool: "Bool"
        case .int: "Int"
        case .float: "Float"
        case .double: "Double"
        case .string: "String"
        case .data: "Data"
        case .date: "Date"
        case .objectId: "ObjectId"
        case .uuid: "UUID"
        case .decimal128: "Decimal128"
        case .mixed: "AnyRealmValue"
        case .object: "Object"
        }
    }
}

/// Sort order of a class table.
package struct SortSpec: Hashable, Sendable {
    package var property: String
    package var ascending: Bool

    package init(property: String, ascending: Bool = true) {
        self.property = property
        self.ascending = ascending
    }
}
