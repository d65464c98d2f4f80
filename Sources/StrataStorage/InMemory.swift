#if canImport(Glibc)
import Glibc
#endif
import CStrataSupport
import Foundation

/// The process-wide registry of in-memory databases (`StoreOptions.inMemoryIdentifier`).
///
/// Each identifier owns two memory-backed files (`memfd_create`): the database and its lock
/// file, so the storage code (mmap, pwrite, byte-range locks, the futex) runs unchanged. Every
/// handle opens them through `/proc/self/fd/N`, which gives it its own open file description
/// (byte-range locks between handles work as between processes). When the last handle with an
/// identifier closes, the registry closes the files and the kernel frees the data.
final class InMemoryFiles: @unchecked Sendable {
    static let shared = InMemoryFiles()

    struct Entry {
        var dataFD: Int32
        var lockFD: Int32
        var handles: Int
        var dataPath: String { "/proc/self/fd/\(dataFD)" }
        var lockPath: String { "/proc/self/fd/\(lockFD)" }
    }

    private let mutex = NSLock()
    private var entries: [String: Entry] = [:]

    /// Joins (or with `create`, creates) the database `id`.
    func acquire(_ id: String, create: Bool, name: String) throws -> Entry {
        mutex.lock(); defer { mutex.unlock() }
        if var e = entries[id] {
            e.handles += 1
            entries[id] = e
            return e
        }
        guard create else { throw StorageError.fileNotFound(path: name) }
        let data = strata_memfd_create("strata:" + id)
        guard data >= 0 else { throw StorageError.io(path: name, operation: "memfd_create", errno: errno) }
        let lock = strata_memfd_create("strata-lock:" + id)
        guard lock >= 0 else { let e = errno; close(data); throw StorageError.io(path: name, operation: "memfd_create", errno: e) }
        let e = Entry(dataFD: data, lockFD: lock, handles: 1)
        entries[id] = e
        return e
    }

    /// Leaves the database `id`; the last handle frees it.
    func release(_ id: String) {
        mutex.lock(); defer { mutex.unlock() }
        guard var e = entries[id] else { return }
        e.handles -= 1
        if e.handles > 0 { entries[id] = e; return }
        entries[id] = nil
        close(e.dataFD)
        close(e.lockFD)
    }

    /// Identifiers with open handles (tests, diagnostics).
    var identifiers: [String] { mutex.lock(); defer { mutex.unlock() }; return entries.keys.sorted() }
}
