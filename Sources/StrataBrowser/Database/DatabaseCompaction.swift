import Foundation
import StrataStorage

/// Compaction of a real file, for the browser and `strata compact`.
public enum DatabaseCompaction {
    /// Whether this build can compact files.
    public static let isAvailable = false

    /// Compacts the file of `store` (fully, or online while others keep it open).
    public static func compact(_ store: Store, online: Bool, progress: (CompactionProgress) -> Void) throws -> CompactionResult {
        throw BrowserError("compaction is not available in this build yet")
    }
}
