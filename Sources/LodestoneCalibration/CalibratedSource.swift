import LodestoneCore

/// A ``SensorSource`` whose accelerometer readings are corrected by an
/// accelerometer calibration on the way out.
///
/// The magnetometer correction belongs to the heading estimator
/// (`HeadingEstimator.Settings.calibration`), which also knows its quality;
/// the estimator has no accelerometer stage, so this adapter applies that
/// correction at the source, before anything else sees the samples.
public struct CalibratedSource<Base: SensorSource>: SensorSource {
    public var base: Base
    public let accelerometer: AccelerometerCalibration

    public init(_ base: Base, accelerometer: AccelerometerCalibration) {
        self.base = base
        self.accelerometer = accelerometer
    }

    public mutating func nextSample() throws -> SensorSample? {
        guard var sample = try base.nextSample() else { return nil }
        sample.acceleration = accelerometer.apply(sample.acceleration)
        return sample
    }
}
