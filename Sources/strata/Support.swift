import Foundation
import Strata
import StrataRealm
import StrataTooling
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// A failure the command line reports as one line on stderr with a documented exit code.
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var code: Int32
    init(_ message: String, code: Int32) { self.message = message; self.code = code }
    var description: String { message }
}

/// The documented exit codes (README, "Exit codes").
enum ExitCode32 {
    static let ok: Int32 = 0
    /// `check` found problems.
    static let checkFailed: Int32 = 1
    /// Bad command line (unknown flag, missing argument, conflicting options).
    static let usage: Int32 = 2
    /// The file is missing, not a Strata database, damaged, or of a newer format.
    static let badFile: Int32 = 3
    /// A bad query, a bad import row, an unknown class or property.
    static let badInput: Int32 = 4
    /// Refused: the destination exists, the file is in use elsewhere, or it is read-only (opened
    /// so, or not writable by this process).
    static let refused: Int32 = 5
    /// Encryption: an unreadable or malformed key file, or encryption not available.
    static let encryption: Int32 = 6
    /// Input/output failure (disk full) or another engine error.
    static let io: Int32 = 7
}

/// Maps any error of the engine to a `CLIError` (one line, what to do, an exit code).
func cliError(_ error: Error) -> CLIError {
    if let e = error as? CLIError { return e }
    if let e = error as? StorageError {
        switch e {
        case .fileNotFound, .directoryNotFound, .notADatabase, .notARegularFile, .unsupportedFormat, .corrupted, .badLockFile:
            return CLIError(e.description, code: ExitCode32.badFile)
        case .fileInUse, .readOnly, .permissionDenied: return CLIError(e.description, code: ExitCode32.refused)
        case .encryptionKeyRequired:
            // The engine's "open it with its 64-byte encryption key" did not say how (the Realm
            // reader's message names the option).
            return CLIError(e.description + ": pass it with --encryption-key-file K (64 raw bytes or 128 hex characters)",
                            code: ExitCode32.encryption)
        case .notEncrypted(let p):
            // The engine names its API (writeCopy); on the command line it is copy's option.
            return CLIError("\(p): an encryption key was given but the file is not encrypted; run the command without --encryption-key-file "
                            + "(to make an encrypted copy: strata copy \(p) NEW --output-encryption-key-file K)", code: ExitCode32.encryption)
        case .wrongEncryptionKey:
            return CLIError(appendingClause(e.description, "the file is unchanged: pass the key it was encrypted with in --encryption-key-file K"),
                            code: ExitCode32.encryption)
        case .invalidEncryptionKey: return CLIError(e.description, code: ExitCode32.encryption)
        default: return CLIError(e.description, code: ExitCode32.io)
        }
    }
    if let e = error as? CompactionError {
        switch e {
        case .destinationExists, .notWritable, .readTransactionsOpen, .writeTransactionInProgress, .copyInProgress:
            return CLIError(e.description, code: ExitCode32.refused)
        case .reopenFailed: return CLIError(e.description, code: ExitCode32.io)
        }
    }
    if let e = error as? SchemaError {
        switch e {
        case .noSuchClass, .noSuchProperty: return CLIError(e.description, code: ExitCode32.badInput)
        case .changedByAnotherProcess: return CLIError(appendingClause(e.description, "run the command again"), code: ExitCode32.refused)
        case .invalid(let detail) where detail.contains("damaged"): return CLIError(appendingClause(e.description, "run 'strata check'"), code: ExitCode32.badFile)
        default: return CLIError(e.description, code: ExitCode32.badInput)
        }
    }
    if let e = error as? ObjectError { return CLIError(e.description, code: ExitCode32.badInput) }
    if let e = error as? QueryError { return CLIError("bad query: \(e.message)", code: ExitCode32.badInput) }
    if let e = error as? BrowserError {
        return CLIError(e.position.map { "bad query at \($0 + 1): \(e.message)" } ?? e.message, code: ExitCode32.badInput)
    }
    if let e = error as? InputError { return CLIError(e.message, code: ExitCode32.badInput) }
    return CLIError(String(describing: error), code: ExitCode32.io)
}

/// The line a writing command prints on stderr, once, when another process has held the write
/// lock for about a second (`StoreOptions.onWriteLockWait`); the command keeps waiting.
func writeLockWaitMessage(_ holder: WriteLockHolder) -> String {
    "waiting for the write lock held by \(holder); press Ctrl-C to give up"
}

/// `StoreOptions.onWriteLockWait` for every command that writes.
let announceWriteLockWait: @Sendable (WriteLockHolder) -> Void = { printError(writeLockWaitMessage($0)) }

/// Writes to stderr.
func printError(_ text: String) {
    writeStandardError(text + "\n")
}

/// A named output file (export's --output):
/// - a regular file (or a new one) is written to a temporary file beside it (`.NAME.export-PID-XXXXXX`;
///   one a killed export left is removed by the next export to NAME, see `StaleTemporaries`)
///   that `close()` renames over it once everything is written (a symlink is followed: the
///   temporary is made beside its target and renamed over the target, the link kept; an existing
///   file's permission bits are kept, and its owner and group when this process may set them, as
///   root can); a failed export (`discard()`) removes the temporary and leaves the old content;
/// - a dangling symlink is refused (exit 5), as `cp` refuses it: the link is neither replaced by
///   a regular file nor followed to create its target;
/// - a FIFO or character device (`/dev/null`, a terminal) given explicitly is written to as is,
///   as the shell's `>` does, and is never replaced by a regular file;
/// - a directory, socket or block device is refused (exit 5);
/// - a path that is one of the `protected` files (the database, its lock file, its compaction
///   temporary), by the same device and inode or the same resolved path, is refused (exit 5)
///   before anything is written.
final class FileOutput: FileDescriptorOutput {
    /// For a regular file: the temporary written and the file it replaces on `close()`.
    private var replacing: (temporary: String, target: String)?

    init(path: String, protecting protected: [String]) throws {
        let (fd, replacing) = try FileOutput.openSafely(path, protecting: protected)
        self.replacing = replacing
        super.init(fd: fd, closeAtEnd: true)
    }

    /// Flushes and closes; a regular file's temporary then replaces it.
    override func close() throws {
        try super.close()
        guard let r = replacing else { return }
        guard rename(r.temporary, r.target) == 0 else {
            let e = errno
            throw CLIError("\(r.target): cannot replace the output file (\(String(cString: strerror(e)))); check the directory's permissions", code: ExitCode32.io)
        }
        TemporaryFiles.unregister(r.temporary)
        replacing = nil
    }

    /// After a failure: removes the temporary file (the output file keeps its old content).
    /// Does nothing once `close()` has replaced the file.
    func discard() {
        guard let r = replacing else { return }
        Glibc.close(fd)
        unlink(r.temporary)
        TemporaryFiles.unregister(r.temporary)
        replacing = nil
    }

    /// Opens `path` without truncating it and checks what it is; a regular file (or a path
    /// that does not exist yet) gets a temporary file beside it instead.
    private static func openSafely(_ path: String, protecting protected: [String]) throws -> (Int32, (temporary: String, target: String)?) {
        func refuse(_ why: String) -> CLIError {
            CLIError("\(path): \(why); nothing was written: choose another output file", code: ExitCode32.refused)
        }
        try refuseEmptyPath(path)
        // By name first (covers protected files that do not exist yet, e.g. the compaction temporary).
        let target = resolvedPath(path)
        if protected.contains(where: { resolvedPath($0) == target }) {
            throw refuse("this is the database or one of its own files (lock, temporary)")
        }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let e = errno
            if e == ENOENT {
                var link = stat()
                if lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK {
                    let points = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { " (it points to \($0), which does not exist)" } ?? ""
                    throw CLIError("\(path): not writing through dangling symlink\(points); nothing was written: create the target, or remove the link or choose another output file",
                                   code: ExitCode32.refused)
                }
                return try temporary(beside: target, given: path, mode: nil, owner: nil)
            }
            if e == EISDIR { throw refuse("is a directory") }
            throw CLIError("\(path): cannot open the output file (\(String(cString: strerror(e)))); check the directory and permissions", code: ExitCode32.io)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            Glibc.close(fd)
            throw CLIError("\(path): cannot read the output file's status (\(String(cString: strerror(errno))))", code: ExitCode32.io)
        }
        // By identity (symlinks, hard links, bind mounts): the same device and inode.
        for other in protected {
            var o = stat()
            if stat(other, &o) == 0 && o.st_dev == st.st_dev && o.st_ino == st.st_ino {
                Glibc.close(fd)
                throw refuse("this is the database or one of its own files (lock, temporary)")
            }
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            Glibc.close(fd)
            return try temporary(beside: target, given: path, mode: st.st_mode & 0o7777, owner: (st.st_uid, st.st_gid))
        case S_IFIFO, S_IFCHR:
            return (fd, nil)
        default:
            Glibc.close(fd)
            throw refuse("is not a regular file, FIFO or character device")
        }
    }

    /// A new temporary file in `target`'s directory, with `mode` (nil: 0644 less the umask) and,
    /// as far as this process may set them, `owner` (the file it replaces: root exporting over
    /// another user's file keeps that user's file); `given`: the path as the user wrote it (for
    /// messages).
    private static func temporary(beside target: String, given: String, mode: mode_t?,
                                  owner: (uid: uid_t, gid: gid_t)?) throws -> (Int32, (temporary: String, target: String)?) {
        let url = URL(fileURLWithPath: target)
        // `.NAME.export-PID-XXXXXX`: the pid tells a later export whether the writer of such a
        // file still runs; one killed (SIGKILL, a crash) left it, and it is removed here.
        let directory = url.deletingLastPathComponent().path, prefix = "." + url.lastPathComponent + ".export-"
        StaleTemporaries.remove(in: directory, prefix: prefix) { rest in
            rest.count == 7 && rest.first == "-" && rest.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
        var template = Array((directory + "/" + prefix + "\(getpid())-XXXXXX").utf8CString)
        // Registered as it is made: an interrupt from here on removes it.
        let fd = TemporaryFiles.withSignalsBlocked {
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 { TemporaryFiles.register(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }) }
            return fd
        }
        guard fd >= 0 else {
            let e = errno
            try refuseUnwritableDirectory(directoryAsGiven(given), errno: e)
            if e == ENOENT || e == ENOTDIR {
                // As for every other new file (README, exit 3): no command creates directories.
                throw CLIError("\(directoryAsGiven(given)): no such directory; create it first (export writes the file, not its directory)", code: ExitCode32.badFile)
            }
            throw CLIError("\(target): cannot create the output file (\(String(cString: strerror(e)))); check the directory and permissions", code: ExitCode32.io)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // Owner first: a change of owner clears the set-user-ID and set-group-ID bits.
        if let owner, owner.uid != geteuid() || owner.gid != getegid() {
            // Another user's file needs root; a group of this user's can be kept without it.
            if fchown(fd, owner.uid, owner.gid) != 0 { _ = fchown(fd, uid_t.max, owner.gid) }
        }
        let mask = umask(0)
        umask(mask)
        fchmod(fd, mode ?? (0o644 & ~mask))
        return (fd, (temporary, target))
    }

    /// The absolute path with symlinks resolved (for a path that does not exist yet, its
    /// directory resolved and its name appended).
    static func resolvedPath(_ path: String) -> String {
        if let r = realpath(path, nil) { defer { free(r) }; return String(cString: r) }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        if let r = realpath(dir, nil) { defer { free(r) }; return String(cString: r) + "/" + url.lastPathComponent }
        return url.standardizedFileURL.path
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
final class ProgressBar {
    let enabled: Bool
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(enabled: Bool = isatty(STDERR_FILENO) != 0) { self.enabled = enabled }

    func update(_ fraction: Double, _ label: String) {
        guard enabled else { return }
        let now = Date()
        guard fraction >= 1 || now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let width = 30
        let filled = Int((min(1, max(0, fraction)) * Double(width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        writeStandardError("\r\u{1B}[2K\(bar) \(Int(fraction * 100))% \(label)")
        drawn = true
    }

    func finish() {
        guard enabled, drawn else { return }
        writeStandardError("\r\u{1B}[2K")
        drawn = false
    }
}

/// Refuses (exit 3) a path that does not exist, cannot be looked at, is a symlink loop, a
/// directory, or not a regular file: the checks every command makes before opening a database.
/// A `.realm` path is named as a Realm file (and gets no demo hint).
func requireExistingRegularFile(_ path: String) throws {
    let realm = path.hasSuffix(".realm")
    let what = realm ? "a Realm file" : "a Strata database"
    var st = stat()
    guard stat(path, &st) == 0 else {
        switch errno {
        case ENOENT where realm:
            throw CLIError("\(path): no such file; check the path", code: ExitCode32.badFile)
        case ENOENT:
            throw CLIError("\(path): no such file; check the path (create a demo database with 'strata demo \(path)')", code: ExitCode32.badFile)
        case ELOOP:
            throw CLIError("\(path): too many levels of symbolic links (a symlink loop?); check where the links point", code: ExitCode32.badFile)
        case let e:
            throw CLIError("\(path): cannot open (\(String(cString: strerror(e)))); check the path and permissions", code: ExitCode32.badFile)
        }
    }
    switch st.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw CLIError("\(path) is a directory, not \(what); give the path of a \(realm ? ".realm" : ".strata") file", code: ExitCode32.badFile)
    default: throw CLIError("\(path) is not a regular file (a FIFO, socket or device), not \(what)", code: ExitCode32.badFile)
    }
}

/// Opens a database for a command. Missing files are refused (never created).
/// `announceWaits`: say on stderr whom a write waits for (the browser says it on its own screen).
/// `readOnlyOption`: the command has `--read-only` (the browser), which a refusal for lack of
/// write permission suggests; other commands are told what writing needs. A lock file the open
/// creates is recorded, to be removed if the command fails (`CreatedLockFiles`).
func openDatabase(_ path: String, readOnly: Bool, label: String, key: [UInt8]?, announceWaits: Bool = true, readOnlyOption: Bool = false) throws -> Database {
    try requireExistingRegularFile(path)
    var options = StoreOptions()
    options.create = false
    options.readOnly = readOnly
    options.label = label
    options.encryptionKey = key
    if !readOnly && announceWaits { options.onWriteLockWait = announceWriteLockWait }
    let lockExisted = readOnly || CreatedLockFiles.lockExists(for: path)
    defer { CreatedLockFiles.noteCreated(for: path, existedBefore: lockExisted) }
    do {
        return try Database(path: path, options: options)
    } catch StorageError.permissionDenied(let failed, let operation) where !readOnly && !readOnlyOption {
        throw writePermissionRefusal(database: path, command: label, failed: failed, operation: operation)
    } catch {
        throw cliError(error)
    }
}

/// Opens a `.realm` file read-only with `key` (nil: not encrypted); a missing path, a directory,
/// FIFO, socket or device is refused first (exit 3), reader errors become CLI errors (exit 6 for
/// keys, 3 for the file).
func openRealmFile(_ path: String, key: [UInt8]?) throws -> RealmFile {
    // Before the reader opens it: opening a FIFO would wait for a writer forever.
    try requireExistingRegularFile(path)
    do {
        return try RealmFile.open(path: path, encryptionKey: key)
    } catch let e as RealmFileError {
        switch e {
        case .encryptionKeyRequired where Store.hasStrataHeader(path: path):
            throw CLIError("\(path) is a Strata database, not a Realm file: this command reads realm-core files (to copy a Strata database: strata copy)",
                           code: ExitCode32.badFile)
        case .encryptionKeyRequired, .invalidEncryptionKey, .wrongEncryptionKey, .notEncrypted:
            throw CLIError("\(path): \(e.description)", code: ExitCode32.encryption)
        default:
            throw CLIError("\(path): \(e.description)", code: ExitCode32.badFile)
        }
    }
}

/// The refusal of every command that would write a Realm file (exit 5).
func refuseRealmWrite(_ path: String) -> CLIError {
    CLIError(RealmFileDataSource.readOnlyMessage(path: path), code: ExitCode32.refused)
}

/// Refuses (exit 5) to create a Strata database at a path named `.realm` (copy's, convert's and
/// demo's destination, `import --create`'s new file): every command reads such a name as a
/// realm-core file, so the database made there could not be opened by that name again.
func refuseRealmNamedNewFile(_ path: String) throws {
    guard path.hasSuffix(".realm") else { return }
    let stem = String(path.dropLast(".realm".count))
    throw CLIError("\(path): a .realm name is read as a Realm file, and strata writes Strata databases; name the new file \(stem).strata instead",
                   code: ExitCode32.refused)
}

/// `2024-05-01T12:30:05.000Z`.
func isoTime(_ date: Date) -> String { ValueConversion.isoDate(date) }

/// Whether something (even a dangling symlink) is at `path`.
func pathExists(_ path: String) -> Bool {
    var st = stat()
    return lstat(path, &st) == 0
}

/// Removes a database this command created (and its lock file) after a failure.
func removeDatabaseFiles(_ path: String) {
    unlink(path)
    unlink(path + ".lock")
}

/// Temporary files a command is writing (export's `.NAME.export-PID-XXXXXX`, the demo's hidden database and
/// its lock file, copy's `DEST.writecopy-tmp` and salvage database, a database `import --create`
/// made and has not committed yet, with its lock file): SIGINT, SIGTERM or SIGHUP removes them and then ends the process by that signal
/// (the shell's 128+signal status), so an interrupted command leaves no temporary behind.
/// The handler only calls `unlink` on paths prepared as C strings when they were registered.
enum TemporaryFiles {
    private static let capacity = 16
    /// Slots of `strdup`ed paths (nil: free); read by the signal handler.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        p.initialize(repeating: nil, count: capacity)
        return p
    }()
    nonisolated(unsafe) private static var installed = false
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Runs `body` with SIGINT, SIGTERM and SIGHUP held back (they arrive afterwards).
    static func withSignalsBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var set = sigset_t(), old = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_BLOCK, &set, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return try body()
    }

    /// Removes `path` if the process is interrupted before `unregister(path)`.
    static func register(_ path: String) {
        withSignalsBlocked {
            installHandlers()
            for i in 0..<capacity where slots[i] == nil {
                slots[i] = strdup(path)
                return
            }
        }
    }

    /// `path` is no longer removed on a signal (it was renamed, linked or removed).
    static func unregister(_ path: String) {
        withSignalsBlocked {
            for i in 0..<capacity {
                if let p = slots[i], String(cString: p) == path {
                    slots[i] = nil
                    free(p)
                }
            }
        }
    }

    private static func installHandlers() {
        guard !installed else { return }
        installed = true
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                // Async-signal-safe only: unlink, then die by the same signal.
                for i in 0..<TemporaryFiles.capacity {
                    if let p = TemporaryFiles.slots[i] { unlink(p) }
                }
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var old = sigaction()
            // A signal the process was started ignoring (nohup's SIGHUP) stays ignored.
            if sigaction(s, nil, &old) == 0 && unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            sigaction(s, &action, nil)
        }
    }
}

/// All of `path`'s bytes read with a plain read loop, so a FIFO, `/dev/fd/N` (a shell's process
/// substitution) or `/dev/stdin` works as well as a regular file; nil when it cannot be opened
/// or read (a directory, no such file).
func readWholeFile(_ path: String) -> Data? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 { data.append(contentsOf: buffer[..<n]) }
        else if n == 0 { return data }
        else if errno != EINTR { return nil }
    }
}

/// Refuses (exit 5) to go on when `path`, a file the command is about to create, is in a
/// directory this user cannot create files in: said with the directory as given and what to
/// do, before any temporary or lock file is attempted (the engine's message named those).
func requireWritableDirectory(for path: String) throws {
    try refuseEmptyPath(path)
    let shown = directoryAsGiven(path)
    guard access(shown, F_OK) == 0, access(shown, W_OK | X_OK) != 0 else { return }
    try refuseUnwritableDirectory(shown, errno: errno)
}

/// Refuses (exit 2) an empty path given for a new file: it named the current directory, and
/// `copy SRC ''` wrote the whole copy before its link into place failed (exit 7).
func refuseEmptyPath(_ path: String) throws {
    if path.isEmpty { throw CLIError("the new file's path is empty; give a file name", code: ExitCode32.usage) }
}

/// The directory part of `path` as the user wrote it (`.` for a bare name, `/` for the root), for
/// messages that name it.
func directoryAsGiven(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let directory = String(path[..<slash])
    return directory.isEmpty ? "/" : directory
}

/// Throws the exit-5 refusal for `errno` EACCES, EPERM or EROFS met creating a file in `directory`.
func refuseUnwritableDirectory(_ directory: String, errno e: Int32) throws {
    let why: String
    switch e {
    case EACCES, EPERM: why = "permission denied"
    case EROFS: why = "read-only file system"
    default: return
    }
    throw CLIError("cannot create files in \(directory) (\(why)); choose a writable directory", code: ExitCode32.refused)
}

/// Temporaries of strata's own naming that a process ended without a chance to clean up
/// (SIGKILL, a crash, a power cut) left beside a destination: the next command writing to that
/// destination removes them, so they do not accumulate. Only names that carry the writer's pid
/// are considered, and only when that process no longer exists.
enum StaleTemporaries {
    /// Removes, in `directory`, every entry named `prefix + PID + rest` (PID: decimal digits, not
    /// this process) for which `isRest(rest)` holds, that is a regular file owned by this user,
    /// and whose PID names no process (`kill(PID, 0)` fails with `ESRCH`) or a zombie. A process
    /// that still runs, or one this user may not signal (`EPERM`: it exists), keeps its file. Returns the
    /// names removed.
    @discardableResult
    static func remove(in directory: String, prefix: String, rest isRest: (Substring) -> Bool) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let tail = name.dropFirst(prefix.count)
            let digits = tail.prefix(while: { $0.isASCII && $0.isNumber })
            guard !digits.isEmpty, digits.count <= 10, let pid = pid_t(digits), pid > 0, pid != getpid(),
                  isRest(tail.dropFirst(digits.count)) else { continue }
            let path = directory + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid() else { continue }
            guard !isRunning(pid) else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Whether process `pid` exists and has not ended: `kill(pid, 0)` finds it (or is not
    /// allowed to signal it) and it is no zombie (a killed process its parent has not reaped yet).
    static func isRunning(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        // `/proc/PID/stat`: "PID (COMMAND) STATE …"; the command may hold spaces and parentheses.
        guard let stat = readWholeFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: UInt8(ascii: ")")),
              stat.index(close, offsetBy: 2) < stat.endIndex else { return true }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
    }
}
