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

    /// The figures a filter starts with, each held at its floor: a setting of
    /// 0 would make one reading exact, and every comparison with it 0 / 0.
    public init(magnetometerNoise: Double, gyroNoiseDensity: Double, accelerometerNoise: Double, learningTime: Double = 10) {
        magnetometerVariance = max(magnetometerNoise * magnetometerNoise, Self.smallestMagnetometerVariance)
        gyroNoiseIntensity = max(gyroNoiseDensity * gyroNoiseDensity, Self.smallestGyroNoiseIntensity)
        accelerometerVariance = max(accelerometerNoise * accelerometerNoise, Self.smallestAccelerometerVariance)
        self.learningTime = learningTime
    }

    /// Floors, that keep a quantised, apparently silent sensor from being believed exact.
    static let smallestMagnetometerVariance = 1e-4
    static let smallestGyroNoiseIntensity = 1e-12
    static let smallestAccelerometerVariance = 1e-8

    /// Folds in a rest window's view, standing for `interval` seconds of
    /// samples `dt` apart.
    public mutating func learn(from window: SteadyRotation.Estimate, interval: Double, dt: Double) {
        let k = min(1, interval / learningTime)
        magnetometerVariance += (max(window.fieldScatter, Self.smallestMagnetometerVariance) - magnetometerVariance) * k
        gyroNoiseIntensity += (max(window.rateScatter * dt, Self.smallestGyroNoiseIntensity) - gyroNoiseIntensity) * k
        accelerometerVariance += (max(window.accelerationScatter, Self.smallestAccelerometerVariance)
            - accelerometerVariance) * k
    }
}
