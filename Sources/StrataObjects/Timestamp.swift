import Foundation
import StrataStorage

/// A date exactly as a Strata file stores it: nanoseconds since 1970-01-01 00:00:00 UTC in an
/// Int64, so from 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z.
///
/// A Foundation `Date` (a Double of seconds since 2001) cannot hold every nanosecond of that
/// range; `Timestamp` is what `Value.date` carries so a date read from text, a Realm file or the
/// file itself is written back unchanged. Convert with ``init(_:)`` and ``date``.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since 1970 (negative before).
    public let nanosecondsSince1970: Int64

    /// The earliest date a Strata file stores: 1677-09-21T00:12:43.145224192Z.
    public static let min = Timestamp(nanosecondsSince1970: .min)
    /// The latest date a Strata file stores: 2262-04-11T23:47:16.854775807Z.
    public static let max = Timestamp(nanosecondsSince1970: .max)

    /// The stored date `ns` nanoseconds after 1970.
    public init(nanosecondsSince1970 ns: Int64) { nanosecondsSince1970 = ns }

    /// Whole seconds since 1970 plus nanoseconds (any sign), or nil when the time lies outside
    /// the stored range (``min`` ... ``max``).
    public init?(seconds: Int64, nanoseconds: Int64) {
        // Carry whole seconds out of the nanoseconds, and give the fraction the seconds' sign,
        // so the earliest stored dates (-9,223,372,037 s + 145,224,192 ns) do not overflow.
        let carry = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        var (s, o0) = seconds.addingReportingOverflow(carry.quotient)
        var n = carry.remainder
        if s < 0 && n > 0 { s += 1; n -= 1_000_000_000 } else if s > 0 && n < 0 { s -= 1; n += 1_000_000_000 }
        let (a, o1) = s.multipliedReportingOverflow(by: 1_000_000_000)
        let (b, o2) = a.addingReportingOverflow(n)
        guard !o0, !o1, !o2 else { return nil }
        nanosecondsSince1970 = b
    }

    /// The stored date nearest to a Foundation `Date`; dates before ``min`` or after ``max``
    /// (and non-finite ones) become ``min`` or ``max`` — which read back as `Date.distantPast`
    /// and `Date.distantFuture` (see ``date``).
    public init(_ date: Date) {
        self = Timestamp(exactly: date) ?? (date.timeIntervalSinceReferenceDate < 0 ? .min : .max)
    }

    /// The stored date nearest to a Foundation `Date`, or nil when it lies outside the stored range.
    public init?(exactly date: Date) {
        // From the reference date (2001) in two parts, so no precision is lost adding 978307200 s.
        let t = date.timeIntervalSinceReferenceDate
        guard t.isFinite, abs(t) < 1e11 else { return nil }
        let whole = t.rounded(.down)
        let nanos = Int64(((t - whole) * 1e9).rounded())
        self.init(seconds: Int64(whole) + Timestamp.referenceDateSeconds, nanoseconds: nanos)
    }

    /// Seconds from 1970 to Foundation's reference date (2001-01-01).
    static let referenceDateSeconds: Int64 = 978_307_200

    /// Whole seconds since 1970 (rounded down, so ``nanoseconds`` is never negative).
    public var seconds: Int64 {
        let (q, r) = nanosecondsSince1970.quotientAndRemainder(dividingBy: 1_000_000_000)
        return r < 0 ? q - 1 : q
    }

    /// Nanoseconds within the second, 0 ..< 1,000,000,000.
    public var nanoseconds: Int64 {
        let r = nanosecondsSince1970 % 1_000_000_000
        return r < 0 ? r + 1_000_000_000 : r
    }

    /// The Foundation `Date` nearest to this one (sub-microsecond digits may be lost). The two
    /// ends of the range stand for every date beyond them: ``min`` reads back as
    /// `Date.distantPast` and ``max`` as `Date.distantFuture`, so those sentinels (which
    /// ``init(_:)`` stores as the ends) round-trip, as they do in RealmSwift.
    public var date: Date {
        if self == .max { return .distantFuture }
        if self == .min { return .distantPast }
        return Date(timeIntervalSinceReferenceDate: Double(seconds - Timestamp.referenceDateSeconds) + Double(nanoseconds) / 1e9)
    }

    /// `2024-05-01T12:30:05.123Z`: ISO 8601 in UTC with as many fraction digits as the
    /// nanoseconds need (at least three); ``init(iso8601:)`` reads it back to the same value.
    public var description: String { iso8601Text(seconds: seconds, nanoseconds: nanoseconds) }

    /// Parses ISO 8601 text (`2024-05-01`, `2024-05-01T12:30:05.123456789Z`, `…+02:00`) straight
    /// to the stored nanoseconds, with no rounding; throws for text that is not a date, a day or
    /// time that does not exist, or a date outside ``min`` ... ``max``.
    public init(iso8601 text: String) throws(TimestampError) {
        let parsed: (seconds: Int64, nanoseconds: Int64)
        do { parsed = try parseISO8601(text) } catch {
            switch error {
            case .format: throw .notADate
            case .month(let m): throw .noSuchMonth(m)
            case .day(let y, let m, let days): throw .noSuchDay(year: y, month: m, days: days)
            case .timeOfDay: throw .noSuchTime
            }
        }
        guard let t = Timestamp(seconds: parsed.seconds, nanoseconds: parsed.nanoseconds) else { throw .outOfRange }
        self = t
    }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.nanosecondsSince1970 < b.nanosecondsSince1970 }
}

/// Why a text is not a storable date (``Timestamp/init(iso8601:)``).
public enum TimestampError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not shaped like an ISO 8601 date.
    case notADate
    /// A month outside 01-12.
    case noSuchMonth(Int64)
    /// A day the month does not have.
    case noSuchDay(year: Int64, month: Int64, days: Int64)
    /// An hour, minute, second or offset out of range.
    case noSuchTime
    /// Outside the dates a Strata file stores (``Timestamp/min`` ... ``Timestamp/max``).
    case outOfRange

    /// The stored range as text, for messages.
    public static let rangeText = "\(Timestamp.min) to \(Timestamp.max)"

    public var description: String {
        switch self {
        case .notADate: return "use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.fffffffff]Z (UTC, or an offset like +02:00)"
        case .noSuchMonth(let m): return "there is no month \(m); months are 01-12"
        case .noSuchDay(let y, let m, let days): return String(format: "%04lld-%02lld has %lld days", y, m, days)
        case .noSuchTime: return "hours are 00-23, minutes and seconds 00-59"
        case .outOfRange: return "Strata stores dates from \(TimestampError.rangeText)"
        }
    }
}
