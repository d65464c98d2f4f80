import Foundation
import XCTest
import Strata

/// Issue 15 item 8: Decimal128 arithmetic against known values, ObjectId parts,
/// SortDescriptor's description.
final class ValueCompatTests: XCTestCase {
    func testDecimal128ArithmeticAndComparison() {
        let a: Decimal128 = "1.10", b: Decimal128 = "2.205"
        XCTAssertEqual((a + b).description, "3.305")
        XCTAssertEqual((b - a).description, "1.105")
        XCTAssertEqual((a * b).description, "2.42550", "IEEE 754 keeps the exponent of an exact product")
        XCTAssertEqual((Decimal128(number: 1) / Decimal128(number: 8)).description, "1.25E-1", "realm-core's to_string()")
        XCTAssertEqual(("0.1" as Decimal128) + "0.2", "0.3", "decimal, not binary, arithmetic")
        XCTAssertTrue(a < b && b > a && a <= a && b >= a)
        var c: Decimal128 = 5
        c *= 3; c -= 1; c += "0.5"
        XCTAssertEqual(c, "14.5")
        c.negate()
        XCTAssertEqual(c, "-14.5")
        XCTAssertEqual(c.magnitude, "14.5")
        XCTAssertEqual(-c, "14.5")
        XCTAssertEqual(Decimal128(exactly: 12345678901234), Decimal128(number: 12345678901234))
        XCTAssertEqual(Decimal128(value: "2.5"), "2.5")
        XCTAssertEqual(Decimal128(value: 7), 7)
        XCTAssertEqual(Decimal128(value: 0.25), "0.25")
        XCTAssertEqual(Decimal128(number: NSNumber(value: 42)), 42)
        XCTAssertTrue((Decimal128(number: 0) / Decimal128(number: 0)).isNaN)
        XCTAssertFalse(a.isNaN)
        XCTAssertTrue(Decimal128.min < -1 && Decimal128.max > 1)
        XCTAssertEqual([Decimal128](["1.5", "2.5"]).sum(), 4)
        XCTAssertEqual(a.advanced(by: 1), "2.10")
        XCTAssertEqual(a.distance(to: b), "1.105")
    }

    func testObjectIdFromParts() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let id = ObjectId(timestamp: date, machineId: 0x0A0B0C, processId: 0x0D0E)
        XCTAssertEqual(id.timestamp, date)
        XCTAssertEqual(Array(id.bytes[0..<9]), [0x65, 0x53, 0xF1, 0x00, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E])
        XCTAssertNotEqual(id, ObjectId(timestamp: date, machineId: 0x0A0B0C, processId: 0x0D0E), "the counter part differs")
    }

    func testSortDescriptorDescription() {
        XCTAssertEqual(SortDescriptor(keyPath: "age").description, "SortDescriptor(keyPath: age, direction: ascending)")
        XCTAssertEqual(SortDescriptor(keyPath: "name", ascending: false).description, "SortDescriptor(keyPath: name, direction: descending)")
    }
}

/// Issue 15 items 5, 6, 7 and 9: key-value coding, schema introspection, editing helpers,
/// migrations, the logger.
final class AccessCompatTests: XCTestCase {
    func testKeyValueCodingOnObjectsAndCollections() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let project = CProject()
        project.name = "p"
        project.child = CChild(value: ["note": "n"])
        for n in ["a", "b"] { let d = CDog(); d.name = n; let t = CTask(); t.title = n; project.tasks.append(t); realm.beginWrite(); realm.add(d); try realm.commitWrite() }
        try realm.write { realm.add(project) }
        XCTAssertEqual(project.value(forKey: "name") as? String, "p")
        XCTAssertEqual(project.value(forKeyPath: "child.note") as? String, "n")
        XCTAssertEqual(project.value(forKeyPath: "tasks.title") as? [String], ["a", "b"])
        try realm.write { project.child?.setValue("m", forKey: "note") }
        XCTAssertEqual(project.child?.note, "m")
        let dogs = realm.objects(CDog.self).sorted(byKeyPath: "name")
        XCTAssertEqual(dogs.value(forKey: "name") as? [String], ["a", "b"])
        try realm.write { dogs.setValue(4, forKey: "age") }
        XCTAssertEqual(dogs.map(\.age), [4, 4])
    }

    func testSchemaIntrospection() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let schema = try XCTUnwrap(realm.schema["CProject"])
        let props: [Property] = schema.properties
        XCTAssertEqual(props.map(\.name), ["name", "tasks", "tags", "scores", "counts", "child"])
        XCTAssertTrue(schema["tasks"]!.isArray && schema["tags"]!.isSet && schema["scores"]!.isMap)
        XCTAssertTrue(schema.objectClass == CProject.self)
        XCTAssertEqual(realm.schema.objectSchema.map(\.className), ["CChild", "CDog", "CProject", "CTask"])
        XCTAssertEqual(CProject.primaryKey(), "name")
        XCTAssertNil(CDog.primaryKey())
        XCTAssertEqual(CTask.sharedSchema()?.properties.first { $0.name == "priority" }?.type, .int)
        XCTAssertEqual(CTask.className(), "CTask")
    }

    func testListAndMapEditing() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: compatTypes))
        let project = CProject()
        project.name = "p"
        try realm.write { realm.add(project); project.counts.append(objectsIn: 0..<6) }
        try realm.write { project.counts.remove(atOffsets: IndexSet([1, 3])) }
        XCTAssertEqual(Array(project.counts), [0, 2, 4, 5])
        try realm.write { project.counts.move(fromOffsets: IndexSet([0]), toOffset: 3) }
        XCTAssertEqual(Array(project.counts), [2, 4, 0, 5])
        try realm.write { project.counts.removeSubrange(1..<3) }
        XCTAssertEqual(Array(project.counts), [2, 5])
        try realm.write {
            project.scores["a"] = 1
            project.scores.merge(["a": 10, "b": 2], uniquingKeysWith: +)
        }
        XCTAssertEqual(project.scores["a"], 11)
        XCTAssertEqual(project.scores["b"], 2)
        XCTAssertEqual(project.scores.sum(), 13)
        XCTAssertEqual(project.scores.max(), 11)
        XCTAssertEqual(project.scores.sorted(), [2, 11])
    }

    func testNonThrowingMigrationBlockAndCreateWithArray() throws {
        let dir = CompatDir()
        let url = dir.url.appendingPathComponent("m.strata")
        do { _ = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [CDog.self])) }
        var calls = 0
        // A non-throwing, non-Sendable block, as RealmSwift code declares it.
        let block: (Migration, UInt64) -> Void = { migration, oldVersion in
            calls += 1
            XCTAssertEqual(oldVersion, 0)
            migration.create("CDog", value: ["Made", 7])
        }
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 1, migrationBlock: block, objectTypes: [CDog.self]))
            XCTAssertEqual(calls, 1)
            XCTAssertEqual(realm.objects(CDog.self).first?.name, "Made")
            XCTAssertEqual(realm.objects(CDog.self).first?.age, 7)
        }

        // Dynamic member lookup on migration objects, as RealmSwift migrations write it.
        let v2 = Realm.Configuration(fileURL: url, schemaVersion: 2, migrationBlock: { migration, _ in
            migration.enumerateObjects(ofType: "CDog") { old, new in
                let name = old?.name as? String ?? ""
                new?.name = name + "!"
                new?.age = (old?.age as? Int ?? 0) + 1
            }
        }, objectTypes: [CDog.self])
        let migrated = try Realm(configuration: v2)
        XCTAssertEqual(migrated.objects(CDog.self).first?.name, "Made!")
        XCTAssertEqual(migrated.objects(CDog.self).first?.age, 8)
    }

    func testLoggerLevels() {
        let saved = Realm.Logger.shared
        defer { Realm.Logger.shared = saved }
        var got: [(Logger.Level, String)] = []
        Logger.shared = Logger(level: .info) { got.append(($0, $1)) }
        Logger.shared.log(level: .debug, message: "dropped")
        Logger.shared.log(level: .error, message: "kept")
        XCTAssertEqual(got.map(\.1), ["kept"])
        _ = try? schemaVersionAtURL(URL(fileURLWithPath: "/nonexistent/x.strata"))
        XCTAssertFalse(got.contains { $0.1.contains("/nonexistent/x.strata") }, "open failures are logged at .detail")
        Logger.shared.level = .detail
        _ = try? schemaVersionAtURL(URL(fileURLWithPath: "/nonexistent/x.strata"))
        XCTAssertTrue(got.contains { $0.0 == .detail && $0.1.contains("/nonexistent/x.strata") }, "\(got)")
        Logger.shared.level = .off
        Logger.shared.log(level: .fatal, message: "off")
        XCTAssertFalse(got.contains { $0.1 == "off" })
    }
}
