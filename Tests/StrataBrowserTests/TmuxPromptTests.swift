import Foundation
import XCTest

/// The built `strata` in a real terminal (tmux): typing `e` + U+0301, a flag and a ZWJ emoji
/// into the filter prompt, then editing keys, must leave the browser running (issue 18 item 9).
/// Skipped when tmux or the built binary is missing.
final class TmuxPromptTests: XCTestCase {
    private let socket = "strata-prompt-\(UUID().uuidString.prefix(8))"
    private var url: URL!

    override func tearDown() {
        _ = shell("tmux -L \(socket) kill-server")
        if let url { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    }

    /// Runs a shell command and returns its standard output (the exit status is not needed here).
    @discardableResult
    private func shell(_ command: String) -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command + " </dev/null >'\(out)' 2>/dev/null"), nil]
        defer { for a in argv { free(a) }; unlink(out) }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return "" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }

    private func screen() -> String { shell("tmux -L \(socket) capture-pane -p -t p") }

    private func waitFor(_ what: String, _ condition: (String) -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(30)
        var text = ""
        while Date() < deadline {
            text = screen()
            if condition(text) { return }
            usleep(50_000)
        }
        XCTFail("timed out waiting for \(what); screen:\n\(text)", file: file, line: line)
    }

    func testCombiningCharactersAndEmojiInTheFilterPrompt() throws {
        // The xctest bundle sits in the build directory next to the `strata` executable.
        let bundle = Bundle(for: Self.self).bundleURL
        let binary = [bundle.appendingPathComponent("strata"), bundle.deletingLastPathComponent().appendingPathComponent("strata")]
            .first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? bundle.appendingPathComponent("strata")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else { throw XCTSkip("tmux is not installed") }
        guard FileManager.default.isExecutableFile(atPath: binary.path) else { throw XCTSkip("no built strata at \(binary.path)") }
        url = TestDatabase.copy()
        shell("tmux -L \(socket) new-session -d -s p -x 100 -y 30 \"env TERM=xterm-256color LANG=C.UTF-8 '\(binary.path)' '\(url.path)'\"")
        waitFor("the Data screen") { $0.contains("Classes") }
        shell("tmux -L \(socket) send-keys -t p /")
        waitFor("the filter prompt") { $0.contains("Filter") }
        shell("tmux -L \(socket) send-keys -t p -l 'e\u{301}x🇫🇷👨‍👩‍👧'")
        shell("tmux -L \(socket) send-keys -t p Left BSpace Left Left BSpace C-a C-e")
        shell("tmux -L \(socket) send-keys -t p -l 'q'")
        waitFor("the prompt still editing after the keys") { $0.contains("Filter") && $0.contains("q") }
        shell("tmux -L \(socket) send-keys -t p Escape")
        waitFor("the prompt closed") { !$0.contains("Filter") && $0.contains("Classes") }
        shell("tmux -L \(socket) send-keys -t p q")
        waitFor("strata exited") { !$0.contains("Classes") }
    }
}
