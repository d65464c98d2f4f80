// Ported from realm-swift (https://github.com/realm/realm-swift, commit c22f930):
//   RealmSwift/Tests/MapTests.swift.
// Copyright 2021 Realm Inc., licensed under the Apache License, Version 2.0
// (http://www.apache.org/licenses/LICENSE-2.0). Changed for Strata: `import Strata` instead of
// `import RealmSwift`; the models are in PortedTestObjects.swift (`// MARK: rsport2`), declared
// `@Persisted` (so a `RealmOptional`'s `optIntCol.value` reads `optIntCol`, and the `NSString`
// column is a `String`); the test classes derive from `RSPort2TestCase`, which adds those
// models to the schema. `assertThrows` checks are commented out: Strata traps where RealmSwift
// throws an Objective-C exception, and a trap cannot be caught. Other changes are noted inline.
// Skipped (XCTSkip, Strata gaps listed in docs/COMPATIBILITY.md): testFilter and
// testKeyedSortable (`Map.filter` / `Map.sorted(by:)` returning `Results<SwiftStringObject?>`),
// testObserveOnActor / testObserveOnActorTypedKeyPath (`Map.observe(keyPaths:on: actor)`), and
// testAppendEmbedded / testSetEmbedded on managed maps (maps of embedded objects). The KVO-free
// notification tests run as they are.

import XCTest
import Foundation
import Strata

class MapTests: RSPort2TestCase {
    var str1: SwiftStringObject!
    var str2: SwiftStringObject!
    var realm: Realm!

    func createMap() -> Map<String, SwiftStringObject?> {
        fatalError("abstract")
    }

    func createMapObject() -> SwiftMapPropertyObject {
        fatalError("abstract")
    }

    func createEmbeddedMap() throws -> Map<String, EmbeddedTreeObject1?> {
        fatalError("abstract")
    }

    override func setUp() {
        super.setUp()

        let str1 = SwiftStringObject()
        str1.stringCol = "1"
        self.str1 = str1

        let str2 = SwiftStringObject()
        str2.stringCol = "2"
        self.str2 = str2

        realm = realmWithTestPath()
        try! realm.write {
            realm.add(str1)
            realm.add(str2)
        }
        realm.beginWrite()
    }

    override func tearDown() {
        if realm.isInWriteTransaction {
            realm.cancelWrite()
        }
        str1 = nil
        str2 = nil
        realm = nil
        super.tearDown()
    }

    // Strata change: swift-corelibs-xctest has no `defaultTestSuite` to override, so the base
    // class's own run of its tests is skipped here instead (and setUp/tearDown do nothing).
    var isAbstractBase: Bool { type(of: self) == MapTests.self }
    override func setUpWithError() throws {
        if isAbstractBase { throw XCTSkip("abstract base class: its subclasses run these tests") }
    }

    func checkPrimitive() {
        let obj = SwiftMapObject()
        obj.int["key"] = 5
        XCTAssertEqual(obj.int["key"]!, 5)
        XCTAssertNil(obj.int["doesntExist"])
        obj.int["keyB"] = 6
        obj.int["keyC"] = 7
        obj.int["keyD"] = 8
        XCTAssertEqual(obj.int.max(), 8)
        XCTAssertEqual(obj.int.min(), 5)
        XCTAssertEqual(obj.int.sum(), 26)
        XCTAssertEqual(obj.int.average(), 6.5)

        obj.string["key"] = "str"
        XCTAssertEqual(obj.string["key"], "str")
    }

    func checkPrimitiveIterationAcrossNil() {
        let obj = SwiftMapObject()

        XCTAssertFalse(obj.int.contains(where: { $0 == "0" || $1 == 5 }))
        XCTAssertFalse(obj.int8.contains(where: { $0 == "0" || $1 == 5 }))
        XCTAssertFalse(obj.int16.contains(where: { $0 == "0" || $1 == 5 }))
        XCTAssertFalse(obj.int32.contains(where: { $0 == "0" || $1 == 5 }))
        XCTAssertFalse(obj.int64.contains(where: { $0 == "0" || $1 == 5 }))
        XCTAssertFalse(obj.float.contains(where: { $0 == "0" || $1 == 3.141592 }))
        XCTAssertFalse(obj.double.contains(where: { $0 == "0" || $1 == 3.141592 }))
        XCTAssertFalse(obj.string.contains(where: { $0 == "0" || $1 == "foobar" }))
        XCTAssertFalse(obj.data.contains(where: { $0 == "0" || $1 == Data() }))
        XCTAssertFalse(obj.date.contains(where: { $0 == "0" || $1 == Date() }))
        XCTAssertFalse(obj.decimal.contains(where: { $0 == "0" || $1 == Decimal128() }))
        XCTAssertFalse(obj.objectId.contains(where: { $0 == "0" || $1 == ObjectId() }))
        XCTAssertFalse(obj.uuid.contains(where: { $0 == "0" || $1 == UUID() }))
        XCTAssertFalse(obj.object.contains(where: { $0 == "0" || $1 == SwiftStringObject() }))

        XCTAssertFalse(obj.intOpt.contains { $1 == nil })
        XCTAssertFalse(obj.int8Opt.contains { $1 == nil })
        XCTAssertFalse(obj.int16Opt.contains { $1 == nil })
        XCTAssertFalse(obj.int32Opt.contains { $1 == nil })
        XCTAssertFalse(obj.int64Opt.contains { $1 == nil })
        XCTAssertFalse(obj.floatOpt.contains { $1 == nil })
        XCTAssertFalse(obj.doubleOpt.contains { $1 == nil })
        XCTAssertFalse(obj.stringOpt.contains { $1 == nil })
        XCTAssertFalse(obj.dataOpt.contains { $1 == nil })
        XCTAssertFalse(obj.dateOpt.contains { $1 == nil })
        XCTAssertFalse(obj.decimalOpt.contains { $1 == nil })
        XCTAssertFalse(obj.objectIdOpt.contains { $1 == nil })
        XCTAssertFalse(obj.uuidOpt.contains { $1 == nil })

        // Map also supports iteration through `SingleMapEntry` being the element.
        // We can't create this struct directly so we need to map over the contents of the dictionary
        // and test if that element exists.
        XCTAssertFalse(obj.int.map(obj.int.contains).contains(true))
        XCTAssertFalse(obj.int8.map(obj.int8.contains).contains(true))
        XCTAssertFalse(obj.int16.map(obj.int16.contains).contains(true))
        XCTAssertFalse(obj.int32.map(obj.int32.contains).contains(true))
        XCTAssertFalse(obj.int64.map(obj.int64.contains).contains(true))
        XCTAssertFalse(obj.float.map(obj.float.contains).contains(true))
        XCTAssertFalse(obj.double.map(obj.double.contains).contains(true))
        XCTAssertFalse(obj.string.map(obj.string.contains).contains(true))
        XCTAssertFalse(obj.data.map(obj.data.contains).contains(true))
        XCTAssertFalse(obj.date.map(obj.date.contains).contains(true))
        XCTAssertFalse(obj.decimal.map(obj.decimal.contains).contains(true))
        XCTAssertFalse(obj.objectId.map(obj.objectId.contains).contains(true))
        XCTAssertFalse(obj.uuid.map(obj.uuid.contains).contains(true))
        XCTAssertFalse(obj.object.map(obj.object.contains).contains(true))

        XCTAssertFalse(obj.intOpt.map(obj.intOpt.contains).contains(true))
        XCTAssertFalse(obj.int8Opt.map(obj.int8Opt.contains).contains(true))
        XCTAssertFalse(obj.int16Opt.map(obj.int16Opt.contains).contains(true))
        XCTAssertFalse(obj.int32Opt.map(obj.int32Opt.contains).contains(true))
        XCTAssertFalse(obj.int64Opt.map(obj.int64Opt.contains).contains(true))
        XCTAssertFalse(obj.floatOpt.map(obj.floatOpt.contains).contains(true))
        XCTAssertFalse(obj.doubleOpt.map(obj.doubleOpt.contains).contains(true))
        XCTAssertFalse(obj.stringOpt.map(obj.stringOpt.contains).contains(true))
        XCTAssertFalse(obj.dataOpt.map(obj.dataOpt.contains).contains(true))
        XCTAssertFalse(obj.dateOpt.map(obj.dateOpt.contains).contains(true))
        XCTAssertFalse(obj.decimalOpt.map(obj.decimalOpt.contains).contains(true))
        XCTAssertFalse(obj.objectIdOpt.map(obj.objectIdOpt.contains).contains(true))
        XCTAssertFalse(obj.uuidOpt.map(obj.uuidOpt.contains).contains(true))
    }

    func checkInvalidated() {
        let mapObject = SwiftMapOfSwiftObject()
        realm.add(mapObject)
        XCTAssertFalse(mapObject.map.isInvalidated)

        if let realm = mapObject.realm {
            realm.delete(mapObject)
            XCTAssertTrue(mapObject.map.isInvalidated)
        }
    }

    func checkFastEnumerationWithMutation() {
        let map = createMap()
        for i in 0...5 {
            map["key\(i)"] = str1
        }
        var str = ""

        for obj in map {
            str += obj.value!.stringCol
            map[obj.key] = str2
        }
        XCTAssertEqual(str, "111111")
    }

    func checkMapDescription() {
        let map = createMap()
        for i in 0...5 {
            map["key\(i)"] = SwiftStringObject(value: [String(i)])
        }

        XCTAssertTrue(map.description.hasPrefix("Map<string, SwiftStringObject>"))
        XCTAssertTrue(map.description.contains("[key3]: SwiftStringObject {\n\t\tstringCol = 3;\n\t}"))
    }

    func checkAppendObject() {
        let map = createMap()
        map["key1"] = str1
        map["key2"] = str2
        XCTAssertEqual(2, map.count)
        XCTAssertEqual("1", map["key1"]!!.stringCol)
        XCTAssertEqual("2", map["key2"]!!.stringCol)
    }

    func checkInsert() {
        let map = createMap()
        XCTAssertEqual(0, map.count)

        XCTAssertNil(map[str1.stringCol] as Any?)
        map[str1.stringCol] = str1
        XCTAssertEqual(1, map.count)

        XCTAssertNil(map[str2.stringCol] as Any?)
        map[str2.stringCol] = str2
        XCTAssertEqual(2, map.count)
    }

    func checkRemove() {
        let map = createMap()
        map[str1.stringCol] = str1
        XCTAssertEqual(1, map.count)
        XCTAssertNotNil(map[str1.stringCol] as Any?)

        map.removeObject(for: str1.stringCol)
        XCTAssertEqual(0, map.count)
        XCTAssertNil(map[str1.stringCol] as Any?)

        map[str1.stringCol] = str1
        XCTAssertEqual(1, map.count)
        XCTAssertNotNil(map[str1.stringCol] as Any?)

        map[str1.stringCol] = nil
        XCTAssertEqual(0, map.count)
        XCTAssertNil(map[str1.stringCol] as Any?)
    }

    func checkRemoveAll() {
        let map = createMap()
        for i in 0..<5 {
            map[String(i)] = str1
        }
        XCTAssertEqual(5, map.count)
        map.removeAll()
        XCTAssertEqual(0, map.count)
    }

    func checkDeleteObjectFromMap() {
        let map = createMap()
        if let realm = map.realm {
            map["key"] = str1
            XCTAssertEqual(map["key"]!!.stringCol, str1.stringCol)
            realm.delete(str1)
            XCTAssertNil(map["key"] ?? nil)
        }
    }

    func checkMerge() {
        let map = createMap()
        map["a"] = str1

        map.merge(["b": str2], uniquingKeysWith: { (old, _) in
            XCTFail("combine called with no duplicates")
            return old
        })
        XCTAssertEqual(map.count, 2)
        XCTAssertTrue(str1.isSameObject(as: map["a"]!!))
        XCTAssertTrue(str2.isSameObject(as: map["b"]!!))

        // Does not actually update because the combine function picks the existing value
        map.merge(["b": str1], uniquingKeysWith: { (old, _) in
            return old
        })
        XCTAssertEqual(map.count, 2)
        XCTAssertTrue(str1.isSameObject(as: map["a"]!!))
        XCTAssertTrue(str2.isSameObject(as: map["b"]!!))

        // Does actually update
        map.merge(["b": str1], uniquingKeysWith: { (_, new) in
            return new
        })
        XCTAssertEqual(map.count, 2)
        XCTAssertTrue(str1.isSameObject(as: map["a"]!!))
        XCTAssertTrue(str1.isSameObject(as: map["b"]!!))

        // Creating an entirely new value is valid too
        map.merge(["a": str1], uniquingKeysWith: { (_, _) in
            return SwiftStringObject(value: ["c"])
        })
        XCTAssertEqual(map.count, 2)
        XCTAssertEqual(map["a"]!!.stringCol, "c")
        XCTAssertTrue(str1.isSameObject(as: map["b"]!!))
    }

    func checkChangesArePersisted() {
        let map = createMap()
        map["key"] = str1
        map["key2"] = str2
        if let realm = map.realm {
            let mapFromResults = realm.objects(SwiftMapPropertyObject.self).first!.map
            XCTAssertEqual(map["key"]!!.stringCol, mapFromResults["key"]!!.stringCol)
            XCTAssertEqual(map["key2"]!!.stringCol, mapFromResults["key2"]!!.stringCol)
        }
    }

    func checkPopulateEmptyMap() {
        let map = createMap()
        XCTAssertEqual(map.count, 0, "Should start with no array elements.")

        map["a"] = SwiftStringObject(value: ["a"])
        map["b"] = realmWithTestPath().create(SwiftStringObject.self, value: ["b"])
        map[str1.stringCol] = str1

        XCTAssertEqual(map.count, 3)
        XCTAssertEqual(map["a"]!!.stringCol, "a")
        XCTAssertEqual(map["b"]!!.stringCol, "b")
        XCTAssertEqual(map[str1.stringCol]!!.stringCol, str1.stringCol)

        var count = 0
        for object in map {
            XCTAssertTrue(object.key.description.utf16.count > 0, "Object should have description")
            XCTAssertTrue(object.value!.description.utf16.count > 0, "Object should have description")
            count += 1
        }
        XCTAssertEqual(count, 3)
    }

    func checkEnumeratingMap() {
        let map = createMap()
        for i in 0..<10 {
            map["key\(i)"] = SwiftStringObject(value: ["key\(i)"])
        }

        XCTAssertEqual(10, map.count)

        var expected = Set((0..<10).map { "key\($0)" })
        for element in map {
            XCTAssertEqual(element.key, element.value!.stringCol)
            expected.remove(element.key)
        }
        XCTAssertEqual(expected.count, 0)

        expected = Set((0..<10).map { "key\($0)" })
        for (key, value) in map.asKeyValueSequence() {
            XCTAssertEqual(key, value!.stringCol)
            expected.remove(key)
        }
        XCTAssertEqual(expected.count, 0)
    }

    func checkValueForKey() {
        let realm = try! Realm()
        try! realm.write {
            for value in [1, 2] {
                let mapObject = SwiftMapOfSwiftObject()
                let object = SwiftObject()
                object.intCol = value
                object.doubleCol = Double(value)
                object.stringCol = String(value)
                object.decimalCol = Decimal128(number: value as NSNumber)
                object.objectIdCol = try! ObjectId(string: String(repeating: String(value), count: 24))
                mapObject.map["key"] = object
                realm.add(mapObject)
            }
        }

        let mapObjects = realm.objects(SwiftMapOfSwiftObject.self)
        let mapsOfObjects = mapObjects.value(forKeyPath: "map") as! [Map<String, SwiftObject?>]
        let objects = realm.objects(SwiftObject.self)

        func testProperty<T: Equatable>(line: UInt = #line, fn: @escaping (SwiftObject?) -> T) {
            let properties: [T] = Array(mapObjects.flatMap {
                $0.map.values.map(fn)
            })
            let kvcProperties: [T] = Array(mapsOfObjects.flatMap { $0.values.map(fn) })
            XCTAssertEqual(properties, kvcProperties, line: line)
        }
        func testProperty<T: Equatable>(_ name: String, line: UInt = #line, fn: @escaping (SwiftObject?) -> T) {
            let properties = Array(objects.compactMap(fn))
            let mapsOfObjects = objects.value(forKeyPath: name) as! [T]
            let kvcProperties = Array(mapsOfObjects.compactMap { $0 })
            XCTAssertEqual(properties, kvcProperties, line: line)
        }

        testProperty { $0!.intCol }
        testProperty { $0!.doubleCol }
        testProperty { $0!.stringCol }
        testProperty { $0!.decimalCol }
        testProperty { $0!.objectIdCol }

        testProperty("intCol") { $0!.intCol }
        testProperty("doubleCol") { $0!.doubleCol }
        testProperty("stringCol") { $0!.stringCol }
        testProperty("decimalCol") { $0!.decimalCol }
        testProperty("objectIdCol") { $0!.objectIdCol }
    }

    func checkValueForKeyOptional() {
        let realm = try! Realm()
        try! realm.write {
            for value in [1, 2] {
                let mapObject = SwiftMapOfSwiftOptionalObject()
                let object = SwiftOptionalObject()
                object.optIntCol = value
                object.optInt8Col = Int8(value)
                object.optDoubleCol = Double(value)
                object.optStringCol = String(value)
                object.optNSStringCol = String(value)
                object.optDecimalCol = Decimal128(number: value as NSNumber)
                object.optObjectIdCol = try! ObjectId(string: String(repeating: String(value), count: 24))
                mapObject.map["key"] = object
                realm.add(mapObject)
            }
        }

        let mapObjects = realm.objects(SwiftMapOfSwiftOptionalObject.self)
        let mapsOfObjects = mapObjects.value(forKeyPath: "map") as! [Map<String, SwiftOptionalObject?>]
        let objects = realm.objects(SwiftOptionalObject.self)

        func testProperty<T: Equatable>(line: UInt = #line, fn: @escaping (SwiftOptionalObject?) -> T) {
            let properties: [T] = mapObjects.flatMap { $0.map.values.map(fn) }
            let kvcProperties: [T] = mapsOfObjects.flatMap { $0.values.map(fn) }
            XCTAssertEqual(properties, kvcProperties, line: line)
        }
        func testProperty<T: Equatable>(_ name: String, line: UInt = #line, fn: @escaping (SwiftOptionalObject?) -> T) {
            let properties = Array(objects.compactMap(fn))
            let mapsOfObjects = objects.value(forKeyPath: name) as! [T]
            let kvcProperties = Array(mapsOfObjects.compactMap { $0 })
            XCTAssertEqual(properties, kvcProperties, line: line)
        }

        testProperty { $0!.optIntCol }
        testProperty { $0!.optInt8Col }
        testProperty { $0!.optDoubleCol }
        testProperty { $0!.optStringCol }
        testProperty { $0!.optNSStringCol }
        testProperty { $0!.optDecimalCol }
        testProperty { $0!.optObjectCol }

        testProperty("optIntCol") { $0!.optIntCol }
        testProperty("optInt8Col") { $0!.optInt8Col }
        testProperty("optDoubleCol") { $0!.optDoubleCol }
        testProperty("optStringCol") { $0!.optStringCol }
        testProperty("optNSStringCol") { $0!.optNSStringCol }
        testProperty("optDecimalCol") { $0!.optDecimalCol }
        testProperty("optObjectCol") { $0!.optObjectCol }
    }

    func checkAppendEmbedded() throws {
        let map = try createEmbeddedMap()
        for i in 0..<10 {
            map["\(i)"] = EmbeddedTreeObject1(value: [i])
        }
        XCTAssertEqual(10, map.count)

        for element in map {
            XCTAssertEqual(Int(element.key), element.value!.value)
            XCTAssertEqual(map.realm, element.value!.realm)
        }

        if map.realm != nil {
            // This message comes from Core and is incorrect for Dictionary.
            // assertThrows((map["unassigned"] = map["0"]),
                         // reason: "Cannot add an existing managed embedded object to a Dictionary.")
        }
        realm.cancelWrite()
    }

    func checkSetEmbedded() throws {
        let map = try createEmbeddedMap()
        map["key"] = EmbeddedTreeObject1(value: [0])

        let oldObj = map["key"]
        let obj = EmbeddedTreeObject1(value: [1])
        map["key"] = obj
        XCTAssertTrue(map["key"]!!.isSameObject(as: obj))
        XCTAssertEqual(obj.value, 1)
        XCTAssertEqual(obj.realm, map.realm)

        if map.realm != nil {
            XCTAssertTrue(oldObj!!.isInvalidated)
            // assertThrows(map["key"] = obj,
                         // reason: "Cannot add an existing managed embedded object to a Dictionary.")
        }

        realm.cancelWrite()
    }

    func checkUnmanagedMapComparison() {
        let obj = SwiftIntObject()
        obj.intCol = 5
        let obj2 = SwiftIntObject()
        obj2.intCol = 6
        let obj3 = SwiftIntObject()
        obj3.intCol = 8

        let objects = ["obj": obj, "obj2": obj2, "obj3": obj3]
        let objects2 = ["obj": obj, "obj2": obj2]

        let map1 = Map<String, SwiftIntObject?>()
        let map2 = Map<String, SwiftIntObject?>()
        XCTAssertEqual(map1, map2, "Empty instances should be equal by `==` operator")

        map1.merge(objects) { (a, _) in a }
        map2.merge(objects) { (a, _) in a }

        let map3 = Map<String, SwiftIntObject?>()
        map3.merge(objects2) { (a, _) in a }

        XCTAssertTrue(map1 !== map2, "instances should not be identical")

        XCTAssertEqual(map1, map2, "instances should be equal by `==` operator")
        XCTAssertNotEqual(map1, map3, "instances should be equal by `==` operator")

        XCTAssertTrue(map1.isEqual(map2), "instances should be equal by `isEqual` method")
        XCTAssertTrue(!map1.isEqual(map3), "instances should be equal by `isEqual` method")

        map3["obj3"] = obj3
        XCTAssertEqual(map1, map3, "instances should be equal by `==` operator")

        // Strata change: `Dictionary(_immutableCocoaDictionary:)` (Objective-C bridging) is
        // `Dictionary(uniqueKeysWithValues: map.asKeyValueSequence())`.
        XCTAssertEqual(Dictionary<String, SwiftIntObject?>(uniqueKeysWithValues: map1.asKeyValueSequence()),
                       Dictionary<String, SwiftIntObject?>(uniqueKeysWithValues: map2.asKeyValueSequence()),
                       "instances converted to Swift.Dictionary should be equal")
        XCTAssertEqual(Dictionary<String, SwiftIntObject?>(uniqueKeysWithValues: map1.asKeyValueSequence()),
                       Dictionary<String, SwiftIntObject?>(uniqueKeysWithValues: map3.asKeyValueSequence()),
                       "instances converted to Swift.Dictionary should be equal")
        map3["obj3"] = nil
        map1["obj3"] = nil
        XCTAssertEqual(Dictionary<String, SwiftIntObject?>(uniqueKeysWithValues: map1.asKeyValueSequence()),
                       Dictionary<String, SwiftIntObject?>(uniqueKeysWithValues: map3.asKeyValueSequence()),
                       "instances should be equal by `==` operator")
    }

    func checkFilter() throws {
        // Strata gap: `Map.filter(_:)` and `Map.sorted(by:ascending:)` returning `Results<Value>`
        // (`Results<SwiftStringObject?>`) are not provided: Strata's `Map.sorted(byKeyPath:)`
        // returns `Results` of the objects; see docs/COMPATIBILITY.md.
        throw XCTSkip("Map.filter / Map.sorted(by:) returning Results<Value?> are not provided by Strata yet")
        #if false
        let map = createMap()

        map["key"] = SwiftStringObject(value: ["apples"])
        map["key2"] = SwiftStringObject(value: ["bananas"])
        map["key3"] = SwiftStringObject(value: ["cockroach"])

        if map.realm != nil {
            // Strata change: a format string instead of an NSPredicate object.
            let results: Results<SwiftStringObject?> = map.filter("stringCol = 'apples'")
            XCTAssertEqual(results.count, 1)
            XCTAssertEqual(results.first!!.stringCol, "apples")

            let results2: Results<SwiftStringObject?> = map.sorted(byKeyPath: "stringCol", ascending: true)
            XCTAssertEqual(results2.count, 3)
            XCTAssertEqual(results2[0]!.stringCol, "apples")
            XCTAssertEqual(results2[1]!.stringCol, "bananas")
            XCTAssertEqual(results2[2]!.stringCol, "cockroach")
        } else {
            // assertThrows(map.filter(NSPredicate(format: "stringCol = 'apples'")))
            // assertThrows(map.sorted(byKeyPath: "stringCol", ascending: false))
        }
        #endif
    }

    func checkKeyedSortable() throws {
        // Strata gap: `Map.filter(_:)` and `Map.sorted(by:ascending:)` returning `Results<Value>`
        // (`Results<SwiftStringObject?>`) are not provided: Strata's `Map.sorted(byKeyPath:)`
        // returns `Results` of the objects; see docs/COMPATIBILITY.md.
        throw XCTSkip("Map.filter / Map.sorted(by:) returning Results<Value?> are not provided by Strata yet")
        #if false
        let map = createMap()

        map["key"] = SwiftStringObject(value: ["apples"])
        map["key2"] = SwiftStringObject(value: ["bananas"])
        map["key3"] = SwiftStringObject(value: ["cockroach"])

        if map.realm != nil {
            let results2: Results<SwiftStringObject?> = map.sorted(by: \.stringCol,
                                                                   ascending: true)
            XCTAssertEqual(results2.count, 3)
            XCTAssertEqual(results2[0]?.stringCol, "apples")
            XCTAssertEqual(results2[1]?.stringCol, "bananas")
            XCTAssertEqual(results2[2]?.stringCol, "cockroach")
        } else {
            // assertThrows(map.sorted(by: \.stringCol, ascending: true))
        }
        #endif
    }

    func checkKeyedAggregatable() {
        let map = SwiftMapPropertyObject()
        map.intMap["key"] = SwiftIntObject(value: [1])
        map.intMap["key2"] = SwiftIntObject(value: [2])
        map.intMap["key3"] = SwiftIntObject(value: [3])

        func assertAggregations() {
            let min = map.intMap.min(of: \.intCol)
            let max = map.intMap.max(of: \.intCol)
            let sum = map.intMap.sum(of: \.intCol)
            let avg = map.intMap.average(of: \.intCol)
            XCTAssertEqual(min, 1)
            XCTAssertEqual(max, 3)
            XCTAssertEqual(sum, 6)
            XCTAssertEqual(avg, 2)
        }
        // unmanaged
        assertAggregations()
        realm.add(map)
        try! realm.commitWrite()
        // managed
        assertAggregations()
    }

    func checkAllKeysQuery() {
        let map = createMap()
        if let realm = map.realm {
            func test<T: RealmCollectionValue>(on key: String, value: T) {
                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allKeys = 'aKey'").count, 0)
                let o = SwiftMapObject()
                (o.value(forKey: key) as! Map<String, T>)["aKey"] = value
                let o2 = SwiftMapObject()
                (o2.value(forKey: key) as! Map<String, T>)["aKey2"] = value
                let o3 = SwiftMapObject()
                (o3.value(forKey: key) as! Map<String, T>)["aKey3"] = value
                let o4 = SwiftMapObject()
                // this object should be visible from `ANY \(key).@allKeys != 'aKey'`
                // as the dictionary contains more than one key.
                (o4.value(forKey: key) as! Map<String, T>)["aKey"] = value
                (o4.value(forKey: key) as! Map<String, T>)["aKey4"] = value
                realm.add([o, o2, o3, o4])

                XCTAssertEqual(realm.objects(SwiftMapObject.self).count, 4)
                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allKeys = 'aKey'").count, 2)
                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allKeys != 'aKey'").count, 3)

                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allKeys =[c] 'akey'").count, 2)
                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allKeys !=[c] 'akey'").count, 3)

                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allKeys =[cd] 'akéy'").count, 2)
                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allKeys !=[cd] 'akéy'").count, 3)

                realm.delete([o, o2, o3, o4])
            }

            test(on: "int", value: Int(123))
            test(on: "int8", value: Int8(127))
            test(on: "int16", value: Int16(789))
            test(on: "int32", value: Int32(789))
            test(on: "int64", value: Int64(789))
            test(on: "float", value: Float(789.123))
            test(on: "double", value: Double(789.123))
            test(on: "string", value: "Hello")
            test(on: "data", value: Data(count: 16))
            test(on: "date", value: Date())
            test(on: "decimal", value: Decimal128(floatLiteral: 123.456))
            test(on: "objectId", value: ObjectId())
            test(on: "uuid", value: UUID())
            test(on: "object", value: Optional<SwiftStringObject>(SwiftStringObject(value: ["hello"])))
        }
    }

    func checkAllValuesQuery() {
        let map = createMap()
        if let realm = map.realm {
            func test<T: RealmCollectionValue>(on key: String, values: T...) {
                XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues = %@", values[0]).count, 0)
                let o = SwiftMapObject()
                (o.value(forKey: key) as! Map<String, T>)["aKey"] = values[0]
                let o2 = SwiftMapObject()
                (o2.value(forKey: key) as! Map<String, T>)["aKey2"] = values[1]
                let o3 = SwiftMapObject()
                (o3.value(forKey: key) as! Map<String, T>)["aKey3"] = values[2]
                realm.add([o, o2, o3])

                if T.self is Object.Type {
                    let stringObj = realm.objects(SwiftStringObject.self).filter("stringCol == 'hello'").first!
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues = %@", stringObj).count, 1)
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues != %@", stringObj).count, 2)
                } else {
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).count, 3)
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues = %@", values[0]).count, 1)
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues != %@", values[0]).count, 2)
                }

                if T.self is String.Type {
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues =[c] %@", values[0]).count, 2)
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues !=[c] %@", values[0]).count, 1)

                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues =[cd] %@", values[0]).count, 3)
                    XCTAssertEqual(realm.objects(SwiftMapObject.self).filter("ANY \(key).@allValues !=[cd] %@", values[0]).count, 0)
                }
                realm.delete([o, o2, o3])
            }

            test(on: "int", values: Int(123), Int(456), Int(789))
            test(on: "int8", values: Int8(127), Int8(0), Int8(64))
            test(on: "int16", values: Int16(789), Int16(345), Int16(567))
            test(on: "int32", values: Int32(789), Int32(132), Int32(345))
            test(on: "int64", values: Int64(789), Int64(234), Int64(345))
            test(on: "float", values: Float(789.123), Float(123.123), Float(234.123))
            test(on: "double", values: Double(789.123), Double(123.123), Double(234.123))
            test(on: "string", values: "Hello", "Héllo", "hello")
            test(on: "data", values: Data(count: 16), Data(count: 32), Data(count: 64))
            test(on: "date",
                 values: Date(timeIntervalSince1970: 2000),
                 Date(timeIntervalSince1970: 4000),
                 Date(timeIntervalSince1970: 8000))
            test(on: "decimal", values: Decimal128(floatLiteral: 123.456), Decimal128(floatLiteral: 234.456), Decimal128(floatLiteral: 345.456))
            test(on: "objectId",
                 values: ObjectId("507f1f77bcf86cd799439011"),
                 ObjectId("507f1f77bcf86cd799439012"),
                 ObjectId("507f1f77bcf86cd799439013"))
            test(on: "uuid",
                 values: UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89")!,
                 UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD88")!,
                 UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD87")!)
            test(on: "object",
                 values: Optional<SwiftStringObject>(SwiftStringObject(value: ["hello"])),
                 Optional<SwiftStringObject>(SwiftStringObject(value: ["there"])),
                 Optional<SwiftStringObject>(SwiftStringObject(value: ["bye"])))
        }
    }
    // MARK: Notification Tests

    func checkNotificationSentInitially() {
        let mapObj = createMap()
        try! mapObj.realm!.commitWrite()

        let ex = expectation(description: "does receive notification")
        let token = mapObj.observe(on: queue) { change in
            switch change {
            case .initial(let map):
                XCTAssertNotNil(map)
                ex.fulfill()
            default:
                XCTFail("should not get here for this test")
            }
        }
        wait(for: [ex], timeout: 2.0)
        token.invalidate()
        queue.sync { }
    }

    func checkNotificationSentAfterCommit() {
        let mapObj = createMap()
        try! mapObj.realm!.commitWrite()

        var exp = expectation(description: "does receive notification")
        var didInsert = false
        var didModify = false
        var didDelete = false
        let token = mapObj.observe(on: queue) { change in
            switch change {
            case .initial(let map):
                XCTAssertNotNil(map)
                exp.fulfill()
            case let .update(map, deletions: deletions, insertions: insertions, modifications: modifications):
                XCTAssertNotNil(map)
                if didModify && !didDelete {
                    XCTAssertEqual(deletions, ["myNewKey"])
                    didDelete.toggle()
                } else if didInsert {
                    XCTAssertEqual(modifications, ["myNewKey"])
                    didModify.toggle()
                } else {
                    XCTAssertEqual(insertions, ["anotherNewKey", "myNewKey"])
                    didInsert.toggle()
                }
                exp.fulfill()
            case .error:
                XCTFail("should not get here for this test")
            }
        }
        wait(for: [exp], timeout: 2.0)
        exp = expectation(description: "does receive notification")
        try! realm.write {
            mapObj["myNewKey"] = SwiftStringObject(value: ["one"])
            mapObj["anotherNewKey"] = SwiftStringObject(value: ["two"])
        }
        wait(for: [exp], timeout: 2.0)
        XCTAssertTrue(didInsert)

        exp = expectation(description: "does receive notification")
        try! realm.write {
            mapObj["myNewKey"] = SwiftStringObject(value: ["three"])
        }
        wait(for: [exp], timeout: 2.0)

        exp = expectation(description: "does receive notification")
        XCTAssertTrue(didModify)
        try! realm.write {
            mapObj["myNewKey"] = nil
        }
        wait(for: [exp], timeout: 2.0)
        XCTAssertTrue(didDelete)

        token.invalidate()
        queue.sync { }
    }

    /* Expect notification on "intCol" key path when intCol is changed */
    func checkObserveKeyPath() {
        let mapObj = createMapObject()
        mapObj.swiftObjectMap["first"] = SwiftObject(value: ["intCol": 1, "stringCol": "one"])
        mapObj.swiftObjectMap["second"] = SwiftObject(value: ["intCol": 2, "stringCol": "two"])
        try! mapObj.realm!.commitWrite()

        var ex = expectation(description: "initial notification")
        let token = mapObj.swiftObjectMap.observe(keyPaths: ["intCol"]) { (changes: RealmMapChange) in
            switch changes {
            case .initial(let map):
                XCTAssertEqual(map.count, 2)
            case .update(_, let deletions, let insertions, let modifications):
                XCTAssertEqual(deletions, [])
                XCTAssertEqual(insertions, [])
                XCTAssertEqual(modifications, ["first"])
            case .error:
                XCTFail("error not expected")
            }
            ex.fulfill()
        }
        wait(for: [ex], timeout: 2.0)

        /* Expect notification on "intCol" key path when intCol is changed */
        ex = expectation(description: "change notification")
        dispatchSyncBackground { unsafeSelf in
            let realm = unsafeSelf.realmWithTestPath()
            realm.beginWrite()
            let obj = realm.objects(SwiftMapPropertyObject.self).first!
            let value = obj.swiftObjectMap["first"]!!
            value.intCol = 8
            try! realm.commitWrite()
        }
        wait(for: [ex], timeout: 2.0)
        token.invalidate()
    }

    /* Expect no notification on "intCol" key path when stringCol is changed */
    func checkObserveKeyPathNoChange() {
        let mapObj = createMapObject()
        mapObj.swiftObjectMap["first"] = SwiftObject(value: ["intCol": 1, "stringCol": "one"])
        mapObj.swiftObjectMap["second"] = SwiftObject(value: ["intCol": 2, "stringCol": "two"])
        try! mapObj.realm!.commitWrite()

        var ex = expectation(description: "initial notification")
        let token = mapObj.swiftObjectMap.observe(keyPaths: ["intCol"]) { (changes: RealmMapChange) in
            switch changes {
            case .initial(let map):
                XCTAssertEqual(map.count, 2)
            case .update:
                XCTFail("update not expected")
            case .error:
                XCTFail("error not expected")
            }
            ex.fulfill()
        }
        wait(for: [ex], timeout: 0.1)

        /* Expect no notification on "intCol" key path when stringCol is changed */
        ex = expectation(description: "NO change notification")
        ex.isInverted = true
        dispatchSyncBackground { unsafeSelf in
            let realm = unsafeSelf.realmWithTestPath()
            realm.beginWrite()
            let obj = realm.objects(SwiftMapPropertyObject.self).first!
            let value = obj.swiftObjectMap["first"]!!
            value.stringCol = "new string"
            try! realm.commitWrite()
        }
        wait(for: [ex], timeout: 0.1)
        token.invalidate()
    }

    /* Expect notification delete notification on "intCol" key path when object is removed from map. */
    func checkObserveKeyPathRemoved() {
        let mapObj = createMapObject()
        mapObj.swiftObjectMap["first"] = SwiftObject(value: ["intCol": 1, "stringCol": "one"])
        mapObj.swiftObjectMap["second"] = SwiftObject(value: ["intCol": 2, "stringCol": "two"])
        try! mapObj.realm!.commitWrite()

        var ex = expectation(description: "initial notification")
        let token = mapObj.swiftObjectMap.observe(keyPaths: ["intCol"]) { (changes: RealmMapChange) in
            switch changes {
            case .initial(let map):
                XCTAssertEqual(map.count, 2)
            case .update(let map, let deletions, let insertions, let modifications):
                XCTAssertEqual(deletions, ["first"])
                XCTAssertEqual(insertions, [])
                XCTAssertEqual(modifications, [])
                XCTAssertEqual(map.count, 1)
            case .error:
                XCTFail("error not expected")
            }
            ex.fulfill()
        }
        wait(for: [ex], timeout: 0.1)

        /* Expect notification on "intCol" key path when intCol is changed */
        ex = expectation(description: "change notification")
        dispatchSyncBackground { unsafeSelf in
            let realm = unsafeSelf.realmWithTestPath()
            realm.beginWrite()
            let obj = realm.objects(SwiftMapPropertyObject.self).first!
            obj.swiftObjectMap.removeObject(for: "first")
            try! realm.commitWrite()
        }
        wait(for: [ex], timeout: 0.1)
        token.invalidate()
    }

    /* Expect modification notification on "intCol" key path when object is deleted from realm. */
    func checkObserveKeyPathDeleted() {
        let mapObj = createMapObject()
        mapObj.swiftObjectMap["first"] = SwiftObject(value: ["intCol": 1, "stringCol": "one"])
        mapObj.swiftObjectMap["second"] = SwiftObject(value: ["intCol": 2, "stringCol": "two"])
        try! mapObj.realm!.commitWrite()

        var ex = expectation(description: "initial notification")
        let token = mapObj.swiftObjectMap.observe(keyPaths: ["intCol"]) { (changes: RealmMapChange) in
            switch changes {
            case .initial(let map):
                XCTAssertEqual(map.count, 2)
            case .update(let map, let deletions, let insertions, let modifications):
                XCTAssertEqual(deletions, [])
                XCTAssertEqual(insertions, [])
                XCTAssertEqual(modifications, ["first"])
                XCTAssertEqual(map.count, 2)
            case .error:
                XCTFail("error not expected")
            }
            ex.fulfill()
        }
        wait(for: [ex], timeout: 0.1)

        ex = expectation(description: "change notification")
        dispatchSyncBackground { unsafeSelf in
            let realm = unsafeSelf.realmWithTestPath()
            realm.beginWrite()
            let obj = realm.objects(SwiftMapPropertyObject.self).first!
            let value = obj.swiftObjectMap["first"]!!
            realm.delete(value)
            try! realm.commitWrite()
        }
        wait(for: [ex], timeout: 0.1)
        token.invalidate()
    }

    /* Expect notification on "owners.name" (a backlink property) key path when name is modified. */
    func checkObserveKeyPathBacklink() {
        let mapObj = createMapObject()
        let person = realm.create(SwiftOwnerObject.self, value: ["name": "Moe"])
        let dog = SwiftDogObject()
        person.dog = dog
        mapObj.dogMap["first"] = dog
        try! mapObj.realm!.commitWrite()

        var ex = expectation(description: "initial notification")
        let token = mapObj.dogMap.observe(keyPaths: ["owners.name"]) { (changes: RealmMapChange) in
            switch changes {
            case .initial(let map):
                XCTAssertEqual(map.count, 1)
                XCTAssertEqual(map["first"]!!.owners.first?.name, "Moe")
            case .update(_, let deletions, let insertions, let modifications):
                XCTAssertEqual(deletions, [])
                XCTAssertEqual(insertions, [])
                XCTAssertEqual(modifications, ["first"])
            case .error:
                XCTFail("error not expected")
            }
            ex.fulfill()
        }
        wait(for: [ex], timeout: 0.1)

        ex = expectation(description: "change notification")
        dispatchSyncBackground { unsafeSelf in
            let realm = unsafeSelf.realmWithTestPath()
            realm.beginWrite()
            let obj = realm.objects(SwiftOwnerObject.self).first!
            obj.name = "Curley"
            try! realm.commitWrite()
        }
        wait(for: [ex], timeout: 0.1)
        token.invalidate()
    }

    @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
    @MainActor func checkObserveOnActor() async throws {
        let map = createMapObject().swiftObjectMap
        map["a"] = SwiftObject()
        try realm.commitWrite()

        let initialEx = expectation(description: "initial")
        let changeEx = expectation(description: "change")
        let token = await map.observe(keyPaths: ["intCol"], on: MainActor.shared) { _, change in
            switch change {
            case .initial:
                initialEx.fulfill()
            case .update:
                changeEx.fulfill()
            case .error(let error):
                XCTFail("Unexpected error \(error)")
            }
        }
        await fulfillment(of: [initialEx], timeout: 10)
        // A write which should not produce a notification and will over-fulfill
        // the expectation if it does
        try realm.write {
            map["a"]??.boolCol = true
        }
        try realm.write {
            map["a"]??.intCol += 1
        }
        await fulfillment(of: [changeEx], timeout: 10)
        token.invalidate()
    }

    @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
    @MainActor func checkObserveOnActorTypedKeyPath() async throws {
        // Strata gap: `Map.observe(keyPaths:on: actor)` with typed key paths (`[\.intCol]`) is not
        // provided yet (the string form is); see docs/COMPATIBILITY.md.
        throw XCTSkip("Map.observe(keyPaths:on: actor) with typed key paths is not provided by Strata yet")
        #if false
        let map = createMapObject().swiftObjectMap
        map["a"] = SwiftObject()
        try realm.commitWrite()

        let initialEx = expectation(description: "initial")
        let changeEx = expectation(description: "change")
        let token = await map.observe(keyPaths: [\.intCol], on: MainActor.shared) { _, change in
            switch change {
            case .initial:
                initialEx.fulfill()
            case .update:
                changeEx.fulfill()
            case .error(let error):
                XCTFail("Unexpected error \(error)")
            }
        }
        await fulfillment(of: [initialEx])
        // A write which should not produce a notification and will over-fulfill
        // the expectation if it does
        try realm.write {
            map["a"]??.boolCol = true
        }
        try realm.write {
            map["a"]??.intCol += 1
        }
        await fulfillment(of: [changeEx])
        token.invalidate()
        #endif
    }
}

class MapStandaloneTests: MapTests {
    override func createMap() -> Map<String, SwiftStringObject?> {
        return createMapObject().map
    }

    override func createMapObject() -> SwiftMapPropertyObject {
        return SwiftMapPropertyObject()
    }

    override func createEmbeddedMap() throws -> Map<String, EmbeddedTreeObject1?> {
        return Map<String, EmbeddedTreeObject1?>()
    }

    override func checkNotificationSentInitially() {
        _ = createMap()
        // assertThrows(mapObj.observe {_ in }) (observing an unmanaged map traps in Strata)
    }

    override func checkNotificationSentAfterCommit() {
        _ = createMap()
        // assertThrows(mapObj.observe {_ in }) (observing an unmanaged map traps in Strata)
    }

    override func checkObserveKeyPath() {
        _ = createMap()
        // assertThrows(mapObj.observe {_ in }) (observing an unmanaged map traps in Strata)
    }

    override func checkObserveKeyPathNoChange() {
        _ = createMap()
        // assertThrows(mapObj.observe {_ in }) (observing an unmanaged map traps in Strata)
    }

    override func checkObserveKeyPathRemoved() {
        _ = createMap()
        // assertThrows(mapObj.observe {_ in }) (observing an unmanaged map traps in Strata)
    }

    override func checkObserveKeyPathDeleted() {
        _ = createMap()
        // assertThrows(mapObj.observe {_ in }) (observing an unmanaged map traps in Strata)
    }

    override func checkObserveKeyPathBacklink() {
        _ = createMap()
        // assertThrows(mapObj.observe {_ in }) (observing an unmanaged map traps in Strata)
    }

    @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
    @MainActor override func checkObserveOnActor() async throws {
    }

    @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
    @MainActor override func checkObserveOnActorTypedKeyPath() async throws {
    }
    // Strata change: Swift on Linux runs only the test methods a class declares itself, so
    // this variant re-declares the inherited ones (generated; realm-swift inherits them).
    func testPrimitive() { checkPrimitive() }
    func testValueForKeyOptional() { checkValueForKeyOptional() }
    func testPrimitiveIterationAcrossNil() { checkPrimitiveIterationAcrossNil() }
    func testInvalidated() { checkInvalidated() }
    func testFastEnumerationWithMutation() { checkFastEnumerationWithMutation() }
    func testMapDescription() { checkMapDescription() }
    func testAppendObject() { checkAppendObject() }
    func testInsert() { checkInsert() }
    func testRemove() { checkRemove() }
    func testRemoveAll() { checkRemoveAll() }
    func testDeleteObjectFromMap() { checkDeleteObjectFromMap() }
    func testMerge() { checkMerge() }
    func testChangesArePersisted() { checkChangesArePersisted() }
    func testPopulateEmptyMap() { checkPopulateEmptyMap() }
    func testEnumeratingMap() { checkEnumeratingMap() }
    func testValueForKey() { checkValueForKey() }
    func testAppendEmbedded() throws { try checkAppendEmbedded() }
    func testSetEmbedded() throws { try checkSetEmbedded() }
    func testUnmanagedMapComparison() { checkUnmanagedMapComparison() }
    func testFilter() throws { try checkFilter() }
    func testKeyedSortable() throws { try checkKeyedSortable() }
    func testKeyedAggregatable() { checkKeyedAggregatable() }
    func testAllKeysQuery() { checkAllKeysQuery() }
    func testAllValuesQuery() { checkAllValuesQuery() }
}

class MapNewlyAddedTests: MapTests {
    override func createMap() -> Map<String, SwiftStringObject?> {
        let mapObj = SwiftMapPropertyObject()
        realm.add(mapObj)
        XCTAssertNotNil(mapObj.realm)
        return mapObj.map
    }

    override func createMapObject() -> SwiftMapPropertyObject {
        let mapObj = SwiftMapPropertyObject()
        realm.add(mapObj)
        XCTAssertNotNil(mapObj.realm)
        return mapObj
    }

    override func createEmbeddedMap() throws -> Map<String, EmbeddedTreeObject1?> {
        // Strata gap: maps of embedded objects are not supported (EmbeddedParentObject has no
        // `map` property here; see PortedTestObjects.swift and docs/COMPATIBILITY.md).
        throw XCTSkip("maps of embedded objects are not supported by Strata yet")
    }
    // Strata change: Swift on Linux runs only the test methods a class declares itself, so
    // this variant re-declares the inherited ones (generated; realm-swift inherits them).
    func testPrimitive() { checkPrimitive() }
    func testValueForKeyOptional() { checkValueForKeyOptional() }
    func testPrimitiveIterationAcrossNil() { checkPrimitiveIterationAcrossNil() }
    func testInvalidated() { checkInvalidated() }
    func testFastEnumerationWithMutation() { checkFastEnumerationWithMutation() }
    func testMapDescription() { checkMapDescription() }
    func testAppendObject() { checkAppendObject() }
    func testInsert() { checkInsert() }
    func testRemove() { checkRemove() }
    func testRemoveAll() { checkRemoveAll() }
    func testDeleteObjectFromMap() { checkDeleteObjectFromMap() }
    func testMerge() { checkMerge() }
    func testChangesArePersisted() { checkChangesArePersisted() }
    func testPopulateEmptyMap() { checkPopulateEmptyMap() }
    func testEnumeratingMap() { checkEnumeratingMap() }
    func testValueForKey() { checkValueForKey() }
    func testAppendEmbedded() throws { try checkAppendEmbedded() }
    func testSetEmbedded() throws { try checkSetEmbedded() }
    func testUnmanagedMapComparison() { checkUnmanagedMapComparison() }
    func testFilter() throws { try checkFilter() }
    func testKeyedSortable() throws { try checkKeyedSortable() }
    func testKeyedAggregatable() { checkKeyedAggregatable() }
    func testAllKeysQuery() { checkAllKeysQuery() }
    func testAllValuesQuery() { checkAllValuesQuery() }
    func testNotificationSentInitially() { checkNotificationSentInitially() }
    func testNotificationSentAfterCommit() { checkNotificationSentAfterCommit() }
    func testObserveKeyPath() { checkObserveKeyPath() }
    func testObserveKeyPathNoChange() { checkObserveKeyPathNoChange() }
    func testObserveKeyPathRemoved() { checkObserveKeyPathRemoved() }
    func testObserveKeyPathDeleted() { checkObserveKeyPathDeleted() }
    func testObserveKeyPathBacklink() { checkObserveKeyPathBacklink() }
    @MainActor func testObserveOnActor() async throws { try await checkObserveOnActor() }
    @MainActor func testObserveOnActorTypedKeyPath() async throws { try await checkObserveOnActorTypedKeyPath() }
}

class MapNewlyCreatedTests: MapTests {
    override func createMap() -> Map<String, SwiftStringObject?> {
        let mapObj = realm.create(SwiftMapPropertyObject.self, value: ["name"])
        try! realm.commitWrite()
        realm.beginWrite()
        XCTAssertNotNil(mapObj.realm)
        return mapObj.map
    }

    override func createMapObject() -> SwiftMapPropertyObject {
        let mapObj = realm.create(SwiftMapPropertyObject.self)
        try! realm.commitWrite()
        realm.beginWrite()
        XCTAssertNotNil(mapObj.realm)
        return mapObj
    }

    override func createEmbeddedMap() throws -> Map<String, EmbeddedTreeObject1?> {
        // Strata gap: maps of embedded objects are not supported (EmbeddedParentObject has no
        // `map` property here; see PortedTestObjects.swift and docs/COMPATIBILITY.md).
        throw XCTSkip("maps of embedded objects are not supported by Strata yet")
    }
    // Strata change: Swift on Linux runs only the test methods a class declares itself, so
    // this variant re-declares the inherited ones (generated; realm-swift inherits them).
    func testPrimitive() { checkPrimitive() }
    func testValueForKeyOptional() { checkValueForKeyOptional() }
    func testPrimitiveIterationAcrossNil() { checkPrimitiveIterationAcrossNil() }
    func testInvalidated() { checkInvalidated() }
    func testFastEnumerationWithMutation() { checkFastEnumerationWithMutation() }
    func testMapDescription() { checkMapDescription() }
    func testAppendObject() { checkAppendObject() }
    func testInsert() { checkInsert() }
    func testRemove() { checkRemove() }
    func testRemoveAll() { checkRemoveAll() }
    func testDeleteObjectFromMap() { checkDeleteObjectFromMap() }
    func testMerge() { checkMerge() }
    func testChangesArePersisted() { checkChangesArePersisted() }
    func testPopulateEmptyMap() { checkPopulateEmptyMap() }
    func testEnumeratingMap() { checkEnumeratingMap() }
    func testValueForKey() { checkValueForKey() }
    func testAppendEmbedded() throws { try checkAppendEmbedded() }
    func testSetEmbedded() throws { try checkSetEmbedded() }
    func testUnmanagedMapComparison() { checkUnmanagedMapComparison() }
    func testFilter() throws { try checkFilter() }
    func testKeyedSortable() throws { try checkKeyedSortable() }
    func testKeyedAggregatable() { checkKeyedAggregatable() }
    func testAllKeysQuery() { checkAllKeysQuery() }
    func testAllValuesQuery() { checkAllValuesQuery() }
    func testNotificationSentInitially() { checkNotificationSentInitially() }
    func testNotificationSentAfterCommit() { checkNotificationSentAfterCommit() }
    func testObserveKeyPath() { checkObserveKeyPath() }
    func testObserveKeyPathNoChange() { checkObserveKeyPathNoChange() }
    func testObserveKeyPathRemoved() { checkObserveKeyPathRemoved() }
    func testObserveKeyPathDeleted() { checkObserveKeyPathDeleted() }
    func testObserveKeyPathBacklink() { checkObserveKeyPathBacklink() }
    @MainActor func testObserveOnActor() async throws { try await checkObserveOnActor() }
    @MainActor func testObserveOnActorTypedKeyPath() async throws { try await checkObserveOnActorTypedKeyPath() }
}

class MapRetrievedTests: MapTests {
    override func createMap() -> Map<String, SwiftStringObject?> {
        realm.create(SwiftMapPropertyObject.self, value: ["name"])
        try! realm.commitWrite()
        let mapObj = realm.objects(SwiftMapPropertyObject.self).first!

        XCTAssertNotNil(mapObj.realm)
        realm.beginWrite()
        return mapObj.map
    }

    override func createMapObject() -> SwiftMapPropertyObject {
        realm.create(SwiftMapPropertyObject.self)
        try! realm.commitWrite()

        let mapObj = realm.objects(SwiftMapPropertyObject.self).first!

        XCTAssertNotNil(mapObj.realm)
        realm.beginWrite()
        return mapObj
    }

    override func createEmbeddedMap() throws -> Map<String, EmbeddedTreeObject1?> {
        // Strata gap: maps of embedded objects are not supported (EmbeddedParentObject has no
        // `map` property here; see PortedTestObjects.swift and docs/COMPATIBILITY.md).
        throw XCTSkip("maps of embedded objects are not supported by Strata yet")
    }
    // Strata change: Swift on Linux runs only the test methods a class declares itself, so
    // this variant re-declares the inherited ones (generated; realm-swift inherits them).
    func testPrimitive() { checkPrimitive() }
    func testValueForKeyOptional() { checkValueForKeyOptional() }
    func testPrimitiveIterationAcrossNil() { checkPrimitiveIterationAcrossNil() }
    func testInvalidated() { checkInvalidated() }
    func testFastEnumerationWithMutation() { checkFastEnumerationWithMutation() }
    func testMapDescription() { checkMapDescription() }
    func testAppendObject() { checkAppendObject() }
    func testInsert() { checkInsert() }
    func testRemove() { checkRemove() }
    func testRemoveAll() { checkRemoveAll() }
    func testDeleteObjectFromMap() { checkDeleteObjectFromMap() }
    func testMerge() { checkMerge() }
    func testChangesArePersisted() { checkChangesArePersisted() }
    func testPopulateEmptyMap() { checkPopulateEmptyMap() }
    func testEnumeratingMap() { checkEnumeratingMap() }
    func testValueForKey() { checkValueForKey() }
    func testAppendEmbedded() throws { try checkAppendEmbedded() }
    func testSetEmbedded() throws { try checkSetEmbedded() }
    func testUnmanagedMapComparison() { checkUnmanagedMapComparison() }
    func testFilter() throws { try checkFilter() }
    func testKeyedSortable() throws { try checkKeyedSortable() }
    func testKeyedAggregatable() { checkKeyedAggregatable() }
    func testAllKeysQuery() { checkAllKeysQuery() }
    func testAllValuesQuery() { checkAllValuesQuery() }
    func testNotificationSentInitially() { checkNotificationSentInitially() }
    func testNotificationSentAfterCommit() { checkNotificationSentAfterCommit() }
    func testObserveKeyPath() { checkObserveKeyPath() }
    func testObserveKeyPathNoChange() { checkObserveKeyPathNoChange() }
    func testObserveKeyPathRemoved() { checkObserveKeyPathRemoved() }
    func testObserveKeyPathDeleted() { checkObserveKeyPathDeleted() }
    func testObserveKeyPathBacklink() { checkObserveKeyPathBacklink() }
    @MainActor func testObserveOnActor() async throws { try await checkObserveOnActor() }
    @MainActor func testObserveOnActorTypedKeyPath() async throws { try await checkObserveOnActorTypedKeyPath() }
}
