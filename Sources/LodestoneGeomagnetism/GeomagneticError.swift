/// Why the model gave no result. Each case names the bad value and the limit,
/// so a caller can print it as is.
public enum GeomagneticError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The date lies outside the model's five-year life span. Pass
    /// `allowExtrapolation: true` to get a result marked `isExtrapolated`.
    case dateOutsideValidity(decimalYear: Double, model: String, validFrom: Double, validUntil: Double)
    /// The height lies outside the −1 km … 850 km the model is specified for.
    /// Pass `allowExtrapolation: true` to get a result marked `isExtrapolated`.
    case heightOutsideValidity(heightKilometres: Double, model: String, lowest: Double, highest: Double)
    /// Latitude outside −90° … 90°.
    case latitudeOutOfRange(Double)
    /// A NaN or infinite latitude, longitude, height or date.
    case notFinite(String)
    /// A calendar date that does not exist (month 1–12, day within the month).
    case invalidCalendarDate(year: Int, month: Int, day: Int)

    public var description: String {
        switch self {
        case let .dateOutsideValidity(year, model, from, until):
            return "date \(year) is outside \(model)'s validity \(from)–\(until); use a model for that date, or allow extrapolation to accept a degraded result"
        case let .heightOutsideValidity(height, model, lowest, highest):
            return "height \(height) km above the WGS 84 ellipsoid is outside \(model)'s validity \(lowest)–\(highest) km; allow extrapolation to accept a degraded result"
        case let .latitudeOutOfRange(latitude):
            return "latitude \(latitude)° is outside −90…90°"
        case let .notFinite(what):
            return "\(what) is not a finite number"
        case let .invalidCalendarDate(year, month, day):
            return "\(year)-\(month)-\(day) is not a calendar date"
        }
    }
}
