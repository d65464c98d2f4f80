import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The physical reference for the small-commit workloads: the least a durable commit can take
/// on the disk under the benchmark. `count` times: one 4 KiB `pwrite` into an already written
/// 1 MiB file (successive pages, wrapping; no allocation, no growth), then `fdatasync` — what a
/// WAL commit of one page does, with no CPU work around it. Reported beside the commit rows so
/// their times can be read against it (a commit cannot take less than one sync).
enum BenchSyncFloor {
    /// Bytes per write: one page.
    static let writeBytes = 4096
    /// The file the writes cycle through.
    static let fileBytes = 1 << 20

    /// Creates the file in `directory`, writes and syncs it whole (untimed), then returns the
    /// seconds `count` write + `fdatasync` pairs take (timed by `timer` as `.syncFloor`); the
    /// file is removed afterwards.
    static func measure(count: Int, directory: URL, timer: any BenchTimer, repetition: Int) throws -> Double {
        let path = directory.appendingPathComponent("sync-floor").path
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchError.fileOperation("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd); unlink(path) }
        let page = UnsafeMutableRawPointer.allocate(byteCount: writeBytes, alignment: 4096)
        defer { page.deallocate() }
        memset(page, 0x5A, writeBytes)
        func write(at offset: Int) throws {
            guard pwrite(fd, page, writeBytes, off_t(offset)) == writeBytes else {
                throw BenchError.fileOperation("pwrite \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
        func sync() throws {
            guard fdatasync(fd) == 0 else { throw BenchError.fileOperation("fdatasync \(path) failed: \(String(cString: strerror(errno)))") }
        }
        for offset in stride(from: 0, to: fileBytes, by: writeBytes) { try write(at: offset) }
        try sync()
        let pages = fileBytes / writeBytes
        let (_, seconds) = try timer.measure(.syncFloor, engine: 0, repetition: repetition) {
            for i in 0..<count {
                try write(at: (i % pages) * writeBytes)
                try sync()
            }
        }
        return seconds
    }
}
