#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tilt-compensated compass math: attitude and heading from gravity and field.
///
/// `gravity` is the accelerometer's specific force (pointing up at rest) and
/// `field` the calibrated magnetic field, both in the body frame. Only their
/// directions matter. East is `field × up`, north is `up × east`: the earth
/// frame is East-North-Up with north = magnetic north.
public enum TiltCompass {
    /// Heading of `axis` in degrees, [0, 360), clockwise from magnetic north.
    ///
    /// `axis` need not be unit length. The result is meaningless when `axis` is
    /// nearly vertical; ``tiltOfAxis(_:gravity:)`` tells how close it is.
    @inlinable
    public static func heading(of axis: Vector3, gravity: Vector3, field: Vector3) -> Double {
        let east = field.cross(gravity)
        let north = gravity.cross(east)
        // |north| = |gravity|·|east|: scale the east component to match instead of normalizing.
        let e = east.dot(axis) * gravity.length
        let n = north.dot(axis)
        var degrees = atan2(e, n) * Angle.degreesPerRadian
        if degrees < 0 { degrees += 360 }
        return degrees >= 360 ? 0 : degrees
    }

    /// The attitude quaternion, body → ENU, from gravity and field (TRIAD).
    ///
    /// Returns nil when the vectors are zero or parallel (no horizontal field).
    @inlinable
    public static func attitude(gravity: Vector3, field: Vector3) -> Quaternion? {
        let up = gravity.normalized
        let east = field.cross(up).normalized
        guard up != .zero, east != .zero else { return nil }
        let north = up.cross(east)
        // Rows of R (body → earth) are the earth axes expressed in the body frame.
        return Quaternion(rotationMatrix: Matrix3(rows: east, north, up))
    }

    /// Angle in degrees between `axis` and the horizontal plane (90 = vertical).
    @inlinable
    public static func tiltOfAxis(_ axis: Vector3, gravity: Vector3) -> Double {
        let s = abs(axis.dot(gravity)) / (axis.length * gravity.length)
        return asin(min(1, s)) * Angle.degreesPerRadian
    }

    /// Magnetic dip (inclination) in degrees, positive when the field points down.
    @inlinable
    public static func dip(gravity: Vector3, field: Vector3) -> Double {
        let s = -field.dot(gravity) / (field.length * gravity.length)
        return asin(max(-1, min(1, s))) * Angle.degreesPerRadian
    }
}
