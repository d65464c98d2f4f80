import Foundation
import XCTest

/// `Resources/completions/` holds the shell completions the argument parser generates; they must
/// be current. To refresh them after changing a command:
/// `for s in bash zsh fish; do .build/debug/strata --generate-completion-script $s > Resources/completions/strata.$s; done`
final class CompletionScriptTests: XCTestCase {
    func testCompletionScriptsAreCurrent() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/completions")
        for shell in ["bash", "zsh", "fish"] {
            let generated = try StrataCLI.run(["--generate-completion-script", shell])
            XCTAssertEqual(generated.code, 0, generated.stderr)
            XCTAssertTrue(generated.stdout.contains("strata"), shell)
            let file = directory.appendingPathComponent("strata.\(shell)")
            let stored = try String(contentsOf: file, encoding: .utf8)
            XCTAssertEqual(stored, generated.stdout,
                           "\(file.path) is stale; regenerate with: strata --generate-completion-script \(shell) > Resources/completions/strata.\(shell)")
        }
    }
}
