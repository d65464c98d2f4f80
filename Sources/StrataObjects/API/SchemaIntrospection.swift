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
    /// The `LinkingObjects` properties, in declaration order (RLMObjectSchema's
    /// `computedProperties`): computed from the links, never stored, so not in `properties`.
    public var computedProperties: [Property] { allProperties.filter { !$0.isStored } }
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
}

extension ClassInfo {
    /// What `primaryKey()`/`indexedProperties()` return when not overridden while the class's
    /// declarations are read (a name no Swift property can have).
    static let notOverridden = "\u{0}not overridden"
    nonisolated(unsafe) private static var readingDeclarationsOf: ObjectIdentifier?

    /// True while `ClassInfo` asks `type`'s overridable schema methods for their declarations
    /// (on the thread building the class info, which holds `globalLock`).
    static func isReadingDeclarations(of type: ObjectBase.Type) -> Bool {
        globalLock.lock(); defer { globalLock.unlock() }
        return readingDeclarationsOf == ObjectIdentifier(type)
    }

    /// The primary key and indexed property names `type` declares by overriding
    /// `primaryKey()` / `indexedProperties()` (nil / empty when it does not override them).
    static func overriddenDeclarations(of type: ObjectBase.Type) -> (primaryKey: String?, indexed: [String]) {
        globalLock.lock(); defer { globalLock.unlock() }
        let saved = readingDeclarationsOf
        readingDeclarationsOf = ObjectIdentifier(type)
        defer { readingDeclarationsOf = saved }
        let pk = type.primaryKey()
        let indexed = type.indexedProperties()
        return (pk == notOverridden ? nil : pk, indexed == [notOverridden] ? [] : indexed)
    }
}
