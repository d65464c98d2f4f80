/// Where the bytes of the file go.
package struct SpaceReport: Hashable, Sendable {
    package var totalBytes: Int64
    package var usedBytes: Int64
    package var freeBytes: Int64
    /// Free but still needed by pinned versions (part of ``freeBytes``).
    package var lockedBytes: Int64
    /// Live bytes per class, with its columns and indexes.
    package var classes: [ClassSpace]
    /// Free space grouped by the size of the free extents.
    package var freeBySize: [FreeSpaceBucket]
    /// Free space grouped by the version whose commit freed it (oldest first).
    package var freeByVersion: [FreedAtVersion]
    /// Expected file size after a full compaction.
    package var compactedBytes: Int64

    package init(totalBytes: Int64, usedBytes: Int64, freeBytes: Int64, lockedBytes: Int64,
                classes: [ClassSpace], freeBySize: [FreeSpaceBucket], freeByVersion: [FreedAtVersion],
                compactedBytes: Int64) {
        self.totalBytes = totalBytes
        self.usedBytes = usedBytes
        self.freeBytes = freeBytes
        self.lockedBytes = lockedBytes
        self.classes = classes
        self.freeBySize = freeBySize
        self.freeByVersion = freeByVersion
        self.compactedBytes = compactedBytes
    }
}

/// Bytes of one class.
package struct ClassSpace: Hashable, Sendable {
    package var name: String
    package var columns: [NamedBytes]
    package var indexes: [NamedBytes]

    package init(name: String, columns: [NamedBytes], indexes: [NamedBytes]) {
        self.name = name
        self.columns = columns
        self.indexes = indexes
    }

    /// Columns plus indexes.
    package var totalBytes: Int64 { columns.reduce(0) { $0 + $1.bytes } + indexes.reduce(0) { $0 + $1.bytes } }
}

/// A named byte count (a column or an index).
package struct NamedBytes: Hashable, Sendable {
    package var name: String
    package var bytes: Int64

    package init(name: String, bytes: Int64) {
        self.name = name
        self.bytes = bytes
    }
}

/// Free extents whose size falls in `minBytes..<maxBytes` (`maxBytes` nil: unbounded).
package struct FreeSpaceBucket: Hashable, Sendable {
    package var minBytes: Int64
    package var maxBytes: Int64?
    package var extents: Int
    package var bytes: Int64

    package init(minBytes: Int64, maxBytes: Int64?, extents: Int, bytes: Int64) {
        self.minBytes = minBytes
        self.maxBytes = maxBytes
        self.extents = extents
        self.bytes = bytes
    }
}

/// Free bytes released by the commit of `version`.
package struct FreedAtVersion: Hashable, Sendable {
    package var version: UInt64
    package var bytes: Int64
    /// Still needed by a pinned reader.
    package var isLocked: Bool

    package init(version: UInt64, bytes: Int64, isLocked: Bool) {
        self.version = version
        self.bytes = bytes
        self.isLocked = isLocked
    }
}
