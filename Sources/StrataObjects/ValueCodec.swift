import Foundation
import StrataStorage

/// Conversions between `Value` and the column layouts, per property type.
/// Dates are stored as Int64 nanoseconds since 1970 (``Timestamp``); decimals as their canonical string;
/// `mixed` as a tagged byte string (tag, payload).
enum ValueCodec {
    static func uuidBytes(_ u: UUID) -> [UInt8] { withUnsafeBytes(of: u.uuid) { Array($0) } }
    static func uuid(_ b: UnsafeRawBufferPointer) -> UUID {
        var t: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &t) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: b.prefix(16))) }
        return UUID(uuid: t)
    }

    // MARK: mixed

    static func encodeMixed(_ v: Value) -> [UInt8] {
        var w = ByteWriter()
        switch v {
        case .null: w.u8(0)
        case .bool(let b): w.u8(1); w.u8(b ? 1 : 0)
        case .int(let i): w.u8(2); w.i64(i)
        case .float(let f): w.u8(3); w.u32(f.bitPattern)
        case .double(let d): w.u8(4); w.u64(d.bitPattern)
        case .string(let s): w.u8(5); w.append(Array(s.utf8))
        case .data(let d): w.u8(6); w.append(d)
        case .date(let t): w.u8(7); w.i64(t.nanosecondsSince1970)
        case .objectId(let o): w.u8(8); w.append(o.bytes)
        case .uuid(let u): w.u8(9); w.append(uuidBytes(u))
        case .decimal(let d): w.u8(10); w.append(Array(d.description.utf8))
        case .object(let l): w.u8(11); w.i64(l.key); w.append(Array(l.className.utf8))
        }
        return w.bytes
    }

    static func decodeMixed(_ b: UnsafeRawBufferPointer) -> Value {
        guard let tag = b.first else { return .null }
        let rest = UnsafeRawBufferPointer(rebasing: b[1...])
        func i64() -> Int64 { rest.count >= 8 ? Int64(bitPattern: rest.baseAddress!.getLE64(0)) : 0 }
        switch tag {
        case 1: return .bool(rest.first == 1)
        case 2: return .int(i64())
        case 3: return .float(rest.count >= 4 ? Float(bitPattern: rest.baseAddress!.getLE32(0)) : 0)
        case 4: return .double(Double(bitPattern: UInt64(bitPattern: i64())))
        case 5: return .string(String(decoding: rest, as: UTF8.self))
        case 6: return .data(Array(rest))
        case 7: return .date(Timestamp(nanosecondsSince1970: i64()))
        case 8: return rest.count == 12 ? .objectId(ObjectId(uncheckedBytes: Array(rest))) : .null
        case 9: return rest.count == 16 ? .uuid(uuid(rest)) : .null
        case 10: return (try? Decimal128(string: String(decoding: rest, as: UTF8.self))).map { .decimal($0) } ?? .null
        case 11: return rest.count >= 8 ? .object(ObjectLink(className: String(decoding: rest[8...], as: UTF8.self), key: i64())) : .null
        default: return .null
        }
    }

    // MARK: reading

    /// The value of row `i` of a stored column holding `type` values.
    static func read(_ v: ColumnView, _ i: Int, type: PropertyType, target: String?) -> Value {
        if v.isNull(i) { return .null }
        switch type {
        case .bool: return .bool(v.int(i) != 0)
        case .int: return .int(v.int(i))
        case .date: return .date(Timestamp(nanosecondsSince1970: v.int(i)))
        case .object: return .object(ObjectLink(className: target ?? "", key: v.int(i)))
        case .float: return .float(v.float(i))
        case .double: return .double(v.double(i))
        case .string: return .string(String(decoding: v.bytes(i), as: UTF8.self))
        case .data: return .data(Array(v.bytes(i)))
        case .decimal128: return (try? Decimal128(string: String(decoding: v.bytes(i), as: UTF8.self))).map { .decimal($0) } ?? .null
        case .mixed: return decodeMixed(v.bytes(i))
        case .objectId: return .objectId(ObjectId(uncheckedBytes: Array(v.fixed(i))))
        case .uuid: return .uuid(uuid(v.fixed(i)))
        case .linkingObjects: return .null
        }
    }

    /// The value of row `i` of a column being modified.
    static func read(_ c: MutableColumn, _ i: Int, type: PropertyType, target: String?) -> Value {
        if c.nulls?[i] == true { return .null }
        switch c.layout {
        case .int:
            let x = c.ints[i]
            switch type {
            case .bool: return .bool(x != 0)
            case .date: return .date(Timestamp(nanosecondsSince1970: x))
            case .object: return .object(ObjectLink(className: target ?? "", key: x))
            default: return .int(x)
            }
        case .float: return .float(c.floats[i])
        case .double: return .double(c.doubles[i])
        case .bytes:
            return c.withBytes(i) { b in
                switch type {
                case .string: return .string(String(decoding: b, as: UTF8.self))
                case .decimal128: return (try? Decimal128(string: String(decoding: b, as: UTF8.self))).map { .decimal($0) } ?? .null
                case .mixed: return decodeMixed(b)
                default: return .data(Array(b))
                }
            }
        case .fixed:
            return c.withBytes(i) { e in type == .uuid ? .uuid(uuid(e)) : .objectId(ObjectId(uncheckedBytes: Array(e))) }
        case .refs: return .null
        }
    }

    // MARK: writing

    /// Converts `v` to what a property of type `type` stores, or throws a clear error.
    static func coerce(_ v: Value, to type: PropertyType, optional: Bool, target: String?, where what: @autoclosure () -> String) throws -> Value {
        if case .null = v {
            guard optional || type == .mixed else { throw ObjectError.nullNotAllowed(what()) }
            return .null
        }
        switch (type, v) {
        case (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.string, .string), (.data, .data),
             (.date, .date), (.objectId, .objectId), (.uuid, .uuid), (.decimal128, .decimal): break
        case (.float, .int(let i)): return .float(Float(i))
        case (.float, .double(let d)): return .float(Float(d))
        case (.double, .int(let i)): return .double(Double(i))
        case (.double, .float(let f)): return .double(Double(f))
        case (.decimal128, .int(let i)): return .decimal(Decimal128(number: Int(i)))
        case (.decimal128, .double(let d)): return .decimal(Decimal128(floatLiteral: d))
        case (.mixed, _): break
        case (.object, .object(let l)):
            guard l.className == target else { throw ObjectError.wrongType(what(), expected: target ?? "object", got: l.className) }
        default:
            throw ObjectError.wrongType(what(), expected: type.description, got: v.naturalType?.description ?? "null")
        }
        if case .string(let s) = v, s.utf8.count > ObjectLimits.maxValueBytes { throw ObjectError.valueTooLarge(what(), s.utf8.count) }
        if case .data(let d) = v, d.count > ObjectLimits.maxValueBytes { throw ObjectError.valueTooLarge(what(), d.count) }
        return v
    }

    /// Appends a (coerced) value to a column.
    @inline(__always)
    static func append(_ v: Value, to c: MutableColumn, type: PropertyType) {
        switch c.layout {
        case .int: c.appendRow(int: intValue(v), isNull: v.isNull)
        case .float: c.appendRow(float: floatValue(v), isNull: v.isNull)
        case .double: c.appendRow(double: doubleValue(v), isNull: v.isNull)
        case .bytes:
            // Strings go in without an intermediate byte array (the common bulk case).
            if type == .string, case .string(let s) = v { c.appendStringRow(s); return }
            c.appendRow(bytes: bytesValue(v, type: type), isNull: v.isNull)
        case .fixed: c.appendRow(bytes: fixedValue(v, width: c.width), isNull: v.isNull)
        case .refs: c.appendRow(isNull: false)
        }
    }

    static func insert(_ v: Value, at i: Int, into c: MutableColumn, type: PropertyType) {
        switch c.layout {
        case .int: c.insertRow(at: i, int: intValue(v), isNull: v.isNull)
        case .float: c.insertRow(at: i, float: floatValue(v), isNull: v.isNull)
        case .double: c.insertRow(at: i, double: doubleValue(v), isNull: v.isNull)
        case .bytes: c.insertRow(at: i, bytes: bytesValue(v, type: type), isNull: v.isNull)
        case .fixed: c.insertRow(at: i, bytes: fixedValue(v, width: c.width), isNull: v.isNull)
        case .refs: c.insertRow(at: i, isNull: false)
        }
    }

    static func set(_ v: Value, at i: Int, in c: MutableColumn, type: PropertyType) {
        switch c.layout {
        case .int: c.setRow(i, int: intValue(v), isNull: v.isNull)
        case .float: c.setRow(i, float: floatValue(v), isNull: v.isNull)
        case .double: c.setRow(i, double: doubleValue(v), isNull: v.isNull)
        case .bytes: c.setRow(i, bytes: bytesValue(v, type: type), isNull: v.isNull)
        case .fixed: c.setRow(i, bytes: fixedValue(v, width: c.width), isNull: v.isNull)
        case .refs: break
        }
    }

    static func floatValue(_ v: Value) -> Float { if case .float(let f) = v { return f }; return 0 }
    static func doubleValue(_ v: Value) -> Double { if case .double(let d) = v { return d }; return 0 }

    static func intValue(_ v: Value) -> Int64 {
        switch v {
        case .int(let i): return i
        case .bool(let b): return b ? 1 : 0
        case .date(let t): return t.nanosecondsSince1970
        case .object(let l): return l.key
        default: return 0
        }
    }

    static func bytesValue(_ v: Value, type: PropertyType) -> [UInt8] {
        if type == .mixed { return encodeMixed(v) }
        switch v {
        case .string(let s): return Array(s.utf8)
        case .data(let d): return d
        case .decimal(let d): return Array(d.description.utf8)
        default: return []
        }
    }

    static func fixedValue(_ v: Value, width: Int) -> [UInt8] {
        switch v {
        case .objectId(let o): return o.bytes
        case .uuid(let u): return uuidBytes(u)
        default: return [UInt8](repeating: 0, count: width)
        }
    }
}

/// Limits of the object layer.
public enum ObjectLimits {
    /// The largest String or Data value: 16 MB.
    public static let maxValueBytes = 16 << 20
    /// Objects per cluster.
    static let clusterCapacity = 1024
}

/// Errors of the object layer. Messages name the class/property and say what to do.
public enum ObjectError: Error, Equatable, CustomStringConvertible, Sendable {
    /// nil given for a property that is not optional.
    case nullNotAllowed(String)
    /// A value of another type than the property stores.
    case wrongType(String, expected: String, got: String)
    /// A String or Data value over the 16 MB limit.
    case valueTooLarge(String, Int)
    /// An integer outside the range of the property's sized integer type (300 for an `Int8`).
    case integerOutOfRange(String, value: Int64, type: String, min: Int64, max: Int64)
    /// An object with this primary key already exists (and the update policy is `.error`).
    case duplicatePrimaryKey(className: String, value: String)
    /// An object of a class with a primary key was created without one.
    case missingPrimaryKey(className: String)
    /// A primary key was changed after the object was created.
    case primaryKeyChange(className: String)
    /// No object with that key (it was deleted, or never existed).
    case noSuchObject(className: String, key: ObjKey)
    /// A change outside a write transaction.
    case notInWriteTransaction
    /// An embedded object created on its own instead of through its parent's property.
    case embeddedObjectCreation(String)
    /// A collection operation on a property that is not a collection.
    case notACollection(String)
    /// A collection index past the end.
    case indexOutOfRange(String, index: Int, count: Int)
    /// A property name the class does not have.
    case unknownProperty(className: String, property: String)

    public var description: String {
        switch self {
        case .nullNotAllowed(let w): return "\(w) is not optional: nil is not allowed"
        case .wrongType(let w, let e, let g): return "\(w) holds \(e) values, not \(g)"
        case .valueTooLarge(let w, let n): return "\(w): a value of \(n) bytes is larger than the 16 MB limit for String and Data"
        case .integerOutOfRange(let w, let v, let t, let lo, let hi):
            return "\(w) holds \(t) values (\(lo)...\(hi)), not \(v): give a value in that range, or declare the property with a wider type (Int)"
        case .duplicatePrimaryKey(let c, let v): return "an object of class '\(c)' with primary key \(v) already exists; use update: .modified or .all to update it"
        case .missingPrimaryKey(let c): return "class '\(c)' has a primary key: give a value for it"
        case .primaryKeyChange(let c): return "the primary key of an existing '\(c)' object cannot be changed; delete it and create a new one"
        case .noSuchObject(let c, let k): return "no object of class '\(c)' with key \(k) (it may have been deleted)"
        case .notInWriteTransaction: return "cannot modify managed objects outside of a write transaction: use realm.write { }"
        case .embeddedObjectCreation(let c): return "embedded objects of class '\(c)' cannot be created on their own: assign them to a property of their parent"
        case .notACollection(let w): return "\(w) is not a collection"
        case .indexOutOfRange(let w, let i, let n): return "\(w): index \(i) is out of range (count \(n))"
        case .unknownProperty(let c, let p): return "class '\(c)' has no property named '\(p)'"
        }
    }
}
