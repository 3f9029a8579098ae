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
    public internal(set) var attitude = Quaternion.identity
    /// Estimated gyro bias in the body frame, rad/s (subtract it from raw readings).
    public internal(set) var gyroBias = Vector3.zero
    /// Estimated slope of the gyro bias with the part's temperature, body frame,
    /// rad/s per K; zero while the samples carry no temperature (``TemperatureBiasDrift``).
    public internal(set) var gyroBiasTemperatureSlope = Vector3.zero
    /// What the slope moved the bias by since the start, rad/s: not the bias's walk.
    var warmingShift = Vector3.zero
    /// Whether a usable sample has set the attitude yet.
    public internal(set) var isInitialized = false
    /// Estimated error of the compass heading at the current attitude, rad.
    public internal(set) var compassError = 0.0
    /// The learned size of the compass error over attitudes (``CompassErrorSpread``).
    public internal(set) var compassSpread: CompassErrorSpread
    /// The compass error's variance (1σ squared), rad².
    public var compassErrorVariance: Double { compassSpread.variance }
    /// Whether the compass is read less an offset the filter is still
    /// learning: a carried field's, or a field's switched on in the room.
    var readsCompassLessAnOffset: Bool { carried.offset != nil || room.removed != nil }
    /// The sensors' noise as learned at rest.
    public internal(set) var noise: SensorNoiseEstimate

    var errors: AttitudeErrorFilter
    var rest: RestDetector
    var agreement: CompassAgreement
    var magnetic: MagneticDisturbanceRejection
    var carried: BodyFixedDisturbance
    var shift = CompassShift()
    /// The plain earth field as read before: a jump back to it ends a disturbance.
    var fieldHistory = FieldHistory()
    var fieldStep: FieldStep
    /// The carried field's offset the readings ``fieldStep`` watches were corrected by, µT.
    var fieldStepOffset = Vector3.zero
    /// The carried field's learning as it was when readings were first held
    /// for a possible step.
    var carriedBeforeStep: BodyFixedDisturbance?
    /// A field switched on in the room, removed from the readings in the earth frame.
    var room = RoomFieldStep()
    /// The bend the heading took in from readings in a field disturbed within the tolerances.
    var imported = ImportedDisturbance()
    /// The compass's deviation with heading, learned as the board turns about a steady up.
    var deviation: CompassDeviation
    /// The deviation taken from the last reading, rad; nil when none was.
    var deviationInUse: Double?
    var lastMagneticReadingRejected = false
    var rawFieldDisturbed = false
    /// The last calibrated field reading, body frame, µT.
    var lastField = Vector3.zero
    /// The latest new magnetometer reading not yet fused, how long ago it
    /// came, and the time since a reading was last fused.
    var pending = PendingField()
    /// What the errors did since the last correction.
    var growth = AttitudeErrorFilter.Growth()
    /// Angle turned in the last step, rad.
    var turned = 0.0
    /// Seconds of samples fused, and the last step.
    var elapsed = 0.0
    /// When the start's tilt, a moment's (``StartLevel``), is checked against the average (``reviewStartTilt(east:north:)``).
    var startTiltReview: Double?
    /// Gravity gathered for a start (``StartLevel``).
    var startLevel = StartLevel()
    /// Whether the estimate ever started: a restart keeps the bias learned.
    var hasStarted = false
    /// When the rest detector last handed over a steady window.
    var lastSteadyWindow = -Double.infinity
    var biasConfirmation: BiasConfirmation
    var lastStep = 0.01
    /// What the uncertainty of the carried field's offset does to the heading,
    /// rad². It persists while the board turns, like a calibration error.
    var offsetHeadingVariance = 0.0
    var gravity: GravityAverage
    var unconfirmed: UnconfirmedTilt
    var vehicle: VehicleAcceleration
    var tiltSpread = TiltSpread()
    var lostSamples = LostSampleBridge()
    var saturation = GyroSaturation()
    var unaveraged = UnaveragedCompassError()
    var leverArm = LeverArmEstimate()
    /// The last sample's specific force (less the accelerometer's bias) and
    /// rotation, while a lever arm is taken out a sample late.
    var sampleBefore: (force: Vector3, rotation: Matrix3)?
    var accelerometerBias = AccelerometerBiasEstimate()
    var biasWalk = BiasWalkEstimate()
    var warming: TemperatureBiasDrift
    var loops: LoopRateError
    /// The gyro's scale error about the deviation table's up, taken out of its
    /// rate (``CompassDeviation/scaleAboutUp(bodyUp:)``): that up (body) times
    /// the share of the rate about it added, and the up itself.
    var upScaling = Vector3.zero, upScalingAxis = Vector3.zero
    /// The field the steady windows do not read, µT (body): they read the turn from
    /// the field's drift, and a field carried with the board does not drift, so
    /// the one trusted as carried (``bodyFieldOffset``) is taken out, as of the last correction.
    var steadyFieldOffset = Vector3.zero
    /// The gyro's net turn about up since the start, rad.
    var netTurnAboutUp = 0.0
    /// The fastest turn about up of the last ``turnMemory`` or so, rad/s (each
    /// correction's mean of the bias-corrected gyro, fading): the rate whose
    /// scale error a bias learned in motion may hold.
    var recentTurnRate = 0.0
    /// How long a turn's scale error stays in the bias learned during it, s:
    /// the bias follows the compass over seconds in motion.
    static let turnMemory = 10.0

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
        let perKelvin = settings.gyroBiasTemperatureCoefficient * Angle.radiansPerDegree
        deviation = CompassDeviation(levelTolerance: settings.deviationLevelTolerance * Angle.radiansPerDegree,
                                     averagingTime: settings.compassCorrelationTime,
                                     averagingTurn: settings.deviationAveragingTurn * Angle.radiansPerDegree,
                                     lifetime: settings.deviationLifetime, temperatureCoefficient: perKelvin)
        warming = TemperatureBiasDrift(coefficient: perKelvin)
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
    public internal(set) var headingUncertainty = 180.0

    /// One standard deviation of the tilt error (larger of the two horizontal axes), degrees.
    public internal(set) var tiltUncertainty = 180.0

    /// Works out ``headingUncertainty`` and ``tiltUncertainty`` for the state after a correction.
    mutating func updateUncertainties() {
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

    /// The accelerometer's zero-g offset taken out of its readings, m/s²,
    /// body frame: zero until the board has been turned over widely enough
    /// to tell it from a tilt (``AccelerometerBiasEstimate``).
    public var accelerometerOffset: Vector3 { accelerometerBias.bias }

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
    /// of the specific force before it levels the estimate. `temperature` (°C),
    /// the gyroscope's where it reports one, moves the bias by the slope with
    /// temperature the filter learns (``TemperatureBiasDrift``).
    public mutating func update(acceleration a: Vector3, magneticField m: Vector3, angularRate w: Vector3, dt: Double,
                                speed: Double? = nil, course: Double? = nil, temperature: Double? = nil) {
        guard a.isFinite, m.isFinite, w.isFinite, dt.isFinite, a.squaredLength > 0, m.squaredLength > 0 else { return }
        let a = a - accelerometerBias.bias
        let isNewField = m != lastField
        lastField = m
        if !isInitialized || dt > settings.maximumTimeStep {
            start(acceleration: a, magneticField: m, angularRate: w, dt: dt)
            return
        }
        guard dt > 0 else { return }
        let (rate, r) = integrate(angularRate: w, dt: dt)
        if saturation.mayBeClipped(w) { noteClipping(rawRate: w, dt: dt, rotation: r) }
        rest.add(angularRate: w, acceleration: a, field: m - steadyFieldOffset, dt: dt)
        let aE = leverArm.leverArm == nil ? r * a : swingFreeForce(a, rate: rate, rotation: r, dt: dt)
        let carrier = vehicle.update(speed: speed, course: course, rate: rate, forward: settings.vehicleForwardAxis,
                                     rotation: r, specificForce: aE, dt: dt)
        pending.specificForce += (carrier.map { a - r.transposedTimes($0) } ?? a) * dt
        gravity.add(carrier.map { aE - $0 } ?? aE, rotation: r, dt: dt)
        if isNewField { pending.field = m }
        pending.fieldAge = isNewField ? 0 : pending.fieldAge + dt
        pending.sinceHeading += dt
        pending.rotation += turned
        if let temperature { warming.observe(temperature, dt: dt) }
        guard growth.time >= Self.correctionInterval else { return }
        correct(rotation: r, rate: rate)
    }

    /// The specific force of the sample before this one, earth frame, less
    /// the lever arm's acceleration there (``LeverArmEstimate``), summed for
    /// the correction's mean: a sample late, so that the angular acceleration
    /// is centred on it. This sample's own while the arm has no two samples yet.
    @inline(__always)
    mutating func swingFreeForce(_ a: Vector3, rate: Vector3, rotation r: Matrix3, dt: Double) -> Vector3 {
        defer { sampleBefore = (a, r) }
        guard let swing = leverArm.acceleration(rate: rate, dt: dt), let before = sampleBefore else { return r * a }
        pending.swingAcceleration += swing * dt
        return before.rotation * (before.force - swing)
    }

    /// The latest new magnetometer reading not yet fused, how long ago it
    /// came, and the time and rotation since a reading was last fused.
    struct PendingField: Sendable {
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
        /// The lever arm's acceleration taken out of the samples since the last correction, times their steps, m/s.
        var swingAcceleration = Vector3.zero
        /// The turn about ``upScalingAxis`` the scale correction added, rad.
        var scaledTurn = 0.0
    }

    /// The corrections run at most this often, s: the errors they correct
    /// change over seconds, and their cost must not grow with the sample rate.
    static let correctionInterval = 0.04

    /// One correction: grow the covariance over the time since the last one,
    /// then bias at rest, tilt, and heading from the latest magnetometer
    /// reading, and apply what they found.
    mutating func correct(rotation r: Matrix3, rate: Vector3) {
        let interval = growth.time
        let meanRate = pending.turn * (1 / interval)
        recentTurnRate = max(abs(r.row2.dot(meanRate)), recentTurnRate * max(0, 1 - interval / Self.turnMemory))
        let meanForce = pending.specificForce * (1 / interval)
        let leverAcceleration = pending.swingAcceleration * (1 / interval)
        if let taught = leverArm.observe(rate: meanRate,
                                         specificForce: meanForce,
                                         gravity: r.row2 * gravity.restingStrength, interval: interval) {
            unlearnSwingBias(taught)
        }
        accelerometerBias.observe(specificForce: meanForce - leverAcceleration + accelerometerBias.bias,
                                  turn: pending.turn, gyroBias: gyroBias,
                                  gyroBiasVariance: (errors.bias.trace - r.row2.dot(errors.bias * r.row2)) / 2,
                                  rate: meanRate, interval: interval,
                                  rateErrorVariance: settings.gyroRateError * settings.gyroRateError)
        pending.specificForce = .zero
        pending.swingAcceleration = .zero
        tiltSpread.add(up: r.row2, interval: interval)
        completeGrowth(rotation: r)
        followScaleAboutUp(bodyUp: r.row2)
        if warming.temperature != nil { predictWarming() }
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
            let offset = carried.offset ?? .zero
            let turning = (m - offset).cross(rate)
            let present = m + turning * pending.fieldAge
            // The noise is learned from the reading also turned by the
            // magnetometer's own delay: each reading's noise counts that lag
            // already (``Settings/magnetometerLatency``), and it is no noise.
            let undelayed = present + turning * settings.magnetometerLatency
            noise.observeField(inEarth: r * (undelayed - offset), time: elapsed)
            correctHeading(&correction, field: present, rotation: r, rate: rate, dt: pending.sinceHeading)
            pending.field = nil
            pending.fieldAge = 0
            pending.sinceHeading = 0
            pending.rotation = 0
            pending.clippedSinceHeading = false
        }
        apply(correction)
        steadyFieldOffset = bodyFieldOffset ?? .zero
        // The warming's predicted move is the bias's, not a walk nor a move the gyro hid.
        let walkingBias = gyroBias - warmingShift
        biasWalk.observe(bias: walkingBias, trace: errors.bias.trace, time: elapsed, walkIntensity: coefficients.biasNoise)
        unconfirmed.record(angle: correction.angle + earth * interval, gyroBias: walkingBias, rotation: r,
                           interval: interval, accelerating: explainableTilt > 0)
        gravity.learnStrengthWhileMoving(interval: interval)
        updateUncertainties()
    }

    /// The part warmed since the last correction: the bias moves by the slope
    /// learned so far, and the filter's slope states grow with what is not
    /// known of it (``TemperatureBiasDrift``).
    mutating func predictWarming() {
        errors.startTrackingSlope(variance: warming.coefficient * warming.coefficient)
        let (change, slopeNoise) = warming.takeWarming()
        let shift = gyroBiasTemperatureSlope * change
        gyroBias += shift
        warmingShift += shift
        growth.warming = change
        growth.slopeNoise = slopeNoise
    }

    /// Carries the attitude with the bias-corrected gyro and adds the step to
    /// the error growth since the last correction; returns the bias-corrected
    /// rate and the new body → earth rotation. Only what must be summed per
    /// sample is: the rest of the growth is worked out once per correction.
    @inline(__always) // one call per sample: out of line, its matrix came back through memory
    mutating func integrate(angularRate w: Vector3, dt: Double) -> (rate: Vector3, rotation: Matrix3) {
        var rate = w - gyroBias
        if upScaling != .zero {
            let added = upScaling.dot(rate)
            pending.scaledTurn += added * dt
            rate += upScalingAxis * added
        }
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
    mutating func noteClipping(rawRate w: Vector3, dt: Double, rotation r: Matrix3) {
        let missed = saturation.missedRotation(rawRate: w, dt: dt)
        guard missed != .zero else { return }
        pending.missedRotation += r * missed
        pending.clippedSinceHeading = true
        accelerometerBias.restarted()
    }

    /// Completes the growth since the last correction: the gyro's noise and
    /// scale error (each earth axis grows with the rotation about it), the
    /// bias's random walk, and how much of the compass error is left.
    mutating func completeGrowth(rotation r: Matrix3) {
        let time = growth.time
        let turnE = r * pending.turn
        netTurnAboutUp += turnE.z
        growth.angleNoise = Vector3(abs(turnE.x), abs(turnE.y), abs(turnE.z)) * loops.variance
            + Vector3(1, 1, 1) * (noise.gyroNoiseIntensity * time + pending.bridgedVariance)
        growth.biasNoise = coefficients.biasNoise * biasWalk.factor * time
        // The deviation is learned against the raw gyro: the bias estimate follows the compass.
        // So is its scale error: what taking it out turned is a correction too.
        deviation.corrected(by: -(growth.rotationIntegral * gyroBias).z + pending.scaledTurn * r.row2.dot(upScalingAxis))
        fieldHistory.carried(upTime: growth.rotationIntegral.row2, bias: gyroBias, turn: turnE.z,
                             scaledTurn: pending.scaledTurn * r.row2.dot(upScalingAxis), path: pending.turn.length)
        pending.scaledTurn = 0
        let missedAboutUp = pending.missedRotation.z
        deviation.grew(turn: turnE.z,
                       heading: noise.gyroNoiseIntensity * time + pending.bridgedVariance + missedAboutUp * missedAboutUp,
                       interval: time, temperature: warming.temperature)
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

    /// A board that keeps one up and turns about it (a vehicle, a boat, a
    /// turntable) shows its gyro's scale error about that up against the
    /// compass (``CompassDeviation``): it is taken out of the rate while the
    /// board is at that up. Left in, the bias took it in during each steady
    /// turn and let it go at each stop, and a heading carried by the gyro
    /// through a disturbance drifted by it (3 % of every turn on a cheap part).
    mutating func followScaleAboutUp(bodyUp: Vector3) {
        guard let learned = deviation.scaleAboutUp(bodyUp: bodyUp) else {
            upScaling = .zero
            return
        }
        upScalingAxis = learned.up
        upScaling = learned.up * learned.scale
    }

    /// A lever arm is taken out for the first time (``LeverArmEstimate``): the
    /// tilt readings fused until then held the swing's acceleration, and
    /// through the tilt (and the compass it levels) taught the bias up to
    /// `rate`, rad/s. The bias is widened by that, at most to its turn-on
    /// uncertainty, so the readings now cleaned of it can teach it again.
    mutating func unlearnSwingBias(_ rate: Double) {
        let variance = min(coefficients.initialBiasVariance, rate * rate)
        for axis in [Vector3.unitX, .unitY, .unitZ] {
            errors.widenBias(along: axis, variance: variance)
        }
    }

    /// Applies the estimated errors to attitude, bias and compass error.
    mutating func apply(_ correction: AttitudeErrorFilter.Correction) {
        let angle = correction.angle, bias = correction.bias
        let turn = Self.rotation(angle)
        attitude = (turn * attitude).normalized
        fieldStep.corrected(by: turn)
        vehicle.corrected(by: turn)
        noise.fieldCorrected(by: turn)
        gyroBias += bias
        gyroBiasTemperatureSlope += correction.slope
        // An error beyond three of its standard deviations is no compass error: bounded there.
        let bound = 3 * compassErrorVariance.squareRoot()
        compassError = min(bound, max(-bound, compassError + correction.compass))
        compassSpread.corrected(by: angle.z)
        shift.corrected(by: angle.z)
        fieldHistory.corrected(by: angle.z)
        deviation.corrected(by: angle.z)
        gravity.corrected(angle: angle, bias: bias)
    }

    /// Starts over: attitude, bias and field reference are forgotten.
    public mutating func reset() {
        self = AttitudeFusion(settings: settings)
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
