// Ported from realm-swift (https://github.com/realm/realm-swift, commit c22f930):
//   RealmSwift/Tests/ModernTestObjects.swift, TestCase.swift, TestValueFactory.swift (enums),
//   CustomPersistableTestObjects.swift (IntFailableWrapper, FailableCustomObject),
//   SwiftTestObjects.swift (SwiftPrimaryStringObject, SwiftLinkToPrimaryStringObject).
// Copyright 2014-2021 Realm Inc., licensed under the Apache License, Version 2.0
// (http://www.apache.org/licenses/LICENSE-2.0). Changed for Strata: `import Strata`, the
// `TestCase` base class rewritten on XCTestCase (RealmSwift's rests on an Objective-C
// RLMTestCaseBase), and the pieces noted inline.

import Foundation
import XCTest
import Strata

// MARK: - TestCase.swift

func inMemoryRealm(_ inMememoryIdentifier: String) -> Realm {
    return try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: inMememoryIdentifier,
                                                         objectTypes: portedObjectTypes))
}

/// Objective-C's autorelease pool: Swift on Linux has no Objective-C runtime, so it only runs
/// `body` (releases happen when the last reference goes, as ARC does).
func autoreleasepool<Result>(invoking body: () throws -> Result) rethrows -> Result {
    try body()
}

/// RealmSwift's test base: a fresh directory per test, the default configuration pointing into
/// it. Strata change: the configuration lists `objectTypes` (Swift on Linux cannot enumerate
/// subclasses of `Object`); exception assertions (`assertThrows`) are not available because
/// Strata traps where RealmSwift throws an Objective-C exception.
class TestCase: XCTestCase {
    var testDir: String! = nil
    let queue = DispatchQueue(label: "background")
    private var savedDefault: Realm.Configuration?

    func configurationWithTestPath(configuration: Realm.Configuration = Realm.Configuration()) -> Realm.Configuration {
        var configuration = configuration
        configuration.fileURL = testRealmURL()
        if configuration.objectTypes == nil { configuration.objectTypes = portedObjectTypes }
        return configuration
    }

    @discardableResult
    func realmWithTestPath(configuration: Realm.Configuration = Realm.Configuration()) -> Realm {
        return try! Realm(configuration: configurationWithTestPath(configuration: configuration))
    }

    override func setUp() {
        super.setUp()
        testDir = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-ported-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(at: URL(fileURLWithPath: testDir, isDirectory: true),
                                                 withIntermediateDirectories: true, attributes: nil)
        savedDefault = Realm.Configuration.defaultConfiguration
        Realm.Configuration.defaultConfiguration = Realm.Configuration(fileURL: defaultRealmURL(),
                                                                       objectTypes: portedObjectTypes)
    }

    override func tearDown() {
        queue.sync { }
        if let saved = savedDefault { Realm.Configuration.defaultConfiguration = saved }
        try? FileManager.default.removeItem(atPath: testDir)
        super.tearDown()
    }

    func dispatchSyncNewThread(block: @Sendable @escaping () -> Void) {
        queue.async { block() }
        queue.sync { }
    }

    func dispatchSyncBackground(block: @Sendable @escaping (TestCase) -> Void) {
        nonisolated(unsafe) let unsafeSelf = self
        queue.async { block(unsafeSelf) }
        queue.sync { }
    }

    /// RealmSwift's check that `block` throws an Objective-C exception. Strata traps where
    /// RealmSwift throws, and a trap cannot be caught in-process: tests that need this are
    /// skipped before they get here, and reaching it fails the test.
    func assertThrows<T>(_ block: @autoclosure () -> T, reason: String, _ message: String? = nil,
                         fileName: StaticString = #filePath, lineNumber: UInt = #line) {
        XCTFail("assertThrows (reason: \(reason)) cannot be checked under Strata, which traps", file: fileName, line: lineNumber)
    }

    internal func testRealmURL() -> URL { realmURLForFile("test.realm") }
    internal func defaultRealmURL() -> URL { realmURLForFile("default.realm") }
    private func realmURLForFile(_ fileName: String) -> URL {
        URL(fileURLWithPath: testDir, isDirectory: true).appendingPathComponent(fileName, isDirectory: false)
    }
}

// MARK: - ModernTestObjects.swift

class ModernAllTypesObject: Object {
    @Persisted(primaryKey: true) var pk: ObjectId
    var ignored: Int = 1

    @Persisted var boolCol: Bool
    @Persisted var intCol: Int
    @Persisted var int8Col: Int8 = 1
    @Persisted var int16Col: Int16 = 2
    @Persisted var int32Col: Int32 = 3
    @Persisted var int64Col: Int64 = 4
    @Persisted var floatCol: Float = 5
    @Persisted var doubleCol: Double = 6
    @Persisted var stringCol: String
    @Persisted var binaryCol: Data
    @Persisted var dateCol: Date
    @Persisted var decimalCol: Decimal128
    @Persisted var objectIdCol: ObjectId
    @Persisted var objectCol: ModernAllTypesObject?
    @Persisted var arrayCol: List<ModernAllTypesObject>
    @Persisted var setCol: MutableSet<ModernAllTypesObject>
    @Persisted var mapCol: Map<String, ModernAllTypesObject?>
    @Persisted var anyCol: AnyRealmValue
    @Persisted var uuidCol: UUID
    @Persisted var intEnumCol: ModernIntEnum
    @Persisted var stringEnumCol: ModernStringEnum

    @Persisted var optIntCol: Int?
    @Persisted var optInt8Col: Int8?
    @Persisted var optInt16Col: Int16?
    @Persisted var optInt32Col: Int32?
    @Persisted var optInt64Col: Int64?
    @Persisted var optFloatCol: Float?
    @Persisted var optDoubleCol: Double?
    @Persisted var optBoolCol: Bool?
    @Persisted var optStringCol: String?
    @Persisted var optBinaryCol: Data?
    @Persisted var optDateCol: Date?
    @Persisted var optDecimalCol: Decimal128?
    @Persisted var optObjectIdCol: ObjectId?
    @Persisted var optUuidCol: UUID?
    @Persisted var optIntEnumCol: ModernIntEnum?
    @Persisted var optStringEnumCol: ModernStringEnum?

    @Persisted var arrayBool: List<Bool>
    @Persisted var arrayInt: List<Int>
    @Persisted var arrayInt8: List<Int8>
    @Persisted var arrayInt16: List<Int16>
    @Persisted var arrayInt32: List<Int32>
    @Persisted var arrayInt64: List<Int64>
    @Persisted var arrayFloat: List<Float>
    @Persisted var arrayDouble: List<Double>
    @Persisted var arrayString: List<String>
    @Persisted var arrayBinary: List<Data>
    @Persisted var arrayDate: List<Date>
    @Persisted var arrayDecimal: List<Decimal128>
    @Persisted var arrayObjectId: List<ObjectId>
    @Persisted var arrayAny: List<AnyRealmValue>
    @Persisted var arrayUuid: List<UUID>

    @Persisted var arrayOptBool: List<Bool?>
    @Persisted var arrayOptInt: List<Int?>
    @Persisted var arrayOptInt8: List<Int8?>
    @Persisted var arrayOptInt16: List<Int16?>
    @Persisted var arrayOptInt32: List<Int32?>
    @Persisted var arrayOptInt64: List<Int64?>
    @Persisted var arrayOptFloat: List<Float?>
    @Persisted var arrayOptDouble: List<Double?>
    @Persisted var arrayOptString: List<String?>
    @Persisted var arrayOptBinary: List<Data?>
    @Persisted var arrayOptDate: List<Date?>
    @Persisted var arrayOptDecimal: List<Decimal128?>
    @Persisted var arrayOptObjectId: List<ObjectId?>
    @Persisted var arrayOptUuid: List<UUID?>

    @Persisted var setBool: MutableSet<Bool>
    @Persisted var setInt: MutableSet<Int>
    @Persisted var setInt8: MutableSet<Int8>
    @Persisted var setInt16: MutableSet<Int16>
    @Persisted var setInt32: MutableSet<Int32>
    @Persisted var setInt64: MutableSet<Int64>
    @Persisted var setFloat: MutableSet<Float>
    @Persisted var setDouble: MutableSet<Double>
    @Persisted var setString: MutableSet<String>
    @Persisted var setBinary: MutableSet<Data>
    @Persisted var setDate: MutableSet<Date>
    @Persisted var setDecimal: MutableSet<Decimal128>
    @Persisted var setObjectId: MutableSet<ObjectId>
    @Persisted var setAny: MutableSet<AnyRealmValue>
    @Persisted var setUuid: MutableSet<UUID>

    @Persisted var setOptBool: MutableSet<Bool?>
    @Persisted var setOptInt: MutableSet<Int?>
    @Persisted var setOptInt8: MutableSet<Int8?>
    @Persisted var setOptInt16: MutableSet<Int16?>
    @Persisted var setOptInt32: MutableSet<Int32?>
    @Persisted var setOptInt64: MutableSet<Int64?>
    @Persisted var setOptFloat: MutableSet<Float?>
    @Persisted var setOptDouble: MutableSet<Double?>
    @Persisted var setOptString: MutableSet<String?>
    @Persisted var setOptBinary: MutableSet<Data?>
    @Persisted var setOptDate: MutableSet<Date?>
    @Persisted var setOptDecimal: MutableSet<Decimal128?>
    @Persisted var setOptObjectId: MutableSet<ObjectId?>
    @Persisted var setOptUuid: MutableSet<UUID?>

    @Persisted var mapBool: Map<String, Bool>
    @Persisted var mapInt: Map<String, Int>
    @Persisted var mapInt8: Map<String, Int8>
    @Persisted var mapInt16: Map<String, Int16>
    @Persisted var mapInt32: Map<String, Int32>
    @Persisted var mapInt64: Map<String, Int64>
    @Persisted var mapFloat: Map<String, Float>
    @Persisted var mapDouble: Map<String, Double>
    @Persisted var mapString: Map<String, String>
    @Persisted var mapBinary: Map<String, Data>
    @Persisted var mapDate: Map<String, Date>
    @Persisted var mapDecimal: Map<String, Decimal128>
    @Persisted var mapObjectId: Map<String, ObjectId>
    @Persisted var mapAny: Map<String, AnyRealmValue>
    @Persisted var mapUuid: Map<String, UUID>

    @Persisted var mapOptBool: Map<String, Bool?>
    @Persisted var mapOptInt: Map<String, Int?>
    @Persisted var mapOptInt8: Map<String, Int8?>
    @Persisted var mapOptInt16: Map<String, Int16?>
    @Persisted var mapOptInt32: Map<String, Int32?>
    @Persisted var mapOptInt64: Map<String, Int64?>
    @Persisted var mapOptFloat: Map<String, Float?>
    @Persisted var mapOptDouble: Map<String, Double?>
    @Persisted var mapOptString: Map<String, String?>
    @Persisted var mapOptBinary: Map<String, Data?>
    @Persisted var mapOptDate: Map<String, Date?>
    @Persisted var mapOptDecimal: Map<String, Decimal128?>
    @Persisted var mapOptObjectId: Map<String, ObjectId?>
    @Persisted var mapOptUuid: Map<String, UUID?>

    @Persisted(originProperty: "objectCol")
    var linkingObjects: LinkingObjects<ModernAllTypesObject>
}

class LinkToModernAllTypesObject: Object {
    @Persisted var object: ModernAllTypesObject?
    @Persisted var list: List<ModernAllTypesObject>
    @Persisted var set: MutableSet<ModernAllTypesObject>
    @Persisted var map: Map<String, ModernAllTypesObject?>
}

enum ModernIntEnum: Int, Codable, PersistableEnum {
    case value1 = 1
    case value2 = 3
    case value3 = 5
}
enum ModernStringEnum: String, Codable, PersistableEnum {
    case value1 = "a"
    case value2 = "c"
    case value3 = "e"
    case value4 = "Foó"
}

class ModernImplicitlyUnwrappedOptionalObject: Object {
    @Persisted var optStringCol: String!
    @Persisted var optBinaryCol: Data!
    @Persisted var optDateCol: Date!
    @Persisted var optDecimalCol: Decimal128!
    @Persisted var optObjectIdCol: ObjectId!
    @Persisted var optObjectCol: ModernImplicitlyUnwrappedOptionalObject!
    @Persisted var optUuidCol: UUID!
}

class ModernLinkToPrimaryStringObject: Object {
    @Persisted var pk = ""
    @Persisted var object: ModernPrimaryStringObject?
    @Persisted var objects: List<ModernPrimaryStringObject>

    override class func primaryKey() -> String? {
        return "pk"
    }
}

class ModernUTF8Object: Object {
    // swiftlint:disable:next identifier_name
    @Persisted var 柱колоéнǢкƱаم👍 = "值значен™👍☞⎠‱௹♣︎☐▼❒∑⨌⧭иеمرحبا"
}

protocol ModernPrimaryKeyObject: Object {
    associatedtype PrimaryKey: Equatable
    var pk: PrimaryKey { get set }
}

class ModernPrimaryStringObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: String
}

class ModernPrimaryOptionalStringObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: String?
}

class ModernPrimaryIntObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int
}

class ModernPrimaryOptionalIntObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int?
}

class ModernPrimaryInt8Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int8
}

class ModernPrimaryOptionalInt8Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int8?
}

class ModernPrimaryInt16Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int16
}

class ModernPrimaryOptionalInt16Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int16?
}

class ModernPrimaryInt32Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int32
}

class ModernPrimaryOptionalInt32Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int32?
}

class ModernPrimaryInt64Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int64
}

class ModernPrimaryOptionalInt64Object: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: Int64?
}

class ModernPrimaryUUIDObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: UUID
}

class ModernPrimaryOptionalUUIDObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: UUID?
}

class ModernPrimaryObjectIdObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: ObjectId
}

class ModernPrimaryOptionalObjectIdObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: ObjectId?
}

class ModernPrimaryIntEnumObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: ModernIntEnum
}

class ModernPrimaryOptionalIntEnumObject: Object, ModernPrimaryKeyObject {
    @Persisted(primaryKey: true) var pk: ModernIntEnum?
}

class ModernIndexedIntEnumObject: Object {
    @Persisted(indexed: true) var value: ModernIntEnum
}

class ModernIndexedOptionalIntEnumObject: Object {
    @Persisted(indexed: true) var value: ModernIntEnum?
}

class ModernCustomInitializerObject: Object {
    @Persisted var stringCol: String

    init(stringVal: String) {
        stringCol = stringVal
        super.init()
    }

    required override init() {
        stringCol = ""
        super.init()
    }
}

class ModernConvenienceInitializerObject: Object {
    @Persisted var stringCol = ""

    convenience init(stringCol: String) {
        self.init()
        self.stringCol = stringCol
    }
}

// ModernObjcRenamedObject, ModernObjcArbitrarilyRenamedObject: left out (@objc(name) renaming is Objective-C).

class ModernIntAndStringObject: Object {
    @Persisted var intCol: Int
    @Persisted var optIntCol: Int?
    @Persisted var stringCol: String
    @Persisted var optStringCol: String?
}

class ModernCollectionObject: Object {
    @Persisted var list: List<ModernAllTypesObject>
    @Persisted var set: MutableSet<ModernAllTypesObject>
    @Persisted var map: Map<String, ModernAllTypesObject?>
}

class ModernCircleObject: Object {
    @Persisted var obj: ModernCircleObject?
    @Persisted var array: List<ModernCircleObject>
}

class ModernEmbeddedParentObject: Object {
    @Persisted var object: ModernEmbeddedTreeObject1?
    @Persisted var array: List<ModernEmbeddedTreeObject1>
}

class ModernEmbeddedPrimaryParentObject: Object {
    @Persisted(primaryKey: true) var pk: Int = 0
    @Persisted var object: ModernEmbeddedTreeObject1?
    @Persisted var array: List<ModernEmbeddedTreeObject1>
}

protocol ModernEmbeddedTreeObject: EmbeddedObject {
    var value: Int { get set }
}

class ModernEmbeddedTreeObject1: EmbeddedObject, ModernEmbeddedTreeObject {
    @Persisted var value = 0
    @Persisted var bool = false
    @Persisted var child: ModernEmbeddedTreeObject2?
    @Persisted var children: List<ModernEmbeddedTreeObject2>

    @Persisted(originProperty: "object")
    var parent1: LinkingObjects<ModernEmbeddedParentObject>
    @Persisted(originProperty: "array")
    var parent2: LinkingObjects<ModernEmbeddedParentObject>
}

class ModernEmbeddedTreeObject2: EmbeddedObject, ModernEmbeddedTreeObject {
    @Persisted var value = 0
    @Persisted var child: ModernEmbeddedTreeObject3?
    @Persisted var children: List<ModernEmbeddedTreeObject3>

    @Persisted(originProperty: "child")
    var parent3: LinkingObjects<ModernEmbeddedTreeObject1>
    @Persisted(originProperty: "children")
    var parent4: LinkingObjects<ModernEmbeddedTreeObject1>
}

class ModernEmbeddedTreeObject3: EmbeddedObject, ModernEmbeddedTreeObject {
    @Persisted var value = 0

    @Persisted(originProperty: "child")
    var parent3: LinkingObjects<ModernEmbeddedTreeObject2>
    @Persisted(originProperty: "children")
    var parent4: LinkingObjects<ModernEmbeddedTreeObject2>
}

class ModernEmbeddedObject: EmbeddedObject {
    @Persisted var value = 0
}

class SetterObservers: Object {
    @Persisted var value: Int {
        willSet {
            willSetCallback?()
        }
        didSet {
            didSetCallback?()
        }
    }

    var willSetCallback: (() -> Void)?
    var didSetCallback: (() -> Void)?
}

class ObjectWithArcMethodCategoryNames: Object {
    // @objc properties with these names would crash with asan (and unreliably
    // without it) because they would not have the correct behavior for the
    // inferred ARC method family.
    @Persisted var newValue: String
    @Persisted var allocValue: String
    @Persisted var copyValue: String
    @Persisted var mutableCopyValue: String
    @Persisted var initValue: String
}

class ModernAllIndexableTypesObject: Object {
    @Persisted(indexed: true) var boolCol: Bool
    @Persisted(indexed: true) var intCol: Int
    @Persisted(indexed: true) var int8Col: Int8 = 1
    @Persisted(indexed: true) var int16Col: Int16 = 2
    @Persisted(indexed: true) var int32Col: Int32 = 3
    @Persisted(indexed: true) var int64Col: Int64 = 4
    @Persisted(indexed: true) var stringCol: String
    @Persisted(indexed: true) var dateCol: Date
    @Persisted(indexed: true) var uuidCol: UUID
    @Persisted(indexed: true) var objectIdCol: ObjectId
    @Persisted(indexed: true) var intEnumCol: ModernIntEnum
    @Persisted(indexed: true) var stringEnumCol: ModernStringEnum

    @Persisted(indexed: true) var optIntCol: Int?
    @Persisted(indexed: true) var optInt8Col: Int8?
    @Persisted(indexed: true) var optInt16Col: Int16?
    @Persisted(indexed: true) var optInt32Col: Int32?
    @Persisted(indexed: true) var optInt64Col: Int64?
    @Persisted(indexed: true) var optBoolCol: Bool?
    @Persisted(indexed: true) var optStringCol: String?
    @Persisted(indexed: true) var optDateCol: Date?
    @Persisted(indexed: true) var optUuidCol: UUID?
    @Persisted(indexed: true) var optObjectIdCol: ObjectId?
    @Persisted(indexed: true) var optIntEnumCol: ModernIntEnum?
    @Persisted(indexed: true) var optStringEnumCol: ModernStringEnum?
}

class ModernAllIndexableButNotIndexedObject: Object {
    @Persisted(indexed: false) var boolCol: Bool
    @Persisted(indexed: false) var intCol: Int
    @Persisted(indexed: false) var int8Col: Int8 = 1
    @Persisted(indexed: false) var int16Col: Int16 = 2
    @Persisted(indexed: false) var int32Col: Int32 = 3
    @Persisted(indexed: false) var int64Col: Int64 = 4
    @Persisted(indexed: false) var stringCol: String
    @Persisted(indexed: false) var dateCol: Date
    @Persisted(indexed: false) var uuidCol: UUID
    @Persisted(indexed: false) var objectIdCol: ObjectId
    @Persisted(indexed: false) var intEnumCol: ModernIntEnum
    @Persisted(indexed: false) var stringEnumCol: ModernStringEnum

    @Persisted(indexed: false) var optIntCol: Int?
    @Persisted(indexed: false) var optInt8Col: Int8?
    @Persisted(indexed: false) var optInt16Col: Int16?
    @Persisted(indexed: false) var optInt32Col: Int32?
    @Persisted(indexed: false) var optInt64Col: Int64?
    @Persisted(indexed: false) var optBoolCol: Bool?
    @Persisted(indexed: false) var optStringCol: String?
    @Persisted(indexed: false) var optDateCol: Date?
    @Persisted(indexed: false) var optUuidCol: UUID?
    @Persisted(indexed: false) var optObjectIdCol: ObjectId?
    @Persisted(indexed: false) var optIntEnumCol: ModernIntEnum?
    @Persisted(indexed: false) var optStringEnumCol: ModernStringEnum?
}

class ModernCollectionsOfEnums: Object {
    @Persisted var listInt: List<EnumInt>
    @Persisted var listInt8: List<EnumInt8>
    @Persisted var listInt16: List<EnumInt16>
    @Persisted var listInt32: List<EnumInt32>
    @Persisted var listInt64: List<EnumInt64>
    @Persisted var listFloat: List<EnumFloat>
    @Persisted var listDouble: List<EnumDouble>
    @Persisted var listString: List<EnumString>

    @Persisted var listIntOpt: List<EnumInt?>
    @Persisted var listInt8Opt: List<EnumInt8?>
    @Persisted var listInt16Opt: List<EnumInt16?>
    @Persisted var listInt32Opt: List<EnumInt32?>
    @Persisted var listInt64Opt: List<EnumInt64?>
    @Persisted var listFloatOpt: List<EnumFloat?>
    @Persisted var listDoubleOpt: List<EnumDouble?>
    @Persisted var listStringOpt: List<EnumString?>

    @Persisted var setInt: MutableSet<EnumInt>
    @Persisted var setInt8: MutableSet<EnumInt8>
    @Persisted var setInt16: MutableSet<EnumInt16>
    @Persisted var setInt32: MutableSet<EnumInt32>
    @Persisted var setInt64: MutableSet<EnumInt64>
    @Persisted var setFloat: MutableSet<EnumFloat>
    @Persisted var setDouble: MutableSet<EnumDouble>
    @Persisted var setString: MutableSet<EnumString>

    @Persisted var setIntOpt: MutableSet<EnumInt?>
    @Persisted var setInt8Opt: MutableSet<EnumInt8?>
    @Persisted var setInt16Opt: MutableSet<EnumInt16?>
    @Persisted var setInt32Opt: MutableSet<EnumInt32?>
    @Persisted var setInt64Opt: MutableSet<EnumInt64?>
    @Persisted var setFloatOpt: MutableSet<EnumFloat?>
    @Persisted var setDoubleOpt: MutableSet<EnumDouble?>
    @Persisted var setStringOpt: MutableSet<EnumString?>

    @Persisted var mapInt: Map<String, EnumInt>
    @Persisted var mapInt8: Map<String, EnumInt8>
    @Persisted var mapInt16: Map<String, EnumInt16>
    @Persisted var mapInt32: Map<String, EnumInt32>
    @Persisted var mapInt64: Map<String, EnumInt64>
    @Persisted var mapFloat: Map<String, EnumFloat>
    @Persisted var mapDouble: Map<String, EnumDouble>
    @Persisted var mapString: Map<String, EnumString>

    @Persisted var mapIntOpt: Map<String, EnumInt?>
    @Persisted var mapInt8Opt: Map<String, EnumInt8?>
    @Persisted var mapInt16Opt: Map<String, EnumInt16?>
    @Persisted var mapInt32Opt: Map<String, EnumInt32?>
    @Persisted var mapInt64Opt: Map<String, EnumInt64?>
    @Persisted var mapFloatOpt: Map<String, EnumFloat?>
    @Persisted var mapDoubleOpt: Map<String, EnumDouble?>
    @Persisted var mapStringOpt: Map<String, EnumString?>
}

class LinkToModernCollectionsOfEnums: Object {
    @Persisted var object: ModernCollectionsOfEnums?
    @Persisted var list: List<ModernCollectionsOfEnums>
    @Persisted var set: MutableSet<ModernCollectionsOfEnums>
    @Persisted var map: Map<String, ModernCollectionsOfEnums?>
}

class ModernListAnyRealmValueObject: Object {
    @Persisted var value: List<AnyRealmValue>
}

// ModernAllTypesProjection: left out (Strata has no Projection).

// MARK: - TestValueFactory.swift (the enums and `values()`; the factory protocols for the
// collection tests are cut down to what the ported tests use)

protocol ValueFactory where Self: RealmCollectionValue {
    static func values() -> [Self]
}
extension ValueFactory where Self: PersistableEnum {
    static func values() -> [Self] {
        return Array(Self.allCases)
    }
}
extension Optional: ValueFactory where Wrapped: ValueFactory, Self: RealmCollectionValue {
    static func values() -> [Self] {
        var v = Array<Self>(Wrapped.values())
        v.remove(at: 1)
        v.insert(nil, at: 0)
        return v
    }
}

enum EnumInt: Int, PersistableEnum, ValueFactory {
    case value1 = 1
    case value2 = 2
    case value3 = 3
}
enum EnumInt8: Int8, PersistableEnum, ValueFactory {
    case value1 = 1
    case value2 = 2
    case value3 = 3
}
enum EnumInt16: Int16, PersistableEnum, ValueFactory {
    case value1 = 1
    case value2 = 2
    case value3 = 3
}
enum EnumInt32: Int32, PersistableEnum, ValueFactory {
    case value1 = 1
    case value2 = 2
    case value3 = 3
}
enum EnumInt64: Int64, PersistableEnum, ValueFactory {
    case value1 = 1
    case value2 = 2
    case value3 = 3
}
enum EnumFloat: Float, PersistableEnum, ValueFactory {
    case value1 = 1.1
    case value2 = 2.2
    case value3 = 3.3
}
enum EnumDouble: Double, PersistableEnum, ValueFactory {
    case value1 = 1.1
    case value2 = 2.2
    case value3 = 3.3
}
enum EnumString: String, PersistableEnum, ValueFactory {
    case value1 = "a"
    case value2 = "b"
    case value3 = "c"
}

// MARK: - CustomPersistableTestObjects.swift

struct IntFailableWrapper: FailableCustomPersistable {
    typealias PersistedType = Int
    init?(persistedValue: Int) {
        if persistedValue == 1 {
            return nil
        }
        self.persistableValue = persistedValue
    }
    let persistableValue: Int
}

class FailableCustomObject: Object {
    @Persisted var int: IntFailableWrapper
    @Persisted var optInt: IntFailableWrapper?
    @Persisted var listInt: List<IntFailableWrapper>
    @Persisted var optListInt: List<IntFailableWrapper?>
    @Persisted var setInt: MutableSet<IntFailableWrapper>
    @Persisted var optSetInt: MutableSet<IntFailableWrapper?>
    @Persisted var mapInt: Map<String, IntFailableWrapper>
    @Persisted var optMapInt: Map<String, IntFailableWrapper?>
}

// MARK: - SwiftTestObjects.swift
// Strata change: these two are declared with `@objc dynamic var` / `let objects = List<…>()`
// in realm-swift (the legacy Objective-C property style, not available on Linux); here with
// `@Persisted`, keeping the names and the `primaryKey()` overrides.

class SwiftLinkToPrimaryStringObject: Object {
    @Persisted var pk = ""
    @Persisted var object: SwiftPrimaryStringObject?
    @Persisted var objects: List<SwiftPrimaryStringObject>

    override class func primaryKey() -> String? {
        return "pk"
    }
}

class SwiftPrimaryStringObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0

    typealias PrimaryKey = String
    override class func primaryKey() -> String? {
        return "stringCol"
    }
}

/// Every model of this file (RealmSwift's tests use the default configuration's schema, which
/// Objective-C builds from every `Object` subclass).
let portedObjectTypes: [ObjectBase.Type] = [
    ModernAllTypesObject.self, LinkToModernAllTypesObject.self, ModernImplicitlyUnwrappedOptionalObject.self,
    ModernLinkToPrimaryStringObject.self, ModernUTF8Object.self,
    ModernPrimaryStringObject.self, ModernPrimaryOptionalStringObject.self, ModernPrimaryIntObject.self,
    ModernPrimaryOptionalIntObject.self, ModernPrimaryInt8Object.self, ModernPrimaryOptionalInt8Object.self,
    ModernPrimaryInt16Object.self, ModernPrimaryOptionalInt16Object.self, ModernPrimaryInt32Object.self,
    ModernPrimaryOptionalInt32Object.self, ModernPrimaryInt64Object.self, ModernPrimaryOptionalInt64Object.self,
    ModernPrimaryUUIDObject.self, ModernPrimaryOptionalUUIDObject.self, ModernPrimaryObjectIdObject.self,
    ModernPrimaryOptionalObjectIdObject.self, ModernPrimaryIntEnumObject.self, ModernPrimaryOptionalIntEnumObject.self,
    ModernIndexedIntEnumObject.self, ModernIndexedOptionalIntEnumObject.self, ModernCustomInitializerObject.self,
    ModernConvenienceInitializerObject.self, ModernIntAndStringObject.self, ModernCollectionObject.self,
    ModernCircleObject.self, ModernEmbeddedParentObject.self, ModernEmbeddedPrimaryParentObject.self,
    ModernEmbeddedTreeObject1.self, ModernEmbeddedTreeObject2.self, ModernEmbeddedTreeObject3.self,
    ModernEmbeddedObject.self, SetterObservers.self, ObjectWithArcMethodCategoryNames.self,
    ModernAllIndexableTypesObject.self, ModernAllIndexableButNotIndexedObject.self, ModernCollectionsOfEnums.self,
    LinkToModernCollectionsOfEnums.self, ModernListAnyRealmValueObject.self, FailableCustomObject.self,
    SwiftLinkToPrimaryStringObject.self, SwiftPrimaryStringObject.self, ModernDynamicDefaultObject.self,
]

// MARK: rsport2
// SwiftTestObjects.swift: the models of ListTests, MutableSetTests and MapTests (ported in
// PortedListTests.swift, PortedMutableSetTests.swift, PortedMapTests.swift, which register them
// through `rsport2ObjectTypes`). Strata change: realm-swift declares these with
// `@objc dynamic var` / `let list = List<T>()` / `RealmOptional<T>()` / `RealmProperty<T>()`
// (the legacy Objective-C property style, not available on Linux); here every property is
// `@Persisted` with the same name, type and default (`RealmOptional<Int>` becomes `Int?`), and
// the `@objc enum IntEnum: RealmEnum` is a `PersistableEnum`.

final class SwiftStringObject: Object {
    @Persisted var stringCol = ""

    convenience init(stringCol: String) {
        self.init()
        self.stringCol = stringCol
    }
}

class SwiftBoolObject: Object, Identifiable {
    @Persisted var boolCol = false
}

class SwiftIntObject: Object {
    @Persisted var intCol = 0
}

enum IntEnum: Int, PersistableEnum, Codable {
    case value1 = 1
    case value2 = 3
}

class SwiftObject: Object {
    @Persisted var boolCol = false
    @Persisted var intCol = 123
    @Persisted var int8Col: Int8 = 123
    @Persisted var int16Col: Int16 = 123
    @Persisted var int32Col: Int32 = 123
    @Persisted var int64Col: Int64 = 123
    @Persisted var intEnumCol = IntEnum.value1
    @Persisted var floatCol = 1.23 as Float
    @Persisted var doubleCol = 12.3
    @Persisted var stringCol = "a"
    @Persisted var binaryCol = Data("a".utf8)
    @Persisted var dateCol = Date(timeIntervalSince1970: 1)
    @Persisted var decimalCol = Decimal128("123e4")
    @Persisted var objectIdCol = ObjectId("1234567890ab1234567890ab")
    @Persisted var objectCol: SwiftBoolObject? = SwiftBoolObject()
    @Persisted var uuidCol: UUID = UUID(uuidString: "137decc8-b300-4954-a233-f89909f4fd89")!
    @Persisted var anyCol: AnyRealmValue

    @Persisted var arrayCol: List<SwiftBoolObject>
    @Persisted var setCol: MutableSet<SwiftBoolObject>
    @Persisted var mapCol: Map<String, SwiftBoolObject?>
}

class SwiftOptionalObject: Object {
    // Strata change: `optNSStringCol: NSString?` is a `String?` (NSString properties are
    // Objective-C), and each `RealmOptional<T>` an optional `@Persisted` property.
    @Persisted var optNSStringCol: String?
    @Persisted var optStringCol: String?
    @Persisted var optBinaryCol: Data?
    @Persisted var optDateCol: Date?
    @Persisted var optDecimalCol: Decimal128?
    @Persisted var optObjectIdCol: ObjectId?
    @Persisted var optUuidCol: UUID?
    @Persisted var optIntCol: Int?
    @Persisted var optInt8Col: Int8?
    @Persisted var optInt16Col: Int16?
    @Persisted var optInt32Col: Int32?
    @Persisted var optInt64Col: Int64?
    @Persisted var optFloatCol: Float?
    @Persisted var optDoubleCol: Double?
    @Persisted var optBoolCol: Bool?
    @Persisted var optEnumCol: IntEnum?
    @Persisted var otherIntCol: Int?
    @Persisted var optObjectCol: SwiftBoolObject?
}

class SwiftListObject: Object {
    @Persisted var int: List<Int>
    @Persisted var int8: List<Int8>
    @Persisted var int16: List<Int16>
    @Persisted var int32: List<Int32>
    @Persisted var int64: List<Int64>
    @Persisted var float: List<Float>
    @Persisted var double: List<Double>
    @Persisted var string: List<String>
    @Persisted var data: List<Data>
    @Persisted var date: List<Date>
    @Persisted var decimal: List<Decimal128>
    @Persisted var objectId: List<ObjectId>
    @Persisted var uuid: List<UUID>
    @Persisted var any: List<AnyRealmValue>

    @Persisted var intOpt: List<Int?>
    @Persisted var int8Opt: List<Int8?>
    @Persisted var int16Opt: List<Int16?>
    @Persisted var int32Opt: List<Int32?>
    @Persisted var int64Opt: List<Int64?>
    @Persisted var floatOpt: List<Float?>
    @Persisted var doubleOpt: List<Double?>
    @Persisted var stringOpt: List<String?>
    @Persisted var dataOpt: List<Data?>
    @Persisted var dateOpt: List<Date?>
    @Persisted var decimalOpt: List<Decimal128?>
    @Persisted var objectIdOpt: List<ObjectId?>
    @Persisted var uuidOpt: List<UUID?>
}

class SwiftMutableSetObject: Object {
    @Persisted var int: MutableSet<Int>
    @Persisted var int8: MutableSet<Int8>
    @Persisted var int16: MutableSet<Int16>
    @Persisted var int32: MutableSet<Int32>
    @Persisted var int64: MutableSet<Int64>
    @Persisted var float: MutableSet<Float>
    @Persisted var double: MutableSet<Double>
    @Persisted var string: MutableSet<String>
    @Persisted var data: MutableSet<Data>
    @Persisted var date: MutableSet<Date>
    @Persisted var decimal: MutableSet<Decimal128>
    @Persisted var objectId: MutableSet<ObjectId>
    @Persisted var uuid: MutableSet<UUID>
    @Persisted var any: MutableSet<AnyRealmValue>

    @Persisted var intOpt: MutableSet<Int?>
    @Persisted var int8Opt: MutableSet<Int8?>
    @Persisted var int16Opt: MutableSet<Int16?>
    @Persisted var int32Opt: MutableSet<Int32?>
    @Persisted var int64Opt: MutableSet<Int64?>
    @Persisted var floatOpt: MutableSet<Float?>
    @Persisted var doubleOpt: MutableSet<Double?>
    @Persisted var stringOpt: MutableSet<String?>
    @Persisted var dataOpt: MutableSet<Data?>
    @Persisted var dateOpt: MutableSet<Date?>
    @Persisted var decimalOpt: MutableSet<Decimal128?>
    @Persisted var objectIdOpt: MutableSet<ObjectId?>
    @Persisted var uuidOpt: MutableSet<UUID?>
}

class SwiftMapObject: Object {
    @Persisted var int: Map<String, Int>
    @Persisted var int8: Map<String, Int8>
    @Persisted var int16: Map<String, Int16>
    @Persisted var int32: Map<String, Int32>
    @Persisted var int64: Map<String, Int64>
    @Persisted var float: Map<String, Float>
    @Persisted var double: Map<String, Double>
    @Persisted var bool: Map<String, Bool>
    @Persisted var string: Map<String, String>
    @Persisted var data: Map<String, Data>
    @Persisted var date: Map<String, Date>
    @Persisted var decimal: Map<String, Decimal128>
    @Persisted var objectId: Map<String, ObjectId>
    @Persisted var uuid: Map<String, UUID>
    @Persisted var object: Map<String, SwiftStringObject?>
    @Persisted var any: Map<String, AnyRealmValue>

    @Persisted var intOpt: Map<String, Int?>
    @Persisted var int8Opt: Map<String, Int8?>
    @Persisted var int16Opt: Map<String, Int16?>
    @Persisted var int32Opt: Map<String, Int32?>
    @Persisted var int64Opt: Map<String, Int64?>
    @Persisted var floatOpt: Map<String, Float?>
    @Persisted var doubleOpt: Map<String, Double?>
    @Persisted var boolOpt: Map<String, Bool?>
    @Persisted var stringOpt: Map<String, String?>
    @Persisted var dataOpt: Map<String, Data?>
    @Persisted var dateOpt: Map<String, Date?>
    @Persisted var decimalOpt: Map<String, Decimal128?>
    @Persisted var objectIdOpt: Map<String, ObjectId?>
    @Persisted var uuidOpt: Map<String, UUID?>
}

class SwiftDogObject: Object {
    @Persisted var dogName = ""
    @Persisted(originProperty: "dog") var owners: LinkingObjects<SwiftOwnerObject>
}

class SwiftOwnerObject: Object {
    @Persisted var name = ""
    @Persisted var dog: SwiftDogObject? = SwiftDogObject()
}

class SwiftArrayPropertyObject: Object {
    @Persisted var name = ""
    @Persisted var array: List<SwiftStringObject>
    @Persisted var intArray: List<SwiftIntObject>
    @Persisted var swiftObjArray: List<SwiftObject>
}

class SwiftMutableSetPropertyObject: Object {
    @Persisted var name = ""
    @Persisted var set: MutableSet<SwiftStringObject>
    @Persisted var intSet: MutableSet<SwiftIntObject>
    @Persisted var swiftObjSet: MutableSet<SwiftObject>
}

class SwiftMapPropertyObject: Object {
    @Persisted var name = ""
    @Persisted var map: Map<String, SwiftStringObject?>
    @Persisted var intMap: Map<String, SwiftIntObject?>
    @Persisted var swiftObjectMap: Map<String, SwiftObject?>
    @Persisted var dogMap: Map<String, SwiftDogObject?>
}

class SwiftListOfSwiftObject: Object {
    @Persisted var array: List<SwiftObject>
}

class SwiftMutableSetOfSwiftObject: Object {
    @Persisted var set: MutableSet<SwiftObject>
}

class SwiftMapOfSwiftObject: Object {
    @Persisted var map: Map<String, SwiftObject?>
}

class SwiftMapOfSwiftOptionalObject: Object {
    @Persisted var map: Map<String, SwiftOptionalObject?>
}

class SwiftListOfSwiftOptionalObject: Object {
    @Persisted var array: List<SwiftOptionalObject>
}

class SwiftMutableSetOfSwiftOptionalObject: Object {
    @Persisted var set: MutableSet<SwiftOptionalObject>
}

class EmbeddedParentObject: Object {
    @Persisted var object: EmbeddedTreeObject1?
    @Persisted var array: List<EmbeddedTreeObject1>
    // Strata gap: `let map = Map<String, EmbeddedTreeObject1?>()` is left out, as Strata does
    // not support maps of embedded objects yet (MapTests' embedded tests are skipped).
}

protocol EmbeddedTreeObject: EmbeddedObject {
    var value: Int { get set }
}

class EmbeddedTreeObject1: EmbeddedObject, EmbeddedTreeObject {
    @Persisted var value = 0
    @Persisted var child: EmbeddedTreeObject2?
    @Persisted var children: List<EmbeddedTreeObject2>

    @Persisted(originProperty: "object") var parent1: LinkingObjects<EmbeddedParentObject>
    @Persisted(originProperty: "array") var parent2: LinkingObjects<EmbeddedParentObject>
}

class EmbeddedTreeObject2: EmbeddedObject, EmbeddedTreeObject {
    @Persisted var value = 0
    @Persisted var child: EmbeddedTreeObject3?
    @Persisted var children: List<EmbeddedTreeObject3>

    @Persisted(originProperty: "child") var parent3: LinkingObjects<EmbeddedTreeObject1>
    @Persisted(originProperty: "children") var parent4: LinkingObjects<EmbeddedTreeObject1>
}

class EmbeddedTreeObject3: EmbeddedObject, EmbeddedTreeObject {
    @Persisted var value = 0

    @Persisted(originProperty: "child") var parent3: LinkingObjects<EmbeddedTreeObject2>
    @Persisted(originProperty: "children") var parent4: LinkingObjects<EmbeddedTreeObject2>
}

/// The models of this block; `RSPort2TestCase` adds them to `portedObjectTypes`.
let rsport2ObjectTypes: [ObjectBase.Type] = [
    SwiftStringObject.self, SwiftBoolObject.self, SwiftIntObject.self, SwiftObject.self, SwiftOptionalObject.self,
    SwiftListObject.self, SwiftMutableSetObject.self, SwiftMapObject.self, SwiftDogObject.self, SwiftOwnerObject.self,
    SwiftArrayPropertyObject.self, SwiftMutableSetPropertyObject.self, SwiftMapPropertyObject.self,
    SwiftListOfSwiftObject.self, SwiftMutableSetOfSwiftObject.self, SwiftMapOfSwiftObject.self,
    SwiftMapOfSwiftOptionalObject.self, SwiftListOfSwiftOptionalObject.self, SwiftMutableSetOfSwiftOptionalObject.self,
    EmbeddedParentObject.self, EmbeddedTreeObject1.self, EmbeddedTreeObject2.self, EmbeddedTreeObject3.self,
]

// MARK: rsport3
// SwiftTestObjects.swift, CustomPersistableTestObjects.swift (StringWrapper): the models of
// MigrationTests, RealmTests and ObjectSchemaInitializationTests (ported in
// PortedMigrationTests.swift, PortedRealmTests.swift, PortedObjectSchemaInitializationTests.swift,
// which register them through `rsport3ObjectTypes` in `RSPort3TestCase`). Strata change:
// realm-swift declares these with `@objc dynamic var` / `let list = List<T>()` /
// `RealmOptional<T>()` / `RealmProperty<T>()` (the legacy Objective-C property style, not
// available on Linux); here every property is `@Persisted` with the same name, type and default
// (`RealmOptional<Int>` becomes `Int?`, `NSString?` becomes `String?`), and the
// `@objc enum IntEnum: RealmEnum` is a `PersistableEnum`.
//
// (The models it shares with ListTests, MutableSetTests and MapTests are declared once, in the
// rsport2 block above.)


class SwiftInt8Object: Object {
    @Persisted var int8Col = 0
}

class SwiftInt16Object: Object {
    @Persisted var int16Col = 0
}

class SwiftInt32Object: Object {
    @Persisted var int32Col = 0
}

class SwiftInt64Object: Object {
    @Persisted var int64Col = 0
}

class SwiftEmployeeObject: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var hired = false
}

class SwiftCompanyObject: Object {
    @Persisted var name = ""
    @Persisted var employees: List<SwiftEmployeeObject>
    @Persisted var employeeSet: MutableSet<SwiftEmployeeObject>
    @Persisted var employeeMap: Map<String, SwiftEmployeeObject?>
}

class SwiftOptionalDefaultValuesObject: Object {
    @Persisted var optNSStringCol: String? = "A"
    @Persisted var optStringCol: String? = "B"
    @Persisted var optBinaryCol: Data? = Data("C".utf8)
    @Persisted var optDateCol: Date? = Date(timeIntervalSince1970: 10)
    @Persisted var optDecimalCol: Decimal128? = "123"
    @Persisted var optObjectIdCol: ObjectId? = ObjectId("1234567890ab1234567890ab")
    @Persisted var optUuidCol: UUID? = UUID(uuidString: "00000000-0000-0000-0000-000000000000")
    @Persisted var optIntCol: Int? = 1
    @Persisted var optInt8Col: Int8? = 1
    @Persisted var optInt16Col: Int16? = 1
    @Persisted var optInt32Col: Int32? = 1
    @Persisted var optInt64Col: Int64? = 1
    @Persisted var optFloatCol: Float? = 2.2
    @Persisted var optDoubleCol: Double? = 3.3
    @Persisted var optBoolCol: Bool? = true
    @Persisted var optObjectCol: SwiftBoolObject? = SwiftBoolObject(value: [true])

    class func defaultValues() -> [String: Any] {
        return [
            "optNSStringCol": "A",
            "optStringCol": "B",
            "optBinaryCol": Data("C".utf8),
            "optDateCol": Date(timeIntervalSince1970: 10),
            "optDecimalCol": Decimal128("123"),
            "optObjectIdCol": ObjectId("1234567890ab1234567890ab"),
            "optIntCol": 1,
            "optInt8Col": Int8(1),
            "optInt16Col": Int16(1),
            "optInt32Col": Int32(1),
            "optInt64Col": Int64(1),
            "optFloatCol": 2.2 as Float,
            "optDoubleCol": 3.3,
            "optBoolCol": true,
            "optUuidCol": UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        ]
    }
}

protocol SwiftPrimaryKeyObjectType {
    associatedtype PrimaryKey
    static func primaryKey() -> String?
}

class SwiftPrimaryOptionalStringObject: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol: String? = ""
    @Persisted var intCol = 0

    typealias PrimaryKey = String?
    override class func primaryKey() -> String? {
        return "stringCol"
    }
}

class SwiftPrimaryIntObject: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0

    typealias PrimaryKey = Int
    override class func primaryKey() -> String? {
        return "intCol"
    }
}

class SwiftPrimaryOptionalIntObject: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var intCol: Int?

    typealias PrimaryKey = Int?
    override class func primaryKey() -> String? {
        return "intCol"
    }
}

class SwiftPrimaryInt8Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int8Col: Int8 = 0

    typealias PrimaryKey = Int8
    override class func primaryKey() -> String? {
        return "int8Col"
    }
}

class SwiftPrimaryOptionalInt8Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int8Col: Int8?

    typealias PrimaryKey = Int8?
    override class func primaryKey() -> String? {
        return "int8Col"
    }
}

class SwiftPrimaryInt16Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int16Col: Int16 = 0

    typealias PrimaryKey = Int16
    override class func primaryKey() -> String? {
        return "int16Col"
    }
}

class SwiftPrimaryOptionalInt16Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int16Col: Int16?

    typealias PrimaryKey = Int16?
    override class func primaryKey() -> String? {
        return "int16Col"
    }
}

class SwiftPrimaryInt32Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int32Col: Int32 = 0

    typealias PrimaryKey = Int32
    override class func primaryKey() -> String? {
        return "int32Col"
    }
}

class SwiftPrimaryOptionalInt32Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int32Col: Int32?

    typealias PrimaryKey = Int32?
    override class func primaryKey() -> String? {
        return "int32Col"
    }
}

class SwiftPrimaryInt64Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int64Col: Int64 = 0

    typealias PrimaryKey = Int64
    override class func primaryKey() -> String? {
        return "int64Col"
    }
}

class SwiftPrimaryOptionalInt64Object: Object, SwiftPrimaryKeyObjectType {
    @Persisted var stringCol = ""
    @Persisted var int64Col: Int64?

    typealias PrimaryKey = Int64?
    override class func primaryKey() -> String? {
        return "int64Col"
    }
}

class SwiftPrimaryUUIDObject: Object, SwiftPrimaryKeyObjectType {
    @Persisted var uuidCol: UUID = UUID(uuidString: "85d4fbee-6ec6-47df-bfa1-615931903d7e")!
    @Persisted var stringCol = ""

    typealias PrimaryKey = Int64
    override class func primaryKey() -> String? {
        return "uuidCol"
    }
}

class SwiftPrimaryObjectIdObject: Object, SwiftPrimaryKeyObjectType {
    @Persisted var objectIdCol: ObjectId = ObjectId.generate()
    @Persisted var intCol = 0

    typealias PrimaryKey = Int64
    override class func primaryKey() -> String? {
        return "objectIdCol"
    }
}

// CustomPersistableTestObjects.swift
protocol TrivialCustomPersistable: CustomPersistable {
    var value: PersistedType { get set }
    init(value: PersistedType)
}

extension TrivialCustomPersistable {
    init(persistedValue: PersistedType) {
        self.init(value: persistedValue)
    }
    var persistableValue: PersistedType { value }
}

struct StringWrapper: TrivialCustomPersistable {
    typealias PersistedType = String
    var value: String
}

// CustomColumnNameTests.swift
let propertiesModernCustomMapping: [String: String] = ["id": "custom_id",
                                                        "intCol": "custom_intCol",
                                                        "anyCol": "custom_anyCol",
                                                        "intEnumCol": "custom_intEnumCol",
                                                        "objectCol": "custom_objectCol",
                                                        "arrayCol": "custom_arrayCol",
                                                        "setCol": "custom_setCol",
                                                        "mapCol": "custom_mapCol",
                                                        "embeddedObject": "custom_embeddedObject",
                                                        "arrayIntCol": "custom_arrayIntCol",
                                                        "setIntCol": "custom_setIntCol",
                                                        "mapIntCol": "custom_mapIntCol"]
class ModernCustomObject: Object {
    @Persisted(primaryKey: true) var pk: ObjectId
    @Persisted var intCol: Int
    @Persisted var anyCol: AnyRealmValue
    @Persisted var intEnumCol: ModernIntEnum

    @Persisted var objectCol: ModernCustomObject?
    @Persisted var arrayCol = List<ModernCustomObject>()
    @Persisted var setCol = MutableSet<ModernCustomObject>()
    @Persisted var mapCol = Map<String, ModernCustomObject?>()

    @Persisted var embeddedObject: EmbeddedModernCustomObject?

    @Persisted var arrayIntCol = List<Int>()
    @Persisted var setIntCol = MutableSet<Int>()
    @Persisted var mapIntCol = Map<String, Int>()

    override class func propertiesMapping() -> [String: String] {
        propertiesModernCustomMapping
    }

    convenience init(pk: ObjectId) {
        self.init()
        self.pk = pk
    }
}

let propertiesModernEmbeddedCustomMapping: [String: String] = ["intCol": "custom_intCol"]
class EmbeddedModernCustomObject: EmbeddedObject {
    @Persisted var intCol: Int

    override class func propertiesMapping() -> [String: String] {
        propertiesModernEmbeddedCustomMapping
    }
}

/// The models of this block; `RSPort3TestCase` adds them to `portedObjectTypes`.
let rsport3ObjectTypes: [ObjectBase.Type] = [
    SwiftStringObject.self, SwiftBoolObject.self, SwiftIntObject.self, SwiftObject.self, SwiftOptionalObject.self,
    SwiftDogObject.self, SwiftOwnerObject.self,
    SwiftArrayPropertyObject.self, SwiftMutableSetPropertyObject.self, SwiftMapPropertyObject.self,
    EmbeddedParentObject.self, EmbeddedTreeObject1.self, EmbeddedTreeObject2.self, EmbeddedTreeObject3.self,
    SwiftInt8Object.self, SwiftInt16Object.self, SwiftInt32Object.self, SwiftInt64Object.self,
    SwiftEmployeeObject.self, SwiftCompanyObject.self, SwiftOptionalDefaultValuesObject.self,
    SwiftPrimaryOptionalStringObject.self, SwiftPrimaryIntObject.self, SwiftPrimaryOptionalIntObject.self,
    SwiftPrimaryInt8Object.self, SwiftPrimaryOptionalInt8Object.self, SwiftPrimaryInt16Object.self,
    SwiftPrimaryOptionalInt16Object.self, SwiftPrimaryInt32Object.self, SwiftPrimaryOptionalInt32Object.self,
    SwiftPrimaryInt64Object.self, SwiftPrimaryOptionalInt64Object.self, SwiftPrimaryUUIDObject.self,
    SwiftPrimaryObjectIdObject.self, ModernCustomObject.self, EmbeddedModernCustomObject.self,
]
