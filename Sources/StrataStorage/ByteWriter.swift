/// Little-endian helpers over raw memory. Every decoder in the storage layer reads through
/// bounds-checked views (`BlockView`), so these unchecked helpers are only used where the
/// caller has already checked the range.
extension UnsafeMutableRawPointer {
    @inline(__always) func putLE<T: FixedWidthInteger>(_ v: T, at offset: Int) {
        storeBytes(of: v.littleEndian, toByteOffset: offset, as: T.self)
    }
}

extension UnsafeRawPointer {
    @inline(__always) func getLE<T: FixedWidthInteger>(_ offset: Int, as: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}

/// An append-only byte buffer with little-endian writers, used to encode small structures.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []
    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }
    package mutating func u8(_ v: UInt8) { bytes.append(v) }
    package mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    package mutating func append<C: Collection>(_ c: C) where C.Element == UInt8 { bytes.append(contentsOf: c) }
    /// Length-prefixed (u32) bytes.
    package mutating func lengthPrefixed<C: Collection>(_ c: C) where C.Element == UInt8 { u32(UInt32(c.count)); bytes.append(contentsOf: c) }
    package mutating func string(_ s: String) { lengthPrefixed(Array(s.utf8)) }
}

/// A bounds-checked little-endian reader: any read past the end throws instead of trapping.
package struct ByteReader {
    package let bytes: UnsafeRawBufferPointer
    package private(set) var offset: Int = 0
    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    package struct OutOfBounds: Error { package init() {} }
    package var remaining: Int { bytes.count - offset }
    @inline(__always) mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws -> T {
        guard offset >= 0, MemoryLayout<T>.size <= bytes.count - offset else { throw OutOfBounds() }
        let v = T(littleEndian: bytes.baseAddress!.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset += MemoryLayout<T>.size
        return v
    }
    package mutating func u8() throws -> UInt8 { try fixed(UInt8.self) }
    package mutating func u16() throws -> UInt16 { try fixed(UInt16.self) }
    package mutating func u32() throws -> UInt32 { try fixed(UInt32.self) }
    package mutating func u64() throws -> UInt64 { try fixed(UInt64.self) }
    package mutating func i64() throws -> Int64 { Int64(bitPattern: try fixed(UInt64.self)) }
    package mutating func take(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, n <= bytes.count - offset else { throw OutOfBounds() }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
    }
    package mutating func lengthPrefixed() throws -> [UInt8] { Array(try take(Int(try u32()))) }
    package mutating func string() throws -> String { String(decoding: try lengthPrefixed(), as: UTF8.self) }
}
