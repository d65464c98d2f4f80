import XCTest
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// The fault model's harder cases (issue 19, item 7): bytes written past the old end of a file
/// torn or cut off, truncations lost, and full compaction written through the fault-injecting
/// layer like every other write.
final class FaultModelTests: XCTestCase {
    /// Every file a store makes (the database, a compaction's temporary file, a copy) gets a
    /// fault-injecting layer; `configure` sets each one up as it is made.
    final class Made: @unchecked Sendable {
        var ios: [FaultInjectingFileIO] = []
        var configure: ((FaultInjectingFileIO) -> Void)?
    }

    func faultyOptions(_ made: Made) -> StoreOptions {
        var o = StoreOptions()
        o.automaticCompaction = false
        o.fileIO = { p, c, _ in
            let io = try FaultInjectingFileIO(path: p, create: c)
            made.configure?(io)
            made.ios.append(io)
            return io
        }
        return o
    }

    func content(_ store: Store) throws -> [String: [[UInt8]: [UInt8]]] {
        let r = try store.beginRead()
        defer { r.end() }
        var out: [String: [[UInt8]: [UInt8]]] = [:]
        for name in try r.treeNames() where name != "_history" {
            let t = try r.tree(name)!
            var m: [[UInt8]: [UInt8]] = [:]
            try t.forEach { e in m[e.key] = try t.bytes(of: e.value); return true }
            out[name] = m
        }
        return out
    }

    /// Junk first (low offsets), then the data, then the junk dropped: the data lies above
    /// the compaction target and the file has a large free area.
    func makeFragmented(_ path: String) throws {
        var o = StoreOptions(); o.automaticCompaction = false
        let s = try Store(path: path, options: o)
        let w = try s.beginWrite()
        let junk = try w.tree("junk", create: true)!
        for i in 0..<300 { try junk.put(key(i), bytes: [UInt8](repeating: 7, count: 4000)) }
        try w.commit()
        let w2 = try s.beginWrite()
        let t = try w2.tree("t", create: true)!
        for i in 0..<400 { try t.put(key(i), bytes: [UInt8](repeating: UInt8(i % 251), count: (i * 53) % 2500)) }
        try w2.commit()
        let w3 = try s.beginWrite()
        try w3.dropTree("junk")
        try w3.commit()
        s.close()
    }

    func testPowerLossDuringFullCompactionKeepsTheOriginal() throws {
        var extendingHit = 0
        for mode in [FaultInjectingFileIO.LossMode.dropAll, .keepAll, .tearRandomly(seed: 3), .tearRandomly(seed: 8), .tearRandomly(seed: 21)] {
            let dir = TempDir()
            let path = dir.path("c.strata")
            try makeFragmented(path)
            let original = [UInt8](FileManager.default.contents(atPath: path)!)
            let expected = try content(try Store(path: path))
            let made = Made()
            made.configure = { io in
                if io.path.hasSuffix(".compact-tmp") { io.lossMode = mode; io.crashAtSync = 1 }
            }
            let store = try Store(path: path, options: faultyOptions(made))
            XCTAssertThrowsError(try store.compact(), "mode \(mode)") { XCTAssertTrue($0 is FaultInjectingFileIO.SimulatedCrash, "\($0)") }
            let tmp = try XCTUnwrap(made.ios.first { $0.path.hasSuffix(".compact-tmp") }, "the compaction's writes went through the file layer")
            XCTAssertTrue(tmp.hasCrashed)
            extendingHit += tmp.extendingWritesTorn + tmp.extendingWritesCutOff
            store.close()
            XCTAssertTrue([UInt8](FileManager.default.contents(atPath: path)!) == original, "mode \(mode): the original changed")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path + ".compact-tmp"))
            let again = try Store(path: path)
            assertSound(again)
            XCTAssertEqual(try content(again), expected, "mode \(mode)")
        }
        XCTAssertGreaterThan(extendingHit, 0, "no write past the end of the file was torn or cut off")
    }

    /// The compacted file's writes all extend it: torn mode must damage some of them, and the
    /// damage must be what a loss of those writes looks like (the file is refused or shorter),
    /// never a file that opens with other data.
    func testTornWritesPastTheEndOfANewFile() throws {
        var torn = 0, cut = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            let dir = TempDir()
            let path = dir.path("w.strata")
            try makeFragmented(path)
            let copyPath = dir.path("copy.strata")
            let made = Made()
            made.configure = { io in
                if io.path.hasSuffix(".writecopy-tmp") { io.lossMode = .tearRandomly(seed: seed); io.crashAtSync = 1 }
            }
            let store = try Store(path: path, options: faultyOptions(made))
            XCTAssertThrowsError(try store.writeCopy(toPath: copyPath))
            let io = try XCTUnwrap(made.ios.first { $0.path.hasSuffix(".writecopy-tmp") })
            torn += io.extendingWritesTorn
            cut += io.extendingWritesCutOff
            XCTAssertFalse(FileManager.default.fileExists(atPath: copyPath), "no copy after a failed sync")
        }
        XCTAssertGreaterThan(torn + cut, 0, "seeds 1...6 tore or cut off no write past the end")
    }

    /// Power lost at every sync of an online compaction, unsynced changes dropped, including
    /// the truncations that give the file's tail back: each time the file reopens sound with the
    /// same data, and some truncations really were lost.
    func testPowerLossAtEverySyncOfOnlineCompactionLosingItsTruncations() throws {
        var lost = 0, crashes = 0
        for crashAt in 1...60 {
            let dir = TempDir()
            let path = dir.path("t.strata")
            try makeFragmented(path)
            let expected = try content(try Store(path: path))
            let made = Made()
            let store = try Store(path: path, options: faultyOptions(made))
            let io = made.ios[0]
            io.lossMode = .dropAll
            io.crashAtSync = io.syncs + crashAt
            var finished = false
            do { _ = try store.compactOnline(); finished = true } catch is FaultInjectingFileIO.SimulatedCrash { crashes += 1 }
            lost += io.truncationsLost
            store.close()
            let again = try Store(path: path)
            assertSound(again)
            XCTAssertEqual(try content(again), expected, "power lost at sync \(crashAt) of the online compaction")
            again.close()
            if finished { break }
        }
        XCTAssertGreaterThan(crashes, 1)
        XCTAssertGreaterThan(lost, 0, "no truncation was pending when power was lost")
    }
}
