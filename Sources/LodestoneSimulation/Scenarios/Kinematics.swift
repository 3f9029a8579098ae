import LodestoneCore

/// The true motion of the sensor at one instant.
public struct Kinematics: Hashable, Sendable {
    public var time: Double
    /// Sensor frame → ENU, north = magnetic north.
    public var attitude: Quaternion
    /// Angular velocity relative to the ground, sensor frame, rad/s.
    public var rate: Vector3
    /// rad/s², sensor frame.
    public var angularAcceleration: Vector3
    /// Velocity of the sensor, ENU, m/s.
    public var velocity: Vector3
    /// Acceleration of the sensor, ENU, m/s².
    public var acceleration: Vector3
    /// Velocity of the carrier's reference point, ENU, m/s: what a GNSS receiver on it reports.
    public var referenceVelocity: Vector3

    /// Specific force in the sensor frame for gravity `g` (m/s²): what an ideal
    /// accelerometer reads, +g on z when flat and still.
    public func specificForce(gravity g: Double) -> Vector3 {
        attitude.conjugate.rotate(acceleration + Vector3(0, 0, g))
    }
}
