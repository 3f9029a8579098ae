#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A compass that turned while the gyro did not: a field that came with the
/// board in one step (a magnet put on it, a motor or a lamp switched on), whose
/// strength and dip can stay within their tolerance while it turns the
/// compass by tens of degrees.
///
/// A wrong filter drifts away from the compass: a bias, a slow turn taken for
/// bias, a scale error. It cannot jump away from it between two readings
/// unless the gyro measured a turn at least that large (a saturated gyro in a
/// knock). So when the compass heading, less the gyro's, moves between two
/// clean readings by more than their noise allows and by more than the whole
/// turn the gyro measured in between, the field changed. The heading keeps
/// the gyro's, and the readings beyond the filter's gate count as disturbed,
/// not as evidence that the filter is wrong (``CompassAgreement`` would
/// otherwise give way to them within seconds, and report the shifted heading
/// as good), until a reading agrees with the filter again: the compass moved
/// back (the magnet was taken off, or ``BodyFixedDisturbance`` learned the
/// carried field and removes it, or the board turned to where it bends the
/// field less), or the filter's own heading uncertainty has grown to cover
/// it (the gyro no longer knows better than the compass).
struct CompassShift: Sendable {
    /// Whether the compass is taken to have moved.
    private var isShifted = false
    /// The last clean reading's compass heading in the filter's frame, rad,
    /// carried along with the corrections applied since, and the gyro's turn since.
    private var previous: Double?
    private var turnedSince = 0.0
    /// The heading before a jump that the next reading must confirm (one
    /// noisy reading is no shift), and the gyro's turn since then.
    private var beforeJump: (heading: Double, turned: Double)?

    /// A clean reading: `heading` is its compass heading in the frame the gyro
    /// carried since the last correction, `innovation` what the filter's gate
    /// judges (rad); `noise` the variance of one reading's heading without any
    /// disturbance allowance, `headingVariance` the filter's own (what the
    /// gyro knows), rad²; `turned` the gyro's turn since the previous reading,
    /// rad; `returned` whether the compass read so before (``FieldHistory``):
    /// a jump back there is a disturbance ending. Returns whether the reading carries the shift.
    mutating func observe(heading: Double, innovation: Double, noise: Double, headingVariance: Double, turned: Double,
                          returned: Bool = false, gateSquared: Double) -> Bool {
        turnedSince += turned
        defer {
            previous = heading
            turnedSince = 0
        }
        func isJump(from before: Double, turned: Double) -> Bool {
            let jump = Angle.wrapped(radians: heading - before)
            return jump * jump > gateSquared * 2 * noise && abs(jump) > turned
        }
        if let b = beforeJump {
            isShifted = isShifted || !returned && isJump(from: b.heading, turned: b.turned + turnedSince)
            beforeJump = nil
        } else if let p = previous, isJump(from: p, turned: turnedSince) {
            beforeJump = (p, turnedSince)
        }
        // Held until the compass agrees with the filter again: it moved back,
        // or the filter's own uncertainty has grown to cover it.
        if isShifted, innovation * innovation <= gateSquared * (headingVariance + noise) { isShifted = false }
        return isShifted
    }

    /// Whether the last reading jumped, and the next confirms or denies it.
    var awaitsConfirmation: Bool { beforeJump != nil }

    /// The filter moved its heading by `angle` (rad): the readings' headings,
    /// taken against the new heading, are smaller by as much.
    mutating func corrected(by angle: Double) {
        previous = previous.map { $0 - angle }
        beforeJump = beforeJump.map { ($0.heading - angle, $0.turned) }
    }

    /// A reading that is not clean (its strength or dip off): the next clean
    /// one is judged against the last, with the gyro's turn in between.
    mutating func skipped(turned: Double) {
        turnedSince += turned
    }

    /// The heading or the calibration started again: any shift is forgotten.
    mutating func reset() {
        self = CompassShift()
    }
}
