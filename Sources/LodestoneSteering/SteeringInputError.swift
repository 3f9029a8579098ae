/// Why a steering input was refused.
///
/// Positions and settings come from users (command line, config files, gpsd),
/// so bad values are reported with what was wrong and what is allowed instead
/// of producing NaN bearings or trapping.
public enum SteeringInputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A latitude outside [-90, 90] degrees or not a number.
    case latitudeOutOfRange(Double)
    /// A longitude that is infinite or not a number.
    case longitudeNotFinite(Double)
    /// A numeric argument (`name`) that must be finite.
    case notFinite(name: String, value: Double)
    /// A setting (`name`) outside its allowed range (`allowed`, human-readable).
    case settingOutOfRange(name: String, value: Double, allowed: String)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let value):
            return "latitude \(value) is outside [-90, 90] degrees; give latitude first, in decimal degrees (south negative)"
        case .longitudeNotFinite(let value):
            return "longitude \(value) is not a finite number of degrees; give decimal degrees (west negative)"
        case .notFinite(let name, let value):
            return "\(name) \(value) is not a finite number"
        case .settingOutOfRange(let name, let value, let allowed):
            return "setting \(name) = \(value) is out of range; allowed: \(allowed)"
        }
    }
}
