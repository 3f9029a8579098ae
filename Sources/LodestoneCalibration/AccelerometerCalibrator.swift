import LodestoneCore

/// Multi-position accelerometer calibration: hold the device still in six
/// or more orientations (each face up and down is the classic set), find the
/// still segments, and fit offset and scales so every position reads |a| = g.
///
/// It is the magnetometer problem with a known radius, so it uses the same
/// fitter: per-axis scales from six positions, cross-axis terms only from nine
/// or more positions that are not all along the axes. Misalignment (the
/// rotation part of the matrix) cannot be seen from |a| alone and is not fitted.
public struct AccelerometerCalibrator: Sendable {
    public var settings: CalibrationFitSettings
    public var detector: StillSegmentDetector
    /// Local gravity in m/s²; standard gravity by default.
    public var gravity: Double

    public init(settings: CalibrationFitSettings = .accelerometer, detector: StillSegmentDetector = StillSegmentDetector(),
                gravity: Double = 9.80665) {
        self.settings = settings
        self.detector = detector
        self.gravity = gravity
    }

    /// Fits the mean readings of still positions (m/s²).
    public func fit(positions: [Vector3]) throws(CalibrationRejection) -> CalibrationFit {
        try CalibrationFitter(settings: settings).fit(positions, expectedMagnitude: gravity)
    }

    /// Finds the still segments of a log and fits their mean readings.
    public func fit(times: [Double], accelerations: [Vector3], angularRates: [Vector3]? = nil)
        throws(CalibrationRejection) -> (fit: CalibrationFit, segments: [StillSegment]) {
        let segments = detector.segments(times: times, accelerations: accelerations, angularRates: angularRates)
        let fit = try fit(positions: segments.map(\.meanAcceleration))
        return (fit, segments)
    }
}
