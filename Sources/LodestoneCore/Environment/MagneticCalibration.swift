/// Hard- and soft-iron correction of a magnetometer: `B = softIron · (raw − hardIron)`.
///
/// The hard-iron offset (µT) is the constant field of magnetised parts carried
/// with the sensor; the soft-iron matrix undoes the ellipsoidal distortion of
/// nearby permeable material and per-axis gain errors. The identity
/// calibration passes readings through unchanged.
@frozen
public struct MagneticCalibration: Hashable, Sendable {
    public var hardIron: Vector3
    public var softIron: Matrix3

    @inlinable
    public init(hardIron: Vector3 = .zero, softIron: Matrix3 = .identity) {
        self.hardIron = hardIron
        self.softIron = softIron
    }

    public static let identity = MagneticCalibration()

    @inlinable
    public func apply(_ raw: Vector3) -> Vector3 {
        softIron * (raw - hardIron)
    }
}
