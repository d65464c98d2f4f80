import Foundation
import XCTest
@testable import StrataQuery

// Randomised comparison of the evaluator with plain Swift filtering over the native model.
// The oracle below is written independently of the evaluator: strings are compared through a
// numeric encoding of their scalars, LIKE through NSRegularExpression, and every semantic rule
// (ANY/ALL/NONE, null links, empty aggregates) is spelled out per template.

// MARK: oracle helpers

/// `[c]`: lower-casing is full case folding for the test alphabet.
func oracleFold(_ s: String, _ options: String) -> [Unicode.Scalar] {
    var scalars = Array((options.contains("c") ? s.lowercased() : s).unicodeScalars)
    if options.contains("d") {
        let strip: [UInt32: UInt32] = [0xE9: 0x65, 0xC9: 0x45, 0xF6: 0x6F, 0xD6: 0x4F]
        scalars = scalars.compactMap { u in
            if u.value == 0x301 { return nil }
            return Unicode.Scalar(strip[u.value] ?? u.value)
        }
    }
    return scalars
}

/// ",97,98," — so prefix/suffix/substring tests on scalars become plain string tests.
func encode(_ s: [Unicode.Scalar]) -> String { "," + s.map { "\($0.value)," }.joined() }

func oracleString(_ l: String?, _ op: String, _ r: String, _ options: String) -> Bool {
    guard let l else { return op == "!=" }
    let a = oracleFold(l, options), b = oracleFold(r, options)
    switch op {
    case "==": return a.map(\.value) == b.map(\.value)
    case "!=": return a.map(\.value) != b.map(\.value)
    case "<": return a.map(\.value).lexicographicallyPrecedes(b.map(\.value))
    case ">": return b.map(\.value).lexicographicallyPrecedes(a.map(\.value))
    case "BEGINSWITH": return encode(a).hasPrefix(encode(b))
    case "ENDSWITH": return encode(a).hasSuffix(encode(b))
    case "CONTAINS": return encode(a).contains(encode(b))
    case "LIKE":
        var pattern = "^"
        for u in b {
            switch u {
            case "*": pattern += ".*"
            case "?": pattern += "."
            default: pattern += NSRegularExpression.escapedPattern(for: String(Character(u)))
            }
        }
        pattern += "$"
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        var text = ""
        text.unicodeScalars.append(contentsOf: a)
        let ns = text as NSString
        return regex.firstMatch(in: text, options: [], range: NSRange(location: 0, length: ns.length)) != nil
    default: fatalError(op)
    }
}

func oracleCmp<T: Comparable>(_ a: T, _ op: String, _ b: T) -> Bool {
    switch op {
    case "==": return a == b
    case "!=": return a != b
    case "<": return a < b
    case "<=": return a <= b
    case ">": return a > b
    case ">=": return a >= b
    default: fatalError(op)
    }
}

/// A single-valued comparison where the left side may be null: only `!=` holds for null.
func oracleOptional<T: Comparable>(_ a: T?, _ op: String, _ b: T) -> Bool {
    guard let a else { return op == "!=" }
    return oracleCmp(a, op, b)
}

func quote(_ s: String) -> String {
    var out = "'"
    for u in s.unicodeScalars {
        switch u {
        case "'": out += "\\'"
        case "\\": out += "\\\\"
        case "\u{301}": out += "\\u0301"
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "'"
}

struct Case {
    var query: String
    var args: [QueryValue] = []
    var className = "Person"
    var oracle: (Int) -> Bool
}

/// Builds random queries with their oracles over one world.
struct CaseGenerator {
    let w: World
    var rng: SeededRNG

    let numericOps = ["==", "!=", "<", "<=", ">", ">="]
    let stringOps = ["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "<", ">"]

    mutating func pick<T>(_ xs: [T]) -> T { xs.randomElement(using: &rng)! }
    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &rng) }
    mutating func string() -> String { World.randomString(&rng, maxLength: 3) }
    mutating func likePattern() -> String {
        (0..<int(0...4)).map { _ in pick(["*", "?", "a", "b", "é", "e", "A", "e\u{301}"]) }.joined()
    }
    mutating func options(for op: String) -> String {
        op == "<" || op == ">" ? "" : pick(["", "c", "d", "cd"])
    }
    func person(_ i: Int) -> PersonData { w.people[i] }

    /// A quantifier and how it folds element results.
    mutating func quantifier() -> (String, ([Bool]) -> Bool) {
        switch int(0...3) {
        case 0: return ("", { $0.contains(true) })
        case 1: return ("ANY ", { $0.contains(true) })
        case 2: return ("ALL ", { $0.allSatisfy { $0 } })
        default: return ("NONE ", { !$0.contains(true) })
        }
    }

    mutating func personLeaf() -> Case {
        let w = self.w
        switch int(0...27) {
        case 0:
            let op = pick(numericOps), c = int(-5...95)
            if Bool.random(using: &rng) {
                return Case(query: "age \(op) $0", args: [.int(c)]) { oracleCmp(w.people[$0].age, op, c) }
            }
            return Case(query: "age \(op) \(c)") { oracleCmp(w.people[$0].age, op, c) }
        case 1:
            let op = pick(numericOps)
            let c = Double(int(90...230)) / 100
            let literal = c == c.rounded() ? String(Int(c)) : String(c)
            return Case(query: "height \(op) \(literal)") { oracleCmp(w.people[$0].height, op, c) }
        case 2:
            let a = int(-5...95), b = int(-5...95)
            return Case(query: "age BETWEEN {\(a), \(b)}") { a <= w.people[$0].age && w.people[$0].age <= b }
        case 3:
            let set = (0..<int(0...5)).map { _ in int(0...90) }
            if Bool.random(using: &rng) {
                return Case(query: "age IN $0", args: [.list(set.map { .int($0) })]) { set.contains(w.people[$0].age) }
            }
            return Case(query: "age IN {\(set.map(String.init).joined(separator: ", "))}") { set.contains(w.people[$0].age) }
        case 4:
            let op = pick(stringOps), opts = options(for: op)
            let s = op == "LIKE" ? likePattern() : string()
            let mod = opts.isEmpty ? "" : "[\(opts)]"
            if Bool.random(using: &rng) {
                return Case(query: "name \(op)\(mod) $0", args: [.string(s)]) { oracleString(w.people[$0].name, op, s, opts) }
            }
            return Case(query: "name \(op)\(mod) \(quote(s))") { oracleString(w.people[$0].name, op, s, opts) }
        case 5:
            if Bool.random(using: &rng) { return Case(query: "name == nil") { w.people[$0].name == nil } }
            return Case(query: "name != NULL") { w.people[$0].name != nil }
        case 6:
            let op = pick(numericOps), c = int(0...90)
            return Case(query: "bestFriend.age \(op) \(c)") { i in
                oracleOptional(w.people[i].bestFriend.map { w.people[$0].age }, op, c)
            }
        case 7:
            let s = string(), opts = pick(["", "c"])
            return Case(query: "bestFriend.name BEGINSWITH\(opts.isEmpty ? "" : "[c]") \(quote(s))") { i in
                guard let f = w.people[i].bestFriend else { return false }
                return oracleString(w.people[f].name, "BEGINSWITH", s, opts)
            }
        case 8:
            if Bool.random(using: &rng) {
                return Case(query: "bestFriend.name == nil") { i in
                    guard let f = w.people[i].bestFriend else { return true }
                    return w.people[f].name == nil
                }
            }
            return Case(query: "bestFriend != nil") { w.people[$0].bestFriend != nil }
        case 9:
            let op = pick(numericOps), c = int(0...90)
            return Case(query: "bestFriend.bestFriend.age \(op) \(c)") { i in
                let ff = w.people[i].bestFriend.flatMap { w.people[$0].bestFriend }
                return oracleOptional(ff.map { w.people[$0].age }, op, c)
            }
        case 10:
            let (q, fold) = quantifier()
            let op = pick(numericOps), c = int(0...15)
            return Case(query: "\(q)dogs.age \(op) \(c)") { i in fold(w.people[i].dogs.map { oracleCmp(w.dogs[$0].age, op, c) }) }
        case 11:
            let (q, fold) = quantifier()
            let op = pick(stringOps), opts = options(for: op)
            let s = op == "LIKE" ? likePattern() : string()
            let mod = opts.isEmpty ? "" : "[\(opts)]"
            return Case(query: "\(q)dogs.name \(op)\(mod) \(quote(s))") { i in
                fold(w.people[i].dogs.map { oracleString(w.dogs[$0].name, op, s, opts) })
            }
        case 12:
            let op = pick(numericOps), c = int(0...5)
            let word = pick(["@count", "@size"])
            return Case(query: "dogs.\(word) \(op) \(c)") { oracleCmp(w.people[$0].dogs.count, op, c) }
        case 13:
            let op = pick(numericOps), c = Double(int(0...30)) / 2
            return Case(query: "dogs.@avg.age \(op) \(c)") { i in
                let ages = w.people[i].dogs.map { Double(w.dogs[$0].age) }
                return oracleOptional(ages.isEmpty ? nil : ages.reduce(0, +) / Double(ages.count), op, c)
            }
        case 14:
            let op = pick(numericOps), c = int(0...60)
            return Case(query: "dogs.@sum.weight \(op) \(c)") { i in
                oracleCmp(w.people[i].dogs.map { w.dogs[$0].weight }.reduce(0, +), op, Double(c))
            }
        case 15:
            let op = pick(numericOps), c = int(0...15), agg = pick(["@min", "@max"])
            return Case(query: "dogs.\(agg).age \(op) \(c)") { i in
                let ages = w.people[i].dogs.map { w.dogs[$0].age }
                return oracleOptional(agg == "@min" ? ages.min() : ages.max(), op, c)
            }
        case 16:
            let op = pick(numericOps), c = Double(int(0...200)) / 4
            return Case(query: "ANY dogs.toys.price \(op) \(c)") { i in
                w.people[i].dogs.contains { d in w.dogs[d].toys.contains { oracleCmp(w.toys[$0].price, op, c) } }
            }
        case 17:
            let op = pick(numericOps), c = int(0...90)
            return Case(query: "dogs.owner.age \(op) \(c)") { i in
                w.people[i].dogs.contains { d in w.dogs[d].owner.map { oracleCmp(w.people[$0].age, op, c) } ?? false }
            }
        case 18:
            let (q, fold) = quantifier()
            let op = pick(["==", "!=", "BEGINSWITH", "CONTAINS"]), opts = pick(["", "c", "d", "cd"])
            let s = string()
            let mod = opts.isEmpty ? "" : "[\(opts)]"
            if q.isEmpty && op == "==" && Bool.random(using: &rng) {
                return Case(query: "\(quote(s)) IN\(mod) tags") { i in w.people[i].tags.contains { oracleString($0, "==", s, opts) } }
            }
            return Case(query: "\(q)tags \(op)\(mod) \(quote(s))") { i in fold(w.people[i].tags.map { oracleString($0, op, s, opts) }) }
        case 19:
            let (q, fold) = quantifier()
            let op = pick(numericOps), c = int(0...10)
            return Case(query: "\(q)scores \(op) \(c)") { i in fold(w.people[i].scores.map { oracleCmp($0, op, c) }) }
        case 20:
            let op = pick(numericOps), c = int(0...25)
            switch int(0...4) {
            case 0: return Case(query: "scores.@sum \(op) \(c)") { oracleCmp(w.people[$0].scores.reduce(0, +), op, c) }
            case 1: return Case(query: "scores.@count \(op) \(c % 5)") { oracleCmp(w.people[$0].scores.count, op, c % 5) }
            case 2:
                return Case(query: "scores.@avg \(op) \(c / 2)") { i in
                    let s = w.people[i].scores
                    return oracleOptional(s.isEmpty ? nil : Double(s.reduce(0, +)) / Double(s.count), op, Double(c / 2))
                }
            case 3: return Case(query: "scores.@min \(op) \(c / 2)") { oracleOptional(w.people[$0].scores.min(), op, c / 2) }
            default: return Case(query: "tags.@size \(op) \(c % 4)") { oracleCmp(w.people[$0].tags.count, op, c % 4) }
            }
        case 21:
            let op = pick(numericOps), c = int(0...9), key = pick(["k1", "k2", "k3", "k4"])
            switch int(0...3) {
            case 0: return Case(query: "attrs['\(key)'] \(op) \(c)") { oracleOptional(w.people[$0].attrs[key], op, c) }
            case 1: return Case(query: "attrs.@keys == '\(key)'") { w.people[$0].attrs[key] != nil }
            case 2: return Case(query: "attrs.@values \(op) \(c)") { w.people[$0].attrs.values.contains { oracleCmp($0, op, c) } }
            default: return Case(query: "attrs.@count \(op) \(c % 4)") { oracleCmp(w.people[$0].attrs.count, op, c % 4) }
            }
        case 22:
            let op = pick(numericOps), c = int(0...15), key = pick(["f1", "f2", "f3"])
            switch int(0...2) {
            case 0:
                return Case(query: "favorites['\(key)'].age \(op) \(c)") { i in
                    let d: Int?? = w.people[i].favorites[key]
                    return oracleOptional(d.flatMap { $0 }.map { w.dogs[$0].age }, op, c)
                }
            case 1: return Case(query: "favorites.@count \(op) \(c % 3)") { oracleCmp(w.people[$0].favorites.count, op, c % 3) }
            default:
                return Case(query: "favorites.@values.age \(op) \(c)") { i in
                    w.people[i].favorites.values.contains { d in d.map { oracleCmp(w.dogs[$0].age, op, c) } ?? false }
                }
            }
        case 23:
            let op = pick(numericOps)
            let t = Int64.random(in: -500_000_000...1_500_000_000, using: &rng)
            let literal: String
            if Bool.random(using: &rng) {
                literal = "T\(t):0"
            } else {
                let f = DateFormatter()
                f.locale = Locale(identifier: "en_US_POSIX")
                f.timeZone = TimeZone(identifier: "UTC")
                f.dateFormat = "yyyy-MM-dd'@'HH:mm:ss"
                literal = f.string(from: Date(timeIntervalSince1970: Double(t)))
            }
            if Bool.random(using: &rng) {
                return Case(query: "born \(op) $0", args: [.date(Date(timeIntervalSince1970: Double(t)))]) { oracleCmp(w.people[$0].born, op, t) }
            }
            return Case(query: "born \(op) \(literal)") { oracleCmp(w.people[$0].born, op, t) }
        case 24:
            let b = Bool.random(using: &rng)
            return Case(query: "active == \(b)") { w.people[$0].active == b }
        case 25:
            let op = pick(numericOps), c = Decimal(int(-1000...1000)) / 10
            if Bool.random(using: &rng) {
                return Case(query: "balance \(op) decimal128(\(c))") { oracleCmp(w.people[$0].balance, op, c) }
            }
            let whole = int(-100...100)
            return Case(query: "balance \(op) \(whole)") { oracleCmp(w.people[$0].balance, op, Decimal(whole)) }
        case 26:
            // Mixed: numbers compare across int and double; strings and null never equal numbers.
            let op = pick(numericOps)
            switch int(0...2) {
            case 0:
                let c = Double(int(-20...20)) / 4
                return Case(query: "nick \(op) \(c)") { i in
                    switch w.people[i].nick {
                    case .int(let v): return oracleCmp(Double(v), op, c)
                    case .double(let v): return oracleCmp(v, op, c)
                    case .string, .none: return op == "!="
                    }
                }
            case 1:
                let s = string()
                return Case(query: "nick == \(quote(s))") { i in
                    if case .string(let v) = w.people[i].nick { return oracleString(v, "==", s, "") }
                    return false
                }
            default:
                return Case(query: "nick == nil") { w.people[$0].nick == .none }
            }
        default:
            let a = int(0...15), s = string(), op = pick(numericOps), c = int(0...3)
            return Case(query: "SUBQUERY(dogs, $d, $d.age > \(a) AND $d.name CONTAINS[c] \(quote(s))).@count \(op) \(c)") { i in
                let n = w.people[i].dogs.filter { w.dogs[$0].age > a && oracleString(w.dogs[$0].name, "CONTAINS", s, "c") }.count
                return oracleCmp(n, op, c)
            }
        }
    }

    mutating func dogLeaf() -> Case {
        let w = self.w
        var c = dogLeafInner()
        c.className = "Dog"
        _ = w
        return c
    }

    private mutating func dogLeafInner() -> Case {
        let w = self.w
        let op = pick(numericOps)
        switch int(0...9) {
        case 0:
            let c = int(0...90)
            return Case(query: "owner.age \(op) \(c)") { oracleOptional(w.dogs[$0].owner.map { w.people[$0].age }, op, c) }
        case 1:
            let p = int(0...(w.people.count - 1))
            let ref = QueryValue.object(QueryObjectRef(className: "Person", key: Int64(p)))
            if Bool.random(using: &rng) {
                return Case(query: "owner == $0", args: [ref]) { w.dogs[$0].owner == p }
            }
            return Case(query: "owner != $0", args: [ref]) { w.dogs[$0].owner != p }
        case 2:
            return Case(query: "owner == nil") { w.dogs[$0].owner == nil }
        case 3:
            let c = int(0...3)
            let path = pick(["owners.@count", "@links.Person.dogs.@count"])
            return Case(query: "\(path) \(op) \(c)") { d in oracleCmp(w.people.map { $0.dogs.filter { $0 == d }.count }.reduce(0, +), op, c) }
        case 4:
            let (q, fold) = quantifier()
            let c = int(0...90)
            return Case(query: "\(q)owners.age \(op) \(c)") { d in
                fold(w.people.flatMap { p in p.dogs.filter { $0 == d }.map { _ in oracleCmp(p.age, op, c) } })
            }
        case 5:
            let s = string()
            return Case(query: "ANY @links.Person.dogs.name BEGINSWITH \(quote(s))") { d in
                w.people.contains { p in p.dogs.contains(d) && oracleString(p.name, "BEGINSWITH", s, "") }
            }
        case 6:
            let c = int(0...4)
            return Case(query: "@links.@count \(op) \(c)") { d in
                let fromDogs = w.people.map { $0.dogs.filter { $0 == d }.count }.reduce(0, +)
                let fromFavorites = w.people.map { $0.favorites.values.filter { $0 == d }.count }.reduce(0, +)
                return oracleCmp(fromDogs + fromFavorites, op, c)
            }
        case 7:
            let c = Double(int(0...200)) / 4
            return Case(query: "toys.@max.price \(op) \(c)") { d in oracleOptional(w.dogs[d].toys.map { w.toys[$0].price }.max(), op, c) }
        case 8:
            let c = Double(int(0...200)) / 4
            return Case(query: "ALL toys.price \(op) \(c)") { d in w.dogs[d].toys.allSatisfy { oracleCmp(w.toys[$0].price, op, c) } }
        default:
            let a = Double(int(0...200)) / 4, c = int(0...2)
            return Case(query: "SUBQUERY(toys, $t, $t.price > \(a)).@count \(op) \(c)") { d in
                oracleCmp(w.dogs[d].toys.filter { w.toys[$0].price > a }.count, op, c)
            }
        }
    }

    /// A random AND/OR/NOT tree of person leaves (arguments renumbered so they stay distinct).
    mutating func compound(depth: Int) -> Case {
        if depth == 0 || int(0...2) == 0 {
            var leaf = personLeaf()
            while !leaf.args.isEmpty && depth < 2 { leaf = personLeaf() }  // keep $0 meaningful at top level only
            return leaf
        }
        switch int(0...2) {
        case 0:
            let inner = compound(depth: depth - 1)
            return Case(query: "NOT (\(inner.query))", args: inner.args) { !inner.oracle($0) }
        default:
            let isAnd = Bool.random(using: &rng)
            var a = compound(depth: depth - 1)
            var b = compound(depth: depth - 1)
            while !a.args.isEmpty { a = personLeaf() }
            while !b.args.isEmpty { b = personLeaf() }
            let word = isAnd ? pick(["AND", "&&", "and"]) : pick(["OR", "||", "or"])
            let (fa, fb) = (a.oracle, b.oracle)
            return Case(query: "(\(a.query)) \(word) (\(b.query))") { isAnd ? fa($0) && fb($0) : fa($0) || fb($0) }
        }
    }
}

final class EvaluatorTests: XCTestCase {
    func check(_ c: Case, _ world: World, _ store: DictionaryStore, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let bound: BoundQuery
        do {
            bound = try RQL.compile(c.query, schema: testSchema, className: c.className, arguments: c.args)
        } catch {
            XCTFail("\(c.query): \(error)", file: file, line: line)
            return false
        }
        let evaluator = QueryEvaluator(store)
        let got = evaluator.run(bound, over: store.all(c.className)).map(\.index)
        let count = c.className == "Person" ? world.people.count : world.dogs.count
        let expected = (0..<count).filter(c.oracle)
        if got != expected {
            XCTFail("\(c.query) \(c.args): got \(got), expected \(expected)", file: file, line: line)
            return false
        }
        return true
    }

    func testRandomLeavesAgainstSwiftFiltering() {
        var failures = 0
        var nonTrivial = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            let world = World.generate(seed: seed)
            let store = world.store()
            var gen = CaseGenerator(w: world, rng: SeededRNG(seed: seed &* 7919))
            for k in 0..<500 {
                let c = k % 4 == 3 ? gen.dogLeaf() : gen.personLeaf()
                if !check(c, world, store) { failures += 1 }
                let count = c.className == "Person" ? world.people.count : world.dogs.count
                let n = (0..<count).filter(c.oracle).count
                if n > 0 && n < count { nonTrivial += 1 }
                if failures > 20 { return }
            }
        }
        // The generated constants must actually split the data, or the test proves little.
        XCTAssertGreaterThan(nonTrivial, 1200)
    }

    func testRandomCompoundPredicatesAgainstSwiftFiltering() {
        var failures = 0
        for seed in 10...13 as ClosedRange<UInt64> {
            let world = World.generate(seed: seed)
            let store = world.store()
            var gen = CaseGenerator(w: world, rng: SeededRNG(seed: seed))
            for _ in 0..<250 {
                if !check(gen.compound(depth: 3), world, store) { failures += 1 }
                if failures > 20 { return }
            }
        }
    }

    func testExplicitSemantics() throws {
        // A tiny hand-made world where every rule is checked by name.
        var w = World()
        w.toys = [ToyData(name: "ball", price: 5)]
        w.dogs = [DogData(name: "Rex", age: 3, weight: 10, owner: 0, toys: [0]),
                  DogData(name: "Fido", age: 7, weight: 20, owner: nil, toys: [])]
        w.people = [
            PersonData(name: "Ann", age: 30, height: 1.7, born: 0, active: true, balance: 1, nick: .int(3), tags: ["x"],
                       scores: [1, 2], attrs: ["k1": 1], dogs: [0, 1], bestFriend: nil, favorites: [:]),
            PersonData(name: nil, age: 40, height: 1.8, born: 10, active: false, balance: 2, nick: .string("3"), tags: [],
                       scores: [], attrs: [:], dogs: [], bestFriend: 0, favorites: ["f1": 1]),
        ]
        let store = w.store()
        let ev = QueryEvaluator(store)
        func run(_ q: String, _ cls: String = "Person", _ args: [QueryValue] = []) throws -> [Int] {
            ev.run(try RQL.compile(q, schema: testSchema, className: cls, arguments: args), over: store.all(cls)).map(\.index)
        }
        XCTAssertEqual(try run("ALL dogs.age > 100"), [1], "ALL over an empty collection is true")
        XCTAssertEqual(try run("NONE dogs.age > 0"), [1], "NONE over an empty collection is true")
        XCTAssertEqual(try run("dogs.age > 0"), [0], "implicit ANY")
        XCTAssertEqual(try run("bestFriend.name == nil"), [0], "a null link yields null")
        XCTAssertEqual(try run("bestFriend.name == 'Ann'"), [1])
        XCTAssertEqual(try run("dogs.@avg.age == 5"), [0])
        XCTAssertEqual(try run("dogs.@avg.age == nil"), [1], "avg of nothing is null")
        XCTAssertEqual(try run("scores.@sum == 0"), [1], "sum of nothing is 0")
        XCTAssertEqual(try run("nick == 3"), [0], "mixed: string '3' is not the number 3")
        XCTAssertEqual(try run("nick == '3'"), [1])
        XCTAssertEqual(try run("nick == 3.0"), [0])
        XCTAssertEqual(try run("height > 1"), [0, 1], "int literal against a double property")
        XCTAssertEqual(try run("age > 35.5"), [1], "double literal against an int property")
        XCTAssertEqual(try run("favorites['f1'].name == 'Fido'"), [1])
        XCTAssertEqual(try run("attrs['k1'] == nil"), [1], "a missing map key yields null")
        XCTAssertEqual(try run("name.@size == 3"), [0])
        XCTAssertEqual(try run("TRUEPREDICATE"), [0, 1])
        XCTAssertEqual(try run("FALSEPREDICATE"), [])
        XCTAssertEqual(try run("owner == nil", "Dog"), [1])
        XCTAssertEqual(try run("owner.name == 'Ann'", "Dog"), [0])
        XCTAssertEqual(try run("owners.name == 'Ann'", "Dog"), [0, 1])
        XCTAssertEqual(try run("@links.@count == 2", "Dog"), [1], "Fido: one list entry and one map entry")
        XCTAssertEqual(try run("owner IN {$0, $1}", "Dog", [.object(QueryObjectRef(className: "Person", key: 0)), .null]), [0, 1])
        XCTAssertEqual(try run("SUBQUERY(dogs, $d, SUBQUERY($d.toys, $t, $t.price > $d.age).@count > 0).@count == 1"), [0],
                       "nested subqueries see outer variables")
        XCTAssertEqual(try run("SUBQUERY(tags, $t, $t == 'x').@count == 1"), [0], "subquery over scalars")
        XCTAssertEqual(try run("SUBQUERY(dogs, $d, $d.age > age).@count == 0"), [0, 1], "paths without a variable refer to the queried object")
    }

    func testStringSemantics() {
        func t(_ a: String, _ op: QueryOperator, _ b: String, _ o: QueryStringOptions = []) -> Bool {
            queryTest(.string(a), op, .string(b), o)
        }
        XCTAssertFalse(t("é", .equal, "e\u{301}"), "== is exact: no canonical equivalence")
        XCTAssertTrue(t("é", .equal, "e\u{301}", .diacriticInsensitive))
        XCTAssertTrue(t("É", .equal, "e", [.caseInsensitive, .diacriticInsensitive]))
        XCTAssertFalse(t("É", .equal, "e", .caseInsensitive))
        XCTAssertTrue(t("Straße", .equal, "STRASSE", .caseInsensitive), "full case folding")
        XCTAssertTrue(t("ΣΊΣΥΦΟΣ", .equal, "σίσυφος", .caseInsensitive))
        XCTAssertTrue(t("e\u{301}", .contains, "e"), "matching works on scalars")
        XCTAssertTrue(t("Z", .less, "a"), "code point order")
        XCTAssertTrue(t("a", .less, "é"))
        XCTAssertTrue(t("abc", .like, "a*"))
        XCTAssertTrue(t("abc", .like, "?b?"))
        XCTAssertFalse(t("abc", .like, "?b"))
        XCTAssertTrue(t("", .like, "*"))
        XCTAssertTrue(t("aXbXc", .like, "*b*c"))
        XCTAssertTrue(t("ABC", .like, "a?c", .caseInsensitive))
        XCTAssertTrue(t("anything", .contains, ""))
        XCTAssertFalse(queryTest(.null, .beginsWith, .string(""), []))
        XCTAssertTrue(queryTest(.data([1, 2, 3]), .beginsWith, .data([1, 2]), []))
        XCTAssertTrue(queryTest(.data([1, 2, 3]), .endsWith, .data([2, 3]), []))
    }

    func testNumericSemantics() {
        XCTAssertTrue(queryTest(.int(3), .equal, .double(3.0), []))
        XCTAssertTrue(queryTest(.int(Int64.max), .less, .double(9.3e18), []))
        XCTAssertFalse(queryTest(.int(Int64.max), .equal, .double(9_223_372_036_854_775_807.0), []), "no rounding of large ints")
        XCTAssertTrue(queryTest(.int(2), .less, .double(2.5), []))
        XCTAssertTrue(queryTest(.int(-3), .less, .double(-2.5), []))
        XCTAssertTrue(queryTest(.float(1.5), .equal, .decimal("1.5"), []))
        XCTAssertTrue(queryTest(.decimal(100), .less, .double(.infinity), []))
        XCTAssertTrue(queryTest(.decimal(100), .less, .double(1e300), []), "beyond Decimal's range")
        XCTAssertTrue(queryTest(.decimal(-100), .less, .double(Double.leastNonzeroMagnitude), []))
        XCTAssertTrue(queryTest(.double(-1e300), .less, .decimal(-100), []))
        XCTAssertFalse(queryTest(.decimal(.nan), .equal, .decimal(.nan), []))
        XCTAssertFalse(queryTest(.double(.nan), .equal, .double(.nan), []))
        XCTAssertTrue(queryTest(.double(.nan), .notEqual, .double(1), []))
        XCTAssertFalse(queryTest(.null, .less, .int(1), []))
        XCTAssertTrue(queryTest(.null, .equal, .null, []))
        XCTAssertTrue(queryTest(.date(QueryTimestamp(seconds: 1, nanoseconds: 5)), .greater, .date(QueryTimestamp(seconds: 1)), []))
    }
}
