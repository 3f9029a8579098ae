/// The white noise of the magnetometer, the gyroscope and the accelerometer,
/// learned while the board is at rest.
///
/// The filter's gains follow from the sensors' noise. A data sheet gives a
/// typical figure, but boards differ by an order of magnitude, and a filter
/// that assumes a noisier compass than it has never matches a plain compass,
/// while one that assumes a quieter gyro claims a heading it cannot hold. At
/// rest (``RestDetector``) the scatter of the readings about their straight
/// lines is the noise itself, so each rest period refines the settings' figures.
public struct SensorNoiseEstimate: Hashable, Sendable {
    /// Variance of each magnetometer axis, µT².
    public private(set) var magnetometerVariance: Double
    /// Angle random walk of the gyroscope, rad²/s (noise density squared).
    public private(set) var gyroNoiseIntensity: Double
    /// Variance of each accelerometer axis, (m/s²)², per sample.
    public private(set) var accelerometerVariance: Double
    /// Seconds of rest over which a new figure replaces the old one.
    public let learningTime: Double

    public init(magnetometerNoise: Double, gyroNoiseDensity: Double, accelerometerNoise: Double, learningTime: Double = 10) {
        magnetometerVariance = magnetometerNoise * magnetometerNoise
        gyroNoiseIntensity = gyroNoiseDensity * gyroNoiseDensity
        accelerometerVariance = accelerometerNoise * accelerometerNoise
        self.learningTime = learningTime
    }

    /// Folds in a rest window's view, standing for `interval` seconds of
    /// samples `dt` apart.
    public mutating func learn(from window: SteadyRotation.Estimate, interval: Double, dt: Double) {
        let k = min(1, interval / learningTime)
        // Floors keep a quantised, apparently silent sensor from being believed exact.
        magnetometerVariance += (max(window.fieldScatter, 1e-4) - magnetometerVariance) * k
        gyroNoiseIntensity += (max(window.rateScatter * dt, 1e-12) - gyroNoiseIntensity) * k
        accelerometerVariance += (max(window.accelerationScatter, 1e-8) - accelerometerVariance) * k
    }
}
