/// The per-sample result of ``HeadingEstimator``, before any delivery filter.
@frozen
public struct HeadingEstimate: Hashable, Sendable {
    /// Sample time, seconds on the source's clock.
    public var time: Double
    /// Degrees in [0, 360), clockwise from magnetic north, of the forward axis.
    public var magneticHeading: Double
    /// The calibrated field of this sample, µT, body frame.
    public var field: Vector3
    /// False when the heading cannot be trusted at all (see ``HeadingEstimator``).
    public var isValid: Bool

    @inlinable
    public init(time: Double, magneticHeading: Double, field: Vector3, isValid: Bool) {
        self.time = time
        self.magneticHeading = magneticHeading
        self.field = field
        self.isValid = isValid
    }
}
