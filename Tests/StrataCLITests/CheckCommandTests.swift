import Foundation
import Strata
import StrataStorage
import XCTest

/// `strata check`: exit 1 with the problem for a damaged block, and no advice to run itself.
final class CheckCommandTests: CLITestCase {
    /// One flipped byte inside a stored string: the file opens, and check finds the block that
    /// fails its checksum (exit 1 exactly, not 3).
    func testAFlippedByteInAStoredValueIsExit1WithTheProblem() throws {
        let file = try damagedDemo()
        let r = try StrataCLI.run(["check", file, "--json"])
        XCTAssertEqual(r.code, 1, "\(r.stdout) \(r.stderr)")
        XCTAssertEqual(r.object["sound"] as? Bool, false)
        let problems = try XCTUnwrap(r.object["problems"] as? [String])
        XCTAssertTrue(problems.contains { $0.contains("checksum") }, "\(problems)")
        XCTAssertFalse(r.stderr.contains("Fatal error"))
    }

    /// Other commands advise "Run 'strata check'"; check itself must not.
    func testCheckDoesNotAdviseRunningCheck() throws {
        let file = try makeDemo()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        for i in 16..<8192 { bytes[i] = 0x5A }
        try bytes.write(to: URL(fileURLWithPath: file))
        let info = try StrataCLI.run(["info", file])
        XCTAssertEqual(info.code, 3)
        XCTAssertTrue(info.stderr.contains("strata check"), "the engine's advice is there to strip: \(info.stderr)")
        let check = try StrataCLI.run(["check", file])
        XCTAssertEqual(check.code, 3, check.stderr)
        XCTAssertTrue(check.stderr.contains("corrupted"), check.stderr)
        XCTAssertFalse(check.stderr.contains("strata check"), check.stderr)
    }

    /// A truncated Realm file: the Realm reader's advice quotes the command with backticks, and
    /// check printed "Run `strata check` on it" about itself.
    func testCheckOfATruncatedRealmFileDoesNotAdviseRunningCheck() throws {
        let realm = path("cut.realm")
        let whole = try Data(contentsOf: FileRefusalCommandTests.realmFixtures.appendingPathComponent("all-types.realm"))
        try whole.prefix(100_000).write(to: URL(fileURLWithPath: realm))
        let info = try StrataCLI.run(["info", realm])
        XCTAssertEqual(info.code, 3, info.stderr)
        XCTAssertTrue(info.stderr.contains("strata check"), "the reader's advice is there to strip: \(info.stderr)")
        let check = try StrataCLI.run(["check", realm])
        XCTAssertEqual(check.code, 3, check.stderr)
        XCTAssertTrue(check.stderr.contains("damaged"), check.stderr)
        XCTAssertFalse(check.stderr.contains("strata check"), check.stderr)
    }

    /// An index that lacks an object and holds an old value of another (a writer did not keep
    /// it current): check names it (exit 1); the same file with the index whole is sound.
    func testAStaleIndexIsAProblem() throws {
        let file = path("stale.strata")
        do {
            let schema = Schema([ObjectSchema(className: "P", properties: [PropertySchema(name: "name", type: .string, isIndexed: true)])])
            let db = try Database(path: file, schema: schema, schemaVersion: 0)
            let w = try db.write()
            for i in 0..<10 { _ = try w.create("P", values: ["name": .string("n\(i)")]) }
            try w.commit()
            db.close()
        }
        let sound = try StrataCLI.run(["check", file])
        XCTAssertEqual(sound.code, 0, sound.stdout + sound.stderr)
        do {
            let store = try Store(path: file)
            let w = try store.beginWrite()
            let index = try XCTUnwrap(try w.tree("i/P/name", create: false))
            let entries = try index.entries()
            XCTAssertTrue(try index.delete(entries[0].key))
            // An entry for another value of the second object (as one left by a write that did not update the index).
            var old = entries[1].key
            old[1] = UInt8(ascii: "m")
            try index.put(old, bytes: [])
            try w.commit()
            store.close()
        }
        let r = try StrataCLI.run(["check", file, "--json"])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        let problems = try XCTUnwrap(r.object["problems"] as? [String])
        XCTAssertEqual(problems, ["index on 'P.name' is stale: 1 object missing from it, 1 entry for no object or an old value"])
    }

    func testCheckJSONOfASoundFile() throws {
        let file = try makeDemo(events: 2000)
        let check = try StrataCLI.run(["check", file, "--json"])
        XCTAssertEqual(check.code, 0, check.stderr)
        XCTAssertEqual(check.object["sound"] as? Bool, true)
        XCTAssertEqual((check.object["problems"] as? [Any])?.count, 0)

    }

    /// Three tampered pages of an encrypted file: each page is one problem (with how many
    /// blocks it made unreadable), and the bytes of the subtrees below them one more; no line
    /// twice (the same page was listed once per block, 34 problems; 100 on a larger file).
    func testDamagedEncryptedPagesAreEachReportedOnce() throws {
        let file = path("e.strata")
        let key = try write(String((0..<64).map { String(format: "%02x", $0) }.joined()), to: "k.hex")
        XCTAssertEqual(try StrataCLI.run(["demo", file, "--objects", "1000", "--encryption-key-file", key]).code, 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        // Inside three data pages (pages 203, 290 and 326: trees c/Person, i/Person/name, c/Event).
        for offset in [848_833, 1_211_606, 1_360_484] where offset < bytes.count { bytes[offset] ^= 0xFF }
        try bytes.write(to: URL(fileURLWithPath: file))
        let r = try StrataCLI.run(["check", file, "--encryption-key-file", key, "--json"])
        XCTAssertEqual(r.code, 1, r.stderr)
        let problems = try XCTUnwrap(r.object["problems"] as? [String])
        XCTAssertEqual(Set(problems).count, problems.count, "\(problems)")
        for page in [203, 290, 326] {
            XCTAssertEqual(problems.filter { $0.contains("encrypted page \(page) ") }.count, 1, "page \(page): \(problems)")
        }
        XCTAssertTrue(problems.contains { $0.contains("blocks unreadable") && $0.contains("encrypted page 203 ") }, "\(problems)")
        XCTAssertLessThanOrEqual(problems.count, 4, "\(problems)")
        XCTAssertFalse(problems.contains { $0.contains("weight of child") }, "a subtree with unreadable blocks is not weighed: \(problems)")
        let text = try StrataCLI.run(["check", file, "--encryption-key-file", key])
        XCTAssertTrue(text.stdout.hasPrefix("\(file): \(problems.count) problems at version"), text.stdout)
    }
}
