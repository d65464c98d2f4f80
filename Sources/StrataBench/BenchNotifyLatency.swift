import Foundation
import StrataObjects
import StrataQuery
import StrataStorage
#if canImport(Glibc)
import Glibc
#endif

/// The object class of the notification workload (typed API, as an app declares it).
final class NotifyItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var age = 0
    @Persisted var score = 0.0
}

/// Latency percentiles of one observer, in seconds.
package struct BenchLatency: Sendable, Hashable, Encodable {
    /// The median.
    package var p50: Double
    /// The 99th percentile (nearest rank).
    package var p99: Double
    /// The largest.
    package var max: Double

    /// Percentiles of `samples` (seconds); zeros for none.
    package init(_ samples: [Double]) {
        let s = samples.sorted()
        func rank(_ q: Double) -> Double { s.isEmpty ? 0 : s[Swift.min(s.count - 1, Swift.max(0, Int((q * Double(s.count)).rounded(.up)) - 1))] }
        p50 = rank(0.5); p99 = rank(0.99); max = s.last ?? 0
    }
}

/// What the `notifyLatency` workload measured: from another process's commit returning to the
/// observer's block starting, for an observer on every object of a class (`objects(T.self)`)
/// and one on a filtered and sorted `Results` of the same class.
package struct BenchNotifyLatency: Sendable, Hashable, Encodable {
    /// Objects in the observed class when the changes started.
    package var objects: Int
    /// Commits the other process made (each one object: update, insert or delete).
    package var changes: Int
    /// Objects in the filtered and sorted results when the changes started.
    package var filteredObjects: Int
    /// `realm.objects(NotifyItem.self).observe { … }`.
    package var wholeClass: BenchLatency
    /// `realm.objects(NotifyItem.self).filter("age < 50").sorted(byKeyPath: "score").observe { … }`.
    package var filteredSorted: BenchLatency
    /// Commits for which an observer saw no update within 5 s (counted as 5 s).
    package var missed: Int
    /// The goal for the p50 and p99 (seconds).
    package static let goalP50 = 0.005, goalP99 = 0.020
    /// The goal as text.
    package static let goalText = "p50 <= 5 ms, p99 <= 20 ms"
    /// Whether both observers meet the goal.
    package var met: Bool {
        missed == 0 && [wholeClass, filteredSorted].allSatisfy { $0.p50 <= Self.goalP50 && $0.p99 <= Self.goalP99 }
    }
}

/// The notification workload. The bench process creates a file of `objects` `NotifyItem`s
/// (ages 0..<100, random scores), observes it through the typed API on one thread (which
/// waits with `waitForChange` and delivers with `refresh()`, as a terminal app's loop does),
/// and starts `writer` (the `strata` binary's hidden `bench-notify-writer` subcommand) on the
/// same file. For each change the parent says "go", the child commits one change (cycling:
/// update of a score, update, insert, delete, always of an object with age < 50 so both
/// observers see it), reads CLOCK_MONOTONIC when the commit returned and sends it back; the
/// parent reads the same clock when each observer's block starts. After both observers saw
/// the change the parent waits `interval` and says "go" again, so commits come at a steady pace
/// and never coalesce.
package enum BenchNotifyLatencyWorkload {
    static func configuration(_ path: String) -> Realm.Configuration {
        Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [NotifyItem.self])
    }

    /// CLOCK_MONOTONIC in nanoseconds (the same clock in every process of the machine).
    static func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Runs the workload in `directory` (the file is removed afterwards).
    package static func run(objects: Int, changes: Int, interval: Double, seed: UInt64, directory: URL,
                            writer: [String], progress: ((String) -> Void)? = nil) throws -> BenchNotifyLatency {
        guard let executable = writer.first else { throw BenchError.invalidOptions("no writer command for the notification workload") }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("notify.strata").path
        defer { for suffix in ["", ".lock", ".note", ".management"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        // The observing realm lives on its own thread (confined to it), like an app's UI thread.
        final class Outcome: @unchecked Sendable {
            var result: Result<BenchNotifyLatency, Error> = .failure(BenchError.invalidOptions("not run"))
            var progress: ((String) -> Void)?
        }
        let outcome = Outcome()
        outcome.progress = progress
        let done = DispatchSemaphore(value: 0)
        let arguments = Array(writer.dropFirst())
        let thread = Thread {
            outcome.result = Result { try observe(path: path, objects: objects, changes: changes, interval: interval, seed: seed,
                                                  executable: executable, arguments: arguments, progress: outcome.progress) }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        done.wait()
        return try outcome.result.get()
    }

    private static func observe(path: String, objects: Int, changes: Int, interval: Double, seed: UInt64,
                                executable: String, arguments: [String], progress: ((String) -> Void)?) throws -> BenchNotifyLatency {
        let realm = try Realm(configuration: configuration(path))
        var rng = SplitMix64(seed: seed)
        progress?("notifyLatency: loading \(BenchFormat.grouped(objects)) objects")
        try realm.write {
            try realm.withTransaction { txn in
                try txn.appendObjects("NotifyItem", count: objects, columns: [
                    "id": .ints((1...Int64(objects)).map { $0 }),
                    "age": .ints((0..<objects).map { _ in Int64(rng.next() % 100) }),
                    "score": .doubles((0..<objects).map { _ in Double(rng.next() % 1_000_000) / 100 }),
                ])
            }
        }
        let all = realm.objects(NotifyItem.self)
        let young = all.filter("age < 50").sorted(byKeyPath: "score")
        var wholeSeen: UInt64 = 0, filteredSeen: UInt64 = 0
        var initials = 0
        let t1 = all.observe { change in
            if case .initial = change { initials += 1 } else { wholeSeen = monotonicNanos() }
        }
        let t2 = young.observe { change in
            if case .initial = change { initials += 1 } else { filteredSeen = monotonicNanos() }
        }
        defer { t1.invalidate(); t2.invalidate() }
        realm.refresh()
        guard initials == 2 else { throw BenchError.invalidOptions("the observers delivered no initial notification") }
        let filteredCount = young.count

        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments + [path, String(objects), String(seed)]
        let toChild = Pipe(), fromChild = Pipe()
        child.standardInput = toChild
        child.standardOutput = fromChild
        do { try child.run() } catch { throw BenchError.fileOperation("cannot start \(executable): \(error)") }
        defer {
            try? toChild.fileHandleForWriting.close()
            child.waitUntilExit()
        }
        let reader = LineReader(fd: fromChild.fileHandleForReading.fileDescriptor)
        func send(_ line: String) { toChild.fileHandleForWriting.write(Data((line + "\n").utf8)) }
        guard reader.next() == "ready" else { throw BenchError.fileOperation("the notification writer did not start") }
        progress?("notifyLatency: \(changes) commits by another process")

        var whole: [Double] = [], filtered: [Double] = []
        var missed = 0
        for i in 0..<changes {
            wholeSeen = 0; filteredSeen = 0
            send("go \(i)")
            let deadline = Date().addingTimeInterval(5)
            while (wholeSeen == 0 || filteredSeen == 0) && Date() < deadline {
                if realm.waitForChange(timeout: 0.1) || realm.hasPendingChanges { realm.refresh() }
            }
            guard let ack = reader.next(), ack.hasPrefix("committed "), let at = UInt64(ack.dropFirst(10)) else {
                throw BenchError.fileOperation("the notification writer stopped after \(i) commits")
            }
            if wholeSeen == 0 || filteredSeen == 0 { missed += 1 }
            whole.append(wholeSeen == 0 ? 5 : Double(Int64(bitPattern: wholeSeen &- at)) / 1e9)
            filtered.append(filteredSeen == 0 ? 5 : Double(Int64(bitPattern: filteredSeen &- at)) / 1e9)
            Thread.sleep(forTimeInterval: interval)
        }
        send("quit")
        return BenchNotifyLatency(objects: objects, changes: changes, filteredObjects: filteredCount,
                                  wholeClass: BenchLatency(whole), filteredSorted: BenchLatency(filtered), missed: missed)
    }

    /// The child side (`strata bench-notify-writer PATH OBJECTS SEED`): prints "ready", then for
    /// each "go" line on standard input commits one change and prints "committed NANOS"
    /// (CLOCK_MONOTONIC after the commit returned); ends at "quit" or end of input.
    package static func runWriter(path: String, objects: Int, seed: UInt64) throws {
        let realm = try Realm(configuration: configuration(path))
        var rng = SplitMix64(seed: seed ^ 0x9E37_79B9)
        func emit(_ s: String) { let b = Array((s + "\n").utf8); _ = b.withUnsafeBytes { write(1, $0.baseAddress, $0.count) } }
        emit("ready")
        let input = LineReader(fd: 0)
        var step = 0, nextID = objects + 1
        /// A random existing object with age < 50.
        func young() -> NotifyItem {
            while true {
                let id = 1 + Int(rng.next() % UInt64(nextID - 1))
                if let o = realm.object(ofType: NotifyItem.self, forPrimaryKey: id), o.age < 50 { return o }
            }
        }
        while let line = input.next(), line.hasPrefix("go") {
            try realm.write {
                switch step % 4 {
                case 0, 1: young().score = Double(rng.next() % 1_000_000) / 100
                case 2:
                    let o = NotifyItem(); o.id = nextID; o.age = Int(rng.next() % 50); o.score = Double(rng.next() % 1_000_000) / 100
                    nextID += 1
                    realm.add(o)
                default: realm.delete(young())
                }
            }
            emit("committed \(monotonicNanos())")
            step += 1
        }
    }
}

/// Reads lines from a file descriptor without buffering more than it returns.
private final class LineReader {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    func next() -> String? {
        var bytes: [UInt8] = []
        var b: UInt8 = 0
        while true {
            let n = read(fd, &b, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if b == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(b)
        }
    }
}
