import Foundation

/// The demo database's name lists (`Resources/demo/names.json`, embedded at build time).
struct DemoNames: Decodable, Sendable {
    var firstNames: [String]
    var lastNames: [String]
    /// `[city, country]` pairs.
    var cities: [[String]]
    var streets: [String]
    var dogNames: [String]
    var breeds: [String]
    var eventKinds: [String]
    var companyNames: [String]
    var productWords: [String]
    var productNouns: [String]

    /// Parses and checks a names file: every list non-empty, every city a `[city, country]` pair.
    init(json: String) throws {
        do {
            self = try JSONDecoder().decode(DemoNames.self, from: Data(json.utf8))
        } catch {
            throw InputError("Resources/demo/names.json is not a valid names file: \(error)")
        }
        let lists = [firstNames, lastNames, streets, dogNames, breeds, eventKinds, companyNames, productWords, productNouns]
        guard !lists.contains(where: \.isEmpty), !cities.isEmpty else {
            throw InputError("Resources/demo/names.json: every list needs at least one name")
        }
        guard cities.allSatisfy({ $0.count == 2 }) else {
            throw InputError("Resources/demo/names.json: cities are [city, country] pairs")
        }
    }

    /// The names built into the binary. Checked by `DemoNamesTests`.
    static let bundled: DemoNames = {
        do {
            return try DemoNames(json: StrataToolingResources.files["demo/names.json"] ?? "")
        } catch {
            fatalError("\(error)")
        }
    }()
}
