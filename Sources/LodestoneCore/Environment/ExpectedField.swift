/// The field a calibrated magnetometer should measure here: strength and dip.
///
/// From the geomagnetic model when the position is known, otherwise from the
/// calibration profile.
public struct ExpectedField: Hashable, Sendable {
    /// Total intensity, µT.
    public var strength: Double
    /// Inclination, degrees, positive when the field points down.
    public var dip: Double?

    public init(strength: Double, dip: Double? = nil) {
        self.strength = strength
        self.dip = dip
    }
}
