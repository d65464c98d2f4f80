@testable import StrataStorage
#if canImport(Glibc)
import Glibc
#endif
@testable import StrataStorage

/// A file layer for crash and fault tests, modelled on SQLite's crash-test VFS: writes and size
/// changes go through to the real file, but the layer remembers what each unsynced one replaced.
/// At a chosen sync point it "loses power": unsynced changes are dropped (old bytes and size
/// restored) or torn (a random subset of their 512-byte sectors restored; bytes a write added
/// past the old end of the file zeroed sector by sector or cut off with the size change; a
/// truncation kept or lost), and every later operation fails. It can also fail writes with
/// "disk full" after a byte budget. Test code only: the storage layer sees the `FileIO` protocol.
public final class FaultInjectingFileIO: FileIO, @unchecked Sendable {
    /// What a simulated power loss does to writes that were not yet synced.
    public enum LossMode: Sendable {
        case dropAll, tearRandomly(seed: UInt64), keepAll
        /// Unsynced writes to the meta slots (the first 8192 bytes) survive, all others are
        /// dropped: the disk reordered the writes of a one-sync commit against it.
        case keepMetaSlotsOnly
    }

    public struct SimulatedCrash: Error, CustomStringConvertible {
        public var description: String { "simulated power loss" }
    }

    private let inner: PosixFileIO
    public var path: String { inner.path }
    public var fd: Int32 { inner.fd }

    /// An unsynced change: a write at `offset` (`before`: the bytes it replaced inside the old
    /// size; `length` bytes written) or a size change (`before`: the bytes a shrink removed).
    private struct Pending { var offset: UInt64; var length: UInt64; var before: [UInt8]; var oldSize: UInt64; var isTruncation: Bool }
    private var pending: [Pending] = []
    private var syncCount = 0
    private var crashed = false
    private var writtenBytes = 0
    /// Lose power when the sync with this number (1-based, counted from creation) is requested.
    public var crashAtSync: Int?
    public var lossMode: LossMode = .dropAll
    /// Fail every write with `StorageError.diskFull` once this many bytes were written.
    public var diskFullAfterBytes: Int?

    public init(path: String, create: Bool) throws {
        inner = try PosixFileIO(path: path, create: create, readOnly: false)
    }

    public var hasCrashed: Bool { crashed }
    /// Whether an unsynced write to a meta slot was pending when power was lost.
    public private(set) var metaSlotWritePending = false
    /// Whether an unsynced write elsewhere (blocks) was pending when power was lost.
    public private(set) var blockWritePending = false
    /// What the loss did to changes past the old end of the file and to truncations (tests
    /// assert these cases really happened).
    public private(set) var extendingWritesTorn = 0
    public private(set) var extendingWritesCutOff = 0
    public private(set) var truncationsLost = 0
    public var syncs: Int { syncCount }

    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        if crashed { throw SimulatedCrash() }
        if let limit = diskFullAfterBytes, writtenBytes + bytes.count > limit { throw StorageError.diskFull(path: path) }
        let size = try inner.size()
        var before = [UInt8]()
        if offset < size {
            let n = Int(min(UInt64(bytes.count), size - offset))
            before = [UInt8](repeating: 0, count: n)
            try before.withUnsafeMutableBytes { try inner.read(into: $0, at: offset) }
        }
        pending.append(Pending(offset: offset, length: UInt64(bytes.count), before: before, oldSize: size, isTruncation: false))
        writtenBytes += bytes.count
        try inner.write(bytes, at: offset)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        if crashed { throw SimulatedCrash() }
        try inner.read(into: buffer, at: offset)
    }

    public func sync() throws {
        if crashed { throw SimulatedCrash() }
        syncCount += 1
        if let at = crashAtSync, syncCount >= at {
            try losePower()
            throw SimulatedCrash()
        }
        try inner.sync()
        pending.removeAll()
    }

    /// Applies the loss mode to unsynced changes now, as if power failed before they reached
    /// the disk.
    public func losePower() throws {
        crashed = true
        metaSlotWritePending = pending.contains { !$0.isTruncation && $0.offset < MetaSlot.dataStart }
        blockWritePending = pending.contains { !$0.isTruncation && $0.offset >= MetaSlot.dataStart }
        var rng = SplitMix64(seed: { if case .tearRandomly(let s) = lossMode { return s }; return 0 }())
        let zeros = [UInt8](repeating: 0, count: 512)
        // Undo newest first so overlapping changes restore the oldest bytes.
        for p in pending.reversed() {
            switch lossMode {
            case .keepAll: continue
            case .keepMetaSlotsOnly where !p.isTruncation && p.offset < MetaSlot.dataStart: continue
            case .dropAll, .keepMetaSlotsOnly:
                try undo(p)
            case .tearRandomly:
                if p.isTruncation {
                    // The size change reached the disk or not.
                    if rng.next() % 2 == 0 { try undo(p) }
                    continue
                }
                var i = 0
                while i < p.before.count {
                    let end = min(i + 512, p.before.count)
                    if rng.next() % 2 == 0 {
                        try p.before[i..<end].withUnsafeBytes { try inner.write($0, at: p.offset + UInt64(i)) }
                    }
                    i = end
                }
                // Bytes past the old end: the size change and each sector may be lost.
                let extendedFrom = max(p.offset, p.oldSize)
                guard p.offset + p.length > p.oldSize else { continue }
                if rng.next() % 4 == 0 {
                    if try inner.size() > p.oldSize { try inner.truncate(to: p.oldSize) }
                    extendingWritesCutOff += 1
                    continue
                }
                var at = extendedFrom
                var tore = false
                while at < p.offset + p.length {
                    let n = Int(min(512, p.offset + p.length - at))
                    if rng.next() % 2 == 0 {
                        try zeros[0..<n].withUnsafeBytes { try inner.write($0, at: at) }
                        tore = true
                    }
                    at += UInt64(n)
                }
                if tore { extendingWritesTorn += 1 }
            }
        }
        pending.removeAll()
    }

    /// Restores what an unsynced change replaced.
    private func undo(_ p: Pending) throws {
        if p.isTruncation {
            truncationsLost += 1
            let now = try inner.size()
            if now != p.oldSize { try inner.truncate(to: p.oldSize) }
            if !p.before.isEmpty { try p.before.withUnsafeBytes { try inner.write($0, at: p.offset) } }
            return
        }
        try p.before.withUnsafeBytes { try inner.write($0, at: p.offset) }
        if p.oldSize < (try inner.size()) { try inner.truncate(to: p.oldSize) }
    }

    public func size() throws -> UInt64 { try inner.size() }

    public func truncate(to size: UInt64) throws {
        if crashed { throw SimulatedCrash() }
        let old = try inner.size()
        var removed = [UInt8]()
        if size < old {
            removed = [UInt8](repeating: 0, count: Int(old - size))
            try removed.withUnsafeMutableBytes { try inner.read(into: $0, at: size) }
        }
        pending.append(Pending(offset: size, length: 0, before: removed, oldSize: old, isTruncation: true))
        try inner.truncate(to: size)
    }

    public func close() { inner.close() }

    /// Writeback hints the storage gave (`startWriteback`), and how many unsynced writes were
    /// pending at each. A hint only starts writing: the writes stay unsynced (a loss still drops them).
    public private(set) var writebackHints: [Int] = []

    public func startWriteback(offset: UInt64, length: UInt64) {
        writebackHints.append(pending.filter { !$0.isTruncation }.count)
        inner.startWriteback(offset: offset, length: length)
    }
}

extension FaultInjectingFileIO {
    /// Opens the database at `path` (with `options`) through a fault-injecting file layer, and
    /// returns the store with the layer under it.
    static func openStore(path: String, options: StoreOptions = StoreOptions()) throws -> (Store, FaultInjectingFileIO) {
        nonisolated(unsafe) var made: FaultInjectingFileIO?
        var opts = options
        opts.fileIO = { p, c, _ in let io = try FaultInjectingFileIO(path: p, create: c); made = io; return io }
        let store = try Store(path: path, options: opts)
        return (store, made!)
    }
}
