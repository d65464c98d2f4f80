import Foundation
import XCTest
@testable import StrataObjects

/// `Timestamp`: ISO 8601 text straight to the stored nanoseconds and back (one calendar, no
/// Double), the stored range as the one definition of what a date can be, and `Date` conversion.
final class TimestampTests: XCTestCase {
    func testTextRoundTripsToTheNanosecondAcrossTheRange() throws {
        for text in ["1677-09-21T00:12:43.145224192Z", "2262-04-11T23:47:16.854775807Z", "1970-01-01T00:00:00.000Z",
                     "1969-12-31T23:59:59.999999999Z", "1969-12-31T23:59:59.999Z", "2024-03-15T12:34:56.123456789Z",
                     "1900-02-28T23:00:00.000000001Z", "2000-02-29T00:00:00.100Z"] {
            let t = try Timestamp(iso8601: text)
            XCTAssertEqual(t.description, text)
            XCTAssertEqual(Value.date(t).description, text)
        }
        XCTAssertEqual(try Timestamp(iso8601: "1677-09-21T00:12:43.145224192Z"), .min)
        XCTAssertEqual(try Timestamp(iso8601: "2262-04-11T23:47:16.854775807Z"), .max)
        XCTAssertEqual(try Timestamp(iso8601: "1969-12-31T23:59:59.999999999Z").nanosecondsSince1970, -1)
        XCTAssertEqual(try Timestamp(iso8601: "2024-03-15T12:34:56.123456789Z").nanosecondsSince1970, 1_710_506_096_123_456_789)
    }

    func testOtherSpellingsAndOffsets() throws {
        let noon = try Timestamp(iso8601: "2024-05-01T12:00:00Z")
        for text in ["2024-05-01 12:00", "2024-05-01T12:00:00.000000000Z", "2024-05-01T14:00:00+02:00", "2024-05-01T07:30:00-04:30",
                     " 2024-05-01T12:00:00Z "] {
            XCTAssertEqual(try Timestamp(iso8601: text), noon, text)
        }
        XCTAssertEqual(try Timestamp(iso8601: "2024-05-01").description, "2024-05-01T00:00:00.000Z")
    }

    func testWhatIsNotAStorableDateIsRefusedNotMoved() {
        let cases: [(String, TimestampError)] = [
            ("2024-02-30", .noSuchDay(year: 2024, month: 2, days: 29)), ("2023-02-29", .noSuchDay(year: 2023, month: 2, days: 28)),
            ("2021-13-01", .noSuchMonth(13)), ("2020-01-01T24:00:00Z", .noSuchTime), ("2020-01-01T12:60Z", .noSuchTime),
            ("2262-04-11T23:47:16.854775808Z", .outOfRange), ("1677-09-21T00:12:43.145224191Z", .outOfRange),
            ("0001-01-01", .outOfRange), ("9999-12-31T23:59:59.999999999Z", .outOfRange),
            ("1e5", .notADate), ("2024-05-01T12:00:00.1234567891Z", .notADate), ("yesterday", .notADate), ("", .notADate),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try Timestamp(iso8601: text), text) { XCTAssertEqual($0 as? TimestampError, expected, text) }
        }
    }

    func testFoundationDatesConvertToTheNearestNanosecond() {
        let t = Timestamp(nanosecondsSince1970: 1_714_566_605_250_000_000)
        XCTAssertEqual(t.date, Date(timeIntervalSince1970: 1_714_566_605.25))
        XCTAssertEqual(Timestamp(t.date), t)
        XCTAssertEqual(Timestamp(Date(timeIntervalSince1970: 0)).nanosecondsSince1970, 0)
        XCTAssertEqual(Timestamp(Date.distantFuture), .max)
        XCTAssertEqual(Timestamp(Date.distantPast), .min)
        XCTAssertNil(Timestamp(exactly: .distantFuture))
        XCTAssertNil(Timestamp(seconds: 9_223_372_037, nanoseconds: 0))
        XCTAssertEqual(Timestamp(seconds: -9_223_372_037, nanoseconds: 145_224_192), .min)
        XCTAssertEqual(Timestamp(seconds: 0, nanoseconds: -1)?.nanosecondsSince1970, -1)
    }
}
