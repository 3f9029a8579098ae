import LodestoneCore

/// The shorter way round when the target is behind (``TurnInstruction/turnAround``).
///
/// `turnAround` is one band across ±180° so that the instruction never flips
/// between left and right while the delta hovers behind; the side is given
/// beside it, for a display that wants to draw the arrow. Raw values are the
/// names used in JSON output.
public enum TurnSide: String, Sendable, Codable, CaseIterable {
    case left
    case right

    /// The shorter side for `delta` (target bearing − heading, degrees, any value;
    /// wrapped into [−180, 180)): right when positive. Exactly behind (−180°) both
    /// ways are as long; the wrapped sign says left.
    public init(delta: Double) {
        self = Angle.normalized180(delta) > 0 ? .right : .left
    }
}
