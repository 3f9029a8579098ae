/// What the pipeline noticed about the magnetic environment.
public enum MagneticEvent: Hashable, Sendable {
    /// The calibration does not hold (or never existed): Core Location's calibration prompt.
    case calibrationNeeded(CalibrationReason, detail: String)
    /// The field departs from what it should be: a magnet or steel nearby.
    case disturbanceStarted(DisturbanceReason, detail: String)
    /// The field is back to normal.
    case disturbanceEnded(detail: String)
    /// The pipeline took a hard iron the calibration left out of the readings
    /// (``HardIronSwing``): the board's strength showed it as the board turned.
    case hardIronSwung(detail: String)
}

/// Why a calibration is needed.
public enum CalibrationReason: String, Hashable, Sendable, CaseIterable {
    /// No calibration profile is in use.
    case neverCalibrated
    /// The profile is older than the configured maximum age.
    case fitStale
    /// The corrected field strength has been off the expected one for a long time.
    case fieldMagnitudeOff
    /// The measured dip has been off the expected one for a long time.
    case dipOff
}

/// Which check found a disturbance.
public enum DisturbanceReason: String, Hashable, Sendable, CaseIterable {
    case fieldMagnitudeOff
    case dipOff
}
