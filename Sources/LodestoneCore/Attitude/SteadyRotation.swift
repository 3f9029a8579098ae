/// Measures a slow, steady rotation from how gravity and the field drift in
/// the body frame, so that a board lying still *or turning slowly* tells the
/// gyro its bias.
///
/// A gyro at rest reads its own bias, but "at rest" can only be judged within
/// a threshold: a board on a turntable at 1 °/s looks still to a rate
/// threshold of 2 °/s, and taking its reading as bias freezes the heading.
/// Here nothing is assumed about the rate. Over the last ``averagingTime``
/// (exponentially weighted) the readings of gravity and field are fitted with
/// straight lines in time. A vector fixed in the room drifts in the body frame
/// at `v' = −ω × v`, so the slopes give the true rotation rate: its horizontal
/// part from gravity, its vertical part from the field (any field fixed in the
/// room, disturbed or not). The bias is the gyro's reading less that rate, the
/// reading fitted the same way (``Estimate/lineRate``) where the rate may change.
///
/// The fit holds while there is no linear acceleration and the rotation over
/// the window is small; ``AttitudeFusion`` uses it only while its
/// ``RestDetector`` sees the board still in that sense. The variances come from
/// the scatter of the readings about their lines, so a noisier sensor is
/// trusted less without a setting. A gyro's noise may be correlated from
/// sample to sample (a part's digital low-pass filter): it then scatters each
/// sample less than it moves the mean and the slope, so the scatter of the
/// readings' short mean less a longer one (``shortTime``, ``longerTime``)
/// sizes those as well (``Estimate/rateLongRunScatter``).
public struct SteadyRotation: Hashable, Sendable {
    /// Time constant of the exponential window, s.
    public let averagingTime: Double

    /// What the window shows, body frame.
    public struct Estimate: Hashable, Sendable {
        /// Mean gyro reading over the window, rad/s.
        public var meanRate: Vector3
        /// The slope of a straight line fitted, with the window's weights, to
        /// the angle the gyro turned, rad/s. The drifts of gravity and field
        /// are fitted that way, so this is the rate they are to be compared
        /// with. It differs from ``meanRate`` while the rate changes: such a
        /// fit on exponential weights reads a turn that speeds up at its rate
        /// of one averaging time before the mean's moment.
        public var lineRate: Vector3
        /// Variance of each axis of ``lineRate``: on long exponential weights
        /// half the mean's, since its kernel, w·(1 + lag·(t − t̄)/μ₂), is
        /// anticorrelated with the mean's.
        public var lineRateVariance: Double { meanRateVariance / 2 }
        /// The rotation rate about the horizontal axes (perpendicular to
        /// gravity) shown by gravity's drift, rad/s, and its variance per axis.
        public var horizontalRate: Vector3
        public var horizontalVariance: Double
        /// The rotation rate about "up" shown by the field's drift, rad/s, and its variance.
        public var verticalRate: Double
        public var verticalVariance: Double
        /// Variance of each axis of ``meanRate``, (rad/s)², from ``rateLongRunScatter``.
        public var meanRateVariance: Double
        /// Unit up vector (mean gravity direction), body frame.
        public var up: Vector3
        /// Specific force on its fitted line at the newest sample, m/s².
        public var accelerationNow: Vector3
        /// Variance of each axis of the specific force about its line, (m/s²)²,
        /// and of the field about its line, µT².
        public var accelerationScatter: Double
        public var fieldScatter: Double
        /// Variance of each axis of the gyro readings about their line, (rad/s)².
        public var rateScatter: Double
        /// The per-sample variance of white noise that would move the gyro's
        /// mean and slope as much as its noise does, (rad/s)²: ``rateScatter``,
        /// or more where the noise is correlated from sample to sample.
        public var rateLongRunScatter: Double
        /// How fast the gyro reading changes over the window (angular
        /// acceleration, rad/s²), and the variance of each axis of that slope.
        public var rateSlope: Vector3
        public var rateSlopeVariance: Double
    }

    private var weight = 0.0       // Σw
    private var timeSum = 0.0      // Σw·t, t relative to the latest sample (≤ 0)
    private var timeSquares = 0.0  // Σw·t²
    private var timeCubes = 0.0    // Σw·t³
    private var gravity = Moments()
    private var field = Moments()
    private var rate = Moments()
    /// The gyro's short and longer means (valid once ``hasMeans``; a flag,
    /// not an optional, since they are updated every sample), and the
    /// window's moments of their difference. The means outlive a
    /// ``reset()``: they smooth the readings, not the window.
    private var shortMean = Vector3.zero
    private var longerMean = Vector3.zero
    private var hasMeans = false
    private var band = Moments()
    private var shortWeight = 1.0
    private var longerWeight = 1.0
    /// How much white noise of unit variance scatters the means' difference.
    private var bandGain = 0.0

    /// Time constants of the gyro's short and longer means, s. Their
    /// difference passes about 0.8–3 Hz: noise correlated over a few samples
    /// shows there at its long-run level, and a turn's slow change of rate
    /// hardly does (a short mean alone passed it all, and counted a smooth
    /// motion's departure from its line as noise).
    public static let shortTime = 0.05
    static let longerTime = 0.2
    /// The decay of the last time step, kept while the step stays the same:
    /// sampled data has a fixed step, so its two divisions run once, not per sample.
    private var decayStep = 0.0
    private var decay = 1.0

    /// Weighted sums of one vector signal: Σw·v, Σw·t·v, Σw·|v|².
    private struct Moments: Hashable, Sendable {
        var sum = Vector3.zero
        var timeWeighted = Vector3.zero
        var squares = 0.0

        mutating func shift(by dt: Double) { timeWeighted -= sum * dt }
        mutating func scale(_ k: Double) {
            sum = sum * k
            timeWeighted = timeWeighted * k
            squares *= k
        }
        mutating func add(_ v: Vector3) {
            sum += v
            squares += v.squaredLength
        }
    }

    public init(averagingTime: Double) {
        self.averagingTime = averagingTime
    }

    /// Adds one sample (raw gyro, specific force, calibrated field; body frame).
    /// Inlined into the rest detector's one call per sample.
    @inline(__always)
    public mutating func add(angularRate w: Vector3, acceleration a: Vector3, field m: Vector3, dt: Double) {
        // Times are kept relative to the newest sample: move the old ones dt into the past.
        timeCubes -= (3 * timeSquares - 3 * timeSum * dt + weight * dt * dt) * dt
        timeSquares += (dt * weight - 2 * timeSum) * dt
        timeSum -= dt * weight
        gravity.shift(by: dt)
        field.shift(by: dt)
        rate.shift(by: dt)
        band.shift(by: dt)
        if dt != decayStep {
            decayStep = dt
            decay = 1 / (1 + dt / averagingTime)
            shortWeight = min(1, dt / Self.shortTime)
            longerWeight = min(1, dt / Self.longerTime)
            bandGain = Self.differenceGain(shortWeight, longerWeight)
        }
        let k = decay
        weight *= k
        timeSum *= k
        timeSquares *= k
        timeCubes *= k
        gravity.scale(k)
        field.scale(k)
        rate.scale(k)
        band.scale(k)
        weight += 1
        gravity.add(a)
        field.add(m)
        rate.add(w)
        if hasMeans {
            shortMean += (w - shortMean) * shortWeight
            longerMean += (w - longerMean) * longerWeight
        } else {
            (shortMean, longerMean, hasMeans) = (w, w, true)
        }
        band.add(shortMean - longerMean)
    }

    /// The variance of the difference of two exponential means (weights `a`
    /// and `b`) of white noise of unit variance: each scatters α/(2 − α), and
    /// they share ab/(a + b − ab).
    static func differenceGain(_ a: Double, _ b: Double) -> Double {
        a / (2 - a) + b / (2 - b) - 2 * a * b / (a + b - a * b)
    }

    /// The gyro's mean over about ``shortTime``, rad/s; nil before the first sample.
    public var shortRate: Vector3? { hasMeans ? shortMean : nil }

    /// Forgets the window (the board moved), but not the means.
    public mutating func reset() {
        let (short, longer, has) = (shortMean, longerMean, hasMeans)
        self = SteadyRotation(averagingTime: averagingTime)
        (shortMean, longerMean, hasMeans) = (short, longer, has)
    }

    /// Forgets the means as well (after a gap in the data).
    public mutating func resetAll() {
        self = SteadyRotation(averagingTime: averagingTime)
    }

    /// The fit of the current window; nil until it holds a few samples.
    /// Inlined into its one caller per correction: returned out of line, the
    /// optional estimate was copied on its way out and again into the caller.
    public var estimate: Estimate? {
        @inline(__always) get {
            guard weight >= 8 else { return nil }
            let spread = timeSquares - timeSum * timeSum / weight   // Σw·(t − t̄)²
            guard spread > 0 else { return nil }
            // Exponential weights over τ hold as much as 2τ of equal ones.
            let count = 2 * weight
            let g = fit(gravity, spread: spread), m = fit(field, spread: spread), w = fit(rate, spread: spread)
            // The band's scatter about its line is white noise's times
            // `bandGain`, and correlated noise's at the level it moves a long mean.
            let bandScatter = bandGain > 0.01 ? fit(band, spread: spread).scatter / bandGain : 0
            let rateLongRun = max(w.scatter, bandScatter)
            let gNorm2 = g.mean.squaredLength
            guard gNorm2 > 0 else { return nil }
            let up = g.mean / gNorm2.squareRoot()
            // v' = −ω × v: the part of ω across gravity is (v' × v) / |v|².
            let horizontal = g.slope.cross(g.mean) / gNorm2
            let horizontalVariance = g.slopeVariance / gNorm2
            // The field's drift less what the horizontal rotation explains is −ω_up·(up × m).
            let across = up.cross(m.mean)
            let across2 = across.squaredLength
            let residual = m.slope + horizontal.cross(m.mean)
            let vertical = across2 > 0 ? -residual.dot(across) / across2 : 0
            let verticalVariance = across2 > 0
                ? m.slopeVariance / across2 + horizontalVariance * m.mean.squaredLength / across2
                : .infinity
            let now = g.mean - g.slope * (timeSum / weight)
            // A line fitted to the angle θ = ∫ω of a rate ω̄ + ω̇·(t − t̄) has the slope
            // ω̄ + ω̇·μ₃/(2μ₂), μ₂ and μ₃ the window's central moments of time
            // (μ₃/(2μ₂) = −τ on long exponential weights).
            let t = timeSum / weight
            let skew = timeCubes / weight - 3 * t * timeSquares / weight + 2 * t * t * t
            let lag = skew / (2 * spread / weight)
            return Estimate(meanRate: w.mean, lineRate: w.mean + w.slope * lag,
                            horizontalRate: horizontal, horizontalVariance: horizontalVariance,
                            verticalRate: vertical, verticalVariance: verticalVariance,
                            meanRateVariance: rateLongRun / count, up: up, accelerationNow: now,
                            accelerationScatter: g.scatter, fieldScatter: m.scatter, rateScatter: w.scatter,
                            rateLongRunScatter: rateLongRun,
                            rateSlope: w.slope, rateSlopeVariance: rateLongRun / (4 * spread))
        }
    }

    /// Straight-line fit of one signal: mean, slope, per-axis scatter about the line, slope variance per axis.
    @inline(__always) // out of line, the whole window was copied to call it
    private func fit(_ s: Moments, spread: Double) -> (mean: Vector3, slope: Vector3, scatter: Double, slopeVariance: Double) {
        let mean = s.sum / weight
        let slope = (s.timeWeighted - s.sum * (timeSum / weight)) / spread
        let explained = slope.squaredLength * spread
        let scatter = max(0, s.squares - mean.squaredLength * weight - explained) / (3 * weight)
        // Exponential weights: the slope's variance is σ²·Σw²(t − t̄)²/spread², σ²/(4·spread).
        return (mean, slope, scatter, scatter / (4 * spread))
    }
}
