import XCTest
@testable import StrataStorage

/// Where a small commit's blocks go (docs/FORMAT.md, "Placement"): one contiguous run where one
/// fits, so its sync writes the run and the meta slot only.
final class CommitPlacementTests: XCTestCase {
    /// Holes of 8 KiB (a moved cluster leaves one) spread over a file, adding up to `fraction`
    /// of it; returns the allocator and the blocks of an 18 KiB commit placed through it.
    private func placeCommit(holeFraction: Double, encrypted: Bool = false) -> (logical: UInt64, blocks: [UInt64]) {
        let logical: UInt64 = 8 << 20
        let hole: UInt64 = 8192
        let holes = Int(Double(logical) * holeFraction) / Int(hole)
        let stride = (logical - MetaSlot.dataStart) / UInt64(holes + 1) & ~4095
        let entries = (0..<holes).map { i in
            FreeExtent(offset: MetaSlot.dataStart + UInt64(i + 1) * stride, length: hole, birth: 0, freed: 0)
        }
        let (reusable, held) = SpaceAllocator.split(entries)
        var alloc = SpaceAllocator(reusable: reusable, held: held, readers: [], logicalSize: logical,
                                   newVersion: 5, wholePages: encrypted)
        alloc.regionHint = 20480
        // A leaf, then inner nodes, the catalog and the free list: 18 KiB in all.
        let blocks = [8192, 4096, 2048, 2048, 1024, 512, 512].map { alloc.allocate(UInt64($0)) }
        return (logical, blocks)
    }

    /// Holes under a quarter of the file, none holding the commit: the commit continues at the
    /// logical end as one run (an eighth was the bound before: at a fifth the commit was spread
    /// over the two largest holes, one place more to sync).
    func testCommitNoHoleHoldsGoesToTheEndWhileHolesAreUnderAQuarter() {
        let (logical, blocks) = placeCommit(holeFraction: 0.2)
        XCTAssertEqual(blocks.first, logical, "the commit starts at the logical end")
        var end = logical
        for (b, length) in zip(blocks, [8192, 4096, 2048, 2048, 1024, 512, 512]) {
            XCTAssertEqual(b, end, "blocks follow each other: one run")
            end += UInt64(length)
        }
    }

    /// Holes over a quarter: the commit fills the largest holes (the file does not grow while a
    /// third of it is free).
    func testCommitFillsHolesWhenTheyAddUpToMoreThanAQuarter() {
        let (logical, blocks) = placeCommit(holeFraction: 0.3)
        XCTAssertTrue(blocks.allSatisfy { $0 < logical }, "every block reuses a hole: \(blocks)")
    }

    /// Encrypted files keep the eighth (their runs are pages plus IV pages; continuing at the end
    /// measured no faster): at a fifth the commit goes into holes.
    func testEncryptedCommitFillsHolesAboveAnEighth() {
        let (logical, blocks) = placeCommit(holeFraction: 0.2, encrypted: true)
        XCTAssertLessThan(blocks[0], logical, "the first block reuses a hole")
    }
}

/// The runs of one commit start in the largest holes without scanning the whole free list for
/// each run: the largest extents found by the first scan answer until space is added. Debug
/// builds check every such answer against a scan of the whole list (`regionStart`).
final class LargestExtentsTests: XCTestCase {
    func testRunsOfACommitReuseTheFirstScanAndPlaceAsAScanWould() {
        var random = SplitMix64(seed: 0x1A26_E575)
        var allocations = 0, scans = 0
        for round in 0..<200 {
            let encrypted = round % 2 == 1
            var entries: [FreeExtent] = []
            var o: UInt64 = MetaSlot.dataStart
            // Many holes adding up to well over a quarter of the file: runs go to the largest.
            for _ in 0..<Int(50 + random.next() % 400) {
                o += 8 * (1 + random.next() % 1200)
                let l = 8 * (1 + random.next() % (random.next() % 4 == 0 ? 4000 : 1500))
                entries.append(FreeExtent(offset: o, length: l, birth: 0, freed: 0))
                o += l
            }
            let logical = o + 4096
            let (reusable, held) = SpaceAllocator.split(entries)
            var alloc = SpaceAllocator(reusable: reusable, held: held, readers: [], logicalSize: logical,
                                       newVersion: 3, wholePages: encrypted)
            alloc.regionHint = 1 << 20          // no hole holds the commit: every run takes the largest
            var taken: [(offset: UInt64, length: UInt64)] = []
            for _ in 0..<Int(10 + random.next() % 60) {
                let length = random.next() % 4 == 0 ? 8 * (512 + random.next() % 1500) : 8 * (1 + random.next() % 400)
                let at = alloc.allocate(length)
                taken.append((at, length))
                // Now and then a block of this transaction is freed again (space is added).
                if random.next() % 10 == 0, let (bo, bl) = taken.popLast() { alloc.releaseUnseen(offset: bo, length: bl) }
            }
            allocations += taken.count
            scans += alloc.listScans
            // Allocations never overlap, and lie in free space or past the start's logical size.
            let sorted = taken.sorted { $0.offset < $1.offset }
            for (a, b) in zip(sorted, sorted.dropFirst()) { XCTAssertLessThanOrEqual(a.offset + a.length, b.offset, "round \(round)") }
            for t in taken where t.offset < logical {
                XCTAssertTrue(entries.contains { $0.offset <= t.offset && t.offset + t.length <= $0.offset + $0.length },
                              "round \(round): \(t) is not in a free extent")
            }
        }
        XCTAssertGreaterThan(allocations, 2000)
        XCTAssertLessThan(scans * 4, allocations, "each run scanned the list: \(scans) scans for \(allocations) allocations")
    }
}
