/// A data source that shows one snapshot of a file another program writes (a `.realm` file an
/// app still has open): it notices a newer commit on disk, says so in one line, and moves to it
/// only when the user asks. Reloading only reads the file; nothing is written or created.
package protocol SnapshotReloading: AnyObject {
    /// The status-bar line while a newer commit is waiting on disk, `nil` otherwise.
    var newerCommitNotice: String? { get }
    /// Re-reads the file at its newest commit; the old snapshot stays shown when this throws.
    func reloadSnapshot() throws
}
