#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The tilt from gravity, and giving way to it when the filter's own tilt is wrong.
extension AttitudeFusion {
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
    mutating func correctTilt(_ correction: inout AttitudeErrorFilter.Correction, interval: Double) -> Double {
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
                                         noise: correlated / interval, teachesSlope: explainable == 0)
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
    mutating func giveWayToGravity(east: Double, north: Double, interval: Double) {
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
    mutating func reviewStartTilt(east: Double, north: Double) {
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
    var speedLagTilt: Double {
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
    var sustainedTiltVariance: Double {
        @inline(__always) get { // out of line, the whole fusion was copied to call it
            let level = gravity.explainableTilt(sampleVariance: noise.accelerometerVariance, dt: lastStep)
            return min(level, gravity.disagreement) + gravity.persistentDisagreement.squaredLength + unconfirmed.variance
        }
    }
}
