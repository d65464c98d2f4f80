import XCTest
@testable import StrataStorage

/// The block and meta-slot checksum is part of the file format: these values were computed by
/// an independent implementation of the algorithm as docs/FORMAT.md describes it ("Checksums"), so a faster
/// implementation that changed a single bit of the result fails here instead of making every
/// existing file unreadable.
final class ChecksumTests: XCTestCase {
    func testKnownValues() {
        XCTAssertEqual(Checksum.hash([UInt8]()), 0xE9E5_4E5E_5527_369F)
        XCTAssertEqual(Checksum.hash(Array("strata".utf8)), 0xA548_4650_7A69_B4CD)
        XCTAssertEqual(Checksum.hash((0..<100).map { UInt8($0) }), 0xF23A_92DF_B7C5_9259)
        let long = Array(repeating: (0..<256).map { UInt8($0) }, count: 17).flatMap { $0 }
        XCTAssertEqual(Checksum.hash(long, seed: 0x1234), 0x4051_BE23_90DC_3BC4)
        XCTAssertEqual(Checksum.hash((0..<45).map { UInt8($0) }, seed: 7), 0xF86B_04C1_55CF_83C3)
    }

    /// Every length from 0 to 80 at every alignment: the 32-byte lanes, the 8-byte words and the
    /// tail bytes all reach the result (a flipped bit anywhere changes it).
    func testEveryByteCounts() {
        let bytes = (0..<96).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        bytes.withUnsafeBytes { raw in
            for start in 0..<8 {
                for count in 0...80 {
                    let base = raw.baseAddress! + start
                    let h = Checksum.hash(base, count)
                    var copy = Array(UnsafeRawBufferPointer(start: base, count: count))
                    for i in stride(from: 0, to: count, by: 7) {
                        copy[i] ^= 0x10
                        XCTAssertNotEqual(copy.withUnsafeBytes { Checksum.hash($0) }, h, "start \(start) count \(count) byte \(i)")
                        copy[i] ^= 0x10
                    }
                    XCTAssertEqual(copy.withUnsafeBytes { Checksum.hash($0) }, h)
                }
            }
        }
    }
}
