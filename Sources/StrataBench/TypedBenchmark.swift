import Foundation
import StrataObjects

/// The benchmark row as an app declares it with the typed API (RealmSwift style).
final class BenchTypedItem: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var name: String
    @Persisted var age: Int
    @Persisted var score: Double
    @Persisted var active: Bool

    override class func className() -> String { "Item" }

    convenience init(_ row: BenchRow) {
        self.init()
        id = row.id; name = row.name; age = row.age; score = row.score; active = row.active
    }
}

/// The typed workloads (`typedInsert`, `typedIterate`, `typedLookup`, `typedCommit`) of one
/// engine. They run on a database of their own (a fresh directory per repetition), after the
/// dynamic workloads: the engine under test uses the typed API (`Object` subclasses,
/// `realm.add`, `Results`, `object(ofType:forPrimaryKey:)`, property setters in `write`);
/// the SQLite baseline runs the same work through its prepared statements.
package protocol TypedBenchEngine: AnyObject {
    /// Creates an empty database in `directory` (which exists and is empty) and opens it.
    func open(directory: URL) throws
    /// Adds all `rows` as objects in one write transaction; returns how many.
    func typedInsert(_ rows: [BenchRow]) throws -> Int
    /// Reads `age` of every object in key order; returns the sum.
    func typedIterate() throws -> Int
    /// Looks up each primary key, reads `name` and `score` (as `BenchEngine.lookup`).
    func typedLookup(ids: [Int]) throws -> BenchChecksum
    /// One durable write transaction per operation (as `BenchEngine.commit`).
    func typedCommit(_ operations: [BenchCommitOperation]) throws -> Int
    /// Closes the database.
    func close() throws
}

/// Strata's typed API: `Realm`, `BenchTypedItem`.
package final class StrataTypedBenchEngine: TypedBenchEngine {
    private var realm: Realm?

    /// Creates the engine; nothing is opened until `open(directory:)`.
    package init() {}

    private func opened() throws -> Realm {
        guard let realm else { throw BenchError.invalidOptions("the typed Strata realm is not open") }
        return realm
    }

    package func open(directory: URL) throws {
        let config = Realm.Configuration(fileURL: directory.appendingPathComponent("typed.strata"),
                                         objectTypes: [BenchTypedItem.self])
        realm = try Realm(configuration: config)
    }

    package func typedInsert(_ rows: [BenchRow]) throws -> Int {
        let realm = try opened()
        try realm.write {
            for row in rows { realm.add(BenchTypedItem(row)) }
        }
        return rows.count
    }

    package func typedIterate() throws -> Int {
        var sum = 0
        for item in try opened().objects(BenchTypedItem.self) { sum &+= item.age }
        return sum
    }

    package func typedLookup(ids: [Int]) throws -> BenchChecksum {
        let realm = try opened()
        var sum = BenchChecksum()
        for id in ids {
            if let item = realm.object(ofType: BenchTypedItem.self, forPrimaryKey: id) {
                sum.combine(name: item.name, score: item.score)
            } else {
                sum.combineMissing()
            }
        }
        return sum
    }

    package func typedCommit(_ operations: [BenchCommitOperation]) throws -> Int {
        let realm = try opened()
        var changed = 0
        for op in operations {
            try realm.write {
                switch op {
                case .insert(let row):
                    realm.add(BenchTypedItem(row)); changed += 1
                case .updateScore(let id, let score):
                    if let item = realm.object(ofType: BenchTypedItem.self, forPrimaryKey: id) { item.score = score; changed += 1 }
                }
            }
        }
        return changed
    }

    package func close() throws {
        realm?.invalidate()
        realm = nil
    }
}

/// The SQLite reference of the typed workloads: a `SQLiteBenchEngine` on its own file (prepared
/// insert, lookup and commit statements), and for iteration a step loop over `SELECT age`.
package final class SQLiteTypedBenchEngine: TypedBenchEngine {
    private let engine: SQLiteBenchEngine
    private var reader: SQLiteConnection?
    private var iterate: SQLiteStatement?

    /// Creates the reference with the configuration of the baseline engine.
    package init(configuration: SQLiteBenchEngine.Configuration = .init()) {
        engine = SQLiteBenchEngine(name: "SQLite (typed reference)", configuration: configuration)
    }

    package func open(directory: URL) throws {
        try engine.open(directory: directory)
        let connection = try SQLiteConnection(path: directory.appendingPathComponent(SQLiteBenchEngine.fileName).path)
        iterate = try connection.prepare("SELECT age FROM objects ORDER BY id")
        reader = connection
    }

    package func typedInsert(_ rows: [BenchRow]) throws -> Int { try engine.insert(rows) }

    package func typedIterate() throws -> Int {
        guard let iterate else { throw BenchError.invalidOptions("the SQLite typed reference is not open") }
        defer { iterate.reset() }
        var sum = 0
        while try iterate.step() { sum &+= iterate.int(0) }
        return sum
    }

    package func typedLookup(ids: [Int]) throws -> BenchChecksum { try engine.lookup(ids: ids) }

    package func typedCommit(_ operations: [BenchCommitOperation]) throws -> Int { try engine.commit(operations) }

    package func close() throws {
        iterate?.finalize(); iterate = nil
        try reader?.close(); reader = nil
        try engine.close()
    }
}

extension BenchWorkload {
    /// True for the workloads of the typed API (run by a `TypedBenchEngine`).
    package var isTyped: Bool {
        switch self {
        case .typedInsert, .typedIterate, .typedLookup, .typedCommit: return true
        default: return false
        }
    }
}

extension BenchRunner {
    /// The typed counterpart of `engine`: the typed API for Strata's engine, SQLite's prepared
    /// statements for any other (the baseline, and the SQLite engines of the harness tests).
    package static func typedEngine(for engine: any BenchEngine) -> any TypedBenchEngine {
        if engine is StrataBenchEngine { return StrataTypedBenchEngine() }
        if let sqlite = engine as? SQLiteBenchEngine { return SQLiteTypedBenchEngine(configuration: sqlite.configuration) }
        return SQLiteTypedBenchEngine()
    }

    /// Runs one typed workload on `engine` with `dataset`'s inputs and returns its value.
    package static func performTyped(_ workload: BenchWorkload, on engine: any TypedBenchEngine,
                                     dataset: BenchDataset) throws -> BenchValue {
        switch workload {
        case .typedInsert: return .int(try engine.typedInsert(dataset.rows))
        case .typedIterate: return .int(try engine.typedIterate())
        case .typedLookup: return .checksum(try engine.typedLookup(ids: dataset.lookupIDs))
        case .typedCommit: return .int(try engine.typedCommit(dataset.commitOperations))
        default: throw BenchError.invalidOptions("\(workload) is not a typed workload")
        }
    }

    /// The expected values of the typed workloads (the typed database holds only the bulk rows
    /// while inserting, iterating and looking up; the commits come last).
    package static func typedExpected(_ dataset: BenchDataset, oracle: BenchOracle) -> [BenchWorkload: BenchValue] {
        [.typedInsert: .int(dataset.rows.count),
         .typedIterate: oracle.expected[.sum] ?? .int(dataset.rows.reduce(0) { $0 + $1.age }),
         .typedLookup: oracle.expected[.lookup] ?? .int(0),
         .typedCommit: .int(dataset.commitOperations.count)]
    }
}
