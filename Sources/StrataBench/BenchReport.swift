import Foundation

/// A value for each of the two compared engines: `strata` is the engine under test (the first
/// engine given to the runner), `sqlite` the baseline (the second).
package struct BenchPair<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The engine under test.
    package var strata: Value
    /// The baseline.
    package var sqlite: Value

    /// Creates a pair.
    package init(strata: Value, sqlite: Value) {
        self.strata = strata
        self.sqlite = sqlite
    }
}

extension BenchPair: Encodable where Value: Encodable {}

/// The result of one workload: median seconds of each engine and their ratio.
package struct BenchWorkloadResult: Sendable, Hashable, Encodable {
    /// Which workload.
    package var workload: BenchWorkload
    /// The display name (contains the workload's keyword).
    package var name: String
    /// Median seconds of the engine under test.
    package var strataSeconds: Double
    /// Median seconds of the baseline.
    package var sqliteSeconds: Double
    /// `strataSeconds / sqliteSeconds`, nil when the baseline took no measurable time.
    package var ratio: Double?
    /// The goal.
    package var goal: BenchGoal
    /// Whether the goal is met; nil when there is no goal.
    package var met: Bool?
    /// Every repetition's seconds, in repetition order.
    package var samples: BenchPair<[Double]>

    private enum CodingKeys: String, CodingKey {
        case name, workload, strataSeconds, sqliteSeconds, ratio, goal, met, samples
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(workload, forKey: .workload)
        try container.encode(strataSeconds, forKey: .strataSeconds)
        try container.encode(sqliteSeconds, forKey: .sqliteSeconds)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(goal.text, forKey: .goal)
        try container.encode(met, forKey: .met)
        try container.encode(samples, forKey: .samples)
    }
}

/// Everything a benchmark run measured. `table()` and `json()` render it.
///
/// All times are medians over the repetitions (for an even count, the mean of the two middle
/// values); ratios are ratios of the medians, engine under test over baseline.
package struct BenchReport: Sendable, Hashable, Encodable {
    /// `N`.
    package var objects: Int
    /// Repetitions per engine.
    package var repetitions: Int
    /// Number of primary-key lookups.
    package var lookups: Int
    /// Number of small durable commits.
    package var commits: Int
    /// The engines' names.
    package var engines: BenchPair<String>
    /// The timed workloads, in run order.
    package var workloads: [BenchWorkloadResult]
    /// Median file size after the bulk insert (bytes).
    package var fileBytes: BenchPair<Int>
    /// Median file size after the small durable commits (bytes): the same databases as
    /// `fileBytes`, after `commits` more transactions (what an app's steady writing does to the
    /// file: free space reused or the file grown).
    package var committedFileBytes: BenchPair<Int>
    /// Median file size after compaction (bytes).
    package var compactedFileBytes: BenchPair<Int>
    /// Median seconds `cp` took to copy each engine's compacted files.
    package var cpSeconds: BenchPair<Double>
    /// Median seconds of `cp` followed by `fdatasync` of the copy (a durable copy).
    package var durableCopySeconds: BenchPair<Double>
    /// Median seconds of one 4 KiB `pwrite` + `fdatasync` per small commit (`BenchSyncFloor`):
    /// the least the commit workloads could take on this disk.
    package var syncFloorSeconds: Double = 0
    /// Median seconds of the writes of a Strata small commit (a 16 KiB run and the meta slot) +
    /// `fdatasync` per small commit (`BenchSyncFloor.Shape.strataCommitShape`): the least a commit
    /// of that shape can take, with no CPU work (0: not measured).
    package var commitShapeFloorSeconds: Double = 0
    /// Where Strata's compaction spent its time (medians; nil when it did not run).
    package var compactionPhases: BenchCompactionPhases? = nil
    /// The machine.
    package var machine: BenchMachine
    /// The notification workload (Strata only; nil when it did not run).
    package var notifyLatency: BenchNotifyLatency? = nil
    /// realm-core's times on the same inputs (nil unless `--realm-core` was given).
    package var realmCore: BenchRealmCoreResult? = nil

    /// The file-size goal: Strata's file at most this fraction of SQLite's.
    package static let fileGoal = BenchGoal.maxRatio(0.8)

    /// `fileBytes.strata / fileBytes.sqlite`.
    package var fileRatio: Double? {
        fileBytes.sqlite > 0 ? Double(fileBytes.strata) / Double(fileBytes.sqlite) : nil
    }

    /// Whether the file-size goal is met.
    package var fileMet: Bool? {
        guard let fileRatio, case .maxRatio(let limit) = Self.fileGoal else { return nil }
        return fileRatio <= limit
    }

    /// Compaction speed relative to `cp`: `cpSeconds / compactSeconds`, both for the same
    /// compacted file (so it is the ratio of bytes per second), for information.
    package var compactionSpeedVsCp: BenchPair<Double?> { compactionSpeed(relativeTo: cpSeconds) }

    /// Compaction speed relative to a durable copy (`cp` + `fdatasync`), which is what a
    /// compaction has to be: `durableCopySeconds / compactSeconds`. The goal is ≥ 0.9 for Strata.
    package var compactionSpeedVsDurableCopy: BenchPair<Double?> { compactionSpeed(relativeTo: durableCopySeconds) }

    /// `reference seconds / compact seconds` per engine (nil when compaction did not run).
    private func compactionSpeed(relativeTo reference: BenchPair<Double>) -> BenchPair<Double?> {
        let compact = workloads.first { $0.workload == .compact }
        func speed(_ referenceSeconds: Double, _ compactSeconds: Double?) -> Double? {
            guard let compactSeconds, compactSeconds > 0 else { return nil }
            return referenceSeconds / compactSeconds
        }
        return BenchPair(strata: speed(reference.strata, compact?.strataSeconds),
                         sqlite: speed(reference.sqlite, compact?.sqliteSeconds))
    }

    /// The workload result for `workload`, if it ran.
    package func result(_ workload: BenchWorkload) -> BenchWorkloadResult? {
        workloads.first { $0.workload == workload }
    }

    private enum CodingKeys: String, CodingKey {
        case objects, repetitions, lookups, commits, engines, workloads, fileBytes, fileRatio,
             fileGoal, fileMet, committedFileBytes, compactedFileBytes, cpSeconds, compactionSpeedVsCp, durableCopySeconds,
             compactionSpeedVsDurableCopy, syncFloorSeconds, commitShapeFloorSeconds, compactionPhases, machine, realmCore
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(objects, forKey: .objects)
        try container.encode(repetitions, forKey: .repetitions)
        try container.encode(lookups, forKey: .lookups)
        try container.encode(commits, forKey: .commits)
        try container.encode(engines, forKey: .engines)
        var list = container.nestedUnkeyedContainer(forKey: .workloads)
        for w in workloads { try list.encode(w) }
        if let notifyLatency { try list.encode(BenchNotifyLatencyEntry(notifyLatency)) }
        try container.encode(fileBytes, forKey: .fileBytes)
        try container.encode(fileRatio, forKey: .fileRatio)
        try container.encode(Self.fileGoal.text, forKey: .fileGoal)
        try container.encode(fileMet, forKey: .fileMet)
        try container.encode(committedFileBytes, forKey: .committedFileBytes)
        try container.encode(compactedFileBytes, forKey: .compactedFileBytes)
        try container.encode(cpSeconds, forKey: .cpSeconds)
        try container.encode(compactionSpeedVsCp, forKey: .compactionSpeedVsCp)
        try container.encode(durableCopySeconds, forKey: .durableCopySeconds)
        try container.encode(compactionSpeedVsDurableCopy, forKey: .compactionSpeedVsDurableCopy)
        try container.encode(syncFloorSeconds, forKey: .syncFloorSeconds)
        try container.encode(commitShapeFloorSeconds, forKey: .commitShapeFloorSeconds)
        try container.encodeIfPresent(compactionPhases, forKey: .compactionPhases)
        try container.encode(machine, forKey: .machine)
        if let realmCore {
            var entries: [String: BenchRealmCoreEntry] = [:]
            for workload in BenchRealmCoreResult.workloads {
                guard let theirs = realmCore.seconds[workload], let ours = result(workload)?.strataSeconds else { continue }
                entries[workload.rawValue] = BenchRealmCoreEntry(strataSeconds: ours, realmCoreSeconds: theirs,
                                                                 ratio: BenchStatistics.ratio(ours, theirs))
            }
            try container.encode(BenchRealmCoreJSON(binary: realmCore.binary, workloads: entries,
                                                    fileBytes: realmCore.fileBytes,
                                                    compactedFileBytes: realmCore.compactedFileBytes), forKey: .realmCore)
        }
    }

    /// The report as pretty-printed JSON with sorted keys:
    /// `{"workloads": [{"name", "strataSeconds", "sqliteSeconds", "ratio", ...}],
    ///   "fileBytes": {"strata", "sqlite"}, ...}`.
    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The report as a plain-text table.
    package func table() -> String {
        let widths = [40, 12, 12, 7, 18, 5]
        func row(_ cells: [String]) -> String {
            var line = ""
            for (index, cell) in cells.enumerated() {
                let rightAligned = index >= 1 && index <= 3
                line += BenchFormat.pad(cell, widths[index], right: rightAligned)
                if index < cells.count - 1 { line += "  " }
            }
            return line.trimmingCharacters(in: .whitespaces)
        }
        func yesNo(_ met: Bool?) -> String { met.map { $0 ? "yes" : "NO" } ?? "-" }

        var lines: [String] = []
        lines.append("Strata vs SQLite: \(BenchFormat.grouped(objects)) objects, "
                     + "median of \(repetitions) repetition\(repetitions == 1 ? "" : "s")")
        if engines.strata != "Strata" || engines.sqlite != "SQLite" {
            lines.append("engines: Strata column = \(engines.strata), SQLite column = \(engines.sqlite)")
        }
        lines.append("")
        lines.append(row(["workload", "Strata s", "SQLite s", "ratio", "goal", "met?"]))
        lines.append(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)))
        for result in workloads {
            lines.append(row([result.name, BenchFormat.seconds(result.strataSeconds),
                              BenchFormat.seconds(result.sqliteSeconds),
                              BenchFormat.number(result.ratio, digits: 2), result.goal.text,
                              yesNo(result.met)]))
        }
        if let n = notifyLatency {
            let goals = [BenchNotifyLatency.goalP50, BenchNotifyLatency.goalP99]
            for (label, l, count) in [("objects(T)", n.wholeClass, n.objects), ("filter+sort", n.filteredSorted, n.filteredObjects)] {
                for (q, value) in [("p50", l.p50), ("p99", l.p99)] {
                    let goal = q == "p50" ? goals[0] : goals[1]
                    lines.append(row(["notify \(q), \(label) \(BenchFormat.grouped(count))", BenchFormat.seconds(value), "-", "",
                                      "<= \(Int(goal * 1000)) ms", yesNo(n.missed == 0 && value <= goal)]))
                }
            }
        }
        lines.append(row(["file size after load (bytes)", BenchFormat.grouped(fileBytes.strata),
                          BenchFormat.grouped(fileBytes.sqlite),
                          BenchFormat.number(fileRatio, digits: 2), Self.fileGoal.text,
                          yesNo(fileMet)]))
        let committedRatio = committedFileBytes.sqlite > 0 ? Double(committedFileBytes.strata) / Double(committedFileBytes.sqlite) : nil
        lines.append(row(["file size after the commits (bytes)", BenchFormat.grouped(committedFileBytes.strata),
                          BenchFormat.grouped(committedFileBytes.sqlite), BenchFormat.number(committedRatio, digits: 2), "", ""]))
        lines.append(row(["file size after compact (bytes)",
                          BenchFormat.grouped(compactedFileBytes.strata),
                          BenchFormat.grouped(compactedFileBytes.sqlite), "", "", ""]))
        lines.append(row(["cp of compacted file", BenchFormat.seconds(cpSeconds.strata),
                          BenchFormat.seconds(cpSeconds.sqlite), "", "", ""]))
        lines.append(row(["cp + fdatasync of compacted file", BenchFormat.seconds(durableCopySeconds.strata),
                          BenchFormat.seconds(durableCopySeconds.sqlite), "", "", ""]))
        lines.append(row([BenchSyncFloor.Shape.page.name(count: commits), BenchFormat.seconds(syncFloorSeconds),
                          "", "", "", ""]))
        if commitShapeFloorSeconds > 0 {
            lines.append(row([BenchSyncFloor.Shape.strataCommitShape.name(count: commits), BenchFormat.seconds(commitShapeFloorSeconds),
                              "", "", "", ""]))
        }
        let speed = compactionSpeedVsCp
        lines.append("")
        lines.append("compaction speed / cp speed (cp s / compact s, same compacted file): Strata "
                     + BenchFormat.number(speed.strata, digits: 2) + ", SQLite "
                     + BenchFormat.number(speed.sqlite, digits: 2))
        let durable = compactionSpeedVsDurableCopy
        lines.append("compaction speed / durable copy speed (cp + fdatasync s / compact s): Strata "
                     + BenchFormat.number(durable.strata, digits: 2) + ", SQLite "
                     + BenchFormat.number(durable.sqlite, digits: 2) + "; goal for Strata >= 0.9")
        if let p = compactionPhases {
            lines.append("compaction phases, Strata (medians): copy " + BenchFormat.seconds(p.copySeconds) + " s, sync of the new file "
                         + BenchFormat.seconds(p.syncSeconds) + " s, rename and switch " + BenchFormat.seconds(p.replaceSeconds) + " s")
        }
        if syncFloorSeconds > 0 {
            let commitRows = workloads.filter { [.commit, .encryptedCommit, .typedCommit].contains($0.workload) }
            lines.append("sync floor: one 4 KiB pwrite + fdatasync per commit takes "
                         + BenchFormat.seconds(syncFloorSeconds) + " s; commit rows against it: "
                         + commitRows.map { r in
                             "\(r.workload.rawValue) Strata " + BenchFormat.number(BenchStatistics.ratio(r.strataSeconds, syncFloorSeconds), digits: 2)
                             + "x, SQLite " + BenchFormat.number(BenchStatistics.ratio(r.sqliteSeconds, syncFloorSeconds), digits: 2) + "x"
                         }.joined(separator: "; "))
        }
        if commitShapeFloorSeconds > 0, let commit = result(.commit) {
            lines.append("commit shape: the writes of a Strata small commit (a 16 KiB run and the 168-byte meta slot) + fdatasync take "
                         + BenchFormat.seconds(commitShapeFloorSeconds) + " s per " + BenchFormat.grouped(commits) + " commits with no CPU work: "
                         + BenchFormat.number(BenchStatistics.ratio(commitShapeFloorSeconds, commit.sqliteSeconds), digits: 2)
                         + "x SQLite's whole commit; Strata's commit spends the other "
                         + BenchFormat.seconds(max(0, commit.strataSeconds - commitShapeFloorSeconds)) + " s computing")
        }
        lines.append("file sizes: Strata " + BenchFormat.bytes(fileBytes.strata) + ", SQLite "
                     + BenchFormat.bytes(fileBytes.sqlite) + " (SQLite: main file after a checkpoint, which leaves no data in the WAL)")
        if let n = notifyLatency {
            lines.append("notify: another process commits one change (\(n.changes) commits, one every ~10 ms); latency from its commit "
                         + "returning to the observer's block (CLOCK_MONOTONIC), \(n.missed) missed")
        }
        if let realmCore { lines += realmCoreTable(realmCore, row: row) }
        lines.append("machine: " + machine.summary)
        return lines.joined(separator: "\n")
    }
}

extension BenchReport {
    /// The section comparing Strata's times of this run with realm-core's on the same inputs.
    fileprivate func realmCoreTable(_ core: BenchRealmCoreResult, row: ([String]) -> String) -> [String] {
        var lines = ["", "Strata vs realm-core (built from source, same inputs, median of \(repetitions))", ""]
        lines.append(row(["workload", "Strata s", "realm-core s", "ratio", "", ""]))
        for workload in BenchRealmCoreResult.workloads {
            guard let result = result(workload), let theirs = core.seconds[workload] else { continue }
            lines.append(row([result.name, BenchFormat.seconds(result.strataSeconds), BenchFormat.seconds(theirs),
                              BenchFormat.number(BenchStatistics.ratio(result.strataSeconds, theirs), digits: 2), "", ""]))
        }
        let fileRatio = core.fileBytes > 0 ? Double(fileBytes.strata) / Double(core.fileBytes) : nil
        lines.append(row(["file size after load (bytes)", BenchFormat.grouped(fileBytes.strata),
                          BenchFormat.grouped(core.fileBytes), BenchFormat.number(fileRatio, digits: 2), "", ""]))
        lines.append(row(["file size after compact (bytes)", BenchFormat.grouped(compactedFileBytes.strata),
                          BenchFormat.grouped(core.compactedFileBytes), "", "", ""]))
        lines.append("realm-core: \(core.binary) (core C++ API: Table, Obj, Query; in-realm history; full durability)")
        lines.append("")
        return lines
    }
}

/// The JSON form of `BenchReport.realmCore`.
private struct BenchRealmCoreJSON: Encodable {
    let binary: String
    let workloads: [String: BenchRealmCoreEntry]
    let fileBytes: Int
    let compactedFileBytes: Int
}

/// One workload of `BenchRealmCoreJSON`.
private struct BenchRealmCoreEntry: Encodable {
    let strataSeconds: Double
    let realmCoreSeconds: Double
    let ratio: Double?
}

/// The JSON entry of the notification workload in `workloads` (`"workload": "notifyLatency"`).
private struct BenchNotifyLatencyEntry: Encodable {
    let latency: BenchNotifyLatency
    init(_ latency: BenchNotifyLatency) { self.latency = latency }
    private enum CodingKeys: String, CodingKey {
        case workload, name, strataSeconds, sqliteSeconds, ratio, goal, met, p50Seconds, p99Seconds, wholeClass, filteredSorted,
             changes, objects, filteredObjects, missed
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("notifyLatency", forKey: .workload)
        try c.encode("cross-process notification latency, \(BenchFormat.grouped(latency.objects))-object Results", forKey: .name)
        let worst = max(latency.wholeClass.p50, latency.filteredSorted.p50)
        try c.encode(worst, forKey: .strataSeconds)
        try c.encodeNil(forKey: .sqliteSeconds)
        try c.encodeNil(forKey: .ratio)
        try c.encode(BenchNotifyLatency.goalText, forKey: .goal)
        try c.encode(latency.met, forKey: .met)
        try c.encode(worst, forKey: .p50Seconds)
        try c.encode(max(latency.wholeClass.p99, latency.filteredSorted.p99), forKey: .p99Seconds)
        try c.encode(latency.wholeClass, forKey: .wholeClass)
        try c.encode(latency.filteredSorted, forKey: .filteredSorted)
        try c.encode(latency.changes, forKey: .changes)
        try c.encode(latency.objects, forKey: .objects)
        try c.encode(latency.filteredObjects, forKey: .filteredObjects)
        try c.encode(latency.missed, forKey: .missed)
    }
}

/// Medians of Strata's compaction phases over the repetitions (`CompactionPhases`).
package struct BenchCompactionPhases: Sendable, Hashable, Encodable {
    /// Reading and writing the live blocks into the new file.
    package var copySeconds: Double
    /// The new file's `fdatasync`.
    package var syncSeconds: Double
    /// `rename`, the directory's `fsync`, switching the handle to the new file.
    package var replaceSeconds: Double
}
