#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the pipeline knows about the magnetometer calibration in use, for
/// `headingAccuracy` and for deciding when to ask for a new calibration.
public struct CalibrationStatus: Hashable, Sendable {
    /// RMS of the corrected field magnitude's relative error at fit time, percent.
    public var fitErrorPercent: Double
    /// Field strength the corrected readings should have, µT.
    public var fieldStrength: Double
    /// Magnetic dip measured with the calibration, degrees (positive down), when known.
    public var dip: Double?
    /// When the profile was made, Unix seconds; nil when unknown.
    public var created: Double?
    /// Share of 100 equal-area direction regions covered, percent.
    public var coveragePercent: Double

    public init(fitErrorPercent: Double, fieldStrength: Double, dip: Double? = nil, created: Double? = nil,
                coveragePercent: Double = 100) {
        self.fitErrorPercent = fitErrorPercent
        self.fieldStrength = fieldStrength
        self.dip = dip
        self.created = created
        self.coveragePercent = coveragePercent
    }

    /// The fit's RMS magnitude residual, µT: how far a corrected reading's
    /// strength strays from ``fieldStrength`` with the calibration still good.
    public var fitResidual: Double { fitErrorPercent / 100 * fieldStrength }

    /// The heading error, in degrees (1σ), that a residual magnitude error of
    /// `fitErrorPercent` implies: an error vector of that relative size
    /// across the horizontal field turns the heading by about `ε / cos(dip)`.
    public func headingError(dip: Double) -> Double {
        headingError(cosDip: cos(dip * Angle.radiansPerDegree))
    }

    /// The same from the dip's cosine, which every compass heading's accuracy
    /// has at hand: no angle, and no call to the library, on the way.
    public func headingError(cosDip: Double) -> Double {
        fitErrorPercent / 100 / max(0.05, cosDip) * Angle.degreesPerRadian
    }
}
