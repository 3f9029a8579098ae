/// Decides that the board is still, or turning slowly and steadily, and
/// holds the window of readings (``SteadyRotation``) in which the gyro bias
/// is then measured.
///
/// It never compares the gyro with its bias estimate: a large or misestimated
/// bias must not keep it from seeing rest, and a slow turn must not pass for
/// rest because the gyro happens to read little. Instead:
/// - gravity and the field must drift at less than ``rateThreshold`` (their
///   straight-line fit, see ``SteadyRotation``);
/// - the specific force must stay on its line within ``accelerationThreshold``,
///   on average and in every sample (no linear acceleration, no jolt);
/// - the gyro must read steadily: its scatter stays below the rate threshold,
///   its line through the window stays flat (a tenth of the threshold per
///   two windows), and its short-term mean (about 50 ms) may not
///   leave the window's mean by more than a tenth of ``rateThreshold`` plus
///   five times its own noise. A turn that starts or stops is a change of
///   rate, which the gyro shows at once whatever its bias; a window that
///   spanned it would take part of the turn for bias.
///
/// Any breach starts the window afresh, so it only ever holds steady motion;
/// rest is declared once it spans ``minimumDuration``.
public struct RestDetector: Hashable, Sendable {
    /// Largest rotation rate still counted as steady, rad/s.
    public let rateThreshold: Double
    /// Largest deviation of the acceleration from its straight line, m/s².
    public let accelerationThreshold: Double
    /// How long the motion must have been steady before rest is declared, s.
    public let minimumDuration: Double

    public private(set) var isAtRest = false
    public private(set) var window: SteadyRotation
    /// How long the board has been steady, s.
    public private(set) var steadyTime = 0.0
    private var lastAccelerationNow: Vector3?
    private var sinceEvaluation = 0.0
    private var lastStep = 0.01

    public init(rateThreshold: Double, accelerationThreshold: Double, minimumDuration: Double) {
        self.rateThreshold = rateThreshold
        self.accelerationThreshold = accelerationThreshold
        self.minimumDuration = minimumDuration
        window = SteadyRotation(averagingTime: minimumDuration)
    }

    /// Feeds one sample (raw gyro, specific force, calibrated field; body
    /// frame): cheap, every sample. A jolt ends rest at once. Inlined into
    /// the fusion's one call per sample.
    @inline(__always)
    public mutating func add(angularRate w: Vector3, acceleration a: Vector3, field m: Vector3, dt: Double) {
        if let now = lastAccelerationNow,
           (a - now).squaredLength > accelerationThreshold * accelerationThreshold {
            restart()
        }
        window.add(angularRate: w, acceleration: a, field: m, dt: dt)
        steadyTime += dt
        sinceEvaluation += dt
        lastStep = dt
    }

    /// Judges the window (call it every few tens of milliseconds). While the
    /// board is at rest, returns the window's estimate and the time since the
    /// last judgement, which the estimate stands for; else nil.
    /// `gyroBias` is the bias estimate and `biasUncertainty` its 1σ, rad/s.
    /// Inlined into the fusion's correction, so that the estimate is not copied on its way there.
    @inline(__always)
    public mutating func evaluate(gyroBias: Vector3, biasUncertainty: Double)
        -> (window: SteadyRotation.Estimate, interval: Double)? {
        let interval = sinceEvaluation
        sinceEvaluation = 0
        // The estimate is bound once: each further use of the optional copied all of it.
        guard let e = window.estimate else {
            lastAccelerationNow = nil
            isAtRest = false
            return nil
        }
        lastAccelerationNow = e.accelerationNow
        if let shortRate = window.shortRate,
           !isSteady(e, shortRate: shortRate, dt: lastStep, gyroBias: gyroBias, biasUncertainty: biasUncertainty) {
            restart()
            return nil
        }
        isAtRest = steadyTime >= minimumDuration
        guard isAtRest, interval > 0 else { return nil }
        return (e, interval)
    }

    private mutating func restart() {
        window.reset()
        steadyTime = 0
        isAtRest = false
        lastAccelerationNow = nil
    }

    @inline(__always) // out of line, the estimate was copied to pass it
    private func isSteady(_ e: SteadyRotation.Estimate, shortRate: Vector3, dt: Double,
                          gyroBias: Vector3, biasUncertainty: Double) -> Bool {
        let slow = turnsSlowlyByGyro(e, gyroBias: gyroBias, biasUncertainty: biasUncertainty)
            || isStillByDrift(e)
        // The short mean's noise: the samples' scatter over the ~shortTime/dt
        // samples it averages. Not their long-run scatter: a turn that starts
        // moves the short mean, and would widen its own allowance.
        let shortNoise2 = 3 * (e.rateScatter * 0.5 * min(1, dt / SteadyRotation.shortTime) + e.meanRateVariance)
        let change = 0.1 * rateThreshold + 5 * shortNoise2.squareRoot()
        let threshold2 = accelerationThreshold * accelerationThreshold
        // A rate that changes across the window (a turn speeding up) bends the
        // drift the fit takes for straight: the gyro's own slope must be nil.
        let accelerationAllowed = 0.05 * rateThreshold / window.averagingTime + 5 * (3 * e.rateSlopeVariance).squareRoot()
        // A gyro scattering by more than the rate threshold is moving, not noisy:
        // no sensor this is meant for is that noisy per sample.
        return slow
            && e.rateSlope.squaredLength <= accelerationAllowed * accelerationAllowed
            && e.rateScatter <= rateThreshold * rateThreshold
            && (shortRate - e.meanRate).squaredLength <= change * change
            && 3 * e.accelerationScatter <= threshold2
    }

    /// The gyro, less its bias as far as it is known, shows a rotation under
    /// the threshold. The drift the window measures is not consulted: a
    /// window kept because its own drift happened to read slow would hand the
    /// filter a rate biased low, and a turn just above the threshold would
    /// then be learned, in part, as gyro bias.
    @inline(__always)
    private func turnsSlowlyByGyro(_ e: SteadyRotation.Estimate, gyroBias: Vector3, biasUncertainty: Double) -> Bool {
        let fastest = rateThreshold + 3 * biasUncertainty + 5 * e.meanRateVariance.squareRoot()
        return (e.meanRate - gyroBias).squaredLength <= fastest * fastest
    }

    /// Gravity's and the field's drift show no rotation beyond their noise: a
    /// still board is seen as still even while the gyro's bias is far off
    /// (at turn-on, or after it jumped). Only stillness is judged this way: a
    /// window's drift is noisy, and a turn judged slow by it would be kept
    /// for reading slow. A young window's fit is noisier still, so only a
    /// rate beyond five of its standard deviations counts (three would
    /// restart a window of a thousand samples by chance).
    @inline(__always)
    private func isStillByDrift(_ e: SteadyRotation.Estimate) -> Bool {
        let vertical = e.verticalVariance.isFinite
        let rate2 = e.horizontalRate.squaredLength + (vertical ? e.verticalRate * e.verticalRate : 0)
        let noise2 = 2 * e.horizontalVariance + (vertical ? e.verticalVariance : 0)
        return rate2 <= 25 * noise2
    }

    /// Forgets the history (after a gap in the data).
    public mutating func reset() {
        restart()
        window.resetAll()
    }
}
