import Foundation
import StrataObjects
import StrataQuery
import StrataRealm

/// Realm Query Language over a `.realm` file: the query layer's own parser, binder and
/// evaluator (`RQL.compile`, `QueryEvaluator` with its SORT/DISTINCT/LIMIT and value ordering)
/// run over the reader through `QueryObjectAccess`, the seam the query layer defines for any
/// object store. So a query means the same, fails with the same errors and orders values the
/// same way on a Realm file as on a Strata file; only the reading differs (the Strata engine's
/// executor scans its own columns, this reads the Realm file's columns once per class and
/// property and keeps them for the session: the snapshot never changes).
package final class RealmQueryRunner: @unchecked Sendable {
    package let realm: RealmFile
    /// Classes and internal tables by name, with their query schema.
    package let querySchema: QuerySchema
    /// Columns, keys and key → row maps read so far, shared by every run (from any thread).
    fileprivate let cache: RealmQueryCache

    package init(realm: RealmFile) {
        self.realm = realm
        let tables = realm.classes + realm.otherTables
        self.querySchema = QuerySchema(tables.map(Self.queryClass))
        self.cache = RealmQueryCache(realm: realm, tables: tables)
    }

    /// The query view of a Realm class: stored properties with their types. Backlinks are not
    /// properties here (the file has no `LinkingObjects` names); queries reach them with
    /// `@links.Origin.property` and `@links.@count`, as in realm-core.
    static func queryClass(_ c: RealmClass) -> QueryClass {
        QueryClass(c.name, c.properties.compactMap { p in
            let element: QueryPropertyType
            switch p.type {
            case .int: element = .int
            case .bool: element = .bool
            case .string: element = .string
            case .binary: element = .data
            case .mixed, .typedLink: element = .any
            case .timestamp: element = .date
            case .float: element = .float
            case .double: element = .double
            case .decimal128: element = .decimal
            case .objectId: element = .objectId
            case .uuid: element = .uuid
            case .link: element = .link(p.targetClass ?? "")
            case .linkingObjects: return nil
            }
            let type: QueryPropertyType
            switch p.collection {
            case nil: type = element
            case .list?: type = .list(element)
            case .set?: type = .set(element)
            case .dictionary?: type = .map(element)
            }
            return QueryProperty(p.name, type, optional: p.isNullable || p.type == .link)
        })
    }

    /// Parses and binds `query` for `className`; a bad query is a ``BrowserError`` with the
    /// 0-based position, exactly as for Strata files.
    package func compile(_ query: String, className: String) throws -> BoundQuery {
        try QueryText.compile(query, schema: querySchema, className: className)
    }

    /// The rows (0-based positions in key order) of the objects of `className` that match
    /// `query`, after its SORT / DISTINCT / LIMIT.
    /// Safe to call from several threads at once (a background filter while the browser reads);
    /// a cancelled run throws ``BrowserError`` with the query layer's "cancelled" message.
    package func rows(className: String, query: String, cancellation: QueryCancellation? = nil) throws -> [Int] {
        try rows(compile(query, className: className), cancellation: cancellation)
    }

    /// The rows of the objects a bound query yields, in its order.
    package func rows(_ query: BoundQuery, cancellation: QueryCancellation? = nil) throws -> [Int] {
        guard let cls = cache.classIndex[query.className] else { throw BrowserError("no class named '\(query.className)' in this file") }
        let access = RealmQueryAccess(cache: cache)
        let all = (0..<cache.tables[cls].objectCount).lazy.map { RealmQueryAccess.Row(cls: cls, row: $0) }
        let result: [RealmQueryAccess.Row]
        do {
            result = try QueryEvaluator(access).run(query, over: all, cancellation: cancellation)
        } catch let error as QueryError {
            throw BrowserError(error.message)
        }
        if let failure = access.failure { throw RealmFileDataSource.browserError(failure) }
        return result.map(\.row)
    }
}

extension RealmQueryRunner {
    /// `rows` (positions of `className`) ordered by the object key of the object their to-one
    /// link `property` points at, as the browser sorts a link column on a Strata file: null
    /// links first when ascending, ties in the order given.
    package func rows(_ rows: [Int], sortedByLinkKey property: String, in className: String, ascending: Bool) throws -> [Int] {
        guard let cls = cache.classIndex[className], let column = try cache.column(cls, property) else {
            throw BrowserError("no property '\(property)' to sort by")
        }
        let keyed = rows.enumerated().map { index, row -> (key: Int64?, index: Int, row: Int) in
            guard row < column.count, case let .link(_, key) = column[row] else { return (nil, index, row) }
            return (key, index, row)
        }
        return keyed.sorted { a, b in
            if a.key == b.key { return a.index < b.index }
            guard let x = a.key else { return ascending }
            guard let y = b.key else { return !ascending }
            return (x < y) == ascending
        }.map(\.row)
    }
}

/// Query text → bound query, with errors as ``BrowserError``s (0-based position): one mapping
/// for both file kinds.
package enum QueryText {
    package static func compile(_ query: String, schema: QuerySchema, className: String) throws -> BoundQuery {
        let result: Result<BoundQuery, QueryError> = Result { () throws(QueryError) -> BoundQuery in
            try RQL.compile(query, schema: schema, className: className)
        }
        switch result {
        case .success(let bound): return bound
        case .failure(let error): throw BrowserError(error.message, position: error.position.map { max(0, $0 - 1) })
        }
    }
}

/// What the query runs of one ``RealmQueryRunner`` have read: whole columns (read once per
/// class and property), object keys and key → row maps. Locked, so a background filter and the
/// browser's thread share it; a column two runs want at once may be read twice (same values).
final class RealmQueryCache: @unchecked Sendable {
    let realm: RealmFile
    let tables: [RealmClass]
    let classIndex: [String: Int]
    private let lock = NSLock()
    private var columns: [Int: [String: [RealmValue]]] = [:]
    private var backlinkColumns: [Int: [Int: [RealmValue]]] = [:]
    private var keys: [Int: [Int64]] = [:]
    private var rowsByKey: [Int: [Int64: Int]] = [:]

    init(realm: RealmFile, tables: [RealmClass]) {
        self.realm = realm
        self.tables = tables
        var index: [String: Int] = [:]
        for (i, t) in tables.enumerated() where index[t.name] == nil { index[t.name] = i }
        self.classIndex = index
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body()
    }

    /// The column of `property` in class `cls` (nil: no such property).
    func column(_ cls: Int, _ property: String) throws -> [RealmValue]? {
        if let column = locked({ columns[cls]?[property] }) { return column }
        let t = tables[cls]
        guard let p = t.properties.first(where: { $0.name == property }) else { return nil }
        let column = try realm.columnValues(columnKey: p.columnKey, in: t.name)
        locked { columns[cls, default: [:]][property] = column }
        return column
    }

    func backlinkColumn(_ cls: Int, _ index: Int) throws -> [RealmValue] {
        if let column = locked({ backlinkColumns[cls]?[index] }) { return column }
        let t = tables[cls]
        let column = try realm.columnValues(columnKey: t.backlinks[index].columnKey, in: t.name)
        locked { backlinkColumns[cls, default: [:]][index] = column }
        return column
    }

    func keys(_ cls: Int) throws -> [Int64] {
        if let k = locked({ keys[cls] }) { return k }
        let k = try realm.objectKeys(in: tables[cls].name)
        locked { keys[cls] = k }
        return k
    }

    func rowsByKey(_ cls: Int) throws -> [Int64: Int] {
        if let map = locked({ rowsByKey[cls] }) { return map }
        var map: [Int64: Int] = [:]
        for (row, k) in try keys(cls).enumerated() { map[k] = row }
        locked { rowsByKey[cls] = map }
        return map
    }
}

/// How the query evaluator reads a Realm file: objects are (table, row) pairs, property values
/// come from whole columns read once (`RealmFile.columnValues`, kept in a ``RealmQueryCache``),
/// links are resolved through a key → row map per class. Read errors cannot cross the evaluator
/// (its reads do not throw): the first one is kept in ``failure`` and the runner throws it after
/// the run. One access per run (``failure`` is the run's own).
final class RealmQueryAccess: QueryObjectAccess {
    struct Row: Hashable {
        let cls: Int
        let row: Int
    }
    typealias Object = Row

    let cache: RealmQueryCache
    var tables: [RealmClass] { cache.tables }
    var failure: Error?

    init(cache: RealmQueryCache) {
        self.cache = cache
    }

    private func attempt<T>(_ fallback: T, _ body: () throws -> T) -> T {
        if failure != nil { return fallback }  // the run fails anyway: read nothing more
        do { return try body() } catch {
            if failure == nil { failure = error }
            return fallback
        }
    }

    /// The value of `property` at `o` (the whole column is read on first use).
    private func raw(_ o: Row, _ property: String) -> RealmValue {
        guard let column = attempt(nil, { try cache.column(o.cls, property) }) else { return .null }
        return o.row < column.count ? column[o.row] : .null
    }

    private func backlinkColumn(_ cls: Int, _ index: Int) -> [RealmValue] {
        attempt([]) { try cache.backlinkColumn(cls, index) }
    }

    private func key(_ o: Row) -> Int64 {
        let k = attempt([]) { try cache.keys(o.cls) }
        return o.row < k.count ? k[o.row] : -1
    }

    /// The object a link points at, or nil when the class or key does not exist.
    private func target(_ className: String, _ key: Int64) -> Row? {
        guard let cls = cache.classIndex[className] else { return nil }
        return attempt([:]) { try cache.rowsByKey(cls) }[key].map { Row(cls: cls, row: $0) }
    }

    private func object(_ v: RealmValue) -> Row? {
        if case let .link(cls, key) = v { return target(cls, key) }
        return nil
    }

    private func elements(_ v: RealmValue) -> [RealmValue] {
        switch v {
        case let .list(x), let .set(x): return x
        case let .dictionary(d): return d.map(\.value)
        default: return []
        }
    }

    func value(of object: Row, property: String) -> QueryValue { Self.queryValue(raw(object, property), exists: { self.target($0, $1) != nil }) }
    func link(of object: Row, property: String) -> Row? { self.object(raw(object, property)) }
    func objects(of object: Row, property: String) -> [Row] { elements(raw(object, property)).compactMap(self.object) }
    func values(of object: Row, property: String) -> [QueryValue] {
        elements(raw(object, property)).map { Self.queryValue($0, exists: { self.target($0, $1) != nil }) }
    }

    func map(of object: Row, property: String) -> [(key: String, value: QueryValue)] {
        guard case let .dictionary(d) = raw(object, property) else { return [] }
        return d.map { (key: $0.key, value: Self.queryValue($0.value, exists: { self.target($0, $1) != nil })) }
    }

    func objectMap(of object: Row, property: String) -> [(key: String, value: Row?)] {
        guard case let .dictionary(d) = raw(object, property) else { return [] }
        return d.map { (key: $0.key, value: self.object($0.value)) }
    }

    func backlinks(of object: Row, originClass: String, property: String) -> [Row] {
        let t = tables[object.cls]
        var out: [Row] = []
        for (i, b) in t.backlinks.enumerated() where b.targetClass == originClass && b.originProperty == property {
            let column = backlinkColumn(object.cls, i)
            if object.row < column.count { out += elements(column[object.row]).compactMap(self.object) }
        }
        return out
    }

    func backlinkCount(of object: Row) -> Int {
        var n = 0
        for i in tables[object.cls].backlinks.indices {
            let column = backlinkColumn(object.cls, i)
            if object.row < column.count { n += elements(column[object.row]).count }
        }
        return n
    }

    func reference(of object: Row) -> QueryObjectRef {
        QueryObjectRef(className: tables[object.cls].name, key: key(object))
    }

    /// The query value of a Realm value. Links to objects that do not exist read as null (as
    /// for Strata files). A collection nested in a Mixed (format 24) is a `.list` of its values
    /// (dictionary values in key order): it equals no scalar and sorts after every scalar.
    /// Decimal128 values keep their exact decimal128 value.
    static func queryValue(_ v: RealmValue, exists: (String, Int64) -> Bool) -> QueryValue {
        switch v {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .int(i): return .int(i)
        case let .float(f): return .float(f)
        case let .double(d): return .double(d)
        case let .string(s): return .string(s)
        case let .binary(b): return .data(b)
        case let .timestamp(s, n): return .date(QueryTimestamp(seconds: s, nanoseconds: Int64(n)))
        case let .objectId(o): return QueryObjectId(bytes: o.bytes).map { .objectId($0) } ?? .null
        case let .uuid(u): return UUID(uuidString: u.description).map { .uuid($0) } ?? .null
        case let .decimal128(d): return decimal(d)
        case let .link(cls, key): return exists(cls, key) ? .object(QueryObjectRef(className: cls, key: key)) : .null
        case let .list(x), let .set(x): return .list(x.map { queryValue($0, exists: exists) })
        case let .dictionary(d): return .list(d.map { queryValue($0.value, exists: exists) })
        }
    }

    /// A Realm decimal as the query layer's `Decimal128`: the same IEEE 754 decimal128 value
    /// (every value, NaN and ±Inf included).
    static func decimal(_ d: RealmDecimal128) -> QueryValue {
        if d.isNull { return .null }
        return .decimal(Decimal128(storage: d.decimalValue))
    }
}
