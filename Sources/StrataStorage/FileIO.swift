#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CStrataSupport

/// The file operations the storage layer performs on the database file. Reads go through the
/// memory mapping of `fd`; writes, syncs and size changes go through this protocol so tests can
/// inject faults (dropped or torn unsynced writes, a full disk) at exactly these points.
public protocol FileIO: AnyObject, Sendable {
    /// The path of the file, for error messages.
    var path: String { get }
    /// The descriptor the storage maps for reading.
    var fd: Int32 { get }
    /// Writes `bytes` at `offset`, growing the file if needed; throws `StorageError.diskFull` when the disk is full.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws
    /// Reads exactly `buffer.count` bytes at `offset` (for files that are not mapped, such as encrypted ones).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws
    /// Makes every write so far durable (fdatasync).
    func sync() throws
    /// The file's current size in bytes.
    func size() throws -> UInt64
    /// Truncates or extends the file to `size` bytes; throws `StorageError.diskFull` when the disk is full.
    func truncate(to size: UInt64) throws
    /// Closes the descriptor; later calls fail.
    func close()
    /// Starts writing a range to disk without waiting, so that the next `sync` finishes sooner
    /// (a hint: durability still comes only from `sync`).
    func startWriteback(offset: UInt64, length: UInt64)
    /// Writes `parts` one after another from `offset` (a gathered write).
    func write(parts: [UnsafeRawBufferPointer], at offset: UInt64) throws
    /// Writes zeros over `[from, to)`, space no version uses (past the logical size), so that
    /// later writes there overwrite blocks the file system has allocated already.
    func writeZeros(from: UInt64, to: UInt64) throws
}

extension FileIO {
    public func startWriteback(offset: UInt64, length: UInt64) {}
    /// `write` of a zeroed buffer, 64 KiB at a time.
    public func writeZeros(from: UInt64, to: UInt64) throws {
        guard to > from else { return }
        let chunk = Int(min(64 << 10, to - from))
        let zeros = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 4096)
        defer { zeros.deallocate() }
        memset(zeros, 0, chunk)
        var at = from
        while at < to {
            let n = Int(min(UInt64(chunk), to - at))
            try write(UnsafeRawBufferPointer(start: zeros, count: n), at: at)
            at += UInt64(n)
        }
    }

    /// One `write` per part.
    public func write(parts: [UnsafeRawBufferPointer], at offset: UInt64) throws {
        var at = offset
        for p in parts where p.count > 0 { try write(p, at: at); at += UInt64(p.count) }
    }
}

/// The real file: pwrite/pread/fdatasync/ftruncate on a descriptor.
public final class PosixFileIO: FileIO, @unchecked Sendable {
    /// The path of the file.
    public let path: String
    public let fd: Int32
    private var closed = false

    /// Opens (and with `create`, creates) the file at `path`.
    public init(path: String, create: Bool, readOnly: Bool) throws {
        self.path = path
        var flags: Int32 = readOnly ? O_RDONLY : O_RDWR
        if create && !readOnly { flags |= O_CREAT }
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below; for a
        // regular file the flag changes nothing).
        flags |= O_CLOEXEC | O_NONBLOCK
        let fd = open(path, flags, 0o644)
        if fd < 0 {
            let e = errno
            if e == ENOENT { throw StorageError.fileNotFound(path: path) }
            if e == ENXIO { throw StorageError.notARegularFile(path: path, kind: "socket or device") }
            throw StorageError.io(path: path, operation: "open", errno: e)
        }
        var st = stat()
        if fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG {
            Glibc.close(fd)
            throw StorageError.notARegularFile(path: path, kind: Store.fileKind(st.st_mode))
        }
        self.fd = fd
    }

    /// Writes `bytes` at `offset` with `pwrite`, retrying short writes.
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ENOSPC || errno == EDQUOT { throw StorageError.diskFull(path: path) }
                throw StorageError.io(path: path, operation: "write", errno: errno)
            }
            done += n
        }
    }

    /// Writes `parts` with `pwritev` (up to 512 at a time), retrying short writes.
    public func write(parts: [UnsafeRawBufferPointer], at offset: UInt64) throws {
        var i = 0, skip = 0, at = offset
        while i < parts.count && parts[i].count == 0 { i += 1 }
        while i < parts.count {
            var iov: [iovec] = []
            iov.reserveCapacity(min(512, parts.count - i))
            var j = i
            while j < parts.count && iov.count < 512 {
                let s = j == i ? skip : 0
                if parts[j].count > s {
                    iov.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: parts[j].baseAddress! + s), iov_len: parts[j].count - s))
                }
                j += 1
            }
            let n = iov.withUnsafeBufferPointer { pwritev(fd, $0.baseAddress, Int32($0.count), off_t(at)) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ENOSPC || errno == EDQUOT { throw StorageError.diskFull(path: path) }
                throw StorageError.io(path: path, operation: "write", errno: errno)
            }
            at += UInt64(n)
            var left = n
            while left > 0 && i < parts.count {
                let rest = parts[i].count - skip
                if left >= rest { left -= rest; i += 1; skip = 0 } else { skip += left; left = 0 }
            }
            while i < parts.count && parts[i].count == skip { i += 1; skip = 0 }
        }
    }

    /// Reads exactly `buffer.count` bytes at `offset` with `pread`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw StorageError.io(path: path, operation: "read", errno: errno)
            }
            if n == 0 { throw StorageError.corrupted(path: path, detail: "unexpected end of file at byte \(offset + UInt64(done))") }
            done += n
        }
    }

    public func startWriteback(offset: UInt64, length: UInt64) {
        _ = strata_start_writeback(fd, Int64(offset), Int64(length))
    }

    public func sync() throws {
        #if os(Linux)
        let r = fdatasync(fd)
        #else
        let r = fsync(fd)
        #endif
        if r != 0 {
            if errno == ENOSPC || errno == EDQUOT { throw StorageError.diskFull(path: path) }
            throw StorageError.io(path: path, operation: "fdatasync", errno: errno)
        }
    }

    /// The file's size, from `lseek` to its end (the descriptor's offset is not used: every
    /// read and write names its offset). Not `fstat`: asking for the file's timestamps makes
    /// the kernel (Linux 6.13+, multigrain timestamps) give the next write a fine-grained
    /// mtime, so the inode is dirtied by every commit and each `fdatasync` writes it too, a
    /// second synchronous write (measured: 0.12 -> 0.21 ms per 16 KiB commit with one fstat
    /// per commit).
    public func size() throws -> UInt64 {
        let end = lseek(fd, 0, SEEK_END)
        if end < 0 { throw StorageError.io(path: path, operation: "lseek", errno: errno) }
        return UInt64(end)
    }

    /// Truncates or extends the file with `ftruncate`.
    public func truncate(to size: UInt64) throws {
        while ftruncate(fd, off_t(size)) != 0 {
            if errno == EINTR { continue }
            if errno == ENOSPC || errno == EDQUOT || errno == EFBIG { throw StorageError.diskFull(path: path) }
            throw StorageError.io(path: path, operation: "ftruncate", errno: errno)
        }
    }

    /// Closes the descriptor.
    public func close() {
        if !closed { closed = true; _ = Glibc.close(fd) }
    }

    deinit { close() }
}
