import Foundation
import XCTest

/// `Resources/` is embedded in the binary at build time: a copy of `strata` run far from the
/// build directory and the repository still has the key map (and the demo it builds).
final class ResourcesTests: XCTestCase {
    func testBinaryCopiedElsewhereFindsItsResources() throws {
        let fileManager = FileManager.default
        let place = fileManager.temporaryDirectory.appendingPathComponent("strata-resources-\(UUID().uuidString)")
        let binDirectory = place.appendingPathComponent("bin"), cwd = place.appendingPathComponent("elsewhere")
        try fileManager.createDirectory(at: binDirectory, withIntermediateDirectories: true)
        try fileManager.createDirectory(at: cwd, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: place) }
        let copy = binDirectory.appendingPathComponent("strata")
        try fileManager.copyItem(at: StrataCLI.binary, to: copy)

        let process = Process()
        process.executableURL = copy
        process.arguments = ["browse", "--help"]
        process.currentDirectoryURL = cwd
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        // Lines that only Resources/keymap.json holds.
        for line in ["who links here", "filter (RQL query)", "switch screen", "accept / cancel"] {
            XCTAssertTrue(text.contains(line), "'\(line)' missing from strata browse --help run in \(cwd.path):\n\(text)")
        }
    }
}
