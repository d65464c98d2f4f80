/// One object of the benchmark model: five properties, the same on every engine.
///
/// The Strata adapter maps it to an object class with an `Int` primary key; the SQLite engine
/// maps it to a table whose `id` is the `INTEGER PRIMARY KEY` (the rowid).
package struct BenchRow: Sendable, Hashable {
    /// The primary key. Generated rows use `1...N`; rows inserted by the small-commit workload
    /// continue above `N`.
    package var id: Int
    /// A person-like name, `"First Last"`. See `BenchDataGenerator` for the prefix distribution.
    package var name: String
    /// An age in `0..<100`, uniformly distributed.
    package var age: Int
    /// A score in `0..<100`.
    package var score: Double
    /// A flag, true for about half of the rows.
    package var active: Bool

    /// Creates a row from its five properties.
    package init(id: Int, name: String, age: Int, score: Double, active: Bool) {
        self.id = id
        self.name = name
        self.age = age
        self.score = score
        self.active = active
    }
}
