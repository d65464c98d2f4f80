#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The logical bytes of a Realm file: the read-only mmap of a plain file, or the decrypted
/// pages of an encrypted one. Every read is bounds-checked and throws `RealmFileError.corrupt`.
/// The mapping is `PROT_READ`/`MAP_PRIVATE`: nothing here can write the file.
final class RealmBytes: @unchecked Sendable {
    let base: UnsafeRawPointer?
    let count: Int
    private let mappedLength: Int
    private let owned: UnsafeMutableRawPointer?
    /// For encrypted files: decrypts pages as reads reach them.
    let pager: RealmPager?

    /// Maps `path` read-only. Never creates anything beside the file.
    init(mapping path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw RealmFileError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw RealmFileError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw RealmFileError.cannotOpen(path: path, reason: "not a regular file")
        }
        let size = Int(st.st_size)
        count = size
        mappedLength = size
        owned = nil
        pager = nil
        if size == 0 {
            base = nil
            return
        }
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw RealmFileError.cannotOpen(path: path, reason: "mmap failed: " + String(cString: strerror(errno)))
        }
        base = UnsafeRawPointer(p)
    }

    /// Takes ownership of `buffer` (allocated with `UnsafeMutableRawPointer.allocate`).
    init(owning buffer: UnsafeMutableRawPointer, count: Int, pager: RealmPager? = nil) {
        self.pager = pager
        self.base = UnsafeRawPointer(buffer)
        self.owned = buffer
        self.count = count
        self.mappedLength = 0
    }

    /// A copy of `bytes` (tests and in-memory mutations).
    convenience init(copying bytes: [UInt8]) {
        let p = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { src in
            if let s = src.baseAddress { p.copyMemory(from: s, byteCount: bytes.count) }
        }
        self.init(owning: p, count: bytes.count)
    }

    deinit {
        if let owned {
            owned.deallocate()
        } else if let base, mappedLength > 0 {
            munmap(UnsafeMutableRawPointer(mutating: base), mappedLength)
        }
    }

    @inline(__always)
    func check(_ offset: Int, _ length: Int) throws {
        guard offset >= 0, length >= 0, offset <= count, length <= count &- offset else {
            throw RealmFileError.corrupt("a read of \(length) bytes at offset \(offset) runs past the end of the file (\(count) bytes)")
        }
        if let pager { try pager.ensure(offset, length) }
    }

    @inline(__always)
    func u8(_ offset: Int) throws -> UInt8 {
        try check(offset, 1)
        return base.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// Little-endian unsigned integer of `size` bytes (1...8) at `offset`; bounds-checked.
    @inline(__always)
    func le(_ offset: Int, _ size: Int) throws -> UInt64 {
        try check(offset, size)
        return uncheckedLE(offset, size)
    }

    /// Caller has checked `offset..<offset+size` is inside the file.
    @inline(__always)
    func uncheckedLE(_ offset: Int, _ size: Int) -> UInt64 {
        let p = base.unsafelyUnwrapped
        switch size {
        case 8: return UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        case 4: return UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        case 2: return UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 1: return UInt64(p.load(fromByteOffset: offset, as: UInt8.self))
        default:
            var v: UInt64 = 0
            for i in 0..<size { v |= UInt64(p.load(fromByteOffset: offset &+ i, as: UInt8.self)) << UInt64(8 * i) }
            return v
        }
    }

    /// `length` bytes at `offset`, copied out.
    func bytes(_ offset: Int, _ length: Int) throws -> [UInt8] {
        try check(offset, length)
        if length == 0 { return [] }
        return Array(UnsafeRawBufferPointer(start: base.unsafelyUnwrapped.advanced(by: offset), count: length))
    }
}
