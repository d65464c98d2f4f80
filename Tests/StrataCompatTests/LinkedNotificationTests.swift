import Foundation
import XCTest
import Strata
import StrataStorage  // SplitMix64, the project's one seeded generator

// Notifications of collections and objects whose contents or order depend on OTHER objects
// (queries and sorts through links, backlinks, lists of links, embedded objects, key paths
// through links), checked against the truth recomputed from scratch after every commit:
// applying the delivered deletions and insertions to the old order must give the new order,
// and the delivered modifications must be exactly the kept objects whose watched state
// changed (their own values and, as in RealmSwift, the objects they link to up to four links
// away, or what the key paths name). The commits come from the same thread, another thread
// and another process, mostly touching only the linked classes.

final class LNToy: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var color = ""
}

final class LNDog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var toy: LNToy?
    @Persisted var owner: LNPerson?
    @Persisted(originProperty: "dogs") var owners: LinkingObjects<LNPerson>
}

final class LNAddress: EmbeddedObject {
    @Persisted var city = ""
    /// Unique per embedded object made (a replaced address differs even with the same city).
    @Persisted var serial = 0
}

final class LNPerson: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var dog: LNDog?
    @Persisted var dogs: List<LNDog>
    @Persisted var dogSet: MutableSet<LNDog>
    @Persisted var dogMap: Map<String, LNDog?>
    @Persisted var address: LNAddress?
    @Persisted var addresses: List<LNAddress>
}

private let lnTypes: [ObjectBase.Type] = [LNToy.self, LNDog.self, LNAddress.self, LNPerson.self]

private protocol LNIdentified: Object { var id: Int { get } }
extension LNDog: LNIdentified {}
extension LNPerson: LNIdentified {}

// MARK: - operations (text, so another process can apply them too)

/// Applies one commit's operations ("op arg arg;op arg…") in `w`'s write transaction.
/// Operations on objects that an earlier operation of the commit deleted are skipped.
private func lnApply(_ commit: String, _ w: Realm) {
    for line in commit.split(separator: ";") {
        let f = line.split(separator: " ").map(String.init)
        func int(_ i: Int) -> Int { Int(f[i])! }
        func person(_ i: Int) -> LNPerson? { w.object(ofType: LNPerson.self, forPrimaryKey: int(i)) }
        func dog(_ i: Int) -> LNDog? { int(i) < 0 ? nil : w.object(ofType: LNDog.self, forPrimaryKey: int(i)) }
        func toy(_ i: Int) -> LNToy? { int(i) < 0 ? nil : w.object(ofType: LNToy.self, forPrimaryKey: int(i)) }
        switch f[0] {
        case "addToy": let t = LNToy(); t.id = int(1); t.color = f[2]; w.add(t)
        case "delToy": if let t = toy(1) { w.delete(t) }
        case "toyColor": toy(1)?.color = f[2]
        case "addDog":
            let d = LNDog(); d.id = int(1); d.name = f[2]; d.age = int(3); d.toy = toy(4)
            w.add(d)
        case "delDog": if let d = dog(1) { w.delete(d) }
        case "dogName": dog(1)?.name = f[2]
        case "dogAge": dog(1)?.age = int(2)
        case "dogToy": if let d = dog(1) { d.toy = toy(2) }
        case "dogOwner": if let d = dog(1) { d.owner = person(2) }
        case "addPerson":
            let p = LNPerson(); p.id = int(1); p.name = f[2]; p.age = int(3)
            w.add(p)
        case "delPerson": if let p = person(1) { w.delete(p) }
        case "personName": person(1)?.name = f[2]
        case "personAge": person(1)?.age = int(2)
        case "personDog": if let p = person(1) { p.dog = dog(2) }
        case "dogsAppend": if let p = person(1), let d = dog(2), !p.dogs.contains(where: { $0.id == d.id }) { p.dogs.append(d) }
        case "dogsRemove": if let p = person(1), int(2) < p.dogs.count { p.dogs.remove(at: int(2)) }
        case "dogsMove": if let p = person(1), int(2) < p.dogs.count, int(3) < p.dogs.count { p.dogs.move(from: int(2), to: int(3)) }
        case "setInsert": if let p = person(1), let d = dog(2) { p.dogSet.insert(d) }
        case "setRemove": if let p = person(1), let d = dog(2) { p.dogSet.remove(d) }
        case "mapSet": if let p = person(1) { p.dogMap[f[2]] = .some(dog(3)) }
        case "mapRemove": if let p = person(1) { p.dogMap.removeObject(for: f[2]) }
        case "city":  // in place: only the embedded object changes
            if let p = person(1), let a = p.address { a.city = f[2] }
        case "newAddress":
            if let p = person(1) { let a = LNAddress(); a.city = f[2]; a.serial = int(3); p.address = a }
        case "addressesAppend":
            if let p = person(1) { let a = LNAddress(); a.city = f[2]; a.serial = int(3); p.addresses.append(a) }
        case "addressesCity": if let p = person(1), int(2) < p.addresses.count { p.addresses[int(2)].city = f[3] }
        default: fatalError("unknown operation \(line)")
        }
    }
}

private let dogNames = ["rex", "fido", "max", "bo"]
private let colors = ["red", "blue", "green"]
private let cities = ["paris", "rome", "oslo"]

/// Random commits over the realm's current state. Each object is touched at most once per
/// commit and every write changes a value, so "modified" and "state changed" agree.
private final class LNGenerator {
    var rng: SplitMix64
    var nextSerial = 1_000
    /// Persons that are never deleted (their collections and themselves are observed).
    let pinned: Set<Int>
    let personRange: Int
    init(seed: UInt64, pinned: Set<Int>, personRange: Int) { rng = SplitMix64(seed: seed); self.pinned = pinned; self.personRange = personRange }
    func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    func pick<T>(_ a: [T]) -> T? { a.isEmpty ? nil : a[rand(a.count)] }
    func other(_ a: [String], than v: String) -> String { let c = a.filter { $0 != v }; return c[rand(c.count)] }

    /// Operations of one commit. `linkedOnly`: only dogs, toys and embedded addresses change
    /// (never a person's own values).
    func commit(_ realm: Realm, linkedOnly: Bool, size: Int) -> String {
        var ops: [String] = []
        var touched = Set<String>(), referenced = Set<String>(), deleted = Set<String>()
        let persons = Array(realm.objects(LNPerson.self)), dogs = Array(realm.objects(LNDog.self)), toys = Array(realm.objects(LNToy.self))
        func claim(_ s: String) -> Bool { touched.insert(s).inserted }
        // An object an operation links to is not deleted by another one of the commit (the
        // link would then be set to null, possibly the value it had: a write that changes
        // nothing, still recorded as a modification).
        func ref(_ s: String) -> Bool { if deleted.contains(s) { return false }; referenced.insert(s); return true }
        func delete(_ s: String) -> Bool { guard !referenced.contains(s), claim(s) else { return false }; deleted.insert(s); return true }
        for _ in 0..<size {
            let kind = linkedOnly ? rand(10) : rand(22)
            switch kind {
            case 0, 1:
                guard let d = pick(dogs), claim("d\(d.id)") else { break }
                ops.append("dogName \(d.id) \(other(dogNames, than: d.name))")
            case 2, 3:
                guard let d = pick(dogs), claim("d\(d.id)") else { break }
                var a = rand(9); if a == d.age { a = (a + 1) % 9 }
                ops.append("dogAge \(d.id) \(a)")
            case 4:
                let id = rand(80)
                guard realm.object(ofType: LNDog.self, forPrimaryKey: id) == nil, claim("d\(id)") else { break }
                let t = pick(toys)?.id ?? -1
                guard t < 0 || ref("t\(t)") else { break }
                ops.append("addDog \(id) \(dogNames[rand(dogNames.count)]) \(rand(9)) \(t)")
            case 5:
                guard let d = pick(dogs), delete("d\(d.id)") else { break }
                ops.append("delDog \(d.id)")
            case 6:
                guard let d = pick(dogs), claim("d\(d.id)") else { break }
                let t = rand(3) == 0 ? -1 : (pick(toys)?.id ?? -1)
                // Setting null: the current toy is not deleted by this commit (else null already).
                guard t != (d.toy?.id ?? -1), ref("t\(t < 0 ? d.toy!.id : t)") else { break }
                ops.append("dogToy \(d.id) \(t)")
            case 7:
                guard let t = pick(toys) else { break }
                if rand(6) == 0 {
                    if delete("t\(t.id)") { ops.append("delToy \(t.id)") }
                } else if claim("t\(t.id)") {
                    ops.append("toyColor \(t.id) \(other(colors, than: t.color))")
                }
            case 8:
                let id = 100 + rand(20)
                guard realm.object(ofType: LNToy.self, forPrimaryKey: id) == nil, claim("t\(id)") else { break }
                ops.append("addToy \(id) \(colors[rand(colors.count)])")
            case 9:
                // Embedded objects changed in place (their owner's own values stay).
                guard let p = pick(persons), claim("a\(p.id)") else { break }
                if let a = p.address, rand(2) == 0 {
                    ops.append("city \(p.id) \(other(cities, than: a.city))")
                } else if !p.addresses.isEmpty {
                    let i = rand(p.addresses.count)
                    ops.append("addressesCity \(p.id) \(i) \(other(cities, than: p.addresses[i].city))")
                }
            case 10:
                guard let d = pick(dogs), claim("d\(d.id)") else { break }
                let o = rand(3) == 0 ? -1 : (pick(persons)?.id ?? -1)
                guard o != (d.owner?.id ?? -1), ref("p\(o < 0 ? d.owner!.id : o)") else { break }
                ops.append("dogOwner \(d.id) \(o)")
            case 11:
                guard let p = pick(persons), claim("p\(p.id)") else { break }
                ops.append("personName \(p.id) \(other(dogNames, than: p.name))")
            case 12:
                guard let p = pick(persons), claim("p\(p.id)") else { break }
                var a = rand(60); if a == p.age { a = (a + 1) % 60 }
                ops.append("personAge \(p.id) \(a)")
            case 13:
                guard let p = pick(persons), claim("p\(p.id)") else { break }
                let d = rand(4) == 0 ? -1 : (pick(dogs)?.id ?? -1)
                guard d != (p.dog?.id ?? -1), ref("d\(d < 0 ? p.dog!.id : d)") else { break }
                ops.append("personDog \(p.id) \(d)")
            case 14:
                guard let p = pick(persons), claim("p\(p.id)") else { break }
                if p.dogs.count > 0 && rand(3) == 0 {
                    ops.append("dogsRemove \(p.id) \(rand(p.dogs.count))")
                } else if p.dogs.count > 1 && rand(3) == 0 {
                    let a = rand(p.dogs.count), b = rand(p.dogs.count)
                    if a != b && p.dogs[a].id != p.dogs[b].id { ops.append("dogsMove \(p.id) \(a) \(b)") }
                } else if let d = pick(dogs), !p.dogs.contains(where: { $0.id == d.id }), ref("d\(d.id)") {
                    ops.append("dogsAppend \(p.id) \(d.id)")
                }
            case 15:
                guard let p = pick(persons), claim("p\(p.id)"), let d = pick(dogs), ref("d\(d.id)") else { break }
                if p.dogSet.contains(where: { $0.id == d.id }) { ops.append("setRemove \(p.id) \(d.id)") } else { ops.append("setInsert \(p.id) \(d.id)") }
            case 16:
                guard let p = pick(persons), claim("p\(p.id)") else { break }
                let key = ["a", "b", "c"][rand(3)]
                let current: Int?? = p.dogMap.keys.contains(key) ? .some(p.dogMap[key]!?.id) : .none
                if current != nil && rand(3) == 0 { ops.append("mapRemove \(p.id) \(key)"); break }
                let d = rand(4) == 0 ? -1 : (pick(dogs)?.id ?? -1)
                if let c = current, (c ?? -1) == d { break }
                if d < 0, let c = current, let cd = c, !ref("d\(cd)") { break }
                guard d < 0 || ref("d\(d)") else { break }
                ops.append("mapSet \(p.id) \(key) \(d)")
            case 17:
                guard let p = pick(persons), claim("p\(p.id)") else { break }
                nextSerial += 1
                if rand(2) == 0 { ops.append("newAddress \(p.id) \(cities[rand(cities.count)]) \(nextSerial)") }
                else { ops.append("addressesAppend \(p.id) \(cities[rand(cities.count)]) \(nextSerial)") }
            case 18:
                let id = rand(personRange)
                guard realm.object(ofType: LNPerson.self, forPrimaryKey: id) == nil, claim("p\(id)") else { break }
                ops.append("addPerson \(id) \(dogNames[rand(dogNames.count)]) \(rand(60))")
            case 19:
                guard let p = pick(persons), !pinned.contains(p.id), delete("p\(p.id)") else { break }
                ops.append("delPerson \(p.id)")
            default:
                // Another linked-class change in a mixed commit.
                guard let d = pick(dogs), claim("d\(d.id)") else { break }
                ops.append("dogName \(d.id) \(other(dogNames, than: d.name))")
            }
        }
        return ops.joined(separator: ";")
    }
}

// MARK: - the truth

/// The watched state of objects, recomputed from scratch: own stored values, and with depth
/// left, the states of the objects each link reaches (as realm-core's deep change check).
private final class LNState {
    private var memo: [String: String] = [:]
    func person(_ p: LNPerson, _ depth: Int) -> String {
        let id = "p\(p.id)/\(depth)"
        if let m = memo[id] { return m }
        var s = "P\(p.id)[\(p.name),\(p.age),dog:\(p.dog?.id ?? -1),dogs:\(p.dogs.map(\.id)),set:\(p.dogSet.map(\.id).sorted())"
        let map = p.dogMap.keys.sorted().map { "\($0)=\(p.dogMap[$0]!?.id ?? -1)" }
        s += ",map:\(map),addr:\(p.address?.serial ?? -1),addrs:\(p.addresses.map(\.serial))]"
        if depth > 0 {
            if let d = p.dog { s += "{dog:" + dog(d, depth - 1) + "}" }
            s += "{dogs:" + p.dogs.map { dog($0, depth - 1) }.joined(separator: ",") + "}"
            s += "{set:" + p.dogSet.sorted { $0.id < $1.id }.map { dog($0, depth - 1) }.joined(separator: ",") + "}"
            s += "{map:" + p.dogMap.keys.sorted().compactMap { p.dogMap[$0]! }.map { dog($0, depth - 1) }.joined(separator: ",") + "}"
            if let a = p.address { s += "{addr:\(a.city),\(a.serial)}" }
            s += "{addrs:" + p.addresses.map { "\($0.city),\($0.serial)" }.joined(separator: ";") + "}"
        }
        memo[id] = s
        return s
    }
    func dog(_ d: LNDog, _ depth: Int) -> String {
        let id = "d\(d.id)/\(depth)"
        if let m = memo[id] { return m }
        var s = "D\(d.id)[\(d.name),\(d.age),toy:\(d.toy?.id ?? -1),owner:\(d.owner?.id ?? -1)]"
        if depth > 0 {
            if let t = d.toy { s += "{toy:\(t.color)}" }
            if let o = d.owner { s += "{owner:" + person(o, depth - 1) + "}" }
        }
        memo[id] = s
        return s
    }
}

/// One observed collection: what the notifications delivered since the last check, and how to
/// recompute its contents and each element's watched state from scratch.
private final class LNWatch {
    let name: String
    /// The ids in order now, recomputed from scratch (nil for maps: see `keys`).
    let truth: (Realm) -> [String]
    /// The watched state of element `id` now.
    let state: (Realm, LNState, String) -> String
    var updates: [(ids: [String]?, del: [Int], ins: [Int], mods: [Int])] = []
    var mapUpdates: [(del: [String], ins: [String], mods: [String])] = []
    var initial = false
    var errors: [String] = []
    var token: NotificationToken?
    var old: [String] = []
    var oldStates: [String: String] = [:]
    let isMap: Bool
    init(_ name: String, isMap: Bool = false, truth: @escaping (Realm) -> [String], state: @escaping (Realm, LNState, String) -> String) {
        self.name = name; self.truth = truth; self.state = state; self.isMap = isMap
    }

    func snapshot(_ realm: Realm, _ st: LNState) {
        old = truth(realm)
        oldStates = Dictionary(uniqueKeysWithValues: old.map { ($0, state(realm, st, $0)) })
    }

    /// Compares what was delivered since the last check with the truth; returns failures.
    func check(_ realm: Realm, _ st: LNState, _ context: String) -> [String] {
        var out: [String] = []
        let new = truth(realm)
        let newStates = Dictionary(uniqueKeysWithValues: new.map { ($0, state(realm, st, $0)) })
        let newSet = Set(new)
        let changedKept = Set(old.filter { newSet.contains($0) && oldStates[$0] != newStates[$0] })
        let c = "\(context) \(name)"
        out += errors.map { "\(c): \($0)" }
        if isMap {
            let oldSet = Set(old)
            let del = Set(old.filter { !newSet.contains($0) }), ins = Set(new.filter { !oldSet.contains($0) })
            if mapUpdates.isEmpty {
                if !del.isEmpty || !ins.isEmpty || !changedKept.isEmpty { out.append("\(c): no notification; expected del \(del.sorted()) ins \(ins.sorted()) mods \(changedKept.sorted())") }
            } else if mapUpdates.count > 1 {
                out.append("\(c): \(mapUpdates.count) notifications for one check")
            } else {
                let u = mapUpdates[0]
                if Set(u.del) != del || Set(u.ins) != ins || Set(u.mods) != changedKept {
                    out.append("\(c): delivered del \(u.del.sorted()) ins \(u.ins.sorted()) mods \(u.mods.sorted()); truth del \(del.sorted()) ins \(ins.sorted()) mods \(changedKept.sorted())")
                }
            }
        } else if updates.isEmpty {
            if old != new || !changedKept.isEmpty {
                out.append("\(c): no notification; old \(old) new \(new) changed \(changedKept.sorted())")
            }
        } else if updates.count > 1 {
            // An observer on a queue follows each commit by itself (its realm is not held back
            // with this thread's): the updates must chain from the old order to the new, and
            // every kept object whose state changed must be reported by one of them.
            var order = old, touched = Set<String>()
            for u in updates {
                guard let ids = u.ids, !u.del.contains(where: { $0 >= order.count }), !u.ins.contains(where: { $0 >= ids.count }) else {
                    out.append("\(c): an update out of range in a chain of \(updates.count)"); break
                }
                for i in u.mods where i < order.count { touched.insert(order[i]) }
                for i in u.del.sorted().reversed() { touched.insert(order[i]); order.remove(at: i) }
                for i in u.ins.sorted() { touched.insert(ids[i]); order.insert(ids[i], at: min(i, order.count)) }
                if order != ids { out.append("\(c): an update of a chain of \(updates.count) does not give what its collection reads"); break }
            }
            if order != new { out.append("\(c): \(updates.count) updates turn \(old) into \(order), not \(new)") }
            if !changedKept.isSubset(of: touched) { out.append("\(c): \(updates.count) updates left out modifications of \(changedKept.subtracting(touched).sorted())") }
        } else {
            let u = updates[0]
            if let ids = u.ids, ids != new { out.append("\(c): the collection reads \(ids), recomputed \(new)") }
            if u.del.contains(where: { $0 < 0 || $0 >= old.count }) || u.mods.contains(where: { $0 < 0 || $0 >= old.count })
                || u.ins.contains(where: { $0 < 0 || $0 >= new.count }) || Set(u.del).count != u.del.count || Set(u.ins).count != u.ins.count {
                out.append("\(c): indexes out of range: del \(u.del) ins \(u.ins) mods \(u.mods) (old \(old.count), new \(new.count))")
            } else {
                var order = old
                for i in u.del.sorted().reversed() { order.remove(at: i) }
                for i in u.ins.sorted() { order.insert(new[i], at: i) }
                if order != new {
                    out.append("\(c): deletions \(u.del) and insertions \(u.ins) turn \(old) into \(order), not \(new)")
                }
                let deleted = Set(u.del.map { old[$0] })
                let expected = changedKept.subtracting(deleted)
                let got = Set(u.mods.map { old[$0] })
                if got != expected || !Set(u.mods).isDisjoint(with: Set(u.del)) {
                    out.append("\(c): modifications \(got.sorted()) (indexes \(u.mods)), truth \(expected.sorted()); del \(u.del) ins \(u.ins)")
                }
            }
        }
        updates = []; mapUpdates = []; errors = []
        old = new; oldStates = newStates
        return out
    }
}

/// An observed object: whether a change was delivered since the last check, against whether
/// its watched state changed.
private final class LNObjectWatch {
    let name: String
    let state: (Realm, LNState) -> String
    var delivered: [[String]] = []
    var deleted = false
    var token: NotificationToken?
    var old = ""
    init(_ name: String, state: @escaping (Realm, LNState) -> String) { self.name = name; self.state = state }
    func check(_ realm: Realm, _ st: LNState, _ context: String) -> [String] {
        let new = state(realm, st)
        var out: [String] = []
        if deleted { out.append("\(context) \(name): reported deleted") }
        if new != old && delivered.isEmpty { out.append("\(context) \(name): changed but no notification:\n  \(old)\n  \(new)") }
        if new == old && !delivered.isEmpty { out.append("\(context) \(name): notified (\(delivered)) but nothing watched changed") }
        if delivered.count > 1 { out.append("\(context) \(name): \(delivered.count) notifications for one check") }
        old = new; delivered = []
        return out
    }
}

// MARK: - tests

final class LinkedNotificationTests: XCTestCase {
    enum Writer { case sameThread, otherThread, otherProcess }

    /// The observed realm with every kind of observer registered.
    private final class Harness {
        let realm: Realm
        var watches: [LNWatch] = []
        var objectWatches: [LNObjectWatch] = []
        let pinned: [Int]
        /// Which results are observed (by name).
        let include: (String) -> Bool

        init(_ realm: Realm, pinned: [Int], include: @escaping (String) -> Bool) { self.realm = realm; self.pinned = pinned; self.include = include }

        /// The queue of the `observe(on:)` observers, and its realm's configuration.
        let queue = DispatchQueue(label: "LinkedNotificationTests")
        var config: Realm.Configuration?

        func results<T: LNIdentified>(_ name: String, _ r: Results<T>, keyPaths: [String]? = nil, onQueue: Bool = false,
                                      truth: @escaping (Realm) -> [T], state: @escaping (LNState, T) -> String) {
            guard include(name) else { return }
            let w = LNWatch(name, truth: { realm in truth(realm).map { "\($0.id)" } }, state: { realm, st, id in
                state(st, realm.object(ofType: T.self, forPrimaryKey: Int(id)!)!)
            })
            w.token = r.observe(keyPaths: keyPaths, on: onQueue ? queue : nil) { [unowned w] change in
                switch change {
                case .initial: w.initial = true
                case .update(let r, let d, let i, let m): w.updates.append((r.map { "\($0.id)" }, d, i, m))
                case .error(let e): w.errors.append("error \(e)")
                }
            }
            watches.append(w)
        }

        func register(_ st: LNState) {
            let realm = self.realm
            // Persons: filters through links, backlinks, lists of links, embedded objects.
            func persons(_ f: @escaping (LNPerson) -> Bool) -> (Realm) -> [LNPerson] { { $0.objects(LNPerson.self).filter(f) } }
            let deep: (LNState, LNPerson) -> String = { $0.person($1, 4) }
            let deepDog: (LNState, LNDog) -> String = { $0.dog($1, 4) }
            let P = realm.objects(LNPerson.self), D = realm.objects(LNDog.self)
            results("dog.name == 'rex'", P.filter("dog.name == 'rex'"), truth: persons { $0.dog?.name == "rex" }, state: deep)
            results("ANY dogs.age > 3", P.filter("ANY dogs.age > 3"), truth: persons { $0.dogs.contains { $0.age > 3 } }, state: deep)
            results("SUBQUERY", P.filter("SUBQUERY(dogs, $d, $d.age > 2 AND $d.name == 'rex').@count > 0"),
                    truth: persons { $0.dogs.contains { $0.age > 2 && $0.name == "rex" } }, state: deep)
            results("dogs.@count > 1", P.filter("dogs.@count > 1"), truth: persons { $0.dogs.count > 1 }, state: deep)
            results("dogs.@sum.age > 8", P.filter("dogs.@sum.age > 8"), truth: persons { $0.dogs.reduce(0) { $0 + $1.age } > 8 }, state: deep)
            results("dog.toy.color == 'red'", P.filter("dog.toy.color == 'red'"), truth: persons { $0.dog?.toy?.color == "red" }, state: deep)
            results("ANY dogSet.name == 'max'", P.filter("ANY dogSet.name == 'max'"), truth: persons { $0.dogSet.contains { $0.name == "max" } }, state: deep)
            results("ANY dogMap.@values.age > 5", P.filter("ANY dogMap.@values.age > 5"),
                    truth: persons { p in p.dogMap.values.contains { ($0?.age ?? -1) > 5 } }, state: deep)
            results("address.city == 'paris'", P.filter("address.city == 'paris'"), truth: persons { $0.address?.city == "paris" }, state: deep)
            results("ANY addresses.city == 'rome'", P.filter("ANY addresses.city == 'rome'"),
                    truth: persons { $0.addresses.contains { $0.city == "rome" } }, state: deep)
            // Local filters and sorts (updated object by object) with links watched.
            results("age > 30 sorted by name", P.filter("age > 30").sorted(byKeyPath: "name"),
                    truth: { r in r.objects(LNPerson.self).filter { $0.age > 30 }.stableSorted { $0.name < $1.name } }, state: deep)
            results("age > 30 sorted by name, keyPaths dog.name", P.filter("age > 30").sorted(byKeyPath: "name"), keyPaths: ["dog.name"],
                    truth: { r in r.objects(LNPerson.self).filter { $0.age > 30 }.stableSorted { $0.name < $1.name } },
                    state: { _, p in "\(p.dog?.id ?? -1),\(p.dog?.name ?? "-")" })
            // Sorted by a link's property.
            results("sorted by dog.name", P.sorted(byKeyPath: "dog.name"),
                    truth: { r in r.objects(LNPerson.self).stableSorted { ($0.dog?.name ?? "") < ($1.dog?.name ?? "") || ($0.dog == nil && $1.dog != nil) } }, state: deep)
            // Every person, key-path filtered and not.
            results("all persons", P, truth: { Array($0.objects(LNPerson.self)) }, state: deep)
            results("all persons, keyPaths dog.name", P, keyPaths: ["dog.name"], truth: { Array($0.objects(LNPerson.self)) },
                    state: { _, p in "\(p.dog?.id ?? -1),\(p.dog?.name ?? "-")" })
            results("all persons, keyPaths addresses.city", P, keyPaths: ["addresses.city"], truth: { Array($0.objects(LNPerson.self)) },
                    state: { _, p in "\(p.addresses.map { "\($0.serial)/\($0.city)" })" })
            // Dogs: backlinks, and sorts and filters by the owner.
            results("@links.LNPerson.dogs.@count > 0", D.filter("@links.LNPerson.dogs.@count > 0"),
                    truth: { r in r.objects(LNDog.self).filter { d in r.objects(LNPerson.self).contains { $0.dogs.contains { $0.id == d.id } } } }, state: deepDog)
            results("owners.@count > 0", D.filter("owners.@count > 0"),
                    truth: { r in r.objects(LNDog.self).filter { d in r.objects(LNPerson.self).contains { $0.dogs.contains { $0.id == d.id } } } }, state: deepDog)
            results("sorted by owner.name", D.sorted(byKeyPath: "owner.name"),
                    truth: { r in r.objects(LNDog.self).stableSorted { ($0.owner?.name ?? "") < ($1.owner?.name ?? "") || ($0.owner == nil && $1.owner != nil) } }, state: deepDog)
            results("owner.age > 30", D.filter("owner.age > 30"), truth: { r in r.objects(LNDog.self).filter { ($0.owner?.age ?? 0) > 30 } }, state: deepDog)
            results("age > 3 (local), keyPaths owner.name", D.filter("age > 3"), keyPaths: ["owner.name"],
                    truth: { r in r.objects(LNDog.self).filter { $0.age > 3 } }, state: { _, d in "\(d.owner?.id ?? -1),\(d.owner?.name ?? "-")" })
            // Delivered on a queue (observe(on:)): computed by that queue's realm.
            results("dog.name == 'rex' (on a queue)", P.filter("dog.name == 'rex'"), onQueue: true,
                    truth: persons { $0.dog?.name == "rex" }, state: deep)
            results("all persons, keyPaths dog.name (on a queue)", P, keyPaths: ["dog.name"], onQueue: true,
                    truth: { Array($0.objects(LNPerson.self)) }, state: { _, p in "\(p.dog?.id ?? -1),\(p.dog?.name ?? "-")" })
            results("sorted by owner.name (on a queue)", D.sorted(byKeyPath: "owner.name"), onQueue: true,
                    truth: { r in r.objects(LNDog.self).stableSorted { ($0.owner?.name ?? "") < ($1.owner?.name ?? "") || ($0.owner == nil && $1.owner != nil) } }, state: deepDog)

            // Collections of links of the pinned persons, and the persons themselves.
            for id in pinned {
                let p = realm.object(ofType: LNPerson.self, forPrimaryKey: id)!
                func dogState(_ r: Realm, _ st: LNState, _ did: String) -> String { st.dog(r.object(ofType: LNDog.self, forPrimaryKey: Int(did)!)!, 4) }
                let lw = LNWatch("person \(id) dogs (List)", truth: { r in r.object(ofType: LNPerson.self, forPrimaryKey: id)!.dogs.map { "\($0.id)" } }, state: dogState)
                lw.token = p.dogs.observe { [unowned lw] c in
                    switch c {
                    case .initial: lw.initial = true
                    case .update(let l, let d, let i, let m): lw.updates.append((l.map { "\($0.id)" }, d, i, m))
                    case .error(let e): lw.errors.append("error \(e)")
                    }
                }
                watches.append(lw)
                let sw = LNWatch("person \(id) dogSet (MutableSet)", truth: { r in r.object(ofType: LNPerson.self, forPrimaryKey: id)!.dogSet.map { "\($0.id)" } }, state: dogState)
                sw.token = p.dogSet.observe { [unowned sw] c in
                    switch c {
                    case .initial: sw.initial = true
                    case .update(let s, let d, let i, let m): sw.updates.append((s.map { "\($0.id)" }, d, i, m))
                    case .error(let e): sw.errors.append("error \(e)")
                    }
                }
                watches.append(sw)
                let mw = LNWatch("person \(id) dogMap (Map)", isMap: true, truth: { r in r.object(ofType: LNPerson.self, forPrimaryKey: id)!.dogMap.keys.sorted() },
                                 state: { r, st, key in
                                     guard let d = r.object(ofType: LNPerson.self, forPrimaryKey: id)!.dogMap[key]! else { return "nil" }
                                     return st.dog(d, 4)
                                 })
                mw.token = p.dogMap.observe { [unowned mw] c in
                    switch c {
                    case .initial: mw.initial = true
                    case .update(_, let d, let i, let m): mw.mapUpdates.append((d, i, m))
                    case .error(let e): mw.errors.append("error \(e)")
                    }
                }
                watches.append(mw)
                let ow = LNObjectWatch("person \(id) (object)") { r, st in st.person(r.object(ofType: LNPerson.self, forPrimaryKey: id)!, 4) }
                ow.token = p.observe { [unowned ow] (c: ObjectChange<LNPerson>) in
                    switch c {
                    case .change(_, let props): ow.delivered.append(props.map(\.name))
                    case .deleted: ow.deleted = true
                    case .error: ow.delivered.append(["error"])
                    }
                }
                objectWatches.append(ow)
                let kw = LNObjectWatch("person \(id) (object, keyPaths dog.name)") { r, _ in
                    let p = r.object(ofType: LNPerson.self, forPrimaryKey: id)!
                    return "\(p.dog?.id ?? -1),\(p.dog?.name ?? "-")"
                }
                kw.token = p.observe(keyPaths: ["dog.name"]) { [unowned kw] (c: ObjectChange<LNPerson>) in
                    switch c {
                    case .change(_, let props): kw.delivered.append(props.map(\.name))
                    case .deleted: kw.deleted = true
                    case .error: kw.delivered.append(["error"])
                    }
                }
                objectWatches.append(kw)
                let aw = LNObjectWatch("person \(id) (object, keyPaths address.city)") { r, _ in
                    let p = r.object(ofType: LNPerson.self, forPrimaryKey: id)!
                    return "\(p.address?.serial ?? -1),\(p.address?.city ?? "-")"
                }
                aw.token = p.observe(keyPaths: ["address.city"]) { [unowned aw] (c: ObjectChange<LNPerson>) in
                    switch c {
                    case .change(_, let props): aw.delivered.append(props.map(\.name))
                    case .deleted: aw.deleted = true
                    case .error: aw.delivered.append(["error"])
                    }
                }
                objectWatches.append(aw)
            }
            _ = waitFor { self.queue.sync { self.watches.allSatisfy(\.initial) } }
            for w in watches { w.snapshot(realm, st) }
            for o in objectWatches { o.old = o.state(realm, st) }
        }

        func check(_ context: String) -> [String] {
            // The queue's realm catches up (and delivers) now, not when its wake-up comes.
            if let config { queue.sync { try? Realm(configuration: config, queue: queue).refresh() } }
            let st = LNState()
            return watches.flatMap { $0.check(realm, st, context) } + objectWatches.flatMap { $0.check(realm, st, context) }
        }

        func invalidate() {
            for w in watches { w.token?.invalidate() }
            for o in objectWatches { o.token?.invalidate() }
        }
    }

    /// Fills the realm: persons (with the pinned ones), dogs, toys, links among them.
    private func populate(_ realm: Realm, persons: Int, seed: UInt64) throws {
        var rng = SplitMix64(seed: seed ^ 0x5eed)
        func rand(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        try realm.write {
            var toys: [LNToy] = []
            for i in 0..<8 { let t = LNToy(); t.id = 100 + i; t.color = colors[rand(colors.count)]; realm.add(t); toys.append(t) }
            var dogs: [LNDog] = []
            for i in 0..<50 {
                let d = LNDog(); d.id = i; d.name = dogNames[rand(dogNames.count)]; d.age = rand(9)
                d.toy = rand(3) == 0 ? nil : toys[rand(toys.count)]
                realm.add(d); dogs.append(d)
            }
            var ps: [LNPerson] = []
            for i in 0..<persons {
                let p = LNPerson(); p.id = i; p.name = dogNames[rand(dogNames.count)]; p.age = rand(60)
                if rand(4) != 0 { p.dog = dogs[rand(dogs.count)] }
                for _ in 0..<rand(4) { let d = dogs[rand(dogs.count)]; if !p.dogs.contains(where: { $0.id == d.id }) { p.dogs.append(d) } }
                for _ in 0..<rand(3) { p.dogSet.insert(dogs[rand(dogs.count)]) }
                for k in ["a", "b", "c"] where rand(2) == 0 { p.dogMap[k] = .some(dogs[rand(dogs.count)]) }
                if rand(2) == 0 { let a = LNAddress(); a.city = cities[rand(cities.count)]; a.serial = i; p.address = a }
                for j in 0..<rand(3) { let a = LNAddress(); a.city = cities[rand(cities.count)]; a.serial = 10_000 + i * 10 + j; p.addresses.append(a) }
                realm.add(p); ps.append(p)
            }
            for d in dogs where rand(2) == 0 { d.owner = ps[rand(ps.count)] }
        }
    }

    /// Runs `steps` random commits by `writer` and checks every observer after each.
    private func run(_ writer: Writer, seed: UInt64, steps: Int, persons: Int = 40, linkedOnlyShare: Int = 3,
                     include: @escaping (String) -> Bool = { _ in true },
                     commitsPerCheck: (LNGenerator) -> Int = { _ in 1 }) throws {
        let dir = CompatDir()
        let config = dir.config(types: lnTypes)
        let realm = try Realm(configuration: config)
        try populate(realm, persons: persons, seed: seed)
        let pinned = [0, 1, 2]
        let h = Harness(realm, pinned: pinned, include: include)
        h.config = config
        h.register(LNState())
        defer { h.invalidate() }
        var child: LNChild?
        if writer == .otherProcess {
            guard let c = try LNChild.start(path: config.fileURL!.path) else { throw XCTSkip("the test binary cannot be run as a writer process here") }
            child = c
        }
        defer { child?.stop() }
        let gen = LNGenerator(seed: seed, pinned: Set(pinned), personRange: persons + 20)
        var failures: [String] = []
        var deliveryTime = 0.0, checkTime = 0.0
        defer { print("LinkedNotificationTests \(writer) (\(persons) persons, \(h.watches.count + h.objectWatches.count) observers): \(steps) checks, delivery \(String(format: "%.1f", deliveryTime * 1000 / Double(steps))) ms/check, truth \(String(format: "%.1f", checkTime * 1000 / Double(steps))) ms/check") }
        for step in 0..<steps {
            let n = commitsPerCheck(gen)
            var what: [String] = []
            for _ in 0..<n {
                let linkedOnly = gen.rand(linkedOnlyShare + 1) != 0
                let size = 1 + gen.rand(4)
                switch writer {
                case .sameThread:
                    try realm.write { let ops = gen.commit(realm, linkedOnly: linkedOnly, size: size); what.append(ops); lnApply(ops, realm) }
                case .otherThread:
                    // A thread of its own (a global queue's sync could run on this one).
                    var ops = ""
                    try onAnotherThread {
                        let w = try Realm(configuration: config)
                        try w.write { ops = gen.commit(w, linkedOnly: linkedOnly, size: size); lnApply(ops, w) }
                    }
                    what.append(ops)
                case .otherProcess:
                    var ops = ""
                    try onAnotherThread {
                        let r = try Realm(configuration: config)
                        r.refresh()
                        ops = gen.commit(r, linkedOnly: linkedOnly, size: size)
                    }
                    what.append(ops)
                    try child!.commit(ops)
                }
            }
            let t0 = Date()
            realm.refresh()
            deliveryTime += Date().timeIntervalSince(t0)
            let t1 = Date()
            defer { checkTime += Date().timeIntervalSince(t1) }
            let f = h.check("\(writer) seed \(seed) step \(step) [\(what.joined(separator: " | "))]")
            failures += f
            if failures.count >= 12 { break }
        }
        if !failures.isEmpty { XCTFail("\(failures.count) mismatches:\n" + failures.prefix(12).joined(separator: "\n")) }
    }

    func testLinkedChangesFromTheSameThread() throws {
        try run(.sameThread, seed: seed(11), steps: 200)
    }

    func testLinkedChangesFromAnotherThread() throws {
        try run(.otherThread, seed: seed(12), steps: 150)
    }

    func testLinkedChangesFromAnotherProcess() throws {
        try run(.otherProcess, seed: seed(13), steps: 100)
    }

    /// Several commits between two deliveries, more than the change records keep: the
    /// observers compare whole collections (and objects) and must still see linked changes.
    func testObserversFallingBehindTheKeptChangeRecords() throws {
        let kept = ChangeLog.keptVersions
        ChangeLog.keptVersions = 4
        defer { ChangeLog.keptVersions = kept }
        try run(.otherThread, seed: seed(14), steps: 60, commitsPerCheck: { $0.rand(3) == 0 ? 1 : 2 + $0.rand(8) })
    }

    /// Collections larger than the observers read links of directly: the objects a linked
    /// change reaches are found through the reverse link maps kept from the records.
    func testLargeCollectionsSeeLinkedChanges() throws {
        try run(.otherThread, seed: seed(15), steps: 20, persons: 1_100, include: { $0.hasPrefix("all persons") || $0 == "sorted by dog.name" })
    }

    /// Runs `body` on a new thread and waits for it.
    private func onAnotherThread(_ body: @escaping () throws -> Void) throws {
        final class Job: @unchecked Sendable {
            let body: () throws -> Void
            var failure: Error?
            let done = DispatchSemaphore(value: 0)
            init(_ body: @escaping () throws -> Void) { self.body = body }
        }
        let job = Job(body)
        Thread { do { try job.body() } catch { job.failure = error }; job.done.signal() }.start()
        job.done.wait()
        if let failure = job.failure { throw failure }
    }

    private func seed(_ d: UInt64) -> UInt64 { UInt64(ProcessInfo.processInfo.environment["STRATA_SEED"] ?? "") ?? d }

    /// The helper process of `testLinkedChangesFromAnotherProcess` (does nothing when run as a
    /// test): applies each commit read from stdin and answers "LNW ok".
    func testWriterProcessHelper() throws {
        guard let path = ProcessInfo.processInfo.environment["STRATA_LN_WRITER"] else { return }
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: lnTypes))
        LNChild.say("LNW ready")
        while let line = readLine() {
            if line == "quit" { break }
            try realm.write { lnApply(line, realm) }
            LNChild.say("LNW ok")
        }
        exit(0)
    }
}

/// The writer process: this test binary run with only `testWriterProcessHelper`.
private final class LNChild {
    let process: Process
    let input: FileHandle
    let output: FileHandle
    var buffer = Data()

    static func say(_ s: String) { FileHandle.standardOutput.write((s + "\n").data(using: .utf8)!) }

    static func start(path: String) throws -> LNChild? {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0])
        guard exe.path.hasSuffix(".xctest"), FileManager.default.isExecutableFile(atPath: exe.path) else { return nil }
        let p = Process()
        p.executableURL = exe
        p.arguments = ["StrataCompatTests.LinkedNotificationTests/testWriterProcessHelper"]
        var env = ProcessInfo.processInfo.environment
        env["STRATA_LN_WRITER"] = path
        p.environment = env
        let i = Pipe(), o = Pipe()
        p.standardInput = i; p.standardOutput = o
        p.standardError = FileHandle.nullDevice
        try p.run()
        let c = LNChild(process: p, input: i.fileHandleForWriting, output: o.fileHandleForReading)
        guard c.readReply() == "LNW ready" else { c.stop(); XCTFail("the writer process did not start"); return nil }
        return c
    }

    init(process: Process, input: FileHandle, output: FileHandle) { self.process = process; self.input = input; self.output = output }

    /// The next line starting with "LNW" (XCTest prints its own lines too); nil at end of file.
    func readReply() -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<nl], as: UTF8.self)
                buffer = Data(buffer[(nl + 1)...])
                if line.hasPrefix("LNW") { return line }
                continue
            }
            let d = output.availableData
            if d.isEmpty { return nil }
            buffer.append(d)
        }
    }

    func commit(_ ops: String) throws {
        input.write((ops + "\n").data(using: .utf8)!)
        guard readReply() == "LNW ok" else { throw NSError(domain: "LNChild", code: 1, userInfo: [NSLocalizedDescriptionKey: "the writer process failed on \(ops)"]) }
    }

    func stop() {
        if process.isRunning { input.write("quit\n".data(using: .utf8)!); process.waitUntilExit() }
    }
}

extension Sequence {
    /// Sorted by `less`, equal elements in their original order (as the engine's sort).
    fileprivate func stableSorted(by less: (Element, Element) -> Bool) -> [Element] {
        enumerated().sorted { less($0.element, $1.element) || (!less($1.element, $0.element) && $0.offset < $1.offset) }.map(\.element)
    }
}
