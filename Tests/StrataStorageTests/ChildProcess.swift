import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process whose stdout is read line by line.
final class ChildProcess {
    let process = Process()
    private let pipe = Pipe()
    /// The child's stdin (modes that wait for a line read it).
    private let input = Pipe()
    private var buffer = Data()
    var lines: [String] = []

    init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        process.standardInput = input
        try process.run()
    }

    /// Writes one line to the child's stdin (nothing when the child has gone: no SIGPIPE).
    func send(_ line: String) {
        signal(SIGPIPE, SIG_IGN)
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input.fileHandleForWriting.fileDescriptor, $0.baseAddress, $0.count) }
    }

    /// Reads whatever output is available (waiting up to `timeout` for the first bytes).
    @discardableResult
    func poll(timeout: TimeInterval = 0) -> [String] {
        let fd = pipe.fileHandleForReading.fileDescriptor
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var newLines: [String] = []
        var wait = Int32(timeout * 1000)
        while Glibc.poll(&pfd, 1, wait) > 0 {
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { break }
            buffer.append(contentsOf: chunk[0..<n])
            while let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...nl)
                newLines.append(line)
            }
            wait = 0
        }
        lines += newLines
        return newLines
    }

    /// Waits until a line satisfying `match` arrives.
    func waitForLine(timeout: TimeInterval = 20, _ match: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        if let l = lines.first(where: match) { return l }
        while Date() < deadline {
            for l in poll(timeout: 0.05) where match(l) { return l }
            if !process.isRunning { for l in poll() where match(l) { return l }; return nil }
        }
        return nil
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        poll()
    }

    /// Whether the child ended by SIGKILL (its wait status), not by exiting on its own (a writer
    /// that stopped on an error before the kill must not pass as "killed mid-work").
    var diedOfSIGKILL: Bool {
        !process.isRunning && process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// The commit the child announced with "begin n" last, and the last it acknowledged with
    /// "committed V n" (see StrataTestWriter). A kill landed inside a commit when the first is
    /// larger.
    var commitProgress: (begun: Int?, committed: Int?) {
        var begun: Int?, committed: Int?
        for l in lines {
            let p = l.split(separator: " ")
            if p.count == 2 && p[0] == "begin", let n = Int(p[1]) { begun = n }
            if p.count == 3 && p[0] == "committed", let n = Int(p[2]) { committed = n }
        }
        return (begun, committed)
    }

    /// Whether the kill landed between "begin n" and "committed V n".
    var killedInsideCommit: Bool {
        let (b, c) = commitProgress
        guard let b else { return false }
        return b > (c ?? 0)
    }
}
