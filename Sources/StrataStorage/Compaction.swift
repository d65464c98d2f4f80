#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Full compaction and `writeCopy`: the live data of the newest version written densely into a
/// new file (see docs/FORMAT.md, "Compaction").
extension Store {
    /// The temporary file a full compaction writes beside the database. A leftover one (a crash
    /// during compaction) is removed by the next handle that opens the database.
    public var compactionTempPath: String { path + ".compact-tmp" }

    /// The temporary file ``writeCopy(toPath:encryptionKey:progress:output:)`` writes for
    /// `toPath` (`DEST.writecopy-tmp`) before linking it into place. A caller that removes its
    /// temporaries when the process is interrupted (the command line's signal handler) registers
    /// this path before the copy starts: the copy removes it itself on any failure it sees.
    package static func writeCopyTemporaryPath(for toPath: String) -> String { toPath + ".writecopy-tmp" }

    /// Rewrites the file with only the live data of the newest version, densely, and switches
    /// this handle to it.
    ///
    /// Steps: copy the block graph into `FILE.compact-tmp` (new refs, checksums and birth version
    /// `V+1`, an empty free list, fresh meta slots) → fsync → `rename` over the original → fsync
    /// the directory → point this handle's descriptor and mapping at the new file. A crash at any
    /// moment leaves either the original or the complete compacted file (the rename is atomic;
    /// the temporary file is ignored and removed on the next open).
    ///
    /// Every block is verified as it is read: a damaged block (or a damaged newer meta slot)
    /// stops the compaction with `StorageError.corrupted` naming it, and the original file is
    /// left as it was.
    ///
    /// - Throws: `StorageError.fileInUse` (naming the processes) when another handle or process
    ///   has the file open; `CompactionError.writeTransactionInProgress` /
    ///   `.readTransactionsOpen` when this handle has transactions open; I/O errors (the
    ///   original file is then untouched).
    @discardableResult
    public func compact(progress: CompactionProgressHandler? = nil) throws -> CompactionResult {
        if options.readOnly { throw StorageError.readOnly(path: path) }
        if isInMemory { throw StorageError.unsupported(path: path, detail: "an in-memory database cannot be compacted by rewriting a file; use compactOnline()") }
        guard let lock else { throw CompactionError.notWritable(path: path) }
        let started = DispatchTime.now()
        // No write transaction of this handle may be open, and none may start meanwhile.
        guard writerGate.wait(timeout: .now()) == .success else { throw CompactionError.writeTransactionInProgress(path: path) }
        defer { writerGate.signal() }
        return try withExclusiveAccess(reason: "compaction needs the file to itself") {
            // Alone in the file: the writer lock is free (taken for form: nobody can commit).
            guard lock.tryLockWriter() else { throw StorageError.fileInUse(path: path, pids: [], reason: "another writer holds the lock") }
            defer { lock.unlockWriter() }
            compactionState.beginFullCompaction()
            defer { compactionState.endFullCompaction() }
            let me = getpid()
            let pinned = lock.readers().filter { $0.isAlive && $0.pid == me }
            guard pinned.isEmpty else { throw CompactionError.readTransactionsOpen(path: path, count: pinned.count) }

            let before = try fileSize()
            let meta = try newestMeta()
            try refuseDamagedMetaSlot(metaSlotWarnings(openedVersion: meta.version))
            let newVersion = meta.version + 1
            let tmp = compactionTempPath
            unlink(tmp)
            let plain = try makeFileIO(tmp)
            // The compacted file keeps this file's key.
            let out: FileIO = crypto.map { EncryptedFileIO(inner: plain, crypto: $0) } ?? plain
            let arena = PageArena()
            defer { arena.clear() }
            let moved: UInt64, syncSeconds: Double
            let copyStarted = DispatchTime.now().uptimeNanoseconds
            do {
                (moved, syncSeconds) = try writeDenseCopy(of: meta, newVersion: newVersion, output: out, destination: crypto,
                                                          source: { try self.blockView($0, limit: meta.logicalSize, arena: arena) },
                                                          arena: arena, progress: progress)
                out.close()
            } catch {
                out.close()
                unlink(tmp)
                if let full = error as? DenseCopyOutOfSpace {
                    throw StorageError.diskFullWritingNewFile(path: path, operation: "compacting it into a new file", needed: full.needed,
                                                              outcome: "the database is unchanged")
                }
                throw error
            }
            let copied = DispatchTime.now().uptimeNanoseconds
            guard rename(tmp, path) == 0 else {
                let e = errno
                unlink(tmp)
                throw StorageError.io(path: path, operation: "rename compacted file", errno: e)
            }
            // From here on the compacted file is the database (durable once the directory is).
            try Store.syncDirectory(of: path)
            try switchToReplacedFile()
            let replaced = DispatchTime.now().uptimeNanoseconds
            lock.publish(version: newVersion)
            let after = try fileSize()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            let phases = CompactionPhases(copySeconds: Double(copied - copyStarted) / 1e9 - syncSeconds, syncSeconds: syncSeconds,
                                          replaceSeconds: Double(replaced - copied) / 1e9)
            return CompactionResult(beforeBytes: before, afterBytes: after, seconds: seconds, version: newVersion, bytesMoved: moved,
                                    phases: phases)
        }
    }

    /// Writes a compacted copy of the newest version to `toPath`, which must not exist. Other
    /// handles and processes keep reading and writing meanwhile (the copy reads one pinned
    /// version). The copy keeps the version number and history of the original. Every block is
    /// verified as it is read: a damaged block stops the copy with `StorageError.corrupted`
    /// naming it (no file is left at `toPath`).
    ///
    /// - Parameters:
    ///   - toPath: the destination; refused with `CompactionError.destinationExists` if it exists.
    ///   - progress: bytes copied / live bytes.
    ///   - output: makes the file the copy is written through (default: a plain file). Every
    ///     byte goes through `FileIO.write`, so an encryption layer can supply an encrypting file.
    ///   - encryptionKey: the copy's key (64 bytes), or nil for an unencrypted copy (as Realm's
    ///     `writeCopy(toFile:encryptionKey:)`): encrypts, re-keys or decrypts.
    public func writeCopy(toPath: String, encryptionKey: [UInt8]? = nil, progress: CompactionProgressHandler? = nil,
                          output: ((_ path: String) throws -> FileIO)? = nil) throws {
        let destination = try encryptionKey.map { try PageCrypto(key: $0) }
        if FileManager.default.fileExists(atPath: toPath) { throw CompactionError.destinationExists(path: toPath) }
        try Store.requireDirectory(of: toPath)
        let tmp = Store.writeCopyTemporaryPath(for: toPath)
        // Held until the copy is linked into place or given up: a second copy to the same
        // destination is refused instead of deleting (or linking) this one's temporary file.
        let claim = try Store.claimCopyTemporary(tmp, destination: toPath)
        defer { Glibc.close(claim) }
        let read = try beginRead(label: "writeCopy")
        defer { read.end() }
        let meta = read.meta
        let plain = try (output ?? { try self.makeFileIO($0) })(tmp)
        let out: FileIO = destination.map { EncryptedFileIO(inner: plain, crypto: $0) } ?? plain
        do {
            // Reads through a scoped arena of its own (the read transaction only pins the version),
            // so an encrypted copy holds one path of decrypted pages at a time.
            let arena = PageArena()
            defer { arena.clear() }
            _ = try writeDenseCopy(of: meta, newVersion: meta.version, output: out, destination: destination,
                                   source: { try self.blockView($0, limit: meta.logicalSize, arena: arena) },
                                   arena: arena, progress: progress)
            out.close()
            // link() never replaces an existing file, unlike rename().
            guard link(tmp, toPath) == 0 else {
                if errno == EEXIST { throw CompactionError.destinationExists(path: toPath) }
                throw StorageError.io(path: toPath, operation: "link copy into place", errno: errno)
            }
            unlink(tmp)
            try Store.syncDirectory(of: toPath)
        } catch {
            out.close()
            unlink(tmp)
            if let full = error as? DenseCopyOutOfSpace {
                throw StorageError.diskFullWritingNewFile(path: toPath, operation: "writing the copy", needed: full.needed,
                                                          outcome: "no file was created")
            }
            throw error
        }
    }

    /// Opens and locks (`flock`, exclusive, not waiting) the copy's temporary file, emptied, and
    /// returns the descriptor holding the lock. A temporary locked by a running copy is
    /// `CompactionError.copyInProgress`; one left by a copy that died (unlocked) is taken over.
    /// The lock is on the file the path names when it is taken (checked by inode: a file removed
    /// and created again meanwhile is locked afresh).
    static func claimCopyTemporary(_ tmp: String, destination: String) throws -> Int32 {
        while true {
            let fd = open(tmp, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                let e = errno
                if e == ENOSPC || e == EDQUOT {
                    throw StorageError.diskFullWritingNewFile(path: destination, operation: "writing the copy", needed: 0, outcome: "no file was created")
                }
                if e == EACCES || e == EPERM || e == EROFS { throw StorageError.permissionDenied(path: destination, operation: "create the copy beside it") }
                throw StorageError.io(path: tmp, operation: "create the copy's temporary file", errno: e)
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let e = errno
                Glibc.close(fd)
                if e == EWOULDBLOCK { throw CompactionError.copyInProgress(path: destination) }
                throw StorageError.io(path: tmp, operation: "lock the copy's temporary file", errno: e)
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, stat(tmp, &named) == 0, held.st_dev == named.st_dev, held.st_ino == named.st_ino {
                if ftruncate(fd, 0) != 0 {
                    let e = errno
                    Glibc.close(fd)
                    throw StorageError.io(path: tmp, operation: "empty the copy's temporary file", errno: e)
                }
                return fd
            }
            Glibc.close(fd)
        }
    }

    /// Copies every block reachable from `meta` densely into `output` (from `dataStart`), then
    /// writes the meta slot of `newVersion` (the other slot zeroed) and syncs. The copy has an
    /// empty free list. Returns the bytes of blocks copied and the seconds the final sync took.
    func writeDenseCopy(of meta: MetaSlot, newVersion: UInt64, output: FileIO, destination: PageCrypto?,
                        source: @escaping (BlockRef) throws -> BlockView, arena: PageArena? = nil,
                        progress: CompactionProgressHandler?) throws -> (bytesCopied: UInt64, syncSeconds: Double) {
        // Live bytes to copy: the allocated area minus the free list and its own block.
        var total = meta.logicalSize - MetaSlot.dataStart
        if meta.freeListRef != 0 {
            let list = try FreeListCodec.load(meta.freeListRef, logicalSize: meta.logicalSize, path: path, block: source)
            total -= list.entries.reduce(0) { $0 + $1.length }
            for r in list.blocks { total -= UInt64(try source(r).length) }
        }
        do {
            return try writeDenseBlocks(of: meta, newVersion: newVersion, output: output, destination: destination,
                                        source: source, arena: arena, progress: progress, total: total)
        } catch StorageError.diskFull {
            throw DenseCopyOutOfSpace(needed: total + MetaSlot.dataStart)
        }
    }

    /// `writeDenseCopy` once the live bytes (`total`, for progress) are known.
    private func writeDenseBlocks(of meta: MetaSlot, newVersion: UInt64, output: FileIO, destination: PageCrypto?,
                                  source: @escaping (BlockRef) throws -> BlockView, arena: PageArena?,
                                  progress: CompactionProgressHandler?, total: UInt64) throws -> (bytesCopied: UInt64, syncSeconds: Double) {
        // Plain files are read through the mapping of a pinned version: blocks copied whole are
        // written straight from it. Encrypted ones are read through pages released per block.
        let writer = DenseBlockWriter(output: output, birth: newVersion, sourceIsStable: crypto == nil)
        defer { writer.deallocate() }
        var copier = BlockCopier(sink: writer, path: path, source: source) { _, _, _ in true }
        if crypto != nil { copier.scopedArena = arena }
        var nextReport: UInt64 = 0
        if let progress {
            progress(CompactionProgress(bytesDone: 0, bytesTotal: total))
            copier.onCopied = { done in
                if done >= nextReport { nextReport = done + (1 << 20); progress(CompactionProgress(bytesDone: done, bytesTotal: total)) }
            }
        }
        let catalogRef = meta.catalogRef == 0 ? 0 : try copier.copy(meta.catalogRef, catalog: true)
        try copier.sink.flush()
        let end = copier.sink.end
        var page = [UInt8](repeating: 0, count: Int(MetaSlot.dataStart))
        let slot = MetaSlot(version: newVersion, catalogRef: catalogRef, freeListRef: 0, logicalSize: end,
                            commitTime: LockFile.nowNanos(), committerPid: UInt32(getpid()),
                            flags: destination == nil ? meta.flags & ~MetaSlot.encryptedFlag : meta.flags | MetaSlot.encryptedFlag,
                            keyCheck: destination?.keyCheck ?? [UInt8](repeating: 0, count: 32))
        let enc = slot.encode(crypto: destination)
        let at = Int((newVersion % 2) * MetaSlot.slotStride)
        page.replaceSubrange(at..<at + enc.count, with: enc)
        try page.withUnsafeBytes { try output.write($0, at: 0) }
        let syncStarted = DispatchTime.now().uptimeNanoseconds
        try output.sync()
        let syncSeconds = Double(DispatchTime.now().uptimeNanoseconds - syncStarted) / 1e9
        progress?(CompactionProgress(bytesDone: copier.bytesCopied, bytesTotal: max(total, copier.bytesCopied)))
        return (copier.bytesCopied, syncSeconds)
    }

    /// After `rename` put a new file at `path`: makes this handle's descriptor refer to it
    /// (`dup2` onto the same descriptor number, so every holder of `io` follows) and replaces
    /// the mapping in place (same address range). Only valid while no transaction of this handle
    /// is open: pointers into the old mapping would now read the new file.
    ///
    /// The replaced file (unlinked by the rename) goes away when its last reference does, and
    /// that frees its pages and blocks: about 20 ms for an 80 MB file here, which made up a
    /// quarter of a compaction's time and has nothing to do with the new file being durable. A
    /// duplicate descriptor keeps it until a background thread closes it.
    func switchToReplacedFile() throws {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw CompactionError.reopenFailed(path: path, errno: errno) }
        defer { Glibc.close(fd) }
        let replaced = fcntl(io.fd, F_DUPFD_CLOEXEC, 0)
        defer { if replaced >= 0 { Store.closeInBackground(replaced) } }
        guard dup2(fd, io.fd) >= 0 else { throw CompactionError.reopenFailed(path: path, errno: errno) }
        _ = fcntl(io.fd, F_SETFD, FD_CLOEXEC)
        try map.replaceInPlace()
        verdicts.reset()
        _ = try fileSize()
    }

    /// Closes `fd` on a utility thread (the last reference to a replaced file: see
    /// `switchToReplacedFile`).
    static func closeInBackground(_ fd: Int32) {
        DispatchQueue.global(qos: .utility).async { _ = Glibc.close(fd) }
    }

    /// A new file written through the same file layer as the database (`StoreOptions.fileIO`),
    /// so a fault-injecting layer sees every write of a compaction or copy too.
    func makeFileIO(_ path: String) throws -> FileIO {
        try (options.fileIO ?? { p, c, r in try PosixFileIO(path: p, create: c, readOnly: r) })(path, true, false)
    }

    /// fsync of the directory holding `path`, so a rename or link in it is durable.
    static func syncDirectory(of path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        let fd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StorageError.io(path: dir, operation: "open directory", errno: errno) }
        defer { Glibc.close(fd) }
        if fsync(fd) != 0 { throw StorageError.io(path: dir, operation: "fsync directory", errno: errno) }
    }

    /// Removes a temporary file left by a compaction that crashed (called on open, while this
    /// handle holds its shared participation, so no compaction can be running).
    func removeStaleCompactionFile() {
        if FileManager.default.fileExists(atPath: compactionTempPath) { unlink(compactionTempPath) }
    }
}

/// The disk filled up during `writeDenseCopy`; `needed` is about the new file's size. Compaction
/// and `writeCopy` turn it into `StorageError.diskFullWritingNewFile` naming their own file.
struct DenseCopyOutOfSpace: Error {
    let needed: UInt64
}
