import LodestoneCore

/// An attitude over time, given as a ``BoardAttitude`` whose heading, pitch and
/// roll (degrees) are smooth functions of time.
///
/// The attitude is `Rz(−heading)·Rx(pitch)·Ry(roll)` as in ``BoardAttitude``.
/// Its body rate and angular acceleration follow exactly from the angles'
/// derivatives: for a chain of rotations by θᵢ about fixed axes aᵢ, with wᵢ
/// the axis aᵢ seen from the body, ω = Σ wᵢ θ̇ᵢ and
/// ω̇ = Σ wᵢ θ̈ᵢ + Σᵢ<ⱼ θ̇ᵢ θ̇ⱼ (wᵢ × wⱼ).
public struct AttitudePath: Sendable {
    public var heading: TimeFunction
    public var pitch: TimeFunction
    public var roll: TimeFunction

    public init(heading: TimeFunction, pitch: TimeFunction = .zero, roll: TimeFunction = .zero) {
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
    }

    /// Still at one attitude.
    public static func fixed(_ a: BoardAttitude) -> AttitudePath {
        AttitudePath(heading: .constant(a.heading), pitch: .constant(a.pitch), roll: .constant(a.roll))
    }

    /// Attitude, body rate and angular acceleration at `t`.
    public func state(at t: Double) -> RotationState {
        let r = Angle.radiansPerDegree
        let h = r * heading(t), p = r * pitch(t), q = r * roll(t)
        let yaw = Quaternion(axis: -.unitZ, angle: h.value)
        let tilt = Quaternion(axis: .unitX, angle: p.value)
        let bank = Quaternion(axis: .unitY, angle: q.value)
        // The axis of each rotation seen from the body frame.
        let w1 = (tilt * bank).conjugate.rotate(-.unitZ)
        let w2 = bank.conjugate.rotate(.unitX)
        let w3 = Vector3.unitY
        let rate = w1 * h.rate + w2 * p.rate + w3 * q.rate
        let acceleration = w1 * h.acceleration + w2 * p.acceleration + w3 * q.acceleration
            + w1.cross(w2) * (h.rate * p.rate) + w1.cross(w3) * (h.rate * q.rate) + w2.cross(w3) * (p.rate * q.rate)
        return RotationState(attitude: yaw * tilt * bank, rate: rate, angularAcceleration: acceleration)
    }
}
