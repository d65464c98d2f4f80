import XCTest
import Foundation
@testable import StrataObjects

/// `create(_:value:update:)` with an object of another Realm copies it and what it links to.
final class CrossRealmCopyTests: XCTestCase {
    func testCreateCopiesLinkedObjectsListsAndEmbeddedObjects() throws {
        let f = APIFixture()
        let a = try Realm(configuration: f.config("a.strata"))
        let b = try Realm(configuration: f.config("b.strata"))
        let rex = ADog(name: "Rex", weight: 12), fido = ADog(name: "Fido")
        try a.write {
            let p = APerson(id: 1, name: "Ada", age: 36)
            p.best = rex
            p.dogs.append(objectsIn: [rex, fido])
            p.address = AAddress(); p.address!.street = "Main"; p.address!.geo = AGeo(); p.address!.geo!.lat = 1.5
            p.tags.insert("t")
            let old = AAddress(); old.city = "Old Town"
            p.previous.append(old)
            p.extra = .object(fido)
            p.scores["s"] = 3
            a.add(p)
            rex.owner = p   // a cycle: person → dog → person
        }
        let source = try XCTUnwrap(a.objects(APerson.self).first)
        for policy in [UpdatePolicy.error, .modified, .all] {
            let copy = try b.write { try b.tryCreate(APerson.self, value: source, update: policy) }
            XCTAssertEqual(copy.realm, b)
            XCTAssertEqual(copy.name, "Ada"); XCTAssertEqual(copy.age, 36); XCTAssertEqual(Array(copy.tags), ["t"])
            XCTAssertEqual(copy.best?.name, "Rex"); XCTAssertEqual(copy.best?.realm, b); XCTAssertEqual(copy.best?.id, rex.id)
            XCTAssertEqual(copy.dogs.map(\.name), ["Rex", "Fido"])
            XCTAssertEqual(copy.dogs.first, copy.best, "one copy per source object")
            XCTAssertEqual(copy.best?.owner, copy, "the cycle leads back to the copy")
            XCTAssertEqual(copy.address?.street, "Main"); XCTAssertEqual(copy.address?.geo?.lat, 1.5)
            XCTAssertEqual(copy.previous.map(\.city), ["Old Town"]); XCTAssertEqual(copy.scores["s"], 3)
            XCTAssertEqual(copy.extra.object(ADog.self), copy.dogs.last, "a mixed link is copied too")
            XCTAssertEqual(b.objects(APerson.self).count, 1)
            XCTAssertEqual(b.objects(ADog.self).count, 2)
            XCTAssertEqual(a.objects(ADog.self).count, 2, "the source is unchanged")
            if policy == .error {
                // The same again: primary keys exist now, and `.error` says so.
                XCTAssertThrowsError(try b.write { _ = try b.tryCreate(APerson.self, value: source) }) {
                    guard case .duplicatePrimaryKey = $0 as? ObjectError else { return XCTFail("\($0)") }
                }
            }
        }
        // An update through `.modified` takes the source's changed values, linked objects too.
        try a.write { source.best!.name = "Rex II"; source.dogs.removeLast() }
        try b.write { _ = b.create(APerson.self, value: source, update: .modified) }
        let updated = try XCTUnwrap(b.object(ofType: APerson.self, forPrimaryKey: 1))
        XCTAssertEqual(updated.best?.name, "Rex II"); XCTAssertEqual(updated.dogs.map(\.name), ["Rex II"])
        XCTAssertEqual(b.objects(ADog.self).count, 2)
        // A dictionary naming an object of another Realm copies it too.
        let created = try b.write { b.create(APerson.self, value: ["id": 2, "name": "Bo", "best": source.dogs[0]], update: .modified) }
        XCTAssertEqual(created.best?.realm, b); XCTAssertEqual(created.best?.name, "Rex II")
        XCTAssertEqual(b.objects(ADog.self).count, 2)
        assertIntegrity(b)
    }
}
