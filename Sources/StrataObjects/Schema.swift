import Foundation
import StrataStorage

/// Whether a property holds one value or a collection.
public enum CollectionKind: UInt8, Sendable {
    /// One value (or one link).
    case single = 0
    /// An ordered list (`List`).
    case list
    /// A set of distinct values (`MutableSet`).
    case set
    /// A dictionary with String keys (`Map`).
    case map
}

/// One property of a class.
public struct PropertySchema: Hashable, Sendable, CustomStringConvertible {
    /// The property's name in the file.
    public var name: String
    /// What it stores.
    public var type: PropertyType
    /// One value, or a list, set or map of them.
    public var collection: CollectionKind
    /// Whether nil is allowed (for collections: whether elements may be nil).
    public var isOptional: Bool
    /// The target class of a link, a collection of links or linking objects.
    public var objectClassName: String?
    /// For `linkingObjects`: the property of `objectClassName` that links here.
    public var linkOriginPropertyName: String?
    /// True for the class's primary key (at most one per class).
    public var isPrimaryKey: Bool
    /// True when the property has a search index (primary keys always do).
    public var isIndexed: Bool

    /// A property; a primary key is always indexed.
    public init(name: String, type: PropertyType, collection: CollectionKind = .single, isOptional: Bool = false,
                objectClassName: String? = nil, linkOriginPropertyName: String? = nil,
                isPrimaryKey: Bool = false, isIndexed: Bool = false) {
        self.name = name; self.type = type; self.collection = collection; self.isOptional = isOptional
        self.objectClassName = objectClassName; self.linkOriginPropertyName = linkOriginPropertyName
        self.isPrimaryKey = isPrimaryKey; self.isIndexed = isIndexed || isPrimaryKey
    }

    /// Stored in a column (everything but linkingObjects).
    public var isStored: Bool { type != .linkingObjects }
    /// True for lists, sets and maps.
    public var isCollection: Bool { collection != .single }

    /// A short type description: `int?`, `[string]`, `Dog?`, `set<int>`, `map<string, Dog?>`.
    public var typeDescription: String {
        var base = type == .object || type == .linkingObjects ? (objectClassName ?? "object") : type.description
        if type == .linkingObjects { return "linkingObjects<\(base).\(linkOriginPropertyName ?? "?")>" }
        if isOptional { base += "?" }
        switch collection {
        case .single: return base
        case .list: return "[\(base)]"
        case .set: return "set<\(base)>"
        case .map: return "map<string, \(base)>"
        }
    }
    public var description: String { "\(name): \(typeDescription)\(isPrimaryKey ? " (primary key)" : isIndexed ? " (indexed)" : "")" }
}

/// One class (RealmSwift's `ObjectSchema`).
public struct ObjectSchema: Hashable, Sendable, CustomStringConvertible {
    /// The class's name in the file.
    public var className: String
    /// Every property, stored ones and linking objects, in declaration order: the class as the
    /// file keeps it.
    public var allProperties: [PropertySchema]
    /// True for embedded classes (objects owned by one parent, with no identity of their own).
    public var isEmbedded: Bool

    /// A class with the given properties (stored ones and linking objects, in declaration order).
    public init(className: String, properties: [PropertySchema], isEmbedded: Bool = false) {
        self.className = className; self.allProperties = properties; self.isEmbedded = isEmbedded
    }

    /// The stored properties, in declaration order: every property but the linking objects,
    /// which are in `computedProperties` (as in RealmSwift). Setting it replaces the stored
    /// properties and keeps the linking objects (in place while the number of stored properties
    /// stays the same, else after them).
    public var properties: [PropertySchema] {
        get { allProperties.filter(\.isStored) }
        set {
            let stored = allProperties.filter(\.isStored).count
            if newValue.count == stored && newValue.allSatisfy(\.isStored) {
                var next = newValue.makeIterator()
                allProperties = allProperties.map { $0.isStored ? next.next()! : $0 }
            } else {
                allProperties = newValue + allProperties.filter { p in !p.isStored && !newValue.contains { $0.name == p.name } }
            }
        }
    }
    /// The primary key property, if the class has one.
    public var primaryKeyProperty: PropertySchema? { allProperties.first { $0.isPrimaryKey } }
    /// The property named `name`, stored or linking objects, if any.
    public subscript(name: String) -> PropertySchema? { allProperties.first { $0.name == name } }
    /// Properties stored in columns, in column order.
    public var storedProperties: [PropertySchema] { allProperties.filter(\.isStored) }
    /// The column of the stored property named `name`.
    public func columnIndex(of name: String) -> Int? { storedProperties.firstIndex { $0.name == name } }
    public var description: String {
        "class \(className)\(isEmbedded ? " (embedded)" : "") {\n" + allProperties.map { "  \($0)" }.joined(separator: "\n") + "\n}"
    }
}

/// The set of classes in a file or configuration.
public struct Schema: Hashable, Sendable, CustomStringConvertible {
    /// The classes, sorted by name.
    public var objectSchemas: [ObjectSchema]
    /// A schema of these classes.
    public init(_ objectSchemas: [ObjectSchema]) { self.objectSchemas = objectSchemas.sorted { $0.className < $1.className } }
    /// The class named `className`, if any.
    public subscript(className: String) -> ObjectSchema? { objectSchemas.first { $0.className == className } }
    /// The class names, sorted.
    public var classNames: [String] { objectSchemas.map(\.className) }
    public var description: String { objectSchemas.map(\.description).joined(separator: "\n") }

    /// The longest class name, in UTF-8 bytes (Realm's limit).
    public static let maxClassNameBytes = 57
    /// The longest property name, in UTF-8 bytes (Realm's limit).
    public static let maxPropertyNameBytes = 63

    /// Checks names, limits, primary keys, indexes and link targets.
    public func validate() throws {
        var seen = Set<String>()
        for os in objectSchemas {
            guard !os.className.isEmpty else { throw SchemaError.invalid("a class has an empty name") }
            guard os.className.utf8.count <= Self.maxClassNameBytes else {
                throw SchemaError.classNameTooLong(os.className, os.className.utf8.count)
            }
            guard seen.insert(os.className).inserted else { throw SchemaError.invalid("class '\(os.className)' is defined twice") }
            var props = Set<String>()
            var pk = 0
            for p in os.allProperties {
                guard !p.name.isEmpty else { throw SchemaError.invalid("class '\(os.className)' has a property with an empty name") }
                guard p.name.utf8.count <= Self.maxPropertyNameBytes else {
                    throw SchemaError.propertyNameTooLong(os.className, p.name, p.name.utf8.count)
                }
                guard props.insert(p.name).inserted else { throw SchemaError.invalid("property '\(os.className).\(p.name)' is defined twice") }
                if p.isPrimaryKey {
                    pk += 1
                    guard p.type.canBePrimaryKey, p.collection == .single else {
                        throw SchemaError.invalid("'\(os.className).\(p.name)': a \(p.typeDescription) property cannot be a primary key (use Int, String, ObjectId or UUID)")
                    }
                    guard !os.isEmbedded else { throw SchemaError.invalid("embedded class '\(os.className)' cannot have a primary key") }
                }
                if p.isIndexed && !p.isPrimaryKey && !(p.type.canBeIndexed && p.collection == .single) {
                    throw SchemaError.invalid("'\(os.className).\(p.name)': \(p.typeDescription) properties cannot be indexed")
                }
                if p.type == .object || p.type == .linkingObjects {
                    guard let target = p.objectClassName, let t = self[target] else {
                        throw SchemaError.invalid("'\(os.className).\(p.name)' links to class '\(p.objectClassName ?? "")', which is not in the schema")
                    }
                    if p.type == .object && p.collection == .single && !p.isOptional {
                        throw SchemaError.invalid("'\(os.className).\(p.name)': to-one links must be optional")
                    }
                    if p.type == .linkingObjects {
                        guard let origin = p.linkOriginPropertyName, let op = t[origin], op.type == .object, op.objectClassName == os.className else {
                            throw SchemaError.invalid("'\(os.className).\(p.name)': '\(target).\(p.linkOriginPropertyName ?? "")' is not a link to '\(os.className)'")
                        }
                    }
                }
            }
            if pk > 1 { throw SchemaError.invalid("class '\(os.className)' has more than one primary key") }
        }
    }

    // MARK: encoding (stored in the file)

    func encode() -> [UInt8] {
        var w = ByteWriter()
        w.u32(1) // schema encoding version
        w.u32(UInt32(objectSchemas.count))
        for os in objectSchemas {
            w.string(os.className)
            w.u8(os.isEmbedded ? 1 : 0)
            w.u32(UInt32(os.allProperties.count))
            for p in os.allProperties {
                w.string(p.name)
                w.u8(p.type.rawValue); w.u8(p.collection.rawValue)
                w.u8((p.isOptional ? 1 : 0) | (p.isPrimaryKey ? 2 : 0) | (p.isIndexed ? 4 : 0))
                w.string(p.objectClassName ?? "")
                w.string(p.linkOriginPropertyName ?? "")
            }
        }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> Schema {
        try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            do {
                guard try r.u32() == 1 else { throw SchemaError.invalid("schema stored with an unknown encoding") }
                let n = Int(try r.u32())
                guard n < 100_000 else { throw ByteReader.OutOfBounds() }
                var out: [ObjectSchema] = []
                for _ in 0..<n {
                    let name = try r.string()
                    let embedded = try r.u8() == 1
                    let pn = Int(try r.u32())
                    guard pn < 100_000 else { throw ByteReader.OutOfBounds() }
                    var props: [PropertySchema] = []
                    for _ in 0..<pn {
                        let pname = try r.string()
                        guard let type = PropertyType(rawValue: try r.u8()), let coll = CollectionKind(rawValue: try r.u8()) else { throw ByteReader.OutOfBounds() }
                        let flags = try r.u8()
                        let target = try r.string(), origin = try r.string()
                        props.append(PropertySchema(name: pname, type: type, collection: coll, isOptional: flags & 1 != 0,
                                                    objectClassName: target.isEmpty ? nil : target,
                                                    linkOriginPropertyName: origin.isEmpty ? nil : origin,
                                                    isPrimaryKey: flags & 2 != 0, isIndexed: flags & 4 != 0))
                    }
                    out.append(ObjectSchema(className: name, properties: props, isEmbedded: embedded))
                }
                return Schema(out)
            } catch is ByteReader.OutOfBounds {
                throw SchemaError.invalid("the stored schema is damaged")
            }
        }
    }
}

/// Schema problems. Messages name the class and property and say what to change.
public enum SchemaError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A problem described in the message (duplicate names, a bad link target, …).
    case invalid(String)
    /// A class name longer than `Schema.maxClassNameBytes`.
    case classNameTooLong(String, Int)
    /// A property name longer than `Schema.maxPropertyNameBytes`.
    case propertyNameTooLong(String, String, Int)
    /// The file's schema differs from the wanted one; each difference in a sentence. Raise the schema version and migrate.
    case migrationRequired([String])
    /// Another process changed the file's schema (a migration) since this handle opened it;
    /// each change in a sentence. Close the handle and open the file again.
    case changedByAnotherProcess([String])
    /// No class of that name in the schema.
    case noSuchClass(String)
    /// No property of that name on the class.
    case noSuchProperty(className: String, property: String)

    public var description: String {
        switch self {
        case .invalid(let s): return "invalid schema: \(s)"
        case .classNameTooLong(let n, let b): return "class name '\(n)' is \(b) UTF-8 bytes; the limit is \(Schema.maxClassNameBytes)"
        case .propertyNameTooLong(let c, let p, let b): return "property name '\(c).\(p)' is \(b) UTF-8 bytes; the limit is \(Schema.maxPropertyNameBytes)"
        case .migrationRequired(let diffs):
            return "migration required: the schema differs from the file's (" + diffs.joined(separator: "; ") + "). Increase schemaVersion and give a migrationBlock, or set deleteRealmIfMigrationNeeded"
        case .changedByAnotherProcess(let changes):
            return "the file's schema was changed by another process since this handle opened it (" + changes.joined(separator: "; ")
                + "); nothing was read or written with the old schema. Close it and open the file again (from Swift: with the new schema and schemaVersion)"
        case .noSuchClass(let c): return "no class named '\(c)' in the schema"
        case .noSuchProperty(let c, let p): return "class '\(c)' has no property named '\(p)'"
        }
    }
}
