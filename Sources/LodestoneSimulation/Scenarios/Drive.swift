import LodestoneCore

/// A car drive: parked, then straights, curves, braking and accelerating
/// between the lowest and highest cruising speed, a stop or two at lights,
/// and parked again. Drawn from the seed.
///
/// Turns are taken at a lateral (centripetal, v·ω) acceleration between the
/// given bounds; the body rolls out of a turn and pitches under braking by the
/// given gradients, the road's camber sways it slowly, and the road shakes it
/// (vertical vibration of 8–20 Hz and about a hundredth of a degree of angular
/// vibration, growing with speed). The body slips slightly into a turn, so the
/// track over ground differs from the heading by a fraction of a degree.
public struct DriveSettings: Hashable, Sendable {
    public var duration: Double
    /// Cruising speeds, m/s.
    public var speeds: ClosedRange<Double>
    /// Lateral acceleration of turns, m/s².
    public var lateralAcceleration: ClosedRange<Double>
    /// Largest braking and acceleration, m/s².
    public var braking: Double
    public var acceleration: Double
    /// Stops at lights in the drive (each 10–20 s).
    public var stops: Int
    /// Body roll per lateral g and pitch per longitudinal g, degrees.
    public var rollGradient: Double
    public var pitchGradient: Double
    /// Degrees of slip angle per lateral g.
    public var slipGradient: Double
    /// RMS of the road's vertical vibration at 20 m/s, m/s².
    public var vibration: Double
    /// Sensor offset from the body's roll centre, m (right, forward, up).
    public var leverArm: Vector3
    /// Parked at the start and at the end, s.
    public var parked: Double
    public var seed: UInt64

    public init(duration: Double = 600, speeds: ClosedRange<Double> = 10...30,
                lateralAcceleration: ClosedRange<Double> = (0.1 * 9.81)...(0.3 * 9.81),
                braking: Double = 3.5, acceleration: Double = 2.5, stops: Int = 1, rollGradient: Double = 7,
                pitchGradient: Double = 4, slipGradient: Double = -2, vibration: Double = 0.3,
                leverArm: Vector3 = Vector3(0.2, 1.0, 0.4), parked: Double = 10, seed: UInt64 = 1) {
        self.duration = duration
        self.speeds = speeds
        self.lateralAcceleration = lateralAcceleration
        self.braking = braking
        self.acceleration = acceleration
        self.stops = stops
        self.rollGradient = rollGradient
        self.pitchGradient = pitchGradient
        self.slipGradient = slipGradient
        self.vibration = vibration
        self.leverArm = leverArm
        self.parked = parked
        self.seed = seed
    }
}

extension Scenario {
    public static func drive(_ s: DriveSettings = .init()) -> Scenario {
        var random = RandomSource(seed: s.seed ^ 0x6472_6976_65)
        let plan = DrivePlan(settings: s, random: &random)
        let speed = TimeFunction.pulses(plan.speed)
        let longitudinal = TimeFunction.pulseRate(plan.speed)
        let yawRate = Angle.radiansPerDegree * TimeFunction.pulseRate(plan.course)
        let lateral = speed * yawRate
        let g = 9.80665
        // Road effects grow with speed: nothing when parked.
        let roadGain = (1 / 20) * speed
        func wave(_ amplitude: Double, _ periods: ClosedRange<Double>) -> TimeFunction.Wave {
            TimeFunction.Wave(amplitude: amplitude, period: random.uniform(in: periods), phase: random.uniform(in: 0...(2 * Double.pi)))
        }
        // Vertical displacement whose acceleration has the requested RMS: four
        // components of equal acceleration amplitude a, whose sum has RMS a·√2.
        let shake = (0..<4).map { _ -> TimeFunction.Wave in
            let f = random.uniform(in: 8...20)
            let omega = 2 * Double.pi * f
            return TimeFunction.Wave(amplitude: s.vibration / 2.0.squareRoot() / (omega * omega),
                                     period: 1 / f, phase: random.uniform(in: 0...(2 * Double.pi)))
        }
        let camberRoll = TimeFunction.waves([wave(0.8, 15...30), wave(0.3, 4...8)])
        let camberPitch = TimeFunction.waves([wave(0.4, 20...40), wave(0.15, 3...6)])
        let jitterRoll = TimeFunction.waves([wave(0.012, 0.06...0.12), wave(0.008, 0.05...0.09)])
        let jitterPitch = TimeFunction.waves([wave(0.01, 0.06...0.12), wave(0.006, 0.05...0.09)])
        let heading = TimeFunction.pulses(plan.course) + (s.slipGradient / g) * lateral
        let roll = (-s.rollGradient / g) * lateral + roadGain * (camberRoll + jitterRoll)
        let pitch = (s.pitchGradient / g) * longitudinal + roadGain * (camberPitch + jitterPitch)
        return Scenario(
            name: "drive",
            summary: "\(decimal(s.duration)) s car drive at \(decimal(s.speeds.lowerBound))–\(decimal(s.speeds.upperBound)) m/s with turns, braking and \(s.stops) stop(s)",
            duration: s.duration,
            attitude: AttitudePath(heading: heading, pitch: pitch, roll: roll),
            motion: PointMotion(speed: speed, course: .pulses(plan.course), height: roadGain * .waves(shake)),
            leverArm: s.leverArm)
    }
}

/// The manoeuvres of a drive as pulse trains of acceleration and yaw rate.
struct DrivePlan {
    var speed: PulseTrain
    var course: PulseTrain

    init(settings s: DriveSettings, random: inout RandomSource) {
        var builder = Builder(settings: s, startCourse: random.uniform(in: 0...360))
        builder.time = s.parked
        builder.changeSpeed(to: random.uniform(in: s.speeds), random: &random)
        let finalBrake = s.speeds.upperBound / (0.7 * s.braking) + 2
        let lastManoeuvre = s.duration - s.parked - finalBrake
        let stopTimes = (0..<max(0, s.stops)).map { Double($0 + 1) * lastManoeuvre / Double(s.stops + 1) }
        var nextStop = 0
        while builder.time < lastManoeuvre {
            if nextStop < stopTimes.count, builder.time >= stopTimes[nextStop] {
                nextStop += 1
                builder.stop(for: random.uniform(in: 10...20), random: &random)
                builder.changeSpeed(to: random.uniform(in: s.speeds), random: &random)
                continue
            }
            let choice = random.uniform()
            let saved = builder
            if choice < 0.3 {
                builder.time += random.uniform(in: 5...25)
            } else if choice < 0.75 {
                builder.turn(random: &random)
            } else {
                builder.changeSpeed(to: random.uniform(in: s.speeds), random: &random)
            }
            if builder.time > lastManoeuvre {
                builder = saved
                builder.time = lastManoeuvre
            }
        }
        builder.time = max(builder.time, s.duration - s.parked - builder.brakingTime(from: builder.velocity))
        builder.stop(for: 0, random: &random)
        speed = PulseTrain(initial: 0, pulses: builder.speedPulses)
        course = PulseTrain(initial: builder.startCourse, pulses: builder.coursePulses)
    }

    struct Builder {
        let settings: DriveSettings
        let startCourse: Double
        var time = 0.0
        var velocity = 0.0
        var speedPulses: [RatePulse] = []
        var coursePulses: [RatePulse] = []
        static let speedRamp = 1.0
        static let turnRamp = 2.0

        init(settings: DriveSettings, startCourse: Double) {
            self.settings = settings
            self.startCourse = startCourse
        }

        func brakingTime(from v: Double) -> Double {
            v / (0.7 * settings.braking) + Self.speedRamp
        }

        mutating func changeSpeed(to target: Double, random: inout RandomSource) {
            let change = target - velocity
            guard abs(change) > 0.5 else { return }
            let limit = change > 0 ? settings.acceleration : settings.braking
            let pulse = RatePulse(start: time, total: change, rate: random.uniform(in: (0.4 * limit)...limit),
                                  ramp: Self.speedRamp)
            speedPulses.append(pulse)
            velocity = target
            time = pulse.end + 1
        }

        mutating func stop(for seconds: Double, random: inout RandomSource) {
            let pulse = RatePulse(start: time, total: -velocity, rate: 0.7 * settings.braking, ramp: Self.speedRamp)
            speedPulses.append(pulse)
            velocity = 0
            time = pulse.end + seconds
        }

        /// A curve of 20–120° (now and then a U-turn) at a lateral acceleration in the settings' range.
        mutating func turn(random: inout RandomSource) {
            let angle: Double = random.uniform() < 0.1 ? 180 : random.uniform(in: 20...120)
            let lateral = random.uniform(in: settings.lateralAcceleration)
            let rate = lateral / velocity * Angle.degreesPerRadian
            let pulse = RatePulse(start: time, total: random.sign() * angle, rate: rate, ramp: Self.turnRamp)
            coursePulses.append(pulse)
            time = pulse.end + random.uniform(in: 1...4)
        }
    }
}
