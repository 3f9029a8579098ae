/// The white noise of the magnetometer, the gyroscope and the accelerometer,
/// learned from the readings.
///
/// The filter's gains follow from the sensors' noise. A data sheet gives a
/// typical figure, but boards differ by an order of magnitude, and a filter
/// that assumes a noisier compass than it has never matches a plain compass,
/// while one that assumes a quieter gyro claims a heading it cannot hold. At
/// rest (``RestDetector``) the scatter of the gyroscope's and the
/// accelerometer's readings about their straight lines is their noise, so
/// each rest period refines the settings' figures. The magnetometer's is
/// also learned in motion: the earth's field is fixed in the earth frame, so
/// the readings the filter fuses, one per correction, turned into it by the
/// gyro-carried attitude, differ by their two noises alone (the attitude
/// moves by the gyro's error over a correction interval, far less; the
/// correction between them is turned out, and so is the lag of a magnetometer
/// that reports the field late, which the filter counts on its own). A board
/// that is never still, or a gyro too noisy for a rest to be seen, still has
/// it. Readings a correction interval apart, not successive ones: a sensor
/// that filters its readings inside correlates its noise over a few samples,
/// and the difference of neighbours would show little of it. The filter takes
/// the larger of the two figures: the differences miss what wanders slower
/// than a correction interval, the rest windows what changes with the attitude
/// in motion (the calibration's residual, a timing against the gyro other than
/// the latency set).
public struct SensorNoiseEstimate: Hashable, Sendable {
    /// Variance of each magnetometer axis, µT²: the larger of what rests and motion show.
    public var magnetometerVariance: Double { max(restingMagnetometerVariance, movingMagnetometerVariance) }
    /// The same from rest windows, and from the differences of fused readings.
    public private(set) var restingMagnetometerVariance: Double
    public private(set) var movingMagnetometerVariance: Double
    /// Angle random walk of the gyroscope, rad²/s (noise density squared).
    public private(set) var gyroNoiseIntensity: Double
    /// Variance of each accelerometer axis, (m/s²)², per sample.
    public private(set) var accelerometerVariance: Double
    /// Seconds (of rest, or of fused magnetometer readings) over which a new figure replaces the old one.
    public let learningTime: Double
    /// The last fused magnetometer reading in the earth frame, µT, and when it came, s.
    private var previousField: Vector3?
    private var previousFieldTime = 0.0

    /// The figures a filter starts with, each held at its floor: a setting of
    /// 0 would make one reading exact, and every comparison with it 0 / 0.
    public init(magnetometerNoise: Double, gyroNoiseDensity: Double, accelerometerNoise: Double, learningTime: Double = 10) {
        restingMagnetometerVariance = max(magnetometerNoise * magnetometerNoise, Self.smallestMagnetometerVariance)
        movingMagnetometerVariance = restingMagnetometerVariance
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
        restingMagnetometerVariance += (max(window.fieldScatter, Self.smallestMagnetometerVariance)
            - restingMagnetometerVariance) * k
        gyroNoiseIntensity += (max(window.rateScatter * dt, Self.smallestGyroNoiseIntensity) - gyroNoiseIntensity) * k
        accelerometerVariance += (max(window.accelerationScatter, Self.smallestAccelerometerVariance)
            - accelerometerVariance) * k
    }

    /// A fused magnetometer reading turned into the earth frame (µT) at `time`
    /// (s): its difference from the last one, each axis the difference of two
    /// noises, is a sample of twice their variance on each of three axes.
    public mutating func observeField(inEarth field: Vector3, time: Double) {
        if let previous = previousField, time - previousFieldTime <= Self.longestFieldGap {
            let k = min(1, (time - previousFieldTime) / learningTime)
            let sample = (field - previous).squaredLength / 6
            movingMagnetometerVariance += (max(sample, Self.smallestMagnetometerVariance)
                - movingMagnetometerVariance) * k
        }
        previousField = field
        previousFieldTime = time
    }

    /// The filter turned its attitude by `turn` (earth frame): the last
    /// reading is turned with it, so the next one is compared in the same frame.
    public mutating func fieldCorrected(by turn: Quaternion) {
        previousField = previousField.map { turn.rotate($0) }
    }

    /// The attitude restarted, or the calibration changed: the next reading has no predecessor to compare with.
    public mutating func fieldInterrupted() {
        previousField = nil
    }

    /// Readings further apart are not compared: the gyro-carried attitude may have drifted between them.
    static let longestFieldGap = 1.0
}
