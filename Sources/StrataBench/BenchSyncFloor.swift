import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The physical references for the small-commit workloads, measured on the disk under the
/// benchmark with no CPU work around the writes. Reported beside the commit rows so their times
/// can be read against them (a commit cannot take less than its writes and one sync).
///
/// - `page` (the sync floor): one 4 KiB `pwrite`, then `fdatasync` — what a WAL commit of one
///   page does.
/// - `strataCommitShape`: the writes of Strata's small commit at 1,000,000 objects, then one
///   `fdatasync`: one 16 KiB run (commits there wrote a median of 16,956 bytes in one run,
///   counted with strace over 1,000 commits) and the 168-byte meta slot, alternately at offset 0
///   and 4096, as `docs/FORMAT.md` ("Commit protocol") describes. Its time is the least a commit
///   of that shape can take; the rest of a Strata commit's time is CPU.
///
/// Both write into an already written file (successive places, wrapping; no allocation, no
/// growth), like a commit writing into the zero-filled stretch ahead of the allocated area.
enum BenchSyncFloor {
    /// What one commit of a reference writes before its sync.
    enum Shape {
        /// One 4 KiB page.
        case page
        /// A 16 KiB run and a meta slot.
        case strataCommitShape

        /// Bytes written in one place per commit.
        var runBytes: Int { self == .page ? 4096 : 16 << 10 }
        /// Bytes of the meta slot written in a second place (0: none).
        var slotBytes: Int { self == .page ? 0 : 168 }
        /// The timing step it is measured as.
        var step: BenchStep { self == .page ? .syncFloor : .commitShapeFloor }
        /// The table's name for `count` commits.
        func name(count: Int) -> String {
            self == .page ? "\(BenchFormat.grouped(count)) x 4 KiB pwrite + fdatasync"
                : "\(BenchFormat.grouped(count)) x 16 KiB run + slot + fdatasync"
        }
    }

    /// The file the writes cycle through.
    static let fileBytes = 1 << 20
    /// Where the runs start: past the two meta slots.
    static let runsStart = 8192

    /// Creates the file in `directory`, writes and syncs it whole (untimed), then returns the
    /// seconds `count` commits of `shape` take (timed by `timer` as `shape.step`); the file is
    /// removed afterwards.
    static func measure(_ shape: Shape = .page, count: Int, directory: URL, timer: any BenchTimer, repetition: Int) throws -> Double {
        let path = directory.appendingPathComponent("sync-floor").path
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchError.fileOperation("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd); unlink(path) }
        let bufferBytes = max(shape.runBytes, 4096)
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: bufferBytes, alignment: 4096)
        defer { bytes.deallocate() }
        memset(bytes, 0x5A, bufferBytes)
        func write(_ count: Int, at offset: Int) throws {
            guard pwrite(fd, bytes, count, off_t(offset)) == count else {
                throw BenchError.fileOperation("pwrite \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
        func sync() throws {
            guard fdatasync(fd) == 0 else { throw BenchError.fileOperation("fdatasync \(path) failed: \(String(cString: strerror(errno)))") }
        }
        for offset in stride(from: 0, to: fileBytes, by: 4096) { try write(4096, at: offset) }
        try sync()
        // The page reference cycles through the whole file; the commit shape keeps the slots'
        // two pages for the slot and cycles its runs through the rest.
        let start = shape.slotBytes > 0 ? runsStart : 0
        let places = (fileBytes - start) / shape.runBytes
        let (_, seconds) = try timer.measure(shape.step, engine: 0, repetition: repetition) {
            for i in 0..<count {
                try write(shape.runBytes, at: start + (i % places) * shape.runBytes)
                if shape.slotBytes > 0 { try write(shape.slotBytes, at: (i % 2) * 4096) }
                try sync()
            }
        }
        return seconds
    }
}
