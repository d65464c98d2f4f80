/// Identifies an object: its class and its stable object key (not its row position).
package struct ObjectRef: Hashable, Sendable {
    package var className: String
    package var key: Int64

    package init(className: String, key: Int64) {
        self.className = className
        self.key = key
    }
}

/// One row of a table: the object (absent for primitive collection items) and its values.
package struct ObjectRow: Hashable, Sendable {
    package var ref: ObjectRef?
    package var values: [DisplayValue]

    package init(ref: ObjectRef?, values: [DisplayValue]) {
        self.ref = ref
        self.values = values
    }
}

/// One object with every property, for the detail view.
package struct ObjectDetail: Hashable, Sendable {
    package var ref: ObjectRef
    /// Short label (primary key or description) used in breadcrumbs.
    package var label: String
    package var properties: [PropertyDescription]
    /// One per property, same order.
    package var values: [DisplayValue]

    package init(ref: ObjectRef, label: String, properties: [PropertyDescription], values: [DisplayValue]) {
        self.ref = ref
        self.label = label
        self.properties = properties
        self.values = values
    }
}

/// An object that links to another one, and through which property.
package struct Backlink: Hashable, Sendable {
    package var source: LabeledObjectRef
    package var property: String

    package init(source: LabeledObjectRef, property: String) {
        self.source = source
        self.property = property
    }
}
