/// The specific force averaged in the (estimated) earth frame: gravity, once
/// the board's own acceleration has averaged out; and how much acceleration
/// there is to average out.
///
/// Hand motion reverses, so its acceleration integrates to a bounded velocity
/// and averages out over ``correlationTime``. What stays in the average is
/// the tilt error, plus what a bias error turned the estimate by while the
/// average was taken (``eastLag``, ``northLag``), plus any acceleration that
/// does not reverse that fast: a vehicle turning or braking, a boat rolling at
/// the top of a mast.
///
/// That last part is measured without trusting the tilt, from the length of
/// the average: an acceleration across gravity that the averaging left
/// lengthens it by `a²/2g` whatever the tilt, while motion that reverses
/// (walking, a hand's swing) averaged out and leaves it alone. So the
/// length's excess over gravity gives the level of sustained acceleration
/// (``accelerationLevel``). A tilt error only turns the average, so a wrong
/// tilt can never make the filter distrust the accelerometer that would
/// correct it.
struct GravityAverage: Hashable, Sendable {
    /// Averaging time, s.
    let correlationTime: Double
    /// How long an acceleration that does not reverse typically lasts, s:
    /// the averaging time of ``persistentDisagreement``.
    let persistenceTime: Double
    /// The accelerometer's error that does not average out, m/s²: the
    /// average's length may fall short of gravity's by this much (and by
    /// the noise) with no motion kept in it.
    let accelerometerError: Double

    /// The average, earth frame, m/s².
    private(set) var mean = Vector3.zero
    /// Mean square of the acceleration about the average, (m/s²)²: how hard
    /// the board is being moved right now.
    private(set) var motionVariance = 0.0
    /// Mean square of the rate of change of the acceleration (smoothed over
    /// ``smoothingTime`` so that the sensor's noise does not pass for quick
    /// motion), (m/s³)²: with ``motionVariance`` it tells how fast the motion
    /// reverses (ω² = jerk² / acceleration² for a swing).
    private(set) var jerkVariance = 0.0
    /// The smoothed acceleration, once ``hasSmoothed``; a flag, not an
    /// optional, since it is read and written every sample.
    private var smoothed = Vector3.zero
    private var hasSmoothed = false
    static let smoothingTime = 0.2
    /// Mean square of the acceleration about its ``quickTime`` mean,
    /// (m/s²)²: the share of the motion too quick to stay in the average
    /// (a machine's or an engine's vibration). Without it, the jerk seen
    /// through ``smoothingTime`` takes any vibration for a 1 Hz swing.
    private(set) var quickVariance = 0.0
    private var quick = Vector3.zero
    static let quickTime = 0.02
    /// How the average's east and north tilt depend on the gyro-bias error
    /// (body frame), s. Rows of `∫ w(t − s)·R(s) ds` over the averaging weights.
    private(set) var eastLag = Vector3.zero
    private(set) var northLag = Vector3.zero
    /// How far the average has recently disagreed with the filter's tilt, rad²
    /// (rises within a correlation time, falls over five): acceleration the
    /// average did not remove, or a tilt error. Reported, never fed back.
    private(set) var disagreement = 0.0
    /// The specific force's strength at rest, m/s²: learned at rest, and
    /// until then the strength's slow average (motion reverses).
    private(set) var restingStrength = 9.80665
    private(set) var restSeen = false
    /// Samples in the average, until it spans the correlation time: a young
    /// average is the plain mean of its samples, not the first one weighted up.
    private var samples = 0.0
    /// The weights of the last time step, kept while the step stays the same:
    /// sampled data has a fixed step, so their divisions run once, not per sample.
    private var weightsStep = 0.0
    private var averageWeight = 0.0
    private var smoothingWeight = 0.0
    private var quickWeight = 0.0
    private var quickTimeSquared = quickTime * quickTime
    private var inverseStep = Double.infinity

    init(correlationTime: Double, persistenceTime: Double, accelerometerError: Double) {
        self.correlationTime = correlationTime
        self.persistenceTime = persistenceTime
        self.accelerometerError = accelerometerError
    }

    /// Starts from the specific force's strength at the start, as if level.
    mutating func start(strength: Double, motionVariance initial: Double) {
        mean = Vector3(0, 0, strength)
        samples = 1
        eastLag = .zero
        northLag = .zero
        motionVariance = initial
        jerkVariance = 0
        quickVariance = 0
        smoothed = .zero
        hasSmoothed = false
        disagreement = 0
        unexplainedFor = 0
        persistentDisagreement = .zero
        shortfallVariance = 0
    }

    /// Adds the specific force `aE` (earth frame) at attitude `r` (body → earth).
    @inline(__always) // one call per sample, from the fusion
    mutating func add(_ aE: Vector3, rotation r: Matrix3, dt: Double) {
        samples += 1
        if dt != weightsStep {
            weightsStep = dt
            averageWeight = dt / correlationTime
            smoothingWeight = min(1, dt / Self.smoothingTime)
            let quickTime = max(Self.quickTime, 2 * dt)
            quickWeight = dt / quickTime
            quickTimeSquared = quickTime * quickTime
            inverseStep = 1 / dt
        }
        // 1/samples, the plain mean's weight, is the larger only while the average is
        // young: once samples · dt/τ is past 1 by more than rounding, it is not divided.
        let k = min(1, samples * averageWeight > 1.000001 ? averageWeight : max(averageWeight, 1 / samples))
        mean += (aE - mean) * k
        motionVariance += ((aE - mean).squaredLength - motionVariance) * k
        let previous = hasSmoothed ? smoothed : aE
        quick = hasSmoothed ? quick + (aE - quick) * quickWeight : aE
        quickVariance += ((aE - quick).squaredLength - quickVariance) * k
        let now = previous + (aE - previous) * smoothingWeight
        smoothed = now
        hasSmoothed = true
        // `(now − previous) / dt`: Vector3's division multiplies by the reciprocal.
        jerkVariance += (((now - previous) * inverseStep).squaredLength - jerkVariance) * k
        eastLag = (eastLag + r.row0 * dt) * (1 - k)
        northLag = (northLag + r.row1 * dt) * (1 - k)
    }

    /// Until a rest shows gravity's strength, follows the average's strength
    /// slowly (motion reverses); called once per correction `interval`.
    mutating func learnStrengthWhileMoving(interval: Double) {
        guard !restSeen else { return }
        restingStrength += (mean.length - restingStrength) * min(1, interval / Self.slowTime, 1 / samples)
    }

    static let slowTime = 60.0

    /// Learns the strength of gravity as this accelerometer reads it, from a
    /// rest window's mean: over `learningTime`, but a stronger window only over
    /// ``slowTime``. An acceleration a window hides (a car cruising with a
    /// gentle pull, which no sensor tells from rest once a smooth road or a
    /// low-pass filter took the vibration out) can only lengthen the specific
    /// force, by a²/2g across gravity; learnt at once, each figure such windows
    /// raised let stronger ones pass, and hid more of the sustained
    /// accelerations the average's length shows.
    mutating func learnResting(strength: Double, dt: Double, learningTime: Double) {
        let time = restSeen && strength > restingStrength ? max(learningTime, Self.slowTime) : learningTime
        restingStrength += (strength - restingStrength) * min(1, dt / time, restSeen ? 1 : 1 / 8)
        restSeen = true
    }

    /// Sustained acceleration across gravity that the average's length
    /// shows, squared, (m/s²)²: `2g` times the excess beyond what noise
    /// explains (``noiseAllowance(sampleVariance:dt:)``) and beyond the
    /// fluctuation that motion the average kept gives its length
    /// (``shortfallVariance``).
    @inline(__always) // an out-of-line call on the fusion's average copied all of it first
    func accelerationLevel(sampleVariance: Double, dt: Double) -> Double {
        let motion = (2 * shortfallVariance).squareRoot()
        let excess = mean.length - restingStrength - noiseAllowance(sampleVariance: sampleVariance, dt: dt) - motion
        return 2 * restingStrength * max(0, excess)
    }

    /// How far the average's length may depart from gravity's by noise
    /// alone, m/s²: five standard deviations of what the accelerometer's
    /// noise (`sampleVariance`, per axis and sample) leaves in an average
    /// of samples `dt` apart.
    @inline(__always) // an out-of-line call on the fusion's average copied all of it first
    func noiseAllowance(sampleVariance: Double, dt: Double) -> Double {
        5 * (sampleVariance * min(1, dt / (2 * correlationTime))).squareRoot()
    }

    /// Mean square of how far the average has recently fallen short of
    /// gravity's strength beyond what the accelerometer's noise and error
    /// explain, (m/s²)² (rises within a correlation time, falls over five).
    /// An acceleration across gravity only lengthens the average, so a
    /// shortfall is motion the average kept (a hand moving the board to and
    /// fro), and that motion lengthens it as often and as far: an excess
    /// within it shows no sustained acceleration.
    private(set) var shortfallVariance = 0.0

    /// The disagreement averaged over `persistenceTime`, rad (east, north,
    /// 0): hand motion flips it, a vehicle's turn holds it.
    private(set) var persistentDisagreement = Vector3.zero

    /// How long the average has contradicted the filter beyond its gate with no
    /// acceleration to explain it, s.
    private(set) var unexplainedFor = 0.0

    /// Counts the time the disagreement stays unexplained; returns it.
    mutating func unexplained(_ now: Bool, dt: Double) -> Double {
        unexplainedFor = now ? unexplainedFor + dt : 0
        return unexplainedFor
    }

    /// The filter gave way to gravity: the count starts again.
    mutating func gaveWay() {
        unexplainedFor = 0
    }

    /// Records the average's disagreement with the filter (innovations about
    /// east and north, rad), and how far its length falls short of gravity's
    /// by more than noise (`sampleVariance` per axis and sample, `sampleStep`
    /// apart) and ``accelerometerError`` explain.
    mutating func observe(east: Double, north: Double, dt: Double, sampleVariance: Double, sampleStep: Double) {
        let lengthTolerance = noiseAllowance(sampleVariance: sampleVariance, dt: sampleStep) + accelerometerError
        let now = 0.5 * (east * east + north * north)
        let time = now > disagreement ? correlationTime : 5 * correlationTime
        disagreement += (now - disagreement) * min(1, dt / time)
        let shortfall = min(0, mean.length - restingStrength + lengthTolerance)
        let shortfallNow = shortfall * shortfall
        let shortfallTime = shortfallNow > shortfallVariance ? correlationTime : 5 * correlationTime
        shortfallVariance += (shortfallNow - shortfallVariance) * min(1, dt / shortfallTime)
        persistentDisagreement += (Vector3(east, north, 0) - persistentDisagreement) * min(1, dt / persistenceTime)
    }

    /// The tilt, rad², that a sustained acceleration across gravity would
    /// give the average if it were the cause of the length's excess: an
    /// acceleration `a` tilts it by `a/g` and lengthens it by `g·θ²/2`.
    @inline(__always) // an out-of-line call on the fusion's average copied all of it first
    func explainableTilt(sampleVariance: Double, dt: Double) -> Double {
        accelerationLevel(sampleVariance: sampleVariance, dt: dt) / (restingStrength * restingStrength)
    }

    /// The variance of the acceleration left in the average, (m/s²)²: a swing
    /// at ω averaged over τ keeps 1/(1 + ω²τ²) of its variance. A hand's quick
    /// swings average away; a boat's slow roll and a vehicle's long turn do not.
    /// The average follows a slow swing, so ``motionVariance``, taken about
    /// it, holds only the ω²τ²/(1 + ω²τ²) it does not follow: what stays is
    /// that over ω²τ². Vibration (``quickVariance``) is quicker than
    /// ``quickTime`` (or two samples, if longer) and keeps at most
    /// (quickTime/τ)² of its share.
    @inline(__always) // an out-of-line call on the fusion's average copied all of it first
    var residualMotionVariance: Double {
        let slower = motionVariance - quickVariance
        let tau2 = correlationTime * correlationTime
        let vibration = min(quickVariance, motionVariance) * quickTimeSquared / tau2
        guard slower > 0, jerkVariance > 0 else { return max(0, slower) + vibration }
        let omega2 = jerkVariance / slower
        return slower / (omega2 * tau2) + vibration
    }

    /// The tilt the average shows, rad, about east and north.
    @inline(__always) // an out-of-line call on the fusion's average copied all of it first
    var tilt: (east: Double, north: Double) {
        let n = mean.length
        return (mean.y / n, -mean.x / n)
    }

    /// The estimate was corrected by `angle` (earth frame) and the bias by
    /// `bias`: the average, taken along the old estimate, turns with it.
    mutating func corrected(angle: Vector3, bias: Vector3) {
        let lag = Vector3(eastLag.dot(bias), northLag.dot(bias), 0)
        mean += (angle + lag).cross(mean)
    }
}
