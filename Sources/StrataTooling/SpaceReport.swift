/// Where the bytes of the file go.
public struct SpaceReport: Hashable, Sendable {
    public var totalBytes: Int64
    public var usedBytes: Int64
    public var freeBytes: Int64
    /// Free but still needed by pinned versions (part of ``freeBytes``).
    public var lockedBytes: Int64
    /// Live bytes per class, with its columns and indexes.
    public var classes: [ClassSpace]
    /// Free space grouped by the size of the free extents.
    public var freeBySize: [FreeSpaceBucket]
    /// Free space grouped by the version whose commit freed it (oldest first).
    public var freeByVersion: [FreedAtVersion]
    /// Expected file size after a full compaction.
    public var compactedBytes: Int64

    public init(totalBytes: Int64, usedBytes: Int64, freeBytes: Int64, lockedBytes: Int64,
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
public struct ClassSpace: Hashable, Sendable {
    public var name: String
    public var columns: [NamedBytes]
    public var indexes: [NamedBytes]

    public init(name: String, columns: [NamedBytes], indexes: [NamedBytes]) {
        self.name = name
        self.columns = columns
        self.indexes = indexes
    }

    /// Columns plus indexes.
    public var totalBytes: Int64 { columns.reduce(0) { $0 + $1.bytes } + indexes.reduce(0) { $0 + $1.bytes } }
}

/// A named byte count (a column or an index).
public struct NamedBytes: Hashable, Sendable {
    public var name: String
    public var bytes: Int64

    public init(name: String, bytes: Int64) {
        self.name = name
        self.bytes = bytes
    }
}

/// Free extents whose size falls in `minBytes..<maxBytes` (`maxBytes` nil: unbounded).
public struct FreeSpaceBucket: Hashable, Sendable {
    public var minBytes: Int64
    public var maxBytes: Int64?
    public var extents: Int
    public var bytes: Int64

    public init(minBytes: Int64, maxBytes: Int64?, extents: Int, bytes: Int64) {
        self.minBytes = minBytes
        self.maxBytes = maxBytes
        self.extents = extents
        self.bytes = bytes
    }
}

/// Free bytes released by the commit of `version`.
public struct FreedAtVersion: Hashable, Sendable {
    public var version: UInt64
    public var bytes: Int64
    /// Still needed by a pinned reader.
    public var isLocked: Bool

    public init(version: UInt64, bytes: Int64, isLocked: Bool) {
        self.version = version
        self.bytes = bytes
        self.isLocked = isLocked
    }
}
