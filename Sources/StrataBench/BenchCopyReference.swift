import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reference for the compaction-speed goal: copying the compacted database with `/bin/cp`.
///
/// `cp` is started with `posix_spawn` and awaited with `waitpid`, not with Foundation's
/// `Process`: on Linux `Process.waitUntilExit()` polls its run loop in 50 ms steps, which
/// quantizes the measurement (a 3 MB and a 30 MB copy both "took" 54 ms). The spawn itself
/// (about a millisecond) is part of the reference time. `cp` does not fsync, so the copy's data
/// may still be in the page cache when it returns; compaction must be durable, so the goal
/// (BRIEF §5: within 10% of a durable copy) is stated against `cp` + `fdatasync`; plain `cp`
/// is reported beside it for information.
enum BenchCopyReference {
    /// Copies every non-empty file among `files` into `directory` with `/bin/cp`, then removes
    /// the copies (after the caller's timing ends: removal happens in `removeCopies`).
    static func copy(_ files: [URL], into directory: URL) throws -> [URL] {
        let manager = FileManager.default
        let sources = files.filter { file in
            let size = (try? manager.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue
            return (size ?? 0) > 0
        }
        guard !sources.isEmpty else { throw BenchError.fileOperation("no database file to copy") }
        var copies: [URL] = []
        for source in sources {
            let destination = directory.appendingPathComponent("cp-copy-" + source.lastPathComponent)
            copies.append(destination)
            try run("/bin/cp", [source.path, destination.path])
        }
        return copies
    }

    /// `fdatasync` of each file (after `copy`: makes the copies durable, as compaction's are).
    static func sync(_ files: [URL]) throws {
        for file in files {
            let fd = open(file.path, O_RDONLY)
            guard fd >= 0 else { throw BenchError.fileOperation("cannot open \(file.path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            guard fdatasync(fd) == 0 else { throw BenchError.fileOperation("fdatasync \(file.path) failed: \(String(cString: strerror(errno)))") }
        }
    }

    /// Removes the copies made by `copy`.
    static func removeCopies(_ copies: [URL]) {
        for copy in copies { try? FileManager.default.removeItem(at: copy) }
    }

    /// Runs `path` with `arguments` and waits for it; throws unless it exits with status 0.
    static func run(_ path: String, _ arguments: [String]) throws {
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = argv.withUnsafeBufferPointer { buffer in
            posix_spawn(&pid, path, nil, nil, buffer.baseAddress!, environ)
        }
        guard spawned == 0 else {
            throw BenchError.fileOperation("cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw BenchError.fileOperation("waitpid for \(path) failed: \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        let exited = status & 0x7F == 0
        let exitStatus = (status >> 8) & 0xFF
        guard exited && exitStatus == 0 else {
            throw BenchError.fileOperation("\(path) \(arguments.joined(separator: " ")) failed (status \(status))")
        }
    }
}
