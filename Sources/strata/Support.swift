import Foundation
import Strata
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
    /// Refused: the destination exists, the file is in use elsewhere, or it is read-only.
    static let refused: Int32 = 5
    /// Encryption: an unreadable or malformed key file, or encryption not available.
    static let encryption: Int32 = 6
    /// Input/output failure (disk full, permissions) or another engine error.
    static let io: Int32 = 7
}

/// Maps any error of the engine to a `CLIError` (one line, what to do, an exit code).
func cliError(_ error: Error) -> CLIError {
    if let e = error as? CLIError { return e }
    if let e = error as? StorageError {
        switch e {
        case .fileNotFound, .notADatabase, .unsupportedFormat, .corrupted, .badLockFile: return CLIError(e.description, code: ExitCode32.badFile)
        case .fileInUse, .readOnly: return CLIError(e.description, code: ExitCode32.refused)
        case .invalidEncryptionKey, .encryptionKeyRequired, .wrongEncryptionKey, .notEncrypted: return CLIError(e.description, code: ExitCode32.encryption)
        default: return CLIError(e.description, code: ExitCode32.io)
        }
    }
    if let e = error as? CompactionError {
        switch e {
        case .destinationExists, .notWritable, .readTransactionsOpen, .writeTransactionInProgress: return CLIError(e.description, code: ExitCode32.refused)
        case .reopenFailed: return CLIError(e.description, code: ExitCode32.io)
        }
    }
    if let e = error as? SchemaError {
        switch e {
        case .noSuchClass, .noSuchProperty: return CLIError(e.description, code: ExitCode32.badInput)
        case .invalid(let detail) where detail.contains("damaged"): return CLIError(e.description + "; run 'strata check'", code: ExitCode32.badFile)
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

/// Writes to stderr.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Buffered stdout for large outputs (export, query): flushes every 64 KiB and at the end.
final class OutputStream {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let closeAtEnd: Bool

    init(path: String?) throws {
        if let path, path != "-" {
            if FileManager.default.fileExists(atPath: path) {
                // Export writes a new file each time (like `>`).
                unlink(path)
            }
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw CLIError("\(path): cannot create the output file (\(String(cString: strerror(errno)))); check the directory and permissions", code: ExitCode32.io) }
            closeAtEnd = true
        } else {
            fd = STDOUT_FILENO
            closeAtEnd = false
        }
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let n = buffer[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                // The reader went away (`strata export … | head`): stop quietly, like `cat`.
                if errno == EPIPE { Glibc.exit(141) }
                throw CLIError("writing the output failed: \(String(cString: strerror(errno)))", code: ExitCode32.io)
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if closeAtEnd { Glibc.close(fd) }
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
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(bar) \(Int(fraction * 100))% \(label)".utf8))
        drawn = true
    }

    func finish() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        drawn = false
    }
}

/// The key given with --encryption-key-file (or typed at the browser's prompt), for this process.
enum EncryptionKeyHolder {
    nonisolated(unsafe) static var key: [UInt8]?
}

/// Opens a database for a command. Missing files are refused (never created).
func openDatabase(_ path: String, readOnly: Bool, label: String = "strata") throws -> Database {
    guard FileManager.default.fileExists(atPath: path) else {
        throw CLIError("\(path): no such file; check the path (create a demo database with 'strata demo \(path)')", code: ExitCode32.badFile)
    }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        throw CLIError("\(path) is a directory, not a Strata database; give the path of a .strata file", code: ExitCode32.badFile)
    }
    var options = StoreOptions()
    options.create = false
    options.readOnly = readOnly
    options.label = label
    options.encryptionKey = EncryptionKeyHolder.key
    do {
        return try Database(path: path, options: options)
    } catch {
        throw cliError(error)
    }
}

// MARK: JSON

/// A JSON value that keeps object keys in the order given (stable output for scripts).
indirect enum JSON {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func int<T: BinaryInteger>(_ v: T) -> JSON { .integer(Int64(v)) }

    func render(indent: Int = 0, pretty: Bool = true) -> String {
        var out = ""
        render(into: &out, indent: indent, pretty: pretty)
        return out
    }

    func render(into out: inout String, indent: Int, pretty: Bool) {
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let end = pretty ? String(repeating: "  ", count: indent) : ""
        let nl = pretty ? "\n" : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .integer(let i): out += String(i)
        case .double(let d): out += d.isFinite ? "\(d)" : "null"
        case .string(let s): out += JSON.quote(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            for (i, item) in items.enumerated() {
                out += pad
                item.render(into: &out, indent: indent + 1, pretty: pretty)
                out += (i < items.count - 1 ? "," : "") + nl
            }
            out += end + "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (i, (key, value)) in fields.enumerated() {
                out += pad + JSON.quote(key) + (pretty ? ": " : ":")
                value.render(into: &out, indent: indent + 1, pretty: pretty)
                out += (i < fields.count - 1 ? "," : "") + nl
            }
            out += end + "}"
        }
    }

    /// A JSON string literal.
    static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += String(format: "\\u%04x", scalar.value) }
                else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}

func printJSON(_ json: JSON) {
    print(json.render())
}

/// `2024-05-01T12:30:05.000Z`.
func isoTime(_ date: Date) -> String { ValueConversion.isoDate(date) }

/// Pads to a display width (wide characters count twice).
func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let w = DisplayWidth.of(s)
    if w >= width { return s }
    let fill = String(repeating: " ", count: width - w)
    return right ? fill + s : s + fill
}

/// `1.2 MiB (1,234,567 bytes)`.
func bytesText(_ n: Int64) -> String {
    n < 1024 ? "\(n) bytes" : "\(Formatting.bytes(n)) (\(Formatting.number(n)) bytes)"
}
