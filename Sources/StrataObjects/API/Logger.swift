import Foundation
import StrataStorage

/// Where Strata's log messages go (RealmSwift's `Logger`, also `Realm.Logger`).
///
/// ```swift
/// Logger.shared = Logger(level: .info) { level, message in print("[\(level)] \(message)") }
/// Logger.shared.level = .debug
/// ```
/// Strata logs through it: failures to open a realm (`.detail`: they are thrown as well), realms opened with
/// `asyncOpen`/`open` and migrations run by `performMigration` (`.info`). Messages below
/// `level` are dropped before being formatted.
public final class Logger: @unchecked Sendable {
    /// Levels, from nothing to everything.
    public enum Level: Int, Comparable, Sendable, CustomStringConvertible {
        /// Nothing is logged.
        case off
        /// Errors the program cannot continue after.
        case fatal
        /// Failed operations.
        case error
        /// Something unexpected that did not fail.
        case warn
        /// Opening realms, running migrations.
        case info
        /// More detail on each operation, including errors that are also thrown.
        case detail
        /// What a developer debugging Strata wants to see.
        case debug
        /// Everything, at the finest grain.
        case trace
        /// Every message.
        case all
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        public var description: String {
            ["off", "fatal", "error", "warn", "info", "detail", "debug", "trace", "all"][rawValue]
        }
    }

    private let lock = NSLock()
    private var _level: Level
    private let function: (Level, String) -> Void

    /// A logger calling `logFunction` for each message at `level` or more important.
    public init(level: Level, logFunction: @escaping (Level, String) -> Void) {
        _level = level; function = logFunction
    }

    /// The least important level logged.
    public var level: Level {
        get { lock.lock(); defer { lock.unlock() }; return _level }
        set { lock.lock(); _level = newValue; lock.unlock() }
    }

    /// Logs `message` when `level` is enabled.
    public func log(level: Level, message: @autoclosure () -> String) {
        guard level != .off, level <= self.level else { return }
        function(level, message())
    }

    private static let sharedLogger = Locked(Logger(level: .warn, logFunction: writeToStandardError))

    /// The default log function: `Strata [level]: message` on standard error (dropped when it
    /// cannot be written: `writeStandardError`).
    static func writeToStandardError(_ level: Level, _ message: String) {
        writeStandardError("Strata [\(level)]: \(message)\n")
    }
    /// The logger Strata uses (default: warnings and errors to standard error).
    public static var shared: Logger {
        get { sharedLogger.with { $0 } }
        set { sharedLogger.with { $0 = newValue } }
    }
}

extension Realm {
    /// RealmSwift's spelling `Realm.Logger`.
    public typealias Logger = StrataObjects.Logger
}
