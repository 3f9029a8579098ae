/// ISO 8601 / RFC 3339 text for wall-clock instants held as Unix seconds.
///
/// Pure calendar arithmetic (proleptic Gregorian, UTC) so the core needs no
/// Foundation formatter and the output is identical everywhere.
public enum WallClockTime {
    /// `2026-11-30T04:00:00.123Z`, with `fractionDigits` digits after the second (0…9).
    public static func iso8601(unixSeconds: Double, fractionDigits: Int = 3) -> String {
        let digits = max(0, min(9, fractionDigits))
        var unit: Int64 = 1
        for _ in 0..<digits { unit *= 10 }
        let ticks = Int64((unixSeconds * Double(unit)).rounded(.toNearestOrAwayFromZero))
        let (secondsFloor, fraction) = floorDivide(ticks, unit)
        let (days, secondOfDay) = floorDivide(secondsFloor, 86_400)
        let (y, m, d) = civilDate(daysSinceEpoch: days)
        var s = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
        s += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if digits > 0 { s += "." + pad(fraction, digits) }
        return s + "Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]` (a space may replace `T`);
    /// a bare date `YYYY-MM-DD` means midnight UTC. Nil when malformed.
    public static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        var i = 0
        func number(_ count: Int) -> Int64? {
            guard i + count <= b.count else { return nil }
            var v: Int64 = 0
            for k in i..<(i + count) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int64(b[k] - 0x30)
            }
            i += count
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < b.count, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = number(4), expect(0x2D), let mo = number(2), expect(0x2D), let d = number(2),
              (1...12).contains(mo), d >= 1, d <= daysIn(month: mo, year: y) else { return nil }
        var seconds = Double(daysSinceEpoch(year: y, month: mo, day: d) * 86_400)
        if i == b.count { return seconds }
        guard i < b.count, b[i] == 0x54 || b[i] == 0x20 || b[i] == 0x74 else { return nil }
        i += 1
        guard let h = number(2), expect(0x3A), let mi = number(2), expect(0x3A), let s = number(2),
              h < 24, mi < 60, s <= 60 else { return nil }
        seconds += Double(h * 3600 + mi * 60 + s)
        if i < b.count, b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            var scale = 0.1
            var any = false
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
                seconds += Double(b[i] - 0x30) * scale
                scale /= 10
                any = true
                i += 1
            }
            guard any else { return nil }
        }
        if i == b.count { return seconds }
        if b[i] == 0x5A || b[i] == 0x7A { return i + 1 == b.count ? seconds : nil }
        guard b[i] == 0x2B || b[i] == 0x2D else { return nil }
        let sign: Double = b[i] == 0x2D ? -1 : 1
        i += 1
        guard let oh = number(2), oh < 24 else { return nil }
        _ = expect(0x3A)
        guard let om = number(2), om < 60, i == b.count else { return nil }
        return seconds - sign * Double(oh * 3600 + om * 60)
    }

    /// A full RFC 3339 date-time: date, time and a zone (`Z` or `±HH:MM`), as
    /// profiles and logs store them. A bare date or a missing zone is refused.
    public static func isDateTimeWithZone(_ text: String) -> Bool {
        guard text.utf8.count >= 20, let last = text.utf8.last else { return false }
        let zoned = last == 0x5A || last == 0x7A || text.utf8.dropFirst(19).contains(where: { $0 == 0x2B || $0 == 0x2D })
        return zoned && parse(text) != nil
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a civil date (H. Hinnant's algorithm).
    public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count from 1970-01-01.
    public static func civilDate(daysSinceEpoch z0: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b, r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    private static func pad(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
