/// A delivered heading, modelled on Core Location's `CLHeading`.
public struct Heading: Hashable, Sendable {
    /// Seconds on the source's clock (log time for a replay).
    public var timestamp: Double
    /// Degrees in [0, 360), clockwise from magnetic north, of the forward axis.
    public var magneticHeading: Double
    /// Degrees from true north; nil when the position (hence declination) is unknown.
    public var trueHeading: Double?
    /// Maximum likely error in degrees; negative when the heading is invalid.
    public var headingAccuracy: Double
    /// The declination used for `trueHeading`, when known.
    public var declination: Declination?
    /// The calibrated field of this sample, µT, body frame.
    public var x: Double
    public var y: Double
    public var z: Double
    /// Body → ENU attitude, north = magnetic north.
    public var attitude: Quaternion

    public init(timestamp: Double, magneticHeading: Double, trueHeading: Double?, headingAccuracy: Double,
                declination: Declination?, x: Double, y: Double, z: Double, attitude: Quaternion) {
        self.timestamp = timestamp
        self.magneticHeading = magneticHeading
        self.trueHeading = trueHeading
        self.headingAccuracy = headingAccuracy
        self.declination = declination
        self.x = x
        self.y = y
        self.z = z
        self.attitude = attitude
    }

    /// Whether the heading may be used at all (Core Location: accuracy ≥ 0).
    public var isValid: Bool { headingAccuracy >= 0 }

    /// The declination as every output reports it: nil (null) when unknown or
    /// unreliable (the blackout zone near the magnetic poles), like `trueHeading`.
    public var reportedDeclination: Double? {
        guard let d = declination, d.isReliable else { return nil }
        return d.degrees
    }
}
