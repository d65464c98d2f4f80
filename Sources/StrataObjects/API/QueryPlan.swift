import Foundation

/// One step of a `Results` pipeline, implemented outside this module by the query engine
/// (`filter`, `where`, `sorted`, `distinct`, limits).
///
/// `apply` receives the keys produced by the previous stage — or nil for "every object of
/// the class" when it is the first stage of a class's results, so a filter can scan columns
/// (`ClusterSnapshot`) or use an index instead of materialising all keys — and returns the
/// keys of the objects that pass, in the order the results should have. It runs inside
/// the realm's current transaction (`txn`), on the realm's thread, and may run again whenever
/// the results are read after a change (the caller caches by version). Throwing traps with
/// the error's message when the results are read; validate queries when building the stage.
public protocol ResultsStage: Sendable {
    /// The keys of the objects that pass, in result order; `keys` is the previous stage's output (nil: every object of the class).
    func apply(to keys: [ObjKey]?, className: String, in txn: DBTransaction) throws -> [ObjKey]
    /// The number of objects `apply` would return. The default calls `apply`; a filter can
    /// count without building the array.
    func count(of keys: [ObjKey]?, className: String, in txn: DBTransaction) throws -> Int
    /// A short description (`filter(age > 3)`), shown in `Results.description`.
    var stageDescription: String { get }
}

extension ResultsStage {
    public func count(of keys: [ObjKey]?, className: String, in txn: DBTransaction) throws -> Int {
        try apply(to: keys, className: className, in: txn).count
    }
    public var stageDescription: String { "\(Self.self)" }
}

/// Where the keys of a `Results` come from before its stages.
enum ResultsBase {
    /// Every object of the class, in key order.
    case all
    /// The objects linking to (class, key) through `property` (LinkingObjects).
    case backlinks(String, ObjKey, String)
    /// The objects of a list, set or map property of links (class, key, property), live.
    case list(String, ObjKey, String)

    func keys(_ className: String, _ txn: DBTransaction) throws -> [ObjKey]? {
        switch self {
        case .all: return nil
        case .backlinks(let tc, let tk, let prop): return try txn.backlinks(tc, tk, originClass: className, originProperty: prop)
        case .list(let oc, let ok, let prop):
            // A map of links gives its values in key order.
            let values = txn.schema[oc]?[prop]?.collection == .map ? try txn.map(oc, ok, prop).map(\.value) : try txn.list(oc, ok, prop)
            return values.compactMap { if case .object(let l) = $0 { return l.key }; return nil }
        }
    }
}
