import LodestoneCore

/// A boat under way in a seaway: irregular roll, pitch and heave (each a few
/// wave components around its period, from the seed), surge and sway, a slow
/// yaw about the course, and now and then a gentle change of course. The
/// sensor sits high above the roll axis, so it also feels the swing of the mast.
public struct BoatSettings: Hashable, Sendable {
    public var duration: Double
    /// m/s through the water.
    public var speed: Double
    /// Degrees and seconds.
    public var rollAmplitude: Double
    public var rollPeriod: Double
    public var pitchAmplitude: Double
    public var pitchPeriod: Double
    /// m and s.
    public var heaveAmplitude: Double
    public var heavePeriod: Double
    /// Yaw about the course, degrees, and its period, s.
    public var yawAmplitude: Double
    public var yawPeriod: Double
    /// Sensor position relative to the roll axis, m (right, forward, up).
    public var leverArm: Vector3
    public var seed: UInt64

    public init(duration: Double = 600, speed: Double = 3, rollAmplitude: Double = 20, rollPeriod: Double = 8,
                pitchAmplitude: Double = 8, pitchPeriod: Double = 6, heaveAmplitude: Double = 1, heavePeriod: Double = 7,
                yawAmplitude: Double = 4, yawPeriod: Double = 15, leverArm: Vector3 = Vector3(0, 0, 4), seed: UInt64 = 1) {
        self.duration = duration
        self.speed = speed
        self.rollAmplitude = rollAmplitude
        self.rollPeriod = rollPeriod
        self.pitchAmplitude = pitchAmplitude
        self.pitchPeriod = pitchPeriod
        self.heaveAmplitude = heaveAmplitude
        self.heavePeriod = heavePeriod
        self.yawAmplitude = yawAmplitude
        self.yawPeriod = yawPeriod
        self.leverArm = leverArm
        self.seed = seed
    }
}

extension Scenario {
    public static func boat(_ s: BoatSettings = .init()) -> Scenario {
        var random = RandomSource(seed: s.seed ^ 0x626F_6174)
        /// A seaway's motion: most of the amplitude near the period, some above and below it.
        func sea(_ amplitude: Double, _ period: Double) -> TimeFunction {
            let parts: [(Double, ClosedRange<Double>)] = [(0.75, 0.9...1.1), (0.2, 0.6...0.8), (0.12, 1.4...1.9)]
            return .waves(parts.map { share, spread in
                TimeFunction.Wave(amplitude: share * amplitude, period: period * random.uniform(in: spread),
                                  phase: random.uniform(in: 0...(2 * Double.pi)))
            })
        }
        var turns: [RatePulse] = []
        var time = random.uniform(in: 30...90)
        while time < s.duration - 40 {
            let turn = RatePulse(start: time, total: random.sign() * random.uniform(in: 15...60), rate: random.uniform(in: 1...3),
                                 ramp: 4)
            turns.append(turn)
            time = turn.end + random.uniform(in: 60...150)
        }
        let course = TimeFunction.pulses(PulseTrain(initial: random.uniform(in: 0...360), pulses: turns))
        return Scenario(
            name: "boat",
            summary: "\(decimal(s.duration)) s boat at \(decimal(s.speed)) m/s rolling ±\(decimal(s.rollAmplitude))°, pitching ±\(decimal(s.pitchAmplitude))°, heaving ±\(decimal(s.heaveAmplitude)) m, sensor \(decimal(s.leverArm.z)) m above the roll axis",
            duration: s.duration,
            attitude: AttitudePath(heading: course + sea(s.yawAmplitude, s.yawPeriod),
                                   pitch: sea(s.pitchAmplitude, s.pitchPeriod), roll: sea(s.rollAmplitude, s.rollPeriod)),
            motion: PointMotion(speed: sea(0.1 * s.speed, s.heavePeriod) + s.speed, course: course,
                                sideways: sea(0.3, s.rollPeriod), height: sea(s.heaveAmplitude, s.heavePeriod)),
            leverArm: s.leverArm)
    }
}
