/// Why a calibration profile was refused. Each case names the JSON field
/// (a path such as `parameters.matrix[1][2]`); the caller adds the file name.
public enum CalibrationProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not JSON, or JSON cut short.
    case malformedJSON(String)
    case missingField(String)
    case wrongType(field: String, expected: String)
    case unsupportedVersion(found: Int, supported: ClosedRange<Int>)
    case nonFinite(field: String)
    case invalidValue(field: String, reason: String)
    case notPositiveDefinite(field: String)
    case illConditioned(field: String, conditionNumber: Double, limit: Double)
    case implausibleMagnitude(field: String, value: Double, range: ClosedRange<Double>, unit: String)

    public var description: String {
        let advice = "; recalibrate, or restore the file from a backup"
        switch self {
        case let .malformedJSON(detail):
            return "not a valid JSON calibration profile (\(detail))\(advice)"
        case let .missingField(field):
            return "field \(field) is missing\(advice)"
        case let .wrongType(field, expected):
            return "field \(field) must be \(expected)\(advice)"
        case let .unsupportedVersion(found, supported):
            let range = supported.count == 1 ? "\(supported.lowerBound)" : "\(supported.lowerBound)–\(supported.upperBound)"
            return "field formatVersion is \(found), this Lodestone reads version \(range); use a matching Lodestone or recalibrate"
        case let .nonFinite(field):
            return "field \(field) is not a finite number\(advice)"
        case let .invalidValue(field, reason):
            return "field \(field): \(reason)\(advice)"
        case let .notPositiveDefinite(field):
            return "field \(field) is not positive-definite (it would flip or collapse an axis)\(advice)"
        case let .illConditioned(field, conditionNumber, limit):
            return "field \(field) is ill-conditioned (condition number \(formatNumber(conditionNumber)), limit \(formatNumber(limit)))\(advice)"
        case let .implausibleMagnitude(field, value, range, unit):
            return "field \(field) is \(formatNumber(value)) \(unit), outside the plausible \(formatNumber(range.lowerBound))–\(formatNumber(range.upperBound)) \(unit)\(advice)"
        }
    }
}
