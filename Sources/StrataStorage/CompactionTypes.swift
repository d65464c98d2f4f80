import Foundation

/// Progress of a compaction or copy: bytes of live data copied (or relocated) so far, out of
/// an estimate of the total. Reported from the thread doing the work.
public struct CompactionProgress: Sendable, Equatable {
    /// Bytes copied so far.
    public var bytesDone: UInt64
    /// Bytes to copy in all (the live data of the version being compacted).
    public var bytesTotal: UInt64
    /// `bytesDone / bytesTotal`, clamped to 0...1.
    public var fraction: Double { bytesTotal == 0 ? 1 : min(1, Double(bytesDone) / Double(bytesTotal)) }
    /// A progress report of `bytesDone` out of `bytesTotal`.
    public init(bytesDone: UInt64, bytesTotal: UInt64) { self.bytesDone = bytesDone; self.bytesTotal = bytesTotal }
}

/// A progress callback (called often; keep it cheap). During a full compaction it must not begin
/// transactions on the compacting handle (they wait for the compaction to end).
public typealias CompactionProgressHandler = (CompactionProgress) -> Void

/// What a compaction achieved.
public struct CompactionResult: Sendable, Equatable {
    /// Size of the file on disk before.
    public var beforeBytes: UInt64
    /// Size of the file on disk after.
    public var afterBytes: UInt64
    /// Wall-clock duration.
    public var seconds: Double
    /// The newest version once done.
    public var version: UInt64
    /// Bytes of live data copied (full compaction) or relocated (online compaction).
    public var bytesMoved: UInt64
    /// Online compaction only: bytes at the end of the file that are free but still visible to
    /// a pinned reader, so they could not be given back yet. A later commit gives them back
    /// once those readers end (automatic compaction truncates the file then).
    public var pendingTailBytes: UInt64
    /// Online compaction only: the readers whose pins hold the pending tail.
    public var pinningReaders: [ReaderInfo]
    /// Full compaction only: where its time went.
    public var phases: CompactionPhases?
    /// A result with every figure given (the compaction functions build it; tests compare against it).
    public init(beforeBytes: UInt64, afterBytes: UInt64, seconds: Double, version: UInt64, bytesMoved: UInt64,
                pendingTailBytes: UInt64 = 0, pinningReaders: [ReaderInfo] = [], phases: CompactionPhases? = nil) {
        self.beforeBytes = beforeBytes; self.afterBytes = afterBytes; self.seconds = seconds; self.version = version
        self.bytesMoved = bytesMoved; self.pendingTailBytes = pendingTailBytes; self.pinningReaders = pinningReaders
        self.phases = phases
    }
    /// Bytes given back to the file system (0 when the file did not shrink).
    public var savedBytes: UInt64 { beforeBytes > afterBytes ? beforeBytes - afterBytes : 0 }
}

/// Where a full compaction's time went (wall-clock seconds; together nearly all of
/// `CompactionResult.seconds`, the rest being checks and the lock file).
public struct CompactionPhases: Sendable, Equatable {
    /// Reading the newest version and writing its live blocks densely into the new file.
    public var copySeconds: Double
    /// The new file's `fdatasync`: its bytes on disk before it replaces the old one.
    public var syncSeconds: Double
    /// Putting it in place: `rename` over the old file, the directory's `fsync`, and this
    /// handle switching its descriptor and mapping to the new file.
    public var replaceSeconds: Double
    /// The three phases as measured.
    public init(copySeconds: Double, syncSeconds: Double, replaceSeconds: Double) {
        self.copySeconds = copySeconds; self.syncSeconds = syncSeconds; self.replaceSeconds = replaceSeconds
    }
}

/// Why a compaction or copy could not run. (A file open elsewhere is `StorageError.fileInUse`.)
public enum CompactionError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A write transaction is open in this handle.
    case writeTransactionInProgress(path: String)
    /// Read transactions of this handle still pin versions.
    case readTransactionsOpen(path: String, count: Int)
    /// `writeCopy` refuses to overwrite anything.
    case destinationExists(path: String)
    /// The handle is read-only (or has no lock file), so it cannot compact.
    case notWritable(path: String)
    /// The file was replaced but this handle could not switch to it; close and reopen it.
    case reopenFailed(path: String, errno: Int32)
    /// Another `writeCopy` (in this or another process) is writing a copy to the same
    /// destination right now.
    case copyInProgress(path: String)

    public var description: String {
        switch self {
        case .writeTransactionInProgress(let p):
            return "\(p): cannot compact while a write transaction is in progress in this handle; commit or abort it first"
        case .readTransactionsOpen(let p, let n):
            return "\(p): cannot compact while \(n) read transaction\(n == 1 ? " is" : "s are") open in this handle; end them (or use online compaction)"
        case .destinationExists(let p):
            return "\(p): the destination already exists; writeCopy never overwrites a file, choose another path or delete it"
        case .notWritable(let p):
            return "\(p): the file is open read-only; reopen it writable to compact"
        case .copyInProgress(let p):
            return "\(p): another copy to this path is being written right now; wait for it to finish, or choose another path"
        case .reopenFailed(let p, let e):
            return "\(p): the compacted file replaced the original, but this handle could not reopen it (errno \(e)); close the handle and open the file again"
        }
    }
}

/// Where an online or automatic relocation stopped: the tree (by name) and the key at which the
/// next batch resumes. Keys are positions, not blocks, so the cursor stays meaningful while
/// other writers change the trees between batches.
struct RelocationCursor: Sendable, Equatable {
    /// nil: before the first tree.
    var tree: String?
    /// nil: from the start of `tree`.
    var key: [UInt8]?
}

/// Per-handle compaction state, guarded by one condition lock.
///
/// Invariant: while `compacting` is true (a full compaction replaces the file under this
/// handle) no read transaction of this handle pins a version, and none can start: pinning waits
/// here. The compaction first waits for pins in progress to finish (`pinning == 0`) and refuses
/// when pinned read transactions remain.
final class CompactionState: @unchecked Sendable {
    private let cond = NSCondition()
    private var compacting = false
    private var pinning = 0
    private var cursor = RelocationCursor()

    /// Entered around every pin of a version (begin/refresh of a read transaction).
    func enterPin() {
        cond.lock()
        while compacting { cond.wait() }
        pinning += 1
        cond.unlock()
    }

    func leavePin() {
        cond.lock()
        pinning -= 1
        if pinning == 0 { cond.broadcast() }
        cond.unlock()
    }

    /// Blocks new pins and waits for pins in progress.
    func beginFullCompaction() {
        cond.lock()
        compacting = true
        while pinning > 0 { cond.wait() }
        cond.unlock()
    }

    func endFullCompaction() {
        cond.lock()
        compacting = false
        cond.broadcast()
        cond.unlock()
    }

    /// Where automatic compaction resumes in this handle.
    var autoCursor: RelocationCursor {
        get { cond.lock(); defer { cond.unlock() }; return cursor }
        set { cond.lock(); cursor = newValue; cond.unlock() }
    }
}
