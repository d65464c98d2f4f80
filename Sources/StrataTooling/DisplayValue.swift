import Foundation

/// A value as the browser renders it in a cell: the data source converts stored values into
/// these; the browser formats them by kind (dates, ObjectIds, links, collections, null).
package enum DisplayValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// Decimal128, already formatted.
    case decimal(String)
    case string(String)
    /// Binary data: its size and first bytes.
    case data(count: Int, prefix: [UInt8])
    /// A date as stored: whole seconds since 1970 and nanoseconds (0 ..< 1,000,000,000), exact
    /// (a Realm timestamp may lie outside the range of a Strata date).
    case date(seconds: Int64, nanoseconds: Int64)
    /// 24 hex digits.
    case objectId(String)
    case uuid(UUID)
    /// A to-one link (`nil` target is ``null``).
    case link(LabeledObjectRef)
    /// An embedded object.
    case embedded(LabeledObjectRef)
    /// A List/Set/Map/backlinks: number of items and the element type name (`[3 Dog]`).
    case collection(count: Int, elementType: String)
}

/// A reference to an object plus a short human label (its primary key or a description).
package struct LabeledObjectRef: Hashable, Sendable {
    package var ref: ObjectRef
    package var label: String

    package init(ref: ObjectRef, label: String) {
        self.ref = ref
        self.label = label
    }
}
