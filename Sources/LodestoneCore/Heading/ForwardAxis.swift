/// The body axis whose heading is reported, like `CLLocationManager.headingOrientation`.
///
/// The body frame is x right, y forward (top of the board), z up. `+y` is the
/// default: the top edge of the board, as on a phone held in portrait.
public enum ForwardAxis: String, CaseIterable, Sendable, Codable {
    case plusY = "+y"
    case plusX = "+x"
    case minusY = "-y"
    case minusX = "-x"

    public static let `default` = ForwardAxis.plusY

    /// The axis as a unit vector in the body frame.
    @inlinable
    public var vector: Vector3 {
        switch self {
        case .plusY: return .unitY
        case .plusX: return .unitX
        case .minusY: return -.unitY
        case .minusX: return -.unitX
        }
    }

    /// Parses `+y`, `y`, `+x`, `x`, `-y`, `-x` (case-insensitive).
    public init?(argument: String) {
        switch argument.lowercased() {
        case "+y", "y": self = .plusY
        case "+x", "x": self = .plusX
        case "-y": self = .minusY
        case "-x": self = .minusX
        default: return nil
        }
    }
}
