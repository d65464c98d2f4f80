import Foundation
import StrataObjects

/// The demo database's schema as a file (`Resources/demo/schema.json`, embedded at build time):
/// `{"classes": [{"name", "embedded"?, "properties": [{"name", "type", "collection"?,
/// "optional"?, "primaryKey"?, "indexed"?, "target"?, "origin"?}]}]}`.
enum DemoSchemaFile {
    private struct File: Decodable {
        struct Class: Decodable {
            var name: String
            var embedded: Bool?
            var properties: [Property]
        }
        struct Property: Decodable {
            var name: String
            var type: String
            var collection: String?
            var optional: Bool?
            var primaryKey: Bool?
            var indexed: Bool?
            var target: String?
            var origin: String?
        }
        var classes: [Class]
    }

    /// Parses a schema file; unknown types or collections are errors that name the property.
    static func parse(_ json: String) throws -> Schema {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(json.utf8))
        } catch {
            throw InputError("Resources/demo/schema.json is not a valid schema file: \(error)")
        }
        let types = Dictionary(uniqueKeysWithValues: PropertyType.allCases.map { ($0.description, $0) })
        let collections: [String: CollectionKind] = ["list": .list, "set": .set, "map": .map]
        return Schema(try file.classes.map { objectClass in
            ObjectSchema(className: objectClass.name, properties: try objectClass.properties.map { property in
                guard let type = types[property.type] else {
                    throw InputError("Resources/demo/schema.json: \(objectClass.name).\(property.name) has unknown type '\(property.type)'; use one of \(types.keys.sorted().joined(separator: " "))")
                }
                var collection = CollectionKind.single
                if let name = property.collection {
                    guard let kind = collections[name] else {
                        throw InputError("Resources/demo/schema.json: \(objectClass.name).\(property.name) has unknown collection '\(name)'; use list, set or map")
                    }
                    collection = kind
                }
                return PropertySchema(name: property.name, type: type, collection: collection,
                                      isOptional: property.optional ?? false, objectClassName: property.target,
                                      linkOriginPropertyName: property.origin, isPrimaryKey: property.primaryKey ?? false,
                                      isIndexed: property.indexed ?? false)
            }, isEmbedded: objectClass.embedded ?? false)
        })
    }

    /// The schema built into the binary. Checked by `DemoNamesTests`.
    static let bundled: Schema = {
        do {
            return try parse(StrataToolingResources.files["demo/schema.json"] ?? "")
        } catch {
            fatalError("\(error)")
        }
    }()
}
