#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation

/// How to open a database file.
public struct StoreOptions: Sendable {
    /// Create the file when it does not exist.
    public var create = true
    /// Open without writing anything to the database file.
    public var readOnly = false
    /// A label for this handle in the lock file's participant table (shown by the browser).
    public var label = ""
    /// Makes the file layer (tests inject faults here). Default: `PosixFileIO`.
    public var fileIO: (@Sendable (_ path: String, _ create: Bool, _ readOnly: Bool) throws -> FileIO)?
    /// The file grows by doubling until an increment would exceed this step, then by this step.
    public var growthStep: UInt64 = 8 << 20
    /// Commits kept in the history tree (recent commits report): at least this many, trimmed
    /// back to it once it exceeds it by an eighth.
    public var historyLimit = 256
    /// Automatic compaction: when free space exceeds twice the used data and the file is at
    /// least 1 MiB, each commit relocates a bounded amount of data from the end of the file
    /// and the file is truncated once its tail is free for all (see OnlineCompaction.swift).
    public var automaticCompaction = true
    /// 64 bytes: an AES-256 key, then an HMAC-SHA-256 key. A new file is created encrypted; an
    /// existing file must have been created with the same key (`StorageError.wrongEncryptionKey`,
    /// `.encryptionKeyRequired`, `.notEncrypted` otherwise). Another length:
    /// `.invalidEncryptionKey`.
    public var encryptionKey: [UInt8]?
    /// Decrypted pages kept by an encrypted handle (beyond those its live transactions hold).
    public var decryptedPageCacheBytes = 32 << 20
    /// No file on disk: handles in this process opened with the same identifier share one
    /// database (and an in-memory lock file); the data is gone when the last of them closes.
    /// The `path` given to `Store.init` is then only a name for messages.
    public var inMemoryIdentifier: String?
    /// Called once by `beginWrite` (on the waiting thread) when it has waited
    /// `writeLockNoticeSeconds` for the write lock, with the holder as it recorded itself (pid,
    /// label, since when): "waiting for the write lock held by pid N (command) since T".
    public var onWriteLockWait: (@Sendable (WriteLockHolder) -> Void)?
    /// Seconds `beginWrite` waits before calling `onWriteLockWait`.
    public var writeLockNoticeSeconds = 1.0
    /// Seconds `beginWrite` waits for the write lock before throwing
    /// `StorageError.writeLockTimeout` (nil: as long as it takes).
    public var writeLockTimeout: Double?
    /// Options with the defaults described on each property.
    public init() {}
}

/// One open database file: the mapping, the lock file membership and the transactions.
///
/// Thread-safe: any thread may begin transactions. A transaction object itself belongs to the
/// thread that uses it. One write transaction at a time across all threads and processes.
public final class Store: @unchecked Sendable {
    /// The database file's path.
    public let path: String
    /// The options the store was opened with.
    public let options: StoreOptions
    let io: FileIO
    let map: MappedFile
    /// Keys of an encrypted file (nil: unencrypted; reads are zero-copy pointers into the mapping).
    let crypto: PageCrypto?
    /// `io` when the file is encrypted.
    let encryptedIO: EncryptedFileIO?
    /// Decrypted pages of an encrypted file.
    let pageCache: DecryptedPageCache?
    private var inMemoryEntry: InMemoryFiles.Entry?
    /// Nil only for a read-only handle whose lock file cannot be created (read-only directory).
    let lock: LockFile?
    let writerGate = DispatchSemaphore(value: 1)
    /// Full-compaction gate and the automatic-compaction cursor (CompactionTypes.swift).
    let compactionState = CompactionState()
    /// Blocks whose checksum this handle has verified (each is verified on first read).
    let verdicts = BlockVerdicts()
    private let stateLock = NSLock()
    private var fileSizeCache: UInt64
    /// The newest version whose unsynced runs this handle has checked (MetaSlot.unsyncedRuns).
    private var verifiedRunsVersion: UInt64 = 0
    private var closed = false
    /// Bytes the last commits of this handle wrote, newest last (at most 4: the largest sizes
    /// the next commit's allocation region; touched only under the writer lock).
    var recentCommitBytes: [Int] = []
    /// What the last commits that announced their data (`WriteTransaction.expectWrites`) wrote
    /// beyond it: trees, history, free list (at most 4, newest last; under the writer lock).
    var recentCommitOverheads: [Int] = []
    /// Below this offset the file's blocks were written (not a sparse tail): small commits
    /// write zeros ahead of the allocated area so that commits appending there overwrite
    /// allocated blocks instead of making the file system allocate (and, at the sync, write
    /// its metadata too). A hint only, touched under the writer lock.
    var zeroedEnd: UInt64 = 0
    /// The free list of the last commit by this handle, decoded and split as the allocator
    /// takes it: the next write transaction starting from that same version starts from it
    /// (no decoding, no pass over the list). Touched only under the writer lock.
    var committedFreeList: (version: UInt64, ref: BlockRef, list: FreeListCodec.State)?

    /// This process's id, read once (recorded by each commit; `getpid` is a system call).
    let processID = UInt32(truncatingIfNeeded: getpid())

    /// The lock file's path (`path + ".lock"`; a private name for in-memory stores).
    public var lockPath: String { inMemoryEntry?.lockPath ?? path + ".lock" }
    /// True when opened with `StoreOptions.readOnly`.
    public var isReadOnly: Bool { options.readOnly }
    /// Whether the data area is encrypted.
    public var isEncrypted: Bool { crypto != nil }
    /// Whether this is an in-memory database (`StoreOptions.inMemoryIdentifier`).
    public var isInMemory: Bool { inMemoryEntry != nil }
    /// What opening found about meta slots it could not use (a damaged newer slot, a commit cut
    /// short): the file opened at an older version. Empty for a healthy file. `check()` reports
    /// them again, read afresh.
    public private(set) var openWarnings: [StoreWarning] = []

    /// An in-memory database shared by every handle of this process with the same identifier.
    public convenience init(inMemoryIdentifier: String, options: StoreOptions = StoreOptions()) throws {
        var o = options
        o.inMemoryIdentifier = inMemoryIdentifier
        try self.init(path: "in-memory:" + inMemoryIdentifier, options: o)
    }

    /// Opens (or creates) the database at `path`.
    ///
    /// Read-only (`options.readOnly`): nothing is written to the database file; the lock file is
    /// joined when it exists and is writable (so writers in other processes see this handle's
    /// readers), and is never created: without it the handle reads alone, assuming no writer.
    public init(path: String, options: StoreOptions = StoreOptions()) throws {
        self.path = path
        self.options = options
        crypto = try options.encryptionKey.map { try PageCrypto(key: $0) }
        let label = options.label.isEmpty ? ProcessInfo.processInfo.processName : options.label
        var dataPath = path
        if let id = options.inMemoryIdentifier {
            let entry = try InMemoryFiles.shared.acquire(id, create: options.create && !options.readOnly, name: path)
            inMemoryEntry = entry
            dataPath = entry.dataPath
        } else {
            // A FIFO, socket, device or directory is refused before anything opens it (opening
            // a FIFO would block until a writer appears).
            var st = stat()
            let exists = stat(path, &st) == 0
            if exists && (st.st_mode & S_IFMT) != S_IFREG { throw StorageError.notARegularFile(path: path, kind: Store.fileKind(st.st_mode)) }
            if !exists && (!options.create || options.readOnly) { throw StorageError.fileNotFound(path: path) }
            if !exists {
                try Store.requireDirectory(of: path)
            } else {
                // A file that is not a Strata database is refused before its lock file is
                // created, so refusing it leaves nothing beside it.
                try Store.refuseForeignFile(path: path, size: UInt64(st.st_size), mayInitialize: options.create && !options.readOnly)
            }
        }
        var opened: FileIO?
        var lockFile: LockFile?
        do {
            if let entry = inMemoryEntry {
                lockFile = try LockFile(path: entry.lockPath, label: label, create: false)
            } else if options.readOnly {
                lockFile = try LockFile.openIfPossible(path: path + ".lock", label: label)
            } else {
                lockFile = try LockFile(path: path + ".lock", label: label, create: true)
            }
            let make = options.fileIO ?? { p, c, r in try PosixFileIO(path: p, create: c, readOnly: r) }
            let raw = try make(dataPath, options.create && !options.readOnly, options.readOnly)
            opened = raw
            let enc = crypto.map { EncryptedFileIO(inner: raw, crypto: $0) }
            encryptedIO = enc
            io = enc ?? raw
            pageCache = crypto == nil ? nil : DecryptedPageCache(capacityBytes: options.decryptedPageCacheBytes)
            enc?.writtenPageCache = pageCache
            lock = lockFile
            var size = try io.size()
            if size == 0 {
                // An empty file becomes a database only when the caller may create one.
                if options.readOnly || (!options.create && inMemoryEntry == nil) { throw StorageError.notADatabase(path: path) }
                try lock?.lockWriter()
                do {
                    size = try io.size()
                    if size == 0 { try Store.initialize(io: io, crypto: crypto); size = try io.size() }
                } catch { lock?.unlockWriter(); throw error }
                lock?.unlockWriter()
            }
            fileSizeCache = size
            map = try MappedFile(fd: io.fd, path: path, minimumSize: crypto == nil ? size : PageLayout.physicalSize(logical: size))
        } catch {
            lockFile?.close()
            opened?.close()
            if let id = options.inMemoryIdentifier, inMemoryEntry != nil { InMemoryFiles.shared.release(id) }
            if case .io(let p, let operation, let code)? = error as? StorageError, [EACCES, EROFS, EPERM].contains(code) {
                throw StorageError.permissionDenied(path: p, operation: operation)
            }
            throw error
        }
        do { _ = try newestMeta() } catch { close(); throw error }
        openWarnings = settledMetaSlotWarnings()
        // Holding shared participation: no full compaction runs, so a temp file is stale.
        if lock != nil && !options.readOnly && inMemoryEntry == nil { removeStaleCompactionFile() }
    }

    /// Throws what opening would find in the two meta slots of an existing file that no valid
    /// Strata slot can be in: `notADatabase` when neither slot has the magic (or the file is empty
    /// and `mayInitialize` is false), `corrupted` when the magic is there but the file is too
    /// short to hold both slots. Reads the file without locking it (a writer never rewrites the
    /// magic of a database) and decides nothing else: everything past the magic is judged by
    /// `newestMeta` under the lock file, as before.
    static func refuseForeignFile(path: String, size: UInt64, mayInitialize: Bool) throws {
        if size == 0 {
            if mayInitialize { return }
            throw StorageError.notADatabase(path: path)
        }
        // Unreadable here: leave the verdict (and its error) to the ordinary open.
        guard let magic = slotMagics(path: path) else { return }
        if size < MetaSlot.dataStart {
            if magic.first { throw StorageError.corrupted(path: path, detail: "file is truncated (\(size) bytes)") }
            throw StorageError.notADatabase(path: path)
        }
        if !magic.first && !magic.second { throw StorageError.notADatabase(path: path) }
    }

    /// Throws `directoryNotFound` when the directory a new file at `path` would go in does not
    /// exist (Strata creates files, never their directories).
    static func requireDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var d = stat()
        if !directory.isEmpty && stat(directory, &d) != 0 && errno == ENOENT { throw StorageError.directoryNotFound(path: directory) }
    }

    /// Whether `path` is a regular file with Strata's magic at the start of either meta slot
    /// (what tools check before treating a file as another kind, e.g. a Realm file).
    package static func hasStrataHeader(path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let magic = slotMagics(path: path) else { return false }
        return magic.first || magic.second
    }

    /// Whether each meta slot of the file starts with the magic; nil when it cannot be read.
    private static func slotMagics(path: String) -> (first: Bool, second: Bool)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var magic = [UInt8](repeating: 0, count: 8)
        func hasMagic(at offset: UInt64) -> Bool {
            magic.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, 8, off_t(offset)) } == 8 && magic == MetaSlot.magic
        }
        return (hasMagic(at: 0), hasMagic(at: MetaSlot.slotStride))
    }

    /// What a file of this mode is, in words ("FIFO", "socket", ...).
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "FIFO (named pipe)"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFDIR: return "directory"
        case S_IFLNK: return "symbolic link"
        case S_IFREG: return "regular file"
        default: return "special file"
        }
    }

    /// Writes version 1 (empty) into slot 1, leaves slot 0 zeroed, and syncs.
    static func initialize(io: FileIO, crypto: PageCrypto? = nil) throws {
        let meta = MetaSlot(version: 1, catalogRef: 0, freeListRef: 0, logicalSize: MetaSlot.dataStart,
                            commitTime: LockFile.nowNanos(), committerPid: UInt32(getpid()),
                            flags: crypto == nil ? 0 : MetaSlot.encryptedFlag,
                            keyCheck: crypto?.keyCheck ?? [UInt8](repeating: 0, count: 32))
        var page = [UInt8](repeating: 0, count: Int(MetaSlot.dataStart))
        let enc = meta.encode(crypto: crypto)
        page.replaceSubrange(Int(MetaSlot.slotStride)..<Int(MetaSlot.slotStride) + enc.count, with: enc)
        try page.withUnsafeBytes { try io.write($0, at: 0) }
        try io.sync()
    }

    deinit {
        close()
        spareStaging?.deallocate()
    }

    /// The staging buffer of the last write transaction, kept for the next (a fresh 4 MiB
    /// allocation per transaction is a mapping the kernel must create, fault in and remove).
    /// Touched only under the writer lock.
    private var spareStaging: UnsafeMutableRawPointer?

    /// A staging buffer of `WriteTransaction.stagingCapacity` bytes (under the writer lock).
    func takeStagingBuffer() -> UnsafeMutableRawPointer {
        if let s = spareStaging { spareStaging = nil; return s }
        return UnsafeMutableRawPointer.allocate(byteCount: WriteTransaction.stagingCapacity, alignment: 8)
    }

    /// Gives a transaction's staging buffer back (under the writer lock).
    func returnStagingBuffer(_ p: UnsafeMutableRawPointer) {
        if spareStaging == nil { spareStaging = p } else { p.deallocate() }
    }

    /// Releases the mapping, the lock-file slots and the file descriptor.
    public func close() {
        stateLock.lock()
        if closed { stateLock.unlock(); return }
        closed = true
        stateLock.unlock()
        stopWatcher()
        lock?.close()
        io.close()
        pageCache?.removeAll()
        if let id = options.inMemoryIdentifier, inMemoryEntry != nil { InMemoryFiles.shared.release(id) }
    }

    // MARK: meta

    /// The file's current size on disk.
    public func fileSize() throws -> UInt64 {
        let s = try io.size()
        stateLock.lock(); fileSizeCache = s; stateLock.unlock()
        return s
    }

    /// The newest valid meta slot (the newest committed version).
    ///
    /// - Parameters:
    ///   - fileSize: the file's size when the caller has just read it (a write transaction
    ///     beginning: `beginWrite` refreshed it under the writer lock); nil reads it.
    ///   - lockChecked: the caller has just checked the lock file's size (it took the writer
    ///     lock), so the published version is read without checking it again.
    package func newestMeta(fileSize known: UInt64? = nil, lockChecked: Bool = false) throws -> MetaSlot {
        let size = try known ?? io.size()
        if size < MetaSlot.dataStart {
            // Too short to hold both slots: read what is there without touching the mapping.
            var head = [UInt8](repeating: 0, count: Int(min(size, 8)))
            if !head.isEmpty { try head.withUnsafeMutableBytes { try io.read(into: $0, at: 0) } }
            if head.count == 8 && head == MetaSlot.magic { throw StorageError.corrupted(path: path, detail: "file is truncated (\(size) bytes)") }
            throw StorageError.notADatabase(path: path)
        }
        try map.ensureCovers(physicalExtent(size))
        var valid: [MetaSlot] = []
        var sawMagic = false
        var newer: UInt32? = nil
        for slot in 0..<2 {
            let p = UnsafeRawBufferPointer(start: map.base + Int(MetaSlot.slotStride) * slot, count: Int(MetaSlot.slotStride))
            switch decodeSlot(slot, p) {
            case .valid(let m):
                sawMagic = true
                guard m.logicalSize >= MetaSlot.dataStart, m.logicalSize <= size, m.logicalSize % 8 == 0,
                      m.version <= MetaSlot.maxVersion else { continue }
                // An encrypted slot written under this key must carry a valid tag (tampering).
                if let crypto, m.flags & MetaSlot.encryptedFlag != 0, m.keyCheck == crypto.keyCheck,
                   !slotTagIsValid(p, slot: slot, crypto: crypto) { continue }
                valid.append(m)
            case .noMagic: break
            case .damaged: sawMagic = true
            case .newerFormat(let v): sawMagic = true; newer = v
            }
        }
        valid.sort { $0.version > $1.version }
        // A one-sync commit's slot counts only if the blocks it lists reached the file whole;
        // otherwise that commit was cut short by a power loss and the other slot is the newest
        // durable version (it was synced before that commit began).
        if let first = valid.first, try !unsyncedRunsAreIntact(first, size: size, lockChecked: lockChecked) { valid.removeFirst() }
        let best = valid.first
        if let best {
            if best.flags & MetaSlot.encryptedFlag != 0 {
                guard let crypto else { throw StorageError.encryptionKeyRequired(path: path) }
                guard best.keyCheck == crypto.keyCheck else { throw StorageError.wrongEncryptionKey(path: path) }
            } else if crypto != nil {
                throw StorageError.notEncrypted(path: path)
            }
            return best
        }
        if let newer { throw StorageError.unsupportedFormat(path: path, found: newer, supported: MetaSlot.formatVersion) }
        if sawMagic { throw StorageError.corrupted(path: path, detail: "no meta slot passes its checksum, or the file is shorter than its recorded size") }
        throw StorageError.notADatabase(path: path)
    }

    /// Whether an encrypted slot's meta tag is valid (`PageCrypto.metaTagIsValid`). A kept
    /// decoding whose bytes passed (or that this handle wrote) answers without another HMAC.
    private func slotTagIsValid(_ p: UnsafeRawBufferPointer, slot: Int, crypto: PageCrypto) -> Bool {
        let tagged = UnsafeRawBufferPointer(rebasing: p[0..<112])
        stateLock.lock()
        let known = slotDecodings[slot].map { $0.tagChecked && $0.bytes.prefix(112).elementsEqual(tagged) } ?? false
        stateLock.unlock()
        if known { return true }
        guard crypto.metaTagIsValid(p) else { return false }
        stateLock.lock()
        if let c = slotDecodings[slot], c.bytes.prefix(112).elementsEqual(tagged) { slotDecodings[slot]!.tagChecked = true }
        stateLock.unlock()
        return true
    }

    /// Keeps the decoding of a slot this handle just wrote (its tag, if any, computed here), so
    /// the next transaction neither decodes nor authenticates it. `m` is what `bytes` encode.
    func noteWrittenSlot(_ bytes: [UInt8], meta m: MetaSlot, slot: Int) {
        let read = m.unsyncedRuns.isEmpty ? MetaSlot.encodedSize : MetaSlot.encodedSize + 16 * m.unsyncedRuns.count + 8
        stateLock.lock(); slotDecodings[slot] = (Array(bytes.prefix(read)), m, true); stateLock.unlock()
    }

    /// The last valid decoding of each meta slot, with the bytes it was decoded from (the
    /// slot's first 128 bytes, and its run list when it has one: all that `MetaSlot.decode`
    /// reads), and whether those bytes passed an encrypted slot's tag check. Every write and read
    /// transaction begins by reading both slots; while a slot's bytes are unchanged, its decoding
    /// is too (under `stateLock`).
    private var slotDecodings: [(bytes: [UInt8], meta: MetaSlot, tagChecked: Bool)?] = [nil, nil]

    /// `MetaSlot.decode` of slot `slot` (bytes `p`), from `slotDecodings` when its bytes match.
    private func decodeSlot(_ slot: Int, _ p: UnsafeRawBufferPointer) -> MetaSlot.DecodeResult {
        stateLock.lock()
        if let c = slotDecodings[slot], c.bytes.count <= p.count,
           c.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, p.baseAddress!, c.bytes.count) }) == 0 {
            let m = c.meta
            stateLock.unlock()
            return .valid(m)
        }
        stateLock.unlock()
        // Decoded from a copy, so the bytes kept are those decoded (a writer in another
        // process may be rewriting the slot meanwhile): the fixed part, then as many bytes as
        // the run count it holds asks for.
        guard p.count >= MetaSlot.encodedSize else { return MetaSlot.decode(p) }
        let runs = Int(p.baseAddress!.loadUnaligned(fromByteOffset: 112, as: UInt32.self).littleEndian)
        let wanted = runs == 0 ? MetaSlot.encodedSize : MetaSlot.encodedSize + 16 * min(runs, MetaSlot.maxUnsyncedRuns) + 8
        let copy = Array(p.prefix(wanted))
        let result = copy.withUnsafeBytes { MetaSlot.decode($0) }
        if case .valid(let m) = result {
            let read = m.unsyncedRuns.isEmpty ? MetaSlot.encodedSize : MetaSlot.encodedSize + 16 * m.unsyncedRuns.count + 8
            stateLock.lock(); slotDecodings[slot] = (Array(copy.prefix(read)), m, false); stateLock.unlock()
        }
        return result
    }

    /// Whether the runs a one-sync commit listed in its slot hold what it wrote. Checked once per
    /// version per handle (the check reads the runs: at most `WriteTransaction.oneSyncLimit` bytes).
    /// An encrypted slot's runs are checked on their plaintext: a page that fails its
    /// authentication means the commit did not reach the disk whole; another read error throws.
    /// An encrypted slot this handle has no key for is not judged (opening reports the key).
    private func unsyncedRunsAreIntact(_ m: MetaSlot, size: UInt64, lockChecked: Bool = false) throws -> Bool {
        guard !m.unsyncedRuns.isEmpty else { return true }
        // Published in the lock file means the commit finished its sync (the lock file is
        // reinitialised by the first handle after every crash, so this is never stale).
        if let lock, m.version <= (lockChecked ? lock.latestVersionChecked : lock.latestVersion) { return true }
        stateLock.lock()
        let known = verifiedRunsVersion == m.version
        stateLock.unlock()
        if known { return true }
        var last = MetaSlot.dataStart
        for r in m.unsyncedRuns {
            // Overflow-safe: a damaged run list (whose slot passed its checksum) is not intact.
            guard r.offset >= last, r.length > 0, r.length <= m.logicalSize, r.offset <= m.logicalSize - r.length else { return false }
            last = r.end
        }
        let sum: UInt64
        if m.flags & MetaSlot.encryptedFlag != 0 {
            guard let crypto, m.keyCheck == crypto.keyCheck, let encryptedIO else { return true }
            do { sum = try MetaSlot.runChecksum(m.unsyncedRuns, reading: encryptedIO) } catch StorageError.corrupted { return false }
        } else {
            sum = MetaSlot.runChecksum(m.unsyncedRuns) { r in UnsafeRawBufferPointer(start: map.base + Int(r.offset), count: Int(r.length)) }
        }
        guard sum == m.unsyncedChecksum else { return false }
        stateLock.lock(); verifiedRunsVersion = m.version; stateLock.unlock()
        return true
    }

    /// Physical bytes holding the first `logical` bytes of the database.
    func physicalExtent(_ logical: UInt64) -> UInt64 { crypto == nil ? logical : PageLayout.physicalSize(logical: logical) }

    /// A bounds-checked view of the block at `ref` within the first `limit` bytes of the file.
    ///
    /// Unencrypted: a pointer into the mapping. Encrypted: a pointer into a decrypted page, or a
    /// contiguous decrypted copy for a block spanning pages, kept alive by `arena` (the reading
    /// transaction's: valid until it ends or refreshes). `writer`: the write transaction reads
    /// its own pending pages too.
    ///
    /// `verify`: the block's checksum is verified the first time this handle reads it (see
    /// `BlockVerdicts`); a damaged block throws `StorageError.corrupted` naming it. Only the
    /// integrity check reads without verifying (it reports damage instead of stopping at it).
    func blockView(_ ref: BlockRef, limit: UInt64, arena: PageArena? = nil, writer: Bool = false, verify: Bool = true) throws -> BlockView {
        guard ref >= MetaSlot.dataStart, ref % 8 == 0, ref + UInt64(BlockHeader.size) <= limit else {
            throw StorageError.corrupted(path: path, detail: "reference \(ref) points outside the data area (\(limit) bytes)")
        }
        if crypto != nil {
            guard let arena else { preconditionFailure("encrypted reads need an arena") }
            let v = try encryptedBlockView(ref, limit: limit, arena: arena, writer: writer)
            if verify { try verdicts.verify(v, path: path) }
            return v
        }
        let base = map.base + Int(ref)
        let len = Int(base.getLE(4, as: UInt32.self))
        guard len >= BlockHeader.size, len % 8 == 0, ref + UInt64(len) <= limit else {
            throw StorageError.corrupted(path: path, detail: "block at \(ref) has an invalid length \(len)")
        }
        let v = BlockView(ref: ref, base: base, length: len)
        if verify { try verdicts.verify(v, path: path) }
        return v
    }

    // MARK: transactions

    /// Begins a read transaction pinned at the newest version.
    public func beginRead(label: String = "") throws -> ReadTransaction {
        try ReadTransaction(store: self, label: label)
    }

    /// Pins the newest version in a reader slot (LMDB's protocol: publish, then re-check).
    func pinNewest(slot: inout Int?, label: String) throws -> MetaSlot {
        // A full compaction replacing the file under this handle makes pins wait.
        compactionState.enterPin()
        defer { compactionState.leavePin() }
        var meta = try newestMeta()
        guard let lock else { return meta }
        for _ in 0..<1000 {
            if let s = slot { lock.updateReader(s, version: meta.version) }
            else { slot = try lock.claimReader(version: meta.version, label: label) }
            // The reader slot was just claimed or updated, which checked the lock file's size.
            let again = try newestMeta(lockChecked: true)
            if again.version == meta.version { return meta }
            meta = again
        }
        return meta
    }

    func unpin(slot: Int) { lock?.releaseReader(slot) }

    /// Begins the write transaction, waiting for other writers (threads or processes).
    ///
    /// While it waits: after `StoreOptions.writeLockNoticeSeconds` it calls
    /// `StoreOptions.onWriteLockWait` once with the holder; it throws
    /// `StorageError.writeLockTimeout` after `StoreOptions.writeLockTimeout`, and
    /// `.writeLockWaitCancelled` as soon as `cancellation` is cancelled. The wait uses no CPU.
    ///
    /// When the calling thread already holds this file's write lock (a write transaction it
    /// began through this or another handle of the file, not ended) and the wait has neither a
    /// timeout nor a cancellation, it throws `StorageError.writeAlreadyOpenOnThisThread` at once
    /// instead of waiting for itself forever.
    public func beginWrite(label: String = "", cancellation: WriteLockWaitCancellation? = nil) throws -> WriteTransaction {
        if options.readOnly { throw StorageError.readOnly(path: path) }
        // The calling thread holding the lock already would wait for itself forever (unless the
        // wait can end on its own: a timeout, a cancellation).
        if options.writeLockTimeout == nil && cancellation == nil && WriteLockThreads.isHeldByCurrentThread(lockPath) {
            throw StorageError.writeAlreadyOpenOnThisThread(path: path)
        }
        try takeWriteLock(cancellation: cancellation)
        WriteLockThreads.taken(lockPath)
        do {
            // Another process may have shrunk the file (compaction): refresh the cached size.
            _ = try fileSize()
            return try WriteTransaction(store: self, label: label)
        } catch {
            endWrite()
            throw error
        }
    }

    /// Begins the write transaction only if no other writer holds the lock now.
    public func tryBeginWrite(label: String = "") throws -> WriteTransaction? {
        if options.readOnly { throw StorageError.readOnly(path: path) }
        guard writerGate.wait(timeout: .now()) == .success else { return nil }
        if let lock, !lock.tryLockWriter() { writerGate.signal(); return nil }
        WriteLockThreads.taken(lockPath)
        do { _ = try fileSize(); return try WriteTransaction(store: self, label: label) } catch { endWrite(); throw error }
    }

    /// The in-process gate, then the lock file's writer lock (see `beginWrite`).
    private func takeWriteLock(cancellation: WriteLockWaitCancellation?) throws {
        let plain = options.onWriteLockWait == nil && options.writeLockTimeout == nil && cancellation == nil
        if plain {
            writerGate.wait()
            do { try lock?.lockWriter() } catch { writerGate.signal(); throw error }
            return
        }
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var noticed = options.onWriteLockWait == nil
        // Another thread of this process writes: wait on the gate in slices (a semaphore cannot
        // be woken by a cancellation), with the same notice, timeout and cancellation.
        while writerGate.wait(timeout: .now() + 0.05) != .success {
            if cancellation?.isCancelled == true { throw StorageError.writeLockWaitCancelled(path: path) }
            if let t = options.writeLockTimeout, elapsed() >= t { throw StorageError.writeLockTimeout(path: path, holder: writeLockHolder) }
            if !noticed && elapsed() >= options.writeLockNoticeSeconds {
                noticed = true
                if let h = writeLockHolder { options.onWriteLockWait?(h) }
            }
        }
        do {
            let spent = elapsed()
            let notice: Double = noticed ? 0 : max(0, options.writeLockNoticeSeconds - spent)
            let onWait: (@Sendable (WriteLockHolder) -> Void)? = noticed ? nil : options.onWriteLockWait
            var deadline: Double? = nil
            if let t = options.writeLockTimeout { deadline = max(0, t - spent) }
            try lock?.lockWriter(noticeAfter: notice, onWait: onWait, deadline: deadline, cancellation: cancellation)
        } catch { writerGate.signal(); throw error }
    }

    /// The process holding the write lock now (any process, this one included), as it recorded
    /// itself in the lock file; nil when nobody writes (or there is no lock file).
    public var writeLockHolder: WriteLockHolder? { lock?.writeLockHolder() }

    /// Releases the writer lock. `lockFileChecked`: the caller has just checked the lock file's
    /// size (publishing a commit does), so releasing does not check it again.
    func endWrite(lockFileChecked: Bool = false) {
        WriteLockThreads.released(lockPath)
        lock?.unlockWriter(sizeChecked: lockFileChecked)
        writerGate.signal()
    }

    /// Makes sure the file is at least `end` bytes long, growing geometrically up to the step.
    func ensureFileSize(_ end: UInt64) throws {
        stateLock.lock()
        var cur = fileSizeCache
        stateLock.unlock()
        if end <= cur { return }
        cur = try io.size()
        if end <= cur { stateLock.lock(); fileSizeCache = cur; stateLock.unlock(); return }
        let step = min(max(cur, 1 << 16), options.growthStep)
        var target = max(end, cur + step)
        target = (target + 0xFFFF) & ~0xFFFF
        try io.truncate(to: target)
        try map.ensureCovers(physicalExtent(target))
        stateLock.lock(); fileSizeCache = target; stateLock.unlock()
    }

    /// The file's size as this handle last saw or made it (logical bytes; no system call).
    var knownFileSize: UInt64 {
        stateLock.lock(); defer { stateLock.unlock() }
        return fileSizeCache
    }

    /// Shrinks the file (online compaction, once no reader can see the tail).
    func shrinkFile(to size: UInt64) throws {
        try io.truncate(to: size)
        zeroedEnd = min(zeroedEnd, size)
        stateLock.lock(); fileSizeCache = size; stateLock.unlock()
    }

    /// Publishes `version` in the lock file and wakes the commit watchers (see
    /// `WriteTransaction.ownObserversNeedCommit` for `wakeOwnWatcher`).
    func published(version: UInt64, wakeOwnWatcher: Bool = true) { lock?.publish(version: version, wakeOwnWatcher: wakeOwnWatcher) }

    // MARK: readers, participants, notifications

    /// Reader slots of the lock file (all processes), including stale ones marked dead.
    public func readers() -> [ReaderInfo] { lock?.readers() ?? [] }

    /// Open handles of this file (all processes).
    public func participants() -> [ParticipantInfo] { lock?.participants().filter(\.isAlive) ?? [] }

    /// Removes reader slots whose process died. Returns how many.
    @discardableResult public func clearDeadReaders() -> Int { lock?.clearDeadReaders() ?? 0 }

    /// The latest version any process has published (cheap: one atomic load).
    public var publishedVersion: UInt64 { lock?.latestVersion ?? 0 }

    private var watcher: CommitWatcher?

    /// Calls `callback` (on a background thread) with the newest version after each commit by
    /// any process, within milliseconds, without polling: a thread sleeps on a futex in the
    /// lock file that every commit wakes. Returns a token for `removeCommitObserver`.
    ///
    /// A commit of this handle whose `WriteTransaction.ownObserversNeedCommit` answers false
    /// reaches the callbacks only with the next wake-up (another commit, or within a second).
    public func addCommitObserver(_ callback: @escaping @Sendable (UInt64) -> Void) -> UInt64 {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let lock, !closed else { return 0 }
        if watcher == nil { watcher = CommitWatcher(lock: lock) }
        return watcher!.add(callback)
    }

    /// Calls `callback` (on the commit watcher's thread) when the handles that have the file open
    /// change (one opened or closed, in any process), as the watcher sees at its wake-ups: each
    /// commit, and its 1 s timeout; no thread or timer of its own. Returns a token for
    /// `removeCommitObserver`.
    public func addParticipantsObserver(_ callback: @escaping @Sendable () -> Void) -> UInt64 {
        stateLock.lock()
        defer { stateLock.unlock() }
        guard let lock, !closed else { return 0 }
        if watcher == nil { watcher = CommitWatcher(lock: lock) }
        return watcher!.addParticipantObserver(callback)
    }

    /// Stops the callback registered with `addCommitObserver` or `addParticipantsObserver` under `id`.
    public func removeCommitObserver(_ id: UInt64) {
        stateLock.lock(); let w = watcher; stateLock.unlock()
        w?.remove(id)
    }

    private func stopWatcher() {
        stateLock.lock(); let w = watcher; watcher = nil; stateLock.unlock()
        w?.stop()
    }

    // MARK: exclusivity

    /// Runs `body` while this handle is the only participant (no other handle in any process).
    /// Throws `fileInUse` naming the other processes when that is not the case.
    public func withExclusiveAccess<T>(reason: String, _ body: () throws -> T) throws -> T {
        guard let lock else { return try body() }
        guard lock.tryExclusive() else {
            let me = getpid()
            let pids = Array(Set(participants().map(\.pid).filter { $0 != me })).sorted()
            throw StorageError.fileInUse(path: path, pids: pids, reason: reason)
        }
        defer { lock.endExclusive() }
        return try body()
    }
}
