import Foundation
import StrataStorage

/// Commits and readers of the file.
package struct VersionsReport: Hashable, Sendable {
    /// The newest committed version.
    package var currentVersion: UInt64
    /// Most recent first.
    package var commits: [CommitInfo]
    package var readers: [ReaderSummary]
    /// The process holding the write lock now (nil: nobody writes).
    package var writeLockHolder: WriteLockHolder?
    /// Why readers and commits cannot be listed for this file (a Realm file), nil when they can:
    /// empty lists then would read as "no readers, no commits".
    package var unlisted: String?

    package init(currentVersion: UInt64, commits: [CommitInfo], readers: [ReaderSummary], writeLockHolder: WriteLockHolder? = nil,
                 unlisted: String? = nil) {
        self.currentVersion = currentVersion
        self.commits = commits
        self.readers = readers
        self.writeLockHolder = writeLockHolder
        self.unlisted = unlisted
    }

    // `WriteLockHolder` is Equatable only (StrataStorage); hash what identifies it.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(currentVersion)
        hasher.combine(commits)
        hasher.combine(readers)
        hasher.combine(writeLockHolder?.pid)
        hasher.combine(writeLockHolder?.since)
        hasher.combine(unlisted)
    }
}

/// One commit.
package struct CommitInfo: Hashable, Sendable {
    package var version: UInt64
    package var time: Date
    package var pid: Int32
    /// What changed, e.g. `Person: 1 modified; Dog: 2 inserted`.
    package var summary: String

    package init(version: UInt64, time: Date, pid: Int32, summary: String) {
        self.version = version
        self.time = time
        self.pid = pid
        self.summary = summary
    }
}

/// A reader slot of the lock file.
package struct ReaderSummary: Hashable, Sendable {
    package var pid: Int32
    package var threadLabel: String
    package var pinnedVersion: UInt64
    /// When the reader pinned its version.
    package var since: Date
    /// Bytes freed since the pinned version that cannot be reused while it is held.
    package var bytesPinned: Int64
    /// `false` when the process has died and the slot is stale.
    package var isAlive: Bool

    package init(pid: Int32, threadLabel: String, pinnedVersion: UInt64, since: Date, bytesPinned: Int64, isAlive: Bool) {
        self.pid = pid
        self.threadLabel = threadLabel
        self.pinnedVersion = pinnedVersion
        self.since = since
        self.bytesPinned = bytesPinned
        self.isAlive = isAlive
    }
}
