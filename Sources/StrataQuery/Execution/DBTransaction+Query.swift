import Foundation
import StrataObjects

/// Realm Query Language on the dynamic API.
///
///     let r = try db.read()
///     let keys = try r.objects("Person", where: "age BETWEEN {20, 40} AND name BEGINSWITH $0 SORT(age DESC)", "B")
///     let n = try r.count("Person", where: "active == true")
///     let total = try r.aggregate(.sum, of: "age", in: "Person")
///
/// Errors are `QueryError`s (syntax with the position, unknown class or property, type
/// mismatch, bad argument).
extension DBTransaction {
    /// Keys of the objects of `className` matching `query` (with its SORT/DISTINCT/LIMIT).
    public func objects(_ className: String, where query: String, _ arguments: Any...) throws -> [ObjKey] {
        try objects(className, where: query, arguments: arguments)
    }

    /// Keys of the objects of `className` matching `query`, arguments given as an array.
    public func objects(_ className: String, where query: String, arguments: [Any]) throws -> [ObjKey] {
        let e = QueryExecutor(self)
        return try e.run(e.compile(query, className: className, arguments: arguments))
    }

    /// Number of objects of `className` matching `query`.
    public func count(_ className: String, where query: String, _ arguments: Any...) throws -> Int {
        try count(className, where: query, arguments: arguments)
    }

    /// Number of objects of `className` matching `query`, arguments given as an array.
    public func count(_ className: String, where query: String, arguments: [Any]) throws -> Int {
        let e = QueryExecutor(self)
        return try e.count(e.compile(query, className: className, arguments: arguments))
    }

    /// `min`/`max`/`sum`/`avg` of a property over the objects matching `query` (all objects
    /// when nil).
    public func aggregate(_ op: QueryAggregate, of property: String, in className: String,
                          where query: String? = nil, _ arguments: Any...) throws -> QueryValue {
        let e = QueryExecutor(self)
        let predicate = try query.map { try e.compile($0, className: className, arguments: arguments).predicate } ?? .constant(true)
        return try e.aggregate(op, property: property, className: className, where: predicate)
    }
}
