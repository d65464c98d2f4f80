#if canImport(Glibc)
import Glibc
#endif
import CStrataSupport
import Foundation

/// Information about one reader slot of the lock file.
public struct ReaderInfo: Equatable, Sendable {
    /// The slot's index in the lock file.
    public var slot: Int
    /// The reading process.
    public var pid: Int32
    /// The reading thread (Linux thread id).
    public var threadID: UInt32
    /// The version the reader pins.
    public var version: UInt64
    /// When the reader pinned its version (nanoseconds since 1970).
    public var since: UInt64
    /// The reading handle's label (`StoreOptions.label`, or its process name).
    public var label: String
    /// False when the process that took the slot no longer exists (the slot is stale).
    public var isAlive: Bool
}

/// Information about one participant (an open handle) of the lock file.
public struct ParticipantInfo: Equatable, Sendable {
    /// The slot's index in the lock file.
    public var slot: Int
    /// The process that opened the handle.
    public var pid: Int32
    /// When it opened the file (nanoseconds since 1970).
    public var openedAt: UInt64
    /// The handle's label (`StoreOptions.label`, or its process name).
    public var label: String
    /// False when that process no longer exists (its slot is stale and will be cleared).
    public var isAlive: Bool
}

/// `FILE.lock`: shared memory every participant maps. Layout (little-endian):
///
///     0    8  magic "STRATALK"
///     8    4  layout version (1)
///     12   4  reader slot count
///     16   8  latest committed version
///     24   4  commit sequence (futex word: incremented and woken after each commit)
///     28   4  participant slot count
///     32   8  pid of the current writer (0 when none; informational)
///     40   8  writer since (ns)
///     48   4  reader high-water mark
///     52   4  writer-release sequence (futex word: bumped and woken when the writer lock is
///             released while processes wait for it)
///     56   8  writer process start ticks (tells a live holder from a reused pid)
///     64   32 writer label (the holding handle's label: its process name unless set)
///     96   4  processes waiting for the writer lock with a notice, timeout or cancellation
///     100  4  commit watchers sleeping on the commit sequence (all handles, all processes)
///     256  participant slots, 64 bytes each: u32 pid, u32 0, u64 process start ticks,
///          u64 opened at ns, u64 handle id, 32 bytes label
///     ...  reader slots, 64 bytes each: u32 pid, u32 thread id, u64 version,
///          u64 process start ticks, u64 since ns, 32 bytes label
///
/// Byte-range locks (open-file-description locks, released by the kernel when a process dies):
/// byte 0 guards initialisation, byte 1 is the writer lock, byte 2 is held shared by every
/// open handle and exclusively by a full compaction.
///
/// Reader protocol (as LMDB's): claim a slot, store the version read from the newest meta
/// slot, then re-read the newest version; if it moved, store the new one and check again.
/// Writers read the slots only after taking the writer lock, so a reader either shows up in
/// the writer's scan or has re-checked after the writer's predecessor committed.
final class LockFile: @unchecked Sendable {
    static let magic: [UInt8] = Array("STRATALK".utf8)
    static let layoutVersion: UInt32 = 1
    static let participantSlots = 128
    static let readerSlots = 1024
    static let slotSize = 64
    static let participantsOffset = 256
    static var readersOffset: Int { participantsOffset + participantSlots * slotSize }
    static var fileSize: Int { (readersOffset + readerSlots * slotSize + 4095) & ~4095 }

    let path: String
    let fd: Int32
    let base: UnsafeMutableRawPointer
    let myPid: Int32 = getpid()
    let myStartTicks: UInt64 = strata_process_start_ticks(getpid())
    private(set) var participantSlot: Int = -1
    /// This handle's label (recorded as the writer's while it holds the writer lock).
    let label: String
    /// `label` as the lock file stores it, made once (the writer records it at every commit).
    private let storedLabel: [UInt8]

    /// Reserves the lock file's bytes on disk before they are mapped (a sparse page written
    /// through the mapping on a full disk is a SIGBUS). Returns 0 or an errno. Tests replace it
    /// to simulate a full disk.
    nonisolated(unsafe) static var reserveSpace: (_ fd: Int32, _ length: Int) -> Int32 = { fd, length in
        let r = strata_allocate(fd, 0, Int64(length))
        if r == 0 { return 0 }
        if r == -1 { return errno }
        // No fallocate on this file system: write zeros where the file holds none yet (beyond
        // its current end only: other participants may be using the bytes before it).
        var st = stat()
        if fstat(fd, &st) != 0 { return errno }
        var at = Int(st.st_size)
        let zeros = [UInt8](repeating: 0, count: 4096)
        while at < length {
            let n = zeros.withUnsafeBytes { pwrite(fd, $0.baseAddress!, min(4096, length - at), off_t(at)) }
            if n < 0 { if errno == EINTR { continue }; return errno }
            at += n
        }
        return 0
    }

    /// Opens or creates the lock file and joins as a participant (shared lock on byte 2).
    /// Read-only handles: joins the lock file when it exists and can be opened for writing;
    /// nil when it does not exist (it is not created) or cannot be written (read-only directory
    /// or file system).
    static func openIfPossible(path: String, label: String) throws -> LockFile? {
        do { return try LockFile(path: path, label: label, create: false) } catch let e as StorageError {
            if case .io(_, _, let code) = e, [ENOENT, EACCES, EROFS, EPERM].contains(code) { return nil }
            throw e
        }
    }

    init(path: String, label: String, create: Bool = true) throws {
        self.path = path
        self.label = label
        storedLabel = Self.labelBytes(label)
        var fd: Int32 = -1
        var attempts = 0
        while true {
            // O_NONBLOCK: a FIFO at this path must not block the open (it is refused below).
            fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | (create ? O_CREAT : 0), 0o644)
            guard fd >= 0 else { throw StorageError.io(path: path, operation: "open lock file", errno: errno) }
            var st0 = stat()
            if fstat(fd, &st0) != 0 || (st0.st_mode & S_IFMT) != S_IFREG {
                Glibc.close(fd)
                throw StorageError.notARegularFile(path: path, kind: Store.fileKind(st0.st_mode))
            }
            // Initialisation is serialised by byte 0.
            guard strata_ofd_lock(fd, 0, 1, 2, 1) == 0 else {
                let e = errno; Glibc.close(fd)
                throw StorageError.io(path: path, operation: "lock", errno: e)
            }
            // Invariant: every handle's lock file is the file the path names. One that was
            // unlinked between this open and this lock (a failed command removes a lock file it
            // made once nobody holds bytes 0 and 2, holding them while it unlinks) would
            // coordinate with nobody: open the path again.
            var named = stat()
            if stat(path, &named) == 0 && named.st_dev == st0.st_dev && named.st_ino == st0.st_ino { break }
            _ = strata_ofd_lock(fd, 0, 1, 0, 0)
            Glibc.close(fd)
            attempts += 1
            if attempts >= 100 { throw StorageError.io(path: path, operation: "open lock file (it was replaced 100 times while opening)", errno: ESTALE) }
        }
        self.fd = fd
        defer { _ = strata_ofd_lock(fd, 0, 1, 0, 0) }
        var st = stat()
        fstat(fd, &st)
        // Every byte is allocated for real before it is mapped: on a full disk this fails
        // cleanly here instead of a SIGBUS at the first write through the mapping.
        let reserved = Self.reserveSpace(fd, Self.fileSize)
        if reserved != 0 {
            Glibc.close(fd)
            if reserved == ENOSPC || reserved == EDQUOT || reserved == EFBIG { throw StorageError.noSpaceForLockFile(path: path, bytes: Self.fileSize) }
            throw StorageError.io(path: path, operation: "allocate lock file", errno: reserved)
        }
        if Int(st.st_size) < Self.fileSize {
            if ftruncate(fd, off_t(Self.fileSize)) != 0 {
                let e = errno; Glibc.close(fd)
                throw StorageError.io(path: path, operation: "size lock file", errno: e)
            }
        }
        guard let p = mmap(nil, Self.fileSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), p != MAP_FAILED else {
            let e = errno; Glibc.close(fd)
            throw StorageError.io(path: path, operation: "mmap lock file", errno: e)
        }
        base = p
        // Alone (nobody holds byte 2)? Then whatever the file holds is stale: reinitialise.
        if strata_ofd_lock(fd, 2, 1, 2, 0) == 0 {
            memset(base, 0, Self.fileSize)
            Self.magic.withUnsafeBytes { _ = memcpy(base, $0.baseAddress!, 8) }
            base.putLE(Self.layoutVersion, at: 8)
            base.putLE(UInt32(Self.readerSlots), at: 12)
            base.putLE(UInt32(Self.participantSlots), at: 28)
            strata_full_fence()
            _ = strata_ofd_lock(fd, 2, 1, 1, 0) // downgrade to shared (atomic conversion)
        } else {
            guard strata_ofd_lock(fd, 2, 1, 1, 1) == 0 else {
                let e = errno; munmap(p, Self.fileSize); Glibc.close(fd)
                throw StorageError.io(path: path, operation: "lock", errno: e)
            }
            let ok = memcmp(base, Self.magic, 8) == 0 && base.load(fromByteOffset: 8, as: UInt32.self) == Self.layoutVersion
                && Int(base.load(fromByteOffset: 12, as: UInt32.self)) == Self.readerSlots
            if !ok {
                // Others use it, yet its header is gone: it was emptied under them (they restore
                // its size, not its contents).
                let truncated = Int(st.st_size) < Self.fileSize || (0..<16).allSatisfy { p.load(fromByteOffset: $0, as: UInt8.self) == 0 }
                munmap(p, Self.fileSize); Glibc.close(fd)
                throw StorageError.badLockFile(path: path, detail: truncated
                    ? "it was truncated while other processes used it (by another program?); once they have closed the database it is rebuilt"
                    : "unknown layout")
            }
        }
        participantSlot = try claimParticipant(label: label)
    }

    deinit { close(); ownWatcherWaiting.deallocate() }

    private var closed = false
    func close() {
        if closed { return }
        closed = true
        restoreSizeIfTruncated()
        if participantSlot >= 0 {
            let s = participantPointer(participantSlot)
            memset(s + 4, 0, Self.slotSize - 4)
            strata_atomic_store_u32(s.assumingMemoryBound(to: UInt32.self), 0)
        }
        munmap(base, Self.fileSize)
        Glibc.close(fd) // releases every byte-range lock of this description
    }

    // MARK: shared counters

    private var latestPtr: UnsafeMutablePointer<UInt64> { (base + 16).assumingMemoryBound(to: UInt64.self) }
    private var sequencePtr: UnsafeMutablePointer<UInt32> { (base + 24).assumingMemoryBound(to: UInt32.self) }

    var latestVersion: UInt64 { restoreSizeIfTruncated(); return strata_atomic_load_u64(latestPtr) }
    /// `latestVersion` for a caller that has just checked the file's size (the writer, right
    /// after `lockWriter`): no second fstat.
    var latestVersionChecked: UInt64 { strata_atomic_load_u64(latestPtr) }
    var commitSequence: UInt32 { restoreSizeIfTruncated(); return strata_atomic_load_u32(sequencePtr) }

    private var waitingWatchersPtr: UnsafeMutablePointer<UInt32> { (base + 100).assumingMemoryBound(to: UInt32.self) }
    /// 1 while this handle's commit watcher sleeps in `waitForCommit` (counted in
    /// `waitingWatchersPtr` too). Process-local: not in the shared mapping.
    private let ownWatcherWaiting: UnsafeMutablePointer<UInt32> = {
        let p = UnsafeMutablePointer<UInt32>.allocate(capacity: 1); p.initialize(to: 0); return p
    }()

    /// Publishes a commit: every process waiting in `waitForCommit` wakes up.
    ///
    /// `wakeOwnWatcher` false: this handle's own watcher is not woken for this commit (its
    /// observers learn of it at their next wake-up: another commit, or the watcher's 1 s
    /// timeout). Waking a sleeping thread costs the committer ~10-15 µs on a VM (an IPI); a
    /// writer that delivers its own notifications does not need it. The futex is woken only when
    /// a watcher that wants the wake sleeps on it: the committer increments the sequence, then
    /// reads the count of sleeping watchers; a watcher counts itself, then sleeps only while the
    /// sequence is the one it saw — one of the two sees the other (both are full barriers).
    func publish(version: UInt64, wakeOwnWatcher: Bool = true) {
        restoreSizeIfTruncated()
        strata_atomic_store_u64(latestPtr, version)
        _ = strata_atomic_fetch_add_u32(sequencePtr, 1)
        strata_full_fence()
        let waiting = strata_atomic_load_u32(waitingWatchersPtr)
        let own = wakeOwnWatcher ? 0 : strata_atomic_load_u32(ownWatcherWaiting)
        // A count far above any real number of watchers: treat it as "some" (never skip).
        if waiting > own || waiting >= 1 << 31 { _ = strata_futex_wake_all(sequencePtr) }
    }

    /// Commit watchers sleeping on the commit sequence now (all handles, all processes).
    var sleepingWatchers: UInt32 { restoreSizeIfTruncated(); return strata_atomic_load_u32(waitingWatchersPtr) }

    /// Blocks (using no CPU) until the commit sequence differs from `seen` or the timeout passes.
    /// Counted among the sleeping watchers while it waits (see `publish`).
    func waitForCommit(seen: UInt32, timeoutMs: Int32) {
        restoreSizeIfTruncated()
        strata_atomic_store_u32(ownWatcherWaiting, 1)
        _ = strata_atomic_fetch_add_u32(waitingWatchersPtr, 1)
        strata_full_fence()
        _ = strata_futex_wait(sequencePtr, seen, timeoutMs)
        _ = strata_atomic_fetch_add_u32(waitingWatchersPtr, UInt32.max) // - 1
        strata_atomic_store_u32(ownWatcherWaiting, 0)
    }

    /// Wakes waiters without a commit (used to stop watcher threads). Waiters in other
    /// processes wake too, see the version unchanged and sleep again.
    func poke() {
        restoreSizeIfTruncated()
        _ = strata_atomic_fetch_add_u32(sequencePtr, 1)
        _ = strata_futex_wake_all(sequencePtr)
    }

    // MARK: writer lock

    private var releaseSequencePtr: UnsafeMutablePointer<UInt32> { (base + 52).assumingMemoryBound(to: UInt32.self) }
    private var waitingWritersPtr: UnsafeMutablePointer<UInt32> { (base + 96).assumingMemoryBound(to: UInt32.self) }

    /// Takes the writer lock, waiting as long as it takes (the kernel queues the waiters).
    func lockWriter() throws {
        try checkSize()
        guard strata_ofd_lock(fd, 1, 1, 2, 1) == 0 else { throw StorageError.io(path: path, operation: "writer lock", errno: errno) }
        recordHolder()
    }

    /// Takes the writer lock, waiting without spinning: a futex wait on the release sequence
    /// (woken when the holder releases the lock; re-tried every 250 ms, which also covers a
    /// holder that died, whose lock the kernel released without a wake). After `noticeAfter`
    /// seconds, calls `onWait` once with the holder; gives up at `deadline` (seconds from now)
    /// or when `cancellation` is cancelled.
    func lockWriter(noticeAfter: Double, onWait: ((WriteLockHolder) -> Void)?, deadline: Double?,
                    cancellation: WriteLockWaitCancellation?) throws {
        try checkSize()
        if tryLockWriter() { return }
        _ = strata_atomic_fetch_add_u32(waitingWritersPtr, 1)
        defer { _ = strata_atomic_fetch_add_u32(waitingWritersPtr, UInt32.max) }
        cancellation?.setWake { [self] in
            _ = strata_atomic_fetch_add_u32(releaseSequencePtr, 1)
            _ = strata_futex_wake_all(releaseSequencePtr)
        }
        defer { cancellation?.setWake(nil) }
        let start = DispatchTime.now().uptimeNanoseconds
        var noticed = onWait == nil
        while true {
            let seen = strata_atomic_load_u32(releaseSequencePtr)
            if tryLockWriter() { return }
            if cancellation?.isCancelled == true { throw StorageError.writeLockWaitCancelled(path: path) }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if let deadline, elapsed >= deadline { throw StorageError.writeLockTimeout(path: path, holder: writeLockHolder()) }
            if !noticed && elapsed >= noticeAfter {
                noticed = true
                if let h = writeLockHolder() { onWait?(h) }
            }
            var wait = 0.25
            if !noticed { wait = min(wait, noticeAfter - elapsed) }
            if let deadline { wait = min(wait, deadline - elapsed) }
            _ = strata_futex_wait(releaseSequencePtr, seen, Int32(max(1, (wait * 1000).rounded(.up))))
        }
    }

    func tryLockWriter() -> Bool {
        if (try? checkSize()) == nil { return false }
        guard strata_ofd_lock(fd, 1, 1, 2, 0) == 0 else { return false }
        recordHolder()
        return true
    }

    /// Writes who holds the writer lock (informational: read by `writeLockHolder()`).
    private func recordHolder() {
        (base + 56).putLE(myStartTicks, at: 0)
        Self.putLabelBytes(storedLabel, at: base + 64)
        (base + 40).putLE(Self.nowNanos(), at: 0)
        strata_atomic_store_u64((base + 32).assumingMemoryBound(to: UInt64.self), UInt64(UInt32(bitPattern: myPid)))
    }

    /// Releases the writer lock. `sizeChecked`: the caller has just checked the file's size
    /// (`publish`, microseconds earlier), so it is not checked again.
    func unlockWriter(sizeChecked: Bool = false) {
        if !sizeChecked { restoreSizeIfTruncated() }
        strata_atomic_store_u64((base + 32).assumingMemoryBound(to: UInt64.self), 0)
        _ = strata_ofd_lock(fd, 1, 1, 0, 0)
        // Waiters sleeping on the futex learn at once (a plain lockWriter waits in the kernel).
        if strata_atomic_load_u32(waitingWritersPtr) != 0 {
            _ = strata_atomic_fetch_add_u32(releaseSequencePtr, 1)
            _ = strata_futex_wake_all(releaseSequencePtr)
        }
    }

    var writerPid: Int32 { Int32(truncatingIfNeeded: strata_atomic_load_u64((base + 32).assumingMemoryBound(to: UInt64.self))) }

    /// The process holding the writer lock as it recorded itself, or nil when none does.
    func writeLockHolder() -> WriteLockHolder? {
        restoreSizeIfTruncated()
        let pid = writerPid
        guard pid != 0 else { return nil }
        let ticks = base.load(fromByteOffset: 56, as: UInt64.self)
        return WriteLockHolder(pid: pid, label: Self.label(at: base + 64), since: base.load(fromByteOffset: 40, as: UInt64.self),
                               isAlive: isAlive(pid: pid, startTicks: ticks))
    }

    /// Throws (after restoring the size, so nobody's mapping faults) when the lock file was
    /// truncated under the running processes: its contents are lost, so the handles of every
    /// process must be reopened.
    func checkSize() throws {
        if let size = restoreSizeIfTruncated() {
            throw StorageError.badLockFile(path: path, detail: "it was truncated to \(size) bytes while in use (by another program?)")
        }
    }

    /// Restores the file's size when another program truncated it under this process: a page of
    /// the mapping past the end of the file is a SIGBUS at the next access, so every path that
    /// touches the mapping calls this first (an fstat; the contents lost stay lost: zeros).
    /// Returns the size found when it was short.
    @discardableResult
    private func restoreSizeIfTruncated() -> Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) < Self.fileSize else { return nil }
        _ = ftruncate(fd, off_t(Self.fileSize))
        return Int(st.st_size)
    }

    // MARK: exclusivity (full compaction)

    /// Tries to become the only participant. On failure the shared participation is kept.
    func tryExclusive() -> Bool {
        if strata_ofd_lock(fd, 2, 1, 2, 0) == 0 { return true }
        _ = strata_ofd_lock(fd, 2, 1, 1, 1)
        return false
    }

    func endExclusive() { _ = strata_ofd_lock(fd, 2, 1, 1, 1) }

    // MARK: slots

    private func participantPointer(_ i: Int) -> UnsafeMutableRawPointer { base + Self.participantsOffset + i * Self.slotSize }
    private func readerPointer(_ i: Int) -> UnsafeMutableRawPointer { base + Self.readersOffset + i * Self.slotSize }

    static func nowNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    private static func putLabel(_ label: String, at p: UnsafeMutableRawPointer) {
        putLabelBytes(labelBytes(label), at: p)
    }

    /// The label as stored: at most 31 bytes of UTF-8, cut at a character boundary.
    private static func labelBytes(_ label: String) -> [UInt8] {
        var bytes = Array(label.utf8.prefix(31))
        while !bytes.isEmpty, String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        return bytes
    }

    private static func putLabelBytes(_ bytes: [UInt8], at p: UnsafeMutableRawPointer) {
        memset(p, 0, 32)
        bytes.withUnsafeBytes { if let b = $0.baseAddress { memcpy(p, b, $0.count) } }
    }

    private static func label(at p: UnsafeRawPointer) -> String {
        let buf = UnsafeRawBufferPointer(start: p, count: 32)
        let end = buf.firstIndex(of: 0) ?? 32
        return String(decoding: buf[0..<end], as: UTF8.self)
    }

    /// Is the process that wrote (pid, startTicks) still the one running under that pid?
    func isAlive(pid: Int32, startTicks: UInt64) -> Bool {
        if pid == myPid { return startTicks == myStartTicks || startTicks == 0 || myStartTicks == 0 }
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        let now = strata_process_start_ticks(pid)
        return now == 0 || startTicks == 0 || now == startTicks
    }

    private func claimParticipant(label: String) throws -> Int {
        for i in 0..<Self.participantSlots {
            let p = participantPointer(i)
            let pidPtr = p.assumingMemoryBound(to: UInt32.self)
            var cur = strata_atomic_load_u32(pidPtr)
            if cur != 0 && !isAlive(pid: Int32(bitPattern: cur), startTicks: p.load(fromByteOffset: 8, as: UInt64.self)) {
                if strata_atomic_cas_u32(pidPtr, cur, 0) != 0 { cur = 0 }
            }
            if cur == 0 && strata_atomic_cas_u32(pidPtr, 0, UInt32(bitPattern: myPid)) != 0 {
                p.putLE(myStartTicks, at: 8)
                p.putLE(Self.nowNanos(), at: 16)
                p.putLE(UInt64(i), at: 24)
                Self.putLabel(label, at: p + 32)
                return i
            }
        }
        // The table is full: still usable, only not listed.
        return -1
    }

    func participants() -> [ParticipantInfo] {
        restoreSizeIfTruncated()
        var out: [ParticipantInfo] = []
        for i in 0..<Self.participantSlots {
            let p = participantPointer(i)
            let pid = strata_atomic_load_u32(p.assumingMemoryBound(to: UInt32.self))
            if pid == 0 { continue }
            let ticks = p.load(fromByteOffset: 8, as: UInt64.self)
            out.append(ParticipantInfo(slot: i, pid: Int32(bitPattern: pid), openedAt: p.load(fromByteOffset: 16, as: UInt64.self),
                                       label: Self.label(at: p + 32), isAlive: isAlive(pid: Int32(bitPattern: pid), startTicks: ticks)))
        }
        return out
    }

    /// Claims a reader slot and pins `version`.
    func claimReader(version: UInt64, label: String) throws -> Int {
        try checkSize()
        for i in 0..<Self.readerSlots {
            let p = readerPointer(i)
            let pidPtr = p.assumingMemoryBound(to: UInt32.self)
            if strata_atomic_load_u32(pidPtr) == 0 && strata_atomic_cas_u32(pidPtr, 0, UInt32(bitPattern: myPid)) != 0 {
                raiseReaderHighWater(to: UInt32(i + 1))
                p.putLE(UInt32(truncatingIfNeeded: strata_gettid()), at: 4)
                p.putLE(myStartTicks, at: 16)
                p.putLE(Self.nowNanos(), at: 24)
                Self.putLabel(label, at: p + 32)
                strata_atomic_store_u64((p + 8).assumingMemoryBound(to: UInt64.self), version)
                return i
            }
        }
        clearDeadReaders()
        throw StorageError.tooManyReaders(limit: Self.readerSlots)
    }

    func updateReader(_ slot: Int, version: UInt64) {
        restoreSizeIfTruncated()
        let p = readerPointer(slot)
        strata_atomic_store_u64((p + 8).assumingMemoryBound(to: UInt64.self), version)
        p.putLE(Self.nowNanos(), at: 24)
    }

    func releaseReader(_ slot: Int) {
        restoreSizeIfTruncated()
        let p = readerPointer(slot)
        strata_atomic_store_u64((p + 8).assumingMemoryBound(to: UInt64.self), 0)
        strata_atomic_store_u32(p.assumingMemoryBound(to: UInt32.self), 0)
    }

    /// Reader slots at or past this index have never been claimed since the file was
    /// initialised, so scans stop there (header offset 48, only ever raised).
    private var highWaterPtr: UnsafeMutablePointer<UInt32> { (base + 48).assumingMemoryBound(to: UInt32.self) }

    private func raiseReaderHighWater(to n: UInt32) {
        while true {
            let cur = strata_atomic_load_u32(highWaterPtr)
            if cur >= n || strata_atomic_cas_u32(highWaterPtr, cur, n) != 0 { return }
        }
    }

    /// All occupied reader slots, alive or not.
    /// - Parameter sizeChecked: the caller has just checked the file's size (the writer, right
    ///   after `lockWriter`), so it is not checked again.
    func readers(sizeChecked: Bool = false) -> [ReaderInfo] {
        if !sizeChecked { restoreSizeIfTruncated() }
        var out: [ReaderInfo] = []
        // The slot is published (pid CAS) before the mark is raised; a reader re-checks the
        // newest version after both, so a writer that misses it here misses only a reader that
        // then pins the newest version, which no writer frees (the LMDB argument).
        let end = min(Int(strata_atomic_load_u32(highWaterPtr)), Self.readerSlots)
        for i in 0..<end {
            let p = readerPointer(i)
            let pid = strata_atomic_load_u32(p.assumingMemoryBound(to: UInt32.self))
            if pid == 0 { continue }
            let version = strata_atomic_load_u64((p + 8).assumingMemoryBound(to: UInt64.self))
            if version == 0 { continue }
            out.append(ReaderInfo(slot: i, pid: Int32(bitPattern: pid), threadID: p.load(fromByteOffset: 4, as: UInt32.self),
                                  version: version, since: p.load(fromByteOffset: 24, as: UInt64.self),
                                  label: Self.label(at: p + 32),
                                  isAlive: isAlive(pid: Int32(bitPattern: pid), startTicks: p.load(fromByteOffset: 16, as: UInt64.self))))
        }
        return out
    }

    /// Clears slots whose process has died; returns how many.
    @discardableResult
    func clearDeadReaders() -> Int {
        var n = 0
        for r in readers() where !r.isAlive && clearSlot(of: r) { n += 1 }
        return n
    }

    /// Frees the slot of a dead reader (unless another process claimed it meanwhile).
    @discardableResult
    private func clearSlot(of r: ReaderInfo) -> Bool {
        let p = readerPointer(r.slot)
        strata_atomic_store_u64((p + 8).assumingMemoryBound(to: UInt64.self), 0)
        return strata_atomic_cas_u32(p.assumingMemoryBound(to: UInt32.self), UInt32(bitPattern: r.pid), 0) != 0
    }

    /// Versions pinned by live readers, sorted; clears the slots of dead ones on the way.
    func liveReaderVersions(sizeChecked: Bool = false) -> [UInt64] {
        var versions: [UInt64] = []
        for r in readers(sizeChecked: sizeChecked) {
            if r.isAlive { versions.append(r.version) } else { clearSlot(of: r) }
        }
        return versions.sorted()
    }
}
