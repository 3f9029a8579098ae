/// One synchronized reading of the motion sensors, in the body frame.
///
/// Units: acceleration is specific force in m/s² (+9.81 on z lying flat and
/// still), the magnetic field is in µT, angular rate in rad/s. `time` is in
/// seconds on the source's clock (log time for replays).
@frozen
public struct SensorSample: Hashable, Sendable {
    public var time: Double
    public var acceleration: Vector3
    public var magneticField: Vector3
    public var angularRate: Vector3?

    @inlinable
    public init(time: Double, acceleration: Vector3, magneticField: Vector3, angularRate: Vector3? = nil) {
        self.time = time
        self.acceleration = acceleration
        self.magneticField = magneticField
        self.angularRate = angularRate
    }
}
