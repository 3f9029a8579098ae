/// Core Location's `headingFilter`: deliver a heading only when it moved at
/// least `threshold` degrees from the last *delivered* one.
///
/// The first heading is always delivered; a threshold of 0 delivers every
/// heading. Distances are measured the short way round, so 359° → 1° is 2°.
/// Internally directions are compared by the cosine of the angle between
/// them, squared where it can be: no trigonometry and no square root per sample.
@frozen
public struct HeadingFilter: Hashable, Sendable {
    /// Minimum change in degrees; Core Location's default is 1.
    public let threshold: Double
    /// The last delivered direction, unit length.
    public var lastDelivered: HeadingDirection? { threshold == 0 ? last?.normalized : last }
    /// The last delivered direction as the next is compared with it: unit length,
    /// except with a threshold of 0, which compares nothing and so skips the square root.
    private var last: HeadingDirection?
    private let cosineLimit: Double
    private let cosineLimit2: Double

    public init(threshold: Double = 1) {
        precondition(threshold >= 0 && threshold.isFinite, "headingFilter must be a finite number ≥ 0")
        self.threshold = threshold
        // A 1e-12 slack in the cosine (far below 0.001° of angle) keeps an exact
        // N° move from being lost to rounding.
        // No two headings are more than 180° apart: a larger threshold holds every later heading.
        if threshold == 0 {
            cosineLimit = .infinity
        } else if threshold > 180 {
            cosineLimit = -.infinity
        } else {
            cosineLimit = HeadingDirection(degrees: threshold).north + 1e-12
        }
        cosineLimit2 = cosineLimit * cosineLimit
    }

    /// Whether `direction` (of any length) should be delivered; records it when it is.
    /// Inlined: the pipeline asks once per sample.
    @inline(__always)
    public mutating func shouldDeliver(_ direction: HeadingDirection) -> Bool {
        if threshold == 0 {
            last = direction
            return true
        }
        if let last {
            // Held while cos(angle) = d / |direction| exceeds the limit.
            let d = direction.dot(last)
            let held = cosineLimit >= 0
                ? d > 0 && d * d > cosineLimit2 * direction.squaredLength
                : d > cosineLimit * direction.squaredLength.squareRoot()
            if held { return false }
        }
        last = direction.normalized
        return true
    }

    /// Whether a heading in degrees should be delivered; records it when it is.
    public mutating func shouldDeliver(degrees: Double) -> Bool {
        shouldDeliver(HeadingDirection(degrees: degrees))
    }

    /// Forgets the last delivered heading, so the next one is delivered.
    public mutating func reset() {
        last = nil
    }
}
