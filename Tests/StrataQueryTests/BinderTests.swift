import Foundation
import XCTest
@testable import StrataQuery

final class BinderTests: XCTestCase {
    func bindError(_ q: String, _ cls: String = "Person", args: [QueryValue] = [],
                   file: StaticString = #filePath, line: UInt = #line) -> QueryError? {
        do {
            let b = try RQL.compile(q, schema: testSchema, className: cls, arguments: args)
            XCTFail("expected an error for \(q), got \(b)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func message(_ q: String, _ cls: String = "Person", args: [QueryValue] = [],
                 file: StaticString = #filePath, line: UInt = #line) -> String {
        bindError(q, cls, args: args, file: file, line: line)?.message ?? ""
    }

    func bound(_ q: String, _ cls: String = "Person", args: [QueryValue] = []) throws -> BoundQuery {
        try RQL.compile(q, schema: testSchema, className: cls, arguments: args)
    }

    func testUnknownNames() {
        XCTAssertEqual(message("agee > 3"), "Unknown property 'agee' on class 'Person' (did you mean 'age'?)")
        XCTAssertEqual(bindError("agee > 3")?.kind, .unknownProperty)
        XCTAssertEqual(message("zzzzzz > 3"), "Unknown property 'zzzzzz' on class 'Person'")
        XCTAssertEqual(message("owner.nmae == 'x'", "Dog"), "Unknown property 'nmae' on class 'Person' (did you mean 'name'?)")
        XCTAssertEqual(message("age > 3", "Persn"), "Unknown class 'Persn' (did you mean 'Person'?)")
        XCTAssertEqual(message("@links.Cat.dogs.@count > 0"), "Unknown class 'Cat'")
        XCTAssertEqual(message("$x.age > 1"), "Unknown variable $x: variables are introduced by SUBQUERY(collection, $x, ...)")
    }

    func testTypeMismatches() {
        XCTAssertEqual(message("name > 3"), "Cannot compare String property 'name' with number 3")
        XCTAssertEqual(message("name == 3"), "Cannot compare String property 'name' with number 3")
        XCTAssertEqual(bindError("name == 3")?.kind, .typeMismatch)
        XCTAssertEqual(message("age == 'x'"), "Cannot compare Int property 'age' with string \"x\"")
        XCTAssertEqual(message("born > 3"), "Cannot compare Date property 'born' with number 3")
        XCTAssertEqual(message("age == name"), "Cannot compare Int property 'age' with String property 'name'")
        XCTAssertEqual(message("age BEGINSWITH 'x'"), "BEGINSWITH needs strings or binary data, but compares Int property 'age' with string \"x\"")
        XCTAssertEqual(message("age ==[c] 3"), "The [c]/[d] options need strings, but '==' compares Int property 'age' with number 3")
        XCTAssertEqual(message("active > true"), "Booleans can only be compared with == or !=, not '>' (Bool property 'active')")
        XCTAssertEqual(message("age > nil"), "Cannot use '>' with null (Int property 'age')")
        XCTAssertEqual(message("bestFriend > nil"), "Cannot use '>' with null (link to 'Person' property 'bestFriend')")
        XCTAssertEqual(message("bestFriend == $0", args: [.object(QueryObjectRef(className: "Dog", key: 1))]),
                       "Cannot compare link to 'Person' property 'bestFriend' with object Dog#1")
        XCTAssertEqual(message("age == $0", args: [.string("3")]), "Cannot compare Int property 'age' with string \"3\"")
        XCTAssertEqual(message("age IN {1, 'x'}"), "Cannot compare Int property 'age' with string \"x\"")
    }

    func testArgumentErrors() {
        XCTAssertEqual(message("age == $3", args: [.int(1)]), "Argument $3 is out of range: 1 argument was given")
        XCTAssertEqual(message("age == $0"), "Argument $0 is out of range: 0 arguments were given")
        XCTAssertEqual(bindError("age == $0")?.kind, .argument)
        XCTAssertEqual(message("age IN $0", args: [.int(5)]),
                       "IN expects a list such as {1, 2}, a list argument or a collection, but found number 5")
        XCTAssertEqual(message("age BETWEEN $0", args: [.list([.int(1)])]),
                       "BETWEEN expects a list of two values {low, high}, but found a list of 1 values")
        XCTAssertEqual(message("age IN {$0}", args: [.list([.int(1)])]), "Argument $0 is a list and cannot be an element of {...}")
        XCTAssertEqual(message("age == $0", args: [.list([.int(1)])]), "A list {...} can only appear on the right of IN or BETWEEN")
    }

    func testStructuralErrors() {
        XCTAssertEqual(message("ALL age > 3"), "'ALL' needs a key path through a collection, but 'age' is a single value")
        XCTAssertEqual(message("NONE dogs.age > scores"), "'NONE' compares each element with a single value, but 'scores' is a collection")
        XCTAssertEqual(message("name.@sum > 3"), "@sum in 'name.@sum' must follow a collection")
        XCTAssertEqual(message("age.@size > 3"), "@size in 'age.@size' must follow a collection or a string")
        XCTAssertEqual(message("dogs.@sum.name > 3"), "@sum cannot be applied to String values in 'dogs.@sum.name'")
        XCTAssertEqual(message("dogs.@avg > 1"), "@avg on a collection of 'Dog' objects needs a property: 'dogs.@avg.property'")
        XCTAssertEqual(message("tags.@max.x > 1"), "Nothing can follow @max on a collection of values in 'tags.@max.x'")
        XCTAssertEqual(message("age.x > 1"), "Invalid key path 'age.x': 'x' cannot follow a Int value")
        XCTAssertEqual(message("attrs.@keys.x == 'a'"), "Invalid key path 'attrs.@keys.x': 'x' cannot follow a String value")
        XCTAssertEqual(message("@links.Dog.name.@count > 0"),
                       "'@links.Dog.name' in '@links.Dog.name.@count': Dog.name is not a link to 'Person'")
        XCTAssertEqual(message("@links.@sum > 0"), "'@links' alone can only be followed by @count in '@links.@sum'")
        XCTAssertEqual(message("SUBQUERY(age, $a, $a > 1).@count > 0"), "SUBQUERY needs a collection, but 'age' is a single value")
        XCTAssertEqual(message("SUBQUERY(dogs, $d, SUBQUERY($d.toys, $d, $d.price > 1).@count > 0).@count > 0"),
                       "The SUBQUERY variable $d is already in use")
        XCTAssertEqual(message("TRUEPREDICATE SORT(dogs.age ASC)"), "Cannot SORT by 'dogs.age': it goes through a collection")
        XCTAssertEqual(message("TRUEPREDICATE DISTINCT(bestFriend)"), "Cannot DISTINCT by 'bestFriend': it is a link, not a value")
        XCTAssertEqual(message("{1, 2} == age"), "A list {...} can only appear on the right of IN or BETWEEN")
        XCTAssertEqual(message("dogs.age IN scores"), "IN between two collections ('dogs.age' and 'scores') is not supported")
    }

    func testResolvedPaths() throws {
        let b = try bound("dogs.@avg.age > 3 AND bestFriend.name == 'x' AND @links.Dog.owner.@count > 0 AND attrs['k'] == 1", "Person")
        _ = b
        let q = try bound("owner.name == 'x' AND owners.name == 'y' AND toys.@max.price > 1 AND @links.@count == 0", "Dog")
        guard case .and(let parts) = q.predicate,
              case .comparison(let c0) = parts[0], case .path(let p0) = c0.left,
              case .comparison(let c1) = parts[1], case .path(let p1) = c1.left,
              case .comparison(let c2) = parts[2], case .path(let p2) = c2.left,
              case .comparison(let c3) = parts[3], case .path(let p3) = c3.left else {
            return XCTFail("shape")
        }
        XCTAssertEqual(p0.steps, [.link(property: "owner", target: "Person"), .value(property: "name", type: .string)])
        XCTAssertFalse(p0.isToMany)
        XCTAssertNil(c0.quantifier)
        XCTAssertEqual(p1.steps, [.backlinks(originClass: "Person", property: "dogs"), .value(property: "name", type: .string)])
        XCTAssertTrue(p1.isToMany)
        XCTAssertEqual(c1.quantifier, .anyOf, "implicit ANY")
        XCTAssertEqual(p2.steps, [.aggregate(BoundAggregate(op: .max, collection: .links(property: "toys", target: "Toy"),
                                                          elementPath: [.value(property: "price", type: .double)], type: .double))])
        XCTAssertEqual(p2.type, .double)
        XCTAssertEqual(p3.steps, [.aggregate(BoundAggregate(op: .count, collection: .allBacklinks, elementPath: [], type: .int))])
    }

    func testConstantConversionAndArguments() throws {
        func right(_ q: String, args: [QueryValue] = []) throws -> BoundOperand? {
            guard case .comparison(let c) = try bound(q, args: args).predicate else { return nil }
            return c.right
        }
        XCTAssertEqual(try right("height > 3"), .value(.double(3)))
        XCTAssertEqual(try right("balance > 3"), .value(.decimal(3)))
        XCTAssertEqual(try right("age > 3.5"), .value(.double(3.5)), "no lossy conversion to int")
        XCTAssertEqual(try right("age > $0", args: [.int(7)]), .value(.int(7)))
        XCTAssertEqual(try right("height IN {1, 2.5}"), .values([.double(1), .double(2.5)]))
        XCTAssertEqual(try right("age IN $0", args: [.list([.int(1), .int(2)])]), .values([.int(1), .int(2)]))
        XCTAssertEqual(try right("nick == 3"), .value(.int(3)), "mixed: kept as written")
        XCTAssertEqual(try right("dogs.@count > 1.0"), .value(.double(1)))
        guard case .comparison(let c) = try bound("'x' IN tags").predicate else { return XCTFail() }
        XCTAssertEqual(c.op, .equal)
        XCTAssertEqual(c.quantifier, .anyOf)
        guard case .path(let p) = c.left else { return XCTFail() }
        XCTAssertEqual(p.steps, [.values(property: "tags", element: .string)])
    }

    func testEngineHelpers() throws {
        let q = try bound("age == 3 AND 'Bo' == name AND name ==[c] 'x' AND bestFriend.age == 1 AND (age == 1 OR age == 2)")
        let clauses = q.predicate.conjuncts
        XCTAssertEqual(clauses.count, 5)
        let eq = clauses.map { p -> String? in
            guard case .comparison(let c) = p, let e = c.propertyEqualsConstant else { return nil }
            return "\(e.property)=\(e.value)"
        }
        XCTAssertEqual(eq, ["age=3", "name=\"Bo\"", nil, nil, nil])
        XCTAssertEqual(try bound("age == 1").predicate.conjuncts.count, 1)
        XCTAssertEqual(try RQL.parse("a == 1 AND b == 2").predicate.conjuncts.count, 2)
        let ordered = try bound("TRUEPREDICATE SORT(age DESC, bestFriend.name ASC) LIMIT(3) DISTINCT(name)")
        XCTAssertEqual(ordered.ordering.count, 3)
        guard case .sort(let keys) = ordered.ordering[0] else { return XCTFail() }
        XCTAssertEqual(keys.map(\.ascending), [false, true])
        XCTAssertEqual(keys[0].path.directProperty, "age")
        XCTAssertNil(keys[1].path.directProperty)
        XCTAssertEqual(ordered.ordering[1], .limit(3))
    }
}
