import XCTest
import Foundation
@testable import StrataObjects
@testable import StrataStorage

/// Decoding a stored int column for a change (`MutableColumn(ColumnView)`, one loop per packing
/// width) gives every row the value the view reads, for each width, with and without nulls.
final class ColumnDecodeTests: XCTestCase {
    func testIntDecodeEqualsViewForEveryWidth() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("d.strata"), schema: BulkDeleteTests.schema)
        let w = try db.write()
        defer { w.abort() }
        let t = try w.table("Row")
        var rng = SplitMix64(seed: 11)
        func r(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var widths = Set<Int>()
        for trial in 0..<140 {
            let n = 1 + r(trial % 2 == 0 ? 1100 : 30)
            let values: [Int64]
            switch trial % 7 {
            case 0: values = (0..<n).map { Int64(-500 + $0) }                         // sequence
            case 1: values = (0..<n).map { _ in Int64(r(2)) + 9 }                      // width 1
            case 2: values = (0..<n).map { _ in Int64(r(200)) - 100 }                  // width 8
            case 3: values = (0..<n).map { _ in Int64(r(60_000)) + 1_000_000 }         // width 16
            case 4: values = (0..<n).map { _ in Int64(r(3)) * 40_000 - 7 }             // width 32
            case 5: values = (0..<n).map { _ in Int64(bitPattern: rng.next()) }        // width 64
            default: values = (0..<n).map { _ in -3 }                                  // width 0
            }
            let col = MutableColumn.ints(values)
            if trial % 3 == 1 { col.nulls = (0..<n).map { _ in r(4) == 0 } }
            let view = try t.columnView(try t.writeColumn(col))
            widths.insert(view.width)
            let decoded = MutableColumn(view)
            XCTAssertEqual(decoded.count, n)
            XCTAssertEqual(decoded.ints, (0..<n).map { view.int($0) }, "trial \(trial), width \(view.width)")
            for i in 0..<n where col.nulls?[i] != true {
                XCTAssertEqual(decoded.ints[i], values[i], "trial \(trial), width \(view.width), row \(i)")
            }
            XCTAssertEqual(decoded.nulls, col.nulls)
        }
        XCTAssertEqual(widths, [0, 1, 8, 16, 32, 64, ColumnView.sequenceWidth])
    }

    /// A bytes column whose offsets do not ascend (damage in a block read without its checksum,
    /// as the integrity check does) decodes row by row to what the view reads — empty for a
    /// row whose range is reversed or out of bounds — instead of trapping; offsets that ascend
    /// from a non-zero start take the bulk copy.
    func testBytesDecodeOfDisorderedOffsetsEqualsView() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("b.strata"), schema: BulkDeleteTests.schema)
        let w = try db.write()
        defer { w.abort() }
        let t = try w.table("Row")
        let data = Array("abcdefgh".utf8)
        func column(_ offsets: [UInt16]) throws -> ColumnView {
            let n = offsets.count - 1
            let ref = try t.write.writeGeneric(kind: ObjectBlockKind.column, refs: [], byteCount: 16 + 2 * offsets.count + data.count) { b in
                let p = b.baseAddress!
                memset(p, 0, b.count)
                p.storeBytes(of: ColumnLayout.bytes.rawValue, toByteOffset: 0, as: UInt8.self)
                p.storeBytes(of: UInt8(16), toByteOffset: 2, as: UInt8.self)
                p.storeBytes(of: UInt32(n).littleEndian, toByteOffset: 4, as: UInt32.self)
                for (i, o) in offsets.enumerated() { p.storeBytes(of: o.littleEndian, toByteOffset: 16 + 2 * i, as: UInt16.self) }
                for (i, byte) in data.enumerated() { p.storeBytes(of: byte, toByteOffset: 16 + 2 * offsets.count + i, as: UInt8.self) }
            }
            return try t.columnView(ref)
        }
        for offsets: [UInt16] in [[0, 5, 3, 8], [7, 2, 8, 8], [2, 4, 4, 8], [0, 8, 1, 8], [3, 3]] {
            let view = try column(offsets)
            let decoded = MutableColumn(view)
            XCTAssertEqual(decoded.count, offsets.count - 1)
            for i in 0..<decoded.count {
                let expected = Array(view.bytes(i))
                XCTAssertEqual(decoded.withBytes(i) { Array($0) }, expected, "offsets \(offsets), row \(i)")
            }
        }
        // The reversed row reads empty, the next one from its own start.
        let view = try column([0, 5, 3, 8])
        XCTAssertEqual(MutableColumn(view).withBytes(1) { Array($0) }, [])
        XCTAssertEqual(MutableColumn(view).withBytes(2) { String(decoding: $0, as: UTF8.self) }, "defgh")
    }
}
