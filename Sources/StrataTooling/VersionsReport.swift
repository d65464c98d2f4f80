import Foundation
import StrataStorage

/// Commits and readers of the file.
public struct VersionsReport: Hashable, Sendable {
    /// The newest committed version.
    public var currentVersion: UInt64
    /// Most recent first.
    public var commits: [CommitInfo]
    public var readers: [ReaderSummary]
    /// The process holding the write lock now (nil: nobody writes).
    public var writeLockHolder: WriteLockHolder?

    public init(currentVersion: UInt64, commits: [CommitInfo], readers: [ReaderSummary], writeLockHolder: WriteLockHolder? = nil) {
        self.currentVersion = currentVersion
        self.commits = commits
        self.readers = readers
        self.writeLockHolder = writeLockHolder
    }

    // `WriteLockHolder` is Equatable only (StrataStorage); hash what identifies it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(currentVersion)
        hasher.combine(commits)
        hasher.combine(readers)
        hasher.combine(writeLockHolder?.pid)
        hasher.combine(writeLockHolder?.since)
    }
}

/// One commit.
public struct CommitInfo: Hashable, Sendable {
    public var version: UInt64
    public var time: Date
    public var pid: Int32
    /// What changed, e.g. `Person: 1 modified; Dog: 2 inserted`.
    public var summary: String

    public init(version: UInt64, time: Date, pid: Int32, summary: String) {
        self.version = version
        self.time = time
        self.pid = pid
        self.summary = summary
    }
}

/// A reader slot of the lock file.
public struct ReaderSummary: Hashable, Sendable {
    public var pid: Int32
    public var threadLabel: String
    public var pinnedVersion: UInt64
    /// When the reader pinned its version.
    public var since: Date
    /// Bytes freed since the pinned version that cannot be reused while it is held.
    public var bytesPinned: Int64
    /// `false` when the process has died and the slot is stale.
    public var isAlive: Bool

    public init(pid: Int32, threadLabel: String, pinnedVersion: UInt64, since: Date, bytesPinned: Int64, isAlive: Bool) {
        self.pid = pid
        self.threadLabel = threadLabel
        self.pinnedVersion = pinnedVersion
        self.since = since
        self.bytesPinned = bytesPinned
        self.isAlive = isAlive
    }
}
