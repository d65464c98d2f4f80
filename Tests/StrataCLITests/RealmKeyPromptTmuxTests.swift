import Foundation
import XCTest

/// In a real terminal (tmux): `strata encrypted.realm` without `--encryption-key-file` asks for
/// the key (as for Strata files), then browses the file; a wrong key is a clear error.
extension TmuxEndToEndTests {
    func testEncryptedRealmFileAsksForItsKeyInTmux() throws {
        guard Self.tmuxPath != nil else { throw XCTSkip("tmux is not installed") }
        let fixtures = RealmFileCommandTests.fixtures
        let file = dir.appendingPathComponent("encrypted.realm").path
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent("encrypted.realm").path, toPath: file)
        // The fixture's key: 64 bytes, byte i = (i*37+11) & 0xff (its README), as hex.
        let key = (0..<64).map { String(format: "%02x", ($0 * 37 + 11) & 0xff) }.joined()
        try tmux(["new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30",
                  "env TERM=xterm-256color LANG=C.UTF-8 '\(StrataCLI.binary.path)' '\(file)'"], output: false)
        try waitForScreen("the key prompt") { $0.contains("is encrypted. Key (128 he") }
        try type(key)
        try keys("Enter")
        let text = try waitForScreen("the Data screen") { $0.contains("Classes") && $0.contains("LinkTarget") }
        XCTAssertTrue(text.contains("Realm file, format 24, read-only"), text)
        XCTAssertTrue(text.contains("encrypted"), text)
        try keys("q")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !$0.hasPrefix("tmux-out") }, ["encrypted.realm"])
    }
}
