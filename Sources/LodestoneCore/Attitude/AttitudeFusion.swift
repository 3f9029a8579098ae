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
/// the three earth axes and the gyro-bias error in the body frame, with their
/// correlations:
///
/// - the gyro-bias error makes the angle error grow, so a bias is learned from
///   any correction that keeps pulling the same way, and the heading
///   uncertainty grows honestly while the magnetometer is rejected;
/// - the bias belongs to the body: as the board turns, its effect moves from
///   one earth axis to another and the filter follows it, so a bias that
///   averages out while the board sways or spins is neither chased nor
///   claimed to be known;
/// - the accelerometer and compass readings are given the variance of errors
///   that persist over a correlation time (`motionCorrelationTime`,
///   `compassCorrelationTime`), so that many readings of one swing of the arm
///   count as one, and the filter averages linear acceleration away instead of
///   following it;
/// - the accelerometer is averaged in the earth frame over the motion
///   correlation time before it corrects the tilt: hand motion reverses, its
///   acceleration integrates to a bounded velocity and averages out, and a
///   tap is spread thin; an average that still disagrees with the prediction
///   by more than a gate (a sustained acceleration) is ignored. The average
///   remembers the last correlation time, during which a bias error kept
///   turning the estimate, so it measures the tilt error plus that lag
///   (`lag·δb`), and is fused as such;
/// - a compass reading that disagrees with the predicted heading by more than
///   a gate (in standard deviations) is ignored;
/// - a field whose strength or dip leaves the learned reference is rejected
///   (``MagneticDisturbanceRejection``); when the field is clean again, the
///   grown heading variance gives the compass a large gain and the heading
///   recovers quickly;
/// - a field carried with the board (a magnet fixed to it) is learned as a
///   body-frame offset (``BodyFixedDisturbance``) once the board has turned
///   enough to tell it from a field fixed in the room, and removed from the
///   readings, so the compass keeps correcting the heading until it goes away;
/// - at rest (``RestDetector``) the gyro reading is a direct measurement of its bias.
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

    /// Body → ENU attitude (north = magnetic north). Identity before the first usable sample.
    public private(set) var attitude = Quaternion.identity
    /// Estimated gyro bias in the body frame, rad/s (subtract it from raw readings).
    public private(set) var gyroBias = Vector3.zero
    /// Whether a usable sample has set the attitude yet.
    public private(set) var isInitialized = false

    private var errors: AttitudeErrorFilter
    private var rest: RestDetector
    private var magnetic: MagneticDisturbanceRejection
    private var carried: BodyFixedDisturbance
    private var lastMagneticReadingRejected = false
    /// The last calibrated field reading, body frame, µT.
    private var lastField = Vector3.zero
    /// Seconds left of the alignment after a start: the compass readings then
    /// share the persistent error of the first one, so only their noise is new.
    private var alignmentTimeLeft = 0.0
    private var rawFieldDisturbed = false
    /// What the uncertainty of the carried field's offset does to the heading,
    /// rad². It persists while the board turns, like a calibration error.
    private var offsetHeadingVariance = 0.0
    /// Specific force averaged in the (estimated) earth frame over the motion
    /// correlation time: hand motion reverses, so its acceleration averages out.
    private var accelerationMean = Vector3.zero
    /// Samples in that average since the start, until it spans the correlation time:
    /// a young average is the plain mean of its samples, not the first one weighted up.
    private var accelerationMeanSamples = 0.0
    /// Mean square of the acceleration about that average, (m/s²)²: how hard
    /// the board is being moved right now.
    private var motionVariance = 0.0
    /// How the average's east and north tilt depend on the gyro-bias error
    /// (body frame), s: the average remembers attitudes the bias error has
    /// since turned away from. Rows of `∫ w(t − s)·R(s) ds` over the averaging weights.
    private var eastLag = Vector3.zero
    private var northLag = Vector3.zero

    // Derived from the settings once, in SI units.
    private let angleNoise: Double          // rad²/s
    private let rateErrorSquared: Double    // rad (variance per radian turned)
    private let biasNoise: Double           // (rad/s)²/s
    private let initialBiasVariance: Double // (rad/s)²
    private let accelerometerErrorSquared: Double // (m/s²)²
    private let initialTiltVariance: Double // rad²
    private let motionAccelerationSquared: Double // (m/s²)²
    private let tiltCorrelation: Double     // s, 2 × correlation time
    private let compassVariance: Double     // rad², one compass reading (beyond noise)
    private let compassCorrelation: Double  // s, 2 × correlation time
    private let magnetometerNoiseSquared: Double // µT²
    private let compassOffsetVariance: Double // rad²
    private let latencySquared: Double      // s²
    private let accelerationGateSquared: Double
    private let magneticGateSquared: Double

    static let standardGravity = 9.80665

    public init(settings: Settings = .init()) {
        self.settings = settings
        let r = Angle.radiansPerDegree
        angleNoise = (settings.gyroNoiseDensity * r) * (settings.gyroNoiseDensity * r)
        rateErrorSquared = settings.gyroRateError * settings.gyroRateError
        biasNoise = (settings.gyroBiasRandomWalk * r) * (settings.gyroBiasRandomWalk * r)
        initialBiasVariance = (settings.initialBiasUncertainty * r) * (settings.initialBiasUncertainty * r)
        accelerometerErrorSquared = settings.accelerometerError * settings.accelerometerError
        let tilt = settings.motionAcceleration / Self.standardGravity
        initialTiltVariance = tilt * tilt
        motionAccelerationSquared = settings.motionAcceleration * settings.motionAcceleration
        tiltCorrelation = 2 * settings.motionCorrelationTime
        compassVariance = (settings.compassError * r) * (settings.compassError * r)
        compassCorrelation = 2 * settings.compassCorrelationTime
        magnetometerNoiseSquared = settings.magnetometerNoise * settings.magnetometerNoise
        compassOffsetVariance = (settings.compassOffsetError * r) * (settings.compassOffsetError * r)
        latencySquared = settings.magnetometerLatency * settings.magnetometerLatency
        accelerationGateSquared = settings.accelerationGate * settings.accelerationGate
        magneticGateSquared = settings.magneticGate * settings.magneticGate
        errors = AttitudeErrorFilter(angleVariance: .zero, bias: Matrix3(diagonal: Vector3(1, 1, 1) * initialBiasVariance))
        rest = RestDetector(rateThreshold: settings.restRateThreshold * r,
                            accelerationThreshold: settings.restAccelerationThreshold,
                            minimumDuration: settings.restMinimumDuration,
                            averagingTime: settings.restMinimumDuration / 3)
        carried = BodyFixedDisturbance(changeTime: settings.bodyFieldChangeTime,
                                       averagingTime: settings.fieldReferenceTime,
                                       correlationTime: settings.compassCorrelationTime,
                                       gate: settings.magneticGate)
        magnetic = MagneticDisturbanceRejection(normTolerance: settings.fieldNormTolerance,
                                                dipTolerance: settings.fieldDipTolerance * r,
                                                referenceTime: settings.fieldReferenceTime,
                                                noise: settings.magnetometerNoise,
                                                newFieldTime: settings.newFieldTime,
                                                newFieldRotation: settings.newFieldRotation * r)
    }

    /// One standard deviation of the heading error, degrees: grows while the
    /// compass is rejected (gyro noise, rotation-proportional error, bias
    /// uncertainty) and shrinks as clean compass readings are fused, down to
    /// ``Settings/compassOffsetError`` (plus the uncertainty of a carried
    /// field's offset while one is removed). 180 before initialisation.
    public var headingUncertainty: Double {
        guard isInitialized else { return 180 }
        let aligning = alignmentTimeLeft > 0 ? compassVariance : 0
        let variance = errors.angle.row2.z + aligning + compassOffsetVariance + offsetHeadingVariance
        return min(180, variance.squareRoot() * Angle.degreesPerRadian)
    }

    /// One standard deviation of the tilt error (larger of the two horizontal axes), degrees.
    public var tiltUncertainty: Double {
        isInitialized ? max(errors.angle.row0.x, errors.angle.row1.y).squareRoot() * Angle.degreesPerRadian : 180
    }

    /// Whether the last magnetometer reading was disturbed: rejected (field
    /// strength or dip off the reference, or a heading that contradicts the
    /// gyro), or off the reference until the field carried with the board
    /// (``bodyFieldOffset``) was taken out of it.
    public var isMagneticallyDisturbed: Bool { lastMagneticReadingRejected || rawFieldDisturbed }

    /// The offset of a field carried with the board (a magnet fixed to it),
    /// µT in the body frame, that is being removed from the readings; nil
    /// while none is trusted. See ``BodyFixedDisturbance``.
    public var bodyFieldOffset: Vector3? { carried.offset }

    /// Whether the board is lying still (the gyro bias is then being measured).
    public var isAtRest: Bool { rest.isAtRest }

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
    /// ignored too. A gap longer than ``Settings/maximumTimeStep`` re-initialises
    /// the attitude from this sample (the bias and field reference are kept).
    public mutating func update(acceleration a: Vector3, magneticField m: Vector3, angularRate w: Vector3, dt: Double) {
        guard a.isFinite, m.isFinite, w.isFinite, dt.isFinite else { return }
        let aNorm = a.length, mNorm = m.length
        guard aNorm > 0, mNorm > 0 else { return }
        lastField = m
        if !isInitialized || dt > settings.maximumTimeStep {
            initialize(acceleration: a, magneticField: carried.offset.map { m - $0 } ?? m)
            return
        }
        guard dt > 0 else { return }

        // Gyro prediction.
        let rate = w - gyroBias
        let step = rate * dt
        let turned = step.length
        attitude = (attitude * Self.rotation(step)).normalized
        let r = attitude.rotationMatrix
        // A scale-factor error turns the estimate about the axis of rotation:
        // each earth axis grows with the rotation about it.
        let rateE = r * rate
        let k = rateErrorSquared
        let rateNoise = Vector3(abs(rateE.x), abs(rateE.y), abs(rateE.z)) * k
        errors.predict(rotation: r, dt: dt, angleNoise: rateNoise + Vector3(1, 1, 1) * angleNoise, biasNoise: biasNoise)
        var correction = AttitudeErrorFilter.Correction()

        // At rest the bias-corrected rate is the bias error plus noise.
        if rest.update(angularRate: rate, acceleration: a, dt: dt) {
            let noise = angleNoise / dt
            // One reading after the other: each is compared with the state the ones before corrected.
            correction += errors.measureBias(axis: 0, innovation: rate.x, noise: noise)
            correction += errors.measureBias(axis: 1, innovation: rate.y - correction.bias.y, noise: noise)
            correction += errors.measureBias(axis: 2, innovation: rate.z - correction.bias.z, noise: noise)
        }

        // Tilt from gravity: the rotation that brings the averaged "up" to +z.
        // The average remembers the estimate of the last correlation time, and
        // a bias error has turned the estimate since: the tilt it shows is
        // θ + lag·δb, not θ. Read as θ alone, the lag pushes the bias estimate
        // further the way it is already wrong.
        let aE = r * a
        accelerationMeanSamples += 1
        let averaging = min(1, max(dt / settings.motionCorrelationTime, 1 / accelerationMeanSamples))
        accelerationMean += (aE - accelerationMean) * averaging
        motionVariance += ((aE - accelerationMean).squaredLength - motionVariance) * averaging
        eastLag = (eastLag + r.row0 * dt) * (1 - averaging)
        northLag = (northLag + r.row1 * dt) * (1 - averaging)
        let meanNorm = accelerationMean.length
        let ex = accelerationMean.y / meanNorm - correction.angle.x - eastLag.dot(correction.bias)
        let ny = -accelerationMean.x / meanNorm - correction.angle.y - northLag.dot(correction.bias)
        let tiltVariance = (min(motionVariance, motionAccelerationSquared) + accelerometerErrorSquared) / (meanNorm * meanNorm)
        if let c = errors.measureTilt(east: ex, north: ny, eastLag: eastLag, northLag: northLag,
                                      noise: tiltVariance * tiltCorrelation / dt, spread: tiltVariance,
                                      gateSquared: accelerationGateSquared) {
            correction += c
        }

        // Heading from the horizontal field, less any field carried with the board.
        let rawE = r * m
        var mE = rawE, fieldNorm = mNorm
        offsetHeadingVariance = 0
        if let o = trackCarriedField(fieldInEarth: rawE, rotation: r, rate: rate, dt: dt) {
            mE = rawE - r * o
            fieldNorm = (m - o).length
        }
        let horizontalSquared = mE.x * mE.x + mE.y * mE.y
        if carried.offset != nil {
            offsetHeadingVariance = carried.offsetVariance / (1.5 * horizontalSquared) // 2 of 3 axes are horizontal
        }
        lastMagneticReadingRejected = true
        if magnetic.classify(fieldInEarth: mE, norm: fieldNorm, rotation: turned, dt: dt),
           horizontalSquared > 1e-6 * fieldNorm * fieldNorm {
            let psi = atan2(mE.x, mE.y) - correction.angle.z
            let noise = magnetometerNoiseSquared / horizontalSquared
                + mE.z * mE.z / horizontalSquared * errors.angle.row1.y
            let compass = compassVariance + offsetHeadingVariance
            if psi * psi <= magneticGateSquared * (errors.angle.row2.z + noise + compass + compassOffsetVariance) {
                // While aligning, the persistent error is the one the start took on (see `initialize`).
                let persistent = alignmentTimeLeft > 0 ? offsetHeadingVariance : compass
                correction += errors.measureHeading(innovation: psi, noise: noise + persistent * compassCorrelation / dt)
                // The reference is learned from the earth field alone, never through an offset.
                if carried.offset == nil { magnetic.learn(norm: fieldNorm, sinDip: -mE.z / fieldNorm, dt: dt) }
                lastMagneticReadingRejected = false
            }
        }
        rawFieldDisturbed = carried.offset != nil && !magnetic.matches(fieldInEarth: rawE, norm: mNorm)
        if alignmentTimeLeft > 0 {
            alignmentTimeLeft -= dt
            // Aligned: from now on the persistent error of the readings is the filter's own.
            if alignmentTimeLeft <= 0 { errors.angle[2, 2] += compassVariance }
        }

        let angle = correction.angle, bias = correction.bias
        attitude = (Self.rotation(angle) * attitude).normalized
        gyroBias += bias
        // The average was taken along the old estimate: turn it with the
        // correction, and with what the new bias would have changed meanwhile.
        let lag = Vector3(eastLag.dot(bias), northLag.dot(bias), 0)
        accelerationMean += (angle + lag).cross(accelerationMean)
    }

    /// Compares the reading with the reference field as the current attitude
    /// predicts it and feeds the residual to ``BodyFixedDisturbance``. Returns
    /// the offset of a field carried with the board to remove, if one is trusted.
    private mutating func trackCarriedField(fieldInEarth mE: Vector3, rotation r: Matrix3, rate: Vector3,
                                            dt: Double) -> Vector3? {
        guard let norm = magnetic.referenceNorm else { return nil }
        let vertical = norm * magnetic.referenceSinDip
        let horizontal = (norm * norm - vertical * vertical).squareRoot()
        let residualE = Vector3(mE.x, mE.y - horizontal, mE.z + vertical)
        let residual = r.row0 * residualE.x + r.row1 * residualE.y + r.row2 * residualE.z // Rᵀ · residualE
        // How far the residual may stray while the offset stays the same: noise
        // averaged over the change time; the attitude uncertainty (the heading
        // turns the horizontal field, a tilt about east all of it, about north
        // the vertical part); the magnetometer's latency while the board turns.
        let allowance = magnetometerNoiseSquared * 1.5 * min(1, dt / settings.bodyFieldChangeTime)
            + errors.angle.row2.z * horizontal * horizontal + errors.angle.row0.x * norm * norm
            + errors.angle.row1.y * vertical * vertical
            + latencySquared * norm * norm * rate.squaredLength
        return carried.update(residual: residual, earth: residualE, allowance: allowance, dt: dt)
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
    /// motion and all (seen on BROAD: 1.65° instead of 1.16° RMS after a
    /// 2.3 µT update with the jump's full variance). The earth field's strength and dip reference is
    /// learned again from the next readings when the last reading, newly
    /// calibrated, no longer matches it (it was learned through a wrong
    /// calibration). Attitude and gyro bias are kept.
    public mutating func calibrationChanged(_ map: (Vector3) -> Vector3) {
        carried.reset()
        offsetHeadingVariance = 0
        rawFieldDisturbed = false
        guard isInitialized, lastField.isFinite, lastField.squaredLength > 0 else {
            magnetic.reset()
            return
        }
        let r = attitude.rotationMatrix
        let old = r * lastField, new = r * map(lastField)
        let jump = 1.5 * abs(atan2(old.x * new.y - old.y * new.x, old.x * new.x + old.y * new.y))
        errors.angle[2, 2] += jump * jump / (settings.magneticGate * settings.magneticGate)
        if !magnetic.matches(fieldInEarth: new, norm: new.length) { magnetic.reset() }
    }

    /// Starts over: attitude, bias and field reference are forgotten.
    public mutating func reset() {
        self = AttitudeFusion(settings: settings)
    }

    /// Sets the attitude from gravity and the field alone (first sample, or after a gap).
    private mutating func initialize(acceleration a: Vector3, magneticField m: Vector3) {
        let upAxis = a.normalized
        let eastAxis = m.cross(upAxis)
        let horizontal = eastAxis.length
        guard horizontal > 1e-3 * m.length else { return } // field along gravity: no heading
        let e = eastAxis / horizontal
        attitude = Quaternion(rotationMatrix: Matrix3(rows: e, upAxis.cross(e), upAxis))
        let mE = attitude.rotate(m)
        let clean = magnetic.classify(fieldInEarth: mE, norm: m.length, rotation: 0, dt: 0)
        let keptBias = isInitialized ? errors.bias : Matrix3(diagonal: Vector3(1, 1, 1) * initialBiasVariance)
        let tanDipSquared = mE.z * mE.z / (horizontal * horizontal)
        // The compass error that persists (`compassError`) is shared by the readings of
        // the next `compassCorrelationTime`: they cannot average it, only their noise.
        // So the filter aligns on them as if it were absent (a running mean of those
        // readings, not the first one alone weighed against them as independent) and
        // takes it on when the alignment ends; the uncertainty reported includes it throughout.
        let headingVariance = clean
            ? magnetometerNoiseSquared / (horizontal * horizontal) + tanDipSquared * initialTiltVariance
            : Double.pi * Double.pi
        alignmentTimeLeft = clean ? settings.compassCorrelationTime : 0
        errors = AttitudeErrorFilter(angleVariance: Vector3(initialTiltVariance, initialTiltVariance, headingVariance),
                                     bias: keptBias)
        accelerationMean = Vector3(0, 0, a.length)
        accelerationMeanSamples = 1
        eastLag = .zero
        northLag = .zero
        motionVariance = settings.motionAcceleration * settings.motionAcceleration
        lastMagneticReadingRejected = !clean
        rest.reset()
        isInitialized = true
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
