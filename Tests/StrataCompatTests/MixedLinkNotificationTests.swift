import Foundation
import XCTest
import Strata

final class MXDog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
}

final class MXPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    /// A dog, another person or a number.
    @Persisted var anyValue: AnyRealmValue
}

/// Filtered and sorted results over mixed values follow commits that only add or delete other
/// objects (checked against a fresh query after each commit).
final class MixedLinkNotificationTests: XCTestCase {
    /// A mixed value holding a link to a deleted object is null to `@type` (and to the Swift
    /// accessor) until an object with the target's key comes back (a primary key gives the
    /// same object key): then `anyValue.@type == 'null'` turns false for a person that did not
    /// change, in a commit that only inserted a dog. Results reading a mixed value must follow
    /// such a commit (they may not take "inserts elsewhere change nothing" for granted), and
    /// inserts and deletes of their own class (a mixed value can hold an object of it).
    func testMixedLinkTargetComingBackChangesLocalResults() throws {
        let dir = CompatDir()
        let config = dir.config(types: [MXDog.self, MXPerson.self])
        let realm = try Realm(configuration: config)
        try realm.write {
            for i in 0..<3 { let d = MXDog(); d.id = i; d.name = "d\(i)"; realm.add(d) }
            let nine = MXPerson(); nine.id = 9; nine.name = "p9"; nine.anyValue = .int(5)
            realm.add(nine)
            for i in 0..<5 {
                let p = MXPerson(); p.id = i; p.name = "p\(4 - i)"
                // Persons 0-2 hold dogs, person 3 another person, person 4 a number.
                p.anyValue = i < 3 ? .object(realm.object(ofType: MXDog.self, forPrimaryKey: i)!) : i == 3 ? .object(nine) : .int(5)
                realm.add(p)
            }
        }
        let steps: [(String, (Realm) -> Void)] = [
            ("delete dog 1", { $0.delete($0.object(ofType: MXDog.self, forPrimaryKey: 1)!) }),
            ("add dog 1 again", { let d = MXDog(); d.id = 1; d.name = "again"; $0.add(d) }),
            ("delete dogs 0 and 2", { $0.delete($0.objects(MXDog.self).filter("id != 1")) }),
            ("add dog 2 again", { let d = MXDog(); d.id = 2; $0.add(d) }),
            ("add dog 0 again", { let d = MXDog(); d.id = 0; $0.add(d) }),
            // The same within the observed class: person 3 holds person 9.
            ("delete person 9", { $0.delete($0.object(ofType: MXPerson.self, forPrimaryKey: 9)!) }),
            ("add person 9 again", { let p = MXPerson(); p.id = 9; p.name = "p9"; p.anyValue = .int(5); $0.add(p) }),
        ]
        for query in ["anyValue.@type == 'null'", "anyValue.@type == 'link'"] {
            for sorted in [false, true] {
                try realm.write {
                    realm.delete(realm.objects(MXDog.self))
                    for i in 0..<3 { let d = MXDog(); d.id = i; realm.add(d) }
                }
                let results = sorted ? realm.objects(MXPerson.self).filter(query).sorted(byKeyPath: "name") : realm.objects(MXPerson.self).filter(query)
                var updates: [(del: [Int], ins: [Int], ids: [Int])] = []
                var initial = false
                let token = results.observe { c in
                    switch c {
                    case .initial: initial = true
                    case .update(let r, let d, let i, _): updates.append((d, i, r.map(\.id)))
                    case .error(let e): XCTFail("\(e)")
                    }
                }
                defer { token.invalidate() }
                XCTAssertTrue(waitFor { initial })
                func fresh() -> [Int] {
                    let r = realm.objects(MXPerson.self).filter(query)
                    return (sorted ? r.sorted(byKeyPath: "name") : r).map(\.id)
                }
                var old = fresh()
                for (what, body) in steps {
                    try writeOnAnotherThread(config) { body($0) }
                    realm.refresh()
                    let new = fresh()
                    var order = old
                    XCTAssertLessThanOrEqual(updates.count, 1)
                    if let u = updates.last {
                        for i in u.del.sorted().reversed() where i < order.count { order.remove(at: i) }
                        for i in u.ins.sorted() where i < u.ids.count && i <= order.count { order.insert(u.ids[i], at: i) }
                    }
                    XCTAssertEqual(order, new, "\(query)\(sorted ? " sorted by name" : ""), after \(what): the delivered changes turn \(old) into \(order), a fresh query gives \(new)")
                    updates = []
                    old = new
                }
            }
        }
    }

}
