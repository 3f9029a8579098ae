#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The gyro bias from windows in which the board is still or turns steadily (``SteadyRotation``).
extension AttitudeFusion {
    /// While the board is still or turns slowly and steadily, the gyro's mean
    /// less the rotation that gravity's and the field's drift show is its bias
    /// (``SteadyRotation``): about the horizontal axes from gravity, about up
    /// from the field, whenever the field stays on its line (a field fixed in
    /// the room, disturbed or not). The drift is trusted no better than
    /// ``Settings/steadyRateUncertainty``: sensors drift and boards settle.
    mutating func correctBiasWhileSteady(_ correction: inout AttitudeErrorFilter.Correction,
                                                 window e: SteadyRotation.Estimate, interval: Double,
                                                 rotation r: Matrix3, earthRate earth: Vector3) {
        lastSteadyWindow = elapsed
        let shown = (horizontalBiasInnovation(e, along: r.row0, earthRate: earth.x, pending: correction.bias),
                     horizontalBiasInnovation(e, along: r.row1, earthRate: earth.y, pending: correction.bias))
        let windowVariance = horizontalWindowVariance(e)
        let horizontalUsable = confirmsBias(shown, rotation: r, pending: correction.bias, variance: windowVariance)
        guard !isAccelerating(e), !driftContradictsGyro(shown, rotation: r, windowVariance: windowVariance, window: e) else { return }
        noise.learn(from: e, interval: interval, dt: lastStep)
        gravity.learnResting(strength: e.accelerationNow.length, dt: interval, learningTime: noise.learningTime)
        // Successive windows overlap: counted once per window.
        let overlap = 2 * settings.restMinimumDuration / interval
        let white = noise.gyroNoiseIntensity / interval
        let floor = coefficients.steadyRateVariance
        let horizontalNoise = windowVariance * overlap + white
        // The gyro senses the Earth's rotation too (`earth`, earth frame), which the bias must not take in.
        // Each axis's innovation is taken again: the first axis's correction moves `correction.bias`.
        if horizontalUsable {
            for (axis, earthRate) in [(r.row0, earth.x), (r.row1, earth.y)] {
                let innovation = horizontalBiasInnovation(e, along: axis, earthRate: earthRate, pending: correction.bias)
                correction += errors.measureBias(along: axis, innovation: innovation, noise: horizontalNoise)
            }
        }
        // The field must stay on its line too: a magnet swept past bends it.
        guard e.verticalVariance.isFinite, e.fieldScatter <= 9 * noise.magnetometerVariance else { return }
        let up = r.row2
        // The field's drift is a line's slope, so the gyro is read as one too
        // (``SteadyRotation/Estimate/lineRate``): its mean, read while a turn
        // eased in, was learned in part as bias, and the heading, the compass
        // trusted little, kept it. Gravity levels the tilt directly, so about
        // the horizontal axes the mean stays: the line's older moment only
        // slowed that loop.
        let gyroLine = up.dot(e.lineRate - gyroBias - correction.bias)
        let innovation = gyroLine - e.verticalRate - earth.z
        // The compass error changes along a turn: the field's drift shows its
        // change as rotation, about σ_e per correlation angle turned. The turn
        // rate that sizes it is the gyro's, whose noise is not the drift's:
        // sized by the drift's own rate, the windows whose noise slowed the
        // turn weighed more, and part of every slow turn was learned as bias.
        let gyroRate = up.dot(e.meanRate - gyroBias) - earth.z
        let expectedRateSquared = gyroRate * gyroRate + up.dot(errors.bias * up)
        let compassDrift = compassErrorVariance * expectedRateSquared
            / (coefficients.compassCorrelationAngle * coefficients.compassCorrelationAngle)
        let verticalVariance = e.verticalVariance + e.lineRateVariance + floor + compassDrift
        let verticalNoise = verticalVariance * overlap + white
        if showsNoRotation(e) {
            // Still, the gyro reads its bias alone: the field's drift is only its noise.
            allowForChangedBias(innovation: gyroLine - earth.z, along: up, windowVariance: verticalVariance)
            deviation.observeStill(rate: up.dot(e.lineRate), variance: verticalNoise, bodyUp: up)
        }
        correction += errors.measureBias(along: up, innovation: innovation, noise: verticalNoise)
        unaveraged.measuredBias(noise: verticalNoise)
    }

    /// A still board's window that contradicts the bias about up beyond
    /// ``changedBiasGateSquared``, by no more than the gyro's sensitivity may be
    /// off (``Settings/gyroScaleTolerance``) on the turn it just left (``recentTurnRate``):
    /// a steady turn's rate error (a scale error of 1 % at 100 °/s reads
    /// 1 °/s) was taken in as bias while the compass held the heading, and was
    /// left behind when the turn stopped. It has turned the heading since,
    /// which the window reaches back to (its length, at most the time the
    /// board was steady). Bias and heading widen together by what the window
    /// shows beyond its noise (``AttitudeErrorFilter/widenBias(along:variance:turning:for:)``),
    /// so its reading corrects both, and the accuracy counts what it has not.
    /// A larger contradiction (an offset far beyond the setting at switch-on)
    /// is no scale error: the compass, trusted while the bias was unknown, held
    /// the heading meanwhile, and the windows learn the bias as before.
    mutating func allowForChangedBias(innovation: Double, along up: Vector3, windowVariance: Double) {
        let expected = up.dot(errors.bias * up) + windowVariance
        let squared = innovation * innovation
        guard squared > Self.changedBiasGateSquared * expected,
              innovation.magnitude <= settings.gyroScaleTolerance * recentTurnRate else { return }
        let reach = min(rest.steadyTime, 2 * settings.restMinimumDuration)
        errors.widenBias(along: up, variance: squared - expected, turning: .unitZ, for: reach)
    }

    /// A steady window whose specific force is stronger than gravity as this accelerometer
    /// reads it at rest, by more than the accelerometer's error and the window's noise: a
    /// steady linear acceleration (a car pulling away at 2.6 m/s² reads 0.34 m/s² strong),
    /// which no rest shows. It teaches nothing: its readings would teach the resting
    /// strength that acceleration, and the sustained accelerations the average's length
    /// shows would then go unseen. It still counts as steady for giving way, and still
    /// shows ``BiasConfirmation`` its drift, which a translation's windows do not agree on.
    /// Until a rest has shown the strength, a scale error of 3 % is allowed as well.
    func isAccelerating(_ e: SteadyRotation.Estimate) -> Bool {
        let samples = 2 * settings.restMinimumDuration / lastStep
        let noise = 5 * (e.accelerationScatter / samples).squareRoot()
        let scale = gravity.restSeen ? 0 : 0.03 * gravity.restingStrength
        return e.accelerationNow.length - gravity.restingStrength > settings.accelerometerError + noise + scale
    }

    /// A window the rest detector took for steady whose gravity drift the gyro,
    /// less its bias, contradicts beyond five standard deviations (the bias's
    /// uncertainty and the window's own): no rotation did that. A board carried
    /// slowly to and fro (a deck in a swell, a lift) keeps its acceleration on
    /// a line over the window, and gravity's drift along that line, 0.5–6 °/s,
    /// was read as rotation and handed to the bias almost as a certainty.
    /// `shown`: the window's bias innovations about `r`'s first two rows (east
    /// and north in body coordinates), with `windowVariance` each. A window
    /// that shows no rotation at all is no such drift, however far the gyro
    /// reads from its estimate (``showsNoRotation(_:)``).
    func driftContradictsGyro(_ shown: (Double, Double), rotation r: Matrix3, windowVariance: Double,
                              window e: SteadyRotation.Estimate) -> Bool {
        guard !showsNoRotation(e) else { return false }
        for (axis, innovation) in [(r.row0, shown.0), (r.row1, shown.1)]
        where innovation * innovation > Self.restGateSquared * (axis.dot(errors.bias * axis) + windowVariance) {
            return true
        }
        return false
    }

    /// Whether gravity and the field both stood still over the window (their
    /// drifts within three standard deviations of none): the board did not
    /// turn, so the gyro reads its bias, however far that is from the
    /// estimate. A translation's acceleration moves gravity's reading, never
    /// the field's, and a real turn moves at least one of them (unless both
    /// lie along its axis: the field straight down). A part whose zero-rate
    /// offset lies far beyond ``AttitudeFusion/Settings/initialBiasUncertainty``
    /// (an MPU6050's is specified to ±20 °/s) had its rest windows refused.
    func showsNoRotation(_ e: SteadyRotation.Estimate) -> Bool {
        e.verticalVariance.isFinite
            && e.horizontalRate.squaredLength <= 9 * 2 * e.horizontalVariance
            && e.verticalRate * e.verticalRate <= 9 * e.verticalVariance
    }

    /// The variance of what a steady window shows of the bias about each
    /// horizontal axis: gravity's drift, the gyro's mean and the rest-rate floor.
    func horizontalWindowVariance(_ e: SteadyRotation.Estimate) -> Double {
        e.horizontalVariance + e.meanRateVariance + coefficients.steadyRateVariance
    }

    /// Puts the window's horizontal bias innovations `shown` (with `variance`
    /// each) to ``BiasConfirmation``: whether they may correct the bias (false
    /// while they wait for a second window to agree). Once two agree, the
    /// widening that giving way asked for is applied.
    mutating func confirmsBias(_ shown: (Double, Double), rotation r: Matrix3, pending: Vector3,
                                       variance: Double) -> Bool {
        guard biasConfirmation.isDoubting else { return true }
        let bias = gyroBias + pending
        let verdict = biasConfirmation.judge(innovation: shown, estimate: (r.row0.dot(bias), r.row1.dot(bias)),
                                             axes: (r.row0, r.row1), variance: variance, now: elapsed)
        switch verdict {
        case .use: return true
        case .hold: return false
        case .confirmed(let w):
            widenBias(w)
            return true
        }
    }

    mutating func widenBias(_ w: BiasConfirmation.Widening) {
        errors.widenBias(along: w.first, variance: w.firstVariance)
        errors.widenBias(along: w.second, variance: w.secondVariance)
    }

    /// What a steady window shows of the bias about the horizontal body
    /// direction `axis`, beyond the estimate and the correction `pending`:
    /// the gyro's mean less the rotation gravity's drift shows and the
    /// Earth's rate about that axis (`earthRate`), rad/s.
    func horizontalBiasInnovation(_ e: SteadyRotation.Estimate, along axis: Vector3, earthRate: Double,
                                          pending: Vector3) -> Double {
        axis.dot(e.meanRate - gyroBias - pending - e.horizontalRate) - earthRate
    }

    /// Five standard deviations, squared: beyond them a rest window is no measurement of the bias.
    static let restGateSquared = 25.0
    /// Four standard deviations, squared: beyond them a still board's window shows the bias changed.
    static let changedBiasGateSquared = 16.0
}
