import Foundation
import StrataTooling
#if canImport(Glibc)
import Glibc
#endif

/// Where a command's output goes: text for standard output (buffered; a failed write is a
/// `CLIError` with exit 7, so `strata info FILE > /dev/full` fails) and one-line notes for
/// standard error. `StandardOutput` is the process's; tests pass a buffer.
protocol CommandOutput: AnyObject {
    /// Appends text to the output.
    func write(_ text: String) throws
    /// Writes a line to standard error (warnings, "creating…" notes); never fails.
    func note(_ text: String)
    /// Writes out what is buffered; throws `CLIError` (exit 7) when the output cannot take it.
    func flush() throws
}

extension CommandOutput {
    func line(_ text: String = "") throws { try write(text + "\n") }
    func json(_ value: JSON) throws { try line(value.render()) }
    /// Prints a report: its JSON document, or its lines.
    func print(_ report: CommandReport, json: Bool) throws {
        if json { try self.json(report.json) } else { for l in report.lines { try line(l) } }
    }
}

/// A buffered writer to a file descriptor: flushes every 64 KiB and on `flush()`.
class FileDescriptorOutput: CommandOutput {
    private var buffer: [UInt8] = []
    let fd: Int32
    private let closeAtEnd: Bool

    init(fd: Int32, closeAtEnd: Bool) {
        self.fd = fd
        self.closeAtEnd = closeAtEnd
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func note(_ text: String) { printError(text) }

    func flush() throws {
        var offset = 0
        defer { buffer.removeAll(keepingCapacity: true) }
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader went away (`strata export … | head`): stop quietly, like `cat`.
                if errno == EPIPE { throw CLIError("", code: 141) }
                throw CLIError("writing the output failed: \(String(cString: strerror(errno)))", code: ExitCode32.io)
            }
            offset += n
        }
    }

    /// Flushes, and closes a descriptor this writer opened.
    func close() throws {
        try flush()
        if closeAtEnd && Glibc.close(fd) != 0 {
            throw CLIError("writing the output failed: \(String(cString: strerror(errno)))", code: ExitCode32.io)
        }
    }
}

/// The process's standard output (and standard error for notes).
final class StandardOutput: FileDescriptorOutput {
    init() { super.init(fd: STDOUT_FILENO, closeAtEnd: false) }
}
