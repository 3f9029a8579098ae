/// A step of the field in the body frame between two magnetometer readings:
/// a magnet put on the board or taken off, a part switched on beside it.
///
/// The earth field does not move: the reading before, carried into the
/// present by the gyro's rotation (`Rᵀ_now · R_then · m_then`), predicts
/// this one to within noise. A field that came with the board breaks that
/// by the field itself, a vector, while its effect on the heading can be a
/// few degrees at one attitude and tens at another: a 10 µT magnet is twenty
/// standard deviations of a 0.5 µT magnetometer's step, where the heading it
/// turns may be within the compass's noise. So the step is looked for here,
/// and handed to ``BodyFixedDisturbance`` as the offset to remove, which it
/// then keeps or drops as the board turns.
///
/// A step counts when the next reading confirms it (one spike is no magnet):
/// both lie off the prediction from the reading before the step by the same
/// vector, within noise.
struct FieldStep: Sendable {
    /// The last reading in the earth frame, µT, turned with the corrections since.
    private var previous: Vector3?
    /// A step not yet confirmed: the earth-frame reading before it, and the step, body frame.
    private var candidate: (before: Vector3, step: Vector3)?

    /// A new reading `m` (body frame, µT) at attitude `r` (body → earth);
    /// `allowance` is the variance of one step without any change of the
    /// field (µT², summed over the axes: twice the noise, and the board's turn
    /// during the latency), `gateSquared` the gate. Returns a confirmed step,
    /// body frame, µT.
    mutating func observe(_ m: Vector3, rotation r: Matrix3, allowance: Double, gateSquared: Double) -> Vector3? {
        defer { previous = r * m }
        func step(from earth: Vector3) -> Vector3 {
            m - (r.row0 * earth.x + r.row1 * earth.y + r.row2 * earth.z)
        }
        if let c = candidate {
            candidate = nil
            let s = step(from: c.before)
            // Both readings after the step see it; their difference is noise.
            if (s - c.step).squaredLength <= gateSquared * allowance, s.squaredLength > gateSquared * allowance {
                return (s + c.step) * 0.5
            }
        }
        if let p = previous {
            let s = step(from: p)
            if s.squaredLength > gateSquared * allowance { candidate = (p, s) }
        }
        return nil
    }

    /// The filter turned its attitude by the small rotation `q`: the stored
    /// earth-frame readings turn with it.
    mutating func corrected(by q: Quaternion) {
        previous = previous.map { q.rotate($0) }
        candidate = candidate.map { (q.rotate($0.before), $0.step) }
    }

    /// The attitude started again: no reading before it predicts the next.
    mutating func reset() {
        self = FieldStep()
    }
}
