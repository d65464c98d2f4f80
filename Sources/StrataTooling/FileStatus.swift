import Foundation

/// How a file was opened; fixed for a browsing session.
package struct FileInfo: Hashable, Sendable {
    /// Path or name shown in the status bar.
    package var path: String
    /// Opened with `--read-only`: every edit is refused.
    package var isReadOnly: Bool
    /// The file is encrypted (shown in the status bar).
    package var isEncrypted: Bool
    /// Replaces "read-only"/"read-write" in the status bar (e.g. "Realm file, format 24, read-only").
    package var modeDescription: String?
    /// Why edits are refused, shown instead of the `--read-only` message (e.g. for Realm files).
    package var readOnlyReason: String?
    /// What opening the file found that the user must hear (`Store.openWarnings`, e.g. "meta
    /// slot 0 claims version 8 and fails its checksum; opened at version 7"); shown in the Log.
    package var openWarnings: [String]

    package init(path: String, isReadOnly: Bool = false, isEncrypted: Bool = false,
                modeDescription: String? = nil, readOnlyReason: String? = nil, openWarnings: [String] = []) {
        self.path = path
        self.isReadOnly = isReadOnly
        self.isEncrypted = isEncrypted
        self.modeDescription = modeDescription
        self.readOnlyReason = readOnlyReason
        self.openWarnings = openWarnings
    }

    /// The last path component, for narrow displays.
    package var fileName: String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// The file's state at the browser's current version.
package struct FileStatus: Hashable, Sendable {
    /// The version the browser reads.
    package var version: UInt64
    /// File size on disk.
    package var totalBytes: Int64
    /// Bytes of live data in the newest version.
    package var usedBytes: Int64
    /// Free bytes (reusable now or once readers move on).
    package var freeBytes: Int64
    /// Free bytes still needed by pinned versions (part of ``freeBytes``).
    package var lockedBytes: Int64
    /// Handles/processes that have the file open, this one included.
    package var participants: Int

    package init(version: UInt64, totalBytes: Int64, usedBytes: Int64, freeBytes: Int64,
                lockedBytes: Int64, participants: Int) {
        self.version = version
        self.totalBytes = totalBytes
        self.usedBytes = usedBytes
        self.freeBytes = freeBytes
        self.lockedBytes = lockedBytes
        self.participants = participants
    }
}
