import LodestoneCore

/// How far corrected samples are from the magnitude they should all have.
///
/// Fit error is defined like MotionCal's figure: the RMS of
/// `(|corrected| − target) / target`, in percent. The residual RMS is the same
/// in the units of the corrected output (µT or m/s²). Both leave out
/// outliers — samples further than `max(5σ, 0.5 % of target)` from the target,
/// σ = 1.4826 × the median absolute residual (a robust standard deviation) —
/// and say how many there were, so one glitch does not hide a good fit.
public struct FitResiduals: Hashable, Sendable {
    /// `100 · RMS((|c| − target) / target)` over the inliers.
    public var fitErrorPercent: Double
    /// `RMS(|c| − target)` over the inliers, in output units.
    public var residualRMS: Double
    /// Largest `||c| − target|` among the inliers, in output units.
    public var maximumResidual: Double
    /// Samples left out as outliers.
    public var outlierCount: Int
    /// The outlier limit used, in output units.
    public var outlierLimit: Double

    public init(corrected: [Vector3], target: Double) {
        let residuals = corrected.map { $0.length - target }
        var magnitudes = residuals.map(abs)
        let sigma = 1.4826 * EllipsoidFit.median(&magnitudes)
        let limit = max(5 * sigma, 0.005 * target)
        var sq = 0.0, worst = 0.0, inliers = 0
        for r in residuals where abs(r) <= limit {
            sq += r * r
            worst = max(worst, abs(r))
            inliers += 1
        }
        let rms = inliers == 0 ? 0 : (sq / Double(inliers)).squareRoot()
        residualRMS = rms
        fitErrorPercent = target > 0 ? 100 * rms / target : .infinity
        maximumResidual = worst
        outlierCount = residuals.count - inliers
        outlierLimit = limit
    }
}
