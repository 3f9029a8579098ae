/// The per-sample result of ``HeadingEstimator``, before any delivery filter.
@frozen
public struct HeadingEstimate: Hashable, Sendable {
    /// Sample time, seconds on the source's clock.
    public var time: Double
    /// Where the forward axis points, horizontally, relative to magnetic north.
    public var direction: HeadingDirection
    /// The calibrated field of this sample, µT, body frame.
    public var field: Vector3
    /// False when the heading cannot be trusted at all (see ``HeadingEstimator``).
    public var isValid: Bool

    @inlinable
    public init(time: Double, direction: HeadingDirection, field: Vector3, isValid: Bool) {
        self.time = time
        self.direction = direction
        self.field = field
        self.isValid = isValid
    }

    /// Degrees in [0, 360), clockwise from magnetic north, of the forward axis.
    @inlinable
    public var magneticHeading: Double { direction.degrees }
}
