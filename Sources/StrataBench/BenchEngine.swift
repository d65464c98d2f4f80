import Foundation
import StrataStorage

/// One database engine under benchmark. The runner drives it through the whole sequence below,
/// on fresh files, once per repetition:
///
/// `open` → `insert` → `fileSize` → `count` → `sum` → `lookup` → `commit` → `update` → `delete`
/// → `compact` → `objectCount` → `close`, then the runner copies `databaseFiles` with `cp`.
///
/// Every workload returns a value derived from the work it did, so the work cannot be optimized
/// away and the runner can check that all engines (and the in-memory `BenchOracle`) agree.
/// Only the workload calls are timed; `open`, `fileSize`, `objectCount` and `close` are not.
/// Implementations must be durable at least as far as Strata is: every transaction commit must
/// be on stable storage (fsync) before the call returns.
package protocol BenchEngine: AnyObject {
    /// The name shown in progress lines and messages, e.g. "Strata" or "SQLite".
    var name: String { get }

    /// Creates a new, empty database inside `directory` (which exists and is empty) and opens it.
    func open(directory: URL) throws

    /// (1) Inserts all `rows` in one write transaction. Returns the number of objects inserted.
    func insert(_ rows: [BenchRow]) throws -> Int

    /// (2) Counts the objects matching `query`.
    func count(_ query: BenchCountQuery) throws -> Int

    /// (3) Returns the sum of the `age` property over all objects.
    func sumAge() throws -> Int

    /// (4) Looks up each primary key in `ids`, in order, reads `name` and `score`, and folds them
    /// into a checksum (`combineMissing()` for a key that does not exist). One read transaction
    /// (snapshot) for the whole batch is allowed.
    func lookup(ids: [Int]) throws -> BenchChecksum

    /// (5) Runs each operation in its own durable write transaction. Returns the number of
    /// objects changed (inserted or updated) in total.
    func commit(_ operations: [BenchCommitOperation]) throws -> Int

    /// (6) Applies all score updates in one write transaction. Returns the number of objects
    /// updated.
    func update(_ updates: [BenchScoreUpdate]) throws -> Int

    /// (7) Deletes the objects with these primary keys in one write transaction. Returns the
    /// number of objects deleted.
    func delete(ids: [Int]) throws -> Int

    /// (8) The size in bytes of the database as stored: everything needed to reopen it (for
    /// SQLite the main file after a checkpoint, which leaves no data in the WAL; lock and
    /// shared-memory files are not counted).
    func fileSize() throws -> Int

    /// (9) Compacts the database (SQLite: `VACUUM`) so the result is durable, and returns the
    /// file size afterwards, as `fileSize()` would report it.
    func compact() throws -> Int

    /// The number of objects currently stored (used to check the engines agree; not timed).
    func objectCount() throws -> Int

    /// Closes the database; the engine may be opened again afterwards on another directory.
    func close() throws

    /// The files the database consists of while closed (the ones `fileSize()` counts). The
    /// runner copies them with `cp` after `close()` as the reference for compaction speed.
    func databaseFiles() -> [URL]

    /// Where the last `compact()` spent its time, when the engine knows (Strata; nil otherwise).
    var lastCompactionPhases: CompactionPhases? { get }
}

extension BenchEngine {
    package var lastCompactionPhases: CompactionPhases? { nil }
}
