import XCTest
import Foundation
@testable import StrataObjects
@testable import StrataStorage

/// Random object operations (create, update, delete, list and map changes, links, aborts)
/// checked against a plain in-memory model after every transaction, with the storage
/// integrity check along the way.
final class ObjectPropertyTests: XCTestCase {
    struct PersonModel: Equatable { var name: String; var age: Int64; var score: Double?; var dogs: [ObjKey]; var tags: [String]; var scores: [String: Int64] }
    struct DogModel: Equatable { var name: String; var owner: ObjKey? }

    /// The seed of the running test, added to every failure message.
    private var seedNote: String?
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        super.recordFailure(withDescription: description + (seedNote.map { " [\($0)]" } ?? ""), inFile: filePath, atLine: lineNumber, expected: expected)
    }

    func testRandomOperationsAgainstModel() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("p.strata"), schema: testSchema)
        // Choices come from sorted keys (dictionary order differs per run) and seeded ObjectIds,
        // so the seed reproduces the run.
        let seed: UInt64 = 77
        seedNote = "seed \(seed)"
        var rng = SplitMix64(seed: seed)
        var people: [ObjKey: PersonModel] = [:]
        var dogs: [ObjKey: DogModel] = [:]
        var dogIds: [ObjKey: ObjectId] = [:]
        func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        for step in 0..<250 {
            let w = try db.write()
            var p2 = people, d2 = dogs, ids2 = dogIds
            for _ in 0..<(1 + rand(30)) {
                switch rand(10) {
                case 0, 1, 2:
                    let id = Int64(rand(5000))
                    if p2[id] != nil { continue }
                    let name = ["Ann", "Bo", "Cé", "李", "🐙"][rand(5)] + String(rand(100))
                    try w.create("Person", values: ["id": .int(id), "name": .string(name), "age": .int(id % 90)])
                    p2[id] = PersonModel(name: name, age: id % 90, score: nil, dogs: [], tags: [], scores: [:])
                case 3:
                    let oid = ObjectId(bytes: (0..<12).map { _ in UInt8(truncatingIfNeeded: rng.next()) })!
                    let k = try w.create("Dog", values: ["oid": .objectId(oid), "name": .string("dog\(rand(50))")])
                    d2[k] = DogModel(name: try w.value("Dog", k, "name").description, owner: nil)
                    ids2[k] = oid
                case 4:
                    guard let id = p2.keys.sorted().randomElement(using: &rng) else { continue }
                    let s = rand(3) == 0 ? nil : Double(rand(1000)) / 4
                    try w.set("Person", id, "score", s.map { .double($0) } ?? .null)
                    p2[id]!.score = s
                case 5:
                    guard let id = p2.keys.sorted().randomElement(using: &rng) else { continue }
                    let ds = Array(d2.keys.sorted().shuffled(using: &rng).prefix(rand(4)))
                    try w.setList("Person", id, "dogs", ds.map { .object(ObjectLink(className: "Dog", key: $0)) })
                    p2[id]!.dogs = ds
                case 6:
                    guard let id = p2.keys.sorted().randomElement(using: &rng) else { continue }
                    let tags = (0..<rand(4)).map { _ in "t\(rand(5))" }
                    try w.setList("Person", id, "tags", tags.map { .string($0) })
                    var seen = Set<String>(); p2[id]!.tags = tags.filter { seen.insert($0).inserted }
                    var m: [String: Int64] = [:]
                    for _ in 0..<rand(3) { let k = "k\(rand(4))"; if m[k] == nil { m[k] = Int64(rand(9)) } }
                    try w.setMap("Person", id, "scores", m.map { ($0.key, Value.int($0.value)) })
                    p2[id]!.scores = m
                case 7:
                    guard let dk = d2.keys.sorted().randomElement(using: &rng) else { continue }
                    let owner = p2.keys.sorted().randomElement(using: &rng)
                    try w.set("Dog", dk, "owner", owner.map { .object(ObjectLink(className: "Person", key: $0)) } ?? .null)
                    d2[dk]!.owner = owner
                case 8:
                    guard let id = p2.keys.sorted().randomElement(using: &rng) else { continue }
                    try w.delete("Person", id)
                    p2[id] = nil
                    for (k, d) in d2 where d.owner == id { d2[k]!.owner = nil }
                default:
                    guard let dk = d2.keys.sorted().randomElement(using: &rng) else { continue }
                    try w.delete("Dog", dk)
                    d2[dk] = nil; ids2[dk] = nil
                    for (k, p) in p2 where p.dogs.contains(dk) { p2[k]!.dogs.removeAll { $0 == dk } }
                }
            }
            if rand(8) == 0 { w.abort() } else {
                try w.commit()
                people = p2; dogs = d2; dogIds = ids2
            }
            // Compare everything.
            let r = try db.read()
            XCTAssertEqual(try r.count("Person"), people.count, "step \(step)")
            XCTAssertEqual(try r.count("Dog"), dogs.count, "step \(step)")
            XCTAssertEqual(Set(try r.objectKeys("Person")), Set(people.keys))
            for (id, m) in people {
                let v = try r.values("Person", id)
                XCTAssertEqual(v["name"], .string(m.name)); XCTAssertEqual(v["age"], .int(m.age))
                XCTAssertEqual(v["score"], m.score.map { .double($0) } ?? .null)
                XCTAssertEqual(try r.list("Person", id, "dogs"), m.dogs.map { .object(ObjectLink(className: "Dog", key: $0)) })
                XCTAssertEqual(try r.list("Person", id, "tags"), m.tags.map { .string($0) })
                XCTAssertEqual(Dictionary(uniqueKeysWithValues: try r.map("Person", id, "scores").map { ($0.key, $0.value) }), m.scores.mapValues { .int($0) })
                XCTAssertEqual(try r.indexLookup("Person", "name", .string(m.name)).contains(id), true)
            }
            for (k, d) in dogs {
                XCTAssertEqual(try r.value("Dog", k, "owner"), d.owner.map { .object(ObjectLink(className: "Person", key: $0)) } ?? .null, "step \(step)")
                XCTAssertEqual(try r.find("Dog", primaryKey: .objectId(dogIds[k]!)), k)
            }
            r.end()
            if step % 50 == 0 { assertSound(db) }
        }
        assertSound(db)
    }
}
