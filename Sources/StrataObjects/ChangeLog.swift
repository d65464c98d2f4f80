import Foundation
import StrataStorage

/// Object keys as sorted, disjoint, non-adjacent closed ranges (compact for runs of keys).
package struct KeyRanges: Sendable, Equatable {
    package private(set) var ranges: [ClosedRange<ObjKey>] = []
    package init() {}
    init(sortedMerged: [ClosedRange<ObjKey>]) { ranges = sortedMerged }

    package var isEmpty: Bool { ranges.isEmpty }

    /// True when `key` is in one of the ranges (binary search).
    package func contains(_ key: ObjKey) -> Bool {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if ranges[mid].upperBound < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < ranges.count && ranges[lo].contains(key)
    }

    /// Every key (callers check the size first: ranges may be large).
    package var keys: [ObjKey] { ranges.flatMap { Array($0) } }
    /// Number of keys covered.
    package var keyCount: Int { ranges.reduce(0) { $0 + Int(clamping: $1.upperBound &- $1.lowerBound &+ 1) } }

    /// Sorts and merges arbitrary ranges.
    static func normalized(_ input: [ClosedRange<ObjKey>]) -> KeyRanges {
        let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
        var out: [ClosedRange<ObjKey>] = []
        out.reserveCapacity(sorted.count)
        for r in sorted {
            if let last = out.last, r.lowerBound <= last.upperBound || (last.upperBound < .max && r.lowerBound == last.upperBound + 1) {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return KeyRanges(sortedMerged: out)
    }

    /// The keys in either.
    package func union(_ other: KeyRanges) -> KeyRanges { .normalized(ranges + other.ranges) }

    /// The keys of `self` that are not in `other` (one merge pass over both range lists).
    package func subtracting(_ other: KeyRanges) -> KeyRanges {
        var out: [ClosedRange<ObjKey>] = []
        var j = 0
        for r in ranges {
            var lo = r.lowerBound
            let hi = r.upperBound
            var done = false
            while j < other.ranges.count, other.ranges[j].upperBound < lo { j += 1 }
            var k = j
            while !done, k < other.ranges.count, other.ranges[k].lowerBound <= hi {
                let cut = other.ranges[k]
                if cut.lowerBound > lo { out.append(lo...(cut.lowerBound - 1)) }
                if cut.upperBound >= hi { done = true } else { lo = cut.upperBound + 1; k += 1 }
            }
            if !done { out.append(lo...hi) }
        }
        return KeyRanges(sortedMerged: out)
    }
}

/// What one commit did to one class: the keys it inserted and deleted, and per property the
/// keys whose value it changed. `rewritten` means the commit changed more than the record keeps
/// (a bulk load, many scattered changes): readers must then compare the whole class.
package struct ClassChangeSet: Sendable, Equatable {
    package var inserted = KeyRanges()
    package var deleted = KeyRanges()
    /// Per property name: the objects whose value of it changed.
    package var modified: [String: KeyRanges] = [:]
    package var rewritten = false
    package init() {}

    /// The objects whose `properties` (all when nil) changed.
    package func modifiedKeys(properties: Set<String>?) -> KeyRanges {
        var all: [ClosedRange<ObjKey>] = []
        for (p, r) in modified where properties?.contains(p) ?? true { all += r.ranges }
        return .normalized(all)
    }

    /// Combines a later change set into this one (for a span of versions).
    mutating func merge(_ later: ClassChangeSet) {
        inserted = inserted.union(later.inserted)
        deleted = deleted.union(later.deleted)
        for (p, r) in later.modified { modified[p] = (modified[p] ?? KeyRanges()).union(r) }
        rewritten = rewritten || later.rewritten
    }
}

/// Collects the changes of one class during a write transaction: appends are O(1) (runs of
/// consecutive keys extend the last range); the record is sorted and merged at commit.
/// Beyond `ChangeLog.rangeCap` ranges it gives up and records "rewritten".
struct ClassChangeRecorder {
    var inserted: [ClosedRange<ObjKey>] = []
    var deleted: [ClosedRange<ObjKey>] = []
    var modified: [Int: [ClosedRange<ObjKey>]] = [:]
    var rewritten = false
    private var total = 0

    var isEmpty: Bool { !rewritten && inserted.isEmpty && deleted.isEmpty && modified.isEmpty }

    /// Adds `key` to `list`; false when the list needed a new range beyond the cap.
    private static func add(_ key: ObjKey, to list: inout [ClosedRange<ObjKey>], total: inout Int) -> Bool {
        if let last = list.last {
            if last.contains(key) { return true }
            if last.upperBound < .max && key == last.upperBound + 1 { list[list.count - 1] = last.lowerBound...key; return true }
        }
        total += 1
        if total > ChangeLog.rangeCap { return false }
        list.append(key...key)
        return true
    }

    private mutating func giveUp() {
        rewritten = true
        inserted = []; deleted = []; modified = [:]
    }

    mutating func insert(_ key: ObjKey) {
        if rewritten { return }
        if !Self.add(key, to: &inserted, total: &total) { giveUp() }
    }
    mutating func insert(_ range: ClosedRange<ObjKey>) {
        if rewritten { return }
        total += 1
        if total > ChangeLog.rangeCap { giveUp(); return }
        inserted.append(range)
    }
    mutating func delete(_ key: ObjKey) {
        if rewritten { return }
        if !Self.add(key, to: &deleted, total: &total) { giveUp() }
    }
    mutating func modify(_ key: ObjKey, column: Int) {
        if rewritten { return }
        var list = modified[column] ?? []
        modified[column] = nil
        if Self.add(key, to: &list, total: &total) { modified[column] = list } else { giveUp() }
    }

    func changeSet(columns: [PropertySchema]) -> ClassChangeSet {
        var c = ClassChangeSet()
        c.rewritten = rewritten
        c.inserted = .normalized(inserted)
        c.deleted = .normalized(deleted)
        for (col, list) in modified { c.modified[columns[col].name] = .normalized(list) }
        return c
    }
}

/// The change records of recent commits, kept in the tree `changes` (key: the version,
/// 8 bytes big-endian; value: the encoded `[class: ClassChangeSet]`). Each commit made through
/// `DBTransaction.commit` writes its record and drops the one `keptVersions` older, so the tree
/// stays small and its blocks are reclaimed like any other. A version with no record (a commit
/// by a migration, a compaction batch, an older writer, or one older than the window) makes
/// readers fall back to comparing whole collections.
package enum ChangeLog {
    static let treeName = "changes"
    /// The leaf size of the records' tree (see `recordChanges`).
    static let leafLimit = 1024
    /// Versions whose records are kept (tests lower it to fall behind quickly).
    nonisolated(unsafe) package static var keptVersions: UInt64 = 256
    /// Ranges per class and commit before the class is recorded as rewritten.
    nonisolated(unsafe) static var rangeCap = 50_000

    static func key(_ version: UInt64) -> [UInt8] { withUnsafeBytes(of: version.bigEndian) { Array($0) } }

    static func encode(_ classes: [String: ClassChangeSet]) -> [UInt8] {
        var w = ByteWriter()
        w.u32(UInt32(classes.count))
        func ranges(_ r: KeyRanges) {
            w.u32(UInt32(r.ranges.count))
            for x in r.ranges { w.u64(UInt64(bitPattern: x.lowerBound)); w.u64(UInt64(bitPattern: x.upperBound)) }
        }
        func string(_ s: String) { let b = Array(s.utf8); w.u32(UInt32(b.count)); for x in b { w.u8(x) } }
        for name in classes.keys.sorted() {
            let c = classes[name]!
            string(name)
            w.u32(c.rewritten ? 1 : 0)
            ranges(c.inserted); ranges(c.deleted)
            w.u32(UInt32(c.modified.count))
            for p in c.modified.keys.sorted() { string(p); ranges(c.modified[p]!) }
        }
        return w.bytes
    }

    struct Malformed: Error {}

    static func decode(_ b: [UInt8]) throws -> [String: ClassChangeSet] {
        var i = 0
        func u32() throws -> UInt32 {
            guard i + 4 <= b.count else { throw Malformed() }
            defer { i += 4 }
            return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
        }
        func u64() throws -> UInt64 { let lo = UInt64(try u32()); return lo | UInt64(try u32()) << 32 }
        func string() throws -> String {
            let n = Int(try u32())
            guard i + n <= b.count else { throw Malformed() }
            defer { i += n }
            return String(decoding: b[i..<(i + n)], as: UTF8.self)
        }
        func ranges() throws -> KeyRanges {
            let n = Int(try u32())
            guard n <= (b.count - i) / 16 else { throw Malformed() }
            var out: [ClosedRange<ObjKey>] = []
            out.reserveCapacity(n)
            for _ in 0..<n {
                let lo = Int64(bitPattern: try u64()), hi = Int64(bitPattern: try u64())
                guard lo <= hi else { throw Malformed() }
                out.append(lo...hi)
            }
            return KeyRanges(sortedMerged: out)
        }
        var out: [String: ClassChangeSet] = [:]
        let n = try u32()
        for _ in 0..<n {
            let name = try string()
            var c = ClassChangeSet()
            c.rewritten = try u32() != 0
            c.inserted = try ranges()
            c.deleted = try ranges()
            let m = try u32()
            for _ in 0..<m { let p = try string(); c.modified[p] = try ranges() }
            out[name] = c
        }
        return out
    }
}

extension DBTransaction {
    /// The change record of the commit that created `version` (at most this transaction's
    /// version); nil when it is no longer kept. See `ChangeLog.record(of:in:)`.
    package func changeRecord(of version: UInt64) throws -> [String: ClassChangeSet]? {
        try ChangeLog.record(of: version, in: storage)
    }

    /// The changes of the commits after version `from` up to this transaction's version, merged
    /// per class; nil when some version in between has no record (the caller then compares
    /// whole collections). Time: the size of the records read.
    package func changes(since from: UInt64) throws -> [String: ClassChangeSet]? {
        let to = version
        if from >= to { return [:] }
        if to - from > ChangeLog.keptVersions { return nil }
        guard let t = try storage.tree(ChangeLog.treeName) else { return nil }
        var merged: [String: ClassChangeSet] = [:]
        for v in (from + 1)...to {
            guard let bytes = try t.getBytes(ChangeLog.key(v)), let record = try? ChangeLog.decode(bytes) else { return nil }
            for (name, c) in record {
                if var m = merged[name] { m.merge(c); merged[name] = m } else { merged[name] = c }
            }
        }
        return merged
    }

    /// Writes this write transaction's change record (before the storage commit).
    func recordChanges() throws {
        guard let w = storage as? WriteTransaction else { return }
        var classes: [String: ClassChangeSet] = [:]
        for (name, t) in tablesByName where !t.recorder.isEmpty { classes[name] = t.recorder.changeSet(columns: t.columns) }
        let tree = try w.tree(ChangeLog.treeName, create: true)!
        // Records only append: leaves of 1 KiB instead of 4 make the leaf each commit rewrites
        // a quarter of the size on average (a record larger than that has a leaf of its own).
        tree.leafLimit = ChangeLog.leafLimit
        try tree.put(ChangeLog.key(w.version), bytes: ChangeLog.encode(classes))
        let kept = ChangeLog.keptVersions
        if w.version > kept {
            // Drop the records that fell out of the window in batches of an eighth of it, so
            // most commits only append to the last leaf (reading the first entry writes nothing).
            let limit = ChangeLog.key(w.version - kept)
            var oldest: [UInt8]?
            try tree.forEach { e in oldest = e.key; return false }
            // At least an eighth of the window (and one) beyond it: oldest <= version - kept - kept/8.
            let threshold = w.version - kept - min(kept / 8, w.version - kept - 1)
            guard let oldest, oldest.count == 8,
                  oldest.withUnsafeBytes({ UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }) <= threshold else { return }
            var old: [[UInt8]] = []
            try tree.forEach { e in
                guard e.key.lexicographicallyPrecedes(limit) || e.key == limit else { return false }
                old.append(e.key)
                return old.count < 64
            }
            for k in old { _ = try tree.delete(k) }
        }
    }
}

extension ChangeLog {
    /// The change record of the commit that created `version`, read in `txn` (any transaction at
    /// `version` or later); nil when the record is no longer kept (older than `keptVersions`) or
    /// the commit predates change records. The browser's live marks and the Versions report
    /// read the same records the notifications use.
    package static func record(of version: UInt64, in txn: Transaction) throws -> [String: ClassChangeSet]? {
        guard let tree = try txn.tree(treeName), let bytes = try tree.getBytes(key(version)) else { return nil }
        return try? decode(bytes)
    }
}
