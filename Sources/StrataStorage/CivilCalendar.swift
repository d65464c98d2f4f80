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
    /// Not shaped like `YYYY-MM-DD[THH:MM[:SS[.fraction]]][Z|±HH:MM]`.
    case format
    /// A month outside 01-12.
    case month(Int64)
    /// A day the month does not have.
    case day(year: Int64, month: Int64, days: Int64)
    /// An hour, minute or second out of range (`25:00`, `12:60`), or an offset past ±23:59.
    case timeOfDay
}

/// Parses `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS[.fraction]]` (with `T` or a space), an optional
/// `Z` or `±HH:MM` / `±HHMM` offset (UTC when absent), up to nine fraction digits, a leading `-`
/// or `+` on the year: the time as whole seconds since 1970 plus nanoseconds (0..<1e9), with no
/// rounding. Days and times that do not exist (`2024-02-30`, `24:00`) are refused. The one
/// date parser of every text path (import, the browser's edit prompt, query output).
package func parseISO8601(_ text: String) throws(ISO8601TextError) -> (seconds: Int64, nanoseconds: Int64) {
    var s = Substring(text.trimmingCharacters(in: .whitespaces))
    var offsetSeconds: Int64 = 0
    if s.hasSuffix("Z") || s.hasSuffix("z") {
        s = s.dropLast()
    } else if let signIndex = s.lastIndex(where: { $0 == "+" || $0 == "-" }),
              let timeStart = s.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }), signIndex > timeStart {
        let zone = s[s.index(after: signIndex)...]
        let parts = zone.split(separator: ":", omittingEmptySubsequences: false)
        guard zone.allSatisfy({ $0 == ":" || ($0.isASCII && $0.isNumber) }) else { throw .format }
        let hours: Int64, minutes: Int64
        if parts.count == 2, parts[0].count == 2, parts[1].count == 2 {
            hours = Int64(parts[0]) ?? 99; minutes = Int64(parts[1]) ?? 99
        } else if parts.count == 1, zone.count == 4 {
            hours = Int64(zone.prefix(2)) ?? 99; minutes = Int64(zone.suffix(2)) ?? 99
        } else if parts.count == 1, zone.count == 2 {
            hours = Int64(zone) ?? 99; minutes = 0
        } else {
            throw .format
        }
        guard hours < 24, minutes < 60 else { throw .timeOfDay }
        offsetSeconds = (s[signIndex] == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        s = s[..<signIndex]
    }
    let parts = s.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "T" || $0 == "t" })
    guard let dayPart = parts.first, !s.hasSuffix(" "), !s.hasSuffix("T") else { throw .format }
    var dayText = Substring(dayPart)
    var negativeYear = false
    if dayText.hasPrefix("-") { negativeYear = true; dayText = dayText.dropFirst() } else if dayText.hasPrefix("+") { dayText = dayText.dropFirst() }
    let ymdText = dayText.split(separator: "-", omittingEmptySubsequences: false)
    guard ymdText.count == 3, ymdText[0].count <= 9, ymdText[1].count <= 2, ymdText[2].count <= 2,
          ymdText.allSatisfy({ !$0.isEmpty }),
          ymdText.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
          let y = Int64(ymdText[0]), let month = Int64(ymdText[1]), let day = Int64(ymdText[2]) else { throw .format }
    let year = negativeYear ? -y : y
    guard (1...12).contains(month) else { throw .month(month) }
    let days = daysInMonth(year, month)
    guard (1...days).contains(day) else { throw .day(year: year, month: month, days: days) }
    var secondOfDay: Int64 = 0
    var nanos: Int64 = 0
    if parts.count == 2 {
        var timeText = Substring(parts[1])
        if let dot = timeText.firstIndex(where: { $0 == "." || $0 == "," }) {
            let fraction = timeText[timeText.index(after: dot)...]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .format }
            nanos = Int64(fraction + String(repeating: "0", count: 9 - fraction.count)) ?? 0
            timeText = timeText[..<dot]
        }
        let fieldTexts = timeText.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fieldTexts.count), fieldTexts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { throw .format }
        let fields = fieldTexts.map { Int64($0) ?? 99 }
        guard fields[0] < 24, fields[1] < 60, fields.count < 3 || fields[2] < 60 else { throw .timeOfDay }
        if fields.count < 3 && nanos != 0 { throw .format }
        secondOfDay = fields[0] * 3600 + fields[1] * 60 + (fields.count == 3 ? fields[2] : 0)
    }
    return (daysFromCivil(year, month, day) * 86400 + secondOfDay - offsetSeconds, nanos)
}
