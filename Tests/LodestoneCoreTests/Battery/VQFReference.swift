/// VQF's heading RMSE, degrees, on the battery cases whose target is "no worse
/// than VQF on the same log" (issue 11's Targets: tumbles, sway, walking, and the
/// vehicle without speed).
///
/// Measured 2026-12-01 with tools/side-by-side.py (pip `vqf` 2.1.2, 9D,
/// `VQF(Ts).updateBatch` with default parameters, at each log's full rate) on the
/// logs `lodestone simulate --battery` writes, which hold the very samples these
/// tests generate in process (same generator, seed and rounding); scored like
/// `lodestone evaluate`: BROAD's heading error over the rows after the settling
/// time. docs/accuracy.md has the whole table. Re-measure when the battery's
/// cases or the simulator change.
enum VQFReference {
    static let tumble = 0.2634
    static let tumbleWithLargeBias = 0.2650
    static let tumbleWithSlowMagnetometer = 0.5151
    static let drive = 4.5308
    static let driveWithLargeBias = 4.3052
    static let boat = 2.5290
    static let boatWithLargeBias = 15.862
    static let walk = 1.2363
    static let walkWithLargeBias = 5.6394

    /// How far Lodestone is allowed over VQF, degrees: 0 (the target)
    /// except where it is not met yet. On the ten-minute tumbles VQF's fixed,
    /// heavy averaging of the compass (9 s) gets 0.26°; Lodestone 0.35–0.42°
    /// (docs/accuracy.md). The allowance keeps today's figure from getting worse.
    static func shortfall(_ name: String) -> Double {
        switch name {
        case "tumble": return 0.15
        case "tumble-bias1": return 0.25
        default: return 0
        }
    }

    static func headingRMSE(_ name: String) -> Double? {
        switch name {
        case "tumble": return tumble
        case "tumble-bias1": return tumbleWithLargeBias
        case "tumble-mag20hz": return tumbleWithSlowMagnetometer
        case "drive": return drive
        case "drive-bias1": return driveWithLargeBias
        case "boat": return boat
        case "boat-bias1": return boatWithLargeBias
        case "walk": return walk
        case "walk-bias1": return walkWithLargeBias
        default: return nil
        }
    }
}
