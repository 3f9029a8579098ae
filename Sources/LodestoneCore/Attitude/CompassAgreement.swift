/// The safety net of gyro fusion: in a field that looks clean, the fused
/// heading may not stay far from the compass for long.
///
/// Two ways the filter can hold a wrong heading while claiming it is right:
/// - the heading gate rejects a compass reading that contradicts the gyro,
///   which rides out a short disturbance that leaves the field's strength and
///   dip alone; but when the *filter* is wrong (a rotation taken for gyro
///   bias, a model broken by an unusual motion), the gate locks the compass out;
/// - the readings pass, but the filter explains them away, slowly, as
///   compass error and a small bias change, while the gyro has in fact
///   jumped (a knock, a temperature step): the disagreement grows far beyond
///   what the filter's own variances allow.
///
/// So the heading innovation of clean readings (strength and dip matching
/// the reference), averaged over about a second, is watched. While it stays
/// beyond two standard deviations of what the filter expects of such an
/// average (its heading variance and the compass error's), or the readings
/// are rejected, the disagreement counts in the
/// reported uncertainty, growing with the time; once that has lasted
/// ``longestInconsistency`` (or rejection ``longestRejection``),
/// ``AttitudeFusion`` widens its heading and bias variance until the compass
/// corrects them, and the filter recovers toward it.
public struct CompassAgreement: Hashable, Sendable {
    /// How long clean readings may be rejected before the filter gives way, s.
    public let longestRejection: Double
    /// How long their average may stay inconsistent with the filter before it
    /// gives way, s: longer than a compass error beyond two standard
    /// deviations lasts on a board that turns.
    public let longestInconsistency: Double
    /// How long the clean readings have been rejected without a break, s.
    public private(set) var rejectedFor = 0.0
    /// How long their average has been beyond two standard deviations, s.
    public private(set) var inconsistentFor = 0.0
    /// The heading innovation of the clean readings, averaged over about a second, rad.
    public private(set) var disagreement = 0.0
    private var started = false
    /// Time of readings held back since the last judged one, s: see ``held(for:)``.
    private var heldFor = 0.0
    static let averagingTime = 1.0

    public init(longestRejection: Double, longestInconsistency: Double) {
        self.longestRejection = longestRejection
        self.longestInconsistency = longestInconsistency
    }

    /// A clean reading with heading innovation `innovation` (rad), whether the
    /// gate accepted it, and the variance the filter expects of the average,
    /// rad², given that of one reading's noise `white`. Returns true when the
    /// filter must give way.
    public mutating func observe(innovation: Double, accepted: Bool, expected: Double, white: Double,
                                 dt: Double) -> Bool {
        let dt = dt + heldFor
        heldFor = 0
        let k = min(1, dt / Self.averagingTime)
        disagreement = started ? disagreement + (innovation - disagreement) * k : innovation
        started = true
        rejectedFor = accepted ? 0 : rejectedFor + dt
        let averageVariance = expected + white * k / (2 - k)
        inconsistentFor = disagreement * disagreement > 4 * averageVariance ? inconsistentFor + dt : 0
        return rejectedFor >= longestRejection || inconsistentFor >= longestInconsistency
    }

    /// A reading was held back (``FieldStep``): no evidence either way, but
    /// time waited, counted into the next judgement, since a gyro gone wrong
    /// makes readings drift off the prediction too.
    public mutating func held(for dt: Double) {
        heldFor += dt
    }

    /// The filter gave way, or a reading does not look clean (strength or dip
    /// off): no evidence either way from here.
    public mutating func reset() {
        heldFor = 0
        rejectedFor = 0
        inconsistentFor = 0
        started = false
        disagreement = 0
    }

    /// What the disagreement adds to the heading variance, rad²: nothing at
    /// first, all of it once the inconsistency or rejection has lasted its longest.
    public var variance: Double {
        let share = max(rejectedFor / longestRejection, inconsistentFor / longestInconsistency)
        guard share > 0 else { return 0 }
        return disagreement * disagreement * min(1, share)
    }
}
