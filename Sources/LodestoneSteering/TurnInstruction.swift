import LodestoneCore

/// What to tell someone holding the board so that they face the target.
///
/// The bands follow the eight-point compass rose relative to the heading:
/// each instruction names the nearest of the directions 0°, ±45°, ±90°, ±135°,
/// 180°, so the edges lie halfway between them, at 67.5°, 112.5° and 157.5°.
/// Only "ahead" is narrower than its 45° sector: it is the dead-band, default
/// ±10° (the tolerance of Core Location's classic heading example), because
/// someone told "ahead" while 20° off will miss a target a few hundred
/// metres away by ~100 m.
///
/// With `delta` = target bearing − heading in [−180°, 180°) (positive: the
/// target is clockwise, to the right):
///
/// | \|delta\|              | instruction                          |
/// |------------------------|--------------------------------------|
/// | ≤ tolerance            | `ahead`                              |
/// | ≤ 67.5°                | `slightLeft` / `slightRight`         |
/// | ≤ 112.5°               | `left` / `right`                     |
/// | ≤ 157.5°               | `sharpLeft` / `sharpRight`           |
/// | > 157.5°               | `turnAround` (no side)               |
///
/// Raw values are the names used in JSON output.
public enum TurnInstruction: String, Sendable, Codable, CaseIterable {
    case ahead
    case slightLeft
    case left
    case sharpLeft
    case turnAround
    case slightRight
    case right
    case sharpRight

    /// Upper edge of the slight bands, |delta| in degrees.
    public static let slightLimit = 67.5
    /// Upper edge of the left/right bands.
    public static let turnLimit = 112.5
    /// Upper edge of the sharp bands; beyond it, turn around.
    public static let sharpLimit = 157.5

    /// The instruction for `delta` (degrees, wrapped to [−180, 180)), without hysteresis.
    /// `aheadTolerance` is the half-width of the ahead band, in [0, 67.5).
    public init(delta: Double, aheadTolerance: Double) {
        let wrapped = Angle.normalized180(delta)
        let magnitude = abs(wrapped)
        if magnitude <= aheadTolerance {
            self = .ahead
        } else if magnitude > Self.sharpLimit {
            self = .turnAround
        } else {
            let right = wrapped > 0
            if magnitude <= Self.slightLimit {
                self = right ? .slightRight : .slightLeft
            } else if magnitude <= Self.turnLimit {
                self = right ? .right : .left
            } else {
                self = right ? .sharpRight : .sharpLeft
            }
        }
    }

    /// Whether `delta` lies in this instruction's band widened by `margin` degrees
    /// at both edges: the test for keeping an instruction under hysteresis.
    ///
    /// Side bands are widened across 0° as well (with a zero tolerance, slight
    /// left and slight right meet there); `turnAround` is one band across ±180°,
    /// so a delta hovering there never flips a side.
    public func contains(delta: Double, aheadTolerance: Double, margin: Double) -> Bool {
        let wrapped = Angle.normalized180(delta)
        switch self {
        case .ahead:
            return abs(wrapped) <= aheadTolerance + margin
        case .turnAround:
            return abs(wrapped) >= Self.sharpLimit - margin
        case .slightRight, .right, .sharpRight, .slightLeft, .left, .sharpLeft:
            let onSide = isRight ? wrapped : -wrapped
            let (lower, upper) = sideBand(aheadTolerance: aheadTolerance)
            return onSide >= lower - margin && onSide <= upper + margin
        }
    }

    private var isRight: Bool { self == .slightRight || self == .right || self == .sharpRight }

    /// The band of a side instruction as |delta| from…to.
    private func sideBand(aheadTolerance: Double) -> (Double, Double) {
        switch self {
        case .slightLeft, .slightRight: return (aheadTolerance, Self.slightLimit)
        case .left, .right: return (Self.slightLimit, Self.turnLimit)
        default: return (Self.turnLimit, Self.sharpLimit)
        }
    }
}
