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

extension MigrationObject {
    /// The list of links `propertyName` as a live `MigrationList` (RealmSwift's
    /// `dynamicList(_:)` on a migration object): `new!.dynamicList("dogs").append(dog)`.
    public func dynamicList(_ propertyName: String) -> MigrationList {
        guard let p = txn.schema[className]?[propertyName], p.collection == .list, p.type == .object else {
            strataProgrammerError("Property '\(className).\(propertyName)' is not a list of objects")
        }
        return MigrationList(object: self, property: p)
    }
}

/// A list of links of a `MigrationObject`, read and written live inside the migration (what
/// `MigrationObject.dynamicList(_:)` returns; RealmSwift returns a `List<MigrationObject>`).
/// Its elements are `MigrationObject`s; the lists of new objects can be changed, and a change
/// that fails (an old object, an element of the old schema) fails the migration with its error.
public final class MigrationList: RandomAccessCollection, CustomStringConvertible {
    let object: MigrationObject
    let property: PropertySchema

    init(object: MigrationObject, property: PropertySchema) { self.object = object; self.property = property }

    private var what: String { "'\(object.className).\(property.name)'" }

    private func links() -> [Value] {
        do { return try object.txn.list(object.className, object.key, property.name) } catch {
            object.migration.record(error); return []
        }
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of elements.
    public var endIndex: Int { links().count }

    /// The object at `position` (traps when out of bounds).
    public subscript(position: Int) -> MigrationObject {
        let vs = links()
        guard position >= 0 && position < vs.count else { strataProgrammerError("Index \(position) is out of bounds (must be less than \(vs.count))") }
        guard case .object(let l) = vs[position] else { strataProgrammerError("\(what) holds \(vs[position]) at \(position), not a link") }
        return MigrationObject(migration: object.migration, txn: object.txn, className: l.className, key: l.key, writable: object.writable)
    }

    /// Replaces a range of elements (every change of the list goes through here).
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == MigrationObject {
        do {
            guard object.writable else {
                throw MigrationError.invalidOperation("\(what): old objects are read-only; change the list of the new object")
            }
            var vs = try object.txn.list(object.className, object.key, property.name)
            guard subrange.lowerBound >= 0 && subrange.upperBound <= vs.count else {
                strataProgrammerError("Index range \(subrange) is out of bounds (count \(vs.count))")
            }
            vs.replaceSubrange(subrange, with: try newElements.map { try MigrationObject.toValue($0, "an element of \(what)", object.migration.runner) })
            try object.migration.runner.setCollection(object.className, object.key, property, elements: vs)
        } catch { object.migration.record(error) }
    }

    /// Appends an object.
    public func append(_ element: MigrationObject) { let n = endIndex; replaceSubrange(n..<n, with: [element]) }
    /// Appends several objects.
    public func append<S: Sequence>(objectsIn elements: S) where S.Element == MigrationObject {
        let n = endIndex; replaceSubrange(n..<n, with: Array(elements))
    }
    /// Inserts an object at `index`.
    public func insert(_ element: MigrationObject, at index: Int) { replaceSubrange(index..<index, with: [element]) }
    /// Removes the object at `index`.
    public func remove(at index: Int) { replaceSubrange(index..<index + 1, with: []) }
    /// Removes every object (the objects themselves stay).
    public func removeAll() { replaceSubrange(0..<endIndex, with: []) }

    /// The class and keys of the linked objects.
    public var description: String { "MigrationList<\(property.objectClassName ?? "?")>(\(links().map { "\($0)" }.joined(separator: ", ")))" }
}
