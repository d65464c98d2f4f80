import Foundation

/// What a class's table derives from its schema (columns, names, index and key columns): made
/// once per schema and shared by every transaction's `ClassTable`, instead of once per
/// transaction (a small commit opens its class's table anew each time).
final class ClassLayout: Sendable {
    let schema: ObjectSchema
    /// The stored properties, in column order.
    let columns: [PropertySchema]
    /// The class's cluster tree (`c/<Class>`).
    let treeName: String
    /// Column index by property name.
    let columnByName: [String: Int]
    /// Columns with a secondary index (not an Int primary key, which is the object key).
    let indexedColumns: [Int]
    /// Column of the primary key, if any.
    let pkColumn: Int?
    /// True when an Int primary key is the object key.
    let usesPrimaryKeyAsObjectKey: Bool
    /// The type of each column.
    let columnTypes: [PropertyType]

    init(_ schema: ObjectSchema) {
        self.schema = schema
        let cols = schema.storedProperties
        columns = cols
        treeName = "c/" + schema.className
        var byName: [String: Int] = [:]
        for (i, p) in cols.enumerated() { byName[p.name] = i }
        columnByName = byName
        indexedColumns = cols.indices.filter { cols[$0].isIndexed && !(cols[$0].isPrimaryKey && cols[$0].type == .int) }
        pkColumn = cols.firstIndex { $0.isPrimaryKey }
        usesPrimaryKeyAsObjectKey = schema.primaryKeyProperty?.type == .int
        columnTypes = cols.map(\.type)
    }
}

/// The `ClassLayout` of every class of one schema (immutable once made, so transactions on
/// any thread read it without a lock).
final class SchemaLayout: Sendable {
    let classes: [String: ClassLayout]

    init(_ schema: Schema) {
        var out: [String: ClassLayout] = [:]
        for os in schema.objectSchemas { out[os.className] = ClassLayout(os) }
        classes = out
    }
}
