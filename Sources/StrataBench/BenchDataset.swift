/// Everything a benchmark run feeds to the engines, generated once from a seed so every engine
/// and every repetition works on exactly the same data.
package struct BenchDataset: Sendable {
    /// The `N` objects of the bulk insert, primary keys `1...N` in key order.
    package let rows: [BenchRow]
    /// The predicate of the count workload (ages 20...39, names starting with "B": about 2.5 %
    /// of the objects).
    package let countQuery: BenchCountQuery
    /// Primary keys to look up (uniform over `1...N`, with repetition, random order).
    package let lookupIDs: [Int]
    /// The small durable transactions: alternately an insert of a new object (keys `N+1...`) and
    /// a score update of a random existing object.
    package let commitOperations: [BenchCommitOperation]
    /// The bulk update: new scores for a random 10 % of the objects, sorted by primary key (the
    /// order a query over the key would visit them in).
    package let scoreUpdates: [BenchScoreUpdate]
    /// The bulk delete: a random 10 % of the objects `1...N` (independent of `scoreUpdates`),
    /// sorted by primary key.
    package let deleteIDs: [Int]

    /// Generates the dataset.
    ///
    /// - Parameters:
    ///   - objects: `N`, the number of objects of the bulk insert.
    ///   - lookups: the number of primary-key lookups (the issue asks for 100,000).
    ///   - commits: the number of small durable transactions (the issue asks for 1,000).
    ///   - seed: determines every value.
    package init(objects: Int, lookups: Int = 100_000, commits: Int = 1_000, seed: UInt64 = 0x5712_A7A0) {
        precondition(objects > 0 && lookups >= 0 && commits >= 0)
        var generator = BenchDataGenerator(seed: seed)
        rows = generator.rows(count: objects)
        countQuery = BenchCountQuery(ageRange: 20...39, namePrefix: "B")

        var random = BenchRandom(seed: seed ^ 0x0000_1000_0C0C_0001)
        lookupIDs = (0..<lookups).map { _ in 1 + random.next(below: objects) }

        var commitOperations: [BenchCommitOperation] = []
        commitOperations.reserveCapacity(commits)
        var nextID = objects + 1
        for index in 0..<commits {
            if index % 2 == 0 {
                commitOperations.append(.insert(generator.nextRow(id: nextID)))
                nextID += 1
            } else {
                let id = 1 + random.next(below: objects)
                commitOperations.append(.updateScore(id: id, score: generator.nextScore()))
            }
        }
        self.commitOperations = commitOperations

        let tenth = objects / 10
        scoreUpdates = Self.sample(tenth, of: objects, random: &random).map {
            BenchScoreUpdate(id: $0, score: generator.nextScore())
        }
        deleteIDs = Self.sample(tenth, of: objects, random: &random)
    }

    /// `count` distinct keys of `1...objects`, sorted (partial Fisher–Yates).
    private static func sample(_ count: Int, of objects: Int, random: inout BenchRandom) -> [Int] {
        var keys = Array(1...objects)
        for index in 0..<count {
            let other = index + random.next(below: objects - index)
            keys.swapAt(index, other)
        }
        return keys[0..<count].sorted()
    }

    /// The number of objects of the bulk insert.
    package var objectCount: Int { rows.count }
}
