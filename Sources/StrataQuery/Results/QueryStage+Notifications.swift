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

    /// True when a filter or sort step reads a mixed value (or a collection of them): a mixed
    /// link reads as null while its target is gone, so the output can change with other
    /// objects' inserts and deletes (see `LocalResultsUpdate.applies`).
    package var readsMixedValues: Bool {
        query.predicate.readsMixed || query.ordering.contains { clause in
            switch clause {
            case .sort(let keys): return keys.contains { $0.path.readsMixed }
            case .distinct(let paths): return paths.contains(where: \.readsMixed)
            case .limit: return false
            }
        }
    }
}

extension BoundPredicate {
    /// Some path reads a mixed value.
    var readsMixed: Bool {
        switch self {
        case .constant: return false
        case .and(let ps), .or(let ps): return ps.contains(where: \.readsMixed)
        case .not(let p): return p.readsMixed
        case .comparison(let c): return c.left.readsMixed || c.right.readsMixed
        }
    }
}

extension BoundOperand {
    var readsMixed: Bool {
        switch self {
        case .value, .values: return false
        case .path(let p): return p.readsMixed
        case .subqueryCount(let s): return s.collection.readsMixed || s.predicate.readsMixed
        }
    }
}

extension BoundKeyPath {
    var readsMixed: Bool { steps.contains(where: \.readsMixed) }
}

extension BoundPathStep {
    var readsMixed: Bool {
        switch self {
        case .value(_, let t), .mapValue(_, _, let t), .mapValues(_, let t): return t == .any
        case .values(_, let t): return t == .any
        case .typeOf(let declared): return declared == nil
        case .aggregate(let a): return a.collection.readsMixed || a.elementPath.contains(where: \.readsMixed)
        case .link, .links, .backlinks, .allBacklinks, .linkMapValue, .linkMapValues, .mapKeys, .size: return false
        }
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
