import Foundation
import StrataObjects

// Bridges between the object engine's vocabulary (`Schema`, `Value`) and the query layer's
// (`QuerySchema`, `QueryValue`).
//
// Dates: the engine stores a date as Int64 nanoseconds since 1970 (rounded from the Double
// seconds of a Foundation `Date`). Every conversion here goes through the same nanosecond
// value, so a `Date` argument equals the stored value of the same `Date`.

extension QuerySchema {
    /// The query view of an engine schema: every class and property, with links, collections
    /// and linking objects typed for the binder. A class declared in this process with
    /// `propertiesMapping()` also answers to its Swift property names, as RealmSwift's queries do.
    package init(_ schema: Schema) {
        self.init(schema.objectSchemas.map { os in
            var c = QueryClass(os.className, os.allProperties.map(QueryProperty.init))
            if let mapping = os.objectClass?.propertiesMapping() { c.aliases = mapping }
            return c
        })
    }
}

extension QueryProperty {
    /// The query view of an engine property.
    package init(_ p: PropertySchema) {
        let element: QueryPropertyType
        switch p.type {
        case .bool: element = .bool
        case .int: element = .int
        case .float: element = .float
        case .double: element = .double
        case .string: element = .string
        case .data: element = .data
        case .date: element = .date
        case .objectId: element = .objectId
        case .uuid: element = .uuid
        case .decimal128: element = .decimal
        case .mixed: element = .any
        case .object: element = .link(p.objectClassName ?? "")
        case .linkingObjects:
            self.init(p.name, .linkingObjects(originClass: p.objectClassName ?? "", property: p.linkOriginPropertyName ?? ""))
            return
        }
        let type: QueryPropertyType
        switch p.collection {
        case .single: type = element
        case .list: type = .list(element)
        case .set: type = .set(element)
        case .map: type = .map(element)
        }
        self.init(p.name, type, optional: p.isOptional || p.type == .object)
    }
}

/// Nanoseconds since 1970 for a Foundation date, exactly as the engine stores it.
@inline(__always) func storedNanoseconds(_ d: Date) -> Int64 { Value.storedNanoseconds(d) }

extension QueryTimestamp {
    /// The timestamp of a stored date (nanoseconds since 1970).
    @inline(__always) package init(nanosecondsSince1970 ns: Int64) {
        let (q, r) = ns.quotientAndRemainder(dividingBy: 1_000_000_000)
        self.init(seconds: q, nanoseconds: r)
    }

    /// The timestamp the engine stores for a Foundation date (nanosecond-rounded).
    package init(storing date: Date) {
        self.init(nanosecondsSince1970: storedNanoseconds(date))
    }

    /// Nanoseconds since 1970, or nil when outside the Int64 range the engine stores.
    package var nanosecondsSince1970: Int64? {
        let (a, o1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if o1 { return nil }
        let (b, o2) = a.addingReportingOverflow(Int64(nanoseconds))
        return o2 ? nil : b
    }
}

extension QueryValue {
    /// The query value of an engine value (links become object references).
    package init(_ v: Value) {
        switch v {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .float(let f): self = .float(f)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .data(let d): self = .data(d)
        case .date(let t): self = .date(QueryTimestamp(nanosecondsSince1970: t.nanosecondsSince1970))
        case .objectId(let o): self = QueryObjectId(bytes: o.bytes).map { .objectId($0) } ?? .null
        case .uuid(let u): self = .uuid(u)
        case .decimal(let d): self = .decimal(d)
        case .object(let l): self = .object(QueryObjectRef(className: l.className, key: l.key))
        }
    }

    /// The engine value for this query value (nil for lists, which have no engine form).
    package var engineValue: Value? {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .float(let f): return .float(f)
        case .string(let s): return .string(s)
        case .data(let d): return .data(d)
        case .date(let t): return t.nanosecondsSince1970.map { .date(Timestamp(nanosecondsSince1970: $0)) } ?? .date(t.date)
        case .objectId(let o): return ObjectId(bytes: o.bytes).map { .objectId($0) }
        case .uuid(let u): return .uuid(u)
        case .decimal(let d): return .decimal(d)
        case .object(let r): return .object(ObjectLink(className: r.className, key: r.key))
        case .list: return nil
        }
    }
}

/// A Swift value that can be passed as a query argument (`$0`, `$1`, …). The engine's value
/// types conform; the typed API makes `Object` conform (as a reference to the object).
package protocol QueryArgumentConvertible {
    var queryArgument: QueryValue { get }
}

extension QueryValue: QueryArgumentConvertible { package var queryArgument: QueryValue { self } }
extension Value: QueryArgumentConvertible { package var queryArgument: QueryValue { QueryValue(self) } }
extension ObjectLink: QueryArgumentConvertible {
    package var queryArgument: QueryValue { .object(QueryObjectRef(className: className, key: key)) }
}
extension ObjectId: QueryArgumentConvertible {
    package var queryArgument: QueryValue { QueryObjectId(bytes: bytes).map { .objectId($0) } ?? .null }
}
extension Decimal128: QueryArgumentConvertible { package var queryArgument: QueryValue { .decimal(self) } }

package enum QueryArguments {
    /// Converts Swift values to query arguments: integers of every width, Double, Float,
    /// String, Bool, Date, Data, [UInt8], UUID, Decimal, `ObjectId`, `Decimal128`, `Value`,
    /// `ObjectLink`, `QueryValue`, anything `QueryArgumentConvertible`, nil (an empty
    /// optional), and arrays or sets of these (for `IN $0`). Anything else is a
    /// `QueryError` of kind `.argument` naming the argument.
    package static func convert(_ args: [Any]) throws(QueryError) -> [QueryValue] {
        var out: [QueryValue] = []
        out.reserveCapacity(args.count)
        for (i, a) in args.enumerated() { out.append(try convert(a, index: i)) }
        return out
    }

    package static func convert(_ a: Any, index: Int = 0) throws(QueryError) -> QueryValue {
        if let v = a as? QueryArgumentConvertible { return v.queryArgument }
        switch a {
        case let v as Int: return .int(Int64(v))
        case let v as Int64: return .int(v)
        case let v as Int32: return .int(Int64(v))
        case let v as Int16: return .int(Int64(v))
        case let v as Int8: return .int(Int64(v))
        case let v as UInt8: return .int(Int64(v))
        case let v as UInt16: return .int(Int64(v))
        case let v as UInt32: return .int(Int64(v))
        case let v as UInt:
            guard let i = Int64(exactly: v) else { break }
            return .int(i)
        case let v as UInt64:
            guard let i = Int64(exactly: v) else { break }
            return .int(i)
        case let v as Double: return .double(v)
        case let v as Float: return .float(v)
        case let v as String: return .string(v)
        case let v as Substring: return .string(String(v))
        case let v as Bool: return .bool(v)
        case let v as Date: return .date(QueryTimestamp(storing: v))
        case let v as Data: return .data(Array(v))
        case let v as [UInt8]: return .data(v)
        case let v as UUID: return .uuid(v)
        case let v as Decimal: return .decimal(Decimal128(v))
        default: break
        }
        let mirror = Mirror(reflecting: a)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return .null }
            return try convert(wrapped, index: index)
        }
        if mirror.displayStyle == .collection || mirror.displayStyle == .set {
            var items: [QueryValue] = []
            for child in mirror.children { items.append(try convert(child.value, index: index)) }
            return .list(items)
        }
        throw QueryError(kind: .argument,
                         message: "Argument $\(index) of type \(type(of: a)) cannot be used in a query (use a number, string, Bool, Date, Data, UUID, ObjectId, Decimal128, an object or an array of these)")
    }
}
