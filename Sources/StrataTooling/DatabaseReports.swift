import Foundation
import StrataObjects
import StrataStorage

/// The Versions and Space reports of a real file, shared by ``DatabaseDataSource`` and the
/// `strata versions` / `strata space` commands.
package enum DatabaseReports {
    /// Recent commits (newest first) and every reader slot with the bytes its pin holds.
    package static func versions(store: Store, limit: Int = 50) throws -> VersionsReport {
        // What each commit changed comes from its change record (the one notifications read),
        // while it is kept; older commits fall back to the counts in the commit history.
        let records = try store.beginRead(label: "strata versions")
        let commits = try store.recentCommits(limit: limit).map { c in
            commitInfo(c, record: try? ChangeLog.record(of: c.version, in: records))
        }
        records.end()  // before the reader list is taken, so it does not list itself
        let stats = try store.spaceStatistics()
        let readers = stats.readers.map { r in
            ReaderSummary(pid: r.pid, threadLabel: r.label.isEmpty ? "thread \(r.threadID)" : r.label, pinnedVersion: r.version,
                       since: Date(timeIntervalSince1970: Double(r.since) / 1e9),
                       bytesPinned: Int64(stats.pinnedBytesByReader[r.slot] ?? 0), isAlive: r.isAlive)
        }
        return VersionsReport(currentVersion: stats.version, commits: commits, readers: readers, writeLockHolder: store.writeLockHolder)
    }

    static func commitInfo(_ c: CommitRecord, record: [String: ClassChangeSet]? = nil) -> CommitInfo {
        CommitInfo(version: c.version, time: Date(timeIntervalSince1970: Double(c.time) / 1e9), pid: Int32(bitPattern: c.pid),
                   summary: summary(of: c, record: record))
    }

    /// What a commit did, in words: `Dog: 1 inserted, 2 modified (age, name); Person: 1 deleted`,
    /// from its change record when there is one, else from the counts in the commit history.
    package static func summary(of c: CommitRecord, record: [String: ClassChangeSet]? = nil) -> String {
        if let record {
            let text = describe(record)
            if !text.isEmpty { return text }
            return c.label.isEmpty ? "no object changes" : c.label
        }
        let note = String(decoding: c.note, as: UTF8.self)
        let text = humanize(note: note)
        if !text.isEmpty { return text }
        if !c.label.isEmpty { return c.label }
        return "no object changes"
    }

    /// A change record in words, classes in name order:
    /// `Dog: 1 inserted, 2 modified (age, name); Person: 1 deleted`; empty when the commit
    /// changed no object. Objects inserted and then changed in the same commit count as inserted.
    package static func describe(_ record: [String: ClassChangeSet]) -> String {
        var parts: [String] = []
        for name in record.keys.sorted() {
            let c = record[name]!
            if c.rewritten { parts.append("\(name): rewritten"); continue }
            var what: [String] = []
            if !c.inserted.isEmpty { what.append("\(Formatting.number(c.inserted.keyCount)) inserted") }
            let modified = c.modifiedKeys(properties: nil).subtracting(c.inserted)
            if !modified.isEmpty {
                let properties = c.modified.filter { !$0.value.subtracting(c.inserted).isEmpty }.keys.sorted()
                what.append("\(Formatting.number(modified.keyCount)) modified (\(properties.joined(separator: ", ")))")
            }
            if !c.deleted.isEmpty { what.append("\(Formatting.number(c.deleted.keyCount)) deleted") }
            if !what.isEmpty { parts.append("\(name): " + what.joined(separator: ", ")) }
        }
        return parts.joined(separator: "; ")
    }

    /// Turns the engine's change note (`Dog +1, Person ~2 -1`) into words.
    package static func humanize(note: String) -> String {
        guard !note.isEmpty else { return "" }
        var parts: [String] = []
        for entry in note.components(separatedBy: ", ") {
            let words = entry.split(separator: " ")
            guard let name = words.first, words.count > 1 else { parts.append(entry); continue }
            var changes: [String] = []
            for word in words.dropFirst() {
                guard let sign = word.first, let n = Int(word.dropFirst()) else { changes.append(String(word)); continue }
                let what = sign == "+" ? "inserted" : sign == "~" ? "modified" : sign == "-" ? "deleted" : String(sign)
                changes.append("\(Formatting.number(n)) \(what)")
            }
            parts.append("\(name): " + changes.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }

    /// Free-extent size buckets (bytes).
    static let bucketBounds: [Int64] = [0, 4 << 10, 64 << 10, 1 << 20, 16 << 20]

    /// The space report of the newest version: totals from the free list, bytes per class
    /// (`c/<Class>` trees), per index (`i/<Class>/<property>` trees) and per column (the class's
    /// bytes split by an estimate of each column's share, sampled from its first clusters).
    package static func space(database: Database, stats: SpaceStatistics? = nil) throws -> SpaceReport {
        let store = database.store
        let stats = try stats ?? store.spaceStatistics()
        let trees = try store.treeSizes()
        let txn = try database.read(label: "space report")
        defer { txn.end() }
        var classes: [ClassSpace] = []
        var accounted: UInt64 = 0
        for os in database.schema.objectSchemas {
            let classBytes = trees["c/" + os.className] ?? 0
            accounted += classBytes
            let shares = (try? columnShares(txn, os)) ?? [:]
            let stored = os.storedProperties
            let totalShare = stored.reduce(0.0) { $0 + (shares[$1.name] ?? 0) }
            var columns: [NamedBytes] = []
            var given: Int64 = 0
            for (index, p) in stored.enumerated() {
                let bytes: Int64
                if index == stored.count - 1 { bytes = Int64(classBytes) - given }
                else if totalShare > 0 { bytes = Int64(Double(classBytes) * (shares[p.name] ?? 0) / totalShare) }
                else { bytes = Int64(classBytes) / Int64(max(1, stored.count)) }
                given += bytes
                columns.append(NamedBytes(name: p.name, bytes: max(0, bytes)))
            }
            var indexes: [NamedBytes] = []
            for p in os.properties where p.isIndexed {
                if let b = trees["i/\(os.className)/\(p.name)"] {
                    indexes.append(NamedBytes(name: p.name, bytes: Int64(b)))
                    accounted += b
                }
            }
            classes.append(ClassSpace(name: os.className, columns: columns, indexes: indexes))
        }
        let other = Int64(stats.usedBytes) - Int64(accounted)
        if other > 0 {
            classes.append(ClassSpace(name: "(schema, history, catalog)", columns: [NamedBytes(name: "metadata", bytes: other)], indexes: []))
        }
        let live = stats.readers.filter(\.isAlive).map(\.version).sorted()
        var buckets: [FreeSpaceBucket] = []
        for (i, lower) in bucketBounds.enumerated() {
            let upper = i + 1 < bucketBounds.count ? bucketBounds[i + 1] : nil
            let inBucket = stats.freeExtents.filter { Int64($0.length) >= lower && (upper == nil || Int64($0.length) < upper!) }
            buckets.append(FreeSpaceBucket(minBytes: lower, maxBytes: upper, extents: inBucket.count,
                                           bytes: inBucket.reduce(0) { $0 + Int64($1.length) }))
        }
        let tail = Int64(stats.totalBytes) - Int64(stats.logicalBytes)
        if tail > 0 {
            // The preallocated end of the file is one free extent too.
            let index = buckets.lastIndex { tail >= $0.minBytes } ?? 0
            buckets[index].extents += 1
            buckets[index].bytes += tail
        }
        var byVersion: [UInt64: (bytes: Int64, locked: Bool)] = [:]
        for e in stats.freeExtents {
            let locked = !e.isReusable(readers: live)
            let entry = byVersion[e.freed, default: (0, false)]
            byVersion[e.freed] = (entry.bytes + Int64(e.length), entry.locked || locked)
        }
        let freedAt = byVersion.keys.sorted().map { FreedAtVersion(version: $0, bytes: byVersion[$0]!.bytes, isLocked: byVersion[$0]!.locked) }
        return SpaceReport(totalBytes: Int64(stats.totalBytes), usedBytes: Int64(stats.usedBytes), freeBytes: Int64(stats.freeBytes),
                           lockedBytes: Int64(stats.lockedBytes), classes: classes, freeBySize: buckets, freeByVersion: freedAt,
                           compactedBytes: compactedEstimate(stats))
    }

    /// The file size a full compaction would leave (the engine's estimate).
    package static func compactedEstimate(_ stats: SpaceStatistics) -> Int64 {
        Int64(stats.estimatedBytesAfterCompaction)
    }

    /// Relative sizes of the stored columns of a class, sampled from up to 16 clusters.
    static func columnShares(_ txn: DBTransaction, _ os: ObjectSchema) throws -> [String: Double] {
        var shares: [String: Double] = [:]
        var clusters = 0
        try txn.forEachCluster(os.className) { cluster in
            for p in os.storedProperties {
                var bytes = 0.0
                if p.collection == .single {
                    let column = try cluster.column(p.name)
                    if let packed = column.packedInts {
                        bytes = Double(packed.width * column.count) / 8 + 16
                    } else {
                        switch p.type {
                        case .string, .data, .mixed, .decimal128:
                            for row in 0..<column.count { bytes += Double(column.withBytes(row) { $0.count } + 2) }
                        case .float: bytes = Double(column.count * 4)
                        case .objectId: bytes = Double(column.count * 12)
                        case .uuid: bytes = Double(column.count * 16)
                        default: bytes = Double(column.count * 8)
                        }
                    }
                } else {
                    let rows = min(cluster.count, 64)
                    var elements = 0
                    for row in 0..<rows { elements += (try? cluster.collection(p.name, row: row).count) ?? 0 }
                    let perRow = rows > 0 ? Double(elements) / Double(rows) : 0
                    bytes = Double(cluster.count) * (8 + perRow * (p.type == .string ? 12 : 8))
                }
                shares[p.name, default: 0] += bytes
            }
            clusters += 1
            return clusters < 16
        }
        return shares
    }
}
