/// Core Location's `headingFilter`: deliver a heading only when it moved at
/// least `threshold` degrees from the last *delivered* one.
///
/// The first heading is always delivered; a threshold of 0 delivers every
/// heading. Distances are measured the short way round, so 359° → 1° is 2°.
@frozen
public struct HeadingFilter: Hashable, Sendable {
    /// Minimum change in degrees; Core Location's default is 1.
    public var threshold: Double
    public private(set) var lastDelivered: Double?

    public init(threshold: Double = 1) {
        precondition(threshold >= 0 && threshold.isFinite, "headingFilter must be a finite number ≥ 0")
        self.threshold = threshold
    }

    /// Whether `heading` should be delivered; records it when it is.
    public mutating func shouldDeliver(_ heading: Double) -> Bool {
        if let last = lastDelivered, abs(Angle.difference(from: last, to: heading)) < threshold {
            return false
        }
        lastDelivered = heading
        return true
    }

    /// Forgets the last delivered heading, so the next one is delivered.
    public mutating func reset() {
        lastDelivered = nil
    }
}
