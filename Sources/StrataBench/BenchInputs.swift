/// The predicate of the count workload: `age BETWEEN ageRange AND name BEGINSWITH namePrefix`.
///
/// `BEGINSWITH` is case- and diacritic-sensitive and compares UTF-8 bytes (Realm's semantics):
/// a name matches when its UTF-8 bytes start with the prefix's UTF-8 bytes.
package struct BenchCountQuery: Sendable, Hashable {
    /// Inclusive age range (SQL `BETWEEN`).
    package var ageRange: ClosedRange<Int>
    /// The required name prefix.
    package var namePrefix: String

    /// Creates the predicate.
    package init(ageRange: ClosedRange<Int>, namePrefix: String) {
        self.ageRange = ageRange
        self.namePrefix = namePrefix
    }

    /// Whether `row` matches, by the definition above.
    package func matches(_ row: BenchRow) -> Bool {
        ageRange.contains(row.age) && row.name.utf8.starts(with: namePrefix.utf8)
    }
}

/// One small durable transaction of the commit workload.
package enum BenchCommitOperation: Sendable, Hashable {
    /// Insert a new object (its primary key is not yet used).
    case insert(BenchRow)
    /// Set the `score` of the existing object with primary key `id`.
    case updateScore(id: Int, score: Double)
}

/// A new `score` for the existing object with primary key `id` (the bulk-update workload).
package struct BenchScoreUpdate: Sendable, Hashable {
    /// Primary key of an existing object.
    package var id: Int
    /// The value to store.
    package var score: Double

    /// Creates an update.
    package init(id: Int, score: Double) {
        self.id = id
        self.score = score
    }
}
