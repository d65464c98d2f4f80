// Ported from realm-swift (https://github.com/realm/realm-swift, commit c22f930):
//   RealmSwift/Tests/ObjectSchemaInitializationTests.swift and the models it uses from
//   SwiftTestObjects.swift.
// Copyright 2014 Realm Inc., licensed under the Apache License, Version 2.0
// (http://www.apache.org/licenses/LICENSE-2.0). Changed for Strata: `import Strata` instead of
// `import RealmSwift`/`Realm.Private`/`Realm.Dynamic`; the shared models are in
// PortedTestObjects.swift (`// MARK: rsport3`), the ones only this file uses are below, declared
// with `@Persisted` (realm-swift uses `@objc dynamic var`, Objective-C). Other changes inline.
//
// Left out, and why:
// - testInvalidObjects, testNonRealmOptionalTypesDeclaredAsRealmOptional,
//   testMultiplePrimaryKeys: each is `assertThrows(RLMObjectSchema(forObjectClass:))` on a class
//   whose `@objc dynamic` properties Objective-C cannot store (NSURL, AnyObject, Swift arrays,
//   lazy properties, two primary keys); Strata models only store `@Persisted` properties, and a
//   type it cannot store does not compile (`@Persisted var x: [String]` has no `_Persistable`).
//   The part of testInvalidObjects that is not an exception check (a subclass's schema holds its
//   superclass's properties) is kept as testSubclassSchemaHoldsSuperclassProperties.
// - testOptionalProperties: `RLMObjectSchema(forObjectClass:)` and `RLMProperty.optional`
//   (Objective-C); the same check is made through `objectSchema` in
//   testOptionalPropertiesThroughObjectSchema.
// - testImplicitlyUnwrappedOptionalsAreParsedAsOptionals: `@objc dynamic var x: T!`
//   (Objective-C properties); `@Persisted` implicitly unwrapped optionals are covered by
//   ModernImplicitlyUnwrappedOptionalObject in the other ported tests.
// - testCustomIndexableTypes and the `#if DEBUG` tests (testPropertyPopulation,
//   testModernPropertyPopulation, testCustomIndexed, testCustomPrimary, …): they call
//   RealmSwift's internal `RLMProperty(name:value:)`, `_Persistable` and `SchemaDiscoverable`
//   through `@testable import`.

import Foundation
import XCTest
import Strata

class ObjectSchemaInitializationTests: RSPort3TestCase {
    func testAllValidTypes() {
        let object = SwiftObject()
        let objectSchema = object.objectSchema

        let noSuchCol = objectSchema["noSuchCol"]
        XCTAssertNil(noSuchCol)

        let boolCol = objectSchema["boolCol"]
        XCTAssertNotNil(boolCol)
        XCTAssertEqual(boolCol!.name, "boolCol")
        XCTAssertEqual(boolCol!.type, PropertyType.bool)
        XCTAssertFalse(boolCol!.isIndexed)
        XCTAssertFalse(boolCol!.isOptional)
        XCTAssertNil(boolCol!.objectClassName)

        let intCol = objectSchema["intCol"]
        XCTAssertNotNil(intCol)
        XCTAssertEqual(intCol!.name, "intCol")
        XCTAssertEqual(intCol!.type, PropertyType.int)
        XCTAssertFalse(intCol!.isIndexed)
        XCTAssertFalse(intCol!.isOptional)
        XCTAssertNil(intCol!.objectClassName)

        let floatCol = objectSchema["floatCol"]
        XCTAssertNotNil(floatCol)
        XCTAssertEqual(floatCol!.name, "floatCol")
        XCTAssertEqual(floatCol!.type, PropertyType.float)
        XCTAssertFalse(floatCol!.isIndexed)
        XCTAssertFalse(floatCol!.isOptional)
        XCTAssertNil(floatCol!.objectClassName)

        let doubleCol = objectSchema["doubleCol"]
        XCTAssertNotNil(doubleCol)
        XCTAssertEqual(doubleCol!.name, "doubleCol")
        XCTAssertEqual(doubleCol!.type, PropertyType.double)
        XCTAssertFalse(doubleCol!.isIndexed)
        XCTAssertFalse(doubleCol!.isOptional)
        XCTAssertNil(doubleCol!.objectClassName)

        let stringCol = objectSchema["stringCol"]
        XCTAssertNotNil(stringCol)
        XCTAssertEqual(stringCol!.name, "stringCol")
        XCTAssertEqual(stringCol!.type, PropertyType.string)
        XCTAssertFalse(stringCol!.isIndexed)
        XCTAssertFalse(stringCol!.isOptional)
        XCTAssertNil(stringCol!.objectClassName)

        let binaryCol = objectSchema["binaryCol"]
        XCTAssertNotNil(binaryCol)
        XCTAssertEqual(binaryCol!.name, "binaryCol")
        XCTAssertEqual(binaryCol!.type, PropertyType.data)
        XCTAssertFalse(binaryCol!.isIndexed)
        XCTAssertFalse(binaryCol!.isOptional)
        XCTAssertNil(binaryCol!.objectClassName)

        let dateCol = objectSchema["dateCol"]
        XCTAssertNotNil(dateCol)
        XCTAssertEqual(dateCol!.name, "dateCol")
        XCTAssertEqual(dateCol!.type, PropertyType.date)
        XCTAssertFalse(dateCol!.isIndexed)
        XCTAssertFalse(dateCol!.isOptional)
        XCTAssertNil(dateCol!.objectClassName)

        let uuidCol = objectSchema["uuidCol"]
        XCTAssertNotNil(uuidCol)
        XCTAssertEqual(uuidCol!.name, "uuidCol")
        XCTAssertEqual(uuidCol!.type, PropertyType.UUID)
        XCTAssertFalse(uuidCol!.isIndexed)
        XCTAssertFalse(uuidCol!.isOptional)
        XCTAssertNil(uuidCol!.objectClassName)

        let anyCol = objectSchema["anyCol"]
        XCTAssertNotNil(anyCol)
        XCTAssertEqual(anyCol!.name, "anyCol")
        XCTAssertEqual(anyCol!.type, PropertyType.any)
        XCTAssertFalse(anyCol!.isIndexed)
        // Strata change: an `AnyRealmValue` property reports `isOptional` true (it holds nil,
        // and the file's schema records it so); RealmSwift reports false. Listed in
        // docs/COMPATIBILITY.md.
        XCTAssertTrue(anyCol!.isOptional)
        XCTAssertNil(anyCol!.objectClassName)

        let objectCol = objectSchema["objectCol"]
        XCTAssertNotNil(objectCol)
        XCTAssertEqual(objectCol!.name, "objectCol")
        XCTAssertEqual(objectCol!.type, PropertyType.object)
        XCTAssertFalse(objectCol!.isIndexed)
        XCTAssertTrue(objectCol!.isOptional)
        XCTAssertEqual(objectCol!.objectClassName!, "SwiftBoolObject")

        let arrayCol = objectSchema["arrayCol"]
        XCTAssertNotNil(arrayCol)
        XCTAssertEqual(arrayCol!.name, "arrayCol")
        XCTAssertEqual(arrayCol!.type, PropertyType.object)
        XCTAssertTrue(arrayCol!.isArray)
        XCTAssertFalse(arrayCol!.isIndexed)
        XCTAssertFalse(arrayCol!.isOptional)
        XCTAssertEqual(objectCol!.objectClassName!, "SwiftBoolObject")

        let setCol = objectSchema["setCol"]
        XCTAssertNotNil(setCol)
        XCTAssertEqual(setCol!.name, "setCol")
        XCTAssertEqual(setCol!.type, PropertyType.object)
        XCTAssertTrue(setCol!.isSet)
        XCTAssertFalse(setCol!.isIndexed)
        XCTAssertFalse(setCol!.isOptional)
        XCTAssertEqual(setCol!.objectClassName!, "SwiftBoolObject")

        let dynamicArrayCol = SwiftCompanyObject().objectSchema["employees"]
        XCTAssertNotNil(dynamicArrayCol)
        XCTAssertEqual(dynamicArrayCol!.name, "employees")
        XCTAssertEqual(dynamicArrayCol!.type, PropertyType.object)
        XCTAssertTrue(dynamicArrayCol!.isArray)
        XCTAssertFalse(dynamicArrayCol!.isIndexed)
        XCTAssertFalse(dynamicArrayCol!.isOptional)
        XCTAssertEqual(dynamicArrayCol!.objectClassName!, "SwiftEmployeeObject")

        let dynamicSetCol = SwiftCompanyObject().objectSchema["employeeSet"]
        XCTAssertNotNil(dynamicSetCol)
        XCTAssertEqual(dynamicSetCol!.name, "employeeSet")
        XCTAssertEqual(dynamicSetCol!.type, PropertyType.object)
        XCTAssertTrue(dynamicSetCol!.isSet)
        XCTAssertFalse(dynamicSetCol!.isIndexed)
        XCTAssertFalse(dynamicSetCol!.isOptional)
        XCTAssertEqual(dynamicSetCol!.objectClassName!, "SwiftEmployeeObject")
    }

    func testSubclassSchemaHoldsSuperclassProperties() {
        let schema = SwiftFakeObjectSubclass.sharedSchema()!
        XCTAssertEqual(schema.properties.count, 2)
    }

    func testPrimaryKey() {
        XCTAssertNil(SwiftObject().objectSchema.primaryKeyProperty,
            "Object should default to having no primary key property")
        XCTAssertEqual(SwiftPrimaryStringObject().objectSchema.primaryKeyProperty!.name, "stringCol")
    }

    func testIgnoredProperties() {
        let schema = SwiftIgnoredPropertiesObject().objectSchema
        XCTAssertNil(schema["runtimeProperty"], "The object schema shouldn't contain ignored properties")
        XCTAssertNil(schema["runtimeDefaultProperty"], "The object schema shouldn't contain ignored properties")
        XCTAssertNil(schema["readOnlyProperty"], "The object schema shouldn't contain read-only properties")
    }

    func testIndexedProperties() {
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["stringCol"]!.isIndexed)
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["intCol"]!.isIndexed)
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["int8Col"]!.isIndexed)
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["int16Col"]!.isIndexed)
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["int32Col"]!.isIndexed)
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["int64Col"]!.isIndexed)
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["boolCol"]!.isIndexed)
        XCTAssertTrue(SwiftIndexedPropertiesObject().objectSchema["dateCol"]!.isIndexed)

        XCTAssertFalse(SwiftIndexedPropertiesObject().objectSchema["floatCol"]!.isIndexed)
        XCTAssertFalse(SwiftIndexedPropertiesObject().objectSchema["doubleCol"]!.isIndexed)
        XCTAssertFalse(SwiftIndexedPropertiesObject().objectSchema["dataCol"]!.isIndexed)
    }

    func testOptionalPropertiesThroughObjectSchema() {
        // Strata change: through `objectSchema` (RealmSwift: `RLMObjectSchema(forObjectClass:)`).
        let schema = SwiftOptionalObject().objectSchema

        for prop in schema.properties {
            XCTAssertTrue(prop.isOptional)
        }

        let types = Set(schema.properties.map { $0.type })
        XCTAssertEqual(types, Set([.string, .string, .data, .date, .object, .int,
                                   .float, .double, .bool, .decimal128, .objectId, .UUID]))
    }

    func testNotExplicitlyIgnoredComputedProperties() {
        let schema = SwiftComputedPropertyNotIgnoredObject().objectSchema
        // The two computed properties should not appear on the schema.
        XCTAssertEqual(schema.properties.count, 1)
        XCTAssertNotNil(schema["_urlBacking"])
    }

    func testModernIndexableTypes() {
        let indexed = ModernAllIndexableTypesObject().objectSchema
        for property in indexed.properties {
            XCTAssertTrue(property.isIndexed)
        }
        let notIndexed = ModernAllIndexableButNotIndexedObject().objectSchema
        for property in notIndexed.properties {
            XCTAssertFalse(property.isIndexed)
        }
    }

}

class SwiftFakeObject: Object {
    // Strata change: `_realmIgnoreClass()` (keeps the class out of RealmSwift's default schema)
    // is not overridden: Strata's schema holds the classes a configuration lists.
    @Persisted var requiredProp: String?
}

class SwiftFakeObjectSubclass: SwiftFakeObject {
    @Persisted var dateCol = Date()
}

class SwiftIgnoredPropertiesObject: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    // Strata change: `AnyObject?` is not a `@Persisted` type; ignored properties are plain
    // Swift properties, which Strata does not store whether or not `ignoredProperties` names them.
    var runtimeProperty: AnyObject?
    var runtimeDefaultProperty = "property"
    var readOnlyProperty: Int { return 0 }

    override class func ignoredProperties() -> [String] {
        return ["runtimeProperty", "runtimeDefaultProperty"]
    }
}

class SwiftIndexedPropertiesObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0
    @Persisted var int8Col: Int8 = 0
    @Persisted var int16Col: Int16 = 0
    @Persisted var int32Col: Int32 = 0
    @Persisted var int64Col: Int64 = 0
    @Persisted var boolCol = false
    @Persisted var dateCol = Date()
    @Persisted var uuidCol = UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!

    @Persisted var floatCol: Float = 0.0
    @Persisted var doubleCol: Double = 0.0
    @Persisted var dataCol = Data()

    @Persisted var anyCol: AnyRealmValue

    // Strata change: "anyCol" left out of the list: Strata cannot index an `AnyRealmValue`
    // property yet (the schema is refused; listed in docs/COMPATIBILITY.md), and a configuration
    // without `objectTypes` takes every class seen, this one included.
    override class func indexedProperties() -> [String] {
        return ["stringCol", "intCol", "int8Col", "int16Col",
                "int32Col", "int64Col", "boolCol", "dateCol", "uuidCol"]
    }
}

class SwiftComputedPropertyNotIgnoredObject: Object {
    @Persisted var _urlBacking = ""

    // Strata change: `@objc dynamic` left out (Objective-C); a computed property either way.
    var dynamicURL: URL? {
        get {
            return URL(string: _urlBacking)
        }
        set {
            _urlBacking = newValue?.absoluteString ?? ""
        }
    }

    // Non-dynamic; no ivar
    var url: URL? {
        get {
            return URL(string: _urlBacking)
        }
        set {
            _urlBacking = newValue?.absoluteString ?? ""
        }
    }
}
