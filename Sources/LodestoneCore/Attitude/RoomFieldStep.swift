/// A field switched on beside the board (a motor, a heater's relay): a step
/// of the field fixed in the room, removed from the readings in the earth frame.
///
/// ``FieldStep`` finds a step and tells, as the board turns, whether the new
/// field turns with the board or holds still in the earth frame. A walker
/// turns too little in a step's settling time to tell, so a step first becomes
/// a carried field's tentative offset (``BodyFixedDisturbance``), and is
/// remembered here as it was in the earth frame (``tookCarriedStep(_:)``):
/// when the turning drops that offset and the readings are still off the
/// reference by the step, the step was the room's (``carriedStepResolved(residual:reference:allowance:gateSquared:)``).
///
/// The room's field is known where it was measured: as the board moves on,
/// the field there may differ by as much again, so the step's variance grows
/// toward its own size squared (``aged(dt:growthTime:)``). The step ends when
/// the field steps back, or when, for a while, the readings without it agree
/// with the heading, or with the reference's strength and dip, and better than
/// with it (the board carried away from a field that faded rather than
/// stepped: ``observeFading(agrees:dt:longest:)``).
struct RoomFieldStep: Sendable {
    /// A field in the earth frame, µT, and the variance of that figure, µT² summed over the axes.
    struct Field: Sendable {
        var earth: Vector3
        var variance: Double
    }

    /// The room's field removed from the readings, if one is.
    private(set) var removed: Field?
    /// The last step taken for a carried field while that field is tentative.
    private(set) var unresolved: Field?
    /// How long the readings without the room's field have agreed with the heading better than with it,
    /// less twice the time they did not, s.
    private var fadedFor = 0.0

    /// The room's field stepped by `step`; `gateSquared` is the squared gate
    /// within which what remains of the field is taken to be nothing.
    mutating func stepped(by step: Field, gateSquared: Double) {
        let earth = (removed?.earth ?? .zero) + step.earth, variance = (removed?.variance ?? 0) + step.variance
        removed = earth.squaredLength <= gateSquared * variance ? nil : Field(earth: earth, variance: variance)
        fadedFor = 0
    }

    /// The field stepped by `step` (earth frame): whether that was the room's
    /// field going as it came, which then ends.
    mutating func steppedBack(by step: Field, gateSquared: Double) -> Bool {
        guard let room = removed,
              (step.earth + room.earth).squaredLength <= gateSquared * (step.variance + room.variance) else { return false }
        removed = nil
        fadedFor = 0
        return true
    }

    /// A step taken for a carried field, as it was in the earth frame, while
    /// that field is tentative; `nil` once it is not.
    mutating func tookCarriedStep(_ step: Field?) {
        unresolved = step
    }

    /// The carried field is no longer tentative. If it was dropped
    /// (`residual`, the readings' departure from the `reference` field in the
    /// earth frame, is given) and the readings are off the reference by the
    /// last step taken for it, within `gateSquared` × (`allowance` + the
    /// step's variance), that step was the room's. While the step was taken
    /// for a carried field's, the heading may have turned with it; so the
    /// readings may instead match the reference with the step added in
    /// strength across and along up, which a heading error does not change,
    /// where the reference alone does not.
    mutating func carriedStepResolved(residual: Vector3?, reference: Vector3, allowance: Double, gateSquared: Double) {
        guard let step = unresolved else { return }
        unresolved = nil
        guard let residual else { return }
        let limit = gateSquared * (allowance + step.variance)
        let left = (residual - step.earth).squaredLength
        let measured = residual + reference
        let matchesTurned = Self.levelDistanceSquared(measured, reference + step.earth) <= limit
            && Self.levelDistanceSquared(measured, reference) > limit
        guard (left < residual.squaredLength && left <= limit) || matchesTurned else { return }
        stepped(by: step, gateSquared: gateSquared)
    }

    /// The squared distance between two earth-frame fields in their horizontal
    /// strength and their vertical part, which a turn about up leaves alone, µT².
    static func levelDistanceSquared(_ a: Vector3, _ b: Vector3) -> Double {
        let across = (a.x * a.x + a.y * a.y).squareRoot() - (b.x * b.x + b.y * b.y).squareRoot(), up = a.z - b.z
        return across * across + up * up
    }

    /// The step's variance grows toward its size squared over `growthTime`.
    mutating func aged(dt: Double, growthTime: Double) {
        guard var room = removed else { return }
        room.variance += max(0, room.earth.squaredLength - room.variance) * dt / growthTime
        removed = room
    }

    /// Whether the reading without the room's field `agrees` with the heading,
    /// and better than with it. The step ends once the readings have agreed
    /// for `longest` seconds more than twice the time they did not: as the
    /// field fades, what is left of it nears the tests' edge, and one reading
    /// in a few misses by noise alone, so one miss must not start the time
    /// again. Returns whether it ended.
    mutating func observeFading(agrees: Bool, dt: Double, longest: Double) -> Bool {
        fadedFor = agrees ? fadedFor + dt : max(0, fadedFor - 2 * dt)
        guard fadedFor >= longest else { return false }
        removed = nil
        fadedFor = 0
        return true
    }

    /// Forgets the room's field and any step not yet resolved.
    mutating func reset() {
        removed = nil
        unresolved = nil
        fadedFor = 0
    }
}
