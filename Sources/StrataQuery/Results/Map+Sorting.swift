import Foundation
import StrataObjects

// Sorting of `Map` values by the query layer's single ordering (`sortCompare`): numbers by
// value across types, strings by code point, null first; the same order as `Results.sorted`.

extension Map {
    /// The values sorted (RealmSwift's `sorted(ascending:)` on maps of comparable values).
    /// Not as RealmSwift: a snapshot array, not live `Results`.
    public func sorted(ascending: Bool = true) -> [Value] where Value: Comparable {
        _strataStoredValues
            .map { (value: $0.value, key: QueryValue($0.stored)) }
            .enumerated()
            .sorted { a, b in
                let o = sortCompare(a.element.key, b.element.key)
                if o == .equal { return a.offset < b.offset }
                return ascending ? o == .less : o == .greater
            }
            .map(\.element.value)
    }

    /// The objects of a map of links sorted by a property key path (`"age"`, `"owner.name"`),
    /// as RealmSwift's `sorted(byKeyPath:ascending:)`; null values are left out. The results
    /// are live and can be filtered further.
    public func sorted<T: ObjectBase>(byKeyPath keyPath: String, ascending: Bool = true) -> Results<T> where Value == T? {
        _strataObjectResults(T.self).sorted(byKeyPath: keyPath, ascending: ascending)
    }
}
