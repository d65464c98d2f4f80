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
