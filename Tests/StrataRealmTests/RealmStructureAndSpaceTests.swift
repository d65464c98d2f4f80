import Foundation
import XCTest
@testable import StrataRealm

/// `checkStructure()` and `spaceReport()`: sound fixtures report no problems (realm-trawler finds
/// none in them), planted faults are found, and the free list matches realm-trawler's numbers.
final class RealmStructureAndSpaceTests: XCTestCase {
    func image(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: RealmOracle.fixtureURL(name))) }

    func testEveryFixtureIsSound() throws {
        for name in RealmFuzzTests.fixtures {
            let f = try RealmFile.open(path: RealmOracle.fixtureURL(name).path)
            let r = f.checkStructure()
            XCTAssertEqual(r.problems, [], name)
            XCTAssertGreaterThan(r.nodeCount, 3, name)
            XCTAssertLessThanOrEqual(r.liveBytes + r.freeBytes, r.fileSize, name)
        }
    }

    /// Writes `value` into element `i` of the node at `ref` (test-only mutation of an image).
    func set(_ b: inout [UInt8], node ref: Int, element i: Int, to value: Int64) throws {
        let n = try RealmNode(RealmBytes(copying: b), ref: ref)
        let w = n.width / 8
        XCTAssertGreaterThan(w, 0)
        for k in 0..<w { b[ref + 8 + i * w + k] = UInt8(truncatingIfNeeded: value >> (8 * Int64(k))) }
    }

    func testNodeReferencedTwiceIsReported() throws {
        var b = try image("history.realm")
        let f = try RealmFile.open(image: b)
        let names = try XCTUnwrap(try f.top.ref(0))
        XCTAssertGreaterThanOrEqual(f.top.width, 32)
        try set(&b, node: f.topRef, element: 6, to: Int64(names)) // version slot now also points at the names
        let r = try RealmFile.open(image: b).checkStructure()
        XCTAssertTrue(r.problems.contains { $0.contains("referenced twice") }, "\(r.problems)")
    }

    func testLiveNodeInsideFreeListIsReported() throws {
        var b = try image("history.realm")
        let f = try RealmFile.open(image: b)
        let positions = try XCTUnwrap(try f.top.ref(3))
        let names = try XCTUnwrap(try f.top.ref(0))
        try set(&b, node: positions, element: 0, to: Int64(names))
        let r = try RealmFile.open(image: b).checkStructure()
        XCTAssertTrue(r.problems.contains { $0.contains("inside the free extent") }, "\(r.problems)")
    }

    func testRefOutsideFileIsReported() throws {
        var b = try image("nested.realm")
        let f = try RealmFile.open(image: b)
        try set(&b, node: f.topRef, element: 6, to: Int64(b.count + 4096))
        let r = try RealmFile.open(image: b).checkStructure()
        XCTAssertTrue(r.problems.contains { $0.contains("outside the file") }, "\(r.problems)")
    }

    /// realm-trawler on history.realm: free list 229 entries, 519 KB free; compacted copy: none.
    func testFreeListMatchesTrawler() throws {
        let f = try RealmFile.open(path: RealmOracle.fixtureURL("history.realm").path)
        let s = try f.spaceReport()
        XCTAssertEqual(s.freeBySize.map(\.extents).reduce(0, +), 229)
        XCTAssertEqual(s.freeBySize.map(\.bytes).reduce(0, +), s.freeBytes)
        XCTAssertEqual(s.freeByVersion.map(\.bytes).reduce(0, +), s.freeBytes)
        XCTAssertEqual(Double(s.freeBytes) / 1024, 519, accuracy: 1)
        XCTAssertGreaterThan(s.freeByVersion.count, 1, "free extents carry the versions that freed them")
        XCTAssertGreaterThan(s.historyBytes, 0, "in-Realm history")
        XCTAssertGreaterThanOrEqual(s.reclaimableBytes, s.freeBytes)
        let item = try XCTUnwrap(s.classes.first { $0.name == "Item" })
        XCTAssertEqual(item.objectCount, 2000)
        XCTAssertEqual(Set(item.columns.map(\.name)), ["id", "value", "text", "tags"])
        XCTAssertTrue(item.columns.allSatisfy { $0.bytes > 0 })
        XCTAssertGreaterThan(item.columns.first { $0.name == "id" }?.indexBytes ?? 0, 0, "primary-key index")
        XCTAssertLessThanOrEqual(s.classes.map(\.totalBytes).reduce(0, +), s.fileSize)

        let c = try RealmFile.open(path: RealmOracle.fixtureURL("history-compacted.realm").path).spaceReport()
        XCTAssertEqual(c.freeBytes, 0)
        XCTAssertTrue(c.freeBySize.isEmpty)
    }
}
