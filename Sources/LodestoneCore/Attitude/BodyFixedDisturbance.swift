/// Learns a magnetic field carried with the board (a magnet or a magnetised
/// part fixed to it) so that the compass keeps working while it is there.
///
/// Such a field adds the same offset to every reading *in the body frame*,
/// however the board turns: `m = Rᵀ·b + o`. The earth field `b` is known from
/// the learned reference (strength and dip) and the attitude `R` from the
/// gyro, so every reading gives a residual `r = m − Rᵀ·b`: the offset, plus
/// noise and what the attitude error does to the prediction. The residuals
/// are averaged into a candidate offset, which is trusted only when
///
/// 1. they stayed consistent with one constant offset: their average over
///    ``changeTime`` never left the candidate by more than ``gate`` times
///    the spread expected from noise and attitude uncertainty. A magnet swept
///    past the board, or a board carried through a disturbed room, changes
///    the residual and restarts the candidate;
/// 2. a field carried with the board explains them significantly better than
///    a field fixed in the room. Turned into the earth frame, the residuals of
///    a carried field average out as the board turns, while those of a room
///    field (or of a heading error) stay put. The residuals' mean square splits
///    either way: `|mean_body|² + spread_body = |mean_earth|² + spread_earth`,
///    so `|mean_body|² − |mean_earth|²` is how much more the carried model
///    explains. It must exceed `gate²` times the variance of the candidate
///    (the residuals' spread over the number of independent readings, readings
///    closer together than ``correlationTime`` not counting twice). A board
///    that lay still explains nothing either way, so it waits.
///
/// The compass then uses `m − o`, with the offset's variance added to the
/// reading's. The offset is dropped at once when the residuals leave it: when
/// the plain readings explain the last ``changeTime`` better than the offset
/// does (the magnet was taken off), or when they moved away from both (it
/// moved); a new candidate then starts from the recent residuals.
///
/// It is the model of a hard-iron calibration, learned on the fly for a field
/// that comes and goes; a small residual hard-iron error is learned the same way.
///
/// A field that came in one step (``FieldStep``) need not wait for the board
/// to turn: the step is the offset at once (``stepped(by:variance:tolerated:rotation:)``),
/// tentative until the turning shows it is carried, and dropped as soon as the
/// turning shows it is fixed in the room instead (``RoomFieldStep`` then takes it).
public struct BodyFixedDisturbance: Hashable, Sendable {
    /// How long a change of the residual must last to count as a new offset,
    /// s: the residual is averaged over this time before it is compared.
    public let changeTime: Double
    /// Averaging time of the offset once established, s.
    public let averagingTime: Double
    /// How long attitude and compass errors persist, s: readings closer
    /// together than this are not independent evidence.
    public let correlationTime: Double
    /// Gate, in standard deviations, for consistency and significance.
    public let gate: Double

    /// The offset being removed from the readings, µT in the body frame; nil when none is trusted.
    /// While ``isTentative`` it is a step's, not yet told from a field fixed in the room.
    public private(set) var offset: Vector3?
    /// Variance of ``offset``, µT² (sum over the three axes).
    public private(set) var offsetVariance = 0.0
    /// Whether the offset is a step's (``stepped(by:variance:tolerated:rotation:)``),
    /// not yet shown to be carried by the board's turning.
    public var isTentative: Bool { baseline != nil }
    /// While tentative: the residual's mean before the step, less the offset
    /// then in use. The offset is the mean since, less this: the step, and
    /// any further change of the field as it settles, but not what the
    /// residual held before (the attitude's errors, a room's field).
    private var baseline: Vector3?
    private var stepVariance = 0.0
    /// Whether the step came with no offset before it: only then are the
    /// residuals since the step's alone, to be told fixed in the room.
    private var stepCameAlone = false

    private var recent = Vector3.zero     // residual averaged over `changeTime`, µT
    private var recentAllowance = 0.0     // its expected spread, averaged the same way, µT²
    private var mean = Vector3.zero       // candidate offset, body frame, µT
    private var earthMean = Vector3.zero  // the same residuals averaged in the earth frame, µT
    private var spread = 0.0              // mean |r − mean|², µT²
    private var earthSpread = 0.0         // the same about earthMean, in the earth frame, µT²
    private var time = 0.0                // how long the candidate has held, s
    private let gateSquared: Double

    public init(changeTime: Double, averagingTime: Double, correlationTime: Double, gate: Double) {
        self.changeTime = changeTime
        self.averagingTime = averagingTime
        self.correlationTime = correlationTime
        self.gate = gate
        gateSquared = gate * gate
    }

    /// Feeds one residual: `residual` in the body frame and the same vector in
    /// the earth frame (`earth`), µT. `allowance` is the variance (µT², summed
    /// over the axes) by which the residual may stray from a constant offset
    /// without the offset having changed: noise averaged over ``changeTime``
    /// and what attitude errors do to the predicted field.
    /// Returns the offset to remove from the reading, nil when none is trusted.
    @discardableResult
    public mutating func update(residual r: Vector3, earth: Vector3, allowance: Double, dt: Double) -> Vector3? {
        let alpha = min(1, dt / changeTime)
        recent += (r - recent) * alpha
        recentAllowance += (allowance - recentAllowance) * alpha
        let change = (recent - mean).squaredLength
        // With an offset in use: do the plain readings explain the recent
        // residual better than the offset does, by more than its spread?
        let removed = offset.map { (recent - $0).squaredLength - recent.squaredLength > recentAllowance } ?? false
        if time > 0, !removed, change <= gateSquared * recentAllowance {
            time += dt
            let k = dt / min(time, averagingTime)
            let d = r - mean, e = earth - earthMean
            mean += d * k
            earthMean += e * k
            spread += (d.squaredLength * (1 - k) - spread) * k
            earthSpread += (e.squaredLength * (1 - k) - earthSpread) * k
        } else {
            offset = nil
            baseline = nil
            mean = recent
            earthMean = earth
            spread = 0
            earthSpread = 0
            time = dt
        }
        let variance = meanVariance(spread: spread)
        let significant = explains(mean, betterThan: earthMean, variance: variance)
        if baseline != nil, stepCameAlone, explains(earthMean, betterThan: mean, variance: meanVariance(spread: earthSpread)) {
            // The step turned with the room, not with the board: the readings
            // are no longer corrected as if it were carried.
            offset = nil
            baseline = nil
            return nil
        }
        if let b = baseline, !significant {
            offset = mean - b
            offsetVariance = variance + stepVariance
            return offset
        }
        if offset != nil || significant {
            baseline = nil
            offset = mean
            offsetVariance = variance
        }
        return offset
    }

    /// The field stepped by `step` (body frame, µT; its variance `variance`,
    /// µT² summed over the axes) between readings (``FieldStep``): a field came
    /// with the board or went. The offset changes by the step at once, and is
    /// tentative until the board has turned enough to tell a carried field
    /// from a field fixed in the room, the evidence for which starts again
    /// from here. A step that leaves an offset less than `tolerated` (µT², what
    /// the compass's own error already allows) ends it: the field went, and
    /// what remains was there before it came. A step with no offset before is
    /// a field of its own, kept when it is beyond its variance: however small
    /// its effect on the heading, it came at once, which no compass error does.
    /// `r` is the body → earth rotation.
    public mutating func stepped(by step: Vector3, variance: Double, tolerated: Double, rotation r: Matrix3) {
        let before = offset ?? .zero, after = before + step
        stepCameAlone = offset == nil
        let base = mean - before
        // The evidence for a carried field starts again from the residual's
        // mean with the step in it, worth ``changeTime`` of readings: turned
        // into the earth frame, it is the same vector at first.
        recent += step
        mean += step
        earthMean = r * mean
        spread = 0
        earthSpread = 0
        time = changeTime
        guard after.squaredLength > gateSquared * (variance + (offset != nil ? tolerated : 0)) else {
            offset = nil
            baseline = nil
            return
        }
        baseline = base
        stepVariance = variance
        offset = after
        offsetVariance = variance
    }

    /// The variance of the residuals' mean in one frame, given their `spread`
    /// about it there: readings closer than ``correlationTime`` count once.
    private func meanVariance(spread: Double) -> Double {
        spread * correlationTime / min(time, averagingTime)
    }

    /// Whether the residuals' mean in one frame (`a`) explains them
    /// significantly better than their mean in the other (`b`): a carried
    /// field's mean holds in the body frame, a room's in the earth frame.
    private func explains(_ a: Vector3, betterThan b: Vector3, variance: Double) -> Bool {
        time > correlationTime && a.squaredLength - b.squaredLength > gateSquared * variance
    }

    /// Forgets the offset and the candidate (the reference field changed).
    public mutating func reset() {
        self = BodyFixedDisturbance(changeTime: changeTime, averagingTime: averagingTime,
                                    correlationTime: correlationTime, gate: gate)
    }
}
