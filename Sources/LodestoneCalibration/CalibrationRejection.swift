/// Why a calibration fit was refused. Each case says what to do about it.
public enum CalibrationRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer samples (or still positions) than the simplest usable model needs.
    case tooFewSamples(count: Int, needed: Int)
    /// A sample with NaN or infinity, at this index of the input.
    case nonFiniteSample(index: Int)
    /// The expected magnitude passed in is not plausible for the sensor.
    case invalidExpectedMagnitude(value: Double, range: ClosedRange<Double>, unit: String)
    /// The sample directions do not determine even the simplest model well
    /// enough (for example a flat turn about a single axis). `conditioning` is
    /// the last model's `FitConditioning` figure (1 = full coverage).
    case insufficientCoverage(conditioning: Double)
    /// No ellipsoid fits the samples (they lie on a plane, a line, or a hyperboloid).
    case notAnEllipsoid
    /// The fitted magnitude is outside what the Earth's field (or gravity) can be.
    case implausibleMagnitude(value: Double, range: ClosedRange<Double>, unit: String)
    /// The correction matrix would stretch one axis far more than another.
    case illConditioned(conditionNumber: Double, limit: Double)
    /// The samples scatter too far from the fitted surface.
    case poorFit(fitErrorPercent: Double, limit: Double)
    /// Too many samples far off the fitted surface (`FitResiduals` outliers).
    case tooManyOutliers(count: Int, of: Int, limitPercent: Double)

    public var description: String {
        switch self {
        case let .tooFewSamples(count, needed):
            return "too few samples: \(count), need at least \(needed); keep turning the device through many orientations"
        case let .nonFiniteSample(index):
            return "sample \(index) is not a finite number (NaN or infinity); check the sensor driver or the log"
        case let .invalidExpectedMagnitude(value, range, unit):
            return "expected magnitude \(formatNumber(value)) \(unit) is outside the plausible \(formatNumber(range.lowerBound))–\(formatNumber(range.upperBound)) \(unit); check the model input"
        case let .insufficientCoverage(conditioning):
            return "orientations too similar to determine the calibration (direction spread \(formatNumber(conditioning)), 1 = all directions): the samples lie near a plane or a small patch; tilt the device about other axes too, pointing each face up in turn"
        case .notAnEllipsoid:
            return "the samples do not lie on an ellipsoid; keep the device away from iron and magnets and turn it through all orientations"
        case let .implausibleMagnitude(value, range, unit):
            return "fitted magnitude \(formatNumber(value)) \(unit) is outside the plausible \(formatNumber(range.lowerBound))–\(formatNumber(range.upperBound)) \(unit): wrong sensor scale or units, a strong magnet nearby, or too little coverage for the model"
        case let .illConditioned(conditionNumber, limit):
            return "the correction would stretch one axis \(formatNumber(conditionNumber))× more than another (limit \(formatNumber(limit))×): a magnet or iron very close to the sensor, or a broken axis"
        case let .tooManyOutliers(count, total, limitPercent):
            return "\(count) of \(total) samples are far off the fitted surface (limit \(formatNumber(limitPercent)) %): spikes from the sensor, or the field changed while calibrating; check the wiring and keep away from magnets"
        case let .poorFit(fitErrorPercent, limit):
            return "fit error \(formatNumber(fitErrorPercent)) % is above the \(formatNumber(limit)) % these orientations allow: the field changed during calibration (iron or a magnet moved nearby, a motor running?); try again away from metal, turning through more orientations"
        }
    }
}

/// ⌊log10(a)⌋ for a > 0, without Foundation.
private func log10Floor(_ a: Double) -> Int {
    var e = 0
    var v = a
    while v < 1 {
        v *= 10
        e -= 1
    }
    while v >= 10 {
        v /= 10
        e += 1
    }
    return e
}

/// Short decimal for messages: three significant digits, no exponent for ordinary values.
func formatNumber(_ x: Double) -> String {
    guard x.isFinite else { return String(x) }
    let a = abs(x)
    // Three decimals below 1, or two significant digits for smaller numbers.
    let small = a >= 1e-12 && a < 0.01 ? 1 - log10Floor(a) : 0
    let decimals = a >= 100 ? 0 : (a >= 10 ? 1 : (a >= 1 ? 2 : max(3, small)))
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (x * scale).rounded() / scale
    var s = String(r)
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}
