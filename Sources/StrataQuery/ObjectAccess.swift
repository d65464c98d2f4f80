/// How the reference evaluator reads objects. Any object store can implement this to run bound
/// queries over its objects; `Object` is whatever handle the store uses (a row key, a class
/// instance, a dictionary...). Property names are those of the `QuerySchema` the query was
/// bound against, and the evaluator only asks for a property in the way its type allows
/// (e.g. `objects(of:property:)` only for lists and sets of links).
package protocol QueryObjectAccess {
    associatedtype Object

    /// The value of a scalar or mixed property (`.null` when unset).
    func value(of object: Object, property: String) -> QueryValue
    /// The target of a to-one link, or nil.
    func link(of object: Object, property: String) -> Object?
    /// The elements of a list or set of links, in collection order.
    func objects(of object: Object, property: String) -> [Object]
    /// The elements of a list or set of scalars, in collection order.
    func values(of object: Object, property: String) -> [QueryValue]
    /// The entries of a map of scalars.
    func map(of object: Object, property: String) -> [(key: String, value: QueryValue)]
    /// The entries of a map of links (a value may be a null link).
    func objectMap(of object: Object, property: String) -> [(key: String, value: Object?)]
    /// The objects of `originClass` whose `property` (a link, list, set or map of links) refers
    /// to `object`. Each origin object appears once per reference, as Realm counts backlinks.
    func backlinks(of object: Object, originClass: String, property: String) -> [Object]
    /// The number of references to `object` from all classes and properties (`@links.@count`).
    func backlinkCount(of object: Object) -> Int
    /// A reference identifying the object, compared with object arguments (`owner == $0`).
    func reference(of object: Object) -> QueryObjectRef
}
