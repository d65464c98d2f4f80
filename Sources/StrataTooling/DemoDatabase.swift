import Foundation
import StrataObjects
import StrataStorage

/// The demo database `strata` opens when started without a file, and that `strata demo`
/// writes: people with embedded addresses, dogs, companies, products and a large `Event` class,
/// with links, lists, sets, maps, backlinks, optional values, Unicode text (accents, CJK, emoji)
/// and a history of inserts, updates and deletes that leaves free space and several versions.
package enum DemoDatabase {
    /// Where `strata` keeps its demo database: `$XDG_CACHE_HOME/strata/demo.strata`, else
    /// `~/.cache/strata/demo.strata`, else the temporary directory.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty { return cache + "/strata/demo.strata" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/strata/demo.strata" }
        return NSTemporaryDirectory() + "strata/demo.strata"
    }

    /// Default number of `Event` objects.
    package static let defaultEventCount = 150_000

    /// The demo classes, from `Resources/demo/schema.json` (embedded at build time).
    package static let schema: Schema = DemoSchemaFile.bundled

    /// The name lists, from `Resources/demo/names.json` (embedded at build time).
    static let names: DemoNames = DemoNames.bundled
    static let firstNames = names.firstNames
    static let lastNames = names.lastNames
    static let cities = names.cities.map { ($0[0], $0[1]) }
    static let streets = names.streets
    static let dogNames = names.dogNames
    static let breeds = names.breeds
    static let eventKinds = names.eventKinds
    static let companyNames = names.companyNames
    static let productWords = names.productWords
    static let productNouns = names.productNouns

    /// The demo's generator: the package's seeded SplitMix64, so the demo is the same every time.
    package typealias Random = SplitMix64

    static let base = Date(timeIntervalSince1970: 1_704_067_200) // 2024-01-01

    /// Creates the demo database at `path` (which must not exist), encrypted with
    /// `encryptionKey` (64 bytes) when one is given; its directory must exist. `progress` receives a
    /// phase and a fraction 0...1.
    package static func create(at path: String, events: Int = defaultEventCount, people: Int = 2_000,
                              encryptionKey: [UInt8]? = nil, progress: ((String, Double) -> Void)? = nil) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw InputError("\(path) already exists; choose a new file name or delete it")
        }
        var options = StoreOptions()
        options.label = "strata demo"
        options.encryptionKey = encryptionKey
        let db = try Database(path: path, options: options, schema: schema)
        defer { db.close() }
        var random = Random(seed: 42)
        let peopleCount = max(1, people)
        let dogCount = peopleCount * 3 / 2

        // Commit: companies and products.
        progress?("companies and products", 0)
        var w = try db.write(label: "strata demo")
        var companies: [ObjKey] = []
        for (i, name) in companyNames.enumerated() {
            let city = cities[i % cities.count]
            companies.append(try w.create("Company", values: [
                "name": .string(name), "country": .string(city.1),
                "founded": i % 4 == 3 ? .null : .date(base.addingTimeInterval(-Double(365 * 86400 * (5 + i * 3)))),
                "website": i % 3 == 2 ? .null : .string("https://\(i).example.com/" + name.lowercased().replacingOccurrences(of: " ", with: "-")),
            ]))
        }
        for i in 0..<500 {
            let title = "\(productWords[i % productWords.count]) \(productNouns[(i / productWords.count) % productNouns.count])"
            let key = try w.create("Product", values: [
                "sku": .string(String(format: "SKU-%05d", i)), "title": .string(title),
                "price": .decimal(try Decimal128(string: "\(1 + i % 97).\(String(format: "%02d", (i * 37) % 100))")),
                "stock": .int(Int64(random.next() % 1000)),
                "weightKg": i % 5 == 0 ? .null : .float(Float(1 + i % 40) / 4),
                "supplier": i % 7 == 0 ? .null : .object(ObjectLink(className: "Company", key: companies[i % companies.count])),
                "barcode": i % 3 == 0 ? .null : .uuid(uuid(&random)),
            ])
            try w.setList("Product", key, "tags", (0..<(i % 4)).map { .string(["new", "sale", "bestseller", "eco", "日本製"][($0 + i) % 5]) })
            try w.setList("Product", key, "ratings", (0..<(i % 6)).map { _ in .int(Int64(1 + random.next() % 5)) })
        }
        try w.commit()

        // Commit: dogs and people.
        progress?("people and dogs", 0.05)
        w = try db.write(label: "strata demo")
        var dogs: [ObjectId] = []
        for i in 0..<dogCount {
            var bytes = [UInt8](repeating: 0, count: 12)
            let stamp = UInt32(1_704_067_200 + i * 600)
            bytes[0] = UInt8(stamp >> 24); bytes[1] = UInt8(stamp >> 16 & 255); bytes[2] = UInt8(stamp >> 8 & 255); bytes[3] = UInt8(stamp & 255)
            for j in 4..<12 { bytes[j] = UInt8(truncatingIfNeeded: random.next()) }
            let id = ObjectId(bytes: bytes)!
            dogs.append(id)
            try w.create("Dog", values: [
                "_id": .objectId(id), "name": .string(dogNames[i % dogNames.count]),
                "breed": i % 6 == 5 ? .null : .string(breeds[i % breeds.count]),
                "weight": .double(Double(20 + random.next() % 400) / 10),
                "birthDate": i % 5 == 4 ? .null : .date(base.addingTimeInterval(-Double(86400 * (200 + Int(random.next() % 4000))))),
                "vaccinated": .bool(i % 4 != 0),
            ])
        }
        for i in 0..<peopleCount {
            let first = firstNames[i % firstNames.count], last = lastNames[(i / firstNames.count + i) % lastNames.count]
            let name = "\(first) \(last)"
            let key = Int64(i + 1)
            try w.create("Person", values: [
                "id": .int(key), "name": .string(name),
                "email": i % 5 == 3 ? .null : .string(asciiHandle(first, i) + "@example.com"),
                "age": i % 9 == 8 ? .null : .int(Int64(18 + random.next() % 70)),
                "birthday": i % 7 == 6 ? .null : .date(base.addingTimeInterval(-Double(86400 * (6570 + Int(random.next() % 20000))))),
                "score": .double(Double(random.next() % 10000) / 100),
                "active": .bool(i % 3 != 0),
                "avatar": i % 4 == 0 ? .data((0..<(8 + i % 24)).map { _ in UInt8(truncatingIfNeeded: random.next()) }) : .null,
                "employer": i % 5 == 0 ? .null : .object(ObjectLink(className: "Company", key: companies[i % companies.count])),
            ], embedded: i % 8 == 7 ? [:] : ["address": address(i, &random)])
            let dogLinks = (0..<(i % 4)).map { j in Value.objectId(dogs[(i * 3 + j) % dogs.count]) }
            let resolved = try dogLinks.compactMap { v -> Value? in
                guard let k = try w.find("Dog", primaryKey: v) else { return nil }
                return .object(ObjectLink(className: "Dog", key: k))
            }
            try w.setList("Person", key, "dogs", resolved)
            try w.setList("Person", key, "tags", (0..<(i % 3)).map { .string(["vip", "beta", "staff", "café", "東京"][($0 + i) % 5]) })
            try w.setMap("Person", key, "settings", [("theme", .string(i % 2 == 0 ? "dark" : "light")), ("lang", .string(["en", "fr", "ja", "ko"][i % 4]))])
        }
        try w.commit()

        // Commits: events in batches.
        let batch = 50_000
        var next = 0
        while next < events {
            progress?("events", 0.1 + 0.7 * Double(next) / Double(max(1, events)))
            w = try db.write(label: "strata demo")
            let order = try w.columnOrder("Event")
            let end = min(events, next + batch)
            for i in next..<end {
                try w.insertRow("Event", eventRow(Int64(i + 1), order: order, people: peopleCount, random: &random))
            }
            try w.commit()
            next = end
        }

        // History: updates and deletes that free space.
        progress?("history", 0.85)
        w = try db.write(label: "strata demo")
        for i in stride(from: 1, through: min(events, 20_000), by: 4) {
            try w.set("Event", Int64(i), "value", .double(Double(random.next() % 100_000) / 100))
        }
        try w.commit()
        w = try db.write(label: "strata demo")
        let doomed = stride(from: 10, through: events, by: 10).map { Int64($0) }
        try w.delete("Event", keys: doomed)
        try w.commit()
        w = try db.write(label: "strata demo")
        for i in stride(from: 1, through: peopleCount, by: 50) {
            try w.set("Person", Int64(i), "score", .double(Double(random.next() % 10000) / 100))
            try w.set("Person", Int64(i), "age", .int(Int64(18 + random.next() % 70)))
        }
        try w.commit()
        progress?("done", 1)
    }

    static func asciiHandle(_ first: String, _ i: Int) -> String {
        let ascii = first.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased().filter { $0.isASCII && $0.isLetter }
        return (ascii.isEmpty ? "user" : ascii) + ".\(i)"
    }

    static func uuid(_ random: inout Random) -> UUID {
        let a = random.next(), b = random.next()
        return UUID(uuid: (UInt8(a & 255), UInt8(a >> 8 & 255), UInt8(a >> 16 & 255), UInt8(a >> 24 & 255), UInt8(a >> 32 & 255),
                           UInt8(a >> 40 & 255), UInt8(a >> 48 & 15 | 0x40), UInt8(a >> 56 & 255), UInt8(b & 63 | 0x80), UInt8(b >> 8 & 255),
                           UInt8(b >> 16 & 255), UInt8(b >> 24 & 255), UInt8(b >> 32 & 255), UInt8(b >> 40 & 255), UInt8(b >> 48 & 255), UInt8(b >> 56 & 255)))
    }

    static func address(_ i: Int, _ random: inout Random) -> [String: Value] {
        let city = cities[i % cities.count]
        return ["street": .string("\(1 + random.next() % 200) \(streets[i % streets.count])"), "city": .string(city.0),
                "postalCode": i % 6 == 5 ? .null : .string(String(format: "%05d", Int(random.next() % 99999))), "country": .string(city.1)]
    }

    static func eventRow(_ id: Int64, order: [String], people: Int, random: inout Random) -> [Value] {
        let r = random.next()
        let kind = eventKinds[Int(r % UInt64(eventKinds.count))]
        return order.map { name in
            switch name {
            case "id": return .int(id)
            case "kind": return .string(kind)
            case "user": return r % 11 == 0 ? .null : .object(ObjectLink(className: "Person", key: Int64(1 + (r >> 8) % UInt64(people))))
            case "at": return .date(base.addingTimeInterval(Double(id) * 37 + Double(r % 1000) / 1000))
            case "value": return .double(Double((r >> 16) % 100_000) / 100)
            case "payload": return r % 3 == 0 ? .null : .string(kind == "search" ? "q=\(["café", "東京 ramen", "naïve", "🚀 launch"][Int(r >> 40) % 4])" : "{\"page\":\"/p/\((r >> 20) % 500)\"}")
            case "session": return r % 4 == 0 ? .null : .uuid(uuid(&random))
            case "extra": return r % 5 == 0 ? .int(Int64((r >> 24) % 1000)) : r % 5 == 1 ? .string("ref-\((r >> 28) % 100)") : .null
            default: return .null
            }
        }
    }

    /// Keeps committing small changes to a demo database: the "other process" for live demos
    /// and crash tests. Each ``step()`` is one durable commit.
    package final class Churner {
        let db: Database
        var random: Random
        var nextEventId: Int64
        let people: Int

        /// Opens the churner over a demo database (it must have the demo classes).
        /// Without a seed each churner draws one from the system generator: two churners started
        /// together must not generate the same new primary keys (a seed of pid ^ milliseconds made
        /// two processes with consecutive pids, started a millisecond apart, collide).
        package init(database: Database, seed: UInt64? = nil) throws {
            db = database
            for name in ["Event", "Person", "Dog"] where database.schema[name] == nil {
                throw InputError("\(database.store.path) is not a demo database (no class \(name)); use a file made by 'strata demo'")
            }
            random = Random(seed: seed.map { $0 ^ UInt64(Date().timeIntervalSince1970 * 1000) } ?? UInt64.random(in: .min ... .max))
            let r = try database.read(label: "strata demo")
            defer { r.end() }
            let count = try r.count("Event")
            nextEventId = (count > 0 ? (try r.objectKey("Event", at: count - 1) ?? 0) : 0) + 1
            people = max(1, try r.count("Person"))
        }

        /// One commit of a few inserts, updates or deletes; returns the committed version.
        package func step() throws -> UInt64 {
            let w = try db.write(label: "strata demo --churn")
            do {
                let order = try w.columnOrder("Event")
                let choice = random.next() % 10
                let eventCount = try w.count("Event")
                switch choice {
                case 0...3:
                    // The next id is read inside this write transaction: other writers may have
                    // inserted since this churner last looked.
                    if eventCount > 0, let last = try w.objectKey("Event", at: eventCount - 1) { nextEventId = max(nextEventId, last + 1) }
                    // Events link to people that exist now: pick them by position, since the
                    // Person ids of an imported or edited file need not be 1...count.
                    let personCount = try w.count("Person")
                    let userColumn = order.firstIndex(of: "user")
                    for _ in 0..<(1 + random.next() % 5) {
                        var row = DemoDatabase.eventRow(nextEventId, order: order, people: people, random: &random)
                        if let userColumn, case .object = row[userColumn] {
                            let key = personCount > 0 ? try w.objectKey("Person", at: Int(random.next() % UInt64(personCount))) : nil
                            row[userColumn] = key.map { .object(ObjectLink(className: "Person", key: $0)) } ?? .null
                        }
                        try w.insertRow("Event", row)
                        nextEventId += 1
                    }
                case 4...5:
                    let personCount = try w.count("Person")
                    if personCount > 0, let key = try w.objectKey("Person", at: Int(random.next() % UInt64(personCount))) {
                        try w.set("Person", key, "score", .double(Double(random.next() % 10000) / 100))
                        try w.set("Person", key, "age", .int(Int64(18 + random.next() % 70)))
                    }
                case 6...7:
                    if eventCount > 0, let key = try w.objectKey("Event", at: Int(random.next() % UInt64(eventCount))) {
                        try w.set("Event", key, "value", .double(Double(random.next() % 100_000) / 100))
                    }
                case 8:
                    if eventCount > 100 {
                        var keys = Set<ObjKey>()
                        for _ in 0..<(1 + random.next() % 3) {
                            if let key = try w.objectKey("Event", at: Int(random.next() % UInt64(eventCount))) { keys.insert(key) }
                        }
                        try w.delete("Event", keys: Array(keys))
                    }
                default:
                    var bytes = [UInt8](repeating: 0, count: 12)
                    for j in 0..<12 { bytes[j] = UInt8(truncatingIfNeeded: random.next()) }
                    try w.create("Dog", values: ["_id": .objectId(ObjectId(bytes: bytes)!),
                                                 "name": .string(DemoDatabase.dogNames[Int(random.next() % UInt64(DemoDatabase.dogNames.count))]),
                                                 "weight": .double(Double(20 + random.next() % 400) / 10), "vaccinated": .bool(true)])
                }
                return try w.commit()
            } catch {
                w.abort()
                throw error
            }
        }
    }
}
