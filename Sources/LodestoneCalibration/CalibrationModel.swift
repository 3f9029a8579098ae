/// How many parameters a calibration fits, from the richest to the simplest.
///
/// A richer model needs samples spread over more orientations; with thin
/// coverage its extra parameters are guesses, so the calibrators fall back to
/// a simpler model instead (see `FitConditioning`).
public enum CalibrationModel: String, Sendable, Codable, CaseIterable, Comparable {
    /// Offset and one common scale: the samples lie on a sphere (4 parameters).
    case sphere
    /// Offset and a scale per axis: an axis-aligned ellipsoid (6 parameters).
    case diagonal
    /// Offset and a symmetric 3×3 matrix: any ellipsoid (9 parameters).
    case full

    /// Parameters fitted, counting the overall scale.
    public var parameterCount: Int {
        switch self {
        case .sphere: return 4
        case .diagonal: return 6
        case .full: return 9
        }
    }

    /// Richest first: the order in which the calibrators try the models.
    public static let richestFirst: [CalibrationModel] = [.full, .diagonal, .sphere]

    private var rank: Int {
        switch self {
        case .sphere: return 0
        case .diagonal: return 1
        case .full: return 2
        }
    }

    public static func < (a: CalibrationModel, b: CalibrationModel) -> Bool { a.rank < b.rank }
}
