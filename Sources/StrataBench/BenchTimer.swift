/// What a timing measures: a workload, the reference copy of the compacted file with `cp`, or
/// the durable-write floor.
package enum BenchStep: Sendable, Hashable {
    /// One of the timed workloads.
    case workload(BenchWorkload)
    /// Copying the compacted database files with `/bin/cp`.
    case copyReference
    /// Copying them with `/bin/cp`, then `fdatasync` of each copy: a copy as durable as a
    /// compaction must be.
    case durableCopyReference
    /// The small-commit reference (`BenchSyncFloor`): 4 KiB `pwrite` + `fdatasync`, once per
    /// small commit of the workloads.
    case syncFloor
    /// The second small-commit reference (`BenchSyncFloor.Shape.strataCommitShape`): the writes
    /// of a Strata small commit (a 16 KiB run and the meta slot) + `fdatasync`, once per commit.
    case commitShapeFloor
}

/// The source of timings. The runner asks it to time every step, so tests can inject scripted
/// durations and check the median and ratio logic without real timing.
package protocol BenchTimer {
    /// Runs `body` once and returns its value and the duration attributed to it, in seconds.
    ///
    /// - Parameters:
    ///   - step: what is being timed.
    ///   - engine: the engine's index in the runner's engine list (0: the engine under test,
    ///     reported as "strata"; 1: the baseline, reported as "sqlite").
    ///   - repetition: the 0-based repetition.
    func measure<T>(_ step: BenchStep, engine: Int, repetition: Int,
                    _ body: () throws -> T) rethrows -> (value: T, seconds: Double)
}

/// Wall-clock timing with the monotonic `ContinuousClock`.
package struct MonotonicBenchTimer: BenchTimer, Sendable {
    /// Creates the timer.
    package init() {}

    package func measure<T>(_ step: BenchStep, engine: Int, repetition: Int,
                           _ body: () throws -> T) rethrows -> (value: T, seconds: Double) {
        let clock = ContinuousClock()
        let start = clock.now
        let value = try body()
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds)
            + Double(elapsed.components.attoseconds) * 1e-18
        return (value, seconds)
    }
}
