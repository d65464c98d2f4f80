import Foundation
import XCTest
@testable import StrataRealm

/// Thousands of truncated and byte-flipped copies of every plain fixture: opening and reading
/// them must end in a value or a `RealmFileError`, never a trap or a hang. Seeds are printed.
final class RealmFuzzTests: XCTestCase {
    struct SplitMix64 {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
    }

    static let fixtures = ["test_upgrade_database_20.realm", "test_upgrade_database_4_22.realm", "client_schema_version_011.realm",
                           "test_upgrade_database_1000_23.realm", "test_upgrade_database_4_24.realm", "test_upgrade_database_1000_24.realm",
                           "nested.realm", "history-compacted.realm", "history.realm", "all-types.realm"]

    /// Reads what a browser would: the schema, and a few objects from the start, middle and end of each class.
    func exercise(_ image: [UInt8], deep: Bool) -> Bool {
        do {
            let f = try RealmFile.open(image: image)
            for c in f.classes + f.otherTables {
                let n = c.objectCount
                for i in Set([0, 1, n / 2, n - 1]) where i >= 0 && i < n {
                    _ = try? f.object(at: i, in: c.name)
                }
            }
            if deep {
                _ = f.checkStructure()
                _ = try? f.spaceReport()
            }
            return true
        } catch is RealmFileError {
            return false
        } catch {
            XCTFail("untyped error \(error)")
            return false
        }
    }

    func testMutatedFixturesNeverTrap() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["STRATA_FUZZ_SEED"] ?? "") ?? 0x5eed_2026
        print("RealmFuzzTests seed \(seed) (set STRATA_FUZZ_SEED to replay)")
        var rng = SplitMix64(state: seed)
        var opened = 0, refused = 0
        for name in Self.fixtures {
            let original = Array(try Data(contentsOf: RealmOracle.fixtureURL(name)))
            let rounds = original.count > 1_000_000 ? 16 : original.count > 200_000 ? 60 : 400
            for round in 0..<rounds {
                var b = original
                switch rng.below(4) {
                case 0:
                    b = Array(b.prefix(rng.below(b.count)))
                default:
                    // Flip bytes, mostly near the structures (top array and the end of the file).
                    let flips = 1 + rng.below(8)
                    for _ in 0..<flips {
                        let pos = rng.below(3) == 0 ? max(0, b.count - 1 - rng.below(4096)) : rng.below(b.count)
                        b[pos] ^= UInt8(truncatingIfNeeded: 1 + rng.below(255))
                    }
                }
                if exercise(b, deep: round % 8 == 0) { opened += 1 } else { refused += 1 }
                _ = round
            }
        }
        print("RealmFuzzTests: \(opened) mutated files opened, \(refused) refused with a typed error")
        XCTAssertGreaterThan(opened + refused, 2000)
        XCTAssertGreaterThan(refused, 0)
    }
}
