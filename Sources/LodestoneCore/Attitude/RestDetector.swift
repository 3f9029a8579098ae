/// Detects that the sensor lies still: the bias-corrected angular rate stays
/// small and the specific force stays close to its recent mean for a minimum time.
///
/// At rest the gyro reads its own bias, which ``AttitudeFusion`` then measures
/// directly (a zero-rate update), and the heading cannot move.
public struct RestDetector: Hashable, Sendable {
    /// Largest bias-corrected angular rate still counted as rest, rad/s.
    public var rateThreshold: Double
    /// Largest deviation of the acceleration from its mean still counted as rest, m/s².
    public var accelerationThreshold: Double
    /// How long both must hold before rest is declared, s.
    public var minimumDuration: Double
    /// Time constant of the acceleration mean, s.
    public var averagingTime: Double

    public private(set) var isAtRest = false
    private var stillTime = 0.0
    private var meanAcceleration: Vector3?

    public init(rateThreshold: Double, accelerationThreshold: Double, minimumDuration: Double, averagingTime: Double) {
        self.rateThreshold = rateThreshold
        self.accelerationThreshold = accelerationThreshold
        self.minimumDuration = minimumDuration
        self.averagingTime = averagingTime
    }

    /// Feeds one sample; returns whether the sensor is at rest now.
    @discardableResult
    public mutating func update(angularRate: Vector3, acceleration: Vector3, dt: Double) -> Bool {
        let mean = meanAcceleration ?? acceleration
        let still = angularRate.squaredLength <= rateThreshold * rateThreshold
            && (acceleration - mean).squaredLength <= accelerationThreshold * accelerationThreshold
        meanAcceleration = mean + (acceleration - mean) * min(1, dt / averagingTime)
        stillTime = still ? stillTime + dt : 0
        isAtRest = stillTime >= minimumDuration
        return isAtRest
    }

    /// Forgets the history (after a gap in the data).
    public mutating func reset() {
        isAtRest = false
        stillTime = 0
        meanAcceleration = nil
    }
}
