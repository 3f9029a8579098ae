#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The heading from the compass: its reading, noise, agreement with the heading, and what it teaches.
extension AttitudeFusion {
    /// Heading from the horizontal field, less any field carried with the
    /// board. `m` is the reading turned into the present; `dt` the time since
    /// the previous reading was fused.
    mutating func correctHeading(_ correction: inout AttitudeErrorFilter.Correction, field m: Vector3,
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
        // A compass that turned while the gyro did not is disturbed, however
        // clean its field looks, unless it turned back to where it read before:
        // then, where the heading disagrees with it, the heading followed a disturbance.
        let returned = shift.awaitsConfirmation ? fieldReturn(measuredE) : nil
        if shift.observe(heading: heading.corrected, innovation: innovation, noise: readingNoise.undisturbed,
                         headingVariance: errors.angle.row2.z, turned: pending.rotation, returned: returned != nil,
                         gateSquared: coefficients.magneticGateSquared) {
            agreement.reset()
            compassLearningInterrupted()
            return
        }
        if let returned, !isWithinHeadingGate(innovation, white: readingNoise.white) {
            disturbanceEnded(returned, disagreement: innovation, rotation: r)
        }
        let accepted = isWithinHeadingGate(innovation, white: readingNoise.white)
        judgeAgreement(innovation: innovation, accepted: accepted, correction: correction, noise: readingNoise,
                       rotation: r, dt: dt)
        guard accepted else {
            compassLearningInterrupted()
            return
        }
        fuseHeading(innovation: innovation, noise: readingNoise, into: &correction)
        // The reference, and the compass error's size, are learned from the earth field alone, never through an offset.
        if !readsCompassLessAnOffset {
            fieldHistory.record(field: measuredE, bias: gyroBias, biasVariance: r.row2.dot(errors.bias * r.row2),
                                scale: upScaling.dot(upScalingAxis), time: elapsed)
            learn(from: reading, heading: heading, innovation: innovation, noise: readingNoise, correction: correction,
                  rotation: r, dt: dt)
        }
        lastMagneticReadingRejected = false
    }

    /// A magnetometer reading as the heading correction reads it.
    struct CompassReading {
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
    struct CompassHeading {
        var read: Double
        var corrected: Double
        var board: (sin: Double, cos: Double)?
    }

    /// The noise of a reading's heading, rad².
    struct ReadingNoise {
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
    mutating func lessOffsets(_ m: Vector3, measured measuredE: Vector3, rotation r: Matrix3, rate: Vector3,
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
    mutating func weighOffsets(of reading: CompassReading, rotation r: Matrix3,
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
    mutating func compassHeading(of reading: CompassReading, rotation r: Matrix3) -> CompassHeading {
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
    func headingNoise(of reading: CompassReading, rate: Vector3) -> ReadingNoise {
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

    /// Whether a compass reading `innovation` rad from the heading, of white
    /// noise `white` (rad²), lies within the gate of the heading and the
    /// compass's error (``Settings/magneticGate``).
    @inline(__always) // out of line, the whole fusion would be copied to call it
    func isWithinHeadingGate(_ innovation: Double, white: Double) -> Bool {
        innovation * innovation <= coefficients.magneticGateSquared * (errors.compassHeadingVariance + white)
    }

    /// An earlier field (``FieldHistory``) that the plain reading `e` (earth
    /// frame) matches where the last one did not: a disturbance the heading
    /// followed has ended. nil when there is none, or when an offset is taken
    /// from the readings (the history holds the plain field).
    func fieldReturn(_ e: Vector3) -> FieldHistory.Return? {
        guard !readsCompassLessAnOffset else { return nil }
        return fieldHistory.return(of: e, time: elapsed, tolerance: .init(
            gateSquared: coefficients.magneticGateSquared, noise: noise.magnetometerVariance,
            tilt: errors.largestTiltVariance, compass: compassErrorVariance,
            correlationAngle: coefficients.compassCorrelationAngle, walk: coefficients.biasNoise * biasWalk.factor))
    }

    /// Puts the reading to ``CompassAgreement``, which judges the compass
    /// itself against the heading (what the compass-error estimate explains
    /// away is part of the disagreement), and gives way to it when it asks.
    mutating func judgeAgreement(innovation: Double, accepted: Bool, correction: AttitudeErrorFilter.Correction,
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
    mutating func fuseHeading(innovation: Double, noise: ReadingNoise,
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
    mutating func learn(from reading: CompassReading, heading: CompassHeading, innovation: Double,
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
    mutating func takeDeviation(_ angle: Double?) {
        if (angle == nil) != (deviationInUse == nil) {
            compassError += (deviationInUse ?? 0) - (angle ?? 0)
        }
        deviationInUse = angle
    }

    /// The heading (sin, cos) of a body axis in the filter's frame; nil when
    /// it is too steep for one.
    static func heading(of axis: Vector3, rotation r: Matrix3) -> (sin: Double, cos: Double)? {
        let f = r * axis
        let horizontal = (f.x * f.x + f.y * f.y).squareRoot()
        guard horizontal > 0.5 else { return nil }
        return (f.x / horizontal, f.y / horizontal)
    }

    /// A compass reading was disturbed or rejected: what is learned from pairs
    /// and loops of clean readings (the compass error's size, the gyro's rate
    /// error) starts afresh from the next one.
    mutating func compassLearningInterrupted() {
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
    mutating func giveWayToCompass(disagreement: Double, lasting: Double, rotation r: Matrix3) {
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
    mutating func restartUnaveraged(up: Vector3) {
        unaveraged.start(heading: errors.angle.row2.z, bias: up.dot(errors.bias * up), compass: errors.compass,
                         headingCompass: errors.compassAngle.z)
    }
}
