import LodestoneCore

/// What a live calibration shows the user.
public struct CalibrationProgress: Hashable, Sendable {
    public var offeredSamples: Int
    public var keptSamples: Int
    /// Coverage of the kept samples, 0–100 %.
    public var coveragePercent: Double
    /// The latest successful fit (possibly from an earlier refit).
    public var fit: CalibrationFit?
    /// Why the latest refit failed, if it did.
    public var rejection: CalibrationRejection?
    public var expectedMagnitude: Double?
    /// Direction (corrected sensor frame) with the largest uncovered area:
    /// point the field there next. Nil when everything is covered.
    public var suggestedDirection: Vector3?

    public var fitErrorPercent: Double? { fit?.fitErrorPercent }
    /// Fitted |B| in µT.
    public var fittedMagnitude: Double? { fit?.fittedMagnitude }
    /// Fitted |B| divided by the expected magnitude.
    public var magnitudeRatio: Double? { fit?.magnitudeRatio }
    public var grade: CalibrationGrade? { fit?.grade }
}
