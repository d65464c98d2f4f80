import Foundation

// The one calendar conversion of the package (proleptic Gregorian, UTC, no time-zone database;
// Howard Hinnant's days-from-civil algorithms). The query language's date literals, the tooling's
// date text, the Realm reader's timestamps and the lock holder's "since" all use these.
// Wrapping arithmetic: a damaged file's absurd timestamp gives a wrong date, never a trap.

/// True for Gregorian leap years.
package func isLeapYear(_ y: Int64) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

/// The number of days in month `m` (1–12) of year `y`.
package func daysInMonth(_ y: Int64, _ m: Int64) -> Int64 {
    switch m {
    case 2: return isLeapYear(y) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

/// Days since 1970-01-01 for a civil date.
package func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
    let y = m <= 2 ? y0 &- 1 : y0
    let era = (y >= 0 ? y : y &- 399) / 400
    let yoe = y &- era &* 400
    let mp = (m &+ 9) % 12
    let doy = (153 &* mp &+ 2) / 5 &+ d &- 1
    let doe = yoe &* 365 &+ yoe / 4 &- yoe / 100 &+ doy
    return era &* 146_097 &+ doe &- 719_468
}

/// The civil date for a number of days since 1970-01-01.
package func civilFromDays(_ z0: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = z0 &+ 719_468
    let era = (z >= 0 ? z : z &- 146_096) / 146_097
    let doe = z &- era &* 146_097
    let yoe = (doe &- doe / 1460 &+ doe / 36_524 &- doe / 146_096) / 365
    let doy = doe &- (365 &* yoe &+ yoe / 4 &- yoe / 100)
    let mp = (5 &* doy &+ 2) / 153
    let d = doy &- (153 &* mp &+ 2) / 5 &+ 1
    let m = mp < 10 ? mp &+ 3 : mp &- 9
    return (yoe &+ era &* 400 &+ (m <= 2 ? 1 : 0), m, d)
}

/// Calendar fields of whole seconds since 1970 in UTC.
package func civilFields(secondsSince1970 total: Int64) -> (year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) {
    var days = total / 86400
    var secondsOfDay = total % 86400
    if secondsOfDay < 0 { secondsOfDay += 86400; days -= 1 }
    let (year, month, day) = civilFromDays(days)
    return (year, month, day, secondsOfDay / 3600, secondsOfDay % 3600 / 60, secondsOfDay % 60)
}

/// `2024-05-01 12:30:05` for whole seconds since 1970, in UTC.
package func utcDateTimeText(secondsSince1970: Int64) -> String {
    let f = civilFields(secondsSince1970: secondsSince1970)
    return String(format: "%04lld-%02lld-%02lld %02lld:%02lld:%02lld", f.year, f.month, f.day, f.hour, f.minute, f.second)
}

// MARK: ISO 8601 text

/// `2024-05-01T12:30:05.123Z` for a time given as seconds since 1970 plus nanoseconds (any sign:
/// they are normalised to a whole second and a positive fraction), in UTC. The fraction has at
/// least `minimumFractionDigits` digits and as many more as the nanoseconds need, so the text
/// reads back to the same time. Years outside 0...9999 are written with their sign and digits
/// (`-0001`, `10000`). The one date formatter of every text path (export, query output, the
/// browser's edit prompt, Realm timestamps).
package func iso8601Text(seconds: Int64, nanoseconds: Int64, minimumFractionDigits: Int = 3) -> String {
    let carry = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    var s = seconds &+ carry.quotient
    var n = carry.remainder
    if n < 0 { n += 1_000_000_000; s = s &- 1 }
    let f = civilFields(secondsSince1970: s)
    func pad(_ v: Int64, _ w: Int) -> String {
        let t = String(v)
        return t.count >= w ? t : String(repeating: "0", count: w - t.count) + t
    }
    var digits = pad(n, 9)
    while digits.count > max(0, minimumFractionDigits), digits.hasSuffix("0") { digits.removeLast() }
    let year = f.year < 0 ? "-" + pad(0 &- f.year, 4) : pad(f.year, 4)
    let fraction = digits.isEmpty ? "" : "." + digits
    return "\(year)-\(pad(f.month, 2))-\(pad(f.day, 2))T\(pad(f.hour, 2)):\(pad(f.minute, 2)):\(pad(f.second, 2))\(fraction)Z"
}

/// Why a text is not an ISO 8601 date (``parseISO8601``).
package enum ISO8601TextError: Error, Equatable, Sendable {
    /// Not shaped like `YYYY-MM-DD[(T| )HH:MM[:SS[.fraction]][Z|±HH:MM]]`.
    case format
    /// A month outside 01-12.
    case month(Int64)
    /// A day the month does not have.
    case day(year: Int64, month: Int64, days: Int64)
    /// An hour, minute or second out of range (`25:00`, `12:60`), or an offset past ±23:59.
    case timeOfDay
}

/// Parses the ISO 8601 text the tools write and document, strictly: `YYYY-MM-DD` (a four-digit
/// year, two-digit month and day), optionally followed by `T` (or a space) and `HH:MM`,
/// `HH:MM:SS` or `HH:MM:SS.f` (one to nine fraction digits after a `.`), then optionally `Z` or
/// an offset `+HH:MM` / `-HH:MM` (UTC when absent). Surrounding spaces are ignored. Nothing
/// else is read as a date: no one-digit fields (`2020-1-1`), signed or longer years (`+2020`),
/// `,` fractions, basic-format offsets (`+0200`), lower-case `t`/`z`, or a zone on a date
/// without a time. Days and times that do not exist (`2024-02-30`, `24:00`) are refused.
/// Returns the time as whole seconds since 1970 plus nanoseconds (0..<1e9), with no rounding.
/// The one date parser of every text path (import, the browser's edit prompt, query output).
package func parseISO8601(_ text: String) throws(ISO8601TextError) -> (seconds: Int64, nanoseconds: Int64) {
    let b = Array(text.trimmingCharacters(in: .whitespaces).utf8)
    var i = 0
    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    func number(_ count: Int) throws(ISO8601TextError) -> Int64 {
        guard i + count <= b.count else { throw .format }
        var v: Int64 = 0
        for k in i..<i + count {
            guard isDigit(b[k]) else { throw .format }
            v = v * 10 + Int64(b[k] - 0x30)
        }
        i += count
        return v
    }
    func expect(_ c: Unicode.Scalar) throws(ISO8601TextError) {
        guard i < b.count, b[i] == UInt8(ascii: c) else { throw .format }
        i += 1
    }
    let year = try number(4)
    try expect("-")
    let month = try number(2)
    try expect("-")
    let day = try number(2)
    var hour: Int64 = 0, minute: Int64 = 0, second: Int64 = 0, nanos: Int64 = 0, offsetSeconds: Int64 = 0
    if i < b.count {
        guard b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " ") else { throw .format }
        i += 1
        hour = try number(2)
        try expect(":")
        minute = try number(2)
        if i < b.count && b[i] == UInt8(ascii: ":") {
            i += 1
            second = try number(2)
            if i < b.count && b[i] == UInt8(ascii: ".") {
                i += 1
                let start = i
                while i < b.count && isDigit(b[i]) { i += 1 }
                guard (1...9).contains(i - start) else { throw .format }
                for k in start..<i { nanos = nanos * 10 + Int64(b[k] - 0x30) }
                for _ in (i - start)..<9 { nanos *= 10 }
            }
        }
        if i < b.count && b[i] == UInt8(ascii: "Z") {
            i += 1
        } else if i < b.count && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) {
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            let offsetHours = try number(2)
            try expect(":")
            let offsetMinutes = try number(2)
            guard offsetHours < 24, offsetMinutes < 60 else { throw .timeOfDay }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
    }
    guard i == b.count else { throw .format }
    guard (1...12).contains(month) else { throw .month(month) }
    let days = daysInMonth(year, month)
    guard (1...days).contains(day) else { throw .day(year: year, month: month, days: days) }
    guard hour < 24, minute < 60, second < 60 else { throw .timeOfDay }
    return (daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds, nanos)
}
