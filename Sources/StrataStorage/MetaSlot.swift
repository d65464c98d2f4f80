/// The root of one committed version, stored in one of two slots at the start of the file
/// (slot 0 at byte 0, slot 1 at byte 4096). Version V is written to slot V % 2, so the slot
/// being written never holds the newest durable version. Opening picks the valid slot with the
/// higher version. Layout (little-endian):
///
///     0   8  magic "STRATADB"
///     8   4  format version (4; 3 in files written before chains of free-list deltas, 2 before
///            one-sync encrypted commits, 1 before free-list deltas)
///     12  4  page size (4096)
///     16  8  version
///     24  8  catalog ref (root of the tree of named trees; 0 when empty)
///     32  8  free-list ref
///     40  8  logical size: end of the allocated area; blocks never extend past it
///     48  8  commit time (nanoseconds since 1970)
///     56  4  committer pid
///     60  4  flags (bit 0: encrypted)
///     64  32 key check (HMAC of a constant under the file's key; zero when unencrypted)
///     96  16 encrypted files: meta tag (HMAC-SHA-256 of bytes [0, 96) under the HMAC key,
///            truncated to 16 bytes); zero otherwise
///     112 4  unsynced run count n (0 when every block was synced before this slot was written)
///     116 4  reserved (zero)
///     120 8  checksum of bytes [0, 120)
///     128 16n unsynced runs: (u64 offset, u64 length), sorted, disjoint
///     ... 8  run checksum: Checksum.hash chained over the run list, then each run's bytes
///
/// One-sync commits (see docs/FORMAT.md, "Commit protocol"): a small commit writes its blocks
/// and this slot and syncs once. The slot then lists the byte runs holding every block that
/// commit wrote, with a checksum of their contents, and a slot whose runs do not match is not
/// a valid version (the commit did not reach the disk whole; the other slot is used). In an
/// encrypted file (format 3) the runs are logical and their checksum covers the plaintext: the
/// check decrypts and authenticates the pages holding them.
package struct MetaSlot: Equatable, Sendable {
    package static let magic: [UInt8] = Array("STRATADB".utf8)
    /// The format this build writes (2: free lists may be deltas, see FreeListDelta.swift; 3: a
    /// slot of an encrypted file may list unsynced runs, checked on their plaintext; 4: a
    /// free-list delta may follow another delta, a chain of at most `FreeListCodec.maxChain`).
    package static let formatVersion: UInt32 = 4
    /// The formats this build reads.
    package static let readableFormats: ClosedRange<UInt32> = 1...4
    package static let pageSize: UInt32 = 4096
    package static let encodedSize = 128
    package static let slotStride: UInt64 = 4096
    /// Data blocks start after the two slots.
    package static let dataStart: UInt64 = 8192
    /// `flags` bit 0: the data area is encrypted (Encryption.swift).
    package static let encryptedFlag: UInt32 = 1

    /// The format this slot was written in (1 for files written before free-list deltas).
    package var format: UInt32 = MetaSlot.formatVersion
    package var version: UInt64
    package var catalogRef: BlockRef
    package var freeListRef: BlockRef
    package var logicalSize: UInt64
    package var commitTime: UInt64
    package var committerPid: UInt32
    package var flags: UInt32
    package var keyCheck: [UInt8]
    /// Byte runs written by this version's commit that were not synced before this slot (empty
    /// for a two-sync commit), and the checksum of the list and their contents.
    package var unsyncedRuns: [ByteRun] = []
    package var unsyncedChecksum: UInt64 = 0
    /// At most this many runs fit a slot's page; a commit writing more syncs twice.
    package static let maxUnsyncedRuns = 200
    /// The highest version a valid slot holds: block headers keep 56 bits of birth version (and
    /// the next commit's version must fit them too). A higher one is damage that passed the checksum.
    package static let maxVersion: UInt64 = 0x00FF_FFFF_FFFF_FFFF - 1

    package init(version: UInt64, catalogRef: BlockRef, freeListRef: BlockRef, logicalSize: UInt64,
                commitTime: UInt64, committerPid: UInt32, flags: UInt32 = 0, keyCheck: [UInt8] = [UInt8](repeating: 0, count: 32)) {
        self.version = version; self.catalogRef = catalogRef; self.freeListRef = freeListRef
        self.logicalSize = logicalSize; self.commitTime = commitTime; self.committerPid = committerPid
        self.flags = flags; self.keyCheck = keyCheck
    }

    package func encode() -> [UInt8] {
        var w = ByteWriter(capacity: Self.encodedSize)
        w.append(Self.magic)
        w.u32(format); w.u32(Self.pageSize)
        w.u64(version); w.u64(catalogRef); w.u64(freeListRef); w.u64(logicalSize); w.u64(commitTime)
        w.u32(committerPid); w.u32(flags)
        w.append(keyCheck.count == 32 ? keyCheck : [UInt8](repeating: 0, count: 32))
        w.u64(0); w.u64(0)
        w.u32(UInt32(unsyncedRuns.count)); w.u32(0)
        let sum = w.bytes.withUnsafeBytes { Checksum.hash($0.baseAddress!, 120) }
        w.u64(sum)
        if !unsyncedRuns.isEmpty {
            for r in unsyncedRuns { w.u64(r.offset); w.u64(r.length) }
            w.u64(unsyncedChecksum)
        }
        return w.bytes
    }

    /// The run checksum: the list, then the bytes of each run as `bytes(run)` returns them.
    static func runChecksum(_ runs: [ByteRun], bytes: (ByteRun) throws -> UnsafeRawBufferPointer) rethrows -> UInt64 {
        var w = ByteWriter(capacity: 16 * runs.count)
        for r in runs { w.u64(r.offset); w.u64(r.length) }
        var h = w.bytes.withUnsafeBytes { Checksum.hash($0) }
        for r in runs { h = Checksum.hash(try bytes(r), seed: h) }
        return h
    }

    /// The run checksum over the bytes `io.read` returns (an encrypted file's plaintext: pending
    /// pages of the running transaction, else decrypted and authenticated pages; a page that
    /// fails its authentication throws `StorageError.corrupted`).
    static func runChecksum(_ runs: [ByteRun], reading io: FileIO) throws -> UInt64 {
        let longest = Int(runs.map(\.length).max() ?? 0)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(longest, 1), alignment: 16)
        defer { buffer.deallocate() }
        return try runChecksum(runs) { r in
            let b = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<Int(r.length)])
            try io.read(into: b, at: r.offset)
            return UnsafeRawBufferPointer(b)
        }
    }

    /// The encoding, with the meta tag of an encrypted file at bytes 96..<112.
    func encode(crypto: PageCrypto?) -> [UInt8] {
        var b = encode()
        guard let crypto, flags & Self.encryptedFlag != 0 else { return b }
        let tag = b.withUnsafeBytes { crypto.metaTag($0) }
        b.replaceSubrange(96..<112, with: tag)
        let sum = b.withUnsafeBytes { Checksum.hash($0.baseAddress!, 120) }
        withUnsafeBytes(of: sum.littleEndian) { b.replaceSubrange(120..<128, with: $0) }
        return b
    }

    package enum DecodeResult { case valid(MetaSlot), noMagic, newerFormat(UInt32), damaged }

    package static func decode(_ p: UnsafeRawBufferPointer) -> DecodeResult {
        guard p.count >= encodedSize else { return .noMagic }
        guard Array(p[0..<8]) == magic else { return .noMagic }
        let base = p.baseAddress!
        let sum = base.getLE(120, as: UInt64.self)
        guard Checksum.hash(base, 120) == sum else { return .damaged }
        let fv = base.getLE(8, as: UInt32.self)
        if fv > formatVersion { return .newerFormat(fv) }
        guard readableFormats.contains(fv), base.getLE(12, as: UInt32.self) == pageSize else { return .damaged }
        var m = MetaSlot(
            version: base.getLE(16), catalogRef: base.getLE(24), freeListRef: base.getLE(32),
            logicalSize: base.getLE(40), commitTime: base.getLE(48), committerPid: base.getLE(56),
            flags: base.getLE(60), keyCheck: Array(p[64..<96]))
        m.format = fv
        let n = Int(base.getLE(112, as: UInt32.self))
        if n > 0 {
            guard n <= maxUnsyncedRuns, p.count >= encodedSize + 16 * n + 8 else { return .damaged }
            m.unsyncedRuns = (0..<n).map { i in ByteRun(offset: base.getLE(encodedSize + 16 * i), length: base.getLE(encodedSize + 16 * i + 8)) }
            m.unsyncedChecksum = base.getLE(encodedSize + 16 * n)
        }
        return .valid(m)
    }
}

/// A run of bytes in the file.
package struct ByteRun: Equatable, Sendable {
    package var offset: UInt64
    package var length: UInt64
    package var end: UInt64 { offset + length }
    package init(offset: UInt64, length: UInt64) { self.offset = offset; self.length = length }
}
