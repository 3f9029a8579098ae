/// One synchronized reading of the motion sensors, in the body frame.
///
/// Units: acceleration is specific force in m/s² (+9.81 on z lying flat and
/// still), the magnetic field is in µT, angular rate in rad/s. `time` is in
/// seconds on the source's clock (log time for replays).
///
/// `speed` and `track` come from a position source (gpsd, or a log's columns)
/// when the board rides a vehicle: gyro fusion then removes the acceleration of
/// the vehicle's own motion before it trusts the accelerometer for the tilt.
///
/// `temperature` is the gyroscope's own (°C), where the part reports it: its
/// bias follows it, and gyro fusion widens the bias's uncertainty when it changes.
@frozen
public struct SensorSample: Hashable, Sendable {
    public var time: Double
    public var acceleration: Vector3
    public var magneticField: Vector3
    public var angularRate: Vector3?
    /// Ground speed, m/s; nil when no position source reports one.
    public var speed: Double?
    /// Course over ground, degrees clockwise from true north; nil when unknown.
    public var track: Double?
    /// The gyroscope's temperature, °C; nil when unknown.
    public var temperature: Double?

    /// The temperatures a part's sensor may report, °C (its operating range, with margin):
    /// beyond them a reading is a wrong scale or unit, not a temperature.
    public static let temperatureRange = -60.0...150.0

    @inlinable
    public init(time: Double, acceleration: Vector3, magneticField: Vector3, angularRate: Vector3? = nil,
                speed: Double? = nil, track: Double? = nil, temperature: Double? = nil) {
        self.time = time
        self.acceleration = acceleration
        self.magneticField = magneticField
        self.angularRate = angularRate
        self.speed = speed
        self.track = track
        self.temperature = temperature
    }
}
