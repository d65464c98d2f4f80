import Foundation
import StrataStorage

/// Compaction of a real file, for the browser and `strata compact`.
package enum DatabaseCompaction {
    /// Whether this build can compact files.
    package static let isAvailable = true

    /// Compacts the file of `store`: fully (`Store.compact`, refused while another handle has
    /// the file open), or online (`Store.compactOnline`, beside other readers and writers).
    /// The handle must have no transactions open for a full compaction.
    package static func compact(_ store: Store, online: Bool, progress: (CompactionProgressReport) -> Void) throws -> CompactionOutcome {
        let result: CompactionResult = try withoutActuallyEscaping(progress) { report in
            let handler: CompactionProgressHandler = { p in
                report(CompactionProgressReport(fraction: p.fraction, phase: online ? "relocating pages" : "copying live data"))
            }
            return online ? try store.compactOnline(progress: handler) : try store.compact(progress: handler)
        }
        progress(CompactionProgressReport(fraction: 1, phase: "done"))
        return CompactionOutcome(beforeBytes: Int64(result.beforeBytes), afterBytes: Int64(result.afterBytes),
                                seconds: result.seconds, online: online)
    }
}
