import XCTest
import Foundation
@testable import StrataObjects
import StrataStorage

final class CBlob: Object {
    @Persisted(primaryKey: true) var id: Int
    @Persisted var payload = Data()
}

/// A file with `n` blobs of `size` bytes of which all but `keep` were deleted again: lots of
/// free space for a compaction to give back.
func makeFragmentedFile(_ path: String, n: Int, size: Int, keep: Int) throws {
    var o = StoreOptions(); o.automaticCompaction = false
    let db = try Database(path: path, options: o, schema: Schema([ClassInfo.of(CBlob.self).objectSchema]))
    for batch in stride(from: 0, to: n, by: 50) {
        let w = try db.write()
        for i in batch..<min(n, batch + 50) {
            try w.create("CBlob", values: ["id": .int(Int64(i)), "payload": .data([UInt8](repeating: UInt8(i & 0xFF), count: size))])
        }
        try w.commit()
    }
    let w = try db.write()
    try w.delete("CBlob", keys: (keep..<n).map { Int64($0) })
    try w.commit()
    db.close()
}

final class ConfigurationTests: XCTestCase {
    func testObjectTypesSubsetLeavesOtherClassesUntouched() throws {
        let f = APIFixture()
        do {
            let full = try Realm(configuration: f.config())
            try full.write {
                full.add(APerson(id: 1, name: "ann"))
                full.add(ADog(name: "rex"))
            }
        }
        let dogsOnly = try Realm(configuration: f.config(types: [ADog.self]))
        XCTAssertEqual(dogsOnly.schema.classNames.sorted(), ["ADog", "AAddress", "AGeo", "APerson"].sorted(), "linked classes come along")
        let blobs = try Realm(configuration: f.config(types: [CBlob.self]))
        XCTAssertEqual(blobs.schema.classNames, ["CBlob"])
        try blobs.write { blobs.add({ let b = CBlob(); b.id = 1; return b }()) }
        // The file now holds all classes; the other handle's data is intact.
        let full = try Realm(configuration: f.config(types: apiTypes + [CBlob.self]))
        XCTAssertEqual(full.objects(APerson.self).first?.name, "ann")
        XCTAssertEqual(full.objects(ADog.self).count, 1)
        XCTAssertEqual(full.objects(CBlob.self).count, 1)
        assertIntegrity(full)
    }

    func testReadOnlyRealmRefusesWritesClearly() throws {
        let f = APIFixture()
        var cfg = f.config()
        do { let r = try Realm(configuration: cfg); try r.write { r.add(APerson(id: 1, name: "x")) } }
        let before = try Data(contentsOf: cfg.fileURL!)
        cfg.readOnly = true
        let ro = try Realm(configuration: cfg)
        XCTAssertEqual(ro.objects(APerson.self).count, 1)
        XCTAssertThrowsError(try ro.write { ro.add(APerson(id: 2, name: "y")) }) { e in
            guard case .readOnly(let m) = e as? Realm.Error else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("read-only"), m)
        }
        XCTAssertEqual(try Data(contentsOf: cfg.fileURL!), before, "a read-only realm writes nothing")
        // A read-only realm cannot migrate or delete files either.
        var bad = cfg; bad.deleteRealmIfMigrationNeeded = true
        XCTAssertThrowsError(try Realm(configuration: bad)) { XCTAssertTrue("\($0)".contains("read-only"), "\($0)") }
        var missing = cfg; missing.fileURL = f.dir.url.appendingPathComponent("nope.strata"); missing.readOnly = true
        XCTAssertThrowsError(try Realm(configuration: missing))
    }

    func testDefaultConfigurationAndRealm() throws {
        let dir = TempDir()
        let saved = Realm.Configuration.defaultConfiguration
        let savedEnv = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
        setenv("XDG_DATA_HOME", dir.url.path, 1)
        defer {
            Realm.Configuration.defaultConfiguration = saved
            if let savedEnv { setenv("XDG_DATA_HOME", savedEnv, 1) } else { unsetenv("XDG_DATA_HOME") }
        }
        XCTAssertEqual(Realm.Configuration.defaultFileURL.path, dir.url.appendingPathComponent("strata/default.strata").path)
        Realm.Configuration.defaultConfiguration = Realm.Configuration(objectTypes: apiTypes)
        XCTAssertEqual(Realm.Configuration.defaultConfiguration.fileURL?.lastPathComponent, "default.strata")
        do {
            let realm = try Realm()
            try realm.write { realm.add(APerson(id: 7, name: "default")) }
            XCTAssertEqual(realm.configuration.fileURL, Realm.Configuration.defaultFileURL)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("strata/default.strata").path), "created in the user's data directory")
        var c = Realm.Configuration.defaultConfiguration
        c.schemaVersion = 0
        Realm.Configuration.defaultConfiguration = c
        XCTAssertEqual(try Realm().object(ofType: APerson.self, forPrimaryKey: 7)?.name, "default")
    }

    func testShouldCompactOnLaunchGetsTheRightNumbersAndCompacts() throws {
        let dir = TempDir()
        let path = dir.path("launch.strata")
        try makeFragmentedFile(path, n: 400, size: 20_000, keep: 10)
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let stats: SpaceStatistics = try {
            let s = try Store(path: path); defer { s.close() }
            return try s.spaceStatistics()
        }()
        let asked = Locked<[(Int, Int)]>([])
        let cfg = Realm.Configuration(fileURL: URL(fileURLWithPath: path), shouldCompactOnLaunch: { total, used in
            asked.with { $0.append((total, used)) }
            return total > 2 * used
        }, objectTypes: [CBlob.self])
        do {
            let realm = try Realm(configuration: cfg)
            let numbers = asked.with { $0 }
            XCTAssertEqual(numbers.count, 1)
            XCTAssertEqual(numbers.first?.0, sizeBefore)
            XCTAssertEqual(numbers.first?.1, Int(stats.usedBytes))
            XCTAssertLessThan(numbers.first!.1, numbers.first!.0 / 10)
            guard case .success(let r)? = realm.launchCompaction else { return XCTFail("\(String(describing: realm.launchCompaction))") }
            XCTAssertEqual(Int(r.beforeBytes), sizeBefore)
            let sizeAfter = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            XCTAssertLessThan(sizeAfter, sizeBefore / 4)
            XCTAssertEqual(realm.objects(CBlob.self).count, 10)
            XCTAssertEqual(realm.object(ofType: CBlob.self, forPrimaryKey: 3)?.payload.first, 3)
            assertIntegrity(realm)
        }
        // Asked only on the first open in the process.
        _ = try Realm(configuration: cfg)
        XCTAssertEqual(asked.with { $0.count }, 1)
    }

    func testLaunchCompactionSkippedWhenTheFileIsOpenElsewhere() throws {
        let dir = TempDir()
        let path = dir.path("busy.strata")
        try makeFragmentedFile(path, n: 100, size: 10_000, keep: 5)
        let other = try Store(path: path)   // another handle: compaction must not run
        defer { other.close() }
        let sizeBefore = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), shouldCompactOnLaunch: { _, _ in true }, objectTypes: [CBlob.self]))
        guard case .failure(let e)? = realm.launchCompaction else { return XCTFail("expected a refusal") }
        guard case .fileInUse = e as? StorageError else { return XCTFail("\(e)") }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int, sizeBefore)
        XCTAssertEqual(realm.objects(CBlob.self).count, 5)
    }

    func testWriteCopyAndCompact() throws {
        let f = APIFixture()
        let realm = try Realm(configuration: f.config())
        try realm.write { for i in 0..<200 { realm.add(APerson(id: i, name: String(repeating: "n", count: 500))) } }
        try realm.write { realm.delete(realm.objects(APerson.self).filter { $0.id >= 20 }) }
        let copy = f.dir.url.appendingPathComponent("copy.strata")
        try realm.writeCopy(toFile: copy)
        XCTAssertThrowsError(try realm.writeCopy(toFile: copy)) { e in
            guard case .destinationExists = e as? CompactionError else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try realm.writeCopy(toFile: f.dir.url.appendingPathComponent("bad.strata"), encryptionKey: Data(count: 10)))
        let copied = try Realm(configuration: f.config("copy.strata"))
        XCTAssertEqual(copied.objects(APerson.self).count, 20)
        assertIntegrity(copied)
        let before = try FileManager.default.attributesOfItem(atPath: f.config().fileURL!.path)[.size] as! Int
        let r = try realm.compact()
        XCTAssertEqual(Int(r.beforeBytes), before)
        XCTAssertLessThanOrEqual(r.afterBytes, r.beforeBytes)
        XCTAssertEqual(realm.objects(APerson.self).count, 20)
        assertIntegrity(realm)
    }

    func testAnotherSubsetOfAnOpenFileMustAgreeOnTheSchemaVersion() throws {
        let f = APIFixture()
        var cfg = f.config()
        cfg.schemaVersion = 1
        let open = try Realm(configuration: cfg)
        var blobs = f.config(types: [CBlob.self])
        blobs.schemaVersion = 2
        XCTAssertThrowsError(try Realm(configuration: blobs)) { XCTAssertTrue("\($0)".contains("already open in this process with schema version 1"), "\($0)") }
        blobs.schemaVersion = 1
        XCTAssertEqual(try Realm(configuration: blobs).objects(CBlob.self).count, 0)
        _ = open
    }

    func testEncryptedRealmAndEncryptingCopies() throws {
        let f = APIFixture()
        let key = Data((0..<64).map { UInt8($0 * 7 & 0xFF) })
        var cfg = f.config("enc.strata")
        cfg.encryptionKey = key
        do {
            let realm = try Realm(configuration: cfg)
            try realm.write { realm.add(APerson(id: 1, name: "secret-name-in-plaintext?")) }
            assertIntegrity(realm)
        }
        let bytes = try Data(contentsOf: cfg.fileURL!)
        XCTAssertNil(bytes.range(of: Data("secret-name-in-plaintext?".utf8)), "the file holds no plaintext")
        var wrong = cfg; wrong.encryptionKey = Data(repeating: 1, count: 64)
        XCTAssertThrowsError(try Realm(configuration: wrong)) { e in
            guard case .wrongEncryptionKey = ((e as? Realm.Error)?.underlyingError ?? e) as? StorageError else { return XCTFail("\(e)") }
        }
        var none = cfg; none.encryptionKey = nil
        XCTAssertThrowsError(try Realm(configuration: none)) { e in
            guard case .encryptionKeyRequired = ((e as? Realm.Error)?.underlyingError ?? e) as? StorageError else { return XCTFail("\(e)") }
        }
        let realm = try Realm(configuration: cfg)
        XCTAssertEqual(realm.object(ofType: APerson.self, forPrimaryKey: 1)?.name, "secret-name-in-plaintext?")
        // Decrypting and re-keying copies.
        let plain = f.dir.url.appendingPathComponent("plain.strata")
        try realm.writeCopy(toFile: plain)
        XCTAssertEqual(try Realm(configuration: f.config("plain.strata")).objects(APerson.self).first?.name, "secret-name-in-plaintext?")
        let rekeyed = f.dir.url.appendingPathComponent("rekeyed.strata")
        let key2 = Data(repeating: 9, count: 64)
        try realm.writeCopy(toFile: rekeyed, encryptionKey: key2)
        var cfg2 = f.config("rekeyed.strata"); cfg2.encryptionKey = key2
        XCTAssertEqual(try Realm(configuration: cfg2).objects(APerson.self).count, 1)
        XCTAssertThrowsError(try Realm(configuration: f.config("rekeyed.strata")))
    }

    func testInMemoryRealmsShareDataAcrossThreadsAndVanish() throws {
        let cfg = Realm.Configuration(inMemoryIdentifier: "cfg-\(UUID().uuidString)", objectTypes: [CBlob.self])
        do {
            let realm = try Realm(configuration: cfg)
            try realm.write { let b = CBlob(); b.id = 1; realm.add(b) }
            let seen = Locked(-1)
            let done = expectation(description: "thread")
            Thread.detachNewThread {
                seen.with { $0 = (try? Realm(configuration: cfg))?.objects(CBlob.self).count ?? -2 }
                done.fulfill()
            }
            wait(for: [done], timeout: 10)
            XCTAssertEqual(seen.with { $0 }, 1, "another thread's realm with the identifier sees the data")
            XCTAssertTrue(realm.database.store.isInMemory)
        }
        XCTAssertEqual(try Realm(configuration: cfg).objects(CBlob.self).count, 0, "gone once the last realm closed")
    }
}
