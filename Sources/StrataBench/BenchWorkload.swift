/// The timed workloads, in the order a repetition runs them.
///
/// File size (measured after the bulk insert) is reported beside them but is not timed.
package enum BenchWorkload: String, Sendable, CaseIterable, Codable {
    /// (1) Bulk insert of N objects in one transaction.
    case insert
    /// (2) Count with `age BETWEEN lo AND hi AND name BEGINSWITH prefix`.
    case count
    /// (3) Sum of the `age` column.
    case sum
    /// (4) Random primary-key lookups reading `name` and `score`.
    case lookup
    /// (5) Small durable transactions, one insert or update each.
    case commit
    /// (5b) The same small durable transactions on an encrypted Strata file holding the same
    /// objects (loaded untimed); the baseline is SQLite's plain file, as for `commit`.
    case encryptedCommit
    /// (6) Update of `score` on 10 % of the objects in one transaction.
    case update
    /// (7) Delete of 10 % of the objects in one transaction.
    case delete
    /// (9) Compaction after the delete (SQLite: `VACUUM`).
    case compact
    /// Typed API (`TypedBenchmark.swift`): `realm.add` of N `Object`s in one write, on a
    /// database of its own (SQLite: the prepared insert into a fresh table).
    case typedInsert
    /// Typed API: every object of `realm.objects(T.self)`, reading one Int property (SQLite:
    /// a step loop over `SELECT age`).
    case typedIterate
    /// Typed API: `object(ofType:forPrimaryKey:)` reading `name` and `score`.
    case typedLookup
    /// Typed API: small durable commits (`realm.add` or a property setter in `write`).
    case typedCommit

    /// The name printed in the table and the JSON; it always contains the case's keyword
    /// (insert, count, sum, lookup, commit, update, delete, compact).
    package func displayName(dataset: BenchDataset) -> String {
        switch self {
        case .insert: return "bulk insert (1 transaction)"
        case .count: return "count (age range + name prefix)"
        case .sum: return "sum of an Int column"
        case .lookup: return BenchFormat.grouped(dataset.lookupIDs.count) + " primary-key lookups"
        case .commit: return BenchFormat.grouped(dataset.commitOperations.count) + " small durable commits"
        case .encryptedCommit: return "encrypted " + BenchFormat.grouped(dataset.commitOperations.count) + " small durable commits"
        case .update: return "update 10% (1 transaction)"
        case .delete: return "delete 10% (1 transaction)"
        case .compact: return "compact after delete"
        case .typedInsert: return "typed insert (realm.add, 1 write)"
        case .typedIterate: return "typed iterate (Results, 1 Int)"
        case .typedLookup: return "typed " + BenchFormat.grouped(dataset.lookupIDs.count) + " primary-key lookups"
        case .typedCommit: return "typed " + BenchFormat.grouped(dataset.commitOperations.count) + " small durable commits"
        }
    }

    /// The goal from BRIEF §4 for this workload.
    package var goal: BenchGoal {
        switch self {
        case .insert: return .maxRatio(0.25)
        case .count, .sum: return .maxRatio(0.1)
        case .lookup: return .maxRatio(0.5)
        case .commit, .encryptedCommit: return .maxRatio(0.8)
        case .update: return .none
        case .delete: return .maxRatio(0.5)
        case .compact: return .durableCopySpeedFraction(0.9)
        case .typedInsert: return .maxRatio(1.0)
        case .typedIterate, .typedLookup: return .maxRatio(0.5)
        case .typedCommit: return .maxRatio(0.8)
        }
    }
}

/// A performance goal.
package enum BenchGoal: Sendable, Hashable {
    /// No goal; the ratio is reported for information.
    case none
    /// Met when `strataSeconds / sqliteSeconds <= limit` (for the file size: bytes instead of
    /// seconds).
    case maxRatio(Double)
    /// Compaction speed: met when Strata compacts at least `fraction` of the speed of a durable
    /// copy (`cp` + `fdatasync`) of the compacted file — the physical limit for a compaction that
    /// is durable before it replaces the file. Speed is bytes of the compacted file per second for
    /// both, so the condition is `compactSeconds <= durableCopySeconds / fraction` (for 0.9:
    /// "within 10% of a durable copy", BRIEF §5).
    case durableCopySpeedFraction(Double)

    /// Short text for the table and the JSON, e.g. `"<= 0.25"` or `">= 0.9x durable cp"`.
    package var text: String {
        switch self {
        case .none: return "-"
        case .maxRatio(let limit): return "<= " + BenchFormat.number(limit, digits: 2)
        case .durableCopySpeedFraction(let fraction):
            return ">= " + BenchFormat.number(fraction, digits: 1) + "x durable cp"
        }
    }
}
