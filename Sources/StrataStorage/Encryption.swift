#if canImport(Glibc)
import Glibc
#endif
import CStrataSupport
import Crypto
import _CryptoExtras
import Foundation

/// Encrypted files (see docs/FORMAT.md, "Encrypted files").
///
/// The database is addressed in *logical* offsets exactly as an unencrypted file. Logical pages
/// 0 and 1 (the meta slots) are stored in plaintext at the same physical offsets. Every other
/// 4096-byte logical page is stored encrypted with AES-256-CBC under a fresh random IV each
/// time it is written; its IV and an HMAC-SHA-256 over (page number, IV, ciphertext) live in a
/// plaintext *IV page* that precedes each group of 64 data pages:
///
///     physical page 0, 1      meta slots (plaintext)
///     physical page 2         IV page of logical pages 2..<66
///     physical pages 3..<67   logical pages 2..<66 (ciphertext)
///     physical page 67        IV page of logical pages 66..<130, ...
enum PageLayout {
    static let pageSize = 4096
    static let pageShift: UInt64 = 12
    static let pagesPerGroup: UInt64 = 64
    /// IV (16 bytes) + HMAC-SHA-256 (32 bytes).
    static let entrySize = 48
    /// Logical pages below this index are stored as they are (the meta slots).
    static let firstDataPage: UInt64 = 2

    @inline(__always) static func physicalPage(_ p: UInt64) -> UInt64 {
        let d = p - firstDataPage
        return firstDataPage + (d / pagesPerGroup) * (pagesPerGroup + 1) + 1 + d % pagesPerGroup
    }
    @inline(__always) static func entryOffset(_ p: UInt64) -> UInt64 {
        let d = p - firstDataPage
        let meta = firstDataPage + (d / pagesPerGroup) * (pagesPerGroup + 1)
        return meta << pageShift + (d % pagesPerGroup) * UInt64(entrySize)
    }
    /// Physical bytes that hold the logical bytes [0, logical) (rounded up to whole pages).
    static func physicalSize(logical: UInt64) -> UInt64 {
        let n = (logical + UInt64(pageSize) - 1) >> pageShift
        if n <= firstDataPage { return n << pageShift }
        let d = n - firstDataPage
        return (firstDataPage + d + (d + pagesPerGroup - 1) / pagesPerGroup) << pageShift
    }
    /// The logical bytes whose pages a physical file of `physical` bytes holds completely.
    static func logicalSize(physical: UInt64) -> UInt64 {
        let pp = physical >> pageShift
        if pp <= firstDataPage { return pp << pageShift }
        let rem = pp - firstDataPage
        let full = rem / (pagesPerGroup + 1), r = rem % (pagesPerGroup + 1)
        let d = full * pagesPerGroup + (r > 0 ? r - 1 : 0)
        return (firstDataPage + d) << pageShift
    }
}

/// The keys of an encrypted file and the page transforms.
final class PageCrypto: @unchecked Sendable {
    let aesKey: SymmetricKey
    let hmacKey: SymmetricKey
    /// Stored in the meta slots: tells a wrong key from an unencrypted or corrupted file.
    let keyCheck: [UInt8]

    /// HMAC-SHA-256 under the HMAC key with nothing hashed yet: copied for each MAC (its key
    /// pads are hashed once, not per page; the copy is copy-on-write, the template never changes).
    private let macTemplate: HMAC<SHA256>

    /// AES-256 round keys for the AES-NI path (CStrataSupport); nil: swift-crypto's portable
    /// `AES._CBC` (same output, much slower: it expands the key for every 16-byte block).
    private let schedule: UnsafeMutablePointer<UInt8>?

    /// - Parameter portable: use swift-crypto's `AES._CBC` even when AES-NI is available (tests
    ///   check that both paths produce the same bytes).
    init(key: [UInt8], portable: Bool = false) throws {
        guard key.count == 64 else { throw StorageError.invalidEncryptionKey(length: key.count) }
        aesKey = SymmetricKey(data: key[0..<32])
        hmacKey = SymmetricKey(data: key[32..<64])
        macTemplate = HMAC<SHA256>(key: hmacKey)
        keyCheck = PageCrypto.keyCheck(for: key)
        let s = UnsafeMutablePointer<UInt8>.allocate(capacity: 480)
        if !portable, key.withUnsafeBufferPointer({ strata_aes256_init(s, $0.baseAddress!) }) == 1 { schedule = s } else {
            s.deallocate(); schedule = nil
        }
    }

    deinit { schedule?.deallocate() }

    var usesAESNI: Bool { schedule != nil }

    /// HMAC-SHA-256 keyed with the whole 64-byte key over a constant label: binds both halves.
    static func keyCheck(for key: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array("Strata key check v1".utf8), using: SymmetricKey(data: key)))
    }

    /// The 16-byte tag stored at bytes 96..<112 of an encrypted file's meta slot: HMAC-SHA-256
    /// (HMAC key) over the label "meta" and bytes 0..<96, truncated.
    func metaTag(_ slot: UnsafeRawBufferPointer) -> [UInt8] {
        var h = macTemplate
        h.update(data: Array("meta".utf8))
        h.update(data: UnsafeRawBufferPointer(rebasing: slot[0..<96]))
        return Array(Array(h.finalize()).prefix(16))
    }

    func metaTagIsValid(_ slot: UnsafeRawBufferPointer) -> Bool {
        let t = metaTag(slot)
        var diff: UInt8 = 0
        for i in 0..<16 { diff |= t[i] ^ slot[96 + i] }
        return diff == 0
    }

    private func mac(page: UInt64, iv: UnsafeRawPointer, ciphertext: UnsafeRawPointer) -> HMAC<SHA256>.MAC {
        var h = macTemplate
        withUnsafeBytes(of: page.littleEndian) { h.update(data: $0) }
        h.update(data: UnsafeRawBufferPointer(start: iv, count: 16))
        h.update(data: UnsafeRawBufferPointer(start: ciphertext, count: PageLayout.pageSize))
        return h.finalize()
    }

    /// Encrypts the 4096-byte `plaintext` of logical page `page` into `ciphertext` with a fresh
    /// random IV (or `iv`) and writes IV + MAC (48 bytes) to `entry`.
    func seal(page: UInt64, plaintext: UnsafeRawPointer, ciphertext: UnsafeMutableRawPointer, entry: UnsafeMutableRawPointer,
              iv: UnsafeRawPointer? = nil) throws {
        if let iv { memcpy(entry, iv, 16) } else { try PageCrypto.randomBytes(entry, 16) }
        try seal([SealedPage(page: page, plaintext: plaintext, ciphertext: ciphertext, entry: entry)])
    }

    /// A page to seal: its IV is already in the first 16 bytes of `entry`.
    struct SealedPage {
        var page: UInt64
        var plaintext: UnsafeRawPointer
        var ciphertext: UnsafeMutableRawPointer
        var entry: UnsafeMutableRawPointer
    }

    /// Encrypts each page with the IV in its entry and writes its MAC after the IV. With AES-NI,
    /// four pages at a time (their CBC chains interleaved).
    func seal(_ pages: [SealedPage]) throws {
        let n = PageLayout.pageSize
        var i = 0
        if let schedule {
            while i + 4 <= pages.count {
                let q = pages[i..<i + 4]
                let ivs = q.map { Optional(UnsafePointer($0.entry.assumingMemoryBound(to: UInt8.self))) }
                let ins = q.map { Optional($0.plaintext.assumingMemoryBound(to: UInt8.self)) }
                let outs = q.map { Optional($0.ciphertext.assumingMemoryBound(to: UInt8.self)) }
                strata_aes256_cbc_encrypt4(schedule, ivs, ins, outs, UInt64(n))
                i += 4
            }
        }
        for s in pages[i...] {
            if let schedule {
                strata_aes256_cbc_encrypt(schedule, s.entry.assumingMemoryBound(to: UInt8.self), s.plaintext.assumingMemoryBound(to: UInt8.self),
                                          s.ciphertext.assumingMemoryBound(to: UInt8.self), UInt64(n))
            } else {
                let iv = try AES._CBC.IV(ivBytes: UnsafeRawBufferPointer(start: s.entry, count: 16))
                let ct = try AES._CBC.encrypt(UnsafeRawBufferPointer(start: s.plaintext, count: n), using: aesKey, iv: iv, noPadding: true)
                ct.withUnsafeBytes { _ = memcpy(s.ciphertext, $0.baseAddress!, n) }
            }
        }
        for s in pages {
            let m = mac(page: s.page, iv: s.entry, ciphertext: s.ciphertext)
            m.withUnsafeBytes { _ = memcpy(s.entry + 16, $0.baseAddress!, 32) }
        }
    }

    /// Fills `count` bytes with the kernel's cryptographic randomness (getrandom).
    static func randomBytes(_ p: UnsafeMutableRawPointer, _ count: Int) throws {
        if strata_random_bytes(p, UInt64(count)) != 0 { throw StorageError.io(path: "", operation: "getrandom", errno: errno) }
    }

    /// Authenticates and decrypts logical page `page`. False when the MAC does not match (a
    /// tampered, torn or never-written page, or another file's page).
    func open(page: UInt64, ciphertext: UnsafeRawPointer, entry: UnsafeRawPointer, into plaintext: UnsafeMutableRawPointer) throws -> Bool {
        let m = mac(page: page, iv: entry, ciphertext: ciphertext)
        let ok = m.withUnsafeBytes { t -> Bool in
            var diff: UInt8 = 0
            for i in 0..<32 { diff |= t[i] ^ entry.load(fromByteOffset: 16 + i, as: UInt8.self) }
            return diff == 0
        }
        guard ok else { return false }
        if let schedule {
            strata_aes256_cbc_decrypt(schedule, entry.assumingMemoryBound(to: UInt8.self), ciphertext.assumingMemoryBound(to: UInt8.self),
                                      plaintext.assumingMemoryBound(to: UInt8.self), UInt64(PageLayout.pageSize))
            return true
        }
        let iv = try AES._CBC.IV(ivBytes: UnsafeRawBufferPointer(start: entry, count: 16))
        let pt = try AES._CBC.decrypt(UnsafeRawBufferPointer(start: ciphertext, count: PageLayout.pageSize),
                                      using: aesKey, iv: iv, noPadding: true)
        pt.withUnsafeBytes { _ = memcpy(plaintext, $0.baseAddress!, PageLayout.pageSize) }
        return true
    }
}

/// A 4096-byte page buffer (plaintext), freed when the last holder lets go.
final class PageBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    /// First 16 bytes of the IV the page was decrypted with (cache validation).
    var iv0: UInt64 = 0, iv1: UInt64 = 0
    var lastUse: UInt64 = 0
    init(zeroed: Bool) {
        bytes = UnsafeMutableRawPointer.allocate(byteCount: PageLayout.pageSize, alignment: 16)
        if zeroed { memset(bytes, 0, PageLayout.pageSize) }
    }
    deinit { bytes.deallocate() }
}

/// The file layer of an encrypted database: the storage writes and reads *logical* offsets;
/// this layer keeps the pages written since the last sync in plaintext (`dirty`), and on
/// `sync()` (or when too many are pending) encrypts each with a fresh IV, writes it and its
/// IV-page entry, then syncs the file underneath.
///
/// Invariant (the allocator's clean-page rule, FreeList.swift): a write transaction only writes
/// pages that hold no byte any committed version can still see, so a page is never
/// read-modified-written unless it was written by the same transaction; a torn write can only
/// damage pages no committed version needs.
final class EncryptedFileIO: FileIO, @unchecked Sendable {
    let inner: FileIO
    let crypto: PageCrypto
    var path: String { inner.path }
    var fd: Int32 { inner.fd }
    private let mutex = NSLock()
    private var dirty: [UInt64: PageBuffer] = [:]
    /// Pages written out since the last sync (owned by the running transaction): a later partial
    /// write to one of them reads and decrypts it first.
    private var spilled: Set<UInt64> = []
    /// Dirty pages kept in memory before they are written out early (bounds a transaction's memory).
    static let spillPages = 2048
    /// The handle's cache of decrypted pages: every page written out goes into it with its new
    /// IV, so the next transaction reads what this one wrote without decrypting it again.
    var writtenPageCache: DecryptedPageCache?

    init(inner: FileIO, crypto: PageCrypto) {
        self.inner = inner
        self.crypto = crypto
    }

    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws {
        guard bytes.count > 0 else { return }
        let dataStart = PageLayout.firstDataPage << PageLayout.pageShift
        if offset < dataStart {
            // The meta slots: plaintext, at the same offsets.
            precondition(offset + UInt64(bytes.count) <= dataStart, "a write straddles the meta slots and the data area")
            try inner.write(bytes, at: offset)
            return
        }
        mutex.lock(); defer { mutex.unlock() }
        var o = offset, src = 0
        while src < bytes.count {
            let p = o >> PageLayout.pageShift
            let inPage = Int(o & UInt64(PageLayout.pageSize - 1))
            let n = min(PageLayout.pageSize - inPage, bytes.count - src)
            let page = try dirtyPageLocked(p, whole: inPage == 0 && n == PageLayout.pageSize)
            memcpy(page.bytes + inPage, bytes.baseAddress! + src, n)
            o += UInt64(n); src += n
            if dirty.count >= Self.spillPages { try flushLocked() }
        }
    }

    private func dirtyPageLocked(_ p: UInt64, whole: Bool) throws -> PageBuffer {
        if let d = dirty[p] { return d }
        let d = PageBuffer(zeroed: !spilled.contains(p) && !whole)
        if spilled.contains(p) && !whole { try readDecrypted(p, into: d.bytes) }
        dirty[p] = d
        return d
    }

    /// The plaintext of a page the running transaction has pending in memory.
    func pendingPage(_ p: UInt64) -> PageBuffer? {
        mutex.lock(); defer { mutex.unlock() }
        return dirty[p]
    }

    /// Whether the running transaction wrote page `p` (in memory or already written out).
    func isTransactionPage(_ p: UInt64) -> Bool {
        mutex.lock(); defer { mutex.unlock() }
        return dirty[p] != nil || spilled.contains(p)
    }

    /// Reads a page through `inner` and decrypts it.
    private func readDecrypted(_ p: UInt64, into out: UnsafeMutableRawPointer) throws {
        let ct = UnsafeMutableRawPointer.allocate(byteCount: PageLayout.pageSize + PageLayout.entrySize, alignment: 16)
        defer { ct.deallocate() }
        try inner.read(into: UnsafeMutableRawBufferPointer(start: ct, count: PageLayout.pageSize), at: PageLayout.physicalPage(p) << PageLayout.pageShift)
        let entry = ct + PageLayout.pageSize
        try inner.read(into: UnsafeMutableRawBufferPointer(start: entry, count: PageLayout.entrySize), at: PageLayout.entryOffset(p))
        guard try crypto.open(page: p, ciphertext: ct, entry: entry, into: out) else {
            throw StorageError.corrupted(path: path, detail: "encrypted page \(p) (bytes \(p << PageLayout.pageShift)...) fails its authentication: tampered, torn, or written with another key")
        }
    }

    /// Encrypts and writes every pending page and its IV-page entry.
    private func flushLocked() throws {
        guard !dirty.isEmpty else { return }
        let pages = dirty.keys.sorted()
        let physSize = try inner.size()
        let size = PageLayout.pageSize
        // The IV pages these pages' entries live in, read whole (in page order), one buffer.
        var ivPages: [UInt64] = []
        for p in pages {
            let ivPage = PageLayout.entryOffset(p) & ~UInt64(size - 1)
            if ivPages.last != ivPage { ivPages.append(ivPage) }
        }
        let ivBuffer = UnsafeMutableRawPointer.allocate(byteCount: size * ivPages.count, alignment: 16)
        defer { ivBuffer.deallocate() }
        memset(ivBuffer, 0, size * ivPages.count)
        for (n, ivPage) in ivPages.enumerated() where ivPage < physSize {
            let count = Int(min(UInt64(size), physSize - ivPage))
            try inner.read(into: UnsafeMutableRawBufferPointer(start: ivBuffer + n * size, count: count), at: ivPage)
        }
        // Every page sealed in one batch (four CBC chains at a time) with a fresh random IV
        // (all drawn with one call), into one ciphertext buffer in page order.
        let ciphertext = UnsafeMutableRawPointer.allocate(byteCount: size * pages.count, alignment: 16)
        defer { ciphertext.deallocate() }
        var sealed: [PageCrypto.SealedPage] = []
        sealed.reserveCapacity(pages.count)
        var n = 0
        for (k, p) in pages.enumerated() {
            let ivPage = PageLayout.entryOffset(p) & ~UInt64(size - 1)
            while ivPages[n] != ivPage { n += 1 }
            let entry = ivBuffer + n * size + Int(PageLayout.entryOffset(p) - ivPage)
            sealed.append(PageCrypto.SealedPage(page: p, plaintext: dirty[p]!.bytes, ciphertext: ciphertext + k * size, entry: entry))
        }
        let ivs = UnsafeMutableRawPointer.allocate(byteCount: 16 * pages.count, alignment: 16)
        defer { ivs.deallocate() }
        try PageCrypto.randomBytes(ivs, 16 * pages.count)
        for (k, page) in sealed.enumerated() { memcpy(page.entry, ivs + 16 * k, 16) }
        try crypto.seal(sealed)
        // Data pages: consecutive physical pages (consecutive pages of one group) with one pwrite.
        var i = 0
        while i < pages.count {
            let group = (pages[i] - PageLayout.firstDataPage) / PageLayout.pagesPerGroup
            var j = i
            while j + 1 < pages.count && pages[j + 1] == pages[j] + 1
                    && (pages[j + 1] - PageLayout.firstDataPage) / PageLayout.pagesPerGroup == group { j += 1 }
            try inner.write(UnsafeRawBufferPointer(start: ciphertext + i * size, count: (j - i + 1) * size),
                            at: PageLayout.physicalPage(pages[i]) << PageLayout.pageShift)
            i = j + 1
        }
        // IV pages: rewritten whole. Entries of pages this flush did not write are rewritten with
        // the bytes they already hold, so a torn IV-page write cannot damage them.
        for (n, ivPage) in ivPages.enumerated() {
            try inner.write(UnsafeRawBufferPointer(start: ivBuffer + n * size, count: size), at: ivPage)
        }
        // Written whole: each plaintext is what the file holds under its new IV (the buffers are
        // not changed again: a later write to a spilled page starts a new buffer).
        if let cache = writtenPageCache {
            for (k, p) in pages.enumerated() {
                let b = dirty[p]!
                b.iv0 = (ivs + 16 * k).loadUnaligned(as: UInt64.self)
                b.iv1 = (ivs + 16 * k).loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            }
            cache.insert(pages.map { ($0, dirty[$0]!) })
        }
        spilled.formUnion(pages)
        dirty.removeAll()
    }

    /// Encrypts and writes every pending page and its IV-page entry without syncing (a one-sync
    /// commit writes them before its meta slot; the following `sync` makes both durable).
    func writePending() throws {
        mutex.lock(); defer { mutex.unlock() }
        try flushLocked()
    }

    /// Passes the hint to the file below once pages were written out since the last sync (a
    /// large transaction spills them early); pages still pending here are unaffected.
    func startWriteback(offset: UInt64, length: UInt64) {
        mutex.lock(); let any = !spilled.isEmpty; mutex.unlock()
        if any { inner.startWriteback(offset: offset, length: length) }
    }

    func sync() throws {
        mutex.lock()
        do { try flushLocked() } catch { mutex.unlock(); throw error }
        spilled.removeAll()
        mutex.unlock()
        try inner.sync()
    }

    /// Forgets pages written by a transaction that is rolled back.
    func discardPending() {
        mutex.lock(); dirty.removeAll(); spilled.removeAll(); mutex.unlock()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws {
        guard buffer.count > 0 else { return }
        let dataStart = PageLayout.firstDataPage << PageLayout.pageShift
        var o = offset, dst = 0
        if o < dataStart {
            let n = Int(min(UInt64(buffer.count), dataStart - o))
            try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]), at: o)
            o += UInt64(n); dst = n
        }
        mutex.lock(); defer { mutex.unlock() }
        let tmp = PageBuffer(zeroed: false)
        while dst < buffer.count {
            let p = o >> PageLayout.pageShift
            let inPage = Int(o & UInt64(PageLayout.pageSize - 1))
            let n = min(PageLayout.pageSize - inPage, buffer.count - dst)
            if let d = dirty[p] { memcpy(buffer.baseAddress! + dst, d.bytes + inPage, n) } else {
                try readDecrypted(p, into: tmp.bytes)
                memcpy(buffer.baseAddress! + dst, tmp.bytes + inPage, n)
            }
            o += UInt64(n); dst += n
        }
    }

    func size() throws -> UInt64 { PageLayout.logicalSize(physical: try inner.size()) }

    /// Zeros over the physical pages of logical `[from, to)` (page-aligned, past the logical
    /// size): data pages and the IV pages of groups that start there. Zero IV entries mean
    /// "never written", and no page of such a group is live.
    func writeZeros(from: UInt64, to: UInt64) throws {
        precondition(from % UInt64(PageLayout.pageSize) == 0 && from >= PageLayout.firstDataPage << PageLayout.pageShift)
        try inner.writeZeros(from: PageLayout.physicalSize(logical: from), to: PageLayout.physicalSize(logical: to))
    }

    func truncate(to size: UInt64) throws {
        try inner.truncate(to: PageLayout.physicalSize(logical: size))
        mutex.lock()
        let limit = (size + UInt64(PageLayout.pageSize) - 1) >> PageLayout.pageShift
        dirty = dirty.filter { $0.key < limit }
        spilled = spilled.filter { $0 < limit }
        mutex.unlock()
    }

    func close() { inner.close() }
}

/// A bounded cache of decrypted pages shared by the transactions of one handle. An entry is
/// valid while the page's IV in the file still is the one it was decrypted with (every page
/// write draws a fresh IV), so pages rewritten by any process are never served stale.
final class DecryptedPageCache: @unchecked Sendable {
    private let mutex = NSLock()
    private var pages: [UInt64: PageBuffer] = [:]
    private var clock: UInt64 = 0
    let capacity: Int
    private(set) var hits = 0, misses = 0

    init(capacityBytes: Int) { capacity = max(16, capacityBytes / PageLayout.pageSize) }

    /// The plaintext of logical page `p`, read from the mapping of the physical file.
    func page(_ p: UInt64, mapBase: UnsafeRawPointer, crypto: PageCrypto, path: String) throws -> PageBuffer {
        let entry = mapBase + Int(PageLayout.entryOffset(p))
        let iv0 = entry.loadUnaligned(as: UInt64.self), iv1 = entry.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        mutex.lock()
        clock += 1
        if let e = pages[p], e.iv0 == iv0, e.iv1 == iv1 {
            e.lastUse = clock; hits += 1
            mutex.unlock()
            return e
        }
        misses += 1
        mutex.unlock()
        let buf = PageBuffer(zeroed: false)
        let ct = mapBase + Int(PageLayout.physicalPage(p) << PageLayout.pageShift)
        guard try crypto.open(page: p, ciphertext: ct, entry: entry, into: buf.bytes) else {
            throw StorageError.corrupted(path: path, detail: "encrypted page \(p) (bytes \(p << PageLayout.pageShift)...) fails its authentication: tampered, torn, or written with another key")
        }
        buf.iv0 = iv0; buf.iv1 = iv1
        mutex.lock()
        clock += 1
        buf.lastUse = clock
        pages[p] = buf
        evictLocked()
        mutex.unlock()
        return buf
    }

    /// Adds pages this handle just wrote: each buffer's `iv0`/`iv1` hold the IV it was sealed with.
    func insert(_ written: [(page: UInt64, buffer: PageBuffer)]) {
        mutex.lock()
        for (p, b) in written { clock += 1; b.lastUse = clock; pages[p] = b }
        evictLocked()
        mutex.unlock()
    }

    /// Over capacity: evicts the least recently used quarter (pages still held by transactions
    /// stay alive through their arenas).
    private func evictLocked() {
        guard pages.count > capacity else { return }
        let victims = pages.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(pages.count - capacity * 3 / 4)
        for (k, _) in victims { pages[k] = nil }
    }

    func removeAll() { mutex.lock(); pages.removeAll(); mutex.unlock() }
}

/// What keeps the decrypted bytes behind a transaction's `BlockView`s alive.
///
/// Lifetime rule: a view returned to a transaction of an encrypted file stays valid until that
/// transaction ends (`end()`, `commit()`, `abort()`, deinit) or `refresh()` moves it to another
/// version, the same rule as for unencrypted files. A block inside one page points into the
/// (reference-counted) decrypted page; a block spanning pages gets a contiguous decrypted copy.
/// Both are held here, so the cache may evict them meanwhile without invalidating the view.
final class PageArena {
    private var pages: [UInt64: PageBuffer] = [:]
    private var spans: [BlockRef: UnsafeMutableRawPointer] = [:]
    private var held: [ObjectIdentifier: PageBuffer] = [:]
    private var copies: [UnsafeMutableRawPointer] = []
    /// What `keep` and `keepSpan` added, in order (only while a scope is marked).
    private enum Added { case page(UInt64), span(BlockRef) }
    private var log: [Added] = []
    private var scopes = 0

    /// Opens a scope (compaction's copier): `release(to:)` drops what was added since.
    func mark() -> Int { scopes += 1; return log.count }

    func release(to mark: Int) {
        while log.count > mark {
            switch log.removeLast() {
            case .page(let p): pages[p] = nil; if lastIndex == p { lastIndex = .max; lastPage = nil }
            case .span(let r): spans.removeValue(forKey: r)?.deallocate()
            }
        }
        scopes -= 1
    }

    // The last page looked up: scans and descents hit the same page many times in a row.
    private var lastIndex: UInt64 = .max
    private var lastPage: PageBuffer?

    @inline(__always) func page(_ p: UInt64) -> PageBuffer? {
        if p == lastIndex { return lastPage }
        guard let b = pages[p] else { return nil }
        lastIndex = p; lastPage = b
        return b
    }
    func keep(_ p: UInt64, _ b: PageBuffer) {
        pages[p] = b; lastIndex = p; lastPage = b
        if scopes > 0 { log.append(.page(p)) }
    }
    func hold(_ b: PageBuffer) { held[ObjectIdentifier(b)] = b }
    func span(_ ref: BlockRef) -> UnsafeMutableRawPointer? { spans[ref] }
    func keepSpan(_ ref: BlockRef, _ p: UnsafeMutableRawPointer) {
        spans[ref] = p
        if scopes > 0 { log.append(.span(ref)) }
    }
    func keepCopy(_ p: UnsafeMutableRawPointer) { copies.append(p) }

    func clear() {
        log.removeAll(); scopes = 0
        pages.removeAll(); held.removeAll()
        lastIndex = .max; lastPage = nil
        for (_, p) in spans { p.deallocate() }
        spans.removeAll()
        for p in copies { p.deallocate() }
        copies.removeAll()
    }
    deinit { clear() }
}

extension Store {
    /// The page holding logical page `p`, held by `arena`.
    private func decryptedPage(_ p: UInt64, arena: PageArena, writer: Bool) throws -> PageBuffer {
        if writer {
            if let d = encryptedIO?.pendingPage(p) { arena.hold(d); return d }
            // Committed pages, or pages this transaction already wrote out: validated by IV.
            let b = try pageCache!.page(p, mapBase: map.base, crypto: crypto!, path: path)
            arena.hold(b)
            return b
        }
        if let b = arena.page(p) { return b }
        let b = try pageCache!.page(p, mapBase: map.base, crypto: crypto!, path: path)
        arena.keep(p, b)
        return b
    }

    func encryptedBlockView(_ ref: BlockRef, limit: UInt64, arena: PageArena, writer: Bool) throws -> BlockView {
        let p = ref >> PageLayout.pageShift
        let off = Int(ref & UInt64(PageLayout.pageSize - 1))
        let first = try decryptedPage(p, arena: arena, writer: writer)
        // ref is 8-aligned, so the length field (bytes 4..<8) lies in the first page.
        let len = Int(UInt32(littleEndian: first.bytes.loadUnaligned(fromByteOffset: off + 4, as: UInt32.self)))
        guard len >= BlockHeader.size, len % 8 == 0, ref + UInt64(len) <= limit else {
            throw StorageError.corrupted(path: path, detail: "block at \(ref) has an invalid length \(len)")
        }
        if off + len <= PageLayout.pageSize { return BlockView(ref: ref, base: UnsafeRawPointer(first.bytes + off), length: len) }
        let lastPage = (ref + UInt64(len) - 1) >> PageLayout.pageShift
        var cacheable = true
        if writer, let enc = encryptedIO { cacheable = !(p...lastPage).contains { enc.isTransactionPage($0) } }
        if cacheable, let s = arena.span(ref) { return BlockView(ref: ref, base: UnsafeRawPointer(s), length: len) }
        let buf = UnsafeMutableRawPointer.allocate(byteCount: len, alignment: 16)
        var done = PageLayout.pageSize - off
        memcpy(buf, first.bytes + off, done)
        var q = p + 1
        while done < len {
            let page = try decryptedPage(q, arena: arena, writer: writer)
            let n = min(PageLayout.pageSize, len - done)
            memcpy(buf + done, page.bytes, n)
            done += n; q += 1
        }
        if cacheable { arena.keepSpan(ref, buf) } else { arena.keepCopy(buf) }
        return BlockView(ref: ref, base: UnsafeRawPointer(buf), length: len)
    }

    /// Hits and misses of the decrypted-page cache (encrypted files; zeros otherwise).
    public var decryptedPageCacheCounts: (hits: Int, misses: Int) { (pageCache?.hits ?? 0, pageCache?.misses ?? 0) }
}
