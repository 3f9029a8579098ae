import LodestoneCore

/// How simulated sensors distort the truth: noise, hard and soft iron, gyro bias.
///
/// The magnetometer reads `distortion · B_true + hardIron + noise`; the exact
/// inverse is the calibration `MagneticCalibration(hardIron: hardIron,
/// softIron: distortion⁻¹)`.
public struct SensorErrorModel: Hashable, Sendable {
    /// Per-axis noise, 1σ: µT, m/s², rad/s.
    public var magnetometerNoise: Double
    public var accelerometerNoise: Double
    public var gyroscopeNoise: Double
    public var hardIron: Vector3
    public var softIron: Matrix3
    public var gyroscopeBias: Vector3

    public init(magnetometerNoise: Double = 0, accelerometerNoise: Double = 0, gyroscopeNoise: Double = 0,
                hardIron: Vector3 = .zero, softIron: Matrix3 = .identity, gyroscopeBias: Vector3 = .zero) {
        self.magnetometerNoise = magnetometerNoise
        self.accelerometerNoise = accelerometerNoise
        self.gyroscopeNoise = gyroscopeNoise
        self.hardIron = hardIron
        self.softIron = softIron
        self.gyroscopeBias = gyroscopeBias
    }

    public static let noiseless = SensorErrorModel()

    /// A typical low-cost MEMS board: 0.5 µT and 0.05 m/s² noise.
    public static let typical = SensorErrorModel(magnetometerNoise: 0.5, accelerometerNoise: 0.05, gyroscopeNoise: 0.005)

    /// The calibration that exactly undoes the hard and soft iron.
    public var exactCalibration: MagneticCalibration {
        MagneticCalibration(hardIron: hardIron, softIron: softIron.inverse ?? .identity)
    }
}
