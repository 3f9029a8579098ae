/// A two-state Kalman filter for one earth axis of the attitude error:
/// the small rotation angle about that axis (rad) and the gyro-bias error
/// projected on it (rad/s).
///
/// ``AttitudeFusion`` runs three of them (east, north, up) as an error-state
/// filter: after every update the estimated errors are applied to the attitude
/// and the bias, and the states return to zero, so only the covariance is kept.
/// The axes are treated as uncorrelated with each other. That drops the
/// coupling between axes in exchange for a filter that costs a few dozen
/// multiplications per sample.
///
/// Model: `angle' = -bias` (a bias error turns the estimate away from the truth),
/// the angle also takes white gyro noise, and the bias performs a random walk.
@frozen
public struct AxisErrorFilter: Hashable, Sendable {
    /// Variance of the angle error, rad².
    public var angleVariance: Double
    /// Covariance of angle and bias errors, rad²/s.
    public var covariance: Double
    /// Variance of the bias error, (rad/s)².
    public var biasVariance: Double

    @inlinable
    public init(angleVariance: Double, biasVariance: Double) {
        self.angleVariance = angleVariance
        self.covariance = 0
        self.biasVariance = biasVariance
    }

    /// Propagates over `dt` seconds. `angleNoise` is the angle random-walk
    /// intensity (rad²/s), `biasNoise` the bias random-walk intensity ((rad/s)²/s).
    @inlinable
    public mutating func predict(dt: Double, angleNoise: Double, biasNoise: Double) {
        angleVariance += dt * (dt * biasVariance - 2 * covariance + angleNoise)
        covariance -= dt * biasVariance
        biasVariance += dt * biasNoise
    }

    /// Fuses a measurement of the angle error (`innovation`, rad) with
    /// variance `noise`. Returns the estimated (angle, bias) errors.
    @inlinable
    public mutating func measureAngle(innovation: Double, noise: Double) -> (angle: Double, bias: Double) {
        let s = angleVariance + noise
        let k0 = angleVariance / s, k1 = covariance / s
        biasVariance -= k1 * covariance
        covariance -= k0 * covariance
        angleVariance -= k0 * angleVariance
        return (k0 * innovation, k1 * innovation)
    }

    /// Fuses a measurement of the bias error (`innovation`, rad/s, e.g. the
    /// gyro reading at rest) with variance `noise`. Returns the estimated errors.
    @inlinable
    public mutating func measureBias(innovation: Double, noise: Double) -> (angle: Double, bias: Double) {
        let s = biasVariance + noise
        let k0 = covariance / s, k1 = biasVariance / s
        angleVariance -= k0 * covariance
        covariance -= k1 * covariance
        biasVariance -= k1 * biasVariance
        return (k0 * innovation, k1 * innovation)
    }
}
