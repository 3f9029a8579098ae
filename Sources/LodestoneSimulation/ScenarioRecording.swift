#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Simulated sensors riding a ``Scenario``: a `SensorSource` with known truth.
///
/// The IMU (accelerometer and gyroscope) samples at `rate`; the magnetometer
/// at its own rate when ``MagnetometerModel/rate`` is set, its latest reading
/// held; a position source's speed and track at theirs. Every reading comes
/// from the scenario's analytic motion at the instant it is taken, distorted
/// as the ``SensorSuite`` says. Each sensor draws its noise from its own
/// seeded stream, so leaving the gyroscope out does not change the others.
public struct ScenarioRecording: SensorSource, Sendable {
    public let scenario: Scenario
    public let sensors: SensorSuite
    public let environment: SimulatedEnvironment
    /// IMU rate, Hz.
    public let rate: Double
    /// Whether samples carry the gyroscope's reading.
    public let includesGyroscope: Bool
    public let sampleCount: Int
    /// The truth at the last sample returned.
    public private(set) var truth: Truth

    /// What was really happening at a sample.
    public struct Truth: Hashable, Sendable {
        public var kinematics: Kinematics
        /// Position of the sensor, ENU, m, from where the scenario's course starts.
        public var position: Vector3
        /// The gyroscope's bias at this instant (turn-on bias plus its walk and its warming), rad/s.
        public var gyroscopeBias: Vector3

        /// Horizontal speed of the carrier's reference point, m/s.
        public var groundSpeed: Double {
            let v = kinematics.referenceVelocity
            return (v.x * v.x + v.y * v.y).squareRoot()
        }
    }

    private var gyroscopeNoise: RandomSource
    private var accelerometerNoise: RandomSource
    private var magnetometerNoise: RandomSource
    private var speedNoise: RandomSource
    private var index = 0
    private var field = Vector3.zero
    private var nextFieldIndex = 0
    private var speed: Double?
    private var track: Double?
    private var nextSpeedIndex = 0

    public init(scenario: Scenario, sensors: SensorSuite = .typical, environment: SimulatedEnvironment = .init(),
                rate: Double = 100, includesGyroscope: Bool = true, seed: UInt64 = 1) {
        precondition(rate > 0 && scenario.duration >= 0)
        self.scenario = scenario
        self.sensors = sensors
        self.environment = environment
        self.rate = rate
        self.includesGyroscope = includesGyroscope
        sampleCount = Int((scenario.duration * rate + 1e-9).rounded(.down)) + 1
        gyroscopeNoise = RandomSource(seed: Self.streamSeed(seed, 1))
        accelerometerNoise = RandomSource(seed: Self.streamSeed(seed, 2))
        magnetometerNoise = RandomSource(seed: Self.streamSeed(seed, 3))
        speedNoise = RandomSource(seed: Self.streamSeed(seed, 4))
        let start = scenario.kinematics(at: 0)
        let position = scenario.motion.startOffset(at: 0)
            + scenario.attitude.state(at: 0).attitude.rotate(scenario.leverArm)
        truth = Truth(kinematics: start, position: position, gyroscopeBias: sensors.gyroscope.bias)
    }

    /// Independent, well-mixed seeds for each sensor's noise from one user seed.
    static func streamSeed(_ seed: UInt64, _ stream: UInt64) -> UInt64 {
        var mixer = RandomSource(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }

    public mutating func nextSample() -> SensorSample? {
        guard index < sampleCount else { return nil }
        let t = Double(index) / rate
        let now = scenario.kinematics(at: t)
        if index > 0 { advanceTruth(to: now, at: t) }
        index += 1
        updateField(at: t, now: now)
        updateGroundSpeed(at: t)
        return SensorSample(time: t, acceleration: accelerometerReading(now),
                            magneticField: field,
                            angularRate: includesGyroscope ? gyroscopeReading(now) : nil,
                            speed: speed, track: track,
                            temperature: includesGyroscope ? sensors.gyroscope.temperature(at: t) : nil)
    }

    /// Moves the truth to `now`, at time `t`: the bias walks one step and
    /// warms by as much, and the position integrates the velocity by the
    /// trapezoid rule with its end correction (exact for cubic motion).
    private mutating func advanceTruth(to now: Kinematics, at t: Double) {
        let h = 1 / rate, before = truth.kinematics
        truth.position += (before.velocity + now.velocity) * (h / 2)
            + (before.acceleration - now.acceleration) * (h * h / 12)
        truth.kinematics = now
        let walk = sensors.gyroscope.biasRandomWalk * h.squareRoot()
        if walk > 0 {
            let (x, y, z) = gyroscopeNoise.gaussianVector(sigma: walk)
            truth.gyroscopeBias += Vector3(x, y, z)
        }
        if let warmUp = sensors.gyroscope.warmUp {
            truth.gyroscopeBias += warmUp.drift(at: t) - warmUp.drift(at: t - h)
        }
    }

    private mutating func gyroscopeReading(_ k: Kinematics) -> Vector3 {
        let model = sensors.gyroscope
        var w = k.rate
        if model.sensesEarthRotation { w += k.attitude.conjugate.rotate(environment.earthRate) }
        let (x, y, z) = gyroscopeNoise.gaussianVector(sigma: model.noiseDensity * rate.squareRoot())
        let reading = Self.rounded(Self.scaled(w, model.scaleError) + truth.gyroscopeBias + Vector3(x, y, z),
                                   model.resolution)
        guard model.range.isFinite else { return reading }
        // The largest reading is on the resolution's grid, as a register's is.
        let r = Self.rounded(Vector3(model.range, 0, 0), model.resolution).x
        return Vector3(min(r, max(-r, reading.x)), min(r, max(-r, reading.y)), min(r, max(-r, reading.z)))
    }

    private mutating func accelerometerReading(_ k: Kinematics) -> Vector3 {
        let model = sensors.accelerometer
        let f = k.specificForce(gravity: environment.gravity)
        let (x, y, z) = accelerometerNoise.gaussianVector(sigma: model.noiseDensity * rate.squareRoot())
        return Self.rounded(Self.scaled(f, model.scaleError) + model.bias + Vector3(x, y, z), model.resolution)
    }

    /// Takes the magnetometer readings due by `t` and holds the latest.
    private mutating func updateField(at t: Double, now: Kinematics) {
        guard let magnetometerRate = sensors.magnetometer.rate else {
            field = magnetometerReading(now)
            return
        }
        var latest: Double?
        while Double(nextFieldIndex) / magnetometerRate <= t + 1e-9 {
            latest = Double(nextFieldIndex) / magnetometerRate
            nextFieldIndex += 1
        }
        if let latest { field = magnetometerReading(abs(latest - t) < 1e-9 ? now : scenario.kinematics(at: latest)) }
    }

    private mutating func magnetometerReading(_ k: Kinematics) -> Vector3 {
        let model = sensors.magnetometer
        let (x, y, z) = magnetometerNoise.gaussianVector(sigma: model.noise)
        var earth = environment.field
        for c in model.roomFields { earth += c.field * c.share(at: k.time) }
        var m = model.softIron * k.attitude.conjugate.rotate(earth) + model.hardIron + Vector3(x, y, z)
        for c in model.carriedFields { m += c.field * c.share(at: k.time) }
        return Self.rounded(m, model.resolution)
    }

    /// Takes the position source's updates that arrived by `t` and holds the latest.
    private mutating func updateGroundSpeed(at t: Double) {
        guard let model = sensors.groundSpeed else { return }
        var measured: Double?
        while Double(nextSpeedIndex) / model.rate <= t + 1e-9 {
            measured = max(0, Double(nextSpeedIndex) / model.rate - model.latency)
            nextSpeedIndex += 1
        }
        guard let measured else { return }
        let v = scenario.kinematics(at: measured).referenceVelocity
        let trueSpeed = (v.x * v.x + v.y * v.y).squareRoot()
        let noisy = max(0, trueSpeed + speedNoise.gaussian() * model.speedNoise)
        let sideways = speedNoise.gaussian() * model.speedNoise / max(trueSpeed, 1e-3)
        speed = noisy
        track = trueSpeed >= model.minimumTrackSpeed
            ? Angle.normalized360((atan2(v.x, v.y) + sideways) * Angle.degreesPerRadian + environment.declination)
            : nil
    }

    private static func scaled(_ v: Vector3, _ error: Vector3) -> Vector3 {
        Vector3(v.x * (1 + error.x), v.y * (1 + error.y), v.z * (1 + error.z))
    }

    /// `v` rounded to multiples of `resolution`, by its reciprocal so that
    /// decimal resolutions give the shortest decimal numbers.
    static func rounded(_ v: Vector3, _ resolution: Double) -> Vector3 {
        guard resolution > 0 else { return v }
        let scale = (1 / resolution).rounded()
        guard abs(scale * resolution - 1) < 1e-12 else {
            return Vector3((v.x / resolution).rounded() * resolution, (v.y / resolution).rounded() * resolution,
                           (v.z / resolution).rounded() * resolution)
        }
        return Vector3((v.x * scale).rounded() / scale, (v.y * scale).rounded() / scale, (v.z * scale).rounded() / scale)
    }
}
