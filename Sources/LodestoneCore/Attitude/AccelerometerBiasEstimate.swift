/// An accelerometer's zero-g offset, learned from how gravity turns in the
/// body as the board is turned over, so that a part left uncalibrated does
/// not tilt the estimate.
///
/// A body-fixed offset b reads as a tilt of |b|/g: 0.3 m/s², a third of a
/// MEMS part's tolerance, is 1.8°, and the heading pays that times tan(dip)
/// wherever the tilt errs about north. At one attitude nothing tells the
/// offset from a tilt; attitudes the gyro links do. In a frame only the gyro
/// carries, gravity stands still but for the frame's drift, while the offset
/// turns with the board: each calm block's mean specific force, turned into
/// that frame, is `g + Ḡ·b` (Ḡ the block's mean body → frame rotation) plus
/// what the motion did not average away. A Kalman filter of six states takes
/// the blocks in: g, a random walk as far as the gyro's bias and rate error
/// let the frame drift, and b.
///
/// The offset is taken out of the readings only once the board has been
/// turned over widely (``Settings/leastTurnedShare``), and then once it
/// stands ``Settings/adoptAt`` standard deviations from zero (no longer once
/// it falls within ``Settings/releaseAt``). A boat's roll felt up its mast
/// and a car's acceleration in its curves are in step with the attitude, as
/// a body-fixed offset is, and a boat rolls ±20°, a car turns about up only:
/// over so narrow a range of attitudes the offset turns the reading by little
/// more than that motion, and the two are not told apart. A board turned
/// over by a hand, as for a six-position calibration, is.
///
/// The blocks' noise is learned from the innovations, and counted once per
/// block-to-block correlation, so that a slow motion (a swell, a walker)
/// that keeps many blocks alike teaches no more than it shows.
///
/// Fed once per correction, so its cost does not grow with the sample rate.
public struct AccelerometerBiasEstimate: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// How long each block gathers, s.
        public var blockTime = 1.0
        /// The offset's prior spread per axis, m/s²: a MEMS part's zero-g tolerance.
        public var priorSpread = 1.0
        /// What a block's mean holds beyond its within-block scatter at
        /// least, m/s² per axis (motion slower than a block).
        public var blockNoise = 0.05
        /// A block teaches only when the rate's RMS (rad/s), the angular
        /// acceleration's (rad/s²) and the specific force's scatter per axis
        /// (m/s²) are within these: beyond them a hand's lever arm and a
        /// shaking's acceleration dwarf any offset.
        public var calmRate = 1.0
        public var calmAngularAcceleration = 5.0
        public var calmScatter = 3.0
        /// The longest lever arm assumed between the board and the point it
        /// turns about, m: its accelerations count as noise.
        public var leverArm = 0.3
        /// Over how long the frame's drift (a ramp at the gyro bias's error)
        /// is taken as a random walk of the same reach, s.
        public var driftTime = 30.0
        /// How fast the offset may wander, m/s²/√s: a part's offset moves
        /// with its temperature (0.05 m/s² over a warming), or in a knock.
        public var offsetWalk = 0.009
        /// Blocks whose innovation lies beyond this many standard deviations
        /// are a sustained acceleration, not the offset.
        public var gate = 4.0
        /// How many blocks the learned noise averages.
        public var noiseMemory = 30.0
        /// How widely the board must have been turned over: the second
        /// smallest eigenvalue of the mean u·uᵀ of the teaching blocks' up in
        /// the body (0 at one attitude, 1/3 over the whole sphere; a cone of
        /// half-angle θ gives about sin²θ/2, so 0.125 is about 30°).
        public var leastTurnedShare = 0.125
        public var adoptAt = 4.0
        public var releaseAt = 2.0
        public init() {}
    }

    public let settings: Settings
    /// The offset taken out of the readings, m/s², body frame.
    public private(set) var bias = Vector3.zero
    /// The estimate, m/s², body frame, whether taken out or not.
    public private(set) var estimate = Vector3.zero

    /// Body → frame, carried by the gyro with the bias it had at the block's start.
    private var frame = Quaternion.identity
    private var heldBias: Vector3?
    private var lastRate: Vector3?
    private var block = Block()
    /// Gravity in the frame, m/s², and the covariance in blocks: of g, of g
    /// with b (rows g, columns b), of b.
    private var gravity = Vector3.zero
    private var gravityCovariance = Matrix3.zero
    private var crossCovariance = Matrix3.zero
    private var biasCovariance: Matrix3
    private var hasGravity = false
    private var hasTurnedOver = false
    /// The share of calm blocks the gate refused, over the last ``Settings/noiseMemory`` or so.
    private var refused = 0.0
    private var noise = BlockNoise()
    /// Σ u·uᵀ of the teaching blocks' up in the body, and how many.
    private var directions = Matrix3.zero
    private var directionCount = 0.0

    private struct Block: Hashable, Sendable {
        var force = Vector3.zero
        var forceSquares = 0.0
        var rotation = Matrix3.zero
        var rateSquares = 0.0
        var accelerationSquares = 0.0
        var time = 0.0
        var count = 0.0
    }

    /// The innovations' mean square beyond what the states explain, (m/s²)²
    /// per axis, and their correlation from one block to the next.
    private struct BlockNoise: Hashable, Sendable {
        var unexplained = 0.0
        var squares = 0.0
        var products = 0.0
        var last: Vector3?
        var blocks = 0.0

        mutating func add(_ innovation: Vector3, explained: Double, memory: Double) {
            let k = 1 / (blocks + 1)
            unexplained += (max(0, innovation.squaredLength / 3 - explained) - unexplained) * k
            squares += (innovation.squaredLength - squares) * k
            if let last { products += (innovation.dot(last) - products) * k }
            last = innovation
            blocks = min(blocks + 1, memory)
        }

        /// n blocks correlated by ρ tell what n·(1 − ρ)/(1 + ρ) independent ones would.
        func variance(modelled: Double) -> Double {
            let rho = min(0.9, max(0, products / max(squares, .leastNormalMagnitude)))
            return max(modelled, unexplained) * (1 + rho) / (1 - rho)
        }
    }

    public init(settings: Settings = Settings()) {
        self.settings = settings
        biasCovariance = Matrix3.identity * (settings.priorSpread * settings.priorSpread)
    }

    /// The gyro's frame is lost (the estimate started again, or a clipped
    /// gyro missed some of a turn): gravity in it is unknown; the offset is kept.
    mutating func restarted() {
        frame = .identity
        block = Block()
        lastRate = nil
        hasGravity = false
    }

    private mutating func learnAgain() {
        restarted()
        biasCovariance = Matrix3.identity * (settings.priorSpread * settings.priorSpread)
        noise = BlockNoise()
        refused = 0
    }

    /// One correction interval: its mean specific force as read (m/s², body,
    /// the offset not taken out), the rotation the gyro made over it (rad,
    /// body, with the estimate's bias), the estimate's gyro bias (rad/s) and
    /// its variance across up ((rad/s)²), the mean rate (rad/s), the interval
    /// (s), and the gyro's rate error (rad² per rad turned).
    mutating func observe(specificForce f: Vector3, turn: Vector3, gyroBias: Vector3, gyroBiasVariance: Double,
                          rate: Vector3, interval: Double, rateErrorVariance: Double) {
        let step = turn + (gyroBias - (heldBias ?? gyroBias)) * interval
        frame = frame * AttitudeFusion.rotation(step)
        let g = frame.rotationMatrix
        let force = g * f
        let angularAcceleration = lastRate.map { (rate - $0) * (1 / interval) } ?? .zero
        lastRate = rate
        block.force += force * interval
        block.forceSquares += force.squaredLength * interval
        block.rotation = block.rotation + g * interval
        block.rateSquares += rate.squaredLength * interval
        block.accelerationSquares += angularAcceleration.squaredLength * interval
        block.time += interval
        block.count += 1
        if hasGravity { drift(over: interval, turned: step.length, gyroBiasVariance: gyroBiasVariance,
                              rateErrorVariance: rateErrorVariance) }
        guard block.time >= settings.blockTime else { return }
        closeBlock()
        frame = frame.normalized
        heldBias = gyroBias
        block = Block()
    }

    private mutating func closeBlock() {
        let t = block.time, mean = block.force * (1 / t), rotation = block.rotation * (1 / t)
        let scatter = max(0, block.forceSquares / t - mean.squaredLength) / 3
        let rate2 = block.rateSquares / t, alpha2 = block.accelerationSquares / t
        guard rate2 <= settings.calmRate * settings.calmRate,
              alpha2 <= settings.calmAngularAcceleration * settings.calmAngularAcceleration,
              scatter <= settings.calmScatter * settings.calmScatter else { return }
        guard hasGravity else {
            startGravity(at: mean - rotation * estimate)
            return
        }
        let arm2 = settings.leverArm * settings.leverArm
        let modelled = scatter / max(1, block.count) + settings.blockNoise * settings.blockNoise
            + (rate2 * rate2 + alpha2 / max(1, block.count)) * arm2
        let taken = update(measured: mean, rotation: rotation, modelledNoise: modelled)
        // Most calm blocks refused: the frame no longer holds gravity still
        // (a turn the gyro did not see), or the offset moved (a knock): both
        // are learned again.
        refused += ((taken ? 0 : 1) - refused) / settings.noiseMemory
        if refused > 0.5 { learnAgain() }
        guard taken else { return }
        let up = rotation.transposedTimes(mean).normalized
        directions = directions + Matrix3.outer(up, up)
        directionCount += 1
        reviewBias()
    }

    /// Gravity in the frame as first seen; the offset and what is known of it kept.
    private mutating func startGravity(at g: Vector3) {
        gravity = g
        gravityCovariance = Matrix3.identity * (settings.priorSpread * settings.priorSpread)
        crossCovariance = Matrix3.zero
        hasGravity = true
    }

    /// The frame drifts as far as the gyro's bias is unknown (a ramp, taken
    /// as a random walk of the same reach over ``Settings/driftTime``) and
    /// turns with its rate error by a share of what it turned.
    private mutating func drift(over t: Double, turned: Double, gyroBiasVariance: Double, rateErrorVariance: Double) {
        let growth = gravity.squaredLength * (gyroBiasVariance * settings.driftTime * t + rateErrorVariance * turned)
        gravityCovariance = gravityCovariance + Matrix3.identity * growth
        let wander = settings.offsetWalk * settings.offsetWalk * t
        biasCovariance = biasCovariance + Matrix3.identity * wander
    }

    /// The Kalman update of `y = g + Ḡ·b`, H = [I | Ḡ]; false where the
    /// block lay beyond the gate.
    private mutating func update(measured y: Vector3, rotation m: Matrix3, modelledNoise: Double) -> Bool {
        let mT = m.transposed
        let a = gravityCovariance + crossCovariance * mT                  // P·Hᵀ, the g rows
        let b = crossCovariance.transposed + biasCovariance * mT          // P·Hᵀ, the b rows
        let explained = a + m * b                                          // H·P·Hᵀ
        let innovation = y - (gravity + m * estimate)
        let r = noise.variance(modelled: modelledNoise)
        guard let sInverse = (explained + Matrix3.identity * r).inverse,
              innovation.dot(sInverse * innovation) <= settings.gate * settings.gate else { return false }
        // Learned from the blocks taken only: a turn the gyro did not see
        // must not teach that every block is that far off.
        noise.add(innovation, explained: explained.trace / 3, memory: settings.noiseMemory)
        let gainG = a * sInverse, gainB = b * sInverse
        gravity += gainG * innovation
        estimate += gainB * innovation
        // P − K·S·Kᵀ, block by block: K·S·Kᵀ = P·Hᵀ·S⁻¹·H·P.
        gravityCovariance = Self.symmetric(gravityCovariance - gainG * a.transposed)
        crossCovariance = crossCovariance - gainG * b.transposed
        biasCovariance = Self.symmetric(biasCovariance - gainB * b.transposed)
        return true
    }

    /// How many eigenvalues of the symmetric `m` lie below `t`: the negative
    /// pivots of m − t·I (Sylvester's law of inertia), the sign changes of
    /// its leading principal minors.
    static func eigenvalues(of m: Matrix3, below t: Double) -> Int {
        let a = m - Matrix3.identity * t
        let minors = [1, a.row0.x, a.row0.x * a.row1.y - a.row0.y * a.row1.x, a.determinant]
        return (1..<4).filter { minors[$0] * minors[$0 - 1] <= 0 }.count
    }

    private static func symmetric(_ m: Matrix3) -> Matrix3 { (m + m.transposed) * 0.5 }

    /// Takes the offset out once it stands clear of zero and the board has
    /// turned over, and no longer once it does not stand clear.
    private mutating func reviewBias() {
        guard let information = biasCovariance.inverse else { return }
        let standing = estimate.dot(information * estimate)
        let clear = standing >= settings.adoptAt * settings.adoptAt
            || (bias != .zero && standing >= settings.releaseAt * settings.releaseAt)
        hasTurnedOver = hasTurnedOver || (clear
            && Self.eigenvalues(of: directions * (1 / directionCount), below: settings.leastTurnedShare) <= 1)
        bias = clear && hasTurnedOver ? estimate : .zero
    }
}
