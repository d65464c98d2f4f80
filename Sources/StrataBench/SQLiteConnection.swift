import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies bound text before the bind call returns.
private var sqliteTransient: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
}

/// A thin owner of one `sqlite3*` connection (C API), used only by `SQLiteBenchEngine`.
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?

    /// Opens (creating if needed) the database file at `path`.
    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw BenchError.sqlite(code: code, message: message, context: "opening \(path)")
        }
        handle = db
    }

    deinit {
        if let handle { sqlite3_close_v2(handle) }
    }

    /// The SQLite library version, e.g. "3.40.1".
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// Runs one or more statements that return no rows the caller needs.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(errorMessage)
            throw BenchError.sqlite(code: code, message: message, context: "executing \(sql)")
        }
    }

    /// Runs a statement expected to return a single text value (e.g. `PRAGMA journal_mode=WAL`).
    func text(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        defer { statement.finalize() }
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Prepares a statement for repeated use.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw error(code, "preparing \(sql)")
        }
        return SQLiteStatement(statement, connection: self, sql: sql)
    }

    /// Number of rows changed by the most recent INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// An error for `code` with the connection's current message.
    func error(_ code: Int32, _ context: String) -> BenchError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed connection"
        return BenchError.sqlite(code: code, message: message, context: context)
    }

    /// Closes the connection; all statements must have been finalized.
    func close() throws {
        guard let handle else { return }
        let code = sqlite3_close(handle)
        if code != SQLITE_OK { throw error(code, "closing the database") }
        self.handle = nil
    }
}

/// A prepared statement, reset and rebound between uses.
final class SQLiteStatement {
    private var handle: OpaquePointer?
    private unowned let connection: SQLiteConnection
    private let sql: String

    fileprivate init(_ handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Releases the statement (required before closing the connection).
    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Binds an integer to the 1-based parameter `index`.
    @inline(__always)
    func bind(_ value: Int, at index: Int32) throws {
        let code = sqlite3_bind_int64(handle, index, sqlite3_int64(value))
        if code != SQLITE_OK { throw connection.error(code, "binding parameter \(index) of \(sql)") }
    }

    /// Binds a double.
    @inline(__always)
    func bind(_ value: Double, at index: Int32) throws {
        let code = sqlite3_bind_double(handle, index, value)
        if code != SQLITE_OK { throw connection.error(code, "binding parameter \(index) of \(sql)") }
    }

    /// Binds text (SQLite copies it).
    @inline(__always)
    func bind(_ value: String, at index: Int32) throws {
        var value = value
        let code = value.withUTF8 { bytes -> Int32 in
            // An empty buffer may have no base address, which SQLite would bind as NULL.
            let base = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)!
            return sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self),
                                     Int32(bytes.count), sqliteTransient)
        }
        if code != SQLITE_OK { throw connection.error(code, "binding parameter \(index) of \(sql)") }
    }

    /// Advances; returns true when a row is available, false when done.
    @inline(__always)
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code, "running \(sql)")
        }
    }

    /// Runs a statement that returns no rows, then resets it.
    @inline(__always)
    func run() throws {
        defer { reset() }
        while try step() {}
    }

    /// Resets the statement so it can run again (bindings are kept).
    @inline(__always)
    func reset() {
        sqlite3_reset(handle)
    }

    /// The integer in column `index` (0-based) of the current row.
    @inline(__always)
    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// The double in column `index`.
    @inline(__always)
    func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Whether column `index` is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// The text in column `index` as a Swift string (nil for NULL).
    @inline(__always)
    func text(_ index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
