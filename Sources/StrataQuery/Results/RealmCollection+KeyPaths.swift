import Foundation
import StrataObjects

// Typed key-path forms of RealmSwift's aggregates and `distinct`: `dogs.sum(of: \.age)`,
// `dogs.max(of: \.birthday)`, `dogs.distinct(by: [\.name])`. Each names the property through the
// class's key-path recorder and runs the string form, so there is one implementation of each.

extension RealmCollection where Element: ObjectBase {
    /// The smallest value of the property at `keyPath` (nil when there are no non-null values).
    public func min<T: _StrataValue & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        min(ofProperty: Element._propertyName(for: keyPath))
    }
    /// The largest value of the property at `keyPath` (nil when there are no non-null values).
    public func max<T: _StrataValue & Comparable>(of keyPath: KeyPath<Element, T>) -> T? {
        max(ofProperty: Element._propertyName(for: keyPath))
    }
    /// The sum of the numeric property at `keyPath` (0 when empty).
    public func sum<T: _StrataValue & AdditiveArithmetic>(of keyPath: KeyPath<Element, T>) -> T {
        sum(ofProperty: Element._propertyName(for: keyPath))
    }
    /// The average of the floating-point property at `keyPath` (nil when empty).
    public func average<T: _StrataValue & BinaryFloatingPoint>(of keyPath: KeyPath<Element, T>) -> T? {
        average(ofProperty: Element._propertyName(for: keyPath))
    }
    /// The average of the integer property at `keyPath`, rounded toward zero to `T` as RealmSwift's
    /// `average(of:)` returns the property's own type (nil when empty).
    public func average<T: _StrataValue & BinaryInteger>(of keyPath: KeyPath<Element, T>) -> T? {
        let mean: Double? = average(ofProperty: Element._propertyName(for: keyPath))
        return mean.map { T($0.rounded(.towardZero)) }
    }
    /// The first object of each distinct combination of the values at `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        distinct(by: keyPaths.map { Element._propertyName(for: $0) })
    }
}
