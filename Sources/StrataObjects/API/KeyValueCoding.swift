import Foundation

// RealmSwift's key-value coding: `value(forKey:)`, `value(forKeyPath:)`, `setValue(_:forKey:)`
// on objects (by property name) and on collections of objects (one value per element).
// Unknown names stop the program with a message naming the class and the property.

/// What key-value coding returns for a property value, as RealmSwift's does: the raw value of a
/// `PersistableEnum`, the persisted value of a custom persistable, the value inside an
/// `AnyRealmValue` (nil for `.none`); other values as they are.
func kvcRepresentation(_ v: Any?) -> Any? {
    switch v {
    case let a as AnyRealmValue:
        switch a {
        case .none: return nil
        case .int(let x): return x
        case .bool(let x): return x
        case .float(let x): return x
        case .double(let x): return x
        case .string(let x): return x
        case .data(let x): return x
        case .date(let x): return x
        case .object(let x): return x
        case .objectId(let x): return x
        case .decimal128(let x): return x
        case .uuid(let x): return x
        }
    case let e as any PersistableEnum: return e.rawValue
    case let c as any CustomPersistable: return c.persistableValue
    case let c as any FailableCustomPersistable: return c.persistableValue
    default: return v
    }
}

extension ObjectBase {
    /// The value of the property `key` (nil for a nil optional), as RealmSwift's key-value
    /// coding gives it: an enum's raw value, a custom persistable's persisted value, an
    /// `AnyRealmValue`'s value.
    public func value(forKey key: String) -> Any? { self[key] }

    /// The value at a dotted key path (`"owner.name"`): each step reads a property of the
    /// object the previous step returned; nil as soon as a link is nil. A step through a list
    /// or set gives the array of its elements' values.
    public func value(forKeyPath keyPath: String) -> Any? {
        var current: Any? = self
        for step in keyPath.split(separator: ".").map(String.init) {
            switch current {
            case nil: return nil
            case let o as ObjectBase: current = o[step]
            case let c as _AnyElements: current = c._anyElements.map { ($0 as? ObjectBase)?[step] as Any }
            default: strataProgrammerError("key path '\(keyPath)': '\(step)' follows a value that is not an object")
            }
        }
        return current
    }

    /// Sets the property `key` (inside a write transaction when the object is managed).
    public func setValue(_ value: Any?, forKey key: String) { self[key] = value }

    /// Sets several properties from a dictionary.
    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (k, v) in keyedValues { self[k] = v }
    }
}

extension RealmCollection where Element: ObjectBase {
    /// The value of the property `key` of every element, in order (an `[Any]`).
    public func value(forKey key: String) -> Any? { map { $0[key] as Any } }
    /// The value at `keyPath` of every element, in order (an `[Any]`).
    public func value(forKeyPath keyPath: String) -> Any? { map { $0.value(forKeyPath: keyPath) as Any } }
    /// Sets the property `key` of every element (inside a write transaction when managed).
    public func setValue(_ value: Any?, forKey key: String) { for e in Array(self) { e[key] = value } }
}
