/// A step of the field in the body frame: a magnet put on the board or taken
/// off, a part switched on beside it.
///
/// The earth field does not move: the recent readings, averaged in the earth
/// frame and carried into the present by the gyro's rotation, predict the next
/// one to within noise. A field that came with the board breaks that by the
/// field itself, a vector, while its effect on the heading can be a few
/// degrees at one attitude and tens at another: a 10 µT magnet is twenty
/// standard deviations of a 0.5 µT magnetometer's reading, where the heading
/// it turns may be within the compass's noise. So the step is looked for
/// here, and handed to ``BodyFixedDisturbance`` as the offset to remove,
/// which then keeps or drops it as the board turns.
///
/// A reading that jumps off the prediction (a difference that grew within
/// ``quickTime``; one that drifts there is the prediction's own error, a gyro
/// gone wrong, and is followed) opens a candidate, and the readings are held
/// back from the heading while it is open. It closes as a step once the
/// readings have agreed on one new field for ``settlingTime`` (a spike, or a
/// field still moving, is no step); as a step of the room's field when the new
/// field holds still in the earth frame while it turns in the board's; as
/// nothing when a reading is back on the prediction; and is given up after
/// ``longestCandidate`` of a field that keeps moving (a magnet waved past: the
/// strength and dip tests are for that), until the readings agree again for
/// ``settlingTime`` with a reference that follows them slowly.
struct FieldStep: Sendable {
    /// How long the new field must hold still to count, s.
    let settlingTime: Double
    /// How long a candidate may stay open, s.
    let longestCandidate: Double
    /// Averaging time of the earth-frame reference, s: longer than a magnet
    /// takes to be put on, so that the reference does not follow it.
    let referenceTime: Double
    /// The recent readings averaged in the earth frame, µT, and the variance
    /// of that average (µT², summed over the axes).
    private var reference: Vector3?
    private var referenceVariance = 0.0
    private var candidate: Candidate?
    /// The difference from the reference averaged over ``quickTime``, µT, each
    /// reading weighted by how well the attitude predicts it.
    private var quick = Vector3.zero
    /// How fast a difference must grow to be a step, s.
    var quickTime: Double { 0.25 * settlingTime }
    /// After a candidate was given up: how long the readings have agreed with
    /// the reference since; steps are looked for again after ``settlingTime``.
    private var quietSinceGiveUp: Double?

    /// The readings since the field left the prediction: their step from it,
    /// averaged over the first and the second half of ``settlingTime``.
    private struct Candidate: Sendable {
        var early = Half()
        var late = Half()
        var settled = 0.0
        var open = 0.0

        struct Half: Sendable {
            var sum = Vector3.zero
            var earthSum = Vector3.zero
            var count = 0.0
            var turning = 0.0
            var mean: Vector3 { sum / count }
            var earthMean: Vector3 { earthSum / count }
            mutating func add(_ s: Vector3, earth: Vector3, turning t: Double) {
                sum += s
                earthSum += earth
                count += 1
                turning += t
            }
        }

        /// The mean step of the half being filled, which a new reading must stay near.
        var latest: Vector3 { late.count > 0 ? late.mean : early.mean }
    }

    /// What a reading does.
    enum Outcome: Equatable, Sendable {
        /// Nothing changed: the reading may correct the heading.
        case none
        /// A step may be under way: the reading must not correct the heading.
        case holding
        /// The field stepped by this vector, body frame, µT; the variance of
        /// that figure, µT² summed over the axes.
        case step(Vector3, variance: Double)
        /// The field here stepped by this vector, earth frame, µT: a new field
        /// that holds still in the earth frame while the board turns (a part
        /// switched on in the room); its variance as for ``step(_:variance:)``.
        case roomStep(Vector3, variance: Double)
    }

    init(settlingTime: Double, longestCandidate: Double, referenceTime: Double) {
        self.settlingTime = settlingTime
        self.longestCandidate = longestCandidate
        self.referenceTime = referenceTime
    }

    /// A new reading `m` (body frame, µT) at attitude `r` (body → earth), `dt`
    /// after the previous one. `noise` is one reading's variance, µT² summed
    /// over the axes; `turning` what the attitude may be off by for it, µT²
    /// (the turn during the magnetometer's latency, the gyro's integration).
    mutating func observe(_ m: Vector3, rotation r: Matrix3, noise: Double, turning: Double, dt: Double,
                          gateSquared: Double) -> Outcome {
        let earth = r * m
        guard let ref = reference else {
            restart(at: earth, noise: noise)
            return .none
        }
        let s = m - r.transposedTimes(ref)
        let allowance = noise + referenceVariance + turning
        let isOff = s.squaredLength > gateSquared * allowance
        if let quiet = quietSinceGiveUp {
            // The reference follows slowly: a field that moved and stopped is
            // caught up with; a prediction that keeps drifting (a gyro gone
            // wrong, which the heading's safety net is for) never is.
            let quietNow = isOff ? 0 : quiet + dt
            quietSinceGiveUp = quietNow >= settlingTime ? nil : quietNow
            follow(earth, from: ref, noise: noise, weight: min(1, dt / referenceTime))
            return .none
        }
        // A field that came with the board jumps; the prediction's own error
        // (a gyro gone wrong, a tilt taken in a curve) drifts. A difference
        // that grew no faster than over ``quickTime`` is followed, and left to
        // the heading's gate and safety net.
        let jumped = (s - quick).squaredLength > gateSquared * (noise + turning)
        // A reading the attitude may be off for moves the quick average less:
        // a step that comes in a fast turn stands out once the turn ends.
        quick += (s - quick) * min(1, dt / quickTime) * noise / (noise + turning)
        if candidate == nil, isOff, !jumped {
            follow(earth, from: ref, noise: noise, weight: min(1, dt / referenceTime))
            return .none
        }
        guard isOff else {
            // Storing nil copies the whole optional through memory: most readings find it nil already.
            if case .some = candidate { candidate = nil }
            // Readings near the gate count less: the start of a field moving
            // away (a magnet coming) is not averaged into the reference.
            follow(earth, from: ref, noise: noise,
                   weight: min(1, dt / referenceTime) * (1 - s.squaredLength / (gateSquared * allowance)))
            return .none
        }
        return advance(candidate ?? Candidate(), step: s, earth: earth, rotation: r, noise: noise, turning: turning,
                       dt: dt, gateSquared: gateSquared)
    }

    /// One more reading `s` (its difference from the prediction) for the open candidate.
    private mutating func advance(_ candidate: Candidate, step s: Vector3, earth: Vector3, rotation r: Matrix3,
                                  noise: Double, turning: Double, dt: Double, gateSquared: Double) -> Outcome {
        var c = candidate
        c.open += c.early.count > 0 ? dt : 0
        // A jump away from the readings so far: the field is moving; settle again from here.
        if c.early.count > 0, (s - c.latest).squaredLength > gateSquared * (noise + turning) {
            c = Candidate(open: c.open)
        }
        if c.settled < 0.5 * settlingTime {
            c.early.add(s, earth: r * s, turning: turning)
        } else {
            c.late.add(s, earth: r * s, turning: turning)
        }
        c.settled += c.early.count > 1 || c.late.count > 0 ? dt : 0
        if c.settled >= settlingTime, let outcome = settle(&c, noise: noise, gateSquared: gateSquared) {
            restart(at: earth, noise: noise)
            return outcome
        }
        if c.open >= longestCandidate {
            // A field that keeps moving (a magnet waved about, one carried on a
            // turning board before its offset is learned) is left to the
            // strength and dip tests and to the carried field's learning.
            restart(at: earth, noise: noise)
            quietSinceGiveUp = 0
            return .none
        }
        self.candidate = c
        return .holding
    }

    /// Judges a candidate that has had ``settlingTime``: a step when its halves
    /// agree in the body frame; nothing (the room's field) when they agree in
    /// the earth frame only; else, still moving, the window slides on (nil).
    private func settle(_ c: inout Candidate, noise: Double, gateSquared: Double) -> Outcome? {
        let e = c.early, l = c.late
        let noiseDrift = gateSquared * noise * (1 / e.count + 1 / l.count)
        let drift = noiseDrift + gateSquared * (e.turning + l.turning) / (e.count + l.count)
        let bodyDrift = (l.mean - e.mean).squaredLength, earthDrift = (l.earthMean - e.earthMean).squaredLength
        let variance = noise / (e.count + l.count) + referenceVariance
        // A new field that holds still in the earth frame while it turns in the
        // board's (by more than noise, and by twice as much as in the earth
        // frame) is the room's, not a step of the board's.
        if bodyDrift > noiseDrift, 4 * earthDrift < bodyDrift {
            return .roomStep((e.earthSum + l.earthSum) / (e.count + l.count), variance: variance)
        }
        if bodyDrift <= drift {
            return .step((e.sum + l.sum) / (e.count + l.count), variance: variance)
        }
        c.early = l
        c.late = Candidate.Half()
        c.settled = 0.5 * settlingTime
        return nil
    }

    private mutating func follow(_ earth: Vector3, from ref: Vector3, noise: Double, weight k: Double) {
        reference = ref + (earth - ref) * k
        referenceVariance += (noise * k / (2 - k) - referenceVariance) * k
    }

    private mutating func restart(at earth: Vector3, noise: Double) {
        reference = earth
        referenceVariance = noise
        candidate = nil
        quick = .zero
    }

    /// The filter turned its attitude by the small rotation `q`: the
    /// earth-frame average turns with it.
    mutating func corrected(by q: Quaternion) {
        reference = reference.map { q.rotate($0) }
    }

    /// The attitude started again: no reading before it predicts the next.
    mutating func reset() {
        reference = nil
        referenceVariance = 0
        candidate = nil
        quick = .zero
    }
}
