import XCTest
import Foundation
@testable import StrataStorage

/// `FileIO.write(parts:at:)`, the gathered write compaction uses: parts written back to back,
/// empty parts skipped, more parts than one `pwritev` takes; the default implementation (one
/// write per part, used by wrapping layers) gives the same file.
final class GatheredWriteTests: XCTestCase {
    func testGatheredWriteMatchesConcatenation() throws {
        let dir = TempDir()
        var rng = SplitMix64(seed: 7)
        // 1,300 parts (three pwritev calls), some empty, sizes 0..<300.
        let parts: [[UInt8]] = (0..<1_300).map { i in
            i % 97 == 0 ? [] : (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        }
        let expected = parts.flatMap { $0 }
        let plain = try PosixFileIO(path: dir.path("gathered"), create: true, readOnly: false)
        defer { plain.close() }
        let buffers = parts.map { p -> UnsafeMutableRawBufferPointer in
            let b = UnsafeMutableRawBufferPointer.allocate(byteCount: p.count, alignment: 8)
            b.copyBytes(from: p)
            return b
        }
        defer { buffers.forEach { $0.deallocate() } }
        try plain.write(parts: buffers.map { UnsafeRawBufferPointer($0) }, at: 100)
        var back = [UInt8](repeating: 0, count: expected.count)
        try back.withUnsafeMutableBytes { try plain.read(into: $0, at: 100) }
        XCTAssertEqual(back, expected)
        XCTAssertEqual(try plain.size(), UInt64(100 + expected.count))

        // The protocol's default (one write per part) writes the same bytes.
        final class OnePartAtATime: FileIO, @unchecked Sendable {
            let inner: PosixFileIO
            var writes = 0
            init(_ inner: PosixFileIO) { self.inner = inner }
            var path: String { inner.path }
            var fd: Int32 { inner.fd }
            func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws { writes += 1; try inner.write(bytes, at: offset) }
            func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws { try inner.read(into: buffer, at: offset) }
            func sync() throws { try inner.sync() }
            func size() throws -> UInt64 { try inner.size() }
            func truncate(to size: UInt64) throws { try inner.truncate(to: size) }
            func close() { inner.close() }
        }
        let other = OnePartAtATime(try PosixFileIO(path: dir.path("one-by-one"), create: true, readOnly: false))
        defer { other.close() }
        try other.write(parts: buffers.map { UnsafeRawBufferPointer($0) }, at: 100)
        XCTAssertEqual(other.writes, parts.filter { !$0.isEmpty }.count)
        var back2 = [UInt8](repeating: 0, count: expected.count)
        try back2.withUnsafeMutableBytes { try other.read(into: $0, at: 100) }
        XCTAssertEqual(back2, expected)
    }
}
