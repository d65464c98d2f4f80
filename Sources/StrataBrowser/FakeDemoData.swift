import Foundation
import StrataTooling

/// One class of ``FakeDataSource`` held in memory.
struct FakeClass {
    var name: String
    var properties: [PropertyDescription]
    var isEmbedded = false
    var primaryKey: String?
    /// Object key → property name → value.
    var objects: [Int64: [String: FakeStoredValue]] = [:]
    /// Keys in insertion order (the unsorted result order).
    var order: [Int64] = []
    var nextKey: Int64 = 0

    mutating func insert(_ values: [String: FakeStoredValue]) -> Int64 {
        let key = nextKey
        nextKey += 1
        objects[key] = values
        order.append(key)
        return key
    }

    func property(_ name: String) -> PropertyDescription? { properties.first { $0.name == name } }
}

/// The demo content: people with dogs, addresses, tags and scores; a huge generated Event class.
enum FakeDemoData {
    static let personNames = [
        "Alice Martin", "Bob Chen", "Zoë Dubois", "José Álvarez", "王小明", "山田太郎", "김민준",
        "Ольга Иванова", "Søren Kierkegaard", "🐶 Dog Lover", "Amélie Poulain", "Ngọc Trần",
        "Σωκράτης", "Mette-Marie Kristensen-Øvergaard", "田中 美咲 🌸", "Chloé", "Lukas Müller",
        "Priya Sharma", "Kenji 健二", "Ana-María", "Émile Zola", "李雷", "Juan", "Ingrid Bergman",
    ]
    static let dogNames = [
        "Rex", "Bella", "ポチ", "Max", "Luna", "旺财", "Charlie", "Daisy 🌼", "Rocky", "Milo",
        "Coco", "Buddy", "Nala", "Toby", "Lola", "Zeus", "Kiki", "Bailey", "Ruby", "Oscar",
    ]
    static let breeds: [String?] = ["Labrador", "Shiba Inu 柴犬", nil, "Poodle", "Beagle", "Mixed", "Golden Retriever", nil]
    static let cities = ["Lyon", "東京", "Seoul", "Madrid", "København", "Berlin", "São Paulo", "Athens"]
    static let countries = ["France", "日本", "대한민국", "España", "Danmark", "Deutschland", "Brasil", "Ελλάδα"]
    static let tags = ["vip", "new", "beta", "staff", "🌟", "churned"]
    static let eventKinds = ["click", "view", "purchase", "login", "error", "logout"]

    static let personProperties = [
        PropertyDescription(name: "id", type: .int, isIndexed: true, isPrimaryKey: true),
        PropertyDescription(name: "name", type: .string, isIndexed: true),
        PropertyDescription(name: "age", type: .int, isOptional: true),
        PropertyDescription(name: "email", type: .string, isOptional: true),
        PropertyDescription(name: "born", type: .date),
        PropertyDescription(name: "balance", type: .double),
        PropertyDescription(name: "bestFriend", type: .object, kind: .link, targetClass: "Person", isOptional: true),
        PropertyDescription(name: "dogs", type: .object, kind: .list, targetClass: "Dog"),
        PropertyDescription(name: "tags", type: .string, kind: .list),
        PropertyDescription(name: "address", type: .object, kind: .embedded, targetClass: "Address", isOptional: true),
        PropertyDescription(name: "scores", type: .int, kind: .map),
    ]
    static let dogProperties = [
        PropertyDescription(name: "_id", type: .objectId, isIndexed: true, isPrimaryKey: true),
        PropertyDescription(name: "name", type: .string),
        PropertyDescription(name: "breed", type: .string, isOptional: true),
        PropertyDescription(name: "weight", type: .double),
        PropertyDescription(name: "vaccinated", type: .bool),
        PropertyDescription(name: "owners", type: .object, kind: .backlinks, targetClass: "Person"),
    ]
    static let addressProperties = [
        PropertyDescription(name: "street", type: .string),
        PropertyDescription(name: "city", type: .string),
        PropertyDescription(name: "country", type: .string),
    ]
    static let eventProperties = [
        PropertyDescription(name: "id", type: .int, isIndexed: true, isPrimaryKey: true),
        PropertyDescription(name: "kind", type: .string),
        PropertyDescription(name: "at", type: .date),
        PropertyDescription(name: "value", type: .double),
        PropertyDescription(name: "payload", type: .data, isOptional: true),
        PropertyDescription(name: "user", type: .object, kind: .link, targetClass: "Person", isOptional: true),
        PropertyDescription(name: "session", type: .uuid),
    ]

    /// Builds Person, Dog and Address (Event is generated on demand by the data source).
    static func makeClasses(now: Date) -> [FakeClass] {
        var dogs = FakeClass(name: "Dog", properties: dogProperties, primaryKey: "_id")
        for (index, name) in dogNames.enumerated() {
            _ = dogs.insert([
                "_id": .objectId(String(format: "65a1f0c2%08x%08x", 0x1000 + index * 7919, index * 104_729)),
                "name": .string(name),
                "breed": breeds[index % breeds.count].map { .string($0) } ?? .null,
                "weight": .double(Double(40 + (index * 37) % 300) / 10),
                "vaccinated": .bool(index % 4 != 1),
            ])
        }
        var addresses = FakeClass(name: "Address", properties: addressProperties, isEmbedded: true)
        var people = FakeClass(name: "Person", properties: personProperties, primaryKey: "id")
        for (index, name) in personNames.enumerated() {
            let addressKey = addresses.insert([
                "street": .string("\(index * 7 + 3) \(["Rue Mercière", "桜通り", "Gangnam-daero", "Calle Mayor"][index % 4])"),
                "city": .string(cities[index % cities.count]),
                "country": .string(countries[index % countries.count]),
            ])
            let age = 18 + (index * 7) % 60
            let ascii = name.lowercased().filter { $0.isASCII && $0.isLetter }
            var dogKeys: [FakeStoredValue] = []
            if index % 3 != 0 { dogKeys = [.object(Int64(index * 3 % 20)), .object(Int64((index * 7 + 1) % 20))] }
            if index % 5 == 1 { dogKeys.append(.object(Int64((index + 11) % 20))) }
            _ = people.insert([
                "id": .int(Int64(index + 1)),
                "name": .string(name),
                "age": index % 5 == 4 ? .null : .int(Int64(age)),
                "email": ascii.isEmpty || index % 6 == 5 ? .null : .string("\(ascii.prefix(12))@example.com"),
                "born": .date(Date(timeIntervalSince1970: 86400 * Double(-7300 + index * 523 + index % 7 * 29))),
                "balance": .double(Double((index * 123_457) % 1_000_000) / 100),
                "bestFriend": index % 4 == 3 ? .null : .object(Int64((index + 5) % personNames.count)),
                "dogs": .list(dogKeys),
                "tags": .list((0..<(index % 3)).map { .string(tags[(index + $0) % tags.count]) }),
                "address": index % 7 == 6 ? .null : .object(addressKey),
                "scores": .map(index % 2 == 0 ? ["math": .int(Int64(50 + index)), "art": .int(Int64(90 - index))] : [:]),
            ])
        }
        return [people, dogs, addresses]
    }

    /// The values of generated Event number `index` (also its key and primary key).
    static func event(_ index: Int64, personCount: Int, base: Date) -> [String: FakeStoredValue] {
        let mixed = UInt64(bitPattern: index &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407)
        return [
            "id": .int(index),
            "kind": .string(eventKinds[Int(mixed >> 33) % eventKinds.count]),
            "at": .date(base.addingTimeInterval(Double(index) * 3.7)),
            "value": .double(Double(Int(mixed >> 40) % 100_000) / 100),
            "payload": index % 7 == 3 ? .null : .data((0..<(8 + Int(mixed >> 60))).map { UInt8(truncatingIfNeeded: mixed >> UInt64($0 % 8 * 8)) }),
            "user": index % 5 == 2 ? .null : .object(Int64(Int(mixed >> 20) % personCount)),
            "session": .uuid(UUID(uuid: uuidBytes(mixed))),
        ]
    }

    private static func uuidBytes(_ seed: UInt64) -> uuid_t {
        let a = seed, b = seed &* 0x9E37_79B9_7F4A_7C15
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> UInt64(index * 8)) }
        return (byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), 0x40 | (byte(a, 6) & 0x0F), byte(a, 7),
                0x80 | (byte(b, 0) & 0x3F), byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7))
    }
}
