import Foundation

/// A description of the machine and build a run happened on, printed with the results.
package struct BenchMachine: Sendable, Hashable, Codable {
    /// Active processor cores.
    package var cores: Int
    /// Physical memory in bytes.
    package var memoryBytes: UInt64
    /// Operating system, e.g. "Debian GNU/Linux 12 (bookworm) (Linux 6.1.0 x86_64)".
    package var os: String
    /// CPU model from /proc/cpuinfo when available.
    package var cpu: String?
    /// SQLite library version.
    package var sqliteVersion: String
    /// "release" or "debug" (debug timings are not meaningful).
    package var build: String

    /// Describes the current machine.
    package static func current() -> BenchMachine {
        let info = ProcessInfo.processInfo
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        return BenchMachine(
            cores: info.activeProcessorCount,
            memoryBytes: info.physicalMemory,
            os: operatingSystem(),
            cpu: cpuModel(),
            sqliteVersion: SQLiteBenchEngine.libraryVersion,
            build: build)
    }

    /// One line: "2 cores, 23.4 GiB RAM, <cpu>, <os>, SQLite 3.40.1, release build".
    package var summary: String {
        var parts = ["\(cores) cores", BenchFormat.bytes(Int(clamping: memoryBytes)) + " RAM"]
        if let cpu { parts.append(cpu) }
        parts.append(os)
        parts.append("SQLite " + sqliteVersion)
        parts.append(build + " build")
        return parts.joined(separator: ", ")
    }

    private static func operatingSystem() -> String {
        var system = utsname()
        uname(&system)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let kernel = field(system.sysname) + " " + field(system.release) + " " + field(system.machine)
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8),
           let line = release.split(separator: "\n").first(where: { $0.hasPrefix("PRETTY_NAME=") }) {
            let name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return "\(name) (\(kernel))"
        }
        return kernel
    }

    private static func cpuModel() -> String? {
        guard let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in cpuinfo.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
