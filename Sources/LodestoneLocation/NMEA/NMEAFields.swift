import LodestoneCore

/// Parsers for the field formats of NMEA 0183 position sentences. Each returns
/// nil for an empty field (not reported) and throws a message for a malformed one.
enum NMEAFields {
    struct Malformed: Error {
        var message: String
    }

    /// A decimal number (digits, one point, optional sign).
    static func number(_ field: Substring, _ name: String) throws(Malformed) -> Double? {
        guard !field.isEmpty else { return nil }
        guard field.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B }),
              let value = Double(field), value.isFinite else {
            throw Malformed(message: "\(name) '\(field)' is not a number")
        }
        return value
    }

    /// `ddmm.mmmm` (latitude, 2 degree digits) or `dddmm.mmmm` (longitude, 3) with its
    /// hemisphere field; degrees, south and west negative.
    static func angle(_ field: Substring, hemisphere: Substring, degreeDigits: Int, _ name: String) throws(Malformed) -> Double? {
        guard !field.isEmpty || !hemisphere.isEmpty else { return nil }
        let positive: Character = degreeDigits == 2 ? "N" : "E", negative: Character = degreeDigits == 2 ? "S" : "W"
        let limit = degreeDigits == 2 ? 90.0 : 180.0
        let format = degreeDigits == 2 ? "ddmm.mmmm" : "dddmm.mmmm"
        guard field.count > degreeDigits + 1, field.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
              field.utf8.dropFirst(degreeDigits + 2).first.map({ $0 == 0x2E }) ?? true,
              let degrees = Double(field.prefix(degreeDigits)), let minutes = Double(field.dropFirst(degreeDigits)),
              minutes < 60 else {
            throw Malformed(message: "\(name) '\(field)' is not \(format)")
        }
        guard hemisphere.count == 1, let h = hemisphere.first, h == positive || h == negative else {
            throw Malformed(message: "\(name) hemisphere '\(hemisphere)' is not \(positive) or \(negative)")
        }
        let value = degrees + minutes / 60
        guard value <= limit else { throw Malformed(message: "\(name) '\(field)' is beyond \(Int(limit))°") }
        return h == negative ? -value : value
    }

    /// `hhmmss` or `hhmmss.sss`: seconds of the UTC day.
    static func timeOfDay(_ field: Substring) throws(Malformed) -> Double? {
        guard !field.isEmpty else { return nil }
        let digits = field.prefix(6)
        guard digits.count == 6, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let h = Int(digits.prefix(2)), let m = Int(digits.dropFirst(2).prefix(2)), let s = Int(digits.suffix(2)),
              h < 24, m < 60, s <= 60 else {
            throw Malformed(message: "time '\(field)' is not hhmmss.ss")
        }
        var seconds = Double(h * 3600 + m * 60 + s)
        let rest = field.dropFirst(6)
        if !rest.isEmpty {
            guard rest.first == ".", let fraction = Double("0" + rest), rest.dropFirst().utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw Malformed(message: "time '\(field)' is not hhmmss.ss")
            }
            seconds += fraction
        }
        return seconds
    }

    /// `ddmmyy`: days since 1970-01-01. Two-digit years 80–99 are 1980–1999, the rest
    /// 2000–2079 (GPS began in 1980).
    static func date(_ field: Substring) throws(Malformed) -> Int64? {
        guard !field.isEmpty else { return nil }
        guard field.count == 6, field.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let d = Int64(field.prefix(2)), let m = Int64(field.dropFirst(2).prefix(2)), let yy = Int64(field.suffix(2)) else {
            throw Malformed(message: "date '\(field)' is not a valid ddmmyy")
        }
        let year = yy >= 80 ? 1900 + yy : 2000 + yy
        let days = WallClockTime.daysSinceEpoch(year: year, month: m, day: d)
        // A day or month out of range does not survive the round trip.
        guard (1...12).contains(m), (1...31).contains(d), WallClockTime.civilDate(daysSinceEpoch: days) == (year, m, d) else {
            throw Malformed(message: "date '\(field)' is not a valid ddmmyy")
        }
        return days
    }
}
