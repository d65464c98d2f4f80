import Foundation
import XCTest
import Strata

/// A model declared as SwiftUI-era RealmSwift apps declare theirs.
final class IDNote: Object, ObjectKeyIdentifiable {
    @Persisted var text = ""
}

/// A model with its own `id` property: that one is the identity, as in RealmSwift.
final class IDOwnNote: Object, ObjectKeyIdentifiable {
    @Persisted(primaryKey: true) var id: Int = 0
}

/// `ObjectKeyIdentifiable`: stable identity of managed objects across handles and commits.
final class IdentifiableCompatTests: XCTestCase {
    func testManagedIdentityIsStableAndDistinct() throws {
        let dir = CompatDir()
        let config = dir.config(types: [IDNote.self, IDOwnNote.self])
        let realm = try Realm(configuration: config)
        let a = IDNote(), b = IDNote()
        let unmanagedA = a.id, unmanagedB = b.id
        XCTAssertNotEqual(unmanagedA, unmanagedB, "two unmanaged instances have different ids")
        try realm.write { realm.add([a, b]) }
        XCTAssertNotEqual(a.id, b.id)
        let idA = a.id
        // Another instance of the same stored object (another handle) has the same id.
        let other = try Realm(configuration: config)
        let again = try XCTUnwrap(other.objects(IDNote.self).first { $0.text == a.text && $0.id == idA })
        XCTAssertTrue(again.isSameObject(as: a))
        try realm.write { a.text = "changed" }
        XCTAssertEqual(a.id, idA, "a commit does not change the identity")
        // SwiftUI's ForEach needs Identifiable: the ids of a collection are unique.
        XCTAssertEqual(Set(realm.objects(IDNote.self).map(\.id)).count, 2)
    }

    func testOwnIdPropertyWins() throws {
        let dir = CompatDir()
        let realm = try Realm(configuration: dir.config(types: [IDNote.self, IDOwnNote.self]))
        try realm.write { realm.create(IDOwnNote.self, value: ["id": 42]) }
        let note = try XCTUnwrap(realm.objects(IDOwnNote.self).first)
        let id: Int = note.id
        XCTAssertEqual(id, 42)
    }
}
