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
