import StrataTooling

/// Reloading a snapshot (a live `.realm` file got a newer commit): the status bar shows the
/// data source's notice, and the reload key moves to the newest commit.
extension BrowserApp {
    /// The status-bar notice of a data source that has a newer commit waiting.
    var reloadNotice: String? { (dataSource as? SnapshotReloading)?.newerCommitNotice }

    /// Re-reads the file at its newest commit and refreshes everything shown.
    func reloadSnapshot() {
        guard let source = dataSource as? SnapshotReloading, source.newerCommitNotice != nil else {
            show("nothing to reload: the file has no newer commit")
            return
        }
        do {
            try source.reloadSnapshot()
        } catch {
            show("reload failed (still showing the previous snapshot): \(Self.describe(error))", error: true)
            return
        }
        refreshAfterChange()
        appendLog(.info, "reloaded \(dataSource.fileInfo.path) at version \(status.version)")
        show("reloaded: version \(status.version)")
    }
}
