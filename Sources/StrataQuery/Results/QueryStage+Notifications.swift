// Lets collection notifications update filtered and sorted `Results` from the changed objects
// alone (`LocalResultsStage`, see Notifications.swift in StrataObjects).
import StrataObjects

extension QueryStage: LocalResultsStage {
    /// True when the query keeps or drops each object by its own values and orders by them
    /// (no link, backlink or link-collection step anywhere, no DISTINCT, no LIMIT).
    package var dependsOnlyOnEachObject: Bool {
        query.ordering.allSatisfy { clause in
            if case .sort(let keys) = clause { return keys.allSatisfy { $0.path.isLocal } }
            return false
        } && query.predicate.isLocal
    }
}

extension BoundPredicate {
    /// No step of any path leaves the queried object.
    var isLocal: Bool {
        switch self {
        case .constant: return true
        case .and(let ps), .or(let ps): return ps.allSatisfy(\.isLocal)
        case .not(let p): return p.isLocal
        case .comparison(let c): return c.left.isLocal && c.right.isLocal
        }
    }
}

extension BoundOperand {
    var isLocal: Bool {
        switch self {
        case .value, .values: return true
        case .path(let p): return p.isLocal
        case .subqueryCount(let s): return s.collection.isLocal && s.predicate.isLocal
        }
    }
}

extension BoundKeyPath {
    var isLocal: Bool { steps.allSatisfy(\.isLocal) }
}

extension BoundPathStep {
    var isLocal: Bool {
        switch self {
        case .value, .values, .mapValue, .mapValues, .mapKeys, .size, .typeOf: return true
        case .link, .links, .backlinks, .allBacklinks, .linkMapValue, .linkMapValues: return false
        case .aggregate(let a): return a.collection.isLocal && a.elementPath.isEmpty
        }
    }
}
