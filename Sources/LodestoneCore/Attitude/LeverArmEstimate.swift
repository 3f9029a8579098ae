/// Where the board sits from the point it turns about, learned from how its
/// accelerometer answers its gyro, so that the acceleration of the swing can
/// be taken out before the accelerometer levels the estimate.
///
/// A board 4 m up a boat's mast, rolling ±20° every 8 s, feels `α × r` and
/// `ω × (ω × r)` (r the lever arm, α the angular acceleration): the
/// accelerometer then leans a quarter further than the roll, in phase with
/// it. Averaged, that looks like a tilt error that comes and goes with every
/// roll, and a filter starting at sea learned it as gyro bias: 4° of tilt for
/// 40 s, the heading 6–9° off for a minute. Marine motion sensors ask for the
/// lever arm; here it is measured. The acceleration left after gravity (as
/// the estimate places it) and the vehicle's own (``VehicleAcceleration``,
/// when a speed gives it) is regressed on the gyro's `[α]× + [ω]×[ω]×`, of
/// the rotation across up only: a turn about up is a vehicle's curve as
/// often as a swing, and a car in a roundabout feels what a board on an arm
/// as long as its radius would, until the next curve has another centre.
/// Both are high-passed (``highPassTime``) so that a slowly changing tilt error
/// and the centripetal part's mean do not enter, with exponential forgetting
/// (``memoryTime``). Each axis of it is taken out only while the fit is sure
/// of it (three of its standard deviations, counted with the residual's
/// correlation, ``residualCorrelationTime``, within it); a quick swing's
/// only where it explains most of the acceleration (``quickSwing``).
///
/// The fit is fed once per correction with the interval's mean rate and
/// specific force, so its cost does not grow with the sample rate; the arm's
/// acceleration is given at each sample for the one before, in phase with
/// that sample's specific force.
public struct LeverArmEstimate: Hashable, Sendable {
    /// Slower than any swing to be measured (a boat's roll, 5–15 s), faster
    /// than the tilt error's change, s.
    public static let highPassTime = 20.0
    /// How long the fit remembers, s: a board moved to another place on the
    /// boat is learned again within it.
    public static let memoryTime = 120.0
    /// The time over which the residual (waves, hand motion) stays
    /// correlated, s: readings within it are not independent.
    public static let residualCorrelationTime = 2.0
    /// The fit is not used before it spans this long, s: a swing or two.
    public static let shortestFit = 8.0
    /// A swing quicker than this, rad/s (the angular acceleration's RMS over
    /// the RMS of the rate about its slow mean), reverses within the gravity
    /// average, which keeps 1/(1 + ω²τ²) of it: a boat rolls at about 1 rad/s
    /// and a board hanging 0.6–2.5 m below a pivot swings at 2–4, a pocket at
    /// 5–10 and a hand moves the board at 6–30. A quick swing taught the
    /// filter no bias before its arm was known (the bias's own uncertainty
    /// covers what it turned the estimate by), and its arm is taken out only
    /// where the swing is a rigid one (``explainsQuickSwing(_:)``): the
    /// centripetal part of a wrong arm, `ω × (ω × δr)`, does not reverse, so
    /// a partial fit adds more than it takes out, and what a quick swing too
    /// small to matter leaves in the average is less than a wrong arm's.
    public static let quickSwing = 4.0
    /// The share of the acceleration beyond gravity (less its slow mean) a
    /// quick swing's arm must explain to be taken out, and to stay taken out:
    /// a rigid swing about a point explains 0.96–0.99 of it (a pendulum, a
    /// pocket; 0.8–0.91 with a walk's bob), a hand's motion, mostly
    /// translation, 0.1–0.72. Taken out late, a quick swing's arm costs
    /// little; taken out wrong, much; dropped while the swing goes on, the
    /// filter meets its whole acceleration again.
    public static let leastQuickExplainedShare = (taken: 0.85, kept: 0.7)
    /// The least RMS acceleration a quick swing's arm must explain, m/s²:
    /// a board at rest, whose gyro noise differenced passes for a quick swing,
    /// fits arms to its noise.
    public static let smallestQuickSwingAcceleration = 0.5
    /// The largest lever arm believed, m: beyond it the fit has found
    /// something else.
    public static let longest = 30.0

    /// The last correction interval's mean rate and specific force, and its length, s.
    private var lastInterval: Interval?
    private struct Interval: Hashable, Sendable {
        let rate: Vector3, force: Vector3, length: Double
    }
    private var meanResidual = Vector3.zero
    private var meanRegressor = Matrix3.zero
    private var information = Matrix3.zero
    private var acrossInformation = Matrix3.zero
    private var moment = Vector3.zero
    private var residualSquares = 0.0
    private var weight = 0.0
    private var readings = 0.0
    /// Whether an arm has been taken out once: the bias is unlearned only then.
    private var adopted = false
    private var meanRate = Vector3.zero
    private var rateSquares = 0.0
    private var accelerationSquares = 0.0
    /// The lever arm in use, body frame, m.
    public private(set) var leverArm: Vector3?
    /// The angular acceleration at the sample before the last, smoothed over
    /// ``angularAccelerationTime``; the last two samples' rates, and the step between them.
    private var sampleAngularAcceleration = Vector3.zero
    private var lastSampleRate: Vector3?
    private var rateBefore: Vector3?
    private var stepBefore = 0.0
    /// How long the per-sample angular acceleration is smoothed, s: the
    /// gyro's noise, differenced at 1 kHz, would otherwise pass for 5 m/s²
    /// on a 0.4 m arm. At 100 Hz and below it is the plain centred
    /// difference; faster, about this late.
    public static let angularAccelerationTime = 0.01

    public init() {}

    /// One correction interval of `interval` s: the gyro's mean rate less its
    /// bias, and the mean specific force, body frame, and gravity as the
    /// estimate places it in the body frame (`gravity`: up times its strength).
    /// Returns, when a lever arm is taken out for the first time, the bias
    /// the swing's acceleration could have taught the filter until then, rad/s
    /// (the tilt it gave, its acceleration across gravity over g, turning at
    /// the swing's rate); nil for a swing quicker than ``quickSwing``.
    public mutating func observe(rate w: Vector3, specificForce f: Vector3, gravity: Vector3,
                                 interval: Double) -> Double? {
        guard interval > 0 else { return nil }
        defer { lastInterval = Interval(rate: w, force: f, length: interval) }
        guard let previous = lastInterval else { return nil }
        // At the boundary of the two intervals: the rate's change across it,
        // and the rate and force there as the two means' mean, all in phase.
        let alpha = (w - previous.rate) * (2 / (interval + previous.length))
        let rate = (w + previous.rate) * 0.5, force = (f + previous.force) * 0.5
        let up = gravity.normalized
        accumulate(alpha: Self.across(alpha, up), rate: Self.across(rate, up), residual: force - gravity, up: up,
                   interval: interval)
        leverArm = solved()
        if leverArm == nil { forgetSamples() }
        guard !adopted, let arm = leverArm else { return nil }
        adopted = true
        guard !isQuickSwing else { return nil }
        // The RMS of the acceleration the arm explains across gravity (along it,
        // as from heave, it tilts nothing), m/s², as tilt, turning at the swing's rate.
        let explained = (max(0, arm.dot(acrossInformation * arm)) / weight).squareRoot()
        return explained / gravity.length * swingRateSquared.squareRoot()
    }

    /// Adds one interval to the fit: the residual and `[α]× + [ω]×[ω]×`, less
    /// their slow means, the regressor's share across `up`, and the swing's rate.
    private mutating func accumulate(alpha: Vector3, rate w: Vector3, residual: Vector3, up: Vector3,
                                     interval: Double) {
        let regressor = Self.crossMatrix(alpha) + Self.crossMatrix(w) * Self.crossMatrix(w)
        // A young mean is the plain mean of its readings, not the first one weighted up.
        readings += 1
        let k = min(1, max(interval / Self.highPassTime, 1 / readings))
        meanResidual += (residual - meanResidual) * k
        meanRegressor = meanRegressor + (regressor - meanRegressor) * k
        meanRate += (w - meanRate) * k
        let y = residual - meanResidual, l = regressor - meanRegressor
        let keep = max(0, 1 - interval / Self.memoryTime)
        let squares = l.transposed * l, alongUp = l.transposedTimes(up)
        information = information * keep + squares * interval
        acrossInformation = acrossInformation * keep + (squares - Matrix3.outer(alongUp, alongUp)) * interval
        moment = moment * keep + l.transposedTimes(y) * interval
        residualSquares = residualSquares * keep + y.squaredLength * interval
        rateSquares = rateSquares * keep + (w - meanRate).squaredLength * interval
        accelerationSquares = accelerationSquares * keep + alpha.squaredLength * interval
        weight = weight * keep + interval
    }

    /// The swing's rate squared, (rad/s)²: the angular acceleration's mean
    /// square over the rate's about its mean.
    private var swingRateSquared: Double { rateSquares > 0 ? accelerationSquares / rateSquares : .infinity }

    /// Whether the swing is quicker than ``quickSwing``.
    private var isQuickSwing: Bool { swingRateSquared >= Self.quickSwing * Self.quickSwing }

    /// The fit's lever arm, each axis only while the fit is sure of it (three
    /// standard deviations within it); nil while none is.
    private mutating func solved() -> Vector3? {
        guard weight > Self.shortestFit else { return nil }
        // A prior of ``longest`` on each axis keeps an axis the swing does not
        // reach (the one it turns about) at zero instead of undetermined.
        let prior = residualSquares / (3 * weight) * Self.residualCorrelationTime / (Self.longest * Self.longest)
        guard let inverse = (information + Matrix3.identity * prior).inverse else { return nil }
        let arm = inverse * moment
        guard arm.isFinite, arm.length <= Self.longest else { return nil }
        if isQuickSwing, !explainsQuickSwing(arm) { return nil }
        // The residual's variance per axis and second; the arm's variances, its
        // readings counted once per correlation time.
        let unexplained = max(0, residualSquares - moment.dot(arm)) / (3 * weight)
        let scale = 9 * unexplained * Self.residualCorrelationTime
        let sure = Vector3(arm.x * arm.x > scale * inverse.row0.x ? arm.x : 0,
                           arm.y * arm.y > scale * inverse.row1.y ? arm.y : 0,
                           arm.z * arm.z > scale * inverse.row2.z ? arm.z : 0)
        return sure == .zero ? nil : sure
    }

    /// The swing's acceleration at the sample before this one, body frame,
    /// m/s²: `α × r + ω × (ω × r)` with that sample's rate (less the bias)
    /// and the rate's change from the sample before it to this one (`rate`,
    /// `dt` s after it); nil while no arm is in use or before two samples.
    /// Taken at each sample, not from the last correction interval's mean,
    /// and a sample late, so that the angular acceleration is centred on the
    /// sample it is taken out of: differenced back from it, it was half a
    /// sample late, and left `(h/2)·dα/dt × r`.
    @inline(__always) // once per sample while an arm is in use
    public mutating func acceleration(rate w: Vector3, dt: Double) -> Vector3? {
        guard let arm = leverArm else { return nil }
        defer { lastSampleRate = w }
        guard let last = lastSampleRate else { return nil }
        defer { (rateBefore, stepBefore) = (last, dt) }
        guard let before = rateBefore else { return nil }
        let step = (dt + stepBefore) / 2
        // A centred difference reads a swing at ω times sin(ωh)/(ωh) of its angular acceleration.
        let gain = swingRateSquared.isFinite ? 1 + swingRateSquared * step * step / 6 : 1
        let centred = (w - before) * (gain / (2 * step))
        let k = min(1, dt / Self.angularAccelerationTime)
        sampleAngularAcceleration += (centred - sampleAngularAcceleration) * k
        return sampleAngularAcceleration.cross(arm) + last.cross(last.cross(arm))
    }

    /// A gap, or an arm no longer in use: a rate before it gives no angular acceleration after it.
    private mutating func forgetSamples() {
        lastSampleRate = nil
        rateBefore = nil
        sampleAngularAcceleration = .zero
    }

    /// Whether `arm` makes the quick swing a rigid one: it explains most of
    /// the acceleration the board feels beyond gravity (less once an arm is
    /// in use), and enough of it to matter.
    private func explainsQuickSwing(_ arm: Vector3) -> Bool {
        let explained = moment.dot(arm)
        let least = leverArm == nil ? Self.leastQuickExplainedShare.taken : Self.leastQuickExplainedShare.kept
        return explained >= least * residualSquares
            && explained >= Self.smallestQuickSwingAcceleration * Self.smallestQuickSwingAcceleration * weight
    }

    /// A gap in the samples: the rate before it gives no angular acceleration after it.
    public mutating func interrupted() {
        lastInterval = nil
        forgetSamples()
    }

    /// The part of `v` across `up`: the swing's share of a rotation. A turn
    /// about up (a vehicle's curve, about a centre that moves with every
    /// curve) would otherwise be fitted as an arm as long as the curve's radius.
    static func across(_ v: Vector3, _ up: Vector3) -> Vector3 {
        v - up * v.dot(up)
    }

    /// `[v]×`: the matrix that takes u to v × u.
    static func crossMatrix(_ v: Vector3) -> Matrix3 {
        Matrix3(0, -v.z, v.y,
                v.z, 0, -v.x,
                -v.y, v.x, 0)
    }
}
