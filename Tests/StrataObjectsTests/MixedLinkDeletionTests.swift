import XCTest
import Foundation
@testable import StrataObjects

/// Deleting an object that mixed (`AnyRealmValue`) values link to, as realm-core's nullify does:
/// a single value becomes null, a list or set loses the element, a map keeps its key with null.
/// Before, the values kept the link: it read as null while the key was free and as the new
/// object once one took the key again (an object re-added with the same primary key).
final class MixedLinkDeletionTests: XCTestCase {
    let schema = Schema([
        ObjectSchema(className: "Holder", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true),
            PropertySchema(name: "any", type: .mixed, isOptional: true),
            PropertySchema(name: "anyList", type: .mixed, collection: .list, isOptional: true),
            PropertySchema(name: "anySet", type: .mixed, collection: .set, isOptional: true),
            PropertySchema(name: "anyMap", type: .mixed, collection: .map, isOptional: true),
        ]),
        ObjectSchema(className: "Target", properties: [
            PropertySchema(name: "id", type: .int, isPrimaryKey: true),
            PropertySchema(name: "name", type: .string),
        ]),
    ])

    func testDeletingALinkedObjectNullifiesOrRemovesMixedLinksToIt() throws {
        let dir = TempDir()
        let db = try Database(path: dir.path("mixed.strata"), schema: schema)
        defer { db.close() }
        func link(_ k: ObjKey) -> Value { .object(ObjectLink(className: "Target", key: k)) }
        var w = try db.write()
        let t1 = try w.create("Target", values: ["id": .int(1), "name": .string("one")])
        let t2 = try w.create("Target", values: ["id": .int(2), "name": .string("two")])
        let h = try w.create("Holder", values: ["id": .int(10), "any": link(t1)],
                             collections: ["anyList": [link(t1), .int(5), link(t2), link(t1)], "anySet": [link(t1), .string("x")]],
                             maps: ["anyMap": [("a", link(t1)), ("b", .int(2)), ("c", link(t2))]])
        let other = try w.create("Holder", values: ["id": .int(11), "any": link(t2)])
        try w.commit()

        w = try db.write()
        try w.delete("Target", t1)
        try w.commit()
        var r = try db.read()
        XCTAssertEqual(try r.value("Holder", h, "any"), .null)
        XCTAssertEqual(try r.list("Holder", h, "anyList"), [.int(5), link(t2)])
        XCTAssertEqual(try r.list("Holder", h, "anySet"), [.string("x")])
        XCTAssertEqual(try r.map("Holder", h, "anyMap").map(\.key), ["a", "b", "c"])
        XCTAssertEqual(try r.map("Holder", h, "anyMap").map(\.value), [.null, .int(2), link(t2)])
        XCTAssertEqual(try r.value("Holder", other, "any"), link(t2), "links to other objects stay")
        r.end()

        // A new object with the same primary key takes the same key: the old links stay gone.
        w = try db.write()
        let again = try w.create("Target", values: ["id": .int(1), "name": .string("new one")])
        XCTAssertEqual(again, t1)
        try w.commit()
        r = try db.read()
        XCTAssertEqual(try r.value("Holder", h, "any"), .null)
        XCTAssertEqual(try r.list("Holder", h, "anyList"), [.int(5), link(t2)])
        XCTAssertEqual(try r.map("Holder", h, "anyMap").map(\.value), [.null, .int(2), link(t2)])
        r.end()
        assertSound(db)
    }
}
