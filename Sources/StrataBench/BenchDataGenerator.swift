/// Generates the benchmark rows deterministically from a seed.
///
/// Names are `"First Last"`. The first name is drawn uniformly from a table of 64 first names of
/// which exactly 8 start with `"B"`, so the prefix `"B"` matches 1/8 (12.5 %) of the rows in
/// expectation; 2 of the 64 start with `"Br"` (1/32). Last names are drawn uniformly from 32.
/// Ages are uniform in `0..<100`, scores uniform in `[0, 100)` rounded to 1/100, and `active` is a
/// fair coin. The exact number of matches for a query is whatever the seed produces; the
/// `BenchOracle` computes it from the rows.
package struct BenchDataGenerator: Sendable {
    /// 64 first names; exactly 8 start with "B" (Beatrice ... Bruno).
    package static let firstNames: [String] = [
        "Aaron", "Abigail", "Adam", "Alice", "Amara", "Andre", "Anouk", "Arjun",
        "Beatrice", "Bella", "Benjamin", "Bernard", "Bianca", "Boris", "Brianna", "Bruno",
        "Carlos", "Chloe", "Clara", "Daniel", "Diana", "Dmitri", "Elena", "Emil",
        "Ethan", "Fatima", "Felix", "Grace", "Gustav", "Hana", "Henry", "Ines",
        "Isaac", "Jack", "Jasmine", "Jonas", "Julia", "Kai", "Karin", "Leo",
        "Lina", "Lucas", "Maria", "Mateo", "Mei", "Nadia", "Noah", "Olivia",
        "Omar", "Pablo", "Priya", "Quinn", "Rafael", "Rosa", "Sara", "Sofia",
        "Stefan", "Tariq", "Tess", "Uma", "Victor", "Wen", "Yara", "Zoe",
    ]

    /// 32 last names.
    package static let lastNames: [String] = [
        "Abara", "Becker", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad",
        "Ivanova", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov",
        "Quispe", "Rossi", "Schmidt", "Tanaka", "Umarov", "Varga", "Wagner", "Xu",
        "Yilmaz", "Zhang", "Silva", "Novak", "Mendes", "Kim", "Horvat", "Costa",
    ]

    /// The fraction of generated names that start with "B" in expectation (8/64).
    package static let expectedFractionWithPrefixB = 0.125

    private var random: BenchRandom

    /// Creates a generator; the same seed always produces the same rows.
    package init(seed: UInt64) {
        random = BenchRandom(seed: seed)
    }

    /// The next row, with the given primary key.
    package mutating func nextRow(id: Int) -> BenchRow {
        let first = Self.firstNames[random.next(below: Self.firstNames.count)]
        let last = Self.lastNames[random.next(below: Self.lastNames.count)]
        let age = random.next(below: 100)
        let score = nextScore()
        let active = random.next() & 1 == 1
        return BenchRow(id: id, name: first + " " + last, age: age, score: score, active: active)
    }

    /// A score in `[0, 100)`, rounded to hundredths.
    package mutating func nextScore() -> Double {
        Double(random.next(below: 10_000)) / 100
    }

    /// Rows with primary keys `1...count`, in key order.
    package mutating func rows(count: Int) -> [BenchRow] {
        var rows: [BenchRow] = []
        rows.reserveCapacity(count)
        for id in stride(from: 1, through: count, by: 1) {
            rows.append(nextRow(id: id))
        }
        return rows
    }
}
