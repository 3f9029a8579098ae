import LodestoneCore

/// A person walking with the board held in front of them, as a phone is held
/// to follow a map: stands still first, then walks with steps (the hand bobs
/// and surges at the step rate and sways sideways at the stride rate, twice
/// as slow), turns now and then at corners, waits at crossings, and stands
/// still at the end. The hand also drifts slowly and trembles a little.
public struct WalkSettings: Hashable, Sendable {
    public var duration: Double
    /// m/s
    public var speed: Double
    /// Steps per second.
    public var cadence: Double
    /// How far the top of the board is raised toward the walker's eyes, degrees.
    public var holdingPitch: Double
    /// Waits at crossings, each 8–20 s.
    public var stops: Int
    /// Still at the start and at the end, s.
    public var standing: Double
    public var seed: UInt64

    public init(duration: Double = 600, speed: Double = 1.4, cadence: Double = 1.9, holdingPitch: Double = 30,
                stops: Int = 2, standing: Double = 10, seed: UInt64 = 1) {
        self.duration = duration
        self.speed = speed
        self.cadence = cadence
        self.holdingPitch = holdingPitch
        self.stops = stops
        self.standing = standing
        self.seed = seed
    }
}

extension Scenario {
    public static func walk(_ s: WalkSettings = .init()) -> Scenario {
        var random = RandomSource(seed: s.seed ^ 0x7761_6C6B)
        func wave(_ amplitude: Double, _ period: Double) -> TimeFunction.Wave {
            TimeFunction.Wave(amplitude: amplitude, period: period, phase: random.uniform(in: 0...(2 * Double.pi)))
        }
        func slow(_ amplitude: Double, _ periods: ClosedRange<Double>) -> TimeFunction.Wave {
            wave(amplitude, random.uniform(in: periods))
        }
        let plan = WalkPlan(settings: s, random: &random)
        let pace = TimeFunction.pulses(plan.speed)
        // Steps scale with the pace: none while standing.
        let gait = (1 / s.speed) * pace
        let step = 1 / s.cadence, stride = 2 / s.cadence
        let surge = gait * .waves([wave(0.12, step), wave(0.03, step / 2)])
        let bob = gait * .waves([wave(0.018, step), wave(0.003, step / 2)])
        let sway = gait * .waves([wave(0.025, stride)])
        let tremor = TimeFunction.waves([wave(0.08, 1 / 9.3), wave(0.05, 1 / 11.7)])
        let course = TimeFunction.pulses(plan.course)
        let heading = course + gait * .waves([wave(4, stride)]) + .waves([slow(3, 12...20), slow(1.5, 5...9)])
        let pitch = gait * .waves([wave(2, step)]) + .waves([slow(4, 10...16), slow(2, 4...7)]) + tremor + s.holdingPitch
        let roll = gait * .waves([wave(3, stride)]) + .waves([slow(3, 9...14), slow(1, 3...6)]) + tremor.delayed(by: 0.03)
        return Scenario(
            name: "walk",
            summary: "\(decimal(s.duration)) s walk at \(decimal(s.speed)) m/s, \(decimal(s.cadence)) steps/s, board held in front, turns and \(s.stops) wait(s)",
            duration: s.duration,
            attitude: AttitudePath(heading: heading, pitch: pitch, roll: roll),
            motion: PointMotion(speed: pace + surge, course: course, sideways: sway, height: bob))
    }
}

/// The pace and the corners of a walk as pulse trains.
struct WalkPlan {
    var speed: PulseTrain
    var course: PulseTrain

    init(settings s: WalkSettings, random: inout RandomSource) {
        let startOff = 1.0, ramp = 0.5
        var speedPulses: [RatePulse] = [RatePulse(start: s.standing, total: s.speed, rate: startOff, ramp: ramp)]
        var coursePulses: [RatePulse] = []
        let end = s.duration - s.standing - s.speed / startOff - ramp
        let stopTimes = (0..<max(0, s.stops)).map { Double($0 + 1) * end / Double(s.stops + 1) }
        var time = speedPulses[0].end + random.uniform(in: 10...30)
        var nextStop = 0
        while time < end - 10 {
            if nextStop < stopTimes.count, time >= stopTimes[nextStop] {
                nextStop += 1
                let halt = RatePulse(start: time, total: -s.speed, rate: startOff, ramp: ramp)
                let go = RatePulse(start: halt.end + random.uniform(in: 8...20), total: s.speed, rate: startOff, ramp: ramp)
                speedPulses += [halt, go]
                time = go.end + random.uniform(in: 3...10)
                continue
            }
            let corner = random.uniform()
            let angle: Double = corner < 0.15 ? 180 : (corner < 0.35 ? 45 : 90)
            let turn = RatePulse(start: time, total: random.sign() * angle * random.uniform(in: 0.85...1.1),
                                 rate: random.uniform(in: 40...80), ramp: ramp)
            coursePulses.append(turn)
            time = turn.end + random.uniform(in: 20...70)
        }
        let lastChange = speedPulses[speedPulses.count - 1].end
        speedPulses.append(RatePulse(start: max(lastChange, end - 1), total: -s.speed, rate: startOff, ramp: ramp))
        speed = PulseTrain(initial: 0, pulses: speedPulses)
        course = PulseTrain(initial: random.uniform(in: 0...360), pulses: coursePulses)
    }
}
