import LodestoneCore

/// A motion with known truth: how a carrier (a board, a car, a boat, a hand)
/// turns and moves, and where on it the sensor sits.
///
/// The carrier's attitude is an ``AttitudePath``; its reference point (the
/// centre it rotates about: a car's roll centre, a boat's roll axis) moves as a
/// ``PointMotion``. The sensor sits `leverArm` from that point, in the carrier's
/// body frame, and its axes are turned by `mounting` from the carrier's.
public struct Scenario: Sendable {
    public var name: String
    /// One line saying what the motion is.
    public var summary: String
    /// Seconds.
    public var duration: Double
    public var attitude: AttitudePath
    public var motion: PointMotion
    /// Sensor position relative to the reference point, carrier body frame, m.
    public var leverArm: Vector3
    /// Sensor axes relative to the carrier's: sensor → carrier body.
    public var mounting: Quaternion
    /// Where scoring starts: the filters had this long to settle, s.
    public var settlingTime: Double

    public init(name: String, summary: String, duration: Double, attitude: AttitudePath, motion: PointMotion = .still,
                leverArm: Vector3 = .zero, mounting: Quaternion = .identity, settlingTime: Double = 10) {
        self.name = name
        self.summary = summary
        self.duration = duration
        self.attitude = attitude
        self.motion = motion
        self.leverArm = leverArm
        self.mounting = mounting
        self.settlingTime = settlingTime
    }

    /// The sensor's true motion at `t`.
    ///
    /// The sensor point moves as p + R·r, so its acceleration is
    /// a + R·(ω̇ × r + ω × (ω × r)) with ω, ω̇ and r in the carrier's body frame.
    public func kinematics(at t: Double) -> Kinematics {
        let body = attitude.state(at: t)
        let point = motion.state(at: t)
        let r = leverArm, w = body.rate
        let toEarth = body.attitude
        let mountInverse = mounting.conjugate
        return Kinematics(
            time: t,
            attitude: (toEarth * mounting).normalized,
            rate: mountInverse.rotate(w),
            angularAcceleration: mountInverse.rotate(body.angularAcceleration),
            velocity: point.velocity + toEarth.rotate(w.cross(r)),
            acceleration: point.acceleration
                + toEarth.rotate(body.angularAcceleration.cross(r) + w.cross(w.cross(r))),
            referenceVelocity: point.velocity)
    }
}
