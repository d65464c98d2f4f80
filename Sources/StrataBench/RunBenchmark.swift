import Foundation

/// Runs the benchmark and writes the table (or, with `options.json`, the JSON) to `output`.
///
/// This is the entry point of `strata bench`. Progress lines go to stderr, only when stderr is a
/// terminal (unless `options.progress` says otherwise).
///
/// - Parameters:
///   - options: objects, repetitions, output format, temporary directory.
///   - engines: exactly two engines: first the engine under test (the "Strata" column), then the
///     baseline (the "SQLite" column, normally `SQLiteBenchEngine()`).
///   - timer: the timing source; the default measures wall-clock time.
///   - output: receives the rendered report (one string, no trailing newline).
/// - Returns: the report, for callers that want the numbers.
/// - Throws: `BenchError` (including `.resultMismatch` when the engines disagree) or an engine's
///   error.
@discardableResult
package func runBenchmark(options: BenchOptions, engines: [any BenchEngine],
                         timer: any BenchTimer = MonotonicBenchTimer(),
                         output: (String) -> Void) throws -> BenchReport {
    let showProgress = options.progress ?? (isatty(STDERR_FILENO) != 0)
    let progress: ((String) -> Void)? = showProgress ? { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    } : nil
    let runner = BenchRunner(options: options, timer: timer, progress: progress)
    let report = try runner.run(engines: engines)
    output(options.json ? try report.json() : report.table())
    return report
}
