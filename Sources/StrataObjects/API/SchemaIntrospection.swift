import Foundation

// Schema introspection by RealmSwift's names: `Property`, `ObjectSchema.objectClass`,
// `Schema.objectSchema`, `Object.sharedSchema()`, `Object.primaryKey()`.

/// One property of a class (RealmSwift's `Property`).
public typealias Property = PropertySchema

extension PropertySchema {
    /// True for a `List` property.
    public var isArray: Bool { collection == .list }
    /// True for a `MutableSet` property.
    public var isSet: Bool { collection == .set }
    /// True for a `Map` property.
    public var isMap: Bool { collection == .map }
    /// The name of the column in the file (Strata stores properties under their Swift names).
    public var columnName: String { name }
}

extension PropertyType {
    /// RealmSwift's name for `mixed` (`AnyRealmValue`).
    public static var any: PropertyType { .mixed }
    /// RealmSwift's name for `uuid`.
    public static var UUID: PropertyType { .uuid }
}

extension ObjectSchema {
    /// The Swift class of this schema (nil when no class of that name was declared in this
    /// process, e.g. a class only the file knows).
    public var objectClass: ObjectBase.Type? {
        ClassInfo.allKnown.first { $0.className == className }?.type
    }
}

extension Schema {
    /// The classes, sorted by name (RealmSwift's `objectSchema`).
    public var objectSchema: [ObjectSchema] { objectSchemas }
}

extension ObjectBase {
    /// The schema Strata derives from the class's `@Persisted` properties.
    public class func sharedSchema() -> ObjectSchema? {
        if self == Object.self || self == EmbeddedObject.self || self == ObjectBase.self { return nil }
        return ClassInfo.of(self).objectSchema
    }
    /// The name of the primary key property (declared with `@Persisted(primaryKey: true)`), or nil.
    public class func primaryKey() -> String? { sharedSchema()?.primaryKeyProperty?.name }
    /// The names of the indexed properties.
    public class func indexedProperties() -> [String] { sharedSchema()?.properties.filter(\.isIndexed).map(\.name) ?? [] }
}
