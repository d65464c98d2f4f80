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
