/// Dates as the decimal years the WMM takes, by NOAA's convention:
/// year + (day of year − 1 + fraction of the day) / days in that year.
/// So 2025-01-01 00:00 UTC is 2025.0 and 2028-07-01 00:00 UTC is 2028 + 182/366.
///
/// Proleptic Gregorian calendar, UTC; no leap seconds (as Unix time).
public enum DecimalYear {
    /// The decimal year at 00:00 UTC of a calendar date.
    /// - Throws: `GeomagneticError.invalidCalendarDate` for a month outside
    ///   1–12 or a day the month does not have.
    public static func from(year: Int, month: Int, day: Int) throws(GeomagneticError) -> Double {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else {
            throw .invalidCalendarDate(year: year, month: month, day: day)
        }
        var dayOfYear = day
        for earlier in 1..<month { dayOfYear += daysIn(month: earlier, year: year) }
        return Double(year) + Double(dayOfYear - 1) / Double(daysIn(year: year))
    }

    /// The decimal year of a Unix time (seconds since 1970-01-01 00:00 UTC).
    /// NaN or infinity gives NaN, which the model rejects with a clear error.
    public static func from(unixTime: Double) -> Double {
        guard unixTime.isFinite, abs(unixTime) < 1e15 else { return .nan }
        let day = (unixTime / 86_400).rounded(.down)
        let secondOfDay = unixTime - day * 86_400
        let days = Int(day)
        // Estimate the year, then correct it against exact year starts.
        var year = 1970 + Int((Double(days) / 365.2425).rounded(.down))
        while daysFromEpoch(toStartOf: year) > days { year -= 1 }
        while daysFromEpoch(toStartOf: year + 1) <= days { year += 1 }
        let dayOfYear = days - daysFromEpoch(toStartOf: year)
        return Double(year) + (Double(dayOfYear) + secondOfDay / 86_400) / Double(daysIn(year: year))
    }

    /// The Unix time of a decimal year: the inverse of ``from(unixTime:)``.
    public static func unixTime(fromDecimalYear decimalYear: Double) -> Double {
        guard decimalYear.isFinite, abs(decimalYear) < 1e9 else { return .nan }
        let year = Int(decimalYear.rounded(.down))
        let start = Double(daysFromEpoch(toStartOf: year)) * 86_400
        return start + (decimalYear - Double(year)) * Double(daysIn(year: year)) * 86_400
    }

    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysIn(year: Int) -> Int { isLeap(year) ? 366 : 365 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to January 1 of `year` (negative before 1970).
    static func daysFromEpoch(toStartOf year: Int) -> Int {
        // Leap years in [1, y - 1], with floor division so that it holds for any y.
        func leapYears(before y: Int) -> Int {
            func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
            return floorDiv(y - 1, 4) - floorDiv(y - 1, 100) + floorDiv(y - 1, 400)
        }
        return 365 * (year - 1970) + leapYears(before: year) - leapYears(before: 1970)
    }
}
