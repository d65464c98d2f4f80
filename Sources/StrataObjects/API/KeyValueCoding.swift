import Foundation

// RealmSwift's key-value coding: `value(forKey:)`, `value(forKeyPath:)`, `setValue(_:forKey:)`
// on objects (by property name) and on collections of objects (one value per element).
// Unknown names stop the program with a message naming the class and the property.

extension ObjectBase {
    /// The value of the property `key` (nil for a nil optional).
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
