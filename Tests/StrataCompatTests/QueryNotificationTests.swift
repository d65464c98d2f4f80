import Foundation
import XCTest
import Strata
import StrataStorage  // SplitMix64, the project's one seeded generator

final class NotePerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var nickname = ""
}

/// Runs `body` in a write transaction of a realm opened on another thread, as another part of
/// an app would commit (the observers under test run on this thread).
func writeOnAnotherThread(_ config: Realm.Configuration, _ body: (Realm) throws -> Void) throws {
    var failure: Error?
    DispatchQueue.global().sync {
        do {
            let writer = try Realm(configuration: config, queue: nil)
            try writer.write { try body(writer) }
        } catch { failure = error }
    }
    if let failure { throw failure }
}

/// Issue 16: collection notifications on results built with the real query language and
/// sorting (not a hand-written stage) — inserts, deletes, modifications, moves in sorted
/// results, key-path filters, and another handle's commits — checked against a model: applying
/// the reported deletions and insertions to the old order must give the new order, and the
/// modifications must be exactly the kept objects that changed.
final class NoteTeam: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var rank = 0
}

final class NoteMember: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var score = 0
    @Persisted var team: NoteTeam?
}

final class QueryNotificationTests: XCTestCase {
    typealias Row = (name: String, age: Int)

    func testFilteredSortedResultsReportMovesAndModificationsLikeAModel() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["STRATA_SEED"] ?? "") ?? 4242
        var rng = SplitMix64(seed: seed)
        func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let dir = CompatDir()
        let config = dir.config(types: [NotePerson.self])
        let realm = try Realm(configuration: config)
        // Another thread writes, with its own realm, as a background sync or import would.
        func write(_ body: (Realm) throws -> Void) throws { try writeOnAnotherThread(config, body) }
        var model: [Int: Row] = [:]
        try write { writer in
            for i in 0..<200 {
                let p = NotePerson(); p.id = i * 7; p.name = "n\(rand(300))"; p.age = rand(60)
                writer.add(p); model[p.id] = (p.name, p.age)
            }
        }
        realm.refresh()
        let adults = realm.objects(NotePerson.self).filter("age >= 18").sorted(byKeyPath: "name")
        let byAge = realm.objects(NotePerson.self).sorted(by: [SortDescriptor(keyPath: "age", ascending: false),
                                                               SortDescriptor(keyPath: "id")])
        var adultChanges: [RealmCollectionChange<Results<NotePerson>>] = []
        var ageChanges: [RealmCollectionChange<Results<NotePerson>>] = []
        var nameOnly: [RealmCollectionChange<Results<NotePerson>>] = []
        let t1 = adults.observe { adultChanges.append($0) }
        let t2 = byAge.observe { ageChanges.append($0) }
        let t3 = realm.objects(NotePerson.self).observe(keyPaths: ["name"]) { nameOnly.append($0) }
        defer { t1.invalidate(); t2.invalidate(); t3.invalidate() }
        XCTAssertTrue(waitFor { adultChanges.count == 1 && ageChanges.count == 1 && nameOnly.count == 1 },
                      "seed \(seed): no .initial")

        // Sort orders the model computes; ties broken by key, as the engine's stable sort over
        // key order does.
        func adultOrder(_ m: [Int: Row]) -> [Int] {
            m.filter { $0.value.age >= 18 }
                .sorted { $0.value.name != $1.value.name ? $0.value.name < $1.value.name : $0.key < $1.key }.map(\.key)
        }
        func ageOrder(_ m: [Int: Row]) -> [Int] {
            m.sorted { $0.value.age != $1.value.age ? $0.value.age > $1.value.age : $0.key < $1.key }.map(\.key)
        }
        func check(_ changes: [RealmCollectionChange<Results<NotePerson>>], since count: Int,
                   old: [Int], new: [Int], modified: Set<Int>, _ what: String, step: Int) {
            let context = "seed \(seed) step \(step) \(what)"
            guard changes.count > count, case .update(let results, let del, let ins, let mods) = changes.last! else {
                let keptChanged = !modified.intersection(old).intersection(new).isEmpty
                if old != new || keptChanged { XCTFail("\(context): expected an update") }
                return
            }
            XCTAssertEqual(results.map(\.id), new, "\(context): results after the update")
            var order = old
            for i in del.sorted().reversed() { order.remove(at: i) }
            for i in ins.sorted() { order.insert(new[i], at: i) }
            XCTAssertEqual(order, new, "\(context): deletions and insertions do not turn the old order into the new")
            let deleted = Set(del.map { old[$0] })
            XCTAssertEqual(Set(mods.map { old[$0] }), modified.intersection(Set(old)).intersection(Set(new)).subtracting(deleted),
                           "\(context): modifications")
        }

        for step in 0..<30 {
            let oldAdults = adultOrder(model), oldAge = ageOrder(model), oldAll = model.keys.sorted()
            var modified = Set<Int>(), renamed = Set<Int>()
            let counts = (adultChanges.count, ageChanges.count, nameOnly.count)
            try write { writer in
                for _ in 0..<(1 + rand(5)) {
                    let keys = model.keys.sorted()
                    switch rand(5) {
                    case 0:
                        let id = 7 * (200 + rand(400))
                        guard model[id] == nil else { break }
                        let p = NotePerson(); p.id = id; p.name = "n\(rand(300))"; p.age = rand(60)
                        writer.add(p); model[id] = (p.name, p.age)
                    case 1:
                        guard let id = keys.isEmpty ? nil : keys[rand(keys.count)] else { break }
                        writer.delete(writer.object(ofType: NotePerson.self, forPrimaryKey: id)!)
                        model[id] = nil; modified.remove(id); renamed.remove(id)
                    case 2:  // moves in both sorted results, and across the age >= 18 filter
                        guard let id = keys.isEmpty ? nil : keys[rand(keys.count)] else { break }
                        let age = rand(60)
                        writer.object(ofType: NotePerson.self, forPrimaryKey: id)!.age = age
                        model[id]!.age = age; modified.insert(id)
                    case 3:  // moves in the name-sorted results
                        guard let id = keys.isEmpty ? nil : keys[rand(keys.count)] else { break }
                        let name = "n\(rand(300))"
                        writer.object(ofType: NotePerson.self, forPrimaryKey: id)!.name = name
                        model[id]!.name = name; modified.insert(id); renamed.insert(id)
                    default:  // a property no sort or filter reads, outside the key-path filter
                        guard let id = keys.isEmpty ? nil : keys[rand(keys.count)] else { break }
                        writer.object(ofType: NotePerson.self, forPrimaryKey: id)!.nickname = "x\(rand(9))"
                        modified.insert(id)
                    }
                }
            }
            let newAdults = adultOrder(model), newAge = ageOrder(model), newAll = model.keys.sorted()
            let expectAdults = newAdults != oldAdults || !modified.intersection(newAdults).isEmpty
            let expectAge = newAge != oldAge || !modified.intersection(newAge).isEmpty
            XCTAssertTrue(waitFor {
                (!expectAdults || adultChanges.count > counts.0) && (!expectAge || ageChanges.count > counts.1)
            }, "seed \(seed) step \(step): no notification after the commit")
            // Let a wrongly delivered notification arrive before checking there was none.
            _ = waitFor(0.05) { false }
            check(adultChanges, since: counts.0, old: oldAdults, new: newAdults, modified: modified, "filter+sort by name", step: step)
            check(ageChanges, since: counts.1, old: oldAge, new: newAge, modified: modified, "sort by age desc, id", step: step)
            check(nameOnly, since: counts.2, old: oldAll, new: newAll, modified: renamed, "key path name", step: step)
        }
    }

    /// The other two ways filtered and sorted results are updated: commits that change more
    /// objects than are updated one by one (the results are then re-evaluated, modifications
    /// still from the records), and a sort through a link (a change of the linked object moves
    /// the linking one, so the stage does not depend on each object alone). Checked against a
    /// model as above; every step also checks the observer's view of the results.
    func testLargeCommitsAndSortsThroughLinksAgainstAModel() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["STRATA_SEED"] ?? "") ?? 77
        var rng = SplitMix64(seed: seed)
        func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let dir = CompatDir()
        let config = dir.config(types: [NoteTeam.self, NoteMember.self])
        let realm = try Realm(configuration: config)
        func write(_ body: (Realm) throws -> Void) throws { try writeOnAnotherThread(config, body) }
        var scores: [Int: Int] = [:], teamOf: [Int: Int] = [:], ranks: [Int: Int] = [:]
        try write { w in
            for t in 0..<10 { let team = NoteTeam(); team.id = t; team.rank = rand(100); w.add(team); ranks[t] = team.rank }
            for i in 0..<1_000 {
                let m = NoteMember(); m.id = i; m.score = rand(1_000); m.team = w.object(ofType: NoteTeam.self, forPrimaryKey: i % 10)
                w.add(m); scores[i] = m.score; teamOf[i] = i % 10
            }
        }
        realm.refresh()
        let high = realm.objects(NoteMember.self).filter("score >= 300").sorted(byKeyPath: "score")
        let byRank = realm.objects(NoteMember.self).sorted(by: [SortDescriptor(keyPath: "team.rank"), SortDescriptor(keyPath: "id")])
        var highChanges: [RealmCollectionChange<Results<NoteMember>>] = []
        var rankChanges: [RealmCollectionChange<Results<NoteMember>>] = []
        let t1 = high.observe { highChanges.append($0) }
        let t2 = byRank.observe { rankChanges.append($0) }
        defer { t1.invalidate(); t2.invalidate() }
        XCTAssertTrue(waitFor { highChanges.count == 1 && rankChanges.count == 1 }, "seed \(seed): no .initial")

        func highOrder() -> [Int] {
            scores.filter { $0.value >= 300 }.sorted { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }.map(\.key)
        }
        func rankOrder() -> [Int] {
            scores.keys.sorted { (ranks[teamOf[$0]!]!, $0) < (ranks[teamOf[$1]!]!, $1) }
        }
        func check(_ changes: [RealmCollectionChange<Results<NoteMember>>], since count: Int, old: [Int], new: [Int],
                   modified: Set<Int>, _ what: String, step: Int) {
            let context = "seed \(seed) step \(step) \(what)"
            guard changes.count > count, case .update(let results, let del, let ins, let mods) = changes.last! else {
                if old != new || !modified.intersection(old).intersection(new).isEmpty { XCTFail("\(context): expected an update") }
                return
            }
            XCTAssertEqual(changes.count, count + 1, "\(context): one update per commit")
            XCTAssertEqual(results.map(\.id), new, "\(context): results after the update")
            var order = old
            for i in del.sorted().reversed() { order.remove(at: i) }
            for i in ins.sorted() { order.insert(new[i], at: i) }
            XCTAssertEqual(order, new, "\(context): deletions and insertions do not turn the old order into the new")
            let deleted = Set(del.map { old[$0] })
            XCTAssertEqual(Set(mods.map { old[$0] }), modified.intersection(Set(old)).intersection(Set(new)).subtracting(deleted),
                           "\(context): modifications")
        }
        var nextID = 1_000
        for step in 0..<12 {
            let oldHigh = highOrder(), oldRank = rankOrder()
            let counts = (highChanges.count, rankChanges.count)
            var modified = Set<Int>()
            // Every third commit is large (more objects than are updated one by one).
            let large = step % 3 == 0
            try write { w in
                for _ in 0..<(large ? 400 : 1 + rand(4)) {
                    let ids = Array(scores.keys)
                    switch rand(large ? 4 : 5) {
                    case 0:
                        let m = NoteMember(); m.id = nextID; m.score = rand(1_000); let t = rand(10)
                        m.team = w.object(ofType: NoteTeam.self, forPrimaryKey: t)
                        w.add(m); scores[nextID] = m.score; teamOf[nextID] = t; nextID += 1
                    case 1:
                        let id = ids[rand(ids.count)]
                        w.delete(w.object(ofType: NoteMember.self, forPrimaryKey: id)!)
                        scores[id] = nil; teamOf[id] = nil; modified.remove(id)
                    case 2, 3:
                        let id = ids[rand(ids.count)], score = rand(1_000)
                        w.object(ofType: NoteMember.self, forPrimaryKey: id)!.score = score
                        scores[id] = score; modified.insert(id)
                    default:  // a team's rank: every member of it moves in the rank order, and
                              // is modified (a change of a linked object, as in RealmSwift)
                        let t = rand(10), rank = rand(100)
                        w.object(ofType: NoteTeam.self, forPrimaryKey: t)!.rank = rank
                        ranks[t] = rank
                        for (id, team) in teamOf where team == t { modified.insert(id) }
                    }
                }
            }
            let newHigh = highOrder(), newRank = rankOrder()
            let expectHigh = newHigh != oldHigh || !modified.intersection(newHigh).isEmpty
            let expectRank = newRank != oldRank || !modified.intersection(newRank).isEmpty
            XCTAssertTrue(waitFor { (!expectHigh || highChanges.count > counts.0) && (!expectRank || rankChanges.count > counts.1) },
                          "seed \(seed) step \(step): no notification after the commit")
            _ = waitFor(0.05) { false }
            check(highChanges, since: counts.0, old: oldHigh, new: newHigh, modified: modified, "filter+sort by score", step: step)
            check(rankChanges, since: counts.1, old: oldRank, new: newRank, modified: modified, "sort by team.rank, id", step: step)
        }
    }

    /// Every object of a class (`realm.objects(T.self)`, kept as object keys and updated from
    /// the records): inserts anywhere in key order (primary keys are object keys), deletes and
    /// modifications, single and many per commit, checked against a model.
    func testWholeClassResultsWithInsertsAnywhereAgainstAModel() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["STRATA_SEED"] ?? "") ?? 99
        var rng = SplitMix64(seed: seed)
        func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let dir = CompatDir()
        let config = dir.config(types: [NoteTeam.self, NoteMember.self])
        let realm = try Realm(configuration: config)
        func write(_ body: (Realm) throws -> Void) throws { try writeOnAnotherThread(config, body) }
        var model: Set<Int> = []
        try write { w in
            for _ in 0..<500 { let id = rand(20_000); if model.insert(id).inserted { let m = NoteMember(); m.id = id; w.add(m) } }
        }
        realm.refresh()
        var changes: [RealmCollectionChange<Results<NoteMember>>] = []
        let token = realm.objects(NoteMember.self).observe { changes.append($0) }
        defer { token.invalidate() }
        XCTAssertTrue(waitFor { changes.count == 1 }, "seed \(seed): no .initial")
        for step in 0..<15 {
            let old = model.sorted()
            var modified = Set<Int>(), deleted = Set<Int>()
            let count = changes.count
            try write { w in
                for _ in 0..<(step % 5 == 4 ? 600 : 1 + rand(6)) {
                    switch rand(3) {
                    case 0:
                        let id = rand(20_000)
                        if model.insert(id).inserted {
                            let m = NoteMember(); m.id = id; m.score = rand(9); w.add(m)
                            // Deleted and added again in one commit: the object at that
                            // position was replaced, reported as modified.
                            if deleted.contains(id) { modified.insert(id) }
                        }
                    case 1:
                        guard let id = model.randomElement(using: &rng) else { break }
                        w.delete(w.object(ofType: NoteMember.self, forPrimaryKey: id)!)
                        model.remove(id); modified.remove(id); deleted.insert(id)
                    default:
                        guard let id = model.randomElement(using: &rng) else { break }
                        w.object(ofType: NoteMember.self, forPrimaryKey: id)!.score += 1
                        modified.insert(id)
                    }
                }
            }
            let new = model.sorted()
            XCTAssertTrue(waitFor { changes.count > count }, "seed \(seed) step \(step): no notification")
            _ = waitFor(0.05) { false }
            guard changes.count == count + 1, case .update(let results, let del, let ins, let mods) = changes.last! else {
                XCTFail("seed \(seed) step \(step): expected one update, got \(changes.count - count)"); continue
            }
            XCTAssertEqual(results.map(\.id), new, "seed \(seed) step \(step): results")
            var order = old
            for i in del.sorted().reversed() { order.remove(at: i) }
            for i in ins.sorted() { order.insert(new[i], at: i) }
            XCTAssertEqual(order, new, "seed \(seed) step \(step): deletions and insertions do not turn the old order into the new")
            XCTAssertEqual(Set(mods.map { old[$0] }), modified.intersection(old), "seed \(seed) step \(step): modifications")
        }
    }
}
