#if canImport(Glibc)
import Glibc
#endif

/// A read-only shared mapping of the database file.
///
/// Invariant: the mapping reserves far more address space than the file uses (64 GiB by
/// default), so the file can grow without remapping and pointers handed to readers stay valid
/// for as long as the handle lives. Pages past the end of the file are never touched: every
/// access is checked against the logical size of the reader's version, which never exceeds the
/// synced file size. When a file outgrows the reservation a larger mapping is made; older
/// mappings stay alive until the handle closes, so earlier pointers remain valid.
final class MappedFile: @unchecked Sendable {
    private(set) var base: UnsafeRawPointer
    private(set) var reserved: Int
    private var retired: [(UnsafeMutableRawPointer, Int)] = []
    private let fd: Int32
    private let path: String
    static let defaultReservation = 1 << 36

    init(fd: Int32, path: String, minimumSize: UInt64) throws {
        self.fd = fd
        self.path = path
        var size = MappedFile.defaultReservation
        while UInt64(size) < minimumSize * 2 { size *= 2 }
        guard let p = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            throw StorageError.io(path: path, operation: "mmap", errno: errno)
        }
        base = UnsafeRawPointer(p)
        reserved = size
    }

    /// Makes sure `size` bytes are inside the reservation (remaps to a larger one if not).
    func ensureCovers(_ size: UInt64) throws {
        if size <= UInt64(reserved) { return }
        var newSize = reserved
        while UInt64(newSize) < size { newSize *= 2 }
        guard let p = mmap(nil, newSize, PROT_READ, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            throw StorageError.io(path: path, operation: "mmap", errno: errno)
        }
        retired.append((UnsafeMutableRawPointer(mutating: base), reserved))
        base = UnsafeRawPointer(p)
        reserved = newSize
    }

    /// Maps the file now behind `fd` (a compaction put a new file behind the same descriptor
    /// number) over the same address range, so `base` stays valid, and drops older mappings.
    /// Only valid while nothing reads through the mapping (no transaction is open).
    func replaceInPlace() throws {
        guard let p = mmap(UnsafeMutableRawPointer(mutating: base), reserved, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0),
              p != MAP_FAILED else {
            throw StorageError.io(path: path, operation: "mmap (after compaction)", errno: errno)
        }
        for (q, n) in retired { munmap(q, n) }
        retired.removeAll()
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), reserved)
        for (p, n) in retired { munmap(p, n) }
    }
}
