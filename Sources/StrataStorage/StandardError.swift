#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to descriptor 2 with a plain `write(2)` loop, ignoring failures: a closed
/// (`2>&-`) or full (`2>/dev/full`) standard error loses the text, where FileHandle's write
/// trapped (SIGILL). The one writer of standard error for the logger and the command line.
package func writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        if n > 0 { bytes = bytes.dropFirst(n) } else if n < 0 && errno == EINTR { continue } else { return }
    }
}
