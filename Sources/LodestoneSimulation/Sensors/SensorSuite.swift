/// The sensors of a simulated board: what each reads and how often.
public struct SensorSuite: Hashable, Sendable {
    public var gyroscope: GyroscopeModel
    public var accelerometer: AccelerometerModel
    public var magnetometer: MagnetometerModel
    /// Ground speed and track from a position source; nil when there is none.
    public var groundSpeed: GroundSpeedModel?

    public init(gyroscope: GyroscopeModel = .ideal, accelerometer: AccelerometerModel = .ideal,
                magnetometer: MagnetometerModel = .ideal, groundSpeed: GroundSpeedModel? = nil) {
        self.gyroscope = gyroscope
        self.accelerometer = accelerometer
        self.magnetometer = magnetometer
        self.groundSpeed = groundSpeed
    }

    /// Perfect sensors, no position source.
    public static let ideal = SensorSuite()

    /// Low-cost MEMS sensors (see each model's `typical`), no position source.
    public static let typical = SensorSuite(gyroscope: .typical, accelerometer: .typical, magnetometer: .typical)

    /// No noise, bias walk or calibration error, but a typical part's
    /// resolution, and the Earth's rate: it is signal, which a filter takes
    /// out of the gyro (`lodestone simulate --noise none`).
    public static let noiseFree: SensorSuite = {
        var sensors = SensorSuite.ideal
        sensors.gyroscope.sensesEarthRotation = true
        sensors.gyroscope.resolution = SensorSuite.typical.gyroscope.resolution
        sensors.accelerometer.resolution = SensorSuite.typical.accelerometer.resolution
        sensors.magnetometer.resolution = SensorSuite.typical.magnetometer.resolution
        return sensors
    }()
}
