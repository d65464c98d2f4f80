import Foundation
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// Sizes for `runStorageBenchmark`. The defaults build a file of about 1 GB.
package struct StorageBenchmarkOptions: Sendable {
    /// Keys in the large file, spread over `trees` trees (interleaved in the file).
    package var keys = 8_000_000
    /// Bytes per value.
    package var valueBytes = 100
    /// Trees the keys are spread over; all but one are dropped to make the file ~75% free.
    package var trees = 4
    /// Small durable commits to time.
    package var smallCommits = 2_000
    /// Random point reads to time.
    package var randomReads = 1_000_000
    package init() {}
}

/// The storage engine's own measurements (issues 2 and 5): small durable commits per second,
/// the per-commit overhead of automatic compaction, random-read and sequential-scan throughput
/// and open time on a ~1 GB file, and full and online compaction of that file with ~75% free,
/// against `cp` of the same file. Run it in release mode. Each result is one line to `output`.
///
/// - Parameters:
///   - directory: a scratch directory with a few GB free; files are created and removed there.
///   - options: sizes (defaults: 8M keys of 100 bytes, about 1 GB).
///   - output: receives one line per measurement, as soon as it is measured.
package func runStorageBenchmark(directory: String, options: StorageBenchmarkOptions = StorageBenchmarkOptions(),
                                output: (String) -> Void) throws {
    try withoutActuallyEscaping(output) { out in
        try StorageBenchmark(directory: directory, options: options, output: out).run()
    }
}

private struct StorageBenchmark {
    let directory: String
    let options: StorageBenchmarkOptions
    let output: (String) -> Void

    func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    func mb(_ b: UInt64) -> String { String(format: "%.1f MB", Double(b) / 1e6) }
    func key(_ i: Int) -> [UInt8] { withUnsafeBytes(of: UInt64(i).bigEndian) { Array($0) } }
    func value(_ i: Int) -> [UInt8] { (0..<options.valueBytes).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ i) } }
    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
    func remove(_ p: String) { for s in ["", ".lock", ".compact-tmp"] { unlink(p + s) } }

    func run() throws {
        try smallCommits()
        try automaticCompactionOverhead()
        try largeFile()
    }

    /// One small put per durable commit.
    func smallCommits() throws {
        let p = path("commits.strata"); remove(p); defer { remove(p) }
        let store = try Store(path: p)
        let n = options.smallCommits
        let t0 = now()
        for i in 0..<n {
            let w = try store.beginWrite()
            try w.tree("t", create: true)!.put(key(i % 1000), bytes: value(i))
            try w.commit()
        }
        let s = now() - t0
        output(String(format: "small durable commits: %d in %.2f s = %.0f commits/s", n, s, Double(n) / s))
    }

    /// Commit latency with and without automatic compaction on a file whose data is mostly
    /// deleted (so every commit takes a relocation step until the file has shrunk).
    func automaticCompactionOverhead() throws {
        for auto in [false, true] {
            let p = path("auto.strata"); remove(p); defer { remove(p) }
            var o = StoreOptions(); o.automaticCompaction = false
            do {
                let store = try Store(path: p, options: o)
                var i = 0
                while i < 400_000 {
                    let w = try store.beginWrite()
                    let t = try w.tree("t", create: true)!
                    for _ in 0..<50_000 { try t.put(key(i), bytes: value(i)); i += 1 }
                    try w.commit()
                }
                let w = try store.beginWrite()
                let t = try w.tree("t")!
                for j in 0..<400_000 where (j / 500) % 10 != 0 { try t.delete(key(j)) }
                try w.commit()
            }
            o.automaticCompaction = auto
            let store = try Store(path: p, options: o)
            let before = try store.fileSize()
            var times: [Double] = []
            for c in 0..<300 {
                let t0 = now()
                let w = try store.beginWrite()
                try w.tree("small", create: true)!.put(key(c % 10), bytes: value(c))
                try w.commit()
                times.append(now() - t0)
            }
            times.sort()
            let mean = times.reduce(0, +) / Double(times.count)
            output(String(format: "commit latency, automatic compaction %@: mean %.2f ms, median %.2f ms, p99 %.2f ms, max %.2f ms; file %@ -> %@ in 300 commits",
                          auto ? "on " : "off", mean * 1e3, times[times.count / 2] * 1e3, times[times.count * 99 / 100] * 1e3,
                          times.last! * 1e3, mb(before), mb(try store.fileSize())))
        }
    }

    func largeFile() throws {
        let p = path("large.strata"); remove(p); defer { remove(p) }
        let names = (0..<options.trees).map { "t\($0)" }
        let perTree = options.keys / options.trees
        // Build: each commit appends a batch to every tree, so their leaves interleave in the file.
        var t0 = now()
        do {
            var o = StoreOptions(); o.automaticCompaction = false
            let store = try Store(path: p, options: o)
            var i = 0
            let batch = 25_000
            while i < perTree {
                let w = try store.beginWrite()
                for name in names {
                    let t = try w.tree(name, create: true)!
                    for j in i..<min(perTree, i + batch) { try t.put(key(j), bytes: value(j)) }
                }
                try w.commit()
                i += batch
            }
            let s = now() - t0
            output(String(format: "bulk load: %d keys of %d bytes in %.1f s (%.0f keys/s), file %@",
                          options.keys, options.valueBytes, s, Double(options.keys) / s, mb(try store.fileSize())))
        }
        // Open: O(1) (meta slots only; the mapping is lazy).
        t0 = now()
        var store: Store? = try Store(path: p)
        let r0 = try store!.beginRead()
        _ = try r0.tree(names[0])!.get(key(perTree / 2))
        r0.end()
        output(String(format: "open + first read of the %@ file: %.3f ms", mb(try store!.fileSize()), (now() - t0) * 1e3))

        // Random point reads.
        var rng = SplitMix64(seed: 1)
        let r = try store!.beginRead()
        let trees = try names.map { try r.tree($0)! }
        t0 = now()
        var found = 0
        for _ in 0..<options.randomReads {
            let t = trees[Int(rng.next() % UInt64(trees.count))]
            if let v = try t.get(key(Int(rng.next() % UInt64(perTree)))), case .inline(let b) = v { found += b.count }
        }
        var s = now() - t0
        output(String(format: "random reads: %d in %.2f s = %.0f reads/s (%d bytes read)", options.randomReads, s, Double(options.randomReads) / s, found))

        // Sequential scan of every tree.
        t0 = now()
        var entries = 0, bytes = 0
        for t in trees { try t.forEach { e in entries += 1; if case .inline(let b) = e.value { bytes += b.count + e.key.count }; return true } }
        s = now() - t0
        output(String(format: "sequential scan: %d entries in %.2f s = %.0f entries/s, %.0f MB/s of keys+values",
                      entries, s, Double(entries) / s, Double(bytes) / s / 1e6))
        r.end()

        // ~75% free: drop all trees but the first (their blocks are spread over the whole file).
        do {
            let w = try store!.beginWrite()
            for name in names.dropFirst() { try w.dropTree(name) }
            try w.commit()
        }
        let stats = try store!.spaceStatistics()
        output("before compaction: file \(mb(stats.totalBytes)), used \(mb(stats.usedBytes)), free \(mb(stats.freeBytes)) (\(Int(Double(stats.freeBytes) * 100 / Double(stats.totalBytes)))% free)")
        store!.close(); store = nil

        // cp of the same file (the reference), which also gives online compaction its input.
        let copyPath = path("large-online.strata"); remove(copyPath); defer { remove(copyPath) }
        t0 = now()
        try runCp(p, copyPath)
        let cpSeconds = now() - t0
        output(String(format: "cp of the %@ file: %.2f s (%.0f MB/s)", mb(stats.totalBytes), cpSeconds, Double(stats.totalBytes) / cpSeconds / 1e6))

        do {
            let st = try Store(path: p)
            let res = try st.compact()
            output(String(format: "compact(): %.2f s, %@ -> %@ (%.2fx the time of cp)", res.seconds, mb(res.beforeBytes), mb(res.afterBytes), res.seconds / cpSeconds))
            let check = try st.check()
            output("  integrity after compact(): \(check.isSound ? "sound" : "PROBLEMS \(check.problems.prefix(2))"), \(check.blocks) blocks")
            st.close()
        }
        do {
            var o = StoreOptions(); o.automaticCompaction = false
            let st = try Store(path: copyPath, options: o)
            let res = try st.compactOnline()
            output(String(format: "compactOnline(): %.2f s, %@ -> %@, %@ relocated (%.2fx the time of cp)", res.seconds, mb(res.beforeBytes), mb(res.afterBytes), mb(res.bytesMoved), res.seconds / cpSeconds))
            let check = try st.check()
            output("  integrity after compactOnline(): \(check.isSound ? "sound" : "PROBLEMS \(check.problems.prefix(2))"), \(check.blocks) blocks")
            st.close()
        }
    }

    func runCp(_ from: String, _ to: String) throws {
        let args: [String] = ["/bin/cp", from, to]
        let argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid = pid_t()
        guard argv.withUnsafeBufferPointer({ posix_spawn(&pid, "/bin/cp", nil, nil, $0.baseAddress!, environ) }) == 0 else {
            throw BenchError.fileOperation("cannot start /bin/cp")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw BenchError.fileOperation("cp \(from) \(to) failed (status \(status))") }
    }
}
