/// The type of a property as the object store sees it (the element type for collections).
package enum RealmPropertyType: String, Sendable {
    case int, bool, string, binary, mixed, timestamp, float, double, decimal128, link, objectId, typedLink, uuid
    /// A backlink column (`LinkingObjects`): the objects whose `originProperty` links here.
    case linkingObjects
}

/// The collection kind of a property (nil for a single value).
package enum RealmCollectionKind: String, Sendable {
    case list, set, dictionary
}

/// One property of a class, read from the table's spec and column key.
package struct RealmProperty: Sendable {
    package let name: String
    package let type: RealmPropertyType
    package let isNullable: Bool
    package let collection: RealmCollectionKind?
    /// The target class of a link, link collection or backlink (the origin class for backlinks).
    package let targetClass: String?
    /// For a backlink column: the origin property that links to this class.
    package let originProperty: String?
    package let isIndexed: Bool
    package let isPrimaryKey: Bool
    /// realm-core's 64-bit ColKey (leaf index, type, attributes, tag).
    package let columnKey: UInt64
}

/// A class (a `class_` table) or an internal table of a Realm file.
package struct RealmClass: Sendable {
    /// The class name (table name without `class_`), or the table name for internal tables.
    package let name: String
    package let tableName: String
    package let tableKey: Int64
    package let primaryKey: String?
    package let isEmbedded: Bool
    package let isAsymmetric: Bool
    package let objectCount: Int
    /// Public properties in spec order.
    package let properties: [RealmProperty]
    /// Backlink columns (type `.linkingObjects`, named "Origin.property").
    package let backlinks: [RealmProperty]
}

/// ColumnType values stored in ColKeys and spec type arrays (realm-core `column_type.hpp`).
enum RealmColumnType: Int {
    case int = 0, bool = 1, string = 2, oldStringEnum = 3, binary = 4, oldTable = 5, mixed = 6
    case oldDateTime = 7, timestamp = 8, float = 9, double = 10, decimal = 11, link = 12
    case linkList = 13, backlink = 14, objectId = 15, typedLink = 16, uuid = 17

    var propertyType: RealmPropertyType {
        switch self {
        case .int: return .int
        case .bool: return .bool
        case .string, .oldStringEnum: return .string
        case .binary: return .binary
        case .mixed: return .mixed
        case .timestamp, .oldDateTime: return .timestamp
        case .float: return .float
        case .double: return .double
        case .decimal: return .decimal128
        case .link, .linkList, .oldTable: return .link
        case .backlink: return .linkingObjects
        case .objectId: return .objectId
        case .typedLink: return .typedLink
        case .uuid: return .uuid
        }
    }
}

/// A decoded ColKey: `idx & 0xFFFF | type << 16 | attrs << 22 | tag << 30`.
struct RealmColumnKey {
    let raw: UInt64
    var leafIndex: Int { Int(raw & 0xffff) }
    var typeRaw: Int { Int((raw >> 16) & 0x3f) }
    var attrs: Int { Int((raw >> 22) & 0xff) }
    var isIndexed: Bool { attrs & 1 != 0 }
    var isNullable: Bool { attrs & 16 != 0 }
    var isList: Bool { attrs & 32 != 0 }
    var isDictionary: Bool { attrs & 64 != 0 }
    var isSet: Bool { attrs & 128 != 0 }
    var collection: RealmCollectionKind? {
        if isList { return .list }
        if isDictionary { return .dictionary }
        if isSet { return .set }
        return nil
    }
}

/// Everything the reader needs about one column of a table.
struct RealmColumn {
    let name: String
    let key: RealmColumnKey
    let type: RealmColumnType
    /// Dictionary key type (DataType: 0 Int, 2 String).
    let dictionaryKeyType: Int
    /// Interned ("enum") string values for this column, if the column was enumerated.
    let enumKeysRef: Int?
    /// Group index of the target (links) or origin (backlinks) table.
    let targetTable: Int?
    /// Opposite column key (origin column for backlinks).
    let oppositeColumnKey: UInt64
    var leafIndex: Int { key.leafIndex }
}

/// What a table of a Realm file is for.
package enum RealmTableKind: Sendable, Equatable {
    /// A class of the object store (`class_<Name>`), as every Realm SDK writes them.
    case objectStoreClass
    /// A table written with realm-core's own API (its test files, apps on the C++ core): no
    /// `class_` prefix and not one of the internal names. Shown as a class named by its table.
    case plainTable
    /// The object store's or sync's own bookkeeping (`metadata`, `pk`, sync and flexible-sync
    /// tables): hidden from the class list, shown apart in `space`.
    case internalTable

    package init(tableName: String) {
        if tableName.hasPrefix("class_") { self = .objectStoreClass; return }
        let internalNames: Set<String> = ["metadata", "pk"]
        let internalPrefixes = ["!", "__", "sync_", "flx_", "client_reset"]
        if internalNames.contains(tableName) || internalPrefixes.contains(where: { tableName.hasPrefix($0) }) {
            self = .internalTable
        } else {
            self = .plainTable
        }
    }
}

extension RealmClass {
    /// Whether this is an object-store class, a plain realm-core table or an internal table.
    package var tableKind: RealmTableKind { RealmTableKind(tableName: tableName) }
}
