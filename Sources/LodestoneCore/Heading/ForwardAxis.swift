/// The body axis whose heading is reported, like `CLLocationManager.headingOrientation`.
///
/// The body frame is x right, y forward (top of the board), z up. `+y` is the
/// default: the top edge of the board, as on a phone held in portrait. `-z`
/// is the board's back, for a board standing upright (mounted on a wall, a
/// mast or a dashboard), as a phone's camera points when it is held up to look
/// through: its top edge (`+y`) then points at the sky and has no heading.
public enum ForwardAxis: String, CaseIterable, Sendable, Codable {
    case plusY = "+y"
    case plusX = "+x"
    case minusY = "-y"
    case minusX = "-x"
    case minusZ = "-z"
    case plusZ = "+z"

    public static let `default` = ForwardAxis.plusY

    /// The axis as a unit vector in the body frame.
    @inlinable
    public var vector: Vector3 {
        switch self {
        case .plusY: return .unitY
        case .plusX: return .unitX
        case .minusY: return -.unitY
        case .minusX: return -.unitX
        case .minusZ: return -.unitZ
        case .plusZ: return .unitZ
        }
    }

    /// The body axis that points up when the board is held the usual way for
    /// this forward axis: +z (the board lies flat) for ±x and ±y, +y (the
    /// board stands on its bottom edge) for ±z. Pitch and roll are measured
    /// against it (``Tilt``).
    @inlinable
    public var top: Vector3 {
        switch self {
        case .plusY, .plusX, .minusY, .minusX: return .unitZ
        case .minusZ, .plusZ: return .unitY
        }
    }

    /// The accepted spellings, for messages: "+y, +x, -y, -x, -z or +z".
    public static let spellings: String = {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }()

    /// Parses `+y`, `y`, `+x`, `x`, `-y`, `-x`, `-z`, `+z`, `z` (case-insensitive).
    public init?(argument: String) {
        switch argument.lowercased() {
        case "+y", "y": self = .plusY
        case "+x", "x": self = .plusX
        case "-y": self = .minusY
        case "-x": self = .minusX
        case "-z": self = .minusZ
        case "+z", "z": self = .plusZ
        default: return nil
        }
    }
}
