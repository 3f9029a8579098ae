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
///
/// The same innovation is also averaged over ``longAveragingTime``. On a board
/// that turns, that average spans attitudes whose compass errors are unrelated
/// (the compass error's variance in it falls as ``correlationAngle`` over the
/// turn the average spans, as for any average over many correlation lengths of
/// a first-order Markov process), so it holds less of the compass error than
/// one reading does, and a drift of the gyro that a compass error of the
/// learned size would hide at any one attitude shows in it (a scale error in a
/// steady turn: docs/fusion.md). The bend a field disturbed within the
/// tolerances may give the readings is no noise to average either: they share
/// it, and turning does not part them (a field fixed in the room bends the
/// heading alike at every attitude).
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
    /// The averaging time of the long average, s: no longer than the gyro's
    /// drift may be trusted to stay small.
    public let longAveragingTime: Double
    /// How far the board turns before the compass error no longer resembles the old one, rad.
    public let correlationAngle: Double
    /// The innovation averaged over ``longAveragingTime``, rad, the turn that
    /// average spans, rad, and the readings' bend variance averaged alike, rad².
    private var longDisagreement = 0.0
    private var longTurn = 0.0
    private var longBend = 0.0
    /// How far the long average's square exceeds what the filter expects of it, rad².
    private var longExcess = 0.0
    private var longStarted = false

    public init(longestRejection: Double, longestInconsistency: Double, longAveragingTime: Double = 10,
                correlationAngle: Double = .pi / 4) {
        self.longestRejection = longestRejection
        self.longestInconsistency = longestInconsistency
        self.longAveragingTime = longAveragingTime
        self.correlationAngle = correlationAngle
    }

    /// A clean reading with heading innovation `innovation` (rad), whether the
    /// gate accepted it, and the variance the filter expects of the average,
    /// rad², given that of one reading's noise `white`; `compassVariance` is the
    /// compass error's share of `expected`, `bendVariance` the disturbed
    /// field's share of `white`, and `turned` how far the board turned since
    /// the last reading, rad. Returns true when the filter must give way.
    public mutating func observe(innovation: Double, accepted: Bool, expected: Double, white: Double,
                                 dt: Double, compassVariance: Double = 0, bendVariance: Double = 0,
                                 turned: Double = 0) -> Bool {
        let dt = dt + heldFor
        heldFor = 0
        let k = min(1, dt / Self.averagingTime)
        disagreement = started ? disagreement + (innovation - disagreement) * k : innovation
        started = true
        rejectedFor = accepted ? 0 : rejectedFor + dt
        let averageVariance = expected + white * k / (2 - k)
        let drifted = accepted && longAverageDrifted(innovation: innovation, expected: expected, white: white,
                                                     compassVariance: compassVariance, bendVariance: bendVariance,
                                                     turned: turned, dt: dt)
        inconsistentFor = disagreement * disagreement > 4 * averageVariance || drifted ? inconsistentFor + dt : 0
        return rejectedFor >= longestRejection || inconsistentFor >= longestInconsistency
    }

    /// Adds an accepted reading to the long average (rejected ones are the
    /// rejection's to judge); returns whether that average lies beyond two of
    /// its standard deviations.
    private mutating func longAverageDrifted(innovation: Double, expected: Double, white: Double,
                                             compassVariance: Double, bendVariance: Double, turned: Double,
                                             dt: Double) -> Bool {
        let k = min(1, dt / longAveragingTime)
        if longStarted {
            longDisagreement += (innovation - longDisagreement) * k
            longBend += (bendVariance - longBend) * k
        } else {
            longDisagreement = innovation
            longBend = bendVariance
            longStarted = true
        }
        longTurn += turned - longTurn * k
        let unrelated = max(1, longTurn / correlationAngle)
        let variance = expected - compassVariance * (1 - 1 / unrelated) + longBend
            + (white - bendVariance) * k / (2 - k)
        let square = longDisagreement * longDisagreement
        longExcess = max(0, square - variance)
        return square > 4 * variance
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
        longDisagreement = 0
        longTurn = 0
        longBend = 0
        longExcess = 0
        longStarted = false
    }

    /// What the disagreement adds to the heading variance, rad²: nothing at
    /// first, all of it once the inconsistency or rejection has lasted its
    /// longest; and at once, as much as the long average of the accepted
    /// readings exceeds what the filter expects of it.
    public var variance: Double {
        let share = max(rejectedFor / longestRejection, inconsistentFor / longestInconsistency)
        return max(longExcess, disagreement * disagreement * min(1, share))
    }
}
