import Foundation
@testable import strata

/// A `CommandOutput` that keeps what a command writes, for in-process command tests.
final class CapturedOutput: CommandOutput {
    private(set) var stdout = ""
    private(set) var stderr = ""
    func write(_ text: String) throws { stdout += text }
    func note(_ text: String) { stderr += text + "\n" }
    func flush() throws {}
}

/// Runs `strata args…` in this process with a captured output.
func runInProcess(_ args: [String]) -> (code: Int32, stdout: String, stderr: String) {
    let out = CapturedOutput()
    let code = StrataCommand.execute(args, output: out)
    return (code, out.stdout, out.stderr)
}
