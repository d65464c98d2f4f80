import Foundation
import XCTest
@testable import StrataQuery

/// Shorthands for building expected trees.
func kp(_ dotted: String) -> QueryExpression { .keyPath(QueryKeyPath(dotted)) }
func cmp(_ l: QueryExpression, _ op: QueryOperator, _ r: QueryExpression,
         _ options: QueryStringOptions = [], _ q: QueryQuantifier? = nil) -> QueryPredicate {
    .comparison(QueryComparison(l, op, r, options: options, quantifier: q))
}
func int(_ i: Int64) -> QueryExpression { .constant(.int(i)) }
func str(_ s: String) -> QueryExpression { .constant(.string(s)) }

final class ParserTests: XCTestCase {
    func p(_ s: String, file: StaticString = #filePath, line: UInt = #line) -> QueryPredicate {
        do { return try RQL.parse(s).predicate } catch {
            XCTFail("\(s): \(error)", file: file, line: line)
            return .constant(false)
        }
    }

    func testComparisonOperators() {
        XCTAssertEqual(p("age == 3"), cmp(kp("age"), .equal, int(3)))
        XCTAssertEqual(p("age = 3"), cmp(kp("age"), .equal, int(3)))
        XCTAssertEqual(p("age != 3"), cmp(kp("age"), .notEqual, int(3)))
        XCTAssertEqual(p("age <> 3"), cmp(kp("age"), .notEqual, int(3)))
        XCTAssertEqual(p("age < 3"), cmp(kp("age"), .less, int(3)))
        XCTAssertEqual(p("age <= 3"), cmp(kp("age"), .lessOrEqual, int(3)))
        XCTAssertEqual(p("age =< 3"), cmp(kp("age"), .lessOrEqual, int(3)))
        XCTAssertEqual(p("age > 3"), cmp(kp("age"), .greater, int(3)))
        XCTAssertEqual(p("age >= 3"), cmp(kp("age"), .greaterOrEqual, int(3)))
        XCTAssertEqual(p("age=>3"), cmp(kp("age"), .greaterOrEqual, int(3)))
        XCTAssertEqual(p("3 < age"), cmp(int(3), .less, kp("age")))
    }

    func testBetweenAndIn() {
        XCTAssertEqual(p("age BETWEEN {1, 5}"), cmp(kp("age"), .between, .list([int(1), int(5)])))
        XCTAssertEqual(p("age between{1,5}"), cmp(kp("age"), .between, .list([int(1), int(5)])))
        XCTAssertEqual(p("age IN {1, 2, $0}"), cmp(kp("age"), .in, .list([int(1), int(2), .argument(0)])))
        XCTAssertEqual(p("age IN $1"), cmp(kp("age"), .in, .argument(1)))
        XCTAssertEqual(p("name IN[c] {'a', nil}"), cmp(kp("name"), .in, .list([str("a"), .constant(.null)]), .caseInsensitive))
        XCTAssertEqual(p("'x' IN tags"), cmp(str("x"), .in, kp("tags")))
        XCTAssertEqual(p("age IN {}"), cmp(kp("age"), .in, .list([])))
    }

    func testStringOperatorsAndOptions() {
        XCTAssertEqual(p("name BEGINSWITH 'a'"), cmp(kp("name"), .beginsWith, str("a")))
        XCTAssertEqual(p("name endswith[c] 'a'"), cmp(kp("name"), .endsWith, str("a"), .caseInsensitive))
        XCTAssertEqual(p("name Contains[d] 'a'"), cmp(kp("name"), .contains, str("a"), .diacriticInsensitive))
        XCTAssertEqual(p("name LIKE[cd] 'a*?'"), cmp(kp("name"), .like, str("a*?"), [.caseInsensitive, .diacriticInsensitive]))
        XCTAssertEqual(p("name LIKE[dc] 'a'"), cmp(kp("name"), .like, str("a"), [.caseInsensitive, .diacriticInsensitive]))
        XCTAssertEqual(p("name ==[c] 'a'"), cmp(kp("name"), .equal, str("a"), .caseInsensitive))
        XCTAssertEqual(p("name !=[cd] 'a'"), cmp(kp("name"), .notEqual, str("a"), [.caseInsensitive, .diacriticInsensitive]))
    }

    func testPrecedenceAndGrouping() {
        let a = cmp(kp("a"), .equal, int(1)), b = cmp(kp("b"), .equal, int(2)), c = cmp(kp("c"), .equal, int(3))
        XCTAssertEqual(p("a == 1 OR b == 2 AND c == 3"), .or([a, .and([b, c])]))
        XCTAssertEqual(p("a == 1 AND b == 2 OR c == 3"), .or([.and([a, b]), c]))
        XCTAssertEqual(p("(a == 1 OR b == 2) AND c == 3"), .and([.or([a, b]), c]))
        XCTAssertEqual(p("a == 1 && b == 2 || c == 3"), .or([.and([a, b]), c]))
        XCTAssertEqual(p("NOT a == 1 AND b == 2"), .and([.not(a), b]))
        XCTAssertEqual(p("!(a == 1 AND b == 2)"), .not(.and([a, b])))
        XCTAssertEqual(p("not not a == 1"), .not(.not(a)))
        XCTAssertEqual(p("a == 1 and (b == 2 and c == 3)"), .and([a, b, c]))
        XCTAssertEqual(p("((a == 1))"), a)
        XCTAssertEqual(p("TRUEPREDICATE"), .constant(true))
        XCTAssertEqual(p("falsepredicate OR a == 1"), .or([.constant(false), a]))
    }

    func testLiterals() {
        XCTAssertEqual(p("a == -3"), cmp(kp("a"), .equal, int(-3)))
        XCTAssertEqual(p("a == 0x1F"), cmp(kp("a"), .equal, int(31)))
        XCTAssertEqual(p("a == -0x10"), cmp(kp("a"), .equal, int(-16)))
        XCTAssertEqual(p("a == 9223372036854775807"), cmp(kp("a"), .equal, int(.max)))
        XCTAssertEqual(p("a == -9223372036854775808"), cmp(kp("a"), .equal, int(.min)))
        XCTAssertEqual(p("a == 2.5"), cmp(kp("a"), .equal, .constant(.double(2.5))))
        XCTAssertEqual(p("a == -1.5e3"), cmp(kp("a"), .equal, .constant(.double(-1500))))
        XCTAssertEqual(p("a == 1E-2"), cmp(kp("a"), .equal, .constant(.double(0.01))))
        XCTAssertEqual(p("a == .5"), cmp(kp("a"), .equal, .constant(.double(0.5))))
        XCTAssertEqual(p("a == inf"), cmp(kp("a"), .equal, .constant(.double(.infinity))))
        XCTAssertEqual(p("a == -Infinity"), cmp(kp("a"), .equal, .constant(.double(-.infinity))))
        guard case .comparison(let nan) = p("a == NaN"), case .constant(.double(let d)) = nan.right else {
            return XCTFail("nan")
        }
        XCTAssertTrue(d.isNaN)
        XCTAssertEqual(p("a == 'it''s'".replacingOccurrences(of: "''", with: "\\'")), cmp(kp("a"), .equal, str("it's")))
        XCTAssertEqual(p(#"a == "q\"\n\t\\\u00e9\u{1F600}""#), cmp(kp("a"), .equal, str("q\"\n\t\\é😀")))
        XCTAssertEqual(p("a == true"), cmp(kp("a"), .equal, .constant(.bool(true))))
        XCTAssertEqual(p("a == FALSE"), cmp(kp("a"), .equal, .constant(.bool(false))))
        XCTAssertEqual(p("a == nil"), cmp(kp("a"), .equal, .constant(.null)))
        XCTAssertEqual(p("a == NULL"), cmp(kp("a"), .equal, .constant(.null)))
        XCTAssertEqual(p("a == oid(507f1f77bcf86cd799439011)"),
                       cmp(kp("a"), .equal, .constant(.objectId(QueryObjectId(hex: "507f1f77bcf86cd799439011")!))))
        XCTAssertEqual(p("a == uuid(137DECC8-B300-4954-A233-F89909F4FD89)"),
                       cmp(kp("a"), .equal, .constant(.uuid(UUID(uuidString: "137DECC8-B300-4954-A233-F89909F4FD89")!))))
        XCTAssertEqual(p(#"a == B64"aGVsbG8=""#), cmp(kp("a"), .equal, .constant(.data(Array("hello".utf8)))))
        XCTAssertEqual(p("a == decimal128(12.50)"), cmp(kp("a"), .equal, .constant(.decimal("12.5"))))
        XCTAssertEqual(p("a == decimal128(-1e3)"), cmp(kp("a"), .equal, .constant(.decimal(-1000))))
    }

    func testDates() {
        func date(_ s: String) -> QueryTimestamp? {
            guard case .comparison(let c) = p("d == \(s)"), case .constant(.date(let t)) = c.right else { return nil }
            return t
        }
        XCTAssertEqual(date("T2024-01-01@10:00:00"), QueryTimestamp(seconds: 1_704_103_200))
        XCTAssertEqual(date("2024-01-01@10:00:00"), QueryTimestamp(seconds: 1_704_103_200))
        XCTAssertEqual(date("2024-01-01T10:00:00"), QueryTimestamp(seconds: 1_704_103_200))
        XCTAssertEqual(date("T2024-01-01@10:00:00:123"), QueryTimestamp(seconds: 1_704_103_200, nanoseconds: 123))
        XCTAssertEqual(date("1970-01-01@00:00:00"), QueryTimestamp(seconds: 0))
        XCTAssertEqual(date("1969-12-31@23:59:59"), QueryTimestamp(seconds: -1))
        XCTAssertEqual(date("2000-02-29@12:00:00"), QueryTimestamp(seconds: 951_825_600))
        XCTAssertEqual(date("T1704103200:5"), QueryTimestamp(seconds: 1_704_103_200, nanoseconds: 5))
        XCTAssertEqual(date("T-1:-500"), QueryTimestamp(seconds: -2, nanoseconds: 999_999_500))
        // Cross-check with Foundation's calendar.
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let ref = cal.date(from: DateComponents(year: 2031, month: 7, day: 15, hour: 23, minute: 5, second: 9))!
        XCTAssertEqual(date("2031-07-15@23:05:09"), QueryTimestamp(ref))
    }

    func testKeyPaths() {
        XCTAssertEqual(p("owner.name == 'x'"), cmp(kp("owner.name"), .equal, str("x")))
        XCTAssertEqual(p("dogs.owner.age > 3"), cmp(kp("dogs.owner.age"), .greater, int(3)))
        XCTAssertEqual(p("dogs.@count > 2"),
                       cmp(.keyPath(QueryKeyPath([.property("dogs"), .aggregate(.count)])), .greater, int(2)))
        XCTAssertEqual(p("dogs.@avg.age > 3"),
                       cmp(.keyPath(QueryKeyPath([.property("dogs"), .aggregate(.avg), .property("age")])), .greater, int(3)))
        XCTAssertEqual(p("name.@size > 3"),
                       cmp(.keyPath(QueryKeyPath([.property("name"), .aggregate(.size)])), .greater, int(3)))
        XCTAssertEqual(p("@links.Person.dogs.@count == 0"),
                       cmp(.keyPath(QueryKeyPath([.backlinks(className: "Person", property: "dogs"), .aggregate(.count)])), .equal, int(0)))
        XCTAssertEqual(p("@links.@count == 0"),
                       cmp(.keyPath(QueryKeyPath([.allBacklinks, .aggregate(.count)])), .equal, int(0)))
        XCTAssertEqual(p("scores['math'] > 3"),
                       cmp(.keyPath(QueryKeyPath([.property("scores"), .mapKey("math")])), .greater, int(3)))
        XCTAssertEqual(p("scores.@keys == 'math'"),
                       cmp(.keyPath(QueryKeyPath([.property("scores"), .mapKeys])), .equal, str("math")))
        XCTAssertEqual(p("scores.@values > 1"),
                       cmp(.keyPath(QueryKeyPath([.property("scores"), .mapValues])), .greater, int(1)))
        // NSPredicate's spellings, which RealmSwift's format strings accept.
        XCTAssertEqual(p("ANY scores.@allKeys == 'math'"), p("ANY scores.@keys == 'math'"))
        XCTAssertEqual(p("scores.@allValues > 1"), p("scores.@values > 1"))
        // Keywords that are only keywords by position can be property names.
        XCTAssertEqual(p("sort == 1 AND limit == 2 AND asc == 3 AND in == 4"),
                       .and([cmp(kp("sort"), .equal, int(1)), cmp(kp("limit"), .equal, int(2)),
                             cmp(kp("asc"), .equal, int(3)), cmp(kp("in"), .equal, int(4))]))
    }

    func testQuantifiers() {
        XCTAssertEqual(p("ANY dogs.age > 3"), cmp(kp("dogs.age"), .greater, int(3), [], .anyOf))
        XCTAssertEqual(p("some dogs.age > 3"), cmp(kp("dogs.age"), .greater, int(3), [], .anyOf))
        XCTAssertEqual(p("ALL dogs.age > 3"), cmp(kp("dogs.age"), .greater, int(3), [], .allOf))
        XCTAssertEqual(p("NONE dogs.name ==[c] 'x'"), cmp(kp("dogs.name"), .equal, str("x"), .caseInsensitive, .noneOf))
        XCTAssertEqual(p("NOT ANY tags == 'a'"), .not(cmp(kp("tags"), .equal, str("a"), [], .anyOf)))
    }

    func testSubquery() {
        let inner = QueryPredicate.and([
            cmp(.keyPath(QueryKeyPath(variable: "d", [.property("age")])), .greater, int(3)),
            cmp(.keyPath(QueryKeyPath(variable: "d", [.property("name")])), .beginsWith, str("R")),
        ])
        let sub = QuerySubquery(collection: QueryKeyPath("dogs"), variable: "d", predicate: inner)
        XCTAssertEqual(p("SUBQUERY(dogs, $d, $d.age > 3 AND $d.name BEGINSWITH 'R').@count > 1"),
                       cmp(.subqueryCount(sub), .greater, int(1)))
        let tags = QuerySubquery(collection: QueryKeyPath("tags"), variable: "t",
                                 predicate: cmp(.keyPath(QueryKeyPath(variable: "t", [])), .beginsWith, str("a")))
        XCTAssertEqual(p("subquery(tags, $t, $t BEGINSWITH 'a').@size == 0"), cmp(.subqueryCount(tags), .equal, int(0)))
    }

    func testArguments() {
        XCTAssertEqual(p("owner.name == $0 AND age > $12"),
                       .and([cmp(kp("owner.name"), .equal, .argument(0)), cmp(kp("age"), .greater, .argument(12))]))
    }

    func testOrderingClauses() throws {
        let q = try RQL.parse("age > 3 SORT(name ASC, owner.age DESCENDING, x) DISTINCT(name, age) LIMIT(10) SORT(age desc)")
        XCTAssertEqual(q.ordering, [
            .sort([QuerySortKey(QueryKeyPath("name")), QuerySortKey(QueryKeyPath("owner.age"), ascending: false), QuerySortKey(QueryKeyPath("x"))]),
            .distinct([QueryKeyPath("name"), QueryKeyPath("age")]),
            .limit(10),
            .sort([QuerySortKey(QueryKeyPath("age"), ascending: false)]),
        ])
        let t = try RQL.parse("TRUEPREDICATE limit(5)")
        XCTAssertEqual(t, ParsedQuery(predicate: .constant(true), ordering: [.limit(5)]))
        XCTAssertEqual(try RQL.parse("truepredicate SORT(a Ascending)").ordering, [.sort([QuerySortKey(QueryKeyPath("a"))])])
    }

    /// Printing then parsing again gives the same tree, for hand-written queries covering every construct.
    func testRoundTripOfHandWrittenQueries() throws {
        let queries = [
            "age > 3 AND name BEGINSWITH[c] 'b'", "owner.name == $0", "ANY tags == 'x'", "dogs.@count > 2",
            "age IN {1, 2}", "age BETWEEN {1, 10}", "TRUEPREDICATE SORT(name ASC) DISTINCT(x) LIMIT(10)",
            "a == 1 OR b == 2 AND NOT (c == 3 OR d == 4)", "NOT NOT a == 1", "x == -0.0", "x == 1e300",
            "d > T2024-01-01@10:00:00:123 AND d < T-5:3 AND d != 0001-01-01@00:00:00",
            "o == oid(507f1f77bcf86cd799439011) OR u == uuid(137decc8-b300-4954-a233-f89909f4fd89)",
            #"b == B64"AAEC/w==" OR s == "\u{301}a\"'\\""#, "dec == decimal128(-1.25E+5)",
            "SUBQUERY(dogs, $d, $d.age > 3 AND SUBQUERY($d.toys, $t, $t.price < $d.age).@count == 0).@count > 1",
            "@links.Person.dogs.@count == 0 AND @links.@count > 1 AND m['k\\'ey'] == 2 AND m.@keys == 'a'",
            "ALL dogs.age > 3 AND NONE dogs.name LIKE[cd] '*x?'", "dogs.@avg.age >= 2.5 AND name.@size < 4",
            "'x' IN tags AND f == inf AND g == -inf", "n == nil OR n != NULL",
        ]
        for q in queries {
            let parsed = try RQL.parse(q)
            let printed = parsed.description
            let again = try RQL.parse(printed)
            XCTAssertEqual(parsed, again, "\(q) printed as \(printed)")
            XCTAssertEqual(printed, again.description)
        }
    }

    func testPrintedForm() throws {
        XCTAssertEqual(try RQL.parse("a=1 && (b<>2 || c =< 3) sort(a asc)").description,
                       "a == 1 AND (b != 2 OR c <= 3) SORT(a ASC)")
        XCTAssertEqual(try RQL.parse("!(a==1&&b==2)").description, "NOT (a == 1 AND b == 2)")
        XCTAssertEqual(try RQL.parse("d == T1704103200:0").description, "d == 2024-01-01@10:00:00")
        XCTAssertEqual(try RQL.parse("x == 3.0").description, "x == 3.0")
    }
}
