import Foundation
import Strata
@testable import StrataStorage
import StrataTooling
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `strata copy` as a process.
final class CopyCommandTests: CLITestCase {
    func testCopyIsSmallerAndSoundAndCanDecrypt() throws {
        let file = try makeDemo(events: 2000)
        let copy = try StrataCLI.run(["copy", file, path("copy.strata"), "--json"])
        XCTAssertEqual(copy.code, 0, copy.stderr)
        XCTAssertLessThan(copy.object["destinationBytes"] as? Int ?? .max, copy.object["sourceBytes"] as? Int ?? 0)
        XCTAssertEqual(try StrataCLI.run(["check", path("copy.strata")]).code, 0)
        let decrypted = try StrataCLI.run(["copy", file, path("plain.strata"), "--decrypt"])
        XCTAssertEqual(decrypted.code, 0, decrypted.stderr)

    }

    /// A directory as the destination: cp would copy into it; copy said "already exists; copy
    /// never overwrites a file", which is not what happened. It names the directory and the
    /// path to give instead.
    func testADirectoryDestinationIsNamedAsOne() throws {
        let file = try makeDemo()
        let target = path("out")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        for given in [target, target + "/"] {
            let r = try StrataCLI.run(["copy", file, given])
            XCTAssertEqual(r.code, 5, r.stderr)
            XCTAssertTrue(r.stderr.contains("\(given) is a directory; give the new file's path, e.g. \(target)/demo.strata"), r.stderr)
            XCTAssertFalse(r.stderr.contains("overwrites"), r.stderr)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target), [])
    }

    /// Files in the test directory besides the given ones (a temporary copy left behind).
    func strayFiles(besides names: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { !names.contains($0) && !$0.hasSuffix(".lock") }
    }

    func testCopyOfADamagedBlockIsRefusedNamingTheBlock() throws {
        let file = try damagedDemo()
        let r = try StrataCLI.run(["copy", file, path("copy.strata")])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("block at offset "), r.stderr)
        XCTAssertTrue(r.stderr.contains("fails its checksum"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("copy.strata")))
        XCTAssertEqual(try strayFiles(besides: ["demo.strata"]), [])
    }

    /// `--skip-unreadable`: every readable object is copied, what was left out is listed (class,
    /// keys, block), links to it are removed, the copy is sound, and the exit code is 3.
    func testSkipUnreadableCopiesEveryReadableObjectAndListsTheRest() throws {
        let file = try damagedDemo()
        // check's advice leads here, not into a copy that would be refused.
        let check = try StrataCLI.run(["check", file])
        XCTAssertEqual(check.code, 1, check.stderr)
        XCTAssertTrue(check.stderr.contains("'strata copy \(file) NEW --skip-unreadable'"), check.stderr)
        let people = try count(file, "Person"), dogs = try count(file, "Dog"), events = try count(file, "Event")
        let r = try StrataCLI.run(["copy", file, path("copy.strata"), "--skip-unreadable"])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stdout.contains("skipped Company: 10 objects (every key, positions 1–10): block at offset "), r.stdout)
        XCTAssertTrue(r.stdout.contains("fails its checksum"), r.stdout)
        let total = people + dogs + events + (try count(file, "Product")) + 10
        XCTAssertTrue(r.stdout.contains("copied \(Formatting.number(total - 10)) of \(Formatting.number(total)) objects of \(file) to \(path("copy.strata")) ("),
                      r.stdout)
        XCTAssertTrue(r.stderr.contains("10 objects of \(file) could not be read and are not in the copy"), r.stderr)
        XCTAssertEqual(try StrataCLI.run(["check", path("copy.strata")]).code, 0)
        let copy = path("copy.strata")
        XCTAssertEqual(try count(copy, "Company"), 0)
        XCTAssertEqual(try count(copy, "Person"), people)
        XCTAssertEqual(try count(copy, "Dog"), dogs)
        XCTAssertEqual(try count(copy, "Event"), events)
        // The same objects with the same values; links to the companies left out are null.
        let source = try Database(path: file)
        defer { source.close() }
        let target = try Database(path: copy)
        defer { target.close() }
        let s = try source.read(), t = try target.read()
        defer { s.end(); t.end() }
        for id: Int64 in [1, 2, 17, 2000] {
            guard let a = try s.find("Person", primaryKey: .int(id)), let b = try t.find("Person", primaryKey: .int(id)) else {
                return XCTFail("Person \(id) missing")
            }
            var va = try s.values("Person", a), vb = try t.values("Person", b)
            XCTAssertEqual(vb["employer"], .null)
            va["employer"] = nil; vb["employer"] = nil
            va["address"] = nil; vb["address"] = nil  // embedded: a new key in the copy
            XCTAssertEqual(va, vb, "Person \(id)")
            XCTAssertEqual(try s.list("Person", a, "tags"), try t.list("Person", b, "tags"))
            // Links re-pointed to the copied objects (Dog keys are new in the copy).
            func dogIDs(_ txn: DBTransaction, _ person: ObjKey) throws -> [Value] {
                try txn.list("Person", person, "dogs").map { v in
                    guard case .object(let link) = v else { return .null }
                    return try txn.value("Dog", link.key, "_id")
                }
            }
            XCTAssertEqual(try dogIDs(t, b), try dogIDs(s, a), "Person \(id)'s dogs")
            if id == 2 { XCTAssertFalse(try dogIDs(s, a).isEmpty, "Person 2 has a dog (the comparison means something)") }
        }
        XCTAssertEqual(try strayFiles(besides: ["demo.strata", "copy.strata"]), [])

        let json = try StrataCLI.run(["copy", file, path("copy2.strata"), "--skip-unreadable", "--json"])
        XCTAssertEqual(json.code, 3, json.stderr)
        let skipped = try XCTUnwrap(json.object["skipped"] as? [[String: Any]], json.stdout)
        XCTAssertEqual(skipped.count, 1)
        XCTAssertEqual(skipped.first?["class"] as? String, "Company")
        XCTAssertEqual(skipped.first?["objects"] as? Int, 10)
        XCTAssertEqual(json.object["copiedObjects"] as? Int, (json.object["objects"] as? Int ?? 0) - 10)
    }

    func testSkipUnreadableOnASoundFileIsAnOrdinaryCopy() throws {
        let file = try makeDemo()
        let r = try StrataCLI.run(["copy", file, path("copy.strata"), "--skip-unreadable"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("copied \(file) ("), r.stdout)
        XCTAssertFalse(r.stdout.contains("skipped"), r.stdout)
        XCTAssertEqual(try count(path("copy.strata"), "Company"), 10)
    }

    /// The root node of a class's own tree fails its checksum: the class cannot even be counted.
    /// It is listed as left out; every other class is copied.
    func testSkipUnreadableListsAClassWhoseTreeCannotBeRead() throws {
        let file = try makeDemo()
        let root: UInt64 = try {
            let store = try Store(path: file)
            defer { store.close() }
            let r = try store.beginRead()
            defer { r.end() }
            guard case .stored(let ref)? = try XCTUnwrap(try r.tree("c/Company")).root else { throw XCTSkip("no stored root") }
            return ref
        }()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        bytes[Int(root) + 24] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: file))
        let people = try count(file, "Person")

        let r = try StrataCLI.run(["copy", file, path("copy.strata"), "--skip-unreadable"])
        XCTAssertEqual(r.code, 3, r.stderr)
        XCTAssertTrue(r.stdout.contains("skipped Company: every object (the class cannot be read, not even counted): block at offset \(root) "),
                      r.stdout)
        XCTAssertTrue(r.stderr.contains("objects of \(file) could not be read"), r.stderr)
        XCTAssertEqual(try count(path("copy.strata"), "Person"), people)
        XCTAssertEqual(try count(path("copy.strata"), "Company"), 0)
    }
}

