import XCTest
@testable import StrataQuery

final class ErrorTests: XCTestCase {
    func syntaxError(_ q: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let parsed = try RQL.parse(q)
            XCTFail("expected an error for \(q), got \(parsed)", file: file, line: line)
            return ""
        } catch {
            XCTAssertEqual(error.kind, .syntax, file: file, line: line)
            return error.message
        }
    }

    func testMessagesNamePositionAndExpectation() {
        XCTAssertEqual(syntaxError("age > 3 AND age >"),
                       "Invalid query at position 18: expected a value after '>' but found end of input")
        XCTAssertEqual(syntaxError("age >"), "Invalid query at position 6: expected a value after '>' but found end of input")
        XCTAssertEqual(syntaxError(""), "Invalid query at position 1: expected a predicate but found end of input")
        XCTAssertEqual(syntaxError("age 3"), "Invalid query at position 5: expected a comparison operator after 'age' but found '3'")
        XCTAssertEqual(syntaxError("owner.name 'x'"),
                       "Invalid query at position 12: expected a comparison operator after 'owner.name' but found 'x'")
        XCTAssertEqual(syntaxError("(age > 3"), "Invalid query at position 9: expected ')' or AND, OR but found end of input")
        XCTAssertEqual(syntaxError("age > 3 name == 'x'"),
                       "Invalid query at position 9: expected AND, OR, SORT, DISTINCT, LIMIT or end of input but found 'name'")
        XCTAssertEqual(syntaxError("name == 'abc"), "Invalid query at position 9: unterminated string starting with '")
        XCTAssertEqual(syntaxError("age > 3 #"), "Invalid query at position 9: unexpected character '#'")
        XCTAssertEqual(syntaxError("age IN {1, 2"), "Invalid query at position 13: expected ',' or '}' in the list but found end of input")
        XCTAssertEqual(syntaxError("age BETWEEN {1}"), "Invalid query at position 5: BETWEEN expects a list of two values: BETWEEN {low, high}")
        XCTAssertEqual(syntaxError("name BEGINSWITH[x] 'a'"),
                       "Invalid query at position 17: unknown string comparison option '[x]': expected [c], [d] or [cd]")
        XCTAssertEqual(syntaxError("age >[c] 3"), "Invalid query at position 6: the option [c] cannot be used with '>'")
        XCTAssertEqual(syntaxError("dogs.@foo > 1"),
                       "Invalid query at position 6: unknown collection operator '@foo': expected @count, @size, @sum, @min, @max, @avg, @keys, @values, @type or @links")
        XCTAssertEqual(syntaxError("d > 2024-13-01@10:00:00"), "Invalid query at position 5: invalid date '2024-13-01@10:00:00'")
        XCTAssertEqual(syntaxError("o == oid(123)"), "Invalid query at position 6: invalid ObjectId '123': expected 24 hexadecimal digits")
        XCTAssertEqual(syntaxError("a == 99999999999999999999"), "Invalid query at position 6: integer '99999999999999999999' is out of range")
        XCTAssertEqual(syntaxError("a == 12abc"), "Invalid query at position 6: invalid number '12abc'")
        XCTAssertEqual(syntaxError("TRUEPREDICATE SORT(a ASC"), "Invalid query at position 25: expected ASC, DESC, ',' or ')' in SORT but found end of input")
        XCTAssertEqual(syntaxError("TRUEPREDICATE LIMIT(x)"), "Invalid query at position 21: expected a non-negative integer in LIMIT but found 'x'")
        XCTAssertEqual(syntaxError("TRUEPREDICATE LIMIT(-1)"), "Invalid query at position 21: LIMIT must not be negative")
        XCTAssertEqual(syntaxError("ANY 3 == x"), "Invalid query at position 5: expected a key path after ANY but found '3'")
        XCTAssertEqual(syntaxError("SUBQUERY(dogs, d, d.age > 1).@count > 0"),
                       "Invalid query at position 16: expected a variable such as $x in SUBQUERY but found 'd'")
        XCTAssertEqual(syntaxError("a == 'x' SORT(a) b"), "Invalid query at position 18: expected SORT, DISTINCT, LIMIT or end of input but found 'b'")
        XCTAssertEqual(syntaxError("a == \"\\q\""), "Invalid query at position 7: unknown escape sequence '\\q'")
        // Positions count characters, not bytes.
        XCTAssertEqual(syntaxError("näme == 'é' AND >"), "Invalid query at position 17: expected a predicate but found '>'")
    }

    func testErrorsCarryPosition() {
        do {
            _ = try RQL.parse("a == 1 OR")
            XCTFail()
        } catch {
            XCTAssertEqual(error.position, 10)
            XCTAssertEqual(error.description, error.message)
        }
    }

    func testDeepNestingFailsCleanly() {
        let deep = String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)
        XCTAssertTrue(syntaxError(deep).contains("nested too deeply"))
        let nots = String(repeating: "NOT ", count: 5000) + "a == 1"
        XCTAssertTrue(syntaxError(nots).contains("nested too deeply"))
        let ok = String(repeating: "(", count: 90) + "a == 1" + String(repeating: ")", count: 90)
        XCTAssertNoThrow(try RQL.parse(ok))
    }
}
