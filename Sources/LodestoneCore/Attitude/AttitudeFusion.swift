#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Attitude and heading from gyroscope, accelerometer and magnetometer (an AHRS).
///
/// The gyro carries the attitude from sample to sample; the accelerometer
/// (gravity) corrects the tilt and the magnetometer corrects only the heading,
/// so a disturbed field can never tilt the estimate. The corrections come from
/// one Kalman filter (``AttitudeErrorFilter``) that holds the angle error about
/// the three earth axes, the gyro-bias error in the body frame and the
/// compass's own error, with their correlations:
///
/// - the gyro-bias error makes the angle error grow, so a bias is learned from
///   any correction that keeps pulling the same way, and the heading
///   uncertainty grows honestly while the magnetometer is rejected;
/// - the bias belongs to the body: as the board turns, its effect moves from
///   one earth axis to another and the filter follows it;
/// - the compass is off by an error that depends on the attitude (calibration
///   residue, local field): readings at one attitude share it, and turning
///   reveals it. Its size is learned from how the compass and the gyro
///   disagree as the board turns, so a clean compass is followed closely and
///   a poor one is averaged over many attitudes;
/// - the accelerometer is averaged in the earth frame over the motion
///   correlation time before it corrects the tilt, and given the variance of
///   how hard the board moves, so that linear acceleration averages out
///   instead of tilting the estimate. The average remembers the last
///   correlation time, during which a bias error kept turning the estimate, so
///   it measures the tilt error plus that lag (`lag·δb`), and is fused as such;
/// - a compass reading that disagrees with the predicted heading by more than
///   a gate is ignored, but not for ever: in a field whose strength and dip
///   match, the filter gives way after ``Settings/longestCompassRejection``
///   (``CompassAgreement``), since then the filter, not the field, is wrong;
/// - unless the compass jumped between two readings while the gyro showed no
///   such turn (a magnet put on the board): then the field changed, and its
///   readings count as disturbed until they agree with the filter again
///   (``CompassShift``);
/// - a field whose strength or dip leaves the learned reference is rejected
///   (``MagneticDisturbanceRejection``); a field carried with the board is
///   learned as a body-frame offset and removed (``BodyFixedDisturbance``),
///   at once when it came in one step (``FieldStep``: the readings, carried
///   by the gyro, predict each other, and a magnet put on breaks that by its
///   own field, however little it turns the heading);
/// - while the board is still or turns slowly and steadily (``RestDetector``),
///   the gyro's mean less the rotation that gravity's and the field's drift
///   show (``SteadyRotation``) measures its bias; the sensors' noise is learned
///   at the same time (``SensorNoiseEstimate``);
/// - a magnetometer slower than the gyro repeats its last reading: a repeated
///   reading is no new measurement and corrects nothing.
///
/// Estimating the bias from the corrections and averaging acceleration over
/// its correlation time follow ideas of D. Laidig and T. Seel, "VQF: Highly
/// accurate IMU orientation estimation with bias estimation and magnetic
/// disturbance rejection", Information Fusion 91, 2023. The filter here is a
/// different, Kalman-style design.
///
/// Frames: body x right, y forward, z up; earth ENU with north = magnetic north.
public struct AttitudeFusion: Sendable {
    public let settings: Settings
    let coefficients: Coefficients

    /// Body → ENU attitude (north = magnetic north). Identity before the first usable sample.
    public private(set) var attitude = Quaternion.identity
    /// Estimated gyro bias in the body frame, rad/s (subtract it from raw readings).
    public private(set) var gyroBias = Vector3.zero
    /// Whether a usable sample has set the attitude yet.
    public private(set) var isInitialized = false
    /// Estimated error of the compass heading at the current attitude, rad.
    public private(set) var compassError = 0.0
    /// The learned size of the compass error over attitudes (``CompassErrorSpread``).
    public private(set) var compassSpread: CompassErrorSpread
    /// The compass error's variance (1σ squared), rad².
    public var compassErrorVariance: Double { compassSpread.variance }
    /// Whether the compass is read less an offset the filter is still
    /// learning: a carried field's, or a field's switched on in the room.
    private var readsCompassLessAnOffset: Bool { carried.offset != nil || room.removed != nil }
    /// The sensors' noise as learned at rest.
    public private(set) var noise: SensorNoiseEstimate

    private var errors: AttitudeErrorFilter
    private var rest: RestDetector
    private var agreement: CompassAgreement
    private var magnetic: MagneticDisturbanceRejection
    private var carried: BodyFixedDisturbance
    private var shift = CompassShift()
    private var fieldStep: FieldStep
    /// The carried field's offset the readings ``fieldStep`` watches were corrected by, µT.
    private var fieldStepOffset = Vector3.zero
    /// The carried field's learning as it was when readings were first held
    /// for a possible step.
    private var carriedBeforeStep: BodyFixedDisturbance?
    /// A field switched on in the room, removed from the readings in the earth frame.
    private var room = RoomFieldStep()
    /// The bend the heading took in from readings in a field disturbed within the tolerances.
    private var imported = ImportedDisturbance()
    /// The compass's deviation with heading, learned as the board turns about a steady up.
    private var deviation: CompassDeviation
    /// The deviation taken from the last reading, rad; nil when none was.
    private var deviationInUse: Double?
    private var lastMagneticReadingRejected = false
    private var rawFieldDisturbed = false
    /// The last calibrated field reading, body frame, µT.
    private var lastField = Vector3.zero
    /// The latest new magnetometer reading not yet fused, how long ago it
    /// came, and the time since a reading was last fused.
    private var pending = PendingField()
    /// What the errors did since the last correction.
    private var growth = AttitudeErrorFilter.Growth()
    /// Angle turned in the last step, rad.
    private var turned = 0.0
    /// Seconds of samples fused, and the last step.
    private var elapsed = 0.0
    /// When the start's tilt, a moment's (``StartLevel``), is checked against the average (``reviewStartTilt(east:north:)``).
    private var startTiltReview: Double?
    /// Gravity gathered for a start (``StartLevel``).
    private var startLevel = StartLevel()
    /// Whether the estimate ever started: a restart keeps the bias learned.
    private var hasStarted = false
    /// When the rest detector last handed over a steady window.
    private var lastSteadyWindow = -Double.infinity
    private var biasConfirmation: BiasConfirmation
    private var lastStep = 0.01
    /// What the uncertainty of the carried field's offset does to the heading,
    /// rad². It persists while the board turns, like a calibration error.
    private var offsetHeadingVariance = 0.0
    private var gravity: GravityAverage
    private var unconfirmed: UnconfirmedTilt
    private var vehicle: VehicleAcceleration
    private var tiltSpread = TiltSpread()
    private var lostSamples = LostSampleBridge()
    private var saturation = GyroSaturation()
    private var unaveraged = UnaveragedCompassError()
    private var leverArm = LeverArmEstimate()
    private var biasWalk = BiasWalkEstimate()
    private var loops: LoopRateError
    /// The gyro's net turn about up since the start, rad.
    private var netTurnAboutUp = 0.0

    public init(settings: Settings = .init()) {
        self.settings = settings
        coefficients = Coefficients(settings)
        compassSpread = CompassErrorSpread(initialVariance: coefficients.compassVariance,
                                           smallestVariance: coefficients.smallestCompassVariance,
                                           pairAngle: 2 * coefficients.compassCorrelationAngle,
                                           longestPairTime: settings.compassErrorLifetime)
        loops = LoopRateError(smallestVariance: coefficients.rateErrorSquared,
                              correlationAngle: coefficients.compassCorrelationAngle)
        noise = SensorNoiseEstimate(magnetometerNoise: settings.magnetometerNoise,
                                    gyroNoiseDensity: settings.gyroNoiseDensity * Angle.radiansPerDegree,
                                    accelerometerNoise: settings.accelerometerNoise)
        errors = AttitudeErrorFilter(angleVariance: .zero, bias: Matrix3(diagonal: Vector3(1, 1, 1) * coefficients.initialBiasVariance))
        rest = RestDetector(rateThreshold: settings.restRateThreshold * Angle.radiansPerDegree,
                            accelerationThreshold: settings.restAccelerationThreshold,
                            minimumDuration: settings.restMinimumDuration)
        agreement = CompassAgreement(longestRejection: settings.longestCompassRejection,
                                     longestInconsistency: settings.longestCompassInconsistency,
                                     longAveragingTime: settings.compassPairTime,
                                     correlationAngle: coefficients.compassCorrelationAngle)
        unconfirmed = UnconfirmedTilt(memory: settings.unconfirmedTiltMemory)
        deviation = CompassDeviation(levelTolerance: settings.deviationLevelTolerance * Angle.radiansPerDegree,
                                     averagingTime: settings.compassCorrelationTime,
                                     averagingTurn: settings.deviationAveragingTurn * Angle.radiansPerDegree,
                                     lifetime: settings.deviationLifetime)
        biasConfirmation = BiasConfirmation(windowLength: settings.restMinimumDuration, doubtTime: settings.biasDoubtTime)
        // A field still moving after three settling times is no step (the strength and dip tests are
        // for it), and the reference remembers as long, longer than a hand takes to put a magnet on.
        fieldStep = FieldStep(settlingTime: settings.bodyFieldChangeTime, longestCandidate: 3 * settings.bodyFieldChangeTime,
                              referenceTime: 3 * settings.bodyFieldChangeTime)
        vehicle = VehicleAcceleration(readingMemory: settings.motionCorrelationTime)
        gravity = GravityAverage(correlationTime: settings.motionCorrelationTime,
                                 persistenceTime: settings.sustainedAccelerationTime,
                                 accelerometerError: settings.accelerometerError)
        carried = BodyFixedDisturbance(changeTime: settings.bodyFieldChangeTime,
                                       averagingTime: settings.fieldReferenceTime,
                                       correlationTime: settings.compassCorrelationTime,
                                       gate: settings.magneticGate)
        magnetic = MagneticDisturbanceRejection(normTolerance: settings.fieldNormTolerance,
                                                dipTolerance: settings.fieldDipTolerance * Angle.radiansPerDegree,
                                                referenceTime: settings.fieldReferenceTime,
                                                noise: settings.magnetometerNoise,
                                                newFieldTime: settings.newFieldTime,
                                                newFieldRotation: settings.newFieldRotation * Angle.radiansPerDegree,
                                                tiltCorrelationTime: coefficients.tiltCorrelation)
    }

    /// One standard deviation of the heading error, degrees: the filter's
    /// heading variance (gyro noise and bias while the compass is rejected;
    /// the compass error it cannot tell from the heading while the board has
    /// not turned), plus the uncertainty of a carried field's offset while one
    /// is removed, plus a lasting disagreement with a clean-looking compass.
    /// 180 before initialisation.
    /// Worked out at each correction (a few tens of milliseconds), not per sample.
    public private(set) var headingUncertainty = 180.0

    /// One standard deviation of the tilt error (larger of the two horizontal axes), degrees.
    public private(set) var tiltUncertainty = 180.0

    /// Works out ``headingUncertainty`` and ``tiltUncertainty`` for the state after a correction.
    private mutating func updateUncertainties() {
        // A tilt error θ turns the compass heading by θ·tan(dip).
        let sinDip = magnetic.referenceSinDip
        let tanDip2 = sinDip * sinDip / max(1e-3, 1 - sinDip * sinDip)
        let sustained = sustainedTiltVariance
        let heading = errors.angle.row2.z + offsetHeadingVariance + agreement.variance + tanDip2 * sustained
            + imported.variance + unaveraged.variance
        let tilt = errors.largestTiltVariance + sustained
        headingUncertainty = min(180, heading.squareRoot() * Angle.degreesPerRadian)
        tiltUncertainty = min(180, tilt.squareRoot() * Angle.degreesPerRadian)
    }

    /// Whether the last magnetometer reading was disturbed: rejected (field
    /// strength or dip off the reference, or a heading that contradicts the
    /// gyro), or off the reference until the field carried with the board
    /// (``bodyFieldOffset``), or a step of the room's field, was taken out of it.
    public var isMagneticallyDisturbed: Bool { lastMagneticReadingRejected || rawFieldDisturbed }

    /// The offset of a field carried with the board (a magnet fixed to it),
    /// µT in the body frame, that is being removed from the readings; nil
    /// while none is trusted. A step of the field (``FieldStep``) is removed
    /// at once, but trusted as carried only once the board's turning shows
    /// it. See ``BodyFixedDisturbance``.
    public var bodyFieldOffset: Vector3? { carried.isTentative ? nil : carried.offset }

    /// Whether the board is still or turning slowly and steadily (the gyro bias is then being measured).
    public var isAtRest: Bool { rest.isAtRest }

    /// How many times `gyroBiasRandomWalk`'s variance the bias is taken to
    /// wander, at least 1: learned from how far the bias estimate moves
    /// (``BiasWalkEstimate``).
    public var gyroBiasWalkFactor: Double { biasWalk.factor }

    /// The learned undisturbed field: strength in µT and dip in degrees (positive down).
    public var magneticReference: (norm: Double, dip: Double)? {
        guard let n = magnetic.referenceNorm, let d = magnetic.referenceDip else { return nil }
        return (n, d * Angle.degreesPerRadian)
    }

    /// Fuses one sample. `acceleration` is specific force (m/s²), `magneticField`
    /// the calibrated field (µT), `angularRate` the raw gyro (rad/s), all in the
    /// body frame; `dt` the seconds since the previous sample.
    ///
    /// A sample with a non-finite value or a zero vector is ignored. `dt ≤ 0` is
    /// ignored too. After a gap longer than ``Settings/maximumTimeStep`` the
    /// heading restarts from this sample's compass, with the tilt held before
    /// the gap where nothing shows it moved (see `keptLevel`), else from this
    /// sample's gravity too; the bias and field reference are kept. The first
    /// start levels from gravity averaged over its first moments (``StartLevel``). A shorter
    /// step that spans lost samples is bridged (``LostSampleBridge``).
    /// A magnetometer reading identical to the previous one is a slower
    /// magnetometer's held value, not a new measurement: it corrects nothing.
    ///
    /// `speed` (m/s) and `course` (radians clockwise from magnetic north),
    /// when a position source reports them, give the acceleration of the
    /// vehicle the board rides (``VehicleAcceleration``), which is taken out
    /// of the specific force before it levels the estimate.
    public mutating func update(acceleration a: Vector3, magneticField m: Vector3, angularRate w: Vector3, dt: Double,
                                speed: Double? = nil, course: Double? = nil) {
        guard a.isFinite, m.isFinite, w.isFinite, dt.isFinite, a.squaredLength > 0, m.squaredLength > 0 else { return }
        let isNewField = m != lastField
        lastField = m
        if !isInitialized || dt > settings.maximumTimeStep {
            start(acceleration: a, magneticField: m, angularRate: w, dt: dt)
            return
        }
        guard dt > 0 else { return }
        let (rate, r) = integrate(angularRate: w, dt: dt)
        if saturation.mayBeClipped(w) { noteClipping(rawRate: w, dt: dt, rotation: r) }
        rest.add(angularRate: w, acceleration: a, field: m, dt: dt)
        let aE = r * (a - leverArm.acceleration)
        let carrier = vehicle.update(speed: speed, course: course, rate: rate, forward: settings.vehicleForwardAxis,
                                     rotation: r, specificForce: aE, dt: dt)
        pending.specificForce += (carrier.map { a - r.transposedTimes($0) } ?? a) * dt
        gravity.add(carrier.map { aE - $0 } ?? aE, rotation: r, dt: dt)
        if isNewField { pending.field = m }
        pending.fieldAge = isNewField ? 0 : pending.fieldAge + dt
        pending.sinceHeading += dt
        pending.rotation += turned
        guard growth.time >= Self.correctionInterval else { return }
        correct(rotation: r, rate: rate)
    }

    /// The latest new magnetometer reading not yet fused, how long ago it
    /// came, and the time and rotation since a reading was last fused.
    private struct PendingField: Sendable {
        var field: Vector3?
        var fieldAge = 0.0
        var sinceHeading = 0.0
        var rotation = 0.0
        /// The rotation vector and the compass error's forgetting summed since the last correction.
        var turn = Vector3.zero
        var forgetting = 0.0
        /// What the rotation over lost samples may be off by, rad² about each axis.
        var bridgedVariance = 0.0
        /// The rotation clipped gyro readings may have missed (``GyroSaturation``) since the
        /// last correction, rad, earth frame; and whether any was missed since a reading was last fused.
        var missedRotation = Vector3.zero
        var clippedSinceHeading = false
        /// The specific force summed over the samples since the last correction, times their steps, m/s,
        /// less the vehicle's acceleration where a speed gives it: what the lever arm is fitted to.
        var specificForce = Vector3.zero
    }

    /// The corrections run at most this often, s: the errors they correct
    /// change over seconds, and their cost must not grow with the sample rate.
    static let correctionInterval = 0.04

    /// One correction: grow the covariance over the time since the last one,
    /// then bias at rest, tilt, and heading from the latest magnetometer
    /// reading, and apply what they found.
    private mutating func correct(rotation r: Matrix3, rate: Vector3) {
        let interval = growth.time
        if let taught = leverArm.observe(rate: pending.turn * (1 / interval),
                                         specificForce: pending.specificForce * (1 / interval),
                                         gravity: r.row2 * gravity.restingStrength, interval: interval) {
            unlearnSwingBias(taught)
        }
        pending.specificForce = .zero
        tiltSpread.add(up: r.row2, interval: interval)
        completeGrowth(rotation: r)
        errors.predict(growth)
        growth = AttitudeErrorFilter.Growth()
        if pending.missedRotation != .zero {
            errors.widenAngle(byMissed: pending.missedRotation)
            pending.missedRotation = .zero
        }
        // The gyro carried the attitude with the Earth's rotation as well
        // (``EarthRotation``): turned back in the earth frame with the rest
        // of the correction, so that every reading below is judged without it.
        let earth = EarthRotation.vector(sinDip: magnetic.referenceSinDip)
        var correction = AttitudeErrorFilter.Correction(angle: earth * -interval)
        let biasUncertainty = max(errors.bias[0, 0], errors.bias[1, 1], errors.bias[2, 2]).squareRoot()
        if let (window, span) = rest.evaluate(gyroBias: gyroBias, biasUncertainty: biasUncertainty) {
            correctBiasWhileSteady(&correction, window: window, interval: span, rotation: r, earthRate: earth)
        }
        let explainableTilt = correctTilt(&correction, interval: interval)
        if let m = pending.field {
            // A held reading came `fieldAge` ago: turned into the present, as
            // an earth-fixed field turns in the body (m' = m × ω; a field
            // carried with the board does not turn), it is read with the
            // attitude of now.
            let present = m + (m - (carried.offset ?? .zero)).cross(rate) * pending.fieldAge
            correctHeading(&correction, field: present, rotation: r, rate: rate, dt: pending.sinceHeading)
            pending.field = nil
            pending.fieldAge = 0
            pending.sinceHeading = 0
            pending.rotation = 0
            pending.clippedSinceHeading = false
        }
        apply(correction)
        biasWalk.observe(bias: gyroBias, trace: errors.bias.trace, time: elapsed, walkIntensity: coefficients.biasNoise)
        unconfirmed.record(angle: correction.angle + earth * interval, gyroBias: gyroBias, rotation: r, interval: interval,
                           accelerating: explainableTilt > 0)
        gravity.learnStrengthWhileMoving(interval: interval)
        updateUncertainties()
    }

    /// Carries the attitude with the bias-corrected gyro and adds the step to
    /// the error growth since the last correction; returns the bias-corrected
    /// rate and the new body → earth rotation. Only what must be summed per
    /// sample is: the rest of the growth is worked out once per correction.
    @inline(__always) // one call per sample: out of line, its matrix came back through memory
    private mutating func integrate(angularRate w: Vector3, dt: Double) -> (rate: Vector3, rotation: Matrix3) {
        let rate = w - gyroBias
        var step = rate * dt
        if let bridged = lostSamples.correction(rawRate: w, dt: dt) {
            step += bridged.rotation
            pending.bridgedVariance += bridged.variance
        }
        turned = step.length
        elapsed += dt
        lastStep = dt
        attitude = attitude * Self.rotation(step)
        let r = attitude.rotationMatrix
        growth.rotationIntegral = growth.rotationIntegral + r * dt
        growth.time += dt
        pending.turn += step
        // The compass error decorrelates as the board turns, and slowly with time.
        pending.forgetting += min(dt * coefficients.inverseCompassLifetime + turned * coefficients.inverseCompassAngle,
                                  dt * coefficients.inverseCompassTime)
        return (rate, r)
    }

    /// What a clipped gyro axis may have missed (``GyroSaturation``), turned into the earth frame.
    @inline(never) // fast turns only: kept out of the per-sample path
    private mutating func noteClipping(rawRate w: Vector3, dt: Double, rotation r: Matrix3) {
        let missed = saturation.missedRotation(rawRate: w, dt: dt)
        guard missed != .zero else { return }
        pending.missedRotation += r * missed
        pending.clippedSinceHeading = true
    }

    /// Completes the growth since the last correction: the gyro's noise and
    /// scale error (each earth axis grows with the rotation about it), the
    /// bias's random walk, and how much of the compass error is left.
    private mutating func completeGrowth(rotation r: Matrix3) {
        let time = growth.time
        let turnE = r * pending.turn
        netTurnAboutUp += turnE.z
        growth.angleNoise = Vector3(abs(turnE.x), abs(turnE.y), abs(turnE.z)) * loops.variance
            + Vector3(1, 1, 1) * (noise.gyroNoiseIntensity * time + pending.bridgedVariance)
        growth.biasNoise = coefficients.biasNoise * biasWalk.factor * time
        // The deviation is learned against the raw gyro: the bias estimate follows the compass.
        deviation.corrected(by: -(growth.rotationIntegral * gyroBias).z)
        let missedAboutUp = pending.missedRotation.z
        deviation.grew(turn: turnE.z,
                       heading: noise.gyroNoiseIntensity * time + pending.bridgedVariance + missedAboutUp * missedAboutUp)
        let memory = 1 / (1 + pending.forgetting)
        compassError *= memory
        growth.compassMemory = memory
        growth.compassNoise = (1 - memory * memory) * compassErrorVariance
        let c = coefficients
        unaveraged.grow(interval: time, turn: turnE, pathForgetting: pending.forgetting,
                        timeForgetting: time * c.inverseCompassLifetime, perAngle: c.inverseCompassAngle,
                        fastest: time * c.inverseCompassTime, headingNoise: growth.angleNoise.z,
                        biasNoise: growth.biasNoise, compassVariance: compassErrorVariance)
        pending.turn = .zero
        pending.forgetting = 0
        pending.bridgedVariance = 0
        attitude = attitude.normalized
    }

    /// While the board is still or turns slowly and steadily, the gyro's mean
    /// less the rotation that gravity's and the field's drift show is its bias
    /// (``SteadyRotation``): about the horizontal axes from gravity, about up
    /// from the field, whenever the field stays on its line (a field fixed in
    /// the room, disturbed or not). The drift is trusted no better than
    /// ``Settings/steadyRateUncertainty``: sensors drift and boards settle.
    private mutating func correctBiasWhileSteady(_ correction: inout AttitudeErrorFilter.Correction,
                                                 window e: SteadyRotation.Estimate, interval: Double,
                                                 rotation r: Matrix3, earthRate earth: Vector3) {
        lastSteadyWindow = elapsed
        let shown = (horizontalBiasInnovation(e, along: r.row0, earthRate: earth.x, pending: correction.bias),
                     horizontalBiasInnovation(e, along: r.row1, earthRate: earth.y, pending: correction.bias))
        let windowVariance = horizontalWindowVariance(e)
        let horizontalUsable = confirmsBias(shown, rotation: r, pending: correction.bias, variance: windowVariance)
        guard !isAccelerating(e), !driftContradictsGyro(shown, rotation: r, windowVariance: windowVariance) else { return }
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
        let innovation = up.dot(e.lineRate - gyroBias - correction.bias) - e.verticalRate - earth.z
        // The compass error changes along a turn: the field's drift shows its
        // change as rotation, about σ_e per correlation angle turned. The turn
        // rate that sizes it is the gyro's, whose noise is not the drift's:
        // sized by the drift's own rate, the windows whose noise slowed the
        // turn weighed more, and part of every slow turn was learned as bias.
        let gyroRate = up.dot(e.meanRate - gyroBias) - earth.z
        let expectedRateSquared = gyroRate * gyroRate + up.dot(errors.bias * up)
        let compassDrift = compassErrorVariance * expectedRateSquared
            / (coefficients.compassCorrelationAngle * coefficients.compassCorrelationAngle)
        let verticalNoise = (e.verticalVariance + e.lineRateVariance + floor + compassDrift) * overlap + white
        correction += errors.measureBias(along: up, innovation: innovation, noise: verticalNoise)
        unaveraged.measuredBias(noise: verticalNoise)
    }

    /// A steady window whose specific force is stronger than gravity as this accelerometer
    /// reads it at rest, by more than the accelerometer's error and the window's noise: a
    /// steady linear acceleration (a car pulling away at 2.6 m/s² reads 0.34 m/s² strong),
    /// which no rest shows. It teaches nothing: its readings would teach the resting
    /// strength that acceleration, and the sustained accelerations the average's length
    /// shows would then go unseen. It still counts as steady for giving way, and still
    /// shows ``BiasConfirmation`` its drift, which a translation's windows do not agree on.
    /// Until a rest has shown the strength, a scale error of 3 % is allowed as well.
    private func isAccelerating(_ e: SteadyRotation.Estimate) -> Bool {
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
    /// and north in body coordinates), with `windowVariance` each.
    private func driftContradictsGyro(_ shown: (Double, Double), rotation r: Matrix3, windowVariance: Double) -> Bool {
        for (axis, innovation) in [(r.row0, shown.0), (r.row1, shown.1)]
        where innovation * innovation > Self.restGateSquared * (axis.dot(errors.bias * axis) + windowVariance) {
            return true
        }
        return false
    }

    /// The variance of what a steady window shows of the bias about each
    /// horizontal axis: gravity's drift, the gyro's mean and the rest-rate floor.
    private func horizontalWindowVariance(_ e: SteadyRotation.Estimate) -> Double {
        e.horizontalVariance + e.meanRateVariance + coefficients.steadyRateVariance
    }

    /// Puts the window's horizontal bias innovations `shown` (with `variance`
    /// each) to ``BiasConfirmation``: whether they may correct the bias (false
    /// while they wait for a second window to agree). Once two agree, the
    /// widening that giving way asked for is applied.
    private mutating func confirmsBias(_ shown: (Double, Double), rotation r: Matrix3, pending: Vector3,
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

    private mutating func widenBias(_ w: BiasConfirmation.Widening) {
        errors.widenBias(along: w.first, variance: w.firstVariance)
        errors.widenBias(along: w.second, variance: w.secondVariance)
    }

    /// What a steady window shows of the bias about the horizontal body
    /// direction `axis`, beyond the estimate and the correction `pending`:
    /// the gyro's mean less the rotation gravity's drift shows and the
    /// Earth's rate about that axis (`earthRate`), rad/s.
    private func horizontalBiasInnovation(_ e: SteadyRotation.Estimate, along axis: Vector3, earthRate: Double,
                                          pending: Vector3) -> Double {
        axis.dot(e.meanRate - gyroBias - pending - e.horizontalRate) - earthRate
    }

    /// Five standard deviations, squared: beyond them a rest window is no measurement of the bias.
    static let restGateSquared = 25.0

    /// Tilt from gravity: the rotation that brings the averaged "up" to +z
    /// (``GravityAverage``). The average remembers the estimate of the last
    /// correlation time, and a bias error has turned the estimate since: the
    /// tilt it shows is θ + lag·δb, not θ. Read as θ alone, the lag pushes the
    /// bias estimate further the way it is already wrong. How much of the
    /// board's motion the average keeps (``GravityAverage/residualMotionVariance``:
    /// quick swings average away), up to ``Settings/motionAcceleration``, sets
    /// how far the reading is trusted.
    ///
    /// A reading beyond the gate is ignored as a sustained acceleration (a
    /// vehicle turning), but only when the average's length shows one large
    /// enough to tilt it that far: an acceleration across gravity lengthens the
    /// average as it tilts it. A reading far off while the length stays that
    /// of gravity is no acceleration: the filter's own tilt is wrong, and the
    /// reading is fused, so no gate can lock the accelerometer out for good.
    /// Returns the tilt a sustained acceleration could explain, rad² (0 when none shows).
    private mutating func correctTilt(_ correction: inout AttitudeErrorFilter.Correction, interval: Double) -> Double {
        let shown = gravity.tilt, eastLag = gravity.eastLag, northLag = gravity.northLag
        let east = shown.east - correction.angle.x - eastLag.dot(correction.bias)
        let north = shown.north - correction.angle.y - northLag.dot(correction.bias)
        let c = coefficients
        let spread = (min(gravity.residualMotionVariance, c.motionAccelerationSquared) + c.accelerometerErrorSquared)
            / gravity.mean.squaredLength
        gravity.observe(east: east, north: north, dt: interval, sampleVariance: noise.accelerometerVariance,
                        sampleStep: lastStep)
        if let due = startTiltReview, elapsed >= due {
            startTiltReview = nil
            reviewStartTilt(east: east, north: north)
        }
        let disagreement = east * east + north * north
        let expected = spread + errors.tiltVariance(eastLag: eastLag, northLag: northLag)
        let explainable = gravity.explainableTilt(sampleVariance: noise.accelerometerVariance, dt: lastStep)
        let unexplained = disagreement > c.accelerationGateSquared * expected
            && disagreement > 2 * (explainable + speedLagTilt + expected)
        if gravity.unexplained(unexplained, dt: interval) >= settings.longestTiltInconsistency {
            giveWayToGravity(east: east, north: north, interval: interval)
        }
        if disagreement > c.accelerationGateSquared * expected, !unexplained { return explainable }
        // The part of a lasting disagreement (one that holds its direction, as
        // a vehicle's turn does and hand motion does not) that a sustained
        // acceleration explains is that acceleration, not tilt, for as long
        // as such accelerations last.
        let lasting = gravity.persistentDisagreement
        let sustained = min(explainable, lasting.squaredLength)
        // A change of speed the speed does not show yet leans the reading for about its delay.
        let correlated = (spread + speedLagTilt) * c.tiltCorrelation + sustained * c.sustainedCorrelation
        correction += errors.measureTilt(east: east, north: north, eastLag: eastLag, northLag: northLag,
                                         noise: correlated / interval)
        return explainable
    }

    /// Gravity, plainly gravity's strength, has contradicted the filter's tilt
    /// far beyond its gate for ``Settings/longestTiltInconsistency``: the
    /// filter is wrong (a knock the gyro missed, a bias that jumped), or the
    /// board is carried slowly to and fro. Its tilt variance grows by the
    /// disagreement, so the reading moves the tilt at once. The bias about the
    /// horizontal axes grows by what would have turned it that far, at once
    /// while the board moves, but while it is steady only once two rest
    /// windows show the same bias (``BiasConfirmation``): a translation's do not.
    /// The field's reference dip, read through that tilt, may be as far off.
    private mutating func giveWayToGravity(east: Double, north: Double, interval: Double) {
        errors.angle[0, 0] += east * east
        errors.angle[1, 1] += north * north
        magnetic.tiltWasOff(by: east * east + north * north)
        let r = attitude.rotationMatrix
        // A bias that built the error up over the time it went unexplained, at
        // most the turn-on uncertainty: widening more would let one reading,
        // acceleration and all, throw the bias anywhere.
        let time = gravity.unexplainedFor + settings.motionCorrelationTime
        let most = coefficients.initialBiasVariance
        let widening = BiasConfirmation.Widening(first: r.row0, firstVariance: min(most, east * east / (time * time)),
                                                 second: r.row1, secondVariance: min(most, north * north / (time * time)))
        if elapsed - lastSteadyWindow < 2 * settings.restMinimumDuration {
            biasConfirmation.doubt(widening, now: elapsed)
        } else {
            widenBias(widening)
        }
        gravity.gaveWay()
    }

    /// The start's tilt was a moment's (``StartLevel``), trusted as far as a
    /// board at rest allows, but a board switched on while moved was tilted by its
    /// acceleration (up to 30° in a hand's sway). One correlation time on, the
    /// average shows how far (`east`, `north`, rad): the tilt is made that
    /// uncertain about each axis, the heading read through it by tan²(dip)
    /// times as much, and the field's reference dip read through it as well.
    /// So the readings that follow correct the tilt and the heading, not the
    /// gyro bias: a bias could not have turned the board that far in a second.
    private mutating func reviewStartTilt(east: Double, north: Double) {
        let off = east * east + north * north
        guard off > errors.largestTiltVariance else { return }
        errors.angle[0, 0] = max(errors.angle[0, 0], east * east)
        errors.angle[1, 1] = max(errors.angle[1, 1], north * north)
        let fieldE = attitude.rotationMatrix * lastField
        let horizontalSquared = fieldE.x * fieldE.x + fieldE.y * fieldE.y
        if horizontalSquared > 0 {
            errors.angle[2, 2] += fieldE.z * fieldE.z / horizontalSquared * off
        }
        magnetic.tiltWasOff(by: off)
    }

    /// The tilt, rad², by which a vehicle's change of acceleration that its
    /// speed does not show yet may lean the reading (``VehicleAcceleration``):
    /// a disagreement it explains is no sign that the filter is wrong.
    private var speedLagTilt: Double {
        let lag = vehicle.alongTrackLag / gravity.restingStrength
        return lag * lag
    }

    /// How far acceleration the average did not remove may have tilted the
    /// estimate, rad², beyond the filter's own tilt variance: the filter
    /// cannot see it, since the average it follows contains it. The lasting
    /// disagreement (one that holds its direction for a sustained
    /// acceleration's time), plus as much of the recent disagreement as the
    /// sustained acceleration the average's length shows could explain, plus
    /// the tilt taken from the accelerometer while such an acceleration could
    /// have caused it (``UnconfirmedTilt``).
    private var sustainedTiltVariance: Double {
        @inline(__always) get { // out of line, the whole fusion was copied to call it
            let level = gravity.explainableTilt(sampleVariance: noise.accelerometerVariance, dt: lastStep)
            return min(level, gravity.disagreement) + gravity.persistentDisagreement.squaredLength + unconfirmed.variance
        }
    }

    /// Heading from the horizontal field, less any field carried with the
    /// board. `m` is the reading turned into the present; `dt` the time since
    /// the previous reading was fused.
    private mutating func correctHeading(_ correction: inout AttitudeErrorFilter.Correction, field m: Vector3,
                                         rotation r: Matrix3, rate: Vector3, dt: Double) {
        let measuredE = r * m
        magnetic.tiltVariance = errors.largestTiltVariance
        offsetHeadingVariance = 0
        imported.turned(to: attitude, correlationAngle: coefficients.compassCorrelationAngle)
        let holding = fieldStepped(m, rotation: r, rate: rate, dt: dt)
        room.aged(dt: dt, growthTime: settings.fieldReferenceTime)
        let reading = lessOffsets(m, measured: measuredE, rotation: r, rate: rate, dt: dt)
        if holding {
            agreement.held(for: dt)
            lastMagneticReadingRejected = true
            shift.skipped(turned: pending.rotation)
            compassLearningInterrupted()
            return
        }
        weighOffsets(of: reading, rotation: r, correction: correction, dt: dt)
        lastMagneticReadingRejected = true
        defer {
            rawFieldDisturbed = readsCompassLessAnOffset
                && !magnetic.matches(fieldInEarth: measuredE, norm: measuredE.length)
        }
        guard magnetic.classify(fieldInEarth: reading.earth, norm: reading.norm, rotation: pending.rotation, dt: dt),
              reading.horizontalSquared > 1e-6 * reading.norm * reading.norm else {
            agreement.reset()
            shift.skipped(turned: pending.rotation)
            compassLearningInterrupted()
            return
        }
        let heading = compassHeading(of: reading, rotation: r)
        let innovation = heading.corrected - correction.angle.z - compassError - correction.compass
        let readingNoise = headingNoise(of: reading, rate: rate)
        // A compass that turned while the gyro did not is disturbed, however clean its field looks.
        if shift.observe(heading: heading.corrected, innovation: innovation, noise: readingNoise.undisturbed,
                         headingVariance: errors.angle.row2.z, turned: pending.rotation,
                         gateSquared: coefficients.magneticGateSquared) {
            agreement.reset()
            compassLearningInterrupted()
            return
        }
        let accepted = innovation * innovation
            <= coefficients.magneticGateSquared * (errors.compassHeadingVariance + readingNoise.white)
        judgeAgreement(innovation: innovation, accepted: accepted, correction: correction, noise: readingNoise,
                       rotation: r, dt: dt)
        guard accepted else {
            compassLearningInterrupted()
            return
        }
        fuseHeading(innovation: innovation, noise: readingNoise, into: &correction)
        // The reference, and the compass error's size, are learned from the earth field alone, never through an offset.
        if !readsCompassLessAnOffset {
            learn(from: reading, heading: heading, innovation: innovation, noise: readingNoise, correction: correction,
                  rotation: r, dt: dt)
        }
        lastMagneticReadingRejected = false
    }

    /// A magnetometer reading as the heading correction reads it.
    private struct CompassReading {
        /// Body frame, less the room's field where one is removed (a carried field's offset is learned from it).
        var body: Vector3
        /// Earth frame, less the room's field and the carried one.
        var earth: Vector3
        /// Strength less both, µT.
        var norm: Double
        var horizontalSquared: Double { earth.x * earth.x + earth.y * earth.y }
    }

    /// A reading's heading (`read`); the same less the compass's deviation with
    /// heading where that is learned (`corrected`); and the board's heading the
    /// deviation is read at, nil when the forward axis is too steep for one.
    private struct CompassHeading {
        var read: Double
        var corrected: Double
        var board: (sin: Double, cos: Double)?
    }

    /// The noise of a reading's heading, rad².
    private struct ReadingNoise {
        /// Each reading's own: the magnetometer's, and the turn during its latency.
        var own: Double
        /// With what readings share: the tilt's uncertainty times tan²(dip), and the offsets'.
        var undisturbed: Double
        /// A disturbance within the tolerance: a field whose strength or dip is
        /// off by d µT beyond what noise explains is bent by at least that, and
        /// by as much again unseen, so it may point up to 2·d/h off.
        var bend: Double
        var tanDipSquared: Double
        var white: Double { undisturbed + bend }
    }

    /// The reading less the room's field, where one is removed, and less a
    /// field carried with the board, where one is learned (``trackCarriedField``).
    private mutating func lessOffsets(_ m: Vector3, measured measuredE: Vector3, rotation r: Matrix3, rate: Vector3,
                                      dt: Double) -> CompassReading {
        let m = room.removed.map { m - r.transposedTimes($0.earth) } ?? m
        let rawE = room.removed.map { measuredE - $0.earth } ?? measuredE
        var reading = CompassReading(body: m, earth: rawE, norm: m.length)
        if let o = trackCarriedField(fieldInEarth: rawE, rotation: r, rate: rate, dt: dt) {
            reading.earth = rawE - r * o
            reading.norm = (m - o).length
        }
        return reading
    }

    /// How far the offsets taken from the reading may leave its heading off
    /// (``offsetHeadingVariance``), and whether a room's field taken from it has faded.
    private mutating func weighOffsets(of reading: CompassReading, rotation r: Matrix3,
                                       correction: AttitudeErrorFilter.Correction, dt: Double) {
        let offsetVariance = (carried.offset != nil ? carried.offsetVariance : 0) + (room.removed?.variance ?? 0)
            + Self.stepAmbiguity(tentative: carried.isTentative ? carried.offset : nil, step: room.unresolved?.earth,
                                 rotation: r)
        if offsetVariance > 0 {
            offsetHeadingVariance = offsetVariance / (1.5 * reading.horizontalSquared) // 2 of 3 axes are horizontal
        }
        if let removed = room.removed {
            noticeRoomStepFading(corrected: reading.earth, measured: reading.earth + removed.earth,
                                 correction: correction, dt: dt)
        }
    }

    /// The reading's heading, corrected by the deviation table where it is
    /// learned: from the plain readings, so not once an offset is taken from them.
    private mutating func compassHeading(of reading: CompassReading, rotation r: Matrix3) -> CompassHeading {
        let read = atan2(reading.earth.x, reading.earth.y)
        let board = Self.heading(of: settings.vehicleForwardAxis, rotation: r)
        var learned: Double?
        if let board, !readsCompassLessAnOffset { learned = deviation.deviation(heading: board, bodyUp: r.row2) }
        takeDeviation(learned)
        return CompassHeading(read: read, corrected: read - (learned ?? 0), board: board)
    }

    /// The reading's noise: its own, what the tilt's uncertainty does to the
    /// heading, the offsets' uncertainty, and a disturbance within the
    /// tolerance. The compass reads the heading through the filter's tilt, and
    /// while the averaged accelerometer disagrees with that tilt, which of the
    /// two is wrong is not yet known: the tilt may be off by as much.
    @inline(__always) // out of line, the whole fusion would be copied to call it
    private func headingNoise(of reading: CompassReading, rate: Vector3) -> ReadingNoise {
        let turning = rate.cross(reading.body).squaredLength * coefficients.latencySquared
        let departure = magnetic.departure(fieldInEarth: reading.earth, norm: reading.norm)
        let disturbance = max(0, departure * departure - 4 * noise.magnetometerVariance)
        let horizontalSquared = reading.horizontalSquared
        let tanDipSquared = reading.earth.z * reading.earth.z / horizontalSquared
        let own = (noise.magnetometerVariance + turning) / horizontalSquared
        let undisturbed = own + tanDipSquared * max(errors.angle.row1.y, gravity.disagreement) + offsetHeadingVariance
        return ReadingNoise(own: own, undisturbed: undisturbed, bend: 4 * disturbance / horizontalSquared,
                            tanDipSquared: tanDipSquared)
    }

    /// Puts the reading to ``CompassAgreement``, which judges the compass
    /// itself against the heading (what the compass-error estimate explains
    /// away is part of the disagreement), and gives way to it when it asks.
    private mutating func judgeAgreement(innovation: Double, accepted: Bool, correction: AttitudeErrorFilter.Correction,
                                         noise: ReadingNoise, rotation r: Matrix3, dt: Double) {
        let raw = innovation + compassError + correction.compass
        if agreement.observe(innovation: raw, accepted: accepted, expected: errors.angle.row2.z + compassErrorVariance,
                             white: noise.white, dt: dt, compassVariance: compassErrorVariance,
                             bendVariance: noise.bend, turned: pending.rotation) {
            giveWayToCompass(disagreement: agreement.disagreement,
                             lasting: max(agreement.rejectedFor, agreement.inconsistentFor), rotation: r)
        }
    }

    /// Fuses an accepted reading: the heading, and the bias and compass error
    /// it is correlated with; the possible bend it imports; its share of the
    /// unaveraged compass error.
    private mutating func fuseHeading(innovation: Double, noise: ReadingNoise,
                                      into correction: inout AttitudeErrorFilter.Correction) {
        // What the compass error's learned size already allows for is not counted twice.
        let bend = max(0, noise.bend - compassErrorVariance).squareRoot()
        imported.corrected(gain: errors.headingGain(noise: noise.white), possibleBend: bend)
        correction += errors.measureHeading(innovation: innovation, noise: noise.white)
        unaveraged.measuredHeading(noise: noise.white)
    }

    /// What a clean reading of the plain earth field teaches beyond the
    /// heading: the compass error's size, the gyro's rate error over loops, the
    /// field's reference, and the compass's deviation with heading.
    private mutating func learn(from reading: CompassReading, heading: CompassHeading, innovation: Double,
                                noise: ReadingNoise, correction: AttitudeErrorFilter.Correction,
                                rotation r: Matrix3, dt: Double) {
        let up = r.row2, biasUp = up.dot(errors.bias * up), rateError = loops.variance
        let smoothed = compassSpread.observe(innovation: innovation + compassError + correction.compass,
                                             whiteVariance: noise.white, attitude: attitude, time: elapsed) { turned, time in
            rateError * turned * turned + biasUp * time * time
        }
        loops.observe(smoothed, netTurn: netTurnAboutUp, compassVariance: compassErrorVariance,
                      persistentVariance: noise.tanDipSquared * errors.largestTiltVariance,
                      biasVariance: biasUp)
        magnetic.learn(norm: reading.norm, sinDip: -reading.earth.z / reading.norm, dt: dt)
        if let board = heading.board {
            deviation.observe(difference: heading.read - correction.angle.z, ownVariance: noise.own,
                              sharedVariance: noise.undisturbed - noise.own, heading: board,
                              bodyUp: r.row2, time: elapsed, prior: compassErrorVariance,
                              driftPrior: coefficients.initialBiasVariance, scalePrior: rateError)
        }
    }

    /// The compass-error state held the deviation the readings now lose, or
    /// lost the one they now keep: it moves with the reading when the table
    /// starts or stops being read, not when it follows the heading.
    private mutating func takeDeviation(_ angle: Double?) {
        if (angle == nil) != (deviationInUse == nil) {
            compassError += (deviationInUse ?? 0) - (angle ?? 0)
        }
        deviationInUse = angle
    }

    /// The heading (sin, cos) of a body axis in the filter's frame; nil when
    /// it is too steep for one.
    private static func heading(of axis: Vector3, rotation r: Matrix3) -> (sin: Double, cos: Double)? {
        let f = r * axis
        let horizontal = (f.x * f.x + f.y * f.y).squareRoot()
        guard horizontal > 0.5 else { return nil }
        return (f.x / horizontal, f.y / horizontal)
    }

    /// A compass reading was disturbed or rejected: what is learned from pairs
    /// and loops of clean readings (the compass error's size, the gyro's rate
    /// error) starts afresh from the next one.
    private mutating func compassLearningInterrupted() {
        compassSpread.interrupted()
        loops.interrupted()
    }

    /// The compass, in a clean-looking field, has contradicted the filter for
    /// too long (``CompassAgreement``): the filter, not the field, is taken to
    /// be wrong. Its estimate of the compass's error is dropped and its heading
    /// variance grows by the disagreement, so that the compass moves the heading, and its bias
    /// variance about up by the drift rate that would explain it, so the next
    /// readings pull heading and bias back. Not the bias while the compass is
    /// read less an offset the filter is still learning (a carried or a room
    /// field): a wrong offset turns with the board, and its readings would
    /// teach the bias a drift the gyro never had.
    private mutating func giveWayToCompass(disagreement: Double, lasting: Double, rotation r: Matrix3) {
        // What the filter held of the compass's own error was part of the mistake.
        compassError = 0
        errors.forgetCompassError(variance: compassErrorVariance)
        errors.angle[2, 2] += disagreement * disagreement
        if !readsCompassLessAnOffset {
            let drift = disagreement / max(lasting, 1)
            errors.widenBias(along: r.row2, variance: min(coefficients.initialBiasVariance, drift * drift))
        }
        agreement.reset()
        restartUnaveraged(up: r.row2)
    }

    /// The two filters of ``UnaveragedCompassError`` start again from this filter's
    /// state (`up` in the body frame): whatever the filter now holds of the compass error is new.
    private mutating func restartUnaveraged(up: Vector3) {
        unaveraged.start(heading: errors.angle.row2.z, bias: up.dot(errors.bias * up), compass: errors.compass,
                         headingCompass: errors.compassAngle.z)
    }

    /// A lever arm is taken out for the first time (``LeverArmEstimate``): the
    /// tilt readings fused until then held the swing's acceleration, and
    /// through the tilt (and the compass it levels) taught the bias up to
    /// `rate`, rad/s. The bias is widened by that, at most to its turn-on
    /// uncertainty, so the readings now cleaned of it can teach it again.
    private mutating func unlearnSwingBias(_ rate: Double) {
        let variance = min(coefficients.initialBiasVariance, rate * rate)
        for axis in [Vector3.unitX, .unitY, .unitZ] {
            errors.widenBias(along: axis, variance: variance)
        }
    }

    /// Applies the estimated errors to attitude, bias and compass error.
    private mutating func apply(_ correction: AttitudeErrorFilter.Correction) {
        let angle = correction.angle, bias = correction.bias
        let turn = Self.rotation(angle)
        attitude = (turn * attitude).normalized
        fieldStep.corrected(by: turn)
        vehicle.corrected(by: turn)
        gyroBias += bias
        // An error beyond three of its standard deviations is no compass error: bounded there.
        let bound = 3 * compassErrorVariance.squareRoot()
        compassError = min(bound, max(-bound, compassError + correction.compass))
        compassSpread.corrected(by: angle.z)
        shift.corrected(by: angle.z)
        deviation.corrected(by: angle.z)
        gravity.corrected(angle: angle, bias: bias)
    }

    /// Compares the reading with the reference field as the current attitude
    /// predicts it and feeds the residual to ``BodyFixedDisturbance``. Returns
    /// the offset of a field carried with the board to remove, if one is trusted.
    private mutating func trackCarriedField(fieldInEarth mE: Vector3, rotation r: Matrix3, rate: Vector3,
                                            dt: Double) -> Vector3? {
        guard let norm = magnetic.referenceNorm else { return nil }
        let vertical = norm * magnetic.referenceSinDip
        let horizontal = (norm * norm - vertical * vertical).squareRoot()
        let referenceE = Vector3(0, horizontal, -vertical)
        let residualE = mE - referenceE
        let residual = r.transposedTimes(residualE)
        // How far the residual may stray while the offset stays the same: noise
        // averaged over the change time; the attitude uncertainty (the heading
        // turns the horizontal field, a tilt about east all of it, about north
        // the vertical part); the magnetometer's latency while the board turns.
        let allowance = noise.magnetometerVariance * 1.5 * min(1, dt / settings.bodyFieldChangeTime)
            + errors.angle.row2.z * horizontal * horizontal + errors.angle.row0.x * norm * norm
            + errors.angle.row1.y * vertical * vertical
            + coefficients.latencySquared * norm * norm * rate.squaredLength
        let offset = carried.update(residual: residual, earth: residualE, allowance: allowance, dt: dt)
        // A step the board's turning showed is not carried may be the room's;
        // if not, it is left to the strength and dip tests and the heading's gate.
        if !carried.isTentative {
            room.carriedStepResolved(residual: offset == nil ? residualE : nil, reference: referenceE,
                                     allowance: allowance + 3 * noise.magnetometerVariance,
                                     gateSquared: coefficients.magneticGateSquared)
        }
        return offset
    }

    /// A step taken for a carried field, while the turning has not yet shown
    /// whether it is: if it is the room's, removing it in the body frame is off
    /// by the difference between the step turned with the board since and the
    /// step as it was in the earth frame, µT². A board that turns away from
    /// where the step came would otherwise read a calibrated compass through a
    /// correction as wrong as the turn makes it, and follow it.
    ///
    /// Static, with what it reads passed in: a method on the fusion, called
    /// from a mutating one, took a copy of the whole fusion at every reading.
    private static func stepAmbiguity(tentative offset: Vector3?, step: Vector3?, rotation r: Matrix3) -> Double {
        guard let offset, let step else { return 0 }
        return (r * offset - step).squaredLength
    }

    /// Looks for a step of the body-frame field (``FieldStep``) and hands a
    /// confirmed one to the carried field's offset. Returns whether the reading
    /// must be held back while a step may be under way. What the attitude may
    /// be off by for a reading: the turn during the magnetometer's latency, and
    /// what the gyro's integration may miss of the turn since the previous
    /// reading (up to half of it, when the rate changed as fast as it turned).
    private mutating func fieldStepped(_ m: Vector3, rotation r: Matrix3, rate: Vector3, dt: Double) -> Bool {
        guard magnetic.referenceNorm != nil else { return false }
        // The readings are watched with the carried field's offset removed, so
        // that a carried field does not turn the earth-frame average; when the
        // offset moves, the readings it corrects move with it.
        let o = carried.offset ?? .zero
        // Nor is a field seen to step while the gyro, clipped, may have missed a turn.
        if (o - fieldStepOffset).squaredLength > noise.magnetometerVariance || pending.clippedSinceHeading {
            fieldStep.reset()
        }
        fieldStepOffset = o
        let halfTurn = 0.5 * pending.rotation
        let turning = 2 * (coefficients.latencySquared * rate.squaredLength + halfTurn * halfTurn) * m.squaredLength
        switch fieldStep.observe(m - o, rotation: r, noise: 3 * noise.magnetometerVariance, turning: turning, dt: dt,
                                 gateSquared: coefficients.magneticGateSquared) {
        case .none:
            // Storing nil copies the whole optional through memory: most readings find it nil already.
            if case .some = carriedBeforeStep { carriedBeforeStep = nil }
            return false
        case .holding:
            if carriedBeforeStep == nil { carriedBeforeStep = carried }
            return true
        case let .roomStep(s, variance):
            if let before = carriedBeforeStep { carried = before }
            carriedBeforeStep = nil
            room.stepped(by: .init(earth: s, variance: variance), gateSquared: coefficients.magneticGateSquared)
            return false
        case let .step(s, variance):
            // What the carried field's learning took in while the step settled is the step itself.
            if let before = carriedBeforeStep { carried = before }
            carriedBeforeStep = nil
            // The room's field going as it came, while the board held still.
            if room.steppedBack(by: .init(earth: r * s, variance: variance), gateSquared: coefficients.magneticGateSquared) {
                return false
            }
            let norm = magnetic.referenceNorm ?? 0, sinDip = magnetic.referenceSinDip
            let horizontalSquared = norm * norm * (1 - sinDip * sinDip)
            // The step is measured through the same calibration as the earth
            // field: off by as large a share of it as the compass error allows.
            let stepVariance = variance + compassErrorVariance * s.squaredLength
            carried.stepped(by: s, variance: stepVariance, tolerated: compassErrorVariance * horizontalSquared, rotation: r)
            room.tookCarriedStep(carried.isTentative ? .init(earth: r * s, variance: stepVariance) : nil)
            return false
        }
    }

    /// A room's field that faded rather than stepped back (the board carried
    /// away from it), shown for ``Settings/longestCompassInconsistency`` by
    /// either of two things: the readings as measured agree with the heading,
    /// and better than corrected; or they fit the reference's strength and dip
    /// within noise while the corrected ones do not. The second holds even
    /// after the heading has followed the corrected readings, which a field
    /// that fades over a minute gives it time to do. The correction is then
    /// dropped, and the heading's variance grows by the measured reading's
    /// disagreement with it. `corrected` and `measured` are the reading with
    /// and without it, earth frame.
    private mutating func noticeRoomStepFading(corrected: Vector3, measured: Vector3,
                                               correction c: AttitudeErrorFilter.Correction, dt: Double) {
        func innovation(_ e: Vector3) -> Double {
            Angle.wrapped(radians: atan2(e.x, e.y) - c.angle.z - compassError - c.compass)
        }
        let fromCorrected = innovation(corrected), fromMeasured = innovation(measured)
        let horizontalSquared = measured.x * measured.x + measured.y * measured.y
        let limit = coefficients.magneticGateSquared
            * (errors.compassHeadingVariance + 3 * noise.magnetometerVariance / horizontalSquared)
        let agrees = fromMeasured * fromMeasured <= limit && abs(fromMeasured) < abs(fromCorrected)
            && magnetic.matches(fieldInEarth: measured, norm: measured.length)
        let fitsBetter = !agrees && Self.fitsReference(
            measured, betterThan: corrected, reference: magnetic, gateSquared: coefficients.magneticGateSquared,
            noiseVariance: noise.magnetometerVariance, tiltVariance: errors.largestTiltVariance)
        if room.observeFading(agrees: agrees || fitsBetter, dt: dt,
                              longest: settings.longestCompassInconsistency) {
            // The heading may have followed the corrected readings as the field
            // faded: it is as unsure as the readings now disagree with it.
            errors.angle[2, 2] += fromMeasured * fromMeasured
        }
    }

    /// Whether reading `e` (earth frame) departs from the reference's strength
    /// and dip by no more than noise and the tilt's uncertainty allow, while
    /// `other` departs by more. Static, so that calling it does not copy the fusion.
    private static func fitsReference(_ e: Vector3, betterThan other: Vector3, reference: MagneticDisturbanceRejection,
                                      gateSquared: Double, noiseVariance: Double, tiltVariance: Double) -> Bool {
        let norm = e.length
        // The departure has two parts, strength and the dip's arc; a tilt error turns the dip.
        let allowed = gateSquared * (2 * noiseVariance + tiltVariance * norm * norm)
        let fits = reference.departure(fieldInEarth: e, norm: norm)
        let misses = reference.departure(fieldInEarth: other, norm: other.length)
        return fits * fits <= allowed && misses * misses > allowed
    }

    /// The magnetometer calibration changed: `map` takes a reading calibrated the
    /// old way to the new way. A field carried with the board that was being
    /// removed may have been the very offset the new calibration removes, so it
    /// is forgotten (and learned again if it is still there). The compass now
    /// indicates a heading that differs by about the angle between the last
    /// reading's horizontal part, old and new. The heading variance grows just
    /// enough for 1.5 × that jump to pass the gate (``Settings/magneticGate``),
    /// or the corrected compass would be rejected as contradicting the gyro;
    /// no more, or the filter would follow the next few compass readings,
    /// motion and all. The earth field's strength and dip reference is
    /// learned again from the next readings when the last reading, newly
    /// calibrated, no longer matches it (it was learned through a wrong
    /// calibration). Attitude and gyro bias are kept. The compass error is
    /// another one now: what was learned of it is forgotten, and its size
    /// starts again from `compassError` (degrees, the new profile's), when given.
    public mutating func calibrationChanged(compassError newError: Double? = nil, _ map: (Vector3) -> Vector3) {
        carried.reset()
        deviation.reset()
        shift.reset()
        fieldStep.reset()
        carriedBeforeStep = nil
        room.reset()
        offsetHeadingVariance = 0
        rawFieldDisturbed = false
        let radians = newError.map { $0 * Angle.radiansPerDegree }
        compassSpread = CompassErrorSpread(initialVariance: radians.map { $0 * $0 } ?? compassErrorVariance,
                                           smallestVariance: coefficients.smallestCompassVariance,
                                           pairAngle: 2 * coefficients.compassCorrelationAngle,
                                           longestPairTime: settings.compassErrorLifetime)
        loops.interrupted()
        compassError = 0
        errors.forgetCompassError(variance: compassErrorVariance)
        guard isInitialized, lastField.isFinite, lastField.squaredLength > 0 else {
            magnetic.reset()
            return
        }
        let r = attitude.rotationMatrix
        let old = r * lastField, new = r * map(lastField)
        let jump = 1.5 * abs(atan2(old.x * new.y - old.y * new.x, old.x * new.x + old.y * new.y))
        errors.angle[2, 2] += jump * jump / coefficients.magneticGateSquared
        restartUnaveraged(up: r.row2)
        if !magnetic.matches(fieldInEarth: new, norm: new.length) { magnetic.reset() }
    }

    /// Starts over: attitude, bias and field reference are forgotten.
    public mutating func reset() {
        self = AttitudeFusion(settings: settings)
    }

    /// After a gap, the tilt held before it, its variance grown by how far the
    /// tilt wandered before the gap (``TiltSpread``): one reading's tilt is off
    /// by its acceleration, 10–20° in a vehicle's curve, which the estimate held
    /// before the gap does not share. Not when the reading puts up more than
    /// ``largestBridgedTilt`` away or the tilt wandered that far (a tumbling
    /// board), nor when neither its acceleration (what its length shows) nor
    /// that wander explains its disagreement: the board was set down anew.
    private func keptLevel(acceleration a: Vector3) -> (up: Vector3, variance: Double)? {
        let up = attitude.rotationMatrix.row2
        let disagreement = acos(max(-1, min(1, up.dot(a.normalized))))
        let limit = Self.largestBridgedTilt * Self.largestBridgedTilt
        let held = errors.largestTiltVariance
        let variance = held + tiltSpread.changeVariance
        // What acceleration may explain: as hard as the board moved before the gap
        // (three standard deviations), or what the reading's length shows across
        // gravity (it lengthens to √(g² + α²)), allowing three of its noise's.
        let g = gravity.restingStrength, length = a.length + 3 * noise.accelerometerVariance.squareRoot()
        let across = max(0, length * length - g * g).squareRoot()
        let explained = atan(max(3 * gravity.motionVariance.squareRoot(), across) / g)
        guard disagreement * disagreement <= limit, tiltSpread.changeVariance <= limit,
              disagreement <= explained + 3 * variance.squareRoot() else { return nil }
        return (up, variance)
    }

    /// The largest tilt change across a gap for which the tilt held before it
    /// is kept, rad: beyond any sustained acceleration of a vehicle (0.6 g).
    static let largestBridgedTilt = 30 * Angle.radiansPerDegree

    /// Starts, or restarts after a gap longer than ``Settings/maximumTimeStep``.
    /// A restart keeps the tilt held before the gap where nothing shows it
    /// moved, else levels from the reading. The first start levels once
    /// ``StartLevel`` has averaged gravity for ``Settings/startLevelTime``, or
    /// the gyro shows gravity turned by twice the accelerometer's error, or a
    /// gap ends the gathering (a source slower than the gap's length); no
    /// heading is reported meanwhile.
    private mutating func start(acceleration a: Vector3, magneticField m: Vector3, angularRate w: Vector3, dt: Double) {
        let field = carried.offset.map { m - $0 } ?? m
        deviation.lostHeading()
        if hasStarted {
            let level = keptLevel(acceleration: a)
            initialize(up: level?.up ?? a.normalized, tiltVariance: level?.variance ?? coefficients.initialTiltVariance,
                       magneticField: field, strength: a.length)
            startTiltReview = level == nil ? elapsed + settings.motionCorrelationTime : nil
            return
        }
        let gap = dt > settings.maximumTimeStep
        if gap { startLevel = StartLevel() }
        startLevel.add(acceleration: a, rate: w - gyroBias, dt: startLevel.isGathering ? max(0, dt) : 0)
        let lag = 2 * settings.accelerometerError / a.length
        guard gap || startLevel.time >= settings.startLevelTime * (1 - 1e-9) || startLevel.turn >= lag else { return }
        let mean = startLevel.mean
        startLevel = StartLevel()
        initialize(up: mean.normalized, tiltVariance: coefficients.initialTiltVariance, magneticField: field,
                   strength: mean.length)
        startTiltReview = elapsed + settings.motionCorrelationTime
    }

    /// Sets the attitude from `up` (in the body frame: the accelerometer's
    /// direction at the start, the tilt held after a gap) and the field.
    private mutating func initialize(up upAxis: Vector3, tiltVariance tilt: Double, magneticField m: Vector3,
                                     strength: Double) {
        let eastAxis = m.cross(upAxis)
        let horizontal = eastAxis.length
        guard horizontal > 1e-3 * m.length else { return } // field along gravity: no heading
        let e = eastAxis / horizontal
        attitude = Quaternion(rotationMatrix: Matrix3(rows: e, upAxis.cross(e), upAxis))
        let mE = attitude.rotate(m)
        magnetic.tiltVariance = tilt
        let clean = magnetic.classify(fieldInEarth: mE, norm: m.length, rotation: 0, dt: 0)
        let keptBias = hasStarted ? errors.bias : Matrix3(diagonal: Vector3(1, 1, 1) * coefficients.initialBiasVariance)
        let tanDipSquared = mE.z * mE.z / (horizontal * horizontal)
        // The heading is the compass's: off by its noise, the tilt's effect and
        // the compass error, which the next readings at this attitude share.
        let headingVariance = clean
            ? noise.magnetometerVariance / (horizontal * horizontal) + tanDipSquared * tilt + compassErrorVariance
            : Double.pi * Double.pi
        errors = AttitudeErrorFilter(angleVariance: Vector3(tilt, tilt, headingVariance), bias: keptBias,
                                     compassVariance: compassErrorVariance)
        if clean { errors.compassAngle.z = -compassErrorVariance }
        restartUnaveraged(up: upAxis)
        compassError = 0
        gravity.start(strength: strength, motionVariance: settings.motionAcceleration * settings.motionAcceleration)
        lastMagneticReadingRejected = !clean
        rest.reset()
        agreement.reset()
        shift.reset()
        fieldStep.reset()
        carriedBeforeStep = nil
        room.reset()
        imported.reset()
        lostSamples.reset()
        saturation.reset()
        leverArm.interrupted()
        biasWalk.interrupted()
        unconfirmed.restart(gyroBias: gyroBias)
        biasConfirmation.reset()
        pending = PendingField()
        growth = AttitudeErrorFilter.Growth()
        isInitialized = true
        hasStarted = true
        updateUncertainties()
    }

    /// The unit quaternion of rotation vector `v`; a series for the small
    /// per-sample steps (exact to the fifth order), the closed form otherwise.
    @inline(__always)
    static func rotation(_ v: Vector3) -> Quaternion {
        let a2 = v.squaredLength
        guard a2 < 1e-2 else { return Quaternion(rotationVector: v) }
        let s = 0.5 - a2 / 48
        return Quaternion(w: 1 - a2 / 8 + a2 * a2 / 384, x: v.x * s, y: v.y * s, z: v.z * s)
    }
}
