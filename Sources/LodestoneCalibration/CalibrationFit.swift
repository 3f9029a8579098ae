import LodestoneCore

/// A calibration fitted to samples that should all have one magnitude, with
/// the figures that say how far to trust it.
///
/// The correction is `matrix · (raw − offset)`. Without an expected magnitude
/// the matrix has determinant 1 (it reshapes, it does not rescale), so the
/// corrected magnitude is the fitted one, still in the sensor's units. With an
/// expected magnitude F the matrix is scaled so the corrected magnitude is F.
public struct CalibrationFit: Hashable, Sendable {
    /// Subtracted from raw readings (hard iron; accelerometer bias).
    public var offset: Vector3
    /// Applied after the offset (soft iron and gains): symmetric positive-definite,
    /// turned onto the accelerometer's axes once aligned (``aligned(by:)``).
    public var matrix: Matrix3
    public var model: CalibrationModel
    /// The fitted surface of the raw samples.
    public var ellipsoid: Ellipsoid
    /// Radius of the sphere with the ellipsoid's volume: the magnitude the
    /// sensor reports on average, in its units.
    public var fittedMagnitude: Double
    /// The magnitude the correction was scaled to, when one was given.
    public var expectedMagnitude: Double?
    /// Residuals of all the input samples after correction.
    public var residuals: FitResiduals
    /// Coverage of the corrected sample directions.
    public var coverage: SphereCoverage
    /// Direction spread per model, from the rough (sphere) centre.
    public var conditioning: FitConditioning
    public var sampleCount: Int
    public var iterations: Int
    public var grade: CalibrationGrade

    /// The magnitude corrected readings have: the expected one, else the fitted one.
    public var correctedMagnitude: Double { expectedMagnitude ?? fittedMagnitude }

    /// `fittedMagnitude / expectedMagnitude`: how far the raw sensor's scale
    /// (or the local field) is from the model.
    public var magnitudeRatio: Double? { expectedMagnitude.map { fittedMagnitude / $0 } }

    public var fitErrorPercent: Double { residuals.fitErrorPercent }
    public var residualRMS: Double { residuals.residualRMS }
    public var coveragePercent: Double { coverage.coveragePercent }

    public func apply(_ raw: Vector3) -> Vector3 { matrix * (raw - offset) }

    /// The magnetometer form of this fit.
    public var magneticCalibration: MagneticCalibration {
        MagneticCalibration(hardIron: offset, softIron: matrix)
    }
}
