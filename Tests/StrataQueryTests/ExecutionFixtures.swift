import Foundation
import XCTest
@testable import StrataQuery
@testable import StrataObjects
import StrataStorage

/// A temporary directory removed when released.
final class ExecTempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-qx-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The engine schema of the execution tests: people with every kind of scalar, an indexed
/// string, a primary key, links, lists, sets and maps; dogs linking to people.
let execSchema = Schema([
    ObjectSchema(className: "Person", properties: [
        PropertySchema(name: "id", type: .int, isPrimaryKey: true),
        PropertySchema(name: "name", type: .string, isOptional: true),
        PropertySchema(name: "age", type: .int),
        PropertySchema(name: "score", type: .double, isOptional: true),
        PropertySchema(name: "weight", type: .float),
        PropertySchema(name: "active", type: .bool),
        PropertySchema(name: "born", type: .date),
        PropertySchema(name: "tag", type: .string, isIndexed: true),
        PropertySchema(name: "level", type: .int, isOptional: true, isIndexed: true),
        PropertySchema(name: "blob", type: .data, isOptional: true),
        PropertySchema(name: "oid", type: .objectId, isOptional: true),
        PropertySchema(name: "price", type: .decimal128, isOptional: true),
        PropertySchema(name: "extra", type: .mixed),
        PropertySchema(name: "best", type: .object, isOptional: true, objectClassName: "Person"),
        PropertySchema(name: "friends", type: .object, collection: .list, objectClassName: "Person"),
        PropertySchema(name: "nums", type: .int, collection: .list),
        PropertySchema(name: "labels", type: .string, collection: .set),
        PropertySchema(name: "counts", type: .int, collection: .map),
        PropertySchema(name: "dogs", type: .linkingObjects, objectClassName: "Dog", linkOriginPropertyName: "owner"),
    ]),
    ObjectSchema(className: "Dog", properties: [
        PropertySchema(name: "name", type: .string),
        PropertySchema(name: "age", type: .int),
        PropertySchema(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
    ]),
])

/// The plain-Swift model of a person, for oracle filtering.
struct ExecPerson {
    var id: Int64
    var name: String?
    var age: Int64
    var score: Double?
    var weight: Float
    var active: Bool
    var born: Int64        // whole seconds since 1970
    var tag: String
    var level: Int64?
    var blob: [UInt8]?
    var oid: ObjectId?
    var price: Decimal?
    var extra: Value
    var best: Int64?
    var friends: [Int64]
    var nums: [Int64]
    var labels: [String]
    var counts: [String: Int64]

    var values: [String: Value] {
        var v: [String: Value] = [
            "id": .int(id), "name": name.map { .string($0) } ?? .null, "age": .int(age),
            "score": score.map { .double($0) } ?? .null, "weight": .float(weight), "active": .bool(active),
            "born": .date(Date(timeIntervalSince1970: Double(born))), "tag": .string(tag),
            "level": level.map { .int($0) } ?? .null, "blob": blob.map { .data($0) } ?? .null,
            "oid": oid.map { .objectId($0) } ?? .null, "price": price.map { .decimal(Decimal128($0)) } ?? .null,
            "extra": extra,
        ]
        if let best { v["best"] = .object(ObjectLink(className: "Person", key: best)) }
        return v
    }
}

struct ExecWorld {
    var people: [ExecPerson] = []
    var dogs: [(name: String, age: Int64, owner: Int64?)] = []

    static let letters = ["a", "b", "B", "c", "é", "ab", "Bo", "ä", "z", "s", "ß", "\u{17F}", "K", "\u{212A}", "k"]

    static func randomName(_ rng: inout SeededRNG) -> String {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in letters.randomElement(using: &rng)! }.joined()
    }

    static func generate(seed: UInt64, people n: Int, dogs nd: Int = 0) -> ExecWorld {
        var rng = SeededRNG(seed: seed)
        var w = ExecWorld()
        // Sparse, shuffled primary keys so keys are not positions.
        // Sorted before the seeded shuffle: a Set's order changes from run to run.
        var ids = Array(Set((0..<n).map { _ in Int64.random(in: -50_000...50_000, using: &rng) })).sorted()
        while ids.count < n { ids.append(Int64(60_000 + ids.count)) }
        ids.shuffle(using: &rng)
        // Seeded ObjectIds (ObjectId.generate() would differ per run).
        let oids = (0..<5).map { _ in ObjectId(bytes: (0..<12).map { _ in UInt8.random(in: 0...255, using: &rng) })! }
        for i in 0..<n {
            let extra: Value
            switch Int.random(in: 0...5, using: &rng) {
            case 0: extra = .null
            case 1: extra = .int(Int64.random(in: -3...3, using: &rng))
            case 2: extra = .double(Double(Int.random(in: -8...8, using: &rng)) / 4)
            case 3: extra = .string(randomName(&rng))
            case 4: extra = .bool(Bool.random(using: &rng))
            default: extra = .date(Date(timeIntervalSince1970: Double(Int.random(in: 0...100, using: &rng))))
            }
            w.people.append(ExecPerson(
                id: ids[i],
                name: Int.random(in: 0...9, using: &rng) == 0 ? nil : randomName(&rng),
                age: Int64.random(in: 0..<100, using: &rng),
                score: Int.random(in: 0...7, using: &rng) == 0 ? nil
                    : (Int.random(in: 0...50, using: &rng) == 0 ? .nan : Double(Int.random(in: -400...400, using: &rng)) / 8),
                weight: Float(Int.random(in: 0...200, using: &rng)) / 4,
                active: Bool.random(using: &rng),
                born: Int64.random(in: -1_000_000_000...2_000_000_000, using: &rng),
                tag: ["red", "green", "blue", "", "Red"].randomElement(using: &rng)!,
                level: Bool.random(using: &rng) ? nil : Int64.random(in: -2...5, using: &rng),
                blob: Int.random(in: 0...3, using: &rng) == 0 ? nil : (0..<Int.random(in: 0...3, using: &rng)).map { _ in UInt8.random(in: 0...3, using: &rng) },
                oid: Bool.random(using: &rng) ? nil : oids.randomElement(using: &rng)!,
                price: Bool.random(using: &rng) ? nil : Decimal(Int.random(in: -100...100, using: &rng)) / 10,
                extra: extra,
                best: nil, friends: [],
                nums: (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int64.random(in: 0...10, using: &rng) },
                labels: Array(Set((0..<Int.random(in: 0...3, using: &rng)).map { _ in ["x", "y", "zz", "X"].randomElement(using: &rng)! })).sorted(),
                counts: Dictionary((0..<Int.random(in: 0...3, using: &rng)).map { _ in (["a", "b", "c"].randomElement(using: &rng)!, Int64.random(in: 0...9, using: &rng)) }, uniquingKeysWith: { a, _ in a })))
        }
        for i in 0..<n {
            if Int.random(in: 0...2, using: &rng) > 0 { w.people[i].best = ids.randomElement(using: &rng)! }
            w.people[i].friends = (0..<Int.random(in: 0...3, using: &rng)).map { _ in ids.randomElement(using: &rng)! }
        }
        for _ in 0..<nd {
            w.dogs.append((randomName(&rng), Int64.random(in: 0...15, using: &rng), Bool.random(using: &rng) ? ids.randomElement(using: &rng)! : nil))
        }
        return w
    }

    /// Writes the world into a new database (people first without links, then links).
    func write(to db: Database) throws {
        let t = try db.write()
        for p in people {
            var v = p.values
            v["best"] = nil
            try t.create("Person", values: v, collections: ["nums": p.nums.map { .int($0) }, "labels": p.labels.map { .string($0) }],
                         maps: ["counts": p.counts.map { ($0.key, .int($0.value)) }])
        }
        for p in people {
            if let b = p.best { try t.set("Person", p.id, "best", .object(ObjectLink(className: "Person", key: b))) }
            if !p.friends.isEmpty {
                try t.setList("Person", p.id, "friends", p.friends.map { .object(ObjectLink(className: "Person", key: $0)) })
            }
        }
        for d in dogs {
            var v: [String: Value] = ["name": .string(d.name), "age": .int(d.age)]
            if let o = d.owner { v["owner"] = .object(ObjectLink(className: "Person", key: o)) }
            try t.create("Dog", values: v)
        }
        try t.commit()
    }
}

/// Opens a fresh database holding `world`.
func makeExecDatabase(_ dir: ExecTempDir, _ world: ExecWorld, name: String = "q.strata") throws -> Database {
    let db = try Database(path: dir.path(name), options: StoreOptions(), schema: execSchema)
    try world.write(to: db)
    return db
}

/// Runs `query` with the executor and with the reference evaluator over the same transaction
/// and checks they agree; returns the executor's keys.
@discardableResult
func assertAgrees(_ txn: DBTransaction, _ className: String, _ query: String, _ args: [Any] = [],
                  file: StaticString = #filePath, line: UInt = #line) throws -> [ObjKey] {
    let executor = QueryExecutor(txn)
    let bound = try executor.compile(query, className: className, arguments: args)
    let fast = try executor.run(bound)
    let access = DBObjectAccess(txn)
    let all = try txn.objectKeys(className).map { ObjectLink(className: className, key: $0) }
    let reference = QueryEvaluator(access).run(bound, over: all).map(\.key)
    XCTAssertEqual(fast, reference, "query: \(query)", file: file, line: line)
    let count = try executor.count(bound)
    XCTAssertEqual(count, reference.count, "count of: \(query)", file: file, line: line)
    return fast
}
