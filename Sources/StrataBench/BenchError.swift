/// Errors of the benchmark.
package enum BenchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A SQLite call failed: result code, SQLite's message, and what was being done.
    case sqlite(code: Int32, message: String, context: String)
    /// Two engines (or an engine and the expected value) disagree on a workload's result.
    case resultMismatch(workload: String, details: String)
    /// The runner needs exactly two engines: the one under test, then the baseline.
    case invalidEngines(String)
    /// Invalid options (e.g. zero objects or repetitions).
    case invalidOptions(String)
    /// A file operation or the `cp` reference copy failed.
    case fileOperation(String)

    /// A one-line explanation.
    package var description: String {
        switch self {
        case .sqlite(let code, let message, let context):
            return "SQLite error \(code) (\(message)) while \(context)"
        case .resultMismatch(let workload, let details):
            return "result mismatch in workload '\(workload)': \(details)"
        case .invalidEngines(let reason):
            return "invalid engines: \(reason)"
        case .invalidOptions(let reason):
            return "invalid options: \(reason)"
        case .fileOperation(let reason):
            return "file operation failed: \(reason)"
        }
    }
}
