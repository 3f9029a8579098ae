#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// The ambient field and gravity of a simulated place, in the ENU frame with
/// north = magnetic north.
public struct SimulatedEnvironment: Hashable, Sendable {
    /// Total field strength, µT.
    public var fieldStrength: Double
    /// Inclination in degrees, positive when the field points down.
    public var dip: Double
    /// Specific force at rest, m/s².
    public var gravity: Double
    /// Degrees north: sets the Earth's rate that a gyroscope senses.
    public var latitude: Double
    /// Degrees east of true north that magnetic north lies: true = magnetic + declination.
    public var declination: Double

    public init(fieldStrength: Double = 50, dip: Double = 65, gravity: Double = 9.80665, latitude: Double = 50,
                declination: Double = 0) {
        self.fieldStrength = fieldStrength
        self.dip = dip
        self.gravity = gravity
        self.latitude = latitude
        self.declination = declination
    }

    /// The Earth's rotation, rad/s (sidereal), in this ENU frame whose north is
    /// magnetic north: true north lies `declination` west of it.
    public var earthRate: Vector3 {
        let omega = 7.292115e-5
        let lat = latitude * Angle.radiansPerDegree, d = declination * Angle.radiansPerDegree
        return Vector3(-cos(lat) * sin(d), cos(lat) * cos(d), sin(lat)) * omega
    }

    /// The field vector in ENU: north and down components.
    public var field: Vector3 {
        let d = dip * Angle.radiansPerDegree
        return Vector3(0, fieldStrength * cos(d), -fieldStrength * sin(d))
    }

    /// Specific force at rest in ENU: up.
    public var specificForce: Vector3 { Vector3(0, 0, gravity) }
}
