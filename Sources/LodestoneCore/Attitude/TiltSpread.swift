/// How far the board's tilt has wandered lately: the spread of the up
/// direction (in the body frame) about its mean over the last few seconds.
///
/// After a gap in the samples, it says how far the tilt may have moved
/// meanwhile: a vehicle's tilt hardly wanders, a hand-held board's sways a few
/// degrees, a tumbling board's sweeps every direction. The reading after the
/// gap cannot say it: its direction is as much the board's acceleration as its
/// tilt, 10–20° in a vehicle's curve.
struct TiltSpread: Hashable, Sendable {
    /// The averaging time, s.
    static let averagingTime = 5.0
    private var mean = Vector3.zero
    /// Mean square distance of up from its mean, rad² (small angles).
    private(set) var variance = 0.0
    private var started = false

    /// The up direction in the body frame now, `interval` seconds after the last.
    mutating func add(up: Vector3, interval: Double) {
        guard started else {
            mean = up
            started = true
            return
        }
        let k = min(1, interval / Self.averagingTime)
        let offset = up - mean
        mean += offset * k
        variance += (offset.squaredLength * (1 - k) - variance) * k
    }

    /// Variance of the tilt change between a moment and one a while later, rad²:
    /// two draws from the spread.
    var changeVariance: Double { 2 * variance }
}
