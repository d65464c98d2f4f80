import Foundation
@testable import StrataQuery
import StrataObjects

/// A small deterministic PRNG (SplitMix64) so every random test is reproducible.
struct SeededRNG: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: native model (what the oracle filters with plain Swift)

enum Nick: Equatable { case none, int(Int), double(Double), string(String) }

struct PersonData {
    var name: String?
    var age: Int
    var height: Double
    var born: Int64          // seconds since 1970
    var active: Bool
    var balance: Decimal
    var nick: Nick
    var tags: [String]
    var scores: [Int]
    var attrs: [String: Int]
    var dogs: [Int]          // indices into dogs
    var bestFriend: Int?     // index into people
    var favorites: [String: Int?]  // map of links to dogs
}

struct DogData {
    var name: String
    var age: Int
    var weight: Double
    var owner: Int?          // index into people
    var toys: [Int]          // indices into toys
}

struct ToyData {
    var name: String
    var price: Double
}

struct World {
    var people: [PersonData] = []
    var dogs: [DogData] = []
    var toys: [ToyData] = []

    /// Short strings over an alphabet with case and accent variants (precomposed and decomposed).
    static let alphabet = ["a", "b", "c", "A", "B", "é", "É", "e\u{301}", "ö", "Ö", "e", "o"]

    static func randomString(_ rng: inout SeededRNG, maxLength: Int = 4) -> String {
        let n = Int.random(in: 0...maxLength, using: &rng)
        return (0..<n).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }

    static func generate(seed: UInt64, people nPeople: Int = 40, dogs nDogs: Int = 60, toys nToys: Int = 15) -> World {
        var rng = SeededRNG(seed: seed)
        var w = World()
        for _ in 0..<nToys {
            w.toys.append(ToyData(name: randomString(&rng), price: Double(Int.random(in: 0...200, using: &rng)) / 4))
        }
        for _ in 0..<nDogs {
            let toys = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 0..<nToys, using: &rng) }
            w.dogs.append(DogData(name: randomString(&rng), age: Int.random(in: 0...15, using: &rng),
                                  weight: Double(Int.random(in: 10...400, using: &rng)) / 10, owner: nil, toys: toys))
        }
        for i in 0..<nPeople {
            let nick: Nick
            switch Int.random(in: 0...3, using: &rng) {
            case 0: nick = .none
            case 1: nick = .int(Int.random(in: -5...5, using: &rng))
            case 2: nick = .double(Double(Int.random(in: -20...20, using: &rng)) / 4)
            default: nick = .string(randomString(&rng, maxLength: 2))
            }
            var attrs: [String: Int] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &rng) { attrs[["k1", "k2", "k3", "k4"].randomElement(using: &rng)!] = Int.random(in: 0...9, using: &rng) }
            var favorites: [String: Int?] = [:]
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                favorites[["f1", "f2", "f3"].randomElement(using: &rng)!] = Bool.random(using: &rng) ? Int.random(in: 0..<nDogs, using: &rng) : nil
            }
            w.people.append(PersonData(
                name: Int.random(in: 0...9, using: &rng) == 0 ? nil : randomString(&rng),
                age: Int.random(in: 0...90, using: &rng),
                height: Double(Int.random(in: 100...220, using: &rng)) / 100,
                born: Int64.random(in: 0...2_000_000_000, using: &rng) - 500_000_000,
                active: Bool.random(using: &rng),
                balance: Decimal(Int.random(in: -1000...1000, using: &rng)) / 10,
                nick: nick,
                tags: (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomString(&rng, maxLength: 2) },
                scores: (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: 0...10, using: &rng) },
                attrs: attrs,
                dogs: (0..<Int.random(in: 0...4, using: &rng)).map { _ in Int.random(in: 0..<nDogs, using: &rng) },
                bestFriend: Bool.random(using: &rng) ? Int.random(in: 0..<nPeople, using: &rng) : (i > 0 ? nil : nil),
                favorites: favorites))
        }
        for d in w.dogs.indices where Int.random(in: 0...4, using: &rng) > 0 {
            w.dogs[d].owner = Int.random(in: 0..<nPeople, using: &rng)
        }
        return w
    }
}

let testSchema = QuerySchema([
    QueryClass("Person", [
        QueryProperty("name", .string, optional: true),
        QueryProperty("age", .int),
        QueryProperty("height", .double),
        QueryProperty("born", .date),
        QueryProperty("active", .bool),
        QueryProperty("balance", .decimal),
        QueryProperty("nick", .any),
        QueryProperty("tags", .list(.string)),
        QueryProperty("scores", .set(.int)),
        QueryProperty("attrs", .map(.int)),
        QueryProperty("dogs", .list(.link("Dog"))),
        QueryProperty("bestFriend", .link("Person"), optional: true),
        QueryProperty("favorites", .map(.link("Dog"))),
    ]),
    QueryClass("Dog", [
        QueryProperty("name", .string),
        QueryProperty("age", .int),
        QueryProperty("weight", .double),
        QueryProperty("owner", .link("Person"), optional: true),
        QueryProperty("toys", .list(.link("Toy"))),
        QueryProperty("owners", .linkingObjects(originClass: "Person", property: "dogs")),
    ]),
    QueryClass("Toy", [
        QueryProperty("name", .string),
        QueryProperty("price", .double),
    ]),
])

/// An object handle in the dictionary store.
struct Handle: Hashable {
    var className: String
    var index: Int
}

/// A `QueryObjectAccess` over dictionaries: every object is a `[String: Field]`. It knows
/// nothing of the native model above; `World.store()` converts.
struct DictionaryStore: QueryObjectAccess {
    enum Field {
        case value(QueryValue)
        case link(Handle?)
        case links([Handle])
        case values([QueryValue])
        case map([(String, QueryValue)])
        case linkMap([(String, Handle?)])
    }

    var classes: [String: [[String: Field]]]
    let schema: QuerySchema

    func value(of object: Handle, property: String) -> QueryValue {
        if case .value(let v)? = classes[object.className]![object.index][property] { return v }
        return .null
    }
    func link(of object: Handle, property: String) -> Handle? {
        if case .link(let h)? = classes[object.className]![object.index][property] { return h }
        return nil
    }
    func objects(of object: Handle, property: String) -> [Handle] {
        if case .links(let hs)? = classes[object.className]![object.index][property] { return hs }
        return []
    }
    func values(of object: Handle, property: String) -> [QueryValue] {
        if case .values(let vs)? = classes[object.className]![object.index][property] { return vs }
        return []
    }
    func map(of object: Handle, property: String) -> [(key: String, value: QueryValue)] {
        if case .map(let m)? = classes[object.className]![object.index][property] { return m.map { (key: $0.0, value: $0.1) } }
        return []
    }
    func objectMap(of object: Handle, property: String) -> [(key: String, value: Handle?)] {
        if case .linkMap(let m)? = classes[object.className]![object.index][property] { return m.map { (key: $0.0, value: $0.1) } }
        return []
    }
    func backlinks(of object: Handle, originClass: String, property: String) -> [Handle] {
        var out: [Handle] = []
        for (i, fields) in (classes[originClass] ?? []).enumerated() {
            let origin = Handle(className: originClass, index: i)
            switch fields[property] {
            case .link(let h)?: if h == object { out.append(origin) }
            case .links(let hs)?: for h in hs where h == object { out.append(origin) }
            case .linkMap(let m)?: for (_, h) in m where h == object { out.append(origin) }
            default: break
            }
        }
        return out
    }
    func backlinkCount(of object: Handle) -> Int {
        var n = 0
        for (cls, c) in schema.classes {
            for p in c.properties {
                switch p.type {
                case .link, .list(.link), .set(.link), .map(.link):
                    n += backlinks(of: object, originClass: cls, property: p.name).count
                default: break
                }
            }
        }
        return n
    }
    func reference(of object: Handle) -> QueryObjectRef {
        QueryObjectRef(className: object.className, key: Int64(object.index))
    }

    func all(_ className: String) -> [Handle] {
        (0..<(classes[className]?.count ?? 0)).map { Handle(className: className, index: $0) }
    }
}

extension World {
    func store() -> DictionaryStore {
        func person(_ i: Int?) -> Handle? { i.map { Handle(className: "Person", index: $0) } }
        func dog(_ i: Int?) -> Handle? { i.map { Handle(className: "Dog", index: $0) } }
        let people: [[String: DictionaryStore.Field]] = people.map { p in
            let nick: QueryValue
            switch p.nick {
            case .none: nick = .null
            case .int(let i): nick = .int(Int64(i))
            case .double(let d): nick = .double(d)
            case .string(let s): nick = .string(s)
            }
            return [
                "name": .value(p.name.map { .string($0) } ?? .null),
                "age": .value(.int(Int64(p.age))),
                "height": .value(.double(p.height)),
                "born": .value(.date(QueryTimestamp(seconds: p.born))),
                "active": .value(.bool(p.active)),
                "balance": .value(.decimal(Decimal128(p.balance))),
                "nick": .value(nick),
                "tags": .values(p.tags.map { .string($0) }),
                "scores": .values(p.scores.map { .int(Int64($0)) }),
                "attrs": .map(p.attrs.sorted { $0.key < $1.key }.map { ($0.key, .int(Int64($0.value))) }),
                "dogs": .links(p.dogs.map { dog($0)! }),
                "bestFriend": .link(person(p.bestFriend)),
                "favorites": .linkMap(p.favorites.sorted { $0.key < $1.key }.map { ($0.key, dog($0.value)) }),
            ]
        }
        let dogs: [[String: DictionaryStore.Field]] = dogs.map { d in
            [
                "name": .value(.string(d.name)),
                "age": .value(.int(Int64(d.age))),
                "weight": .value(.double(d.weight)),
                "owner": .link(person(d.owner)),
                "toys": .links(d.toys.map { Handle(className: "Toy", index: $0) }),
            ]
        }
        let toys: [[String: DictionaryStore.Field]] = toys.map { t in
            ["name": .value(.string(t.name)), "price": .value(.double(t.price))]
        }
        return DictionaryStore(classes: ["Person": people, "Dog": dogs, "Toy": toys], schema: testSchema)
    }
}
