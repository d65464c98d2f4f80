import Foundation

/// Free extents grouped by size (the Space screen's "free space by size").
public struct FreeSizeBucket: Sendable, Equatable {
    /// Extents of at least this many bytes...
    public var lowerBound: UInt64
    /// ...and fewer than this many (`UInt64.max` for the last bucket).
    public var upperBound: UInt64
    /// How many free extents fall in this bucket.
    public var extents: Int
    /// Their total size in bytes.
    public var bytes: UInt64
}

/// Free extents grouped by the version whose commit freed them (the Space screen's "free space by
/// the version that freed it").
public struct FreedVersionGroup: Sendable, Equatable {
    /// The version whose commit freed the bytes; 0 for space already free for all (merged).
    public var freedAt: UInt64
    /// How many free extents that version freed.
    public var extents: Int
    /// Their total size in bytes.
    public var bytes: UInt64
    /// True when a live reader still sees some of these bytes (they cannot be reused yet).
    public var pinned: Bool
}

extension SpaceStatistics {
    /// Size bucket bounds: < 4 KiB, 4–64 KiB, 64 KiB–1 MiB, 1–16 MiB, ≥ 16 MiB.
    public static let freeSizeBounds: [UInt64] = [0, 4 << 10, 64 << 10, 1 << 20, 16 << 20]

    /// The free list by extent size (every bucket listed, empty ones too).
    public var freeBytesBySize: [FreeSizeBucket] {
        let bounds = Self.freeSizeBounds
        var out = bounds.indices.map { i in
            FreeSizeBucket(lowerBound: bounds[i], upperBound: i + 1 < bounds.count ? bounds[i + 1] : .max, extents: 0, bytes: 0)
        }
        for e in freeExtents {
            let i = (bounds.lastIndex { $0 <= e.length }) ?? 0
            out[i].extents += 1
            out[i].bytes += e.length
        }
        return out
    }

    /// The free list by freeing version, oldest first (free-for-all space first, as version 0).
    public var freeBytesByFreeingVersion: [FreedVersionGroup] {
        let live = readers.filter(\.isAlive).map(\.version).sorted()
        var groups: [UInt64: FreedVersionGroup] = [:]
        for e in freeExtents {
            var g = groups[e.freed] ?? FreedVersionGroup(freedAt: e.freed, extents: 0, bytes: 0, pinned: false)
            g.extents += 1
            g.bytes += e.length
            if !e.isReusable(readers: live) { g.pinned = true }
            groups[e.freed] = g
        }
        return groups.values.sorted { $0.freedAt < $1.freedAt }
    }

    /// The file size a full compaction (`Store.compact`) would produce: the meta slots plus the
    /// live blocks, without the free list. An upper bound (the free-list block is estimated from
    /// its entries and may be larger on disk).
    public var estimatedBytesAfterCompaction: UInt64 {
        let freeListBlock = UInt64((BlockHeader.size + FreeListCodec.payloadSize(entries: freeExtents.count) + 7) & ~7)
        let live = usedBytes > freeListBlock ? usedBytes - freeListBlock : usedBytes
        return max(live, MetaSlot.dataStart)
    }

    /// One sentence for the browser and CLI: what compaction would give back, and what readers pin.
    public var compactionSummary: String {
        let after = estimatedBytesAfterCompaction
        let gain = totalBytes > after ? totalBytes - after : 0
        var s = "Compaction would give back about \(Self.format(gain)) of \(Self.format(totalBytes)) (file about \(Self.format(after)) afterwards)."
        if lockedBytes > 0 {
            let pinners = readers.filter(\.isAlive).count
            s += " \(Self.format(lockedBytes)) are pinned by \(pinners) reader\(pinners == 1 ? "" : "s") and come back once \(pinners == 1 ? "it ends" : "they end")."
        }
        return s
    }

    static func format(_ bytes: UInt64) -> String {
        QuantityText.bytes(bytes, units: ["bytes", "KiB", "MiB", "GiB", "TiB"])
    }
}
