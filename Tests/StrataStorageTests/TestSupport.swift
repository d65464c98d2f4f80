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

/// The built products directory (where the test helper executables are).
var productsDirectory: URL {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
}
