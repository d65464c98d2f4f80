import Foundation

// RealmSwift's migration spellings on Strata's `Migration`.

extension Migration {
    /// Creates an object of the new schema from an array of values in the class's property
    /// order (linking objects skipped), as RealmSwift's `create(_:value:)` accepts. More
    /// values than stored properties is an error of the migration.
    @discardableResult
    public func create(_ typeName: String, value: [Any]) -> MigrationObject {
        let names = newSchema[typeName]?.storedProperties.map(\.name) ?? []
        if value.count > names.count {
            record(MigrationError.invalidOperation("create(\"\(typeName)\", value:) got \(value.count) values for the \(names.count) stored properties of '\(typeName)'; pass one value per property, in declaration order"))
            return MigrationObject(migration: self, txn: runner.newTxn, className: typeName, key: -1, writable: true)
        }
        var d: [String: Any] = [:]
        for (n, v) in zip(names, value) { d[n] = v }
        return create(typeName, value: d)
    }
}
