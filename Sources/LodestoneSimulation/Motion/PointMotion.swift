#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// How a reference point moves in the ENU frame: along a course at a speed,
/// offset sideways from it (a walker's sway) and up (a boat's heave, a step).
///
/// With t̂ the course direction, n̂ the direction to its right, ψ the course,
/// v the speed, l the sideways offset and z the height, the velocity is
/// (v − l ψ̇) t̂ + l̇ n̂ + ż ẑ and the acceleration
/// (v̇ − 2 l̇ ψ̇ − l ψ̈) t̂ + (v ψ̇ + l̈ − l ψ̇²) n̂ + z̈ ẑ.
public struct PointMotion: Sendable {
    /// Speed along the course, m/s.
    public var speed: TimeFunction
    /// Course, degrees clockwise from (magnetic) north.
    public var course: TimeFunction
    /// Offset to the right of the course, m.
    public var sideways: TimeFunction
    /// Height, m.
    public var height: TimeFunction

    public init(speed: TimeFunction = .zero, course: TimeFunction = .zero, sideways: TimeFunction = .zero,
                height: TimeFunction = .zero) {
        self.speed = speed
        self.course = course
        self.sideways = sideways
        self.height = height
    }

    /// A point that does not move.
    public static let still = PointMotion()

    /// Velocity and acceleration at `t`.
    public func state(at t: Double) -> TranslationState {
        let psi = Angle.radiansPerDegree * course(t)
        let v = speed(t), l = sideways(t), z = height(t)
        let s = sin(psi.value), c = cos(psi.value)
        let along = Vector3(s, c, 0), right = Vector3(c, -s, 0)
        let velocity = along * (v.value - l.value * psi.rate) + right * l.rate + Vector3(0, 0, z.rate)
        let acceleration = along * (v.rate - 2 * l.rate * psi.rate - l.value * psi.acceleration)
            + right * (v.value * psi.rate + l.acceleration - l.value * psi.rate * psi.rate)
            + Vector3(0, 0, z.acceleration)
        return TranslationState(velocity: velocity, acceleration: acceleration)
    }

    /// Where the point starts, relative to the origin of its course.
    public func startOffset(at t: Double) -> Vector3 {
        let psi = Angle.radiansPerDegree * course(t).value
        return Vector3(cos(psi), -sin(psi), 0) * sideways(t).value + Vector3(0, 0, height(t).value)
    }
}
