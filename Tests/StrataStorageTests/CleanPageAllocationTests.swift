import XCTest
@testable import StrataStorage

/// The clean-page rule of encrypted files (docs/FORMAT.md, "Encrypted files"): a transaction
/// writes whole pages, so every page it allocates in must hold no byte that a committed version
/// can see. The allocator keeps free extents whole and allocates only from their page-aligned
/// interiors (or right after its own previous block); these tests check that rule on random
/// lists and random allocations, byte by byte.
final class CleanPageAllocationTests: XCTestCase {
    private let page = UInt64(PageLayout.pageSize)

    /// Random free lists (extents that start and end anywhere, many sharing pages with live
    /// bytes) and random allocations of blocks below and above a page, with and without a
    /// region hint: each allocation lies in free space or past the logical end, allocations never
    /// overlap, every page an allocation touches holds only free bytes, bytes past the start's
    /// logical size or bytes this transaction allocated, and the reported list changes turn the
    /// base list into the final one.
    func testAllocationsTouchOnlyCleanPages() {
        var random = SplitMix64(seed: 0xC1EA_4A6E)
        var allocations = 0, insideExtents = 0
        for round in 0..<300 {
            var entries: [FreeExtent] = []
            var o: UInt64 = MetaSlot.dataStart
            for _ in 0..<Int(1 + random.next() % 40) {
                o += 8 * (1 + random.next() % 600)                   // live bytes between extents
                let l = 8 * (1 + random.next() % 3000)                // up to ~6 pages
                entries.append(FreeExtent(offset: o, length: l, birth: 0, freed: 0))
                o += l
            }
            let logical = o + 8 * (1 + random.next() % 100)
            let (reusable, held) = SpaceAllocator.split(entries)
            var alloc = SpaceAllocator(reusable: reusable, held: held, readers: [], logicalSize: logical,
                                       newVersion: 9, wholePages: true)
            // The list is not cut into page interiors (that made each encrypted commit O(list)).
            XCTAssertEqual(alloc.reusable.map(\.offset), reusable.map(\.offset), "round \(round)")
            XCTAssertEqual(alloc.reusable.map(\.length), reusable.map(\.length), "round \(round)")
            if random.next() % 2 == 0 { alloc.regionHint = 4096 * (1 + random.next() % 6) }
            var taken: [(offset: UInt64, length: UInt64)] = []
            for _ in 0..<Int(1 + random.next() % 12) {
                let length = random.next() % 3 == 0 ? 8 * (513 + random.next() % 2000) : 8 * (1 + random.next() % 512)
                let placed: (offset: UInt64, length: UInt64)
                if random.next() % 2 == 0 { placed = alloc.allocateNode(length) } else { placed = (alloc.allocate(length), length) }
                XCTAssertGreaterThanOrEqual(placed.length, length)
                for t in taken {
                    XCTAssertTrue(placed.offset + placed.length <= t.offset || t.offset + t.length <= placed.offset,
                                  "round \(round): \(placed) overlaps \(t)")
                }
                // Free before: inside one base extent or past the logical size.
                let inExtent = reusable.contains { $0.offset <= placed.offset && placed.offset + placed.length <= $0.offset + $0.length }
                XCTAssertTrue(inExtent || placed.offset >= logical, "round \(round): \(placed) is not free space")
                if inExtent { insideExtents += 1 }
                taken.append(placed)
                allocations += 1
                // Every byte of every page it touches: free, past the logical size, or ours.
                let clean = reusable + taken + [(logical, UInt64.max / 2)]
                var p = placed.offset & ~(page - 1)
                while p < placed.offset + placed.length {
                    XCTAssertEqual(covered(p, p + page, by: clean), page,
                                   "round \(round): page at \(p) of \(placed) holds bytes a committed version can see")
                    p += page
                }
            }
            alloc.finish()
            let (dropped, gained) = alloc.listChanges()
            XCTAssertEqual(FreeListCodec.apply(base: entries, removed: dropped, added: gained, logicalSize: alloc.logicalSize),
                           alloc.finalEntries(), "round \(round)")
            // Nothing allocated stays on the list, and no free byte was lost below the logical end.
            let final = alloc.finalEntries()
            for t in taken {
                XCTAssertFalse(final.contains { $0.offset < t.offset + t.length && t.offset < $0.offset + $0.length },
                               "round \(round): allocated \(t) is still free")
            }
            let freeBefore = covered(MetaSlot.dataStart, logical, by: reusable)
            let freeAfter = covered(MetaSlot.dataStart, logical, by: final.map { ($0.offset, $0.length) })
            let takenBelow = covered(MetaSlot.dataStart, logical, by: taken)
            XCTAssertEqual(freeAfter + takenBelow, freeBefore, "round \(round): free bytes lost or invented")
        }
        XCTAssertGreaterThan(insideExtents, allocations / 4, "allocations should often reuse free extents")
    }

    /// Bytes of `lo..<hi` covered by `ranges` (which may overlap).
    private func covered(_ lo: UInt64, _ hi: UInt64, by ranges: [(offset: UInt64, length: UInt64)]) -> UInt64 {
        var parts: [(UInt64, UInt64)] = []
        for r in ranges {
            let a = max(lo, r.offset), b = min(hi, r.offset &+ r.length)
            if a < b { parts.append((a, b)) }
        }
        parts.sort { $0.0 < $1.0 }
        var total: UInt64 = 0, end = lo
        for (a, b) in parts where b > end {
            total += b - max(a, end)
            end = b
        }
        return total
    }
}
