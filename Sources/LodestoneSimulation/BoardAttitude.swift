import LodestoneCore

/// An attitude given the way people describe a board: heading of the +y axis,
/// pitch (nose up) and roll (right side down), in degrees.
///
/// The rotation is heading about up, then pitch about the body x axis, then
/// roll about the body y axis, so `heading` is exactly the heading of +y for
/// any pitch below 90°.
public struct BoardAttitude: Hashable, Sendable {
    public var heading: Double
    public var pitch: Double
    public var roll: Double

    public init(heading: Double, pitch: Double = 0, roll: Double = 0) {
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
    }

    /// Body → ENU quaternion.
    public var quaternion: Quaternion {
        let r = Angle.radiansPerDegree
        return Quaternion(axis: .unitZ, angle: -heading * r)
            * Quaternion(axis: .unitX, angle: pitch * r)
            * Quaternion(axis: .unitY, angle: roll * r)
    }
}

extension Quaternion {
    /// Heading in degrees of the body axis `axis` under this attitude.
    public func heading(of axis: Vector3) -> Double {
        let v = rotate(axis)
        return Angle.normalized360(atan2Degrees(v.x, v.y))
    }

    /// Rotation vector (axis × angle) of this rotation, the shorter way round.
    public var rotationVector: Vector3 {
        let q = w < 0 ? -self : self
        let s = q.vector.length
        guard s > 1e-12 else { return q.vector * 2 }
        return q.vector * (2 * atan2Degrees(s, q.w) * Angle.radiansPerDegree / s)
    }
}
