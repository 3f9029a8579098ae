/// The ISO 8601 date-times used in calibration profiles, without Foundation.
///
/// Accepted: `YYYY-MM-DDTHH:MM:SS`, optional fraction `.s…`, then `Z` or
/// `±HH:MM` (RFC 3339, the ISO 8601 profile JSON tools write). Written: UTC,
/// whole seconds, `Z`. Day arithmetic from H. Hinnant's public-domain
/// `civil_from_days` algorithm ("chrono-compatible low-level date algorithms").
public enum ISO8601Timestamp {
    /// True when `text` is a valid date-time in the accepted form (real
    /// calendar dates, leap days included; seconds up to 60 for leap seconds).
    public static func isValid(_ text: String) -> Bool {
        let c = Array(text.utf8)
        guard c.count >= 20 else { return false }
        func digits(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= c.count else { return nil }
            var v = 0
            for i in at..<(at + count) {
                guard c[i] >= 48, c[i] <= 57 else { return nil }
                v = v * 10 + Int(c[i] - 48)
            }
            return v
        }
        func char(_ at: Int, _ s: Character) -> Bool { at < c.count && c[at] == s.asciiValue! }
        guard let year = digits(0, 4), char(4, "-"), let month = digits(5, 2), char(7, "-"),
              let day = digits(8, 2), char(10, "T") || char(10, "t"),
              let hour = digits(11, 2), char(13, ":"), let minute = digits(14, 2), char(16, ":"),
              let second = digits(17, 2) else { return false }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60 else { return false }
        var i = 19
        if char(i, ".") {
            i += 1
            let start = i
            while i < c.count, c[i] >= 48, c[i] <= 57 { i += 1 }
            guard i > start else { return false }
        }
        if char(i, "Z") || char(i, "z") { return i + 1 == c.count }
        guard char(i, "+") || char(i, "-"), let oh = digits(i + 1, 2), char(i + 3, ":"),
              let om = digits(i + 4, 2), oh <= 23, om <= 59 else { return false }
        return i + 6 == c.count
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` for seconds since 1970-01-01T00:00:00Z (fraction dropped).
    public static func string(unixTime: Double) -> String {
        let seconds = Int((unixTime.isFinite ? unixTime : 0).rounded(.down))
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        // civil_from_days
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(width - s.count, 0)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rest / 3600, 2)):\(pad(rest % 3600 / 60, 2)):\(pad(rest % 60, 2))Z"
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
