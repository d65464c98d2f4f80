import XCTest
import Foundation
import StrataObjects
#if canImport(Glibc)
import Glibc
#endif

/// The default logger writes to standard error with plain `write(2)` calls: a standard error
/// that is full (`2>/dev/full`) or closed (`2>&-`) loses the message instead of trapping
/// (FileHandle's write ended the app with SIGILL).
final class LoggerStandardErrorTests: XCTestCase {
    /// Runs `body` with descriptor 2 replaced by `replacement` (nil: closed), then restores it.
    private func withStandardError(_ replacement: String?, _ body: () -> Void) throws {
        let saved = dup(STDERR_FILENO)
        XCTAssertGreaterThanOrEqual(saved, 0)
        defer { dup2(saved, STDERR_FILENO); close(saved) }
        if let replacement {
            let fd = open(replacement, O_WRONLY)
            try XCTSkipIf(fd < 0, "\(replacement) cannot be opened here")
            dup2(fd, STDERR_FILENO)
            close(fd)
        } else {
            close(STDERR_FILENO)
        }
        body()
    }

    func testTheDefaultLoggerDropsWhatAFullOrClosedStandardErrorCannotTake() throws {
        let logger = Logger.shared
        XCTAssertEqual(logger.level, .warn, "the default logger (no test replaced it)")
        try withStandardError("/dev/full") {
            logger.log(level: .error, message: "to a full standard error")
        }
        try withStandardError(nil) {
            logger.log(level: .warn, message: "to a closed standard error")
        }
        // A pipe still gets the line, as written.
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let saved = dup(STDERR_FILENO)
        dup2(fds[1], STDERR_FILENO)
        close(fds[1])
        logger.log(level: .error, message: "to a pipe")
        dup2(saved, STDERR_FILENO)
        close(saved)
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &buffer, buffer.count)
        close(fds[0])
        XCTAssertEqual(String(decoding: buffer.prefix(max(0, n)), as: UTF8.self), "Strata [error]: to a pipe\n")
    }
}
