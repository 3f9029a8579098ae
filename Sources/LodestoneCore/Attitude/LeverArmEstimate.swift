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
/// correlation, ``residualCorrelationTime``, within it), and only for swings
/// slower than ``fastestSwing``.
///
/// Fed once per correction with the interval's mean rate and specific force,
/// so the cost does not grow with the sample rate.
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
    /// The fastest swing, rad/s (the angular acceleration's RMS over the
    /// RMS of the rate about its slow mean), whose lever arm is taken out: each interval's
    /// lever acceleration is taken out of the next interval's samples, a
    /// correction interval or two late, 9–18° of phase at this rate, which
    /// leaves 2·sin(phase/2), 16–32 %, of the swing's acceleration where all
    /// of it stayed before. A boat rolls at about 1 rad/s, a board hanging
    /// 0.6–2.5 m below a pivot swings at 2–4; a hand moves the board at 6–25.
    public static let fastestSwing = 4.0
    /// The largest lever arm believed, m: beyond it the fit has found
    /// something else.
    public static let longest = 30.0

    private var lastRate: Vector3?
    private var meanResidual = Vector3.zero
    private var meanRegressor = Matrix3(diagonal: .zero)
    private var information = Matrix3(diagonal: .zero)
    private var acrossInformation = Matrix3(diagonal: .zero)
    private var moment = Vector3.zero
    private var residualSquares = 0.0
    private var weight = 0.0
    private var readings = 0.0
    /// Whether an arm has been taken out once: the bias is unlearned only then.
    private var adopted = false
    private var meanRate = Vector3.zero
    private var rateSquares = 0.0
    private var accelerationSquares = 0.0
    /// The lever arm in use, body frame, m, and the acceleration it gives now.
    public private(set) var leverArm: Vector3?
    public private(set) var acceleration = Vector3.zero

    public init() {}

    /// One correction interval of `interval` s: the gyro's mean rate less its
    /// bias, and the mean specific force, body frame, and gravity as the
    /// estimate places it in the body frame (`gravity`: up times its strength).
    /// Returns, when a lever arm is taken out for the first time, the bias
    /// the swing's acceleration could have taught the filter until then, rad/s
    /// (the tilt it gave, its acceleration across gravity over g, turning at
    /// the swing's rate).
    public mutating func observe(rate w: Vector3, specificForce f: Vector3, gravity: Vector3,
                                 interval: Double) -> Double? {
        guard interval > 0 else { return nil }
        defer { lastRate = w }
        guard let previous = lastRate else { return nil }
        let alpha = (w - previous) * (1 / interval)
        let up = gravity.normalized
        accumulate(alpha: Self.across(alpha, up), rate: Self.across(w, up), residual: f - gravity, up: up,
                   interval: interval)
        leverArm = solved()
        acceleration = leverArm.map { alpha.cross($0) + w.cross(w.cross($0)) } ?? .zero
        guard !adopted, let arm = leverArm else { return nil }
        adopted = true
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

    /// The fit's lever arm, each axis only while the fit is sure of it (three
    /// standard deviations within it); nil while none is.
    private mutating func solved() -> Vector3? {
        guard weight > Self.shortestFit, swingRateSquared < Self.fastestSwing * Self.fastestSwing else { return nil }
        // A prior of ``longest`` on each axis keeps an axis the swing does not
        // reach (the one it turns about) at zero instead of undetermined.
        let prior = residualSquares / (3 * weight) * Self.residualCorrelationTime / (Self.longest * Self.longest)
        guard let inverse = (information + Matrix3.identity * prior).inverse else { return nil }
        let arm = inverse * moment
        guard arm.isFinite, arm.length <= Self.longest else { return nil }
        // The residual's variance per axis and second; the arm's variances, its
        // readings counted once per correlation time.
        let unexplained = max(0, residualSquares - moment.dot(arm)) / (3 * weight)
        let scale = 9 * unexplained * Self.residualCorrelationTime
        let sure = Vector3(arm.x * arm.x > scale * inverse.row0.x ? arm.x : 0,
                           arm.y * arm.y > scale * inverse.row1.y ? arm.y : 0,
                           arm.z * arm.z > scale * inverse.row2.z ? arm.z : 0)
        return sure == .zero ? nil : sure
    }

    /// A gap in the samples: the rate before it gives no angular acceleration after it.
    public mutating func interrupted() {
        lastRate = nil
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
