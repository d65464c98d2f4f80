import CSQLite
import Foundation

/// The SQLite side of the benchmark, through SQLite's C API (the system `libsqlite3`).
///
/// Set-up, chosen to be a competent baseline with the durability Strata gives:
/// - **WAL journal mode** (`PRAGMA journal_mode=WAL`), the mode SQLite recommends for this kind
///   of use.
/// - **`PRAGMA synchronous=FULL`**: in WAL mode this fsyncs the WAL on every commit, so an
///   acknowledged commit survives power loss. Strata fsyncs on every commit (BRIEF §1), so this
///   is the matching durability. (`NORMAL` would be faster but can lose the last commits on power
///   loss, which Strata never does.)
/// - **Schema**: `id INTEGER PRIMARY KEY` (the rowid: the table's own B-tree is keyed by the
///   primary key, as Strata's objects are), `name TEXT`, `age INTEGER`, `score REAL`,
///   `active INTEGER`, all `NOT NULL`. **No index on `name` by default**: the Strata benchmark
///   model indexes only its primary key, and the index would have to be maintained by every
///   insert. The prefix predicate is written as the range `name >= 'B' AND name < 'C'` so
///   SQLite uses an index when `Configuration.indexName` is set (for a Strata model that marks
///   `name` as indexed); without the index it is a cheap byte comparison during the scan.
/// - **Prepared statements** are prepared once on open and reused; bulk work runs in one
///   transaction; the lookups run in one read transaction (one snapshot, as a Strata read would).
/// - Page cache and memory mapping are SQLite's defaults unless configured.
package final class SQLiteBenchEngine: BenchEngine {
    /// Tunables; the defaults are the configuration described above.
    package struct Configuration: Sendable, Hashable {
        /// Create an index on `name` (use when the Strata model indexes `name`).
        package var indexName: Bool
        /// `PRAGMA synchronous` value: "FULL" (default) or "NORMAL", "EXTRA", "OFF".
        package var synchronous: String
        /// `PRAGMA cache_size` in KiB; nil keeps SQLite's default (2 MiB).
        package var cacheSizeKiB: Int?
        /// `PRAGMA mmap_size` in bytes; nil keeps SQLite's default (0: no memory mapping).
        package var mmapSize: Int?

        /// Creates a configuration.
        package init(indexName: Bool = false, synchronous: String = "FULL",
                    cacheSizeKiB: Int? = nil, mmapSize: Int? = nil) {
            self.indexName = indexName
            self.synchronous = synchronous
            self.cacheSizeKiB = cacheSizeKiB
            self.mmapSize = mmapSize
        }
    }

    /// The file name of the database inside the run directory.
    package static let fileName = "bench.sqlite"

    /// Shown in the output, e.g. "SQLite".
    package let name: String
    /// The configuration in effect.
    package let configuration: Configuration

    private var connection: SQLiteConnection?
    private var directory: URL?
    private var statements: Statements?

    /// The statements reused by the workloads.
    private struct Statements {
        let begin: SQLiteStatement
        let beginImmediate: SQLiteStatement
        let commit: SQLiteStatement
        let insert: SQLiteStatement
        let countPrefix: SQLiteStatement
        let countAnyName: SQLiteStatement
        let sumAge: SQLiteStatement
        let lookup: SQLiteStatement
        let updateScore: SQLiteStatement
        let delete: SQLiteStatement
        let objectCount: SQLiteStatement

        var all: [SQLiteStatement] {
            [begin, beginImmediate, commit, insert, countPrefix, countAnyName, sumAge, lookup,
             updateScore, delete, objectCount]
        }
    }

    /// Creates the engine; nothing is opened until `open(directory:)`.
    package init(name: String = "SQLite", configuration: Configuration = Configuration()) {
        self.name = name
        self.configuration = configuration
    }

    /// The SQLite library version in use.
    package static var libraryVersion: String { SQLiteConnection.libraryVersion }

    private var databaseURL: URL? { directory?.appendingPathComponent(Self.fileName) }

    package func open(directory: URL) throws {
        try close()
        let url = directory.appendingPathComponent(Self.fileName)
        let connection = try SQLiteConnection(path: url.path)
        let mode = try connection.text("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw BenchError.sqlite(code: SQLITE_ERROR, message: "journal_mode is \(mode ?? "nil")",
                                    context: "enabling WAL")
        }
        let allowed = ["OFF", "NORMAL", "FULL", "EXTRA"]
        guard allowed.contains(configuration.synchronous.uppercased()) else {
            throw BenchError.invalidOptions("synchronous must be one of \(allowed)")
        }
        try connection.execute("PRAGMA synchronous=\(configuration.synchronous.uppercased())")
        if let kib = configuration.cacheSizeKiB {
            try connection.execute("PRAGMA cache_size=\(-kib)")
        }
        if let bytes = configuration.mmapSize {
            _ = try connection.text("PRAGMA mmap_size=\(bytes)")
        }
        try connection.execute("""
            CREATE TABLE objects(
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                age INTEGER NOT NULL,
                score REAL NOT NULL,
                active INTEGER NOT NULL)
            """)
        if configuration.indexName {
            try connection.execute("CREATE INDEX objects_name ON objects(name)")
        }
        statements = Statements(
            begin: try connection.prepare("BEGIN DEFERRED"),
            beginImmediate: try connection.prepare("BEGIN IMMEDIATE"),
            commit: try connection.prepare("COMMIT"),
            insert: try connection.prepare(
                "INSERT INTO objects(id, name, age, score, active) VALUES(?1, ?2, ?3, ?4, ?5)"),
            countPrefix: try connection.prepare(
                "SELECT count(*) FROM objects WHERE age BETWEEN ?1 AND ?2 AND name >= ?3 AND name < ?4"),
            countAnyName: try connection.prepare(
                "SELECT count(*) FROM objects WHERE age BETWEEN ?1 AND ?2"),
            sumAge: try connection.prepare("SELECT coalesce(sum(age), 0) FROM objects"),
            lookup: try connection.prepare("SELECT name, score FROM objects WHERE id = ?1"),
            updateScore: try connection.prepare("UPDATE objects SET score = ?2 WHERE id = ?1"),
            delete: try connection.prepare("DELETE FROM objects WHERE id = ?1"),
            objectCount: try connection.prepare("SELECT count(*) FROM objects"))
        self.connection = connection
        self.directory = directory
    }

    private func opened() throws -> (SQLiteConnection, Statements) {
        guard let connection, let statements else {
            throw BenchError.invalidOptions("the SQLite engine is not open")
        }
        return (connection, statements)
    }

    /// Runs `body` between BEGIN (IMMEDIATE for writes) and COMMIT; rolls back on error.
    private func transaction<T>(write: Bool, _ body: (Statements) throws -> T) throws -> T {
        let (connection, statements) = try opened()
        try (write ? statements.beginImmediate : statements.begin).run()
        do {
            let value = try body(statements)
            try statements.commit.run()
            return value
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    package func insert(_ rows: [BenchRow]) throws -> Int {
        try transaction(write: true) { statements in
            let insert = statements.insert
            for row in rows {
                try bind(row, to: insert)
                try insert.run()
            }
            return rows.count
        }
    }

    private func bind(_ row: BenchRow, to insert: SQLiteStatement) throws {
        try insert.bind(row.id, at: 1)
        try insert.bind(row.name, at: 2)
        try insert.bind(row.age, at: 3)
        try insert.bind(row.score, at: 4)
        try insert.bind(row.active ? 1 : 0, at: 5)
    }

    package func count(_ query: BenchCountQuery) throws -> Int {
        let (_, statements) = try opened()
        let statement: SQLiteStatement
        if query.namePrefix.isEmpty {
            statement = statements.countAnyName
        } else if let upper = Self.prefixUpperBound(query.namePrefix) {
            statement = statements.countPrefix
            try statement.bind(query.namePrefix, at: 3)
            try statement.bind(upper, at: 4)
        } else {
            // The prefix ends in U+10FFFF: no string bound exists; fall back to a general form.
            return try countWithSubstring(query)
        }
        try statement.bind(query.ageRange.lowerBound, at: 1)
        try statement.bind(query.ageRange.upperBound, at: 2)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }

    /// The smallest string greater than every string starting with `prefix`, in SQLite's BINARY
    /// (UTF-8 byte) order: the prefix with its last scalar incremented. Nil if no such string.
    static func prefixUpperBound(_ prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var value = last.value + 1
            if value == 0xD800 { value = 0xE000 }  // skip the surrogate range
            if let next = Unicode.Scalar(value) {
                scalars.append(next)
                var result = String.UnicodeScalarView()
                result.append(contentsOf: scalars)
                return String(result)
            }
        }
        return nil
    }

    private func countWithSubstring(_ query: BenchCountQuery) throws -> Int {
        let (connection, _) = try opened()
        let statement = try connection.prepare(
            "SELECT count(*) FROM objects WHERE age BETWEEN ?1 AND ?2 AND substr(name, 1, length(?3)) = ?3")
        defer { statement.finalize() }
        try statement.bind(query.ageRange.lowerBound, at: 1)
        try statement.bind(query.ageRange.upperBound, at: 2)
        try statement.bind(query.namePrefix, at: 3)
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }

    package func sumAge() throws -> Int {
        let (_, statements) = try opened()
        let statement = statements.sumAge
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }

    package func lookup(ids: [Int]) throws -> BenchChecksum {
        try transaction(write: false) { statements in
            let lookup = statements.lookup
            var checksum = BenchChecksum()
            for id in ids {
                try lookup.bind(id, at: 1)
                if try lookup.step(), let name = lookup.text(0) {
                    checksum.combine(name: name, score: lookup.double(1))
                } else {
                    checksum.combineMissing()
                }
                lookup.reset()
            }
            return checksum
        }
    }

    package func commit(_ operations: [BenchCommitOperation]) throws -> Int {
        var changed = 0
        for operation in operations {
            changed += try transaction(write: true) { statements in
                let (connection, _) = try opened()
                switch operation {
                case .insert(let row):
                    try bind(row, to: statements.insert)
                    try statements.insert.run()
                case .updateScore(let id, let score):
                    try statements.updateScore.bind(id, at: 1)
                    try statements.updateScore.bind(score, at: 2)
                    try statements.updateScore.run()
                }
                return connection.changes
            }
        }
        return changed
    }

    package func update(_ updates: [BenchScoreUpdate]) throws -> Int {
        try transaction(write: true) { statements in
            let (connection, _) = try opened()
            let statement = statements.updateScore
            var changed = 0
            for update in updates {
                try statement.bind(update.id, at: 1)
                try statement.bind(update.score, at: 2)
                try statement.run()
                changed += connection.changes
            }
            return changed
        }
    }

    package func delete(ids: [Int]) throws -> Int {
        try transaction(write: true) { statements in
            let (connection, _) = try opened()
            let statement = statements.delete
            var deleted = 0
            for id in ids {
                try statement.bind(id, at: 1)
                try statement.run()
                deleted += connection.changes
            }
            return deleted
        }
    }

    /// Moves everything from the WAL into the main file. `truncate`: the WAL file is cut to
    /// zero bytes; otherwise (RESTART) it keeps its size and the next commit writes it again
    /// from its start, as SQLite reuses its WAL in an app's steady state.
    private func checkpoint(truncate: Bool) throws {
        let (connection, _) = try opened()
        let mode = truncate ? "TRUNCATE" : "RESTART"
        let statement = try connection.prepare("PRAGMA wal_checkpoint(\(mode))")
        defer { statement.finalize() }
        guard try statement.step(), statement.int(0) == 0 else {
            throw BenchError.sqlite(code: SQLITE_BUSY, message: "checkpoint could not complete",
                                    context: "PRAGMA wal_checkpoint(\(mode))")
        }
    }

    /// The main file after a checkpoint that leaves the WAL in place (every frame of it is then in
    /// the main file, and the next commit overwrites it from its start): the bytes of the data.
    /// Not truncating matters for the workloads that follow — a truncated WAL would make every
    /// later small commit grow the WAL file, a cost SQLite does not have once its WAL exists.
    package func fileSize() throws -> Int {
        try checkpoint(truncate: false)
        return try Self.totalSize(of: Array(databaseFiles().prefix(1)))
    }

    /// `VACUUM` rebuilds the database densely (through the WAL in WAL mode); the truncating
    /// checkpoint then writes it into the main file, which is what makes the file small, and
    /// leaves no WAL for the copy reference to copy.
    package func compact() throws -> Int {
        let (connection, _) = try opened()
        try connection.execute("VACUUM")
        try checkpoint(truncate: true)
        return try Self.totalSize(of: databaseFiles())
    }

    package func objectCount() throws -> Int {
        let (_, statements) = try opened()
        let statement = statements.objectCount
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }

    package func close() throws {
        statements?.all.forEach { $0.finalize() }
        statements = nil
        try connection?.close()
        connection = nil
    }

    /// The main file and the WAL (the WAL is empty after `close()`, which checkpoints it).
    package func databaseFiles() -> [URL] {
        guard let url = databaseURL else { return [] }
        return [url, URL(fileURLWithPath: url.path + "-wal")]
    }

    /// Sum of the sizes of the files that exist.
    static func totalSize(of files: [URL]) throws -> Int {
        var total = 0
        for file in files where FileManager.default.fileExists(atPath: file.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            total += (attributes[.size] as? NSNumber)?.intValue ?? 0
        }
        return total
    }
}
