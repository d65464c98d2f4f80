import Foundation
import XCTest
@testable import StrataRealm

/// Structure-aware mutations of every Realm fixture (node headers, refs pointing at other nodes,
/// 8-byte words set to 0 / all ones / small ints / offsets past the end, truncation, duplicated
/// and zeroed regions, the header's top refs swapped), each read the whole way a user's command
/// reads it: classes and counts, every object (all columns, links, collections, mixed, backlinks),
/// whole columns, key lookups, the structure check and the space report. Each case must end in
/// values or a `RealmFileError`; a trap ends the test process (run the explorer mode below in a
/// child process to find the seed). `STRATA_FUZZ_SEED` / `STRATA_FUZZ_CASES` replay or extend it.
final class RealmMutationFuzzTests: XCTestCase {
    typealias Rng = RealmFuzzTests.SplitMix64

    static let fixtures = RealmFuzzTests.fixtures

    /// Offsets of the node headers ("AAAA") of an image.
    static func nodeHeaders(_ b: [UInt8]) -> [Int] {
        var out: [Int] = []
        var i = 24
        while i + 8 <= b.count {
            if b[i] == 0x41, b[i + 1] == 0x41, b[i + 2] == 0x41, b[i + 3] == 0x41 { out.append(i) }
            i += 8
        }
        return out
    }

    static func putLE(_ b: inout [UInt8], _ at: Int, _ v: UInt64, _ size: Int) {
        guard at >= 0, at + size <= b.count else { return }
        for k in 0..<size { b[at + k] = UInt8(truncatingIfNeeded: v >> UInt64(8 * k)) }
    }

    static func word(_ rng: inout Rng, fileSize n: Int) -> UInt64 {
        switch rng.below(10) {
        case 0, 1: return 0
        case 2: return UInt64.max
        case 3, 4: return UInt64(1 + rng.below(63))
        case 5: return UInt64(rng.below(max(n, 1)) & ~7)
        case 6: return UInt64(max(0, n + rng.below(128) - 64))
        case 7, 8:
            let c: [UInt64] = [1 << 31, (1 << 31) - 1, 1 << 32, 1 << 62, 1 << 63, (1 << 24) - 1, 1 << 24, 0xFFFF_FFF8]
            return c[rng.below(c.count)] &+ UInt64([0, 1, 8][rng.below(3)])
        default: return rng.next()
        }
    }

    /// One to three mutations of `original`; `headers` are its node offsets.
    static func mutate(_ original: [UInt8], headers: [Int], rng: inout Rng) -> [UInt8] {
        var b = original
        let rounds = 1 + (rng.below(10) < 3 ? 1 : 0) + (rng.below(10) == 0 ? 1 : 0)
        for _ in 0..<rounds {
            let n = b.count
            guard n >= 64 else { break }
            switch rng.below(10) {
            case 0:
                for _ in 0...rng.below(8) { b[rng.below(n)] ^= UInt8(1 + rng.below(255)) }
            case 1, 2:
                putLE(&b, rng.below(n - 8) & ~7, word(&rng, fileSize: n), 8)
            case 3:
                b.removeSubrange(rng.below(n)...)
            case 4:
                let len = [8, 16, 64, 256, 4096][rng.below(5)]
                let s = rng.below(max(1, n - len)) & ~7, d = rng.below(max(1, n - len)) & ~7
                let chunk = Array(b[s..<min(n, s + len)])
                for (k, x) in chunk.enumerated() where d + k < n { b[d + k] = x }
            case 5:
                let s = rng.below(n) & ~7
                for k in s..<min(n, s + [8, 64, 512, 4096][rng.below(4)]) { b[k] = 0 }
            case 6:
                switch rng.below(3) {
                case 0: for k in 0..<8 { b.swapAt(k, k + 8) }
                case 1: b[23] ^= 1
                default: putLE(&b, 8 * Int(b[23] & 1), word(&rng, fileSize: n), 8)
                }
            default:
                guard !headers.isEmpty else { continue }
                let h = headers[rng.below(headers.count)]
                guard h + 16 <= n else { continue }
                switch rng.below(10) {
                case 0, 1, 2:
                    let counts: [[UInt8]] = [[0xff, 0xff, 0xff], [0, 0, 0], [0, 0, UInt8(rng.below(256))],
                                             [UInt8(rng.below(256)), UInt8(rng.below(256)), UInt8(rng.below(256))]]
                    let c = counts[rng.below(counts.count)]
                    b[h + 5] = c[0]; b[h + 6] = c[1]; b[h + 7] = c[2]
                case 3, 4:
                    b[h + 4] = rng.below(2) == 0 ? UInt8(rng.below(256)) : b[h + 4] ^ UInt8(1 << rng.below(8))
                default:
                    let count = Int(b[h + 5]) << 16 | Int(b[h + 6]) << 8 | Int(b[h + 7])
                    guard count > 0 else { continue }
                    let size = [0: 8, 1: 8, 2: 8, 3: 1, 4: 2, 5: 4, 6: 8, 7: 8][Int(b[h + 4] & 7)] ?? 8
                    let at = h + 8 + size * rng.below(min(count, 64))
                    let v: UInt64 = (b[h + 4] & 0x40 != 0 && rng.below(2) == 0)
                        ? UInt64(headers[rng.below(headers.count)]) : word(&rng, fileSize: n)
                    putLE(&b, at, v, size)
                }
            }
        }
        return b
    }

    /// Everything a user's commands read. Returns false when a `RealmFileError` ended it.
    @discardableResult
    static func readEverything(_ image: [UInt8]) throws -> Bool {
        let f: RealmFile
        do { f = try RealmFile.open(image: image) } catch is RealmFileError { return false }
        var ok = true
        func attempt(_ body: () throws -> Void) throws {
            do { try body() } catch is RealmFileError { ok = false }
        }
        _ = f.schemaVersion; _ = f.transactionVersion; _ = f.historyType
        _ = f.freeListBytes; _ = f.browsableClasses; _ = f.internalTables
        for c in f.classes + f.otherTables {
            try attempt {
                let n = try f.objectCount(in: c.tableName)
                let keys = try f.objectKeys(in: c.tableName)
                // Every object of small classes; the ends and a sample of large ones.
                let rows = n <= 400 ? Array(0..<n) : Array(0..<100) + Array(n - 100..<n) + (0..<100).map { $0 * n / 100 }
                for i in rows {
                    try attempt {
                        let o = try f.object(at: i, in: c.tableName)
                        _ = o.values.map(\.description)
                    }
                }
                for k in keys.prefix(50) { try attempt { _ = try f.object(withKey: k, in: c.tableName); _ = try f.index(ofKey: k, in: c.tableName) } }
                _ = try? f.object(withKey: -1, in: c.tableName)
                for p in c.properties + c.backlinks {
                    try attempt { _ = try f.columnValues(columnKey: p.columnKey, in: c.tableName) }
                    if n > 0, p.type != .linkingObjects { try attempt { _ = try f.value(at: n - 1, property: p.name, in: c.tableName) } }
                }
            }
        }
        _ = f.checkStructure()
        try attempt { _ = try f.spaceReport() }
        return ok
    }

    /// Fuzzes `cases` mutations starting at `seed`; with `announce`, prints each case's seed
    /// first (a trap's last line names it).
    func run(seed: UInt64, cases: Int, announce: Bool) throws -> (clean: Int, refused: Int) {
        var images: [(String, [UInt8], [Int])] = []
        for name in Self.fixtures {
            let b = Array(try Data(contentsOf: RealmOracle.fixtureURL(name)))
            images.append((name, b, Self.nodeHeaders(b)))
        }
        var clean = 0, refused = 0
        for c in 0..<cases {
            let caseSeed = seed &+ UInt64(c)
            var rng = Rng(state: caseSeed)
            let (name, original, headers) = images[rng.below(images.count)]
            let image = Self.mutate(original, headers: headers, rng: &rng)
            if announce { FileHandle.standardError.write(Data("case \(caseSeed) \(name)\n".utf8)) }
            do {
                if try Self.readEverything(image) { clean += 1 } else { refused += 1 }
            } catch {
                XCTFail("seed \(caseSeed) (\(name)): untyped error \(error)")
            }
        }
        return (clean, refused)
    }

    func testStructureAwareMutationsEndInValuesOrTypedErrors() throws {
        let env = ProcessInfo.processInfo.environment
        let seed = UInt64(env["STRATA_FUZZ_SEED"] ?? "") ?? 0x2026_1127
        let cases = Int(env["STRATA_FUZZ_CASES"] ?? "") ?? 200
        let (clean, refused) = try run(seed: seed, cases: cases, announce: env["STRATA_FUZZ_ANNOUNCE"] != nil)
        print("RealmMutationFuzzTests: seed \(seed), \(cases) cases: \(clean) read cleanly, \(refused) ended in a RealmFileError")
        XCTAssertGreaterThan(refused, cases / 10)
    }

    // MARK: regressions found by the explorer (each took 5 s to minutes and up to gigabytes before its fix)

    /// `image` with the node at `ref` set to width 0 and 2^24-1 elements: a count with no bytes
    /// behind it, which every bounds check passes.
    static func hugeWidthZeroNode(_ image: [UInt8], at ref: Int) -> [UInt8] {
        var b = image
        b[ref + 4] &= 0xF8
        b[ref + 5] = 0xFF; b[ref + 6] = 0xFF; b[ref + 7] = 0xFF
        return b
    }

    func assertCorruptQuickly(_ image: [UInt8], mentioning words: String, file: StaticString = #filePath, line: UInt = #line) {
        let start = Date()
        XCTAssertThrowsError(try RealmFile.open(image: image), file: file, line: line) { e in
            guard case let .corrupt(what)? = e as? RealmFileError else { return XCTFail("\(e)", file: file, line: line) }
            XCTAssertTrue(what.contains(words), what, file: file, line: line)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0, "refused before decoding 2^24 elements", file: file, line: line)
    }

    func fixture() throws -> (RealmFile, [UInt8]) {
        let b = Array(try Data(contentsOf: RealmOracle.fixtureURL("test_upgrade_database_4_24.realm")))
        return (try RealmFile.open(image: b), b)
    }

    /// The table-name list's count: 2^24 names were decoded before the count was compared.
    func testHugeTableNameCountIsRefusedBeforeDecoding() throws {
        let (f, b) = try fixture()
        let names = try XCTUnwrap(try f.top.child(0))
        assertCorruptQuickly(Self.hugeWidthZeroNode(b, at: names.ref), mentioning: "table names but")
    }

    /// A table's column keys: 2^24 columns were built (minutes, gigabytes), each read per object.
    func testHugeColumnKeyCountIsRefused() throws {
        let (f, b) = try fixture()
        let spec = try RealmNode(f.bytes, ref: f.tables[0].specRef)
        let keys = try XCTUnwrap(try spec.child(5))
        assertCorruptQuickly(Self.hugeWidthZeroNode(b, at: keys.ref), mentioning: "column keys")
    }

    /// A table's column names: 2^24 empty names were decoded and the file opened.
    func testHugeColumnNameCountIsRefused() throws {
        let (f, b) = try fixture()
        let spec = try RealmNode(f.bytes, ref: f.tables[0].specRef)
        let names = try XCTUnwrap(try spec.child(1))
        assertCorruptQuickly(Self.hugeWidthZeroNode(b, at: names.ref), mentioning: "column names")
    }

    /// A has-refs node of width 0 holds only zeros: the structure check and the space report
    /// looped over its 2^24 elements.
    func testStructureCheckSkipsWidthZeroRefArrays() throws {
        let (f, b) = try fixture()
        let leaf = try XCTUnwrap(f.tables.first { $0.objectCount > 0 }?.leaves(f.bytes).first)
        let damaged = try RealmFile.open(image: Self.hugeWidthZeroNode(b, at: leaf.ref))
        let start = Date()
        _ = damaged.checkStructure()
        _ = try? damaged.spaceReport()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
    }

    /// Damaged bytes decode to any bit pattern: every timestamp and decimal128 must print.
    func testExtremeDecodedValuesPrint() {
        var rng = Rng(state: 0xDEC1_2026)
        let secs: [Int64] = [.min, .max, .min + 1, .max - 1, 0, -1, 253_402_300_800, -62_135_596_800 - 1]
        let nanos: [Int32] = [.min, .max, 0, -1, 999_999_999, 1_000_000_000]
        for s in secs { for n in nanos { _ = RealmValue.timestamp(seconds: s, nanoseconds: n).description } }
        for _ in 0..<20_000 {
            _ = RealmValue.timestamp(seconds: Int64(bitPattern: rng.next()), nanoseconds: Int32(truncatingIfNeeded: rng.next())).description
            _ = RealmDecimal128(low: rng.next(), high: rng.next()).description
            _ = RealmDecimal128(bid32: UInt32(truncatingIfNeeded: rng.next())).description
            _ = RealmDecimal128(bid64: rng.next()).description
        }
    }

    /// Every node of two fixtures in turn given width 0 and 2^24 elements (a count with no bytes
    /// behind it), then read the whole way: each must end within a second. A collection leaf
    /// (a list of mixed, a composite array) so damaged was decoded as 2^24 nulls per value
    /// (an 84 MB export of a 32 KB file, 9-20 s); now it is refused as damaged.
    func testEveryNodeWithAHugeWidthZeroCountReadsQuickly() throws {
        for name in ["nested.realm", "test_upgrade_database_4_24.realm"] {
            let original = Array(try Data(contentsOf: RealmOracle.fixtureURL(name)))
            for h in Self.nodeHeaders(original) {
                let start = Date()
                _ = try Self.readEverything(Self.hugeWidthZeroNode(original, at: h))
                XCTAssertLessThan(Date().timeIntervalSince(start), 1.0, "\(name): node \(h)")
            }
        }
    }
}
