#if canImport(Glibc)
import Glibc
#endif
import CStrataSupport

/// The blocks this handle has already found sound: a block's checksum is verified the first
/// time the handle reads it (by a reader, a writer rewriting it, compaction or a copy), and
/// the verdict is remembered so later reads of the same block cost one table probe. The blocks
/// this handle's own commit wrote are recorded once that commit is durable: their checksums
/// were computed from those very bytes, so reading them back (a query right after a bulk
/// insert, the next small commit rewriting some of them) does not hash them again.
///
/// A direct-mapped table of fingerprints. A block's fingerprint mixes its offset with its
/// 16-byte header (checksum, length, birth version, kind), so a block written later at the same
/// offset (a reused extent: another birth version, another checksum) misses and is verified
/// again: the verdict is per block and version. Two blocks hashing to the same entry evict each
/// other (the evicted one is verified again on its next read). Entries are read and written with
/// relaxed atomics: any thread of the handle may read blocks. Only sound blocks are recorded.
final class BlockVerdicts: @unchecked Sendable {
    static let entryBits = 18
    private let table: UnsafeMutablePointer<UInt64>
    /// How many blocks were hashed to verify them (misses of the table), for tests.
    private let hashed: UnsafeMutablePointer<UInt64>

    init() {
        // calloc of this size is served by zero pages the kernel maps on first touch.
        table = calloc(1 << Self.entryBits, 8)!.assumingMemoryBound(to: UInt64.self)
        hashed = calloc(1, 8)!.assumingMemoryBound(to: UInt64.self)
    }

    deinit { free(table); free(hashed) }

    /// The number of blocks this handle has hashed to verify them so far.
    var blocksHashed: UInt64 { strata_atomic_load_u64(hashed) }

    @inline(__always) private static func slot(_ ref: BlockRef) -> Int {
        Int(truncatingIfNeeded: ((ref >> 3) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - entryBits))
    }

    @inline(__always) private static func fingerprint(_ v: BlockView) -> UInt64 {
        fingerprint(v.ref, header: UnsafeRawPointer(v.base))
    }

    @inline(__always) private static func fingerprint(_ ref: BlockRef, header: UnsafeRawPointer) -> UInt64 {
        let h0 = header.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
        let h8 = header.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        var x = ref &* 0xC2B2_AE3D_27D4_EB4F ^ h0
        x = (x ^ (x >> 29)) &* 0x94D0_49BB_1331_11EB ^ h8
        x = (x ^ (x >> 32)) &* 0x9E37_79B9_7F4A_7C15
        return x | 1   // 0 marks an empty entry
    }

    /// Throws `StorageError.corrupted` naming the block when its checksum does not match; a
    /// sound block is remembered.
    @inline(__always) func verify(_ v: BlockView, path: String) throws {
        let f = Self.fingerprint(v)
        let p = table + Self.slot(v.ref)
        if strata_relaxed_load_u64(p) == f { return }
        _ = strata_atomic_fetch_add_u64(hashed, 1)
        guard v.checksumIsValid else { throw BlockVerdicts.damaged(v, path: path) }
        strata_relaxed_store_u64(p, f)
    }

    /// Records a block this handle wrote (its 16-byte header at `header`, as written) as
    /// verified: a commit calls it once its blocks are durable, so the next commit, which
    /// usually rewrites some of them, does not checksum them again.
    @inline(__always) func recordWritten(_ ref: BlockRef, header: UnsafeRawPointer) {
        strata_relaxed_store_u64(table + Self.slot(ref), Self.fingerprint(ref, header: header))
    }

    /// The error for a block whose checksum does not match.
    static func damaged(_ v: BlockView, path: String) -> StorageError {
        .corrupted(path: path, detail: "block at offset \(v.ref) (\(v.length) bytes, written by version \(v.birth)) fails its checksum")
    }

    /// Forgets every verdict (the file behind the handle was replaced by a compaction).
    func reset() { memset(table, 0, (1 << Self.entryBits) * 8) }
}
