import Foundation
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// The refusal (exit 5) of a command that writes `database` when this user may not write the
/// file, its lock file or its directory: what the command needs, and where it is missing. (The
/// engine's message suggests the browser's `--read-only`, which no other command has.)
func writePermissionRefusal(database: String, command: String, failed: String, operation: String) -> CLIError {
    let lock = database + ".lock"
    let directory = directoryAsGiven(database)
    var lacking: [String] = []
    if access(database, W_OK) != 0 { lacking.append("the file") }
    if access(lock, F_OK) == 0 && access(lock, W_OK) != 0 { lacking.append("the lock file") }
    if access(directory, W_OK | X_OK) != 0 { lacking.append("the directory") }
    let which = lacking.isEmpty ? "" : "; this user lacks it on " + lacking.joined(separator: " and ")
    return CLIError("\(database): permission denied (\(operation) \(failed)): \(command) writes the database, so it needs write permission on the file, "
                    + "its lock file (\(lock)) and the directory (\(directory))\(which); nothing was changed",
                    code: ExitCode32.refused)
}

/// Lock files this process made beside a database it opened for writing (no `FILE.lock` was
/// there before). A command that fails removes them again (`removeUnused()`), so refusing a
/// damaged, truncated or unwritable file, or a wrong key, leaves no file beside it that the
/// user did not ask for. A lock file another process uses is never removed.
enum CreatedLockFiles {
    nonisolated(unsafe) private static var created: [(path: String, device: UInt64, inode: UInt64)] = []

    /// Whether `database` has a lock file now (call before opening it).
    static func lockExists(for database: String) -> Bool { pathExists(database + ".lock") }

    /// Records `database`'s lock file when it exists now and `existedBefore` is false.
    static func noteCreated(for database: String, existedBefore: Bool) {
        guard !existedBefore else { return }
        let lock = database + ".lock"
        var st = stat()
        guard lstat(lock, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return }
        if !created.contains(where: { $0.device == UInt64(st.st_dev) && $0.inode == UInt64(st.st_ino) }) {
            created.append((lock, UInt64(st.st_dev), UInt64(st.st_ino)))
        }
    }

    /// Removes each recorded lock file that is still the file this process made and that no
    /// handle uses (none holds the participant byte or the initialisation byte, which every
    /// process opening the database locks; see docs/FORMAT.md). Call once every handle of this
    /// process is closed. Returns the paths removed.
    @discardableResult
    static func removeUnused() -> [String] {
        var removed: [String] = []
        for entry in created {
            let fd = open(entry.path, O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, UInt64(st.st_dev) == entry.device, UInt64(st.st_ino) == entry.inode else { continue }
            // Record locks conflict with the engine's open-file-description locks: granted
            // only when no handle anywhere holds these bytes. Released by the close.
            guard lockByte(fd, 0), lockByte(fd, 2) else { continue }
            var now = stat()
            guard lstat(entry.path, &now) == 0, now.st_dev == st.st_dev, now.st_ino == st.st_ino else { continue }
            if unlink(entry.path) == 0 { removed.append(entry.path) }
        }
        created.removeAll()
        return removed
    }

    /// Takes an exclusive record lock on byte `offset` without waiting.
    private static func lockByte(_ fd: Int32, _ offset: Int) -> Bool {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(offset)
        lock.l_len = 1
        return fcntl(fd, F_SETLK, &lock) == 0
    }
}
