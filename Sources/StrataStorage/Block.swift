/// A reference to a block: its byte offset in the file (8-byte aligned). 0 means "none".
package typealias BlockRef = UInt64

/// Block kinds. Storage-level kinds are below 16; kinds from 16 up belong to the layers above
/// and all share the generic layout (a refs section then raw bytes), so the integrity check,
/// space statistics and compaction can walk every block without knowing what it means.
package enum BlockKind: UInt8, Sendable {
    case leaf = 1        // B+tree leaf node
    case inner = 2       // B+tree inner node
    case freeList = 3    // the free-space list (a full list)
    case freeListDelta = 4   // the free-space list as a delta over an earlier list (format 2; chains: format 4)
    case generic = 16    // refs + bytes, meaning assigned by the layer above
}

/// The 16-byte header every block starts with:
///
///     0  u32 checksum of bytes [4, length)
///     4  u32 length of the whole block in bytes, header included, a multiple of 8
///     8  u64 low 56 bits: birth version (the version whose commit wrote it); high 8 bits: kind
///
/// Invariant: a block is written once, by the commit that creates version `birth`, and never
/// modified afterwards; it is reachable exactly from versions [birth, freed-1].
package enum BlockHeader {
    package static let size = 16
    package static let maxLength = Int(UInt32.max) & ~7

    @inline(__always) static func roundUp(_ n: Int) -> Int { (n + 7) & ~7 }

    static func write(into p: UnsafeMutableRawPointer, length: Int, kind: UInt8, birth: UInt64) {
        p.putLE(UInt32(length), at: 4)
        p.putLE((birth & 0x00FF_FFFF_FFFF_FFFF) | (UInt64(kind) << 56), at: 8)
        let sum = UInt32(truncatingIfNeeded: Checksum.hash(UnsafeRawPointer(p) + 4, length - 4))
        p.putLE(sum, at: 0)
    }
}

/// A bounds-checked view of one block in a snapshot.
package struct BlockView {
    package let ref: BlockRef
    package let base: UnsafeRawPointer   // start of the block (header)
    package let length: Int
    package var kindByte: UInt8 { UInt8(truncatingIfNeeded: base.getLE(8, as: UInt64.self) >> 56) }
    package var birth: UInt64 { base.getLE(8, as: UInt64.self) & 0x00FF_FFFF_FFFF_FFFF }
    package var storedChecksum: UInt32 { base.getLE(0, as: UInt32.self) }
    /// The payload after the header.
    package var payload: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base + BlockHeader.size, count: length - BlockHeader.size) }
    package var checksumIsValid: Bool {
        UInt32(truncatingIfNeeded: Checksum.hash(base + 4, length - 4)) == storedChecksum
    }
}

/// The generic block layout used by the layers above storage:
///
///     payload: u32 refCount, u32 reserved, refCount × u64 refs (0 or an owned block), then bytes
///
/// Every non-zero ref inside is owned by this block: freeing the block's subtree frees them,
/// compaction copies them, the integrity check walks them.
package struct GenericBlock {
    package let view: BlockView
    package let refCount: Int
    package init(_ view: BlockView) throws {
        self.view = view
        guard view.length >= BlockHeader.size + 8 else { throw GenericBlockError.malformed }
        let n = Int(view.payload.baseAddress!.getLE(0, as: UInt32.self))
        guard n <= (view.length - BlockHeader.size - 8) / 8 else { throw GenericBlockError.malformed }
        refCount = n
    }
    @inline(__always) package func ref(_ i: Int) -> BlockRef { view.payload.baseAddress!.getLE(8 + i * 8, as: UInt64.self) }
    /// The raw bytes after the refs section (may include up to 7 bytes of padding at the end).
    package var bytes: UnsafeRawBufferPointer {
        let start = 8 + refCount * 8
        return UnsafeRawBufferPointer(rebasing: view.payload[start...])
    }
    enum GenericBlockError: Error { case malformed }
    package static func payloadSize(refs: Int, bytes: Int) -> Int { 8 + refs * 8 + bytes }
}
