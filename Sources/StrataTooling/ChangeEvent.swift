/// Something that happened to the file since the last poll.
package struct ChangeEvent: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        /// A commit (by this or another process).
        case commit
        /// A compaction (by another process, or automatic).
        case compaction
        /// An error reading changes.
        case error
    }

    package var kind: Kind
    package var version: UInt64
    package var pid: Int32
    /// Whether another process did it.
    package var isExternal: Bool
    /// What changed (`Dog: 1 inserted, 2 modified`), or the error message.
    package var summary: String
    /// Objects inserted or modified (to mark their rows for a moment).
    package var changedObjects: [ObjectRef]
    /// Objects deleted.
    package var deletedObjects: [ObjectRef]

    package init(kind: Kind = .commit, version: UInt64, pid: Int32, isExternal: Bool, summary: String,
                changedObjects: [ObjectRef] = [], deletedObjects: [ObjectRef] = []) {
        self.kind = kind
        self.version = version
        self.pid = pid
        self.isExternal = isExternal
        self.summary = summary
        self.changedObjects = changedObjects
        self.deletedObjects = deletedObjects
    }
}
