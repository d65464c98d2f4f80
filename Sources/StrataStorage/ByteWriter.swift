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
public struct ByteWriter {
    public private(set) var bytes: [UInt8] = []
    public init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }
    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    public mutating func append<C: Collection>(_ c: C) where C.Element == UInt8 { bytes.append(contentsOf: c) }
    /// Length-prefixed (u32) bytes.
    public mutating func lengthPrefixed<C: Collection>(_ c: C) where C.Element == UInt8 { u32(UInt32(c.count)); bytes.append(contentsOf: c) }
    public mutating func string(_ s: String) { lengthPrefixed(Array(s.utf8)) }
}

/// A bounds-checked little-endian reader: any read past the end throws instead of trapping.
public struct ByteReader {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var offset: Int = 0
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    public struct OutOfBounds: Error { public init() {} }
    public var remaining: Int { bytes.count - offset }
    @inline(__always) mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws -> T {
        guard offset >= 0, MemoryLayout<T>.size <= bytes.count - offset else { throw OutOfBounds() }
        let v = T(littleEndian: bytes.baseAddress!.loadUnaligned(fromByteOffset: offset, as: T.self))
        offset += MemoryLayout<T>.size
        return v
    }
    public mutating func u8() throws -> UInt8 { try fixed(UInt8.self) }
    public mutating func u16() throws -> UInt16 { try fixed(UInt16.self) }
    public mutating func u32() throws -> UInt32 { try fixed(UInt32.self) }
    public mutating func u64() throws -> UInt64 { try fixed(UInt64.self) }
    public mutating func i64() throws -> Int64 { Int64(bitPattern: try fixed(UInt64.self)) }
    public mutating func take(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, n <= bytes.count - offset else { throw OutOfBounds() }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
    }
    public mutating func lengthPrefixed() throws -> [UInt8] { Array(try take(Int(try u32()))) }
    public mutating func string() throws -> String { String(decoding: try lengthPrefixed(), as: UTF8.self) }
}
