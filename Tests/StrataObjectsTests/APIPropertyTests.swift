import XCTest
import Foundation
@testable import StrataObjects

/// Random typed-object operations checked against a plain Swift model.
final class APIPropertyTests: XCTestCase {
    struct SplitMix { var s: UInt64; mutating func next() -> UInt64 { s &+= 0x9E3779B97F4A7C15; var z = s; z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9; z = (z ^ (z >> 27)) &* 0x94D049BB133111EB; return z ^ (z >> 31) }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) } }

    struct ModelPerson: Equatable {
        var name: String, age: Int, nickname: String?
        var dogs: [String], tags: Set<String>, scores: [String: Int], city: String?
    }

    func snapshot(_ realm: Realm) -> [Int: ModelPerson] {
        var out: [Int: ModelPerson] = [:]
        for p in realm.objects(APerson.self) {
            out[p.id] = ModelPerson(name: p.name, age: p.age, nickname: p.nickname, dogs: p.dogs.map(\.name),
                                    tags: Set(p.tags), scores: Dictionary(uniqueKeysWithValues: p.scores.map { ($0.key, $0.value) }),
                                    city: p.address?.city)
        }
        return out
    }

    func testRandomOperationsMatchAnInMemoryModel() throws {
        for seed in [1, 2, 3] as [UInt64] {
            try runSeed(seed)
        }
    }

    func runSeed(_ seed: UInt64) throws {
        let f = APIFixture()
        let cfg = f.config()
        var rng = SplitMix(s: seed)
        var model: [Int: ModelPerson] = [:]
        var dogsAlive = 0
        let realm = try Realm(configuration: cfg)
        for step in 0..<120 {
            let saved = model, savedDogs = dogsAlive
            realm.beginWrite()
            for _ in 0..<(1 + rng.int(5)) {
                let id = rng.int(25)
                let p = realm.object(ofType: APerson.self, forPrimaryKey: id)
                switch rng.int(10) {
                case 0, 1:
                    let name = "n\(rng.int(1000))", age = rng.int(90)
                    if p == nil {
                        let np = APerson(id: id, name: name, age: age)
                        if rng.int(2) == 0 { np.address = AAddress(value: ["city": "c\(id)"]) }
                        try realm.tryAdd(np)
                        model[id] = ModelPerson(name: name, age: age, nickname: nil, dogs: [], tags: [], scores: [:], city: np.address?.city)
                    } else {
                        XCTAssertThrowsError(try realm.tryAdd(APerson(id: id, name: name)), "duplicate primary key \(id)")
                    }
                case 2:
                    guard let p else { continue }
                    let age = rng.int(90); p.age = age; model[id]!.age = age
                case 3:
                    guard let p else { continue }
                    let nick: String? = rng.int(3) == 0 ? nil : "k\(rng.int(10))"
                    p.nickname = nick; model[id]!.nickname = nick
                case 4:
                    guard let p else { continue }
                    realm.delete(p); dogsAlive += 0; model[id] = nil
                case 5:
                    guard let p else { continue }
                    let d = ADog(name: "d\(rng.int(100))")
                    let at = rng.int(p.dogs.count + 1)
                    p.dogs.insert(d, at: at); model[id]!.dogs.insert(d.name, at: at); dogsAlive += 1
                case 6:
                    guard let p, !p.dogs.isEmpty else { continue }
                    let at = rng.int(p.dogs.count)
                    if rng.int(2) == 0 { p.dogs.remove(at: at) } else { realm.delete(p.dogs[at]); dogsAlive -= 1 }
                    // Deleting a dog removes it from every list: only this person holds it here.
                    model[id]!.dogs.remove(at: at)
                case 7:
                    guard let p else { continue }
                    let t = "t\(rng.int(4))"
                    if rng.int(2) == 0 { p.tags.insert(t); model[id]!.tags.insert(t) } else { p.tags.remove(t); model[id]!.tags.remove(t) }
                case 8:
                    guard let p else { continue }
                    let k = "s\(rng.int(3))", v = rng.int(10)
                    if v == 0 { p.scores[k] = nil; model[id]!.scores[k] = nil } else { p.scores[k] = v; model[id]!.scores[k] = v }
                default:
                    // Incremental upsert: only the given keys change.
                    let age = rng.int(90)
                    realm.create(APerson.self, value: ["id": id, "age": age, "name": model[id]?.name ?? "new"], update: .modified)
                    if model[id] == nil { model[id] = ModelPerson(name: "new", age: age, nickname: nil, dogs: [], tags: [], scores: [:], city: nil) }
                    else { model[id]!.age = age }
                }
            }
            if rng.int(6) == 0 {
                realm.cancelWrite(); model = saved; dogsAlive = savedDogs
            } else {
                try realm.commitWrite()
            }
            XCTAssertEqual(snapshot(realm), model, "seed \(seed) step \(step)")
            if snapshot(realm) != model { return }
        }
        XCTAssertEqual(realm.objects(AAddress.self).count, model.values.filter { $0.city != nil }.count, "embedded objects die with their parents")
        assertIntegrity(realm)
    }
}
