import LodestoneCore

/// How a simulated MEMS accelerometer departs from the true specific force.
///
/// Reads `(1 + scaleError) ⊙ f + bias + white noise`, rounded to `resolution`;
/// the noise's per-sample σ is `noiseDensity·√rate`.
public struct AccelerometerModel: Hashable, Sendable {
    /// m/s²/√Hz
    public var noiseDensity: Double
    /// m/s², sensor frame.
    public var bias: Vector3
    public var scaleError: Vector3
    /// m/s² (0: not rounded).
    public var resolution: Double

    public init(noiseDensity: Double = 0, bias: Vector3 = .zero, scaleError: Vector3 = .zero, resolution: Double = 0) {
        self.noiseDensity = noiseDensity
        self.bias = bias
        self.scaleError = scaleError
        self.resolution = resolution
    }

    public static let ideal = AccelerometerModel()

    /// 400 µg/√Hz (an MPU-6050's datasheet figure), calibrated (no bias), resolution 1e-4 m/s².
    public static let typical = AccelerometerModel(noiseDensity: 400e-6 * 9.80665, resolution: 1e-4)
}
