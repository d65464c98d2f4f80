import Foundation
import XCTest
import Strata

/// A model declaring its primary key and indexes the pre-`@Persisted(primaryKey:)` way, as
/// realm-swift's own test models still do.
final class LegacyKeyedObject: Object {
    @Persisted var code = ""
    @Persisted var name = ""
    @Persisted var count = 0
    var scratch = 0
    override class func primaryKey() -> String? { "code" }
    override class func indexedProperties() -> [String] { ["name"] }
    override class func ignoredProperties() -> [String] { ["scratch"] }
}

/// Focused checks of the gaps the realm-swift ports (Ported*Tests) found, one per fix.
final class PortedGapsCompatTests: TestCase {
    private var realm: Realm { try! Realm(configuration: configurationWithTestPath()) }
    private func config() -> Realm.Configuration {
        configurationWithTestPath(configuration: Realm.Configuration(objectTypes: portedObjectTypes + [LegacyKeyedObject.self]))
    }

    func testPrimaryKeyAndIndexedPropertiesOverridesAreTheSchema() throws {
        XCTAssertEqual(LegacyKeyedObject.primaryKey(), "code")
        XCTAssertEqual(LegacyKeyedObject.sharedSchema()?.primaryKeyProperty?.name, "code")
        XCTAssertEqual(LegacyKeyedObject.indexedProperties(), ["name"])
        XCTAssertEqual(LegacyKeyedObject.sharedSchema()?["name"]?.isIndexed, true)
        XCTAssertEqual(ModernPrimaryStringObject.primaryKey(), "pk", "@Persisted(primaryKey:) still answers")
        let realm = try Realm(configuration: config())
        try realm.write {
            realm.add(LegacyKeyedObject(value: ["code": "a", "name": "x", "count": 1]))
            realm.add(LegacyKeyedObject(value: ["code": "a", "name": "y", "count": 2]), update: .modified)
        }
        XCTAssertEqual(realm.objects(LegacyKeyedObject.self).count, 1)
        XCTAssertEqual(realm.object(ofType: LegacyKeyedObject.self, forPrimaryKey: "a")?.count, 2)
    }

    func testEmbeddedObjectIsSameObject() throws {
        let realm = self.realm
        try realm.write {
            realm.create(ModernEmbeddedParentObject.self, value: ["object": ["value": 5]])
        }
        let parent = try XCTUnwrap(realm.objects(ModernEmbeddedParentObject.self).first)
        XCTAssertTrue(parent.object!.isSameObject(as: parent.object!))
        XCTAssertFalse(parent.object!.isSameObject(as: ModernEmbeddedTreeObject1()))
        XCTAssertFalse(parent.object!.isSameObject(as: nil))
    }

    func testValuesTheTypeRejectsReadAsNilInOptionalContexts() throws {
        let unmanaged = ModernAllTypesObject()
        unmanaged["optIntEnumCol"] = 10
        XCTAssertNil(unmanaged.optIntEnumCol)
        let realm = self.realm
        realm.beginWrite()
        let obj = realm.create(ModernAllTypesObject.self)
        obj["optIntEnumCol"] = 10
        obj["optStringEnumCol"] = "zz"
        XCTAssertNil(obj.optIntEnumCol)
        XCTAssertNil(obj.optStringEnumCol)
        let enums = realm.create(ModernCollectionsOfEnums.self)
        enums.setValue([10, 2], forKey: "listIntOpt")
        XCTAssertEqual(Array(enums.listIntOpt), [nil, .value2])
        let failable = realm.create(FailableCustomObject.self)
        failable["optInt"] = 1
        XCTAssertNil(failable.optInt)
        failable["optInt"] = 2
        XCTAssertEqual(failable.optInt?.persistableValue, 2)
        realm.cancelWrite()
    }

    func testKeyValueCodingReadsTheStoredRepresentation() throws {
        let obj = ModernAllTypesObject()
        obj.intEnumCol = .value2
        obj.stringEnumCol = .value3
        obj.anyCol = .string("s")
        XCTAssertEqual(obj["intEnumCol"] as? Int, 3)
        XCTAssertEqual(obj.value(forKey: "stringEnumCol") as? String, "e")
        XCTAssertEqual(obj["anyCol"] as? String, "s")
        obj.anyCol = .none
        XCTAssertNil(obj["anyCol"])
        let f = FailableCustomObject()
        f["int"] = 7
        XCTAssertEqual(f["int"] as? Int, 7)
    }

    func testDecimal128PropertiesTakeNumbersAndStringsThroughKeyValueCoding() throws {
        let obj = ModernAllTypesObject()
        obj["decimalCol"] = 2.5 as Float
        XCTAssertEqual(obj.decimalCol, Decimal128(value: 2.5 as Float))
        obj["decimalCol"] = "4.4"
        XCTAssertEqual(obj.decimalCol, "4.4")
        obj["optDecimalCol"] = Decimal(5.5)
        XCTAssertEqual(obj.optDecimalCol, 5.5)
        obj.setValue(3 as Int8, forKey: "decimalCol")
        XCTAssertEqual(obj.decimalCol, 3)
    }

    func testAssigningACollectionCopiesIntoTheOneTheObjectHas() {
        let obj = ModernAllTypesObject()
        let list = obj.arrayInt, set = obj.setString, map = obj.mapInt
        let other = List<Int>(); other.append(objectsIn: [1, 2])
        obj.arrayInt = other
        XCTAssertTrue(obj.arrayInt === list)
        XCTAssertEqual(Array(list), [1, 2])
        other.append(3)
        XCTAssertEqual(Array(obj.arrayInt), [1, 2], "a copy, not the assigned list")
        let s = MutableSet<String>(); s.insert("a")
        obj.setString = s
        XCTAssertEqual(Array(set), ["a"])
        obj.setValue(["k": 4], forKey: "mapInt")
        XCTAssertEqual(map["k"], 4)
        XCTAssertTrue(obj.mapInt === map)
    }

    func testCollectionsObtainedBeforeAddWriteToTheRealm() throws {
        let obj = ModernAllTypesObject()
        let list = obj.arrayInt
        list.append(1)
        let realm = self.realm
        try realm.write { realm.add(obj) }
        XCTAssertNotNil(list.realm)
        try realm.write { list.append(2) }
        XCTAssertEqual(Array(obj.arrayInt), [1, 2])
    }

    func testARealmInAWriteStaysOpenWithoutReferences() throws {
        let c = config()
        try Realm(configuration: c).beginWrite()
        try Realm(configuration: c).add(ModernPrimaryStringObject(value: ["a"]))
        XCTAssertTrue(try Realm(configuration: c).isInWriteTransaction)
        try Realm(configuration: c).commitWrite()
        XCTAssertEqual(try Realm(configuration: c).objects(ModernPrimaryStringObject.self).count, 1)
        XCTAssertFalse(try Realm(configuration: c).isInWriteTransaction)
    }

    func testAddModifiedUpdatesEmbeddedObjectsInPlace() throws {
        let realm = self.realm
        realm.beginWrite()
        let first = ModernEmbeddedPrimaryParentObject(value: ["pk": 1, "object": ["value": 1], "array": [[2], [3]]])
        realm.add(first)
        let oldChild = first.object!, oldElement = first.array[0]
        realm.add(ModernEmbeddedPrimaryParentObject(value: ["pk": 1, "object": ["value": 10], "array": [[20]]]), update: .modified)
        XCTAssertFalse(oldChild.isInvalidated)
        XCTAssertEqual(oldChild.value, 10)
        XCTAssertEqual(oldElement.value, 20)
        XCTAssertEqual(first.array.count, 1)
        realm.add(ModernEmbeddedPrimaryParentObject(value: ["pk": 1, "object": ["value": 7]]), update: .all)
        XCTAssertTrue(oldChild.isInvalidated, ".all still replaces them")
        XCTAssertEqual(first.object?.value, 7)
        realm.cancelWrite()
    }

    func testCreateCopiesManagedEmbeddedObjectsOfTheSameRealm() throws {
        let realm = self.realm
        realm.beginWrite()
        let parent = realm.create(ModernEmbeddedParentObject.self, value: ["object": ["value": 5], "array": [[9]]])
        let copy = realm.create(ModernEmbeddedParentObject.self, value: parent)
        XCTAssertEqual(copy.object?.value, 5)
        XCTAssertEqual(copy.array.first?.value, 9)
        XCTAssertFalse(copy.object!.isSameObject(as: parent.object))
        XCTAssertEqual(parent.object?.value, 5)
        realm.cancelWrite()
    }
}
