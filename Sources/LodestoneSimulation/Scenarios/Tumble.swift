import LodestoneCore

/// A board turned over and over in the hands through every orientation,
/// upside down and on edge included, for minutes: heading, pitch and roll each
/// a sum of slow and quick swings of random period and phase (from the seed),
/// so the motion never repeats. The hands also move the board a few
/// centimetres, and it turns about the grip, not about the sensor.
public struct TumbleSettings: Hashable, Sendable {
    public var duration: Double
    /// Still on the table first, then the motion fades in over `fadeIn` seconds.
    public var holdBefore: Double
    public var fadeIn: Double
    /// Scales every swing's angular rate (1: peaks of about 60–100 °/s per angle).
    public var pace: Double
    /// Sensor offset from the point the hands turn the board about, m.
    public var leverArm: Vector3
    public var seed: UInt64

    public init(duration: Double = 600, holdBefore: Double = 5, fadeIn: Double = 3, pace: Double = 1,
                leverArm: Vector3 = Vector3(0.03, 0.05, 0.01), seed: UInt64 = 1) {
        self.duration = duration
        self.holdBefore = holdBefore
        self.fadeIn = fadeIn
        self.pace = pace
        self.leverArm = leverArm
        self.seed = seed
    }
}

extension Scenario {
    public static func tumble(_ s: TumbleSettings = .init()) -> Scenario {
        var random = RandomSource(seed: s.seed ^ 0x7475_6D62_6C65)
        func swing(_ amplitude: Double, _ periods: ClosedRange<Double>) -> TimeFunction.Wave {
            TimeFunction.Wave(amplitude: amplitude, period: random.uniform(in: periods) / s.pace,
                              phase: random.uniform(in: 0...(2 * Double.pi)))
        }
        let drift = random.sign() * random.uniform(in: 3...8) * s.pace
        let heading = TimeFunction.linear(rate: drift) + .waves([swing(120, 30...50), swing(40, 8...14)])
        let pitch = TimeFunction.waves([swing(70, 25...40), swing(20, 6...10)])
        let roll = TimeFunction.waves([swing(150, 35...55), swing(40, 7...12), swing(90, 90...130)])
        let sideways = TimeFunction.waves([swing(0.04, 2...5), swing(0.015, 0.8...1.5)])
        let height = TimeFunction.waves([swing(0.05, 2.5...6), swing(0.015, 0.7...1.3)])
        // Everything is zero at its start; the fade makes the first seconds still.
        let fade = TimeFunction.smoothStep(start: s.holdBefore, duration: s.fadeIn)
        let startHeading = random.uniform(in: 0...360)
        return Scenario(
            name: "tumble",
            summary: "\(decimal(s.duration)) s of hand tumbling through all orientations",
            duration: s.duration,
            attitude: AttitudePath(heading: fade * heading + startHeading, pitch: fade * pitch, roll: fade * roll),
            motion: PointMotion(sideways: fade * sideways, height: fade * height),
            leverArm: s.leverArm)
    }
}
