import LodestoneCore

extension CalibrationProfile {
    /// What the heading pipeline needs to know about this magnetometer
    /// profile (`HeadingEstimator.Settings.calibrationStatus`); nil for an
    /// accelerometer profile.
    ///
    /// The field strength is the magnitude corrected readings have: the
    /// expected magnitude the fit was scaled to, else the fitted one.
    public var calibrationStatus: CalibrationStatus? {
        guard sensor == .magnetometer else { return nil }
        return CalibrationStatus(fitErrorPercent: quality.fitErrorPercent,
                                 fieldStrength: quality.expectedMagnitude ?? quality.fittedMagnitude,
                                 dip: quality.dip,
                                 created: WallClockTime.parse(created),
                                 coveragePercent: quality.coveragePercent)
    }
}
