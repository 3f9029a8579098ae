/// The compass error that a back-and-forth motion only seemed to average
/// away: a consider term for the accuracy, the estimate untouched.
///
/// The filter forgets the compass error along the path turned (one
/// correlation angle, one new error), so every roll of a boat and every sway
/// of a hand brings, as it sees it, a fresh compass error, and their average
/// narrows the heading's variance. A sway comes back to the attitude it left,
/// though, and its readings share the error of that attitude: an uncalibrated
/// board's hard iron put the compass 9° off at a boat's mean heading, and the
/// filter, averaging the rolls, claimed 3.6°.
///
/// Two small covariance-only filters of the heading error, the bias about up
/// and the compass error, alike but for how the compass error is forgotten,
/// measure what that forgetting is worth: one along the path, as the filter
/// forgets, one along the turn that lasts (the earth-frame rotation averaged
/// over ``lastingTime``), which a sway does not make. Their heading variances'
/// difference is what the path's forgetting dropped of an error the sway
/// keeps; it is added to the accuracy. A still board and a steady turn
/// forget alike in both, and add nothing.
public struct UnaveragedCompassError: Hashable, Sendable {
    /// How long a rotation must last to count as turning away from the
    /// attitude's compass error, s: a boat's roll and a walker's sway come
    /// back within it.
    public static let lastingTime = 10.0

    private var alongPath = HeadingErrorCovariance()
    private var alongLastingTurn = HeadingErrorCovariance()
    /// The earth-frame rotation rate averaged over ``lastingTime``, rad/s.
    private var meanRate = Vector3.zero

    public init() {}

    /// What the path's forgetting dropped of the heading's variance, rad².
    public var variance: Double { max(0, alongLastingTurn.heading - alongPath.heading) }

    /// Both start from the filter's heading, bias-about-up and compass-error variances.
    public mutating func start(heading: Double, bias: Double, compass: Double, headingCompass: Double) {
        alongPath = HeadingErrorCovariance(heading: heading, bias: bias, compass: compass, headingCompass: headingCompass)
        alongLastingTurn = alongPath
    }

    /// Grows both over `interval` s in which the board turned by `turn` (earth
    /// frame, rad) and the filter forgot `pathForgetting` of the compass error
    /// (as `1/(1 + f)`). `timeForgetting` is the forgetting with time alone,
    /// `perAngle` the forgetting per radian turned and `fastest` the most one
    /// interval may forget (the filter's own bounds); `headingNoise` and
    /// `biasNoise` are the heading's and the bias's growth, `compassVariance`
    /// the compass error's size.
    public mutating func grow(interval: Double, turn: Vector3, pathForgetting: Double, timeForgetting: Double,
                              perAngle: Double, fastest: Double, headingNoise: Double, biasNoise: Double,
                              compassVariance: Double) {
        guard interval > 0 else { return }
        meanRate += (turn * (1 / interval) - meanRate) * min(1, interval / Self.lastingTime)
        let lasting = min(timeForgetting + meanRate.length * interval * perAngle, fastest)
        alongPath.grow(interval: interval, compassMemory: 1 / (1 + pathForgetting), headingNoise: headingNoise,
                       biasNoise: biasNoise, compassVariance: compassVariance)
        alongLastingTurn.grow(interval: interval, compassMemory: 1 / (1 + min(lasting, pathForgetting)),
                              headingNoise: headingNoise, biasNoise: biasNoise, compassVariance: compassVariance)
    }

    /// A compass reading of variance `noise` fused.
    public mutating func measuredHeading(noise: Double) {
        alongPath.measureHeading(noise: noise)
        alongLastingTurn.measureHeading(noise: noise)
    }

    /// The bias about up measured at rest with variance `noise`.
    public mutating func measuredBias(noise: Double) {
        alongPath.measureBias(noise: noise)
        alongLastingTurn.measureBias(noise: noise)
    }
}

/// The covariance of the heading error ψ, the gyro-bias error about up b and
/// the compass error c: `ψ' = −b`, b a random walk, c a first-order Markov
/// process, a reading `ψ + c`.
struct HeadingErrorCovariance: Hashable, Sendable {
    var heading = 0.0, bias = 0.0, compass = 0.0
    var headingBias = 0.0, headingCompass = 0.0, biasCompass = 0.0

    init() {}

    init(heading: Double, bias: Double, compass: Double, headingCompass: Double) {
        self.heading = heading
        self.bias = bias
        self.compass = compass
        self.headingCompass = headingCompass
    }

    /// `P ← F·P·Fᵀ + Q` for `F = [1 −T 0; 0 1 0; 0 0 m]`.
    mutating func grow(interval t: Double, compassMemory m: Double, headingNoise: Double, biasNoise: Double,
                       compassVariance: Double) {
        heading += -2 * t * headingBias + t * t * bias + headingNoise
        headingBias -= t * bias
        headingCompass = m * (headingCompass - t * biasCompass)
        biasCompass *= m
        bias += biasNoise
        compass = m * m * compass + (1 - m * m) * compassVariance
    }

    /// The Kalman update of the covariance for the reading `ψ + c` of variance `noise`.
    mutating func measureHeading(noise: Double) {
        let pHeading = heading + headingCompass, pBias = headingBias + biasCompass, pCompass = headingCompass + compass
        let s = pHeading + pCompass + noise
        guard s > 0 else { return }
        subtract(pHeading, pBias, pCompass, over: s)
    }

    /// The Kalman update of the covariance for a reading of b of variance `noise`.
    mutating func measureBias(noise: Double) {
        let s = bias + noise
        guard s > 0 else { return }
        subtract(headingBias, bias, biasCompass, over: s)
    }

    /// `P ← P − p·pᵀ/s`, p = P·Hᵀ.
    private mutating func subtract(_ h: Double, _ b: Double, _ c: Double, over s: Double) {
        heading -= h * h / s
        bias -= b * b / s
        compass -= c * c / s
        headingBias -= h * b / s
        headingCompass -= h * c / s
        biasCompass -= b * c / s
    }
}
