import Foundation
import StrataObjects

// Filtering and sorting for every `RealmCollection` of objects (`List`, `MutableSet`,
// `LinkingObjects`, `AnyRealmCollection`, generic code): each returns `Results`, as RealmSwift's do.

extension RealmCollection where Element: ObjectBase {
    /// The objects matching a Realm Query Language predicate; an invalid query traps with the
    /// error message (use `filter(checked:)` on `Results` to get the error).
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do { return try _strataResults.filter(checked: predicateFormat, arguments: args) } catch {
            preconditionFailure("Strata: invalid query '\(predicateFormat)': \(error)")
        }
    }
    /// The objects for which the typed predicate holds.
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> { _strataResults.where(isIncluded) }
    /// Sorted by a key path (`"age"`, `"owner.name"`).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        _strataResults.sorted(byKeyPath: keyPath, ascending: ascending)
    }
    /// Sorted by a typed key path (`\.age`).
    public func sorted<V>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element> {
        _strataResults.sorted(by: keyPath, ascending: ascending)
    }
    /// Sorted by several keys, the first deciding first.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        _strataResults.sorted(by: descriptors)
    }
    /// The first object of each distinct combination of the key paths' values.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        _strataResults.distinct(by: keyPaths)
    }
    /// The position of the first object matching the predicate, or nil.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        let matching: Results<Element>
        do { matching = try _strataResults.filter(checked: predicateFormat, arguments: args) } catch {
            preconditionFailure("Strata: invalid query '\(predicateFormat)': \(error)")
        }
        guard let first = matching.first else { return nil }
        return index(of: first)
    }
}

extension SortDescriptor: CustomStringConvertible {
    /// `SortDescriptor(keyPath: age, direction: ascending)`, as RealmSwift prints it.
    public var description: String {
        "SortDescriptor(keyPath: \(keyPath), direction: \(ascending ? "ascending" : "descending"))"
    }
}
