/// A value a workload returned, compared across engines.
package enum BenchValue: Sendable, Hashable, CustomStringConvertible {
    /// A number: rows inserted, counted, updated, deleted; a sum.
    case int(Int)
    /// The fingerprint of the lookups.
    case checksum(BenchChecksum)

    /// The value as text, for mismatch messages.
    package var description: String {
        switch self {
        case .int(let value): return String(value)
        case .checksum(let checksum): return checksum.description
        }
    }
}

/// The expected answers, computed from the dataset in memory. The runner checks every engine
/// against them as well as against each other.
package struct BenchOracle: Sendable {
    /// The expected value of each workload that returns a comparable value (all but `compact`,
    /// whose value is a file size).
    package let expected: [BenchWorkload: BenchValue]
    /// The number of objects expected after the whole sequence.
    package let finalObjectCount: Int

    /// Computes the answers for `dataset`.
    package init(dataset: BenchDataset) {
        let rows = dataset.rows
        var expected: [BenchWorkload: BenchValue] = [:]
        expected[.insert] = .int(rows.count)
        expected[.count] = .int(rows.reduce(0) { $0 + (dataset.countQuery.matches($1) ? 1 : 0) })
        expected[.sum] = .int(rows.reduce(0) { $0 + $1.age })

        // Rows have keys 1...N in order, so key k is at index k - 1.
        var checksum = BenchChecksum()
        for id in dataset.lookupIDs {
            if id >= 1 && id <= rows.count {
                let row = rows[id - 1]
                checksum.combine(name: row.name, score: row.score)
            } else {
                checksum.combineMissing()
            }
        }
        expected[.lookup] = .checksum(checksum)
        expected[.commit] = .int(dataset.commitOperations.count)
        // On a database of its own holding the bulk rows: the same operations, the same count.
        expected[.encryptedCommit] = expected[.commit]
        expected[.update] = .int(dataset.scoreUpdates.count)
        expected[.delete] = .int(dataset.deleteIDs.count)
        self.expected = expected

        let inserted = dataset.commitOperations.reduce(0) { count, operation in
            if case .insert = operation { return count + 1 }
            return count
        }
        finalObjectCount = rows.count + inserted - dataset.deleteIDs.count
    }
}
