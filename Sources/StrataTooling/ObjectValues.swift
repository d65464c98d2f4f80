/// Identifies an object: its class and its stable object key (not its row position).
public struct ObjectRef: Hashable, Sendable {
    public var className: String
    public var key: Int64

    public init(className: String, key: Int64) {
        self.className = className
        self.key = key
    }
}

/// One row of a table: the object (absent for primitive collection items) and its values.
public struct ObjectRow: Hashable, Sendable {
    public var ref: ObjectRef?
    public var values: [DisplayValue]

    public init(ref: ObjectRef?, values: [DisplayValue]) {
        self.ref = ref
        self.values = values
    }
}

/// One object with every property, for the detail view.
public struct ObjectDetail: Hashable, Sendable {
    public var ref: ObjectRef
    /// Short label (primary key or description) used in breadcrumbs.
    public var label: String
    public var properties: [PropertyDescription]
    /// One per property, same order.
    public var values: [DisplayValue]

    public init(ref: ObjectRef, label: String, properties: [PropertyDescription], values: [DisplayValue]) {
        self.ref = ref
        self.label = label
        self.properties = properties
        self.values = values
    }
}

/// An object that links to another one, and through which property.
public struct Backlink: Hashable, Sendable {
    public var source: LabeledObjectRef
    public var property: String

    public init(source: LabeledObjectRef, property: String) {
        self.source = source
        self.property = property
    }
}
