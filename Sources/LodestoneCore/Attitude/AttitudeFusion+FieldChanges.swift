#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fields that change under the compass: a field carried with the board, a step in the room's field, a new calibration.
extension AttitudeFusion {
    /// Compares the reading with the reference field as the current attitude
    /// predicts it and feeds the residual to ``BodyFixedDisturbance``. Returns
    /// the offset of a field carried with the board to remove, if one is trusted.
    mutating func trackCarriedField(fieldInEarth mE: Vector3, rotation r: Matrix3, rate: Vector3,
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
    static func stepAmbiguity(tentative offset: Vector3?, step: Vector3?, rotation r: Matrix3) -> Double {
        guard let offset, let step else { return 0 }
        return (r * offset - step).squaredLength
    }

    /// Looks for a step of the body-frame field (``FieldStep``) and hands a
    /// confirmed one to the carried field's offset. Returns whether the reading
    /// must be held back while a step may be under way. What the attitude may
    /// be off by for a reading: the turn during the magnetometer's latency, and
    /// what the gyro's integration may miss of the turn since the previous
    /// reading (up to half of it, when the rate changed as fast as it turned).
    mutating func fieldStepped(_ m: Vector3, rotation r: Matrix3, rate: Vector3, dt: Double) -> Bool {
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
            if returned(to: r * m) { return false }
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
            if returned(to: r * m) { return false }
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

    /// Whether a step of the field is its return to a field read before
    /// (``FieldHistory``): then no field is removed, and where the heading
    /// disagrees with it, the heading followed a disturbance.
    mutating func returned(to e: Vector3) -> Bool {
        guard let returned = fieldReturn(e) else { return false }
        let disagreement = Angle.wrapped(radians: atan2(e.x, e.y) - compassError)
        if !isWithinHeadingGate(disagreement, white: 3 * noise.magnetometerVariance / (e.x * e.x + e.y * e.y)) {
            disturbanceEnded(returned, disagreement: disagreement, rotation: attitude.rotationMatrix)
        }
        return true
    }

    /// The compass came back to a field read before (``FieldHistory``): the
    /// readings since were disturbed, and the heading followed them. It gives
    /// way to the compass, and what the readings taught since is forgotten:
    /// the bias about up (``giveWayToCompass(disagreement:lasting:rotation:)``);
    /// the deviation and scale error (``CompassDeviation``), which took the
    /// disturbance's growth during a turn for the gyro's; and the field's
    /// strength and dip, which are the earlier field's again (learned from the
    /// disturbed readings, they made the clean ones look carried).
    mutating func disturbanceEnded(_ returned: FieldHistory.Return, disagreement: Double, rotation r: Matrix3) {
        giveWayToCompass(disagreement: disagreement, lasting: returned.age, rotation: r)
        deviation.reset()
        let norm = returned.field.length
        magnetic.adopt(norm: norm, sinDip: -returned.field.z / norm, over: FieldHistory.block)
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
    mutating func noticeRoomStepFading(corrected: Vector3, measured: Vector3,
                                               correction c: AttitudeErrorFilter.Correction, dt: Double) {
        func innovation(_ e: Vector3) -> Double {
            Angle.wrapped(radians: atan2(e.x, e.y) - c.angle.z - compassError - c.compass)
        }
        let fromCorrected = innovation(corrected), fromMeasured = innovation(measured)
        let horizontalSquared = measured.x * measured.x + measured.y * measured.y
        let agrees = isWithinHeadingGate(fromMeasured, white: 3 * noise.magnetometerVariance / horizontalSquared)
            && abs(fromMeasured) < abs(fromCorrected)
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
    static func fitsReference(_ e: Vector3, betterThan other: Vector3, reference: MagneticDisturbanceRejection,
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
        fieldHistory = FieldHistory()
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
        noise.fieldInterrupted()
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
}
