import Foundation
import StrataObjects
import StrataQuery

/// Reads objects of a ``DBTransaction`` for the reference query evaluator. Unreadable values
/// read as null (the evaluator has no error channel); the transaction is a consistent snapshot,
/// so that happens only for damaged files.
struct DatabaseQueryAccess: QueryObjectAccess {
    typealias Object = StrataObjects.ObjectLink
    let txn: DBTransaction

    func value(of object: Object, property: String) -> QueryValue {
        guard let v = try? txn.value(object.className, object.key, property) else { return .null }
        return ValueConversion.queryValue(v)
    }

    func link(of object: Object, property: String) -> Object? {
        if case .object(let l)? = try? txn.value(object.className, object.key, property) { return l }
        return nil
    }

    func objects(of object: Object, property: String) -> [Object] {
        ((try? txn.list(object.className, object.key, property)) ?? []).compactMap {
            if case .object(let l) = $0 { return l }
            return nil
        }
    }

    func values(of object: Object, property: String) -> [QueryValue] {
        ((try? txn.list(object.className, object.key, property)) ?? []).map(ValueConversion.queryValue)
    }

    func map(of object: Object, property: String) -> [(key: String, value: QueryValue)] {
        ((try? txn.map(object.className, object.key, property)) ?? []).map { ($0.key, ValueConversion.queryValue($0.value)) }
    }

    func objectMap(of object: Object, property: String) -> [(key: String, value: Object?)] {
        ((try? txn.map(object.className, object.key, property)) ?? []).map { entry in
            if case .object(let l) = entry.value { return (entry.key, l) }
            return (entry.key, nil)
        }
    }

    func backlinks(of object: Object, originClass: String, property: String) -> [Object] {
        ((try? txn.backlinks(object.className, object.key, originClass: originClass, originProperty: property)) ?? [])
            .map { Object(className: originClass, key: $0) }
    }

    func backlinkCount(of object: Object) -> Int {
        txn.incomingLinks(object.className).reduce(0) { total, origin in
            total + ((try? txn.backlinks(object.className, object.key, originClass: origin.className, originProperty: origin.property).count) ?? 0)
        }
    }

    func reference(of object: Object) -> QueryObjectRef {
        QueryObjectRef(className: object.className, key: object.key)
    }
}
