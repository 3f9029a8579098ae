import LodestoneCore

/// How far corrected samples are from the magnitude they should all have.
///
/// Fit error is defined like MotionCal's figure: the RMS of
/// `(|corrected| − target) / target`, in percent. The residual RMS is the same
/// in the units of the corrected output (µT or m/s²).
public struct FitResiduals: Hashable, Sendable {
    /// `100 · RMS((|c| − target) / target)`.
    public var fitErrorPercent: Double
    /// `RMS(|c| − target)`, in output units.
    public var residualRMS: Double
    /// Largest `||c| − target|`, in output units.
    public var maximumResidual: Double

    public init(corrected: [Vector3], target: Double) {
        var sq = 0.0, worst = 0.0
        for c in corrected {
            let r = c.length - target
            sq += r * r
            worst = max(worst, abs(r))
        }
        let rms = corrected.isEmpty ? 0 : (sq / Double(corrected.count)).squareRoot()
        residualRMS = rms
        fitErrorPercent = target > 0 ? 100 * rms / target : .infinity
        maximumResidual = worst
    }
}
