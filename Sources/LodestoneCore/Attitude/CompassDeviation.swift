#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The compass's deviation as a function of heading, learned the way a ship's
/// compass is swung: by turning through every heading and noting how far the
/// compass reads from a reference.
///
/// A calibration leaves a small hard and soft iron. For a board turning about
/// a steady up axis, the error they make is a function of the heading ψ, to
/// first order `B sin ψ + C cos ψ + D sin 2ψ + E cos 2ψ` (the constant term
/// cannot be told from the heading itself). The filter's own compass-error
/// state is a process that decorrelates with every 45° turned, so it can only
/// follow this error, not average it; on a board turning round and round it
/// reads the deviation as heading.
///
/// Here the reference is the raw gyro: the compass's heading less the
/// gyro-carried one (the filter's heading less every correction it applied
/// and the bias it took out, since the bias estimate itself follows the
/// compass) is `c + B sin ψ + …`. `c`, the gyro heading's unknown offset,
/// drifts at the gyro's bias about up `β`, by `s` times each turn about up
/// (its scale error), by `k` times the time integral of the part's
/// temperature's rise (its bias's temperature slope, where the samples carry a
/// temperature: a warming part's bias ramps, and a ramp's heading drift is
/// quadratic in time, which over part of a turn the harmonics would take), and
/// by its white noise. A steady turn drifts `c` by `β` and by `s` alike; a
/// still board's gyro reads `β` alone (``observeStill(rate:variance:bodyUp:)``),
/// and the fusion takes `s` out of the gyro (``scaleAboutUp(bodyUp:)``).
/// A Kalman filter estimates `c`, `β`, `s`, `k` and the
/// four coefficients from readings averaged over short arcs:
/// their own noise averages out, what they share (the tilt's error) counts
/// once per ``averagingTime``. Over part of a circle the harmonics cannot be
/// told from `c` and `β`, and their variances stay near the prior. Once the
/// board has turned through every heading, every one of them is known to a
/// tenth of its prior, and together they differ from none beyond what their
/// uncertainty explains (at 99 %), the table is trusted, and stays so: the
/// compass heading is corrected by it, and what it leaves is the filter's
/// compass-error state's to follow, as before. Five
/// readings in a row that it does not explain start it again.
///
/// The table holds for one up axis in the body: it learns and corrects only
/// while the board's up stays within ``levelTolerance`` of the one it was
/// learned at (a board on a vehicle, a boat, a turntable). A table not yet
/// trusted starts again at a new up; a trusted one is kept until the board
/// has been away from its up for ``lifetime``.
public struct CompassDeviation: Sendable {
    /// How far the body's up may lean from the table's, rad.
    public let levelTolerance: Double
    /// The longest time readings are averaged over, s: the compass's
    /// correlation time, so that an average counts as one reading.
    public let averagingTime: Double
    /// The largest turn readings are averaged over, rad, so that the
    /// harmonics are not averaged away in a fast turn.
    public let averagingTurn: Double
    /// How long a trusted table outlives the board's leaving its up, s, and
    /// how fast its coefficients may change otherwise (their variance grows
    /// by the prior's over this time).
    public let lifetime: Double
    /// How far the bias may move per kelvin, rad/s (1σ): the slope's prior.
    /// Its variance grows by the prior over ``TemperatureBiasDrift/slopeSpan``.
    public let temperatureCoefficient: Double

    /// The state: the gyro heading's offset (rad), its drift (rad/s), its
    /// scale error, then B, C, D, E (rad), and the bias's temperature slope (rad/s/K).
    private var state = [Double](repeating: 0, count: n)
    private var covariance = [Double](repeating: 0, count: n * n)
    private static let n = 8
    private static let firstHarmonic = 3
    private static let lastHarmonic = 6
    private static let slope = 7
    private var harmonicPrior = 0.0
    /// The body's up the table is learned at; nil before the first reading.
    private var up: Vector3?
    private let cosLevelTolerance: Double
    private let cosAveragingTurn: Double
    private var lastUpdate = 0.0
    private var awaySince: Double?
    private var block = Block()
    /// Heading corrections the filter applied since the start, rad.
    private var appliedCorrection = 0.0
    /// Growth of the gyro heading's white variance (rad²), and the turn
    /// about up (rad), since the last update.
    private var pendingHeadingNoise = 0.0
    private var pendingTurn = 0.0
    /// The net turn about up since the table started, and the least and the
    /// most it reached, rad: before every heading was seen, a drift of the
    /// gyro's heading that is not steady (a bias that moves) can pass for a
    /// deviation.
    private var netTurn = 0.0
    private var netTurnRange = (lowest: 0.0, highest: 0.0)
    /// The time integral of the temperature's rise since the table started
    /// (K·s), and the temperature at the start and at the last update, °C.
    private var pendingWarming = 0.0
    private var startTemperature: Double?
    private var updatedTemperature: Double?
    private var temperature: Double?
    /// Readings in a row the table did not explain.
    private var surprises = 0
    /// Whether every harmonic is known to a tenth of its prior, and the table found a deviation.
    public private(set) var isTrusted = false

    /// Readings averaged since the last update.
    private struct Block: Sendable {
        var count = 0.0
        var difference = 0.0
        var harmonics = (0.0, 0.0, 0.0, 0.0)
        var own = 0.0
        var shared = 0.0
        var time = 0.0
        /// The turn since the last update, summed over the readings, rad.
        var turn = 0.0
        /// The warming integral since the last update, summed over the readings, K·s.
        var warming = 0.0
        var start = 0.0
        var last = 0.0
        var startHeading = (sin: 0.0, cos: 1.0)
    }

    public init(levelTolerance: Double, averagingTime: Double, averagingTurn: Double, lifetime: Double,
                temperatureCoefficient: Double = 0) {
        self.levelTolerance = levelTolerance
        self.averagingTime = averagingTime
        self.averagingTurn = averagingTurn
        self.lifetime = lifetime
        self.temperatureCoefficient = temperatureCoefficient
        cosLevelTolerance = cos(levelTolerance)
        cosAveragingTurn = cos(averagingTurn)
    }

    /// The filter turned its heading by `angle` (rad, about up).
    public mutating func corrected(by angle: Double) {
        appliedCorrection += angle
    }

    /// The gyro's scale error about the table's up as the compass shows it
    /// (`−0.01`: the gyro turns 1 % too far), and that up in the body; nil
    /// before the table has begun or while the board is away from its up.
    public func scaleAboutUp(bodyUp: Vector3) -> (scale: Double, up: Vector3)? {
        guard harmonicPrior > 0, let u = up, isAtItsUp(bodyUp) else { return nil }
        return (state[2], u)
    }

    /// A still board's gyro read `rate` about up (rad/s, the Earth's rate in
    /// it; variance `variance`): the gyro heading's drift alone. A steady
    /// turn's readings cannot tell that drift from the scale error times the
    /// turn's rate; one still moment before or after the turn can.
    public mutating func observeStill(rate: Double, variance: Double, bodyUp: Vector3) {
        guard harmonicPrior > 0, isAtItsUp(bodyUp), rate.isFinite, variance > 0 else { return }
        var h = InlineArray<8, Double>(repeating: 0)
        h[1] = 1
        // A drift the turn's readings had taken for scale contradicts the state: that is what it corrects.
        update(h: h, z: -rate, noise: variance, countsSurprise: false)
    }

    /// The board turned by `turn` about up (rad), and the gyro heading's
    /// white variance grew by `heading` (rad²), over `interval` s at the
    /// part's `temperature` (°C, averaged; nil when the samples carry none).
    /// The bias is taken as constant but for its temperature slope: with the
    /// walk the filter assumes for it, the offset could wander as far as the
    /// deviation in half a turn, and no table would be learned.
    public mutating func grew(turn: Double, heading: Double, interval: Double = 0, temperature: Double? = nil) {
        pendingTurn += turn
        pendingHeadingNoise += heading
        netTurn += turn
        netTurnRange = (min(netTurnRange.lowest, netTurn), max(netTurnRange.highest, netTurn))
        guard let temperature, temperature.isFinite else { return }
        let start = startTemperature ?? temperature
        startTemperature = start
        self.temperature = temperature
        pendingWarming += (temperature - start) * interval
    }

    /// Whether the board's up `bodyUp` is within ``levelTolerance`` of the table's.
    @inline(__always)
    private func isAtItsUp(_ bodyUp: Vector3) -> Bool {
        guard let u = up else { return false }
        return u.dot(bodyUp) >= cosLevelTolerance
    }

    /// The deviation to take from the compass heading at heading `heading`
    /// (sin, cos) with the body's up `bodyUp` (unit), rad; nil while the
    /// table is not trusted or the board is not at its up.
    @inline(__always) // out of line, the whole table was copied to call it
    public func deviation(heading: (sin: Double, cos: Double), bodyUp: Vector3) -> Double? {
        guard isTrusted, isAtItsUp(bodyUp) else { return nil }
        let h = Self.harmonics(heading), k = Self.firstHarmonic
        return h.0 * state[k] + h.1 * state[k + 1] + h.2 * state[k + 2] + h.3 * state[k + 3]
    }

    /// One clean compass reading: the compass's heading less the filter's
    /// (rad), its variance (rad²) from noise each reading has of its own (the
    /// magnetometer's), and from errors readings share over
    /// ``averagingTime`` (the tilt's, a disturbance's), the board's heading
    /// (sin, cos), its up in the body (unit), the time (s), and the priors
    /// to start from: the deviation's mean square (rad²), the drift's
    /// (rad²/s²) and the scale error's.
    public mutating func observe(difference: Double, ownVariance: Double, sharedVariance: Double,
                                 heading: (sin: Double, cos: Double),
                                 bodyUp: Vector3, time: Double, prior: Double, driftPrior: Double, scalePrior: Double) {
        guard difference.isFinite, ownVariance.isFinite, sharedVariance.isFinite else { return }
        guard atItsUp(bodyUp, time: time) else { return }
        if harmonicPrior == 0 { start(prior: prior, driftPrior: driftPrior, scalePrior: scalePrior, time: time) }
        add(difference: difference + appliedCorrection, own: ownVariance, shared: sharedVariance, heading: heading,
            time: time)
        let turnedCos = heading.cos * block.startHeading.cos + heading.sin * block.startHeading.sin
        if time - block.start >= averagingTime || turnedCos < cosAveragingTurn { fuseBlock() }
    }

    /// The filter's heading started again, not by a correction it applied:
    /// the gyro heading's offset is unknown again; the table is kept.
    public mutating func lostHeading() {
        guard harmonicPrior > 0 else { return }
        for i in 0..<Self.n {
            covariance[i] = 0
            covariance[i * Self.n] = 0
        }
        covariance[0] = Self.unknownOffsetVariance
        block = Block()
    }

    /// Forgets the table (the field, or the calibration, changed).
    public mutating func reset() {
        self = CompassDeviation(levelTolerance: levelTolerance, averagingTime: averagingTime,
                                averagingTurn: averagingTurn, lifetime: lifetime,
                                temperatureCoefficient: temperatureCoefficient)
    }

    /// Forgets the table and starts a new one at `bodyUp`.
    private mutating func restart(at bodyUp: Vector3?) {
        reset()
        up = bodyUp
    }

    /// The squared innovation, in its variances, beyond which a reading surprises the table.
    private static let gate = 9.0

    /// The gyro heading's offset from the compass's before any reading, rad²: unknown.
    private static let unknownOffsetVariance = 1e6

    /// Whether the body's up is the table's; starts a new table at a new up
    /// unless a trusted one is still within its lifetime.
    private mutating func atItsUp(_ bodyUp: Vector3, time: Double) -> Bool {
        guard let u = up else {
            up = bodyUp
            return true
        }
        if u.dot(bodyUp) >= cosLevelTolerance {
            awaySince = nil
            return true
        }
        block = Block()
        let away = awaySince ?? time
        awaySince = away
        if !isTrusted || time - away > lifetime { restart(at: bodyUp) }
        return false
    }

    private mutating func start(prior: Double, driftPrior: Double, scalePrior: Double, time: Double) {
        let n = Self.n
        harmonicPrior = prior / 2
        covariance = [Double](repeating: 0, count: n * n)
        covariance[0] = Self.unknownOffsetVariance
        covariance[n + 1] = driftPrior
        covariance[2 * n + 2] = scalePrior
        for i in Self.firstHarmonic...Self.lastHarmonic { covariance[i * n + i] = harmonicPrior }
        covariance[Self.slope * n + Self.slope] = temperatureCoefficient * temperatureCoefficient
        lastUpdate = time
        pendingHeadingNoise = 0
        pendingTurn = 0
        netTurn = 0
        netTurnRange = (0, 0)
        // The offset counts the warming from here.
        startTemperature = temperature
        updatedTemperature = temperature
        pendingWarming = 0
    }

    private mutating func add(difference: Double, own: Double, shared: Double, heading: (sin: Double, cos: Double),
                              time: Double) {
        if block.count == 0 {
            block.start = time
            block.startHeading = heading
        }
        let h = Self.harmonics(heading)
        block.count += 1
        block.difference += difference
        block.harmonics = (block.harmonics.0 + h.0, block.harmonics.1 + h.1, block.harmonics.2 + h.2, block.harmonics.3 + h.3)
        block.own += own
        block.shared += shared
        block.time += time
        block.turn += pendingTurn
        block.warming += pendingWarming
        block.last = time
    }

    /// Updates the state with the block's mean: the readings' own noise
    /// averages over them, the shared errors only once per ``averagingTime``.
    private mutating func fuseBlock() {
        let n = block.count
        guard n > 0 else { return }
        let duration = block.last - block.start
        let noise = block.own / (n * n) + block.shared / n * max(1, averagingTime / max(duration, 1e-9))
        let b = block.harmonics
        let h: InlineArray<8, Double> = [1, 0, 0, b.0 / n, b.1 / n, b.2 / n, b.3 / n, 0]
        // The mean is the readings' at their mean time, turn and warming.
        predict(to: block.time / n, turn: block.turn / n, warming: block.warming / n)
        update(h: h, z: block.difference / n, noise: noise)
        block = Block()
    }

    private mutating func predict(to time: Double, turn: Double, warming: Double) {
        let n = Self.n, dt = max(0, time - lastUpdate), k = Self.slope
        lastUpdate = time
        pendingTurn -= turn
        pendingWarming -= warming
        // c' = c + β·dt + s·turn + k·warming: P ← F P Fᵀ.
        state[0] += state[1] * dt + state[2] * turn + state[k] * warming
        for j in 0..<n {
            covariance[j] += dt * covariance[n + j] + turn * covariance[2 * n + j]
                + warming * covariance[k * n + j]
        }
        for i in 0..<n {
            covariance[i * n] += dt * covariance[i * n + 1] + turn * covariance[i * n + 2]
                + warming * covariance[i * n + k]
        }
        covariance[0] += pendingHeadingNoise
        pendingHeadingNoise = 0
        for i in Self.firstHarmonic...Self.lastHarmonic { covariance[i * n + i] += harmonicPrior * dt / lifetime }
        growSlopeVariance()
    }

    /// The slope's variance grows by its prior over ``TemperatureBiasDrift/slopeSpan``.
    private mutating func growSlopeVariance() {
        guard let now = temperature else { return }
        let change = abs(now - (updatedTemperature ?? now))
        updatedTemperature = now
        let k = Self.slope * Self.n + Self.slope
        covariance[k] += TemperatureBiasDrift.slopeVariance(coefficient: temperatureCoefficient, change: change)
    }

    private mutating func update(h: InlineArray<8, Double>, z: Double, noise: Double, countsSurprise: Bool = true) {
        let n = Self.n
        var ph = InlineArray<8, Double>(repeating: 0)
        for i in 0..<n { for j in 0..<n { ph[i] += covariance[i * n + j] * h[j] } }
        var s = noise, predicted = 0.0
        for i in 0..<n {
            s += h[i] * ph[i]
            predicted += h[i] * state[i]
        }
        let innovation = z - predicted
        // A reading the table does not explain is learned from only as far as
        // the gate: turned away, one unlucky block froze the table while the
        // next ones drifted further off. The rest of a run is not learned
        // from; five in a row mean something changed, and the table starts again.
        if innovation * innovation > Self.gate * s {
            if countsSurprise { surprises += 1 }
            if surprises >= 5 { restart(at: up); return }
            if surprises > 1 { return }
            s = innovation * innovation / Self.gate
        } else {
            surprises = 0
        }
        for i in 0..<n {
            state[i] += ph[i] / s * innovation
            for j in 0..<n { covariance[i * n + j] -= ph[i] * ph[j] / s }
        }
        // Once trusted, it stays so until it is reset: a table read on and
        // off would move the compass by its deviation each time.
        let harmonics = Self.firstHarmonic...Self.lastHarmonic
        let resolved = harmonics.allSatisfy { covariance[$0 * n + $0] < 0.1 * harmonicPrior }
        let everyHeading = netTurnRange.highest - netTurnRange.lowest >= 2 * Double.pi
        isTrusted = isTrusted || (everyHeading && resolved && harmonicsSignificance() > Self.significance)
    }

    /// χ² of the four harmonics against zero, xᵀ P⁻¹ x, by Cholesky.
    private func harmonicsSignificance() -> Double {
        let k = Self.firstHarmonic, n = Self.n
        var l = InlineArray<16, Double>(repeating: 0)
        for i in 0..<4 {
            for j in 0...i {
                var sum = covariance[(k + i) * n + k + j]
                for m in 0..<j { sum -= l[i * 4 + m] * l[j * 4 + m] }
                if i == j {
                    guard sum > 0 else { return 0 }
                    l[i * 4 + i] = sum.squareRoot()
                } else {
                    l[i * 4 + j] = sum / l[j * 4 + j]
                }
            }
        }
        // Solve L y = x; χ² = |y|².
        var y = InlineArray<4, Double>(repeating: 0), chiSquared = 0.0
        for i in 0..<4 {
            var sum = state[k + i]
            for m in 0..<i { sum -= l[i * 4 + m] * y[m] }
            y[i] = sum / l[i * 4 + i]
            chiSquared += y[i] * y[i]
        }
        return chiSquared
    }

    /// The 99th percentile of χ² with four degrees of freedom: a table is used
    /// only when the deviation it found is that unlikely to be noise.
    static let significance = 13.28

    private static func harmonics(_ heading: (sin: Double, cos: Double)) -> (Double, Double, Double, Double) {
        let s = heading.sin, c = heading.cos
        return (s, c, 2 * s * c, c * c - s * s)
    }
}
