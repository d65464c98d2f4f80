import Foundation
import XCTest
@testable import StrataStorage

/// A fresh temporary directory per test, removed afterwards.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

func key(_ i: Int) -> [UInt8] { Array(String(format: "key%08d", i).utf8) }

func assertSound(_ store: Store, file: StaticString = #filePath, line: UInt = #line) {
    do {
        let r = try store.check()
        XCTAssertTrue(r.isSound, "integrity problems: \(r.problems.prefix(5))", file: file, line: line)
    } catch { XCTFail("check threw \(error)", file: file, line: line) }
}

/// The `StrataTestWriter` child-process helper. When it was not built the test is skipped with a
/// reason, except under CI (`CI` set in the environment), where a missing helper fails the test:
/// a crash test that silently skips proves nothing.
func requireTestWriter(file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let exe = productsDirectory.appendingPathComponent("StrataTestWriter")
    if FileManager.default.fileExists(atPath: exe.path) { return exe }
    if ProcessInfo.processInfo.environment["CI"] != nil {
        XCTFail("StrataTestWriter is missing at \(exe.path) (build it: swift build --build-tests)", file: file, line: line)
        throw XCTSkip("StrataTestWriter missing (reported as a failure under CI)")
    }
    throw XCTSkip("StrataTestWriter is not built at \(exe.path); build it with swift build --build-tests")
}

/// The built products directory (where the test helper executables are).
var productsDirectory: URL {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
}
