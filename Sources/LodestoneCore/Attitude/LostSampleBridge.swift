/// The gyro's rotation over a step that spans lost samples.
///
/// A gyro sample is the rate over the period before it. When samples are lost
/// (a bus error, an overrun) the step is several periods long, and carrying the
/// last rate over all of it credits the whole step with the last period's
/// motion. Over the missing periods the mean of the rates on either side is the
/// better guess: the trapezoid rule. Steps of the usual length are left as they are.
struct LostSampleBridge: Hashable, Sendable {
    /// The usual time between samples, s, learned from the steps that are not gaps.
    private(set) var period = 0.0
    private var previousRate = Vector3.zero
    /// A step this many periods long or more has lost a sample.
    static let lostSampleRatio = 1.5
    /// How fast the period follows a changed sampling rate, per sample.
    static let periodLearning = 0.01

    /// The extra rotation (rad, body frame) to add to `rate · dt` for a step of
    /// `dt` seconds ending with the raw gyro reading `w`, and its variance (rad²
    /// about each axis): the rate over the missing periods is known no better
    /// than the difference of its neighbours (a vibration sampled irregularly
    /// does not average out).
    @inline(__always) // one call per sample, from the fusion
    mutating func correction(rawRate w: Vector3, dt: Double) -> (rotation: Vector3, variance: Double)? {
        let previous = previousRate
        previousRate = w
        guard dt >= Self.lostSampleRatio * period, period > 0 else {
            period = period > 0 ? period + (dt - period) * Self.periodLearning : dt
            return nil
        }
        let half = (previous - w) * (0.5 * (dt - period))
        return (half, half.squaredLength)
    }

    /// The readings before a restart are no neighbours of the next.
    mutating func reset() {
        self = LostSampleBridge()
    }
}
