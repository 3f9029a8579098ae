#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The start, and the tilt kept across a gap.
extension AttitudeFusion {
    /// After a gap, the tilt held before it, its variance grown by how far the
    /// tilt wandered before the gap (``TiltSpread``): one reading's tilt is off
    /// by its acceleration, 10–20° in a vehicle's curve, which the estimate held
    /// before the gap does not share. Not when the reading puts up more than
    /// ``largestBridgedTilt`` away or the tilt wandered that far (a tumbling
    /// board), nor when neither its acceleration (what its length shows) nor
    /// that wander explains its disagreement: the board was set down anew.
    func keptLevel(acceleration a: Vector3) -> (up: Vector3, variance: Double)? {
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
    mutating func start(acceleration a: Vector3, magneticField m: Vector3, angularRate w: Vector3, dt: Double) {
        let field = carried.offset.map { m - $0 } ?? m
        deviation.lostHeading()
        accelerometerBias.restarted()
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
    mutating func initialize(up upAxis: Vector3, tiltVariance tilt: Double, magneticField m: Vector3,
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
        let before = errors
        errors = AttitudeErrorFilter(angleVariance: Vector3(tilt, tilt, headingVariance), bias: keptBias,
                                     compassVariance: compassErrorVariance)
        if hasStarted { errors.keepSlope(of: before) }
        if clean { errors.compassAngle.z = -compassErrorVariance }
        restartUnaveraged(up: upAxis)
        compassError = 0
        gravity.start(strength: strength, motionVariance: settings.motionAcceleration * settings.motionAcceleration)
        lastMagneticReadingRejected = !clean
        rest.reset()
        agreement.reset()
        shift.reset()
        fieldHistory = FieldHistory()
        fieldStep.reset()
        carriedBeforeStep = nil
        room.reset()
        imported.reset()
        lostSamples.reset()
        saturation.reset()
        leverArm.interrupted()
        biasWalk.interrupted()
        noise.fieldInterrupted()
        unconfirmed.restart(gyroBias: gyroBias - warmingShift)
        biasConfirmation.reset()
        pending = PendingField()
        growth = AttitudeErrorFilter.Growth()
        isInitialized = true
        hasStarted = true
        updateUncertainties()
    }
}
