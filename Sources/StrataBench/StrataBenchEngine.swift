import Foundation
import StrataObjects
import StrataStorage
import StrataQuery

/// The Strata side of the benchmark: one class `Item` (Int primary key = object key, String
/// name, Int age, Double score, Bool active) written and read through the object layer.
package final class StrataBenchEngine: BenchEngine {
    package let name: String
    private var db: Database?
    private var path: String?
    /// The 64-byte key of an encrypted bench file (nil: plain).
    private let encryptionKey: [UInt8]?
    /// The key of the `encryptedCommit` workload's file (fixed: the bench needs no secret).
    package static let benchKey: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    static let schema = Schema([ObjectSchema(className: "Item", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true),
        PropertySchema(name: "name", type: .string),
        PropertySchema(name: "age", type: .int),
        PropertySchema(name: "score", type: .double),
        PropertySchema(name: "active", type: .bool),
    ])])

    /// Creates the engine; with `encryptionKey` its files are encrypted.
    package init(encryptionKey: [UInt8]? = nil) {
        self.encryptionKey = encryptionKey
        name = encryptionKey == nil ? "Strata" : "Strata (encrypted)"
    }

    private func opened() throws -> Database {
        guard let db else { throw BenchError.invalidOptions("the Strata database is not open") }
        return db
    }

    package func open(directory: URL) throws {
        let p = directory.appendingPathComponent("bench.strata").path
        path = p
        var options = StoreOptions()
        options.encryptionKey = encryptionKey
        db = try Database(path: p, options: options, schema: Self.schema)
    }

    private static func row(_ r: BenchRow) -> [Value] {
        [.int(Int64(r.id)), .string(r.name), .int(Int64(r.age)), .double(r.score), .bool(r.active)]
    }

    package func insert(_ rows: [BenchRow]) throws -> Int {
        let w = try opened().write(label: "bench insert")
        try w.appendObjects("Item", count: rows.count, columns: [
            "id": .ints(rows.map { Int64($0.id) }), "name": .strings(rows.map(\.name)),
            "age": .ints(rows.map { Int64($0.age) }), "score": .doubles(rows.map(\.score)),
            "active": .bools(rows.map(\.active)),
        ])
        try w.commit()
        return rows.count
    }

    /// Through the query language, as an application would ask it.
    package func count(_ query: BenchCountQuery) throws -> Int {
        let r = try opened().read()
        defer { r.end() }
        return try r.count("Item", where: "age BETWEEN {$0, $1} AND name BEGINSWITH $2",
                           query.ageRange.lowerBound, query.ageRange.upperBound, query.namePrefix)
    }

    package func sumAge() throws -> Int {
        let r = try opened().read()
        defer { r.end() }
        var s: Int64 = 0
        try r.forEachCluster("Item") { c in s &+= try c.column("age").sumInts(); return true }
        return Int(s)
    }

    package func lookup(ids: [Int]) throws -> BenchChecksum {
        let r = try opened().read()
        defer { r.end() }
        var sum = BenchChecksum()
        let scoreColumn = try r.columnIndex("Item", "score"), nameColumn = try r.columnIndex("Item", "name")
        for id in ids {
            if let (c, row) = try r.locateObject("Item", Int64(id)) {
                let scores = try c.column(at: scoreColumn), names = try c.column(at: nameColumn)
                var fetch = c.rowFetch()
                fetch.touch(scores, row); fetch.touch(names, row); fetch.finish()
                let score = scores.double(row)
                names.withBytes(row) { b in
                    sum.combine(nameUTF8: b.bindMemory(to: UInt8.self), score: score)
                }
            } else {
                sum.combineMissing()
            }
        }
        return sum
    }

    package func commit(_ operations: [BenchCommitOperation]) throws -> Int {
        let db = try opened()
        var changed = 0
        for op in operations {
            let w = try db.write(label: "bench commit")
            switch op {
            case .insert(let row): try w.insertRow("Item", Self.row(row)); changed += 1
            case .updateScore(let id, let score):
                if try w.exists("Item", Int64(id)) { try w.set("Item", Int64(id), "score", .double(score)); changed += 1 }
            }
            try w.commit()
        }
        return changed
    }

    package func update(_ updates: [BenchScoreUpdate]) throws -> Int {
        let w = try opened().write(label: "bench update")
        var changed = 0
        for u in updates where try w.exists("Item", Int64(u.id)) {
            try w.set("Item", Int64(u.id), "score", .double(u.score)); changed += 1
        }
        try w.commit()
        return changed
    }

    package func delete(ids: [Int]) throws -> Int {
        let w = try opened().write(label: "bench delete")
        // Like SQLite's `DELETE ... WHERE id = ?`, ids with no object are skipped. The delete
        // looks every key up anyway and changes nothing when one is missing, so the ids are
        // filtered (a second lookup each) only when it reports one.
        var keys = ids.map { Int64($0) }
        do {
            try w.delete("Item", keys: keys)
        } catch ObjectError.noSuchObject {
            keys = try keys.filter { try w.exists("Item", $0) }
            try w.delete("Item", keys: keys)
        }
        try w.commit()
        return keys.count
    }

    package func fileSize() throws -> Int { Int(try opened().store.fileSize()) }

    /// Where the last `compact()` spent its time.
    package private(set) var lastCompactionPhases: CompactionPhases?

    package func compact() throws -> Int {
        let db = try opened()
        lastCompactionPhases = try db.store.compact().phases
        return Int(try db.store.fileSize())
    }

    package func objectCount() throws -> Int {
        let r = try opened().read()
        defer { r.end() }
        return try r.count("Item")
    }

    package func close() throws {
        db?.close()
        db = nil
    }

    package func databaseFiles() -> [URL] { path.map { [URL(fileURLWithPath: $0)] } ?? [] }
}

/// The engine `strata bench` runs against SQLite.
package func makeStrataBenchEngine() -> any BenchEngine { StrataBenchEngine() }
