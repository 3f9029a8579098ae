import LodestoneCore

/// A board turning steadily about the vertical: a slowly turning mount, a
/// turntable, a ship's compass in a long turn. Holds still, ramps up to the
/// rate, turns, ramps down and holds still again.
public struct LevelTurnSettings: Hashable, Sendable {
    /// °/s, clockwise seen from above when positive.
    public var rate: Double
    /// Seconds of turning: the heading changes by `rate × turnDuration`.
    public var turnDuration: Double
    public var holdBefore: Double
    public var holdAfter: Double
    /// Seconds to reach the rate (a quintic smoothstep).
    public var ramp: Double
    public var startHeading: Double
    /// A fixed tilt of the turning board, degrees.
    public var pitch: Double
    public var roll: Double
    /// Sensor offset from the turning axis, m, body frame.
    public var leverArm: Vector3

    public init(rate: Double = 1, turnDuration: Double = 300, holdBefore: Double = 10, holdAfter: Double = 10,
                ramp: Double = 2, startHeading: Double = 30, pitch: Double = 0, roll: Double = 0,
                leverArm: Vector3 = .zero) {
        self.rate = rate
        self.turnDuration = turnDuration
        self.holdBefore = holdBefore
        self.holdAfter = holdAfter
        self.ramp = ramp
        self.startHeading = startHeading
        self.pitch = pitch
        self.roll = roll
        self.leverArm = leverArm
    }
}

extension Scenario {
    public static func levelTurn(_ s: LevelTurnSettings = .init()) -> Scenario {
        let turn = RatePulse(start: s.holdBefore, duration: s.turnDuration + s.ramp, ramp: s.ramp, level: s.rate)
        let heading = PulseTrain(initial: s.startHeading, pulses: [turn])
        return Scenario(
            name: "level-turn",
            summary: "level turn at \(decimal(s.rate)) °/s for \(decimal(s.turnDuration)) s between holds of \(decimal(s.holdBefore)) s and \(decimal(s.holdAfter)) s",
            duration: turn.end + s.holdAfter,
            attitude: AttitudePath(heading: .pulses(heading), pitch: .constant(s.pitch), roll: .constant(s.roll)),
            leverArm: s.leverArm)
    }
}
