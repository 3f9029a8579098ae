/// How attitude is estimated.
public enum FusionMode: String, CaseIterable, Hashable, Sendable {
    /// Gyro fusion when the samples carry a gyroscope, else the compass.
    case auto
    /// Accelerometer + magnetometer only (smoothed tilt-compensated compass).
    case ecompass
    /// Gyroscope + accelerometer + magnetometer (``AttitudeFusion``); samples without a gyro fall back to the compass.
    case ahrs
}
