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
    /// `filter(_:_:)` that throws a `QueryError` for an invalid query.
    public func filter(checked predicateFormat: String, _ args: Any...) throws -> Results<Element> {
        try _strataResults.filter(checked: predicateFormat, arguments: args)
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

/// Rewrites NSPredicate-style placeholders, as RealmSwift queries use them, into Realm Query
/// Language: each `%@` (also `%d`, `%i`, `%ld`, `%f`) becomes the next `$n` argument, and `%K`
/// is replaced by its argument (a key path) in the text. Text inside quotes is left alone.
/// Returns the query and the arguments left for `$n`.
func rewritePredicatePlaceholders(_ text: String, _ rawArguments: [Any]) -> (String, [Any]) {
    let arguments = rawArguments.map(persistedQueryArgument)
    guard text.contains("%") else { return (text, arguments) }
    var out = "", args: [Any] = [], next = 0
    var quote: Character? = nil
    var chars = Array(text)[...]
    while let c = chars.popFirst() {
        if let q = quote {
            out.append(c)
            if c == "\\", let n = chars.popFirst() { out.append(n) } else if c == q { quote = nil }
            continue
        }
        if c == "'" || c == "\"" { quote = c; out.append(c); continue }
        guard c == "%", let spec = chars.first else { out.append(c); continue }
        var specifier = String(spec)
        if spec == "l", chars.dropFirst().first == "d" { specifier = "ld" }
        switch specifier {
        case "K":
            chars = chars.dropFirst()
            out += next < arguments.count ? "\(arguments[next])" : "%K"
            next += 1
        case "@", "d", "i", "f", "ld":
            chars = chars.dropFirst(specifier.count)
            out += "$\(args.count)"
            if next < arguments.count { args.append(arguments[next]) }
            next += 1
        default:
            out.append(c)
        }
    }
    // Arguments already numbered `$n` in the text keep their positions after the placeholders.
    if next < arguments.count { args += arguments[next...] }
    return (out, args)
}

/// A persistable enum or custom persistable value as the value its column stores (so
/// `filter("kind == %@", Kind.large)` compares raw values); other arguments unchanged.
func persistedQueryArgument(_ a: Any) -> Any {
    if let e = a as? any PersistableEnum { return persistedQueryArgument(e.rawValue) }
    if let c = a as? any CustomPersistable { return persistedQueryArgument(c.persistableValue) }
    if let c = a as? any FailableCustomPersistable { return persistedQueryArgument(c.persistableValue) }
    if let list = a as? [Any] { return list.map(persistedQueryArgument) }
    return a
}
