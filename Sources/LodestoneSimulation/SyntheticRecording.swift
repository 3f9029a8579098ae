import LodestoneCore

/// Simulated sensors following a ``MotionProfile``: a `SensorSource` with known truth.
///
/// Readings are the truth field and specific force rotated into the body
/// frame, distorted by the ``SensorErrorModel`` and a seeded noise source.
/// The gyroscope reads the true body rate at the sample's instant (exact,
/// from the profile's ``MotionProfile/attitudePath``), plus bias and noise.
/// For translation, sensor rates and bias walks, see ``ScenarioRecording``.
public struct SyntheticRecording: SensorSource, Sendable {
    public let profile: MotionProfile
    public let environment: SimulatedEnvironment
    public let errors: SensorErrorModel
    public let rate: Double
    public let includesGyroscope: Bool
    /// Horizontal linear acceleration amplitude (m/s²) and frequency (Hz), added to the specific force.
    public var vibration: (amplitude: Double, frequency: Double)?
    /// Fields carried with the board for a while (µT, body frame, added to the
    /// magnetometer's reading): a magnet attached from `start` to `end`, or a
    /// hard iron that changed at `start` for good (`end` infinite).
    public var carriedFields: [CarriedField] = []

    /// A field fixed in the room for a while (µT, earth frame, east-north-up,
    /// added to the earth field): a motor switched on beside the board.
    public typealias RoomField = CarriedField

    public struct CarriedField: Hashable, Sendable {
        public var start: Double
        public var end: Double
        public var field: Vector3
        /// After `end`, the field fades linearly to nothing over this many
        /// seconds (a board carried away from a motor); 0 ends it in one step.
        public var fade: Double
        /// From `start`, the field grows linearly to its full size over this
        /// many seconds (a hard iron drifting as the board warms, a current
        /// drawn more and more); 0 brings it in one step.
        public var rise: Double

        public init(start: Double, end: Double = .infinity, field: Vector3, fade: Double = 0, rise: Double = 0) {
            self.start = start
            self.end = end
            self.field = field
            self.fade = fade
            self.rise = rise
        }

        /// The share of the field there at time `t`: growing over `rise` from
        /// `start`, then all of it until `end`, then less and less over `fade`.
        public func share(at t: Double) -> Double {
            guard t >= start else { return 0 }
            let risen = rise > 0 ? min(1, (min(t, end) - start) / rise) : 1
            if t < end { return risen }
            return fade > 0 ? risen * max(0, 1 - (t - end) / fade) : 0
        }
    }

    private var random: RandomSource
    private var index = 0
    private let count: Int
    private let path: AttitudePath
    /// The truth attitude of the last sample returned.
    public private(set) var truth: Quaternion = .identity

    public init(profile: MotionProfile, rate: Double = 100, environment: SimulatedEnvironment = .init(),
                errors: SensorErrorModel = .noiseless, includesGyroscope: Bool = false, seed: UInt64 = 1) {
        self.profile = profile
        self.rate = rate
        self.environment = environment
        self.errors = errors
        self.includesGyroscope = includesGyroscope
        random = RandomSource(seed: seed)
        path = profile.attitudePath
        count = Int((profile.duration * rate).rounded(.down)) + 1
    }

    public var sampleCount: Int { count }

    public mutating func nextSample() -> SensorSample? {
        guard index < count else { return nil }
        let t = Double(index) / rate
        index += 1
        let q = profile.attitude(at: t)
        truth = q
        let toBody = q.conjugate
        var force = environment.specificForce
        if let v = vibration {
            let s = v.amplitude * sine(2 * Double.pi * v.frequency * t)
            force += Vector3(s, 0.6 * s, 0)
        }
        let (ax, ay, az) = random.gaussianVector(sigma: errors.accelerometerNoise)
        let acceleration = toBody.rotate(force) + Vector3(ax, ay, az)
        let (mx, my, mz) = random.gaussianVector(sigma: errors.magnetometerNoise)
        var field = errors.softIron * toBody.rotate(environment.field) + errors.hardIron + Vector3(mx, my, mz)
        for c in carriedFields { field += c.field * c.share(at: t) }
        var rate: Vector3?
        if includesGyroscope {
            let (gx, gy, gz) = random.gaussianVector(sigma: errors.gyroscopeNoise)
            rate = path.state(at: t).rate + errors.gyroscopeBias + Vector3(gx, gy, gz)
        }
        return SensorSample(time: t, acceleration: acceleration, magneticField: field, angularRate: rate)
    }
}
